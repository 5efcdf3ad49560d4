/**
 * `user create`, `token create|list|revoke`: declared with docsctl's account routes
 * (src/api/routes/users.ts, `/v1/x-docsctl/…`) and sent through the transport like every
 * command, so they work locally, against `docsctl serve`, and say in one line that
 * another server's API has none (src/cli/missing-operation.ts). What data cannot say:
 * which of two routes a command calls (for you, or for `--user`; in an organization or
 * not), and how a new token and a revocation are printed.
 */
import { columns } from '../../output/columns.js';
import type { Hooks } from '../derive.js';

export const hooks = {
  'user create': {
    // A role is a role in an organization: with --role and no --org, the only one (or DOCSCTL_ORG), as other commands do.
    route: (options) => (options.org !== undefined || options.role !== undefined ? 'createUserInOrganization' : 'createUser'),
    async build(options, input, session) {
      if (options.role === undefined || options.org !== undefined) return;
      (input.params as Record<string, string>).organizationId = await (await import('../operation.js')).resolveOrganization(session, undefined);
    },
  },
  'token create': {
    route: (options) => (options.user !== undefined ? 'createTokenForUser' : 'createTokenForAuthenticatedUser'),
    async after(session, body) {
      // The token itself is what a script needs from `--format ids`.
      if (session.format === 'ids') return session.printText((body as { token: string }).token);
      await session.printObject(body, columns.newToken);
      if (session.format === 'table') await session.info('Keep the token: it is shown only once.');
    },
  },
  'user notifications-token': {
    async after(session, body) {
      if (session.format === 'ids') return session.printText((body as { token: string }).token);
      await session.printObject(body, columns.temporaryToken);
    },
  },
  'token list': {
    route: (options) => (options.user !== undefined ? 'listTokensForUser' : 'listTokensForAuthenticatedUser'),
    emptyHint: () => 'No tokens.',
  },
  'token revoke': {
    async after(session, body) {
      if (session.format === 'json' || session.format === 'yaml') return session.printObject(body, columns.token);
      const revoked = body as { id: string; label: string; user: string };
      await session.info(`Revoked token ${revoked.id} (${revoked.label}) of ${revoked.user}`);
    },
  },
} satisfies Hooks;
