/** `docsctl invite-link …`: secret links that make whoever follows them a member of an organization. */
import type { RawInput } from '../../api/validate.js';
import type { OperationCommandSpec } from '../operation.js';

const ROLES_OR_GUEST = ['admin', 'create', 'edit', 'review', 'comment', 'read', 'guest'];

/** `--role guest` is the API's null role. */
const guestIsNull = (_options: Record<string, unknown>, input: RawInput) => {
  const body = input.body as Record<string, unknown> | undefined;
  if (body?.role === 'guest') body.role = null;
};

const invite = { name: 'inviteId', description: 'invite link id (its secret)' };

export const inviteLinkCommands: OperationCommandSpec[] = [
  {
    command: 'invite-link list',
    route: 'listOrganizationInviteLinks',
    summary: 'List the invite links of an organization (admins)',
    aliases: ['ls'],
    org: true,
    output: 'list',
    columns: 'inviteLink',
    noun: 'invite link',
    examples: ['docsctl invite-link list', 'docsctl invite-link list --format ids'],
  },
  {
    command: 'invite-link create',
    route: 'createOrganizationInvite',
    summary: 'Create an invite link: whoever has its id may join with the role (needs invite links on: org edit --invite-links)',
    org: true,
    flags: [{ flags: '--role <role>', description: 'role of those who join', to: 'body.role', choices: ROLES_OR_GUEST, nullAs: 'guest', required: true }],
    build: guestIsNull,
    output: 'object',
    columns: 'inviteLink',
    examples: ['docsctl invite-link create --role edit --format ids'],
  },
  {
    command: 'invite-link get',
    route: 'getOrganizationInviteLink',
    summary: 'Show an invite link (anyone who has it; REDUNDANT: joining would give you nothing)',
    args: [invite],
    org: true,
    output: 'object',
    columns: 'inviteLink',
    examples: ['docsctl invite-link get 0Abc…xyz --org ORG'],
  },
  {
    command: 'invite-link edit',
    route: 'updateOrganizationInviteById',
    summary: 'Change the role an invite link gives',
    args: [invite],
    org: true,
    flags: [{ flags: '--role <role>', description: 'role of those who join', to: 'body.role', choices: ROLES_OR_GUEST, nullAs: 'guest' }],
    build: guestIsNull,
    nonEmptyBody: 'Nothing to change: pass --role',
    output: 'object',
    columns: 'inviteLink',
    examples: ['docsctl invite-link edit 0Abc…xyz --role read'],
  },
  {
    command: 'invite-link delete',
    route: 'deleteOrganizationInviteById',
    summary: 'Delete an invite link (it stops working at once)',
    aliases: ['rm'],
    args: [invite],
    org: true,
    confirm: (input) => `Delete invite link ${String(input.params?.inviteId).slice(0, 12)}…? Nobody can join with it any more.`,
    output: 'delete',
    columns: 'inviteLink',
    noun: 'invite link',
    examples: ['docsctl invite-link delete 0Abc…xyz --yes'],
  },
  {
    command: 'invite-link join',
    route: 'joinOrganizationWithInvite',
    summary: 'Join an organization with an invite link (a member already keeps their role, or gets the higher one)',
    // The organization is an argument, not --org: a joiner is not a member yet, so no default applies.
    args: [
      { name: 'organizationId', description: 'organization id (from the link)' },
      invite,
    ],
    output: 'object',
    columns: 'inviteLink',
    // The answer is `{}`: say what happened instead (on stderr; --json prints the answer).
    after: async (session, body, input) => {
      if (session.format === 'json' || session.format === 'yaml') await session.printObject(body, []);
      else await session.info(`You are a member of organization ${String(input.params?.organizationId)}`);
    },
    examples: ['docsctl invite-link join ORG 0Abc…xyz && docsctl org get ORG'],
  },
];
