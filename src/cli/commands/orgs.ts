/** `docsctl org …`, `docsctl user …`, `docsctl member invite`, `docsctl system info`: declared with the routes (src/api/routes/orgs.ts, members.ts, system.ts, users.ts); what data cannot say. */
import { UsageError } from '../../api/errors.js';
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
  'org agent-instructions set': {
    flags: [
      { flags: '--text <text>', description: 'the instructions as text (blank lines separate paragraphs; "" clears them)' },
      { flags: '--text-file <file>', description: 'the instructions from a file: plain text, or a JSON document ("-": stdin)' },
      { flags: '--file <file>', description: 'alias of --text-file' },
    ],
    build: async (options, input, session) => {
      if (options.file !== undefined && options.textFile === undefined) options.textFile = options.file;
      else if (options.file !== undefined) throw new UsageError('Pass --file or --text-file, not both');
      const { instructionsOption } = await import('../agent-instructions.js');
      const document = await instructionsOption(session, options, { key: 'text', flag: '--text' }, { key: 'textFile', flag: '--text-file' });
      if (document !== undefined) input.body = { instructions: document };
      else if ((input.body as { instructions?: unknown } | undefined)?.instructions === undefined) {
        throw new UsageError('Missing the instructions: pass --text TEXT or --text-file FILE (plain text or a JSON document)');
      }
    },
  },
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
