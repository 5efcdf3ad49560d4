/** `docsctl invite-link …`: secret links that make whoever follows them a member of an organization; declared with the routes (src/api/routes/invite-links.ts). */
import type { Hooks } from '../derive.js';
import { guestIsNull } from './orgs.js';

export const hooks = {
  'invite-link create': { build: guestIsNull('role') },
  'invite-link edit': { build: guestIsNull('role') },
  // The secret is cut short in the question.
  'invite-link delete': { confirm: (input) => `Delete invite link ${String(input.params?.inviteId).slice(0, 12)}…? Nobody can join with it any more.` },
  'invite-link join': {
    // The answer is `{}`: say what happened instead (on stderr; --json prints the answer).
    after: async (session, body, input) => {
      if (session.format === 'json' || session.format === 'yaml') await session.printObject(body, []);
      else await session.info(`You are a member of organization ${String(input.params?.organizationId)}`);
    },
  },
} satisfies Hooks;
