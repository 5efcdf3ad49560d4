/** `docsctl org …`, `docsctl user …`, `docsctl member invite`, `docsctl system info`. */
import type { OperationCommandSpec } from '../operation.js';

export const orgCommands: OperationCommandSpec[] = [
  {
    command: 'org list',
    route: 'listOrganizationsForAuthenticatedUser',
    summary: 'List your organizations',
    aliases: ['ls'],
    output: 'list',
    columns: 'organization',
    noun: 'organization',
    examples: ['docsctl org list', 'docsctl org list --json | jq -r ".[].id"'],
  },
  {
    command: 'org get',
    route: 'getOrganizationById',
    summary: 'Show an organization',
    args: [{ name: 'organizationId', description: 'organization id' }],
    output: 'object',
    columns: 'organization',
    examples: ['docsctl org get 9fXk2hQ', 'docsctl org get 9fXk2hQ --json'],
  },
  {
    command: 'org edit',
    route: 'updateOrganizationById',
    summary: 'Change the settings of an organization (admins)',
    args: [{ name: 'organizationId', description: 'organization id' }],
    flags: [
      { flags: '--title <title>', description: 'title (2–255 characters)', to: 'body.title' },
      {
        flags: '--default-role <role>',
        description: 'role of people invited without one',
        to: 'body.defaultRole',
        choices: ['admin', 'create', 'edit', 'review', 'comment', 'read', 'guest'],
        nullAs: 'guest',
      },
      { flags: '--invite-links', description: 'let invite links work (docsctl invite-link …)', to: 'body.inviteLinks', type: 'boolean' },
      { flags: '--no-invite-links', description: 'stop every invite link from working', to: 'body.inviteLinks', type: 'boolean' },
    ],
    build: (_options, input) => {
      const body = input.body as Record<string, unknown> | undefined;
      if (body?.defaultRole === 'guest') body.defaultRole = null;
    },
    nonEmptyBody: 'Nothing to change: pass --title, --default-role or --invite-links/--no-invite-links',
    output: 'object',
    columns: 'organization',
    examples: ['docsctl org edit 9fXk2hQ --invite-links', 'docsctl org edit 9fXk2hQ --title "Acme Docs" --default-role read'],
  },
  {
    command: 'system info',
    route: 'getApiInformation',
    summary: 'Show the version and build date of the API server (this docsctl, locally)',
    output: 'object',
    columns: 'apiInformation',
    examples: ['docsctl system info', 'docsctl --endpoint https://api.gitbook.com system info --json'],
  },
  {
    command: 'user me',
    route: 'getAuthenticatedUser',
    summary: 'Show the authenticated user',
    aliases: ['whoami'],
    output: 'object',
    columns: 'user',
    examples: ['docsctl user me', 'docsctl user me --format ids'],
  },
  {
    command: 'member invite',
    route: 'inviteUsersToOrganization',
    summary: 'Invite people to an organization by e-mail (locally they become members at once)',
    args: [{ name: 'emails', description: 'e-mail addresses', variadic: { to: 'body.emails' } }],
    org: true,
    flags: [
      {
        flags: '--role <role>',
        description: 'role of the new members',
        to: 'body.role',
        choices: ['admin', 'create', 'edit', 'review', 'comment', 'read', 'guest'],
        nullAs: 'guest',
      },
      { flags: '--sso', description: 'invite as SSO members', to: 'body.sso', type: 'boolean' },
    ],
    build: (_options, input) => {
      const body = input.body as Record<string, unknown>;
      if (body.role === 'guest') body.role = null;
    },
    output: 'object',
    columns: 'invite',
    examples: ['docsctl member invite ada@example.com grace@example.com --role edit'],
  },
];
