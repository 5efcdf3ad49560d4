/** `docsctl org …`, `docsctl user …`, `docsctl member invite`. */
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
