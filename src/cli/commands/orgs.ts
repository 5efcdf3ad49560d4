/** `docsctl org …`, `docsctl user …`, `docsctl member invite`, `docsctl system info`: declared with the routes (src/api/routes/orgs.ts, members.ts, system.ts, users.ts); what data cannot say. */
import type { RawInput } from '../../api/validate.js';
import { columns } from '../../output/columns.js';
import type { Hooks } from '../derive.js';

/** `--role guest` is the API's null role, also when a `--body` names it. */
export const guestIsNull = (field: string) => (_options: Record<string, unknown>, input: RawInput) => {
  const body = input.body as Record<string, unknown> | undefined;
  if (body?.[field] === 'guest') body[field] = null;
};

export const hooks = {
  'org create': {
    // The API takes the onboarding preferences whole: what a flag left out is null (none).
    build: (_options, input) => {
      const preferences = (input.body as { onboardingPreferences?: Record<string, unknown> } | undefined)?.onboardingPreferences;
      if (preferences === undefined) return;
      preferences.source ??= null;
      preferences.audience ??= null;
      preferences.interests ??= [];
    },
  },
  'org edit': { build: guestIsNull('defaultRole') },
  'member invite': { build: guestIsNull('role') },
  'org joinable': {
    // The answer is `{organizations}`, not a page of `items`.
    async after(session, answer) {
      const { organizations } = answer as { organizations: unknown[] };
      if (organizations.length === 0 && session.format === 'table') return session.info('No organization lets users of this e-mail domain join.');
      await session.printList(organizations, columns.organization);
    },
  },
} satisfies Hooks;
