/** `docsctl member …` and `docsctl team …` (API doc §4.17–4.18). USER is a user id or an e-mail. */
import { ApiError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { OperationCommandSpec } from '../operation.js';
import type { Session } from '../session.js';

const ROLES = ['admin', 'create', 'edit', 'review', 'comment', 'read', 'guest'];

interface MemberItem {
  id: string;
  user?: { email?: string };
}

/**
 * The user id of a member given by id or e-mail: an e-mail is looked up with the
 * members search (so it works against any /v1 server); 404 when no member has it.
 */
export async function memberId(session: Session, organizationId: string, ref: string): Promise<string> {
  if (!ref.includes('@')) return ref;
  const transport = await session.transport();
  const wanted = ref.trim().toLowerCase();
  let page: string | undefined;
  do {
    const { body } = await transport.request('listMembersInOrganizationById', {
      params: { organizationId },
      query: { search: ref.trim(), limit: 1000, ...(page ? { page } : {}) },
    });
    const list = body as { items?: MemberItem[]; next?: { page?: string } };
    const found = list.items?.find((item) => item.user?.email?.toLowerCase() === wanted);
    if (found) return found.id;
    page = list.next?.page;
  } while (page);
  throw new ApiError(404, `No member of organization ${organizationId} has the e-mail ${ref}`, {
    hint: 'run "docsctl member list --search TEXT" to find them, or "docsctl member invite" to add them',
  });
}

/** Replaces an e-mail in params.userId by the member's id. */
async function resolveUserParam(session: Session, input: RawInput): Promise<void> {
  const params = input.params as Record<string, string>;
  params.userId = await memberId(session, params.organizationId as string, params.userId as string);
}

const user = { name: 'userId', description: 'user id or e-mail' };

export const memberCommands: OperationCommandSpec[] = [
  {
    command: 'member list',
    route: 'listMembersInOrganizationById',
    summary: 'List the members of an organization (newest first)',
    aliases: ['ls'],
    org: true,
    flags: [
      { flags: '--role <role>', description: 'only members with this role', to: 'query.role', choices: ROLES },
      { flags: '--search <text>', description: 'match display name or e-mail', to: 'query.search' },
      { flags: '--sort <field>', description: 'joinedAt (default) or lastSeenAt (active members only)', to: 'query.sort', choices: ['joinedAt', 'lastSeenAt'] },
      { flags: '--order <order>', description: 'desc (default) or asc', to: 'query.order', choices: ['asc', 'desc'] },
    ],
    output: 'list',
    columns: 'member',
    noun: 'member',
    examples: ['docsctl member list --role admin', 'docsctl member list --search ada --json', 'docsctl member list --sort lastSeenAt --all --format ids'],
  },
  {
    command: 'member get',
    route: 'getMemberInOrganizationById',
    summary: 'Show a member',
    args: [user],
    org: true,
    resolve: resolveUserParam,
    output: 'object',
    columns: 'member',
    examples: ['docsctl member get ada@acme.io', 'docsctl member get 3kQ9x --json'],
  },
  {
    command: 'member edit',
    route: 'updateMemberInOrganizationById',
    summary: "Change a member's role (the last admin cannot be demoted)",
    args: [user],
    org: true,
    flags: [{ flags: '--role <role>', description: 'new role (guest = no role)', to: 'body.role', choices: ROLES, nullAs: 'guest', required: true }],
    build: (_options, input) => {
      const body = input.body as Record<string, unknown>;
      if (body.role === 'guest') body.role = null;
    },
    resolve: resolveUserParam,
    output: 'object',
    columns: 'member',
    examples: ['docsctl member edit ada@acme.io --role admin', 'docsctl member edit 3kQ9x --role guest'],
  },
  {
    command: 'member remove',
    route: 'removeMemberFromOrganizationById',
    summary: 'Remove a member from the organization and its teams (the last admin cannot be removed)',
    aliases: ['rm'],
    args: [user],
    org: true,
    resolve: resolveUserParam,
    confirm: (input) => `Remove member ${(input.params as Record<string, string>).userId} from the organization?`,
    output: 'delete',
    columns: 'member',
    noun: 'member',
    examples: ['docsctl member remove ada@acme.io --yes'],
  },
  {
    command: 'member spaces',
    route: 'listSpacesForOrganizationMember',
    summary: 'List the spaces a member can access, with their permission',
    args: [user],
    org: true,
    resolve: resolveUserParam,
    flags: [{ flags: '--order <order>', description: 'desc (default) or asc', to: 'query.order', choices: ['asc', 'desc'] }],
    output: 'list',
    columns: 'memberSpace',
    noun: 'space',
    examples: ['docsctl member spaces ada@acme.io', 'docsctl member spaces ada@acme.io --all --json'],
  },
  {
    command: 'member teams',
    route: 'listTeamsForOrganizationMember',
    summary: 'List the teams of a member, with their team role',
    args: [user],
    org: true,
    resolve: resolveUserParam,
    flags: [{ flags: '--title <text>', description: 'only teams whose title contains this', to: 'query.title' }],
    output: 'list',
    columns: 'memberTeam',
    noun: 'team',
    examples: ['docsctl member teams ada@acme.io'],
  },
  {
    command: 'member sso',
    route: 'setUserAsSSOMemberForOrganization',
    summary: 'Mark a member as an SSO member',
    args: [user],
    org: true,
    resolve: resolveUserParam,
    output: 'object',
    columns: 'member',
    examples: ['docsctl member sso ada@acme.io'],
  },
  {
    command: 'member ping',
    route: 'updateOrganizationMemberLastSeenAt',
    summary: 'Record that you were active in the organization now (last seen)',
    org: true,
    output: 'empty',
    columns: 'member',
    examples: ['docsctl member ping --org 9fXk2hQ'],
  },
];

