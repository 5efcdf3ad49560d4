/**
 * `docsctl translation …` hooks (the commands are declared with the routes,
 * src/api/routes/translations.ts): the glossary's batch from --add/--set/--delete, and
 * `translation run` printing the translation its run completed.
 */
import { UsageError } from '../../api/errors.js';
import type { Hooks } from '../derive.js';
import { idOf } from '../operation.js';

/** `en=Space,fr=Espace` → `{en: 'Space', fr: 'Espace'}` (the server checks the languages). */
function terms(flag: string, text: string): Record<string, string> {
  const translations: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1) throw new UsageError(`${flag} expects LANGUAGE=TERM pairs separated by commas (en=Space,fr=Espace), got "${pair}"`);
    translations[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return translations;
}

const list = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : []);

export const hooks = {
  'translation glossary update': {
    flags: [
      { flags: '--add <terms...>', description: 'a new entry: its term in each language, e.g. en=Space,fr=Espace (repeatable)' },
      { flags: '--set <entry...>', description: "replace an entry's terms: ID:en=Space,fr=Espace (repeatable)" },
      { flags: '--delete <id...>', description: 'delete an entry (repeatable)' },
    ],
    build: (options, input) => {
      if (input.body !== undefined) return; // --body: the operations as given
      const operations: unknown[] = [];
      for (const text of list(options.add)) operations.push({ type: 'insert', translations: terms('--add', text) });
      for (const text of list(options.set)) {
        const at = text.indexOf(':');
        if (at <= 0) throw new UsageError(`--set expects ID:LANGUAGE=TERM,… (g10ss:en=Space,fr=Espace), got "${text}"`);
        operations.push({ type: 'update', id: text.slice(0, at), translations: terms('--set', text.slice(at + 1)) });
      }
      for (const id of list(options.delete)) operations.push({ type: 'delete', id });
      if (operations.length === 0) throw new UsageError('Nothing to change: pass --add, --set or --delete (or --body with the operations)');
      input.body = { operations };
    },
  },
  'translation create': {
    flags: [
      { flags: '--space <space>', description: "translate this space (the real API's translation; with --to)" },
      { flags: '--from <language>', description: "the space's language (default: en)" },
      { flags: '--to <language>', description: 'the language to translate it into' },
    ],
    build: async (options, input, session) => {
      if (typeof options.body === 'string') return; // --body: sent as given
      const body = (input.body ?? {}) as Record<string, unknown>;
      if (options.space === undefined) {
        if (options.to !== undefined || options.from !== undefined) throw new UsageError('--from and --to go with --space SPACE (a translation of a space)');
        if (body.title === undefined) throw new UsageError('Pass --title TITLE (translation settings) or --space SPACE --to LANGUAGE (a translation of a space)');
        return;
      }
      if (body.title !== undefined || body.languages !== undefined) throw new UsageError('Pass --title/--language (translation settings) or --space/--to (a translation), not both');
      if (typeof options.to !== 'string') throw new UsageError('--space needs --to LANGUAGE: the language to translate it into');
      const space = await idOf(session, 'spaceId', options.space as string);
      input.body = { source: { space, language: typeof options.from === 'string' ? options.from : 'en' }, language: options.to };
    },
  },
  'translation run': {
    // 204: the run is done; print the translation it completed (status, result, stats).
    request: async (transport, input) => {
      await transport.request('runTranslation', input);
      const { organizationId, translationId } = input.params as { organizationId: string; translationId: string };
      return transport.request('getTranslation', { params: { organizationId, translationSettingsId: translationId } });
    },
  },
} satisfies Hooks;
