/**
 * API doc §4.16 Translation settings of an organization.
 *
 * The API doc's shape stays (gaps.md §0, §3): bodies with `title` (1 to 100) make
 * translation settings, and the path parameter is `{translationSettingsId}`. The real
 * API (v0.130+, and 0.202) creates a `Translation` instead (`{source: {space, language},
 * language, instructions?}`, path `{translationId}`); both request shapes are accepted
 * (issue 24 §1), each answered in its own shape (domain/translations.ts).
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { JSONDocument, TranslationLanguage, listQuery, noQuery, paginationQuery, pathParams } from '../schemas/common.js';

const settingsFields = {
  title: z.string().min(1).max(100).optional().describe('title of translation settings (the API doc\'s shape)'),
  /** Languages of the settings (a field of the object; not listed in the API doc's request column). */
  languages: z.array(TranslationLanguage).optional(),
};

/** The API doc's settings (`title`) or the real API's translation (`source` and `language`): one of the two. */
const CreateTranslationBody = z
  .object({
    ...settingsFields,
    source: z.object({ space: z.string().min(1), language: TranslationLanguage }).optional().describe('the space to translate and its language (the real API\'s shape)'),
    language: TranslationLanguage.optional().describe('the language to translate into (the real API\'s shape)'),
    instructions: JSONDocument.optional(),
  })
  .superRefine((body, ctx) => {
    const real = body.source !== undefined || body.language !== undefined || body.instructions !== undefined;
    if (body.title !== undefined && real) {
      ctx.addIssue({ code: 'custom', path: ['title'], message: 'pass title (translation settings) or source and language (a translation), not both' });
    } else if (body.title === undefined && (body.source === undefined || body.language === undefined)) {
      const missing = body.source === undefined && real ? 'source' : body.language === undefined && real ? 'language' : 'title';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'required: pass title (translation settings), or source and language (a translation)' });
    }
  });

/** Settings take a new `title` (and `languages`); a translation new `instructions` (the real API's PUT). */
const UpdateTranslationBody = z
  .object({ ...settingsFields, instructions: JSONDocument.optional() })
  .superRefine((body, ctx) => {
    if (body.title === undefined && body.instructions === undefined) {
      ctx.addIssue({ code: 'custom', path: ['title'], message: 'required: pass title (translation settings) or instructions (a translation)' });
    }
  });

const settings = ['organizationId', 'translationSettingsId'] as const;

export const listTranslations = defineRoute({
  id: 'listTranslations',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/translations',
  summary: 'List the translation settings of an organization',
  source: 'doc 4.16',
  access: 'read',
  params: pathParams('organizationId'),
  query: listQuery(),
  paginated: true,
  cli: {
    command: 'translation list',
    aliases: ['ls'],
    columns: 'translation',
    noun: 'translation setting',
    examples: ['docsctl translation list'],
  },
});

export const createTranslation = defineRoute({
  id: 'createTranslation',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/translations',
  summary: 'Create translation settings',
  source: 'doc 4.16',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: CreateTranslationBody,
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'translation create',
    summary: 'Create translation settings (admin)',
    flags: {
      title: { description: 'title (1 to 100): translation settings (or --space and --to: a translation)' },
      languages: { flag: '--language <codes>', description: 'target languages, comma-separated (en, fr, de, pt-br, …)' },
    },
    // The real API's shape (source, language) from --space/--from/--to (a hook); instructions through --body.
    onlyNamedFlags: true,
    columns: 'translation',
    examples: ['docsctl translation create --title "EU languages" --language fr,de,es', 'docsctl translation create --space Handbook --to fr'],
  },
});

export const getTranslation = defineRoute({
  id: 'getTranslation',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/translations/{translationSettingsId}',
  summary: 'Get translation settings',
  source: 'doc 4.16',
  access: 'read',
  params: pathParams(...settings),
  query: noQuery(),
  cli: {
    command: 'translation get',
    summary: 'Show translation settings',
    columns: 'translation',
    examples: ['docsctl translation get tr4n5'],
  },
});

export const updateTranslation = defineRoute({
  id: 'updateTranslation',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/translations/{translationSettingsId}',
  summary: 'Update translation settings',
  source: 'doc 4.16',
  access: 'admin',
  params: pathParams(...settings),
  query: noQuery(),
  body: UpdateTranslationBody,
  bodyRequired: true,
  cli: {
    command: 'translation edit',
    summary: 'Replace the title (and languages) of translation settings (admin)',
    flags: {
      title: { description: 'title (1 to 100)', required: true },
      languages: { flag: '--language <codes>', description: 'target languages, comma-separated (en, fr, de, pt-br, …)' },
    },
    columns: 'translation',
    examples: ['docsctl translation edit tr4n5 --title "EU" --language fr,de'],
  },
});

export const deleteTranslation = defineRoute({
  id: 'deleteTranslation',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/translations/{translationSettingsId}',
  summary: 'Delete translation settings',
  source: 'doc 4.16',
  access: 'admin',
  params: pathParams(...settings),
  query: noQuery(),
  cli: {
    command: 'translation delete',
    summary: 'Delete translation settings (admin)',
    aliases: ['rm'],
    confirm: 'Delete translation settings {translationSettingsId}?',
    columns: 'translation',
    noun: 'translation setting',
    examples: ['docsctl translation delete tr4n5 --yes'],
  },
});

// ─── Glossary (0.202) and translation runs ─────────────────────────────────

/** 0.202 `GlossaryTranslations`: language → term (1 to 255 characters, one line). */
const GlossaryTranslations = z.partialRecord(TranslationLanguage, z.string().min(1).max(255).regex(/^[^\n\r]*$/, 'one line'));

const GlossaryOperation = z.discriminatedUnion('type', [
  z.object({ type: z.literal('insert'), translations: GlossaryTranslations }),
  z.object({ type: z.literal('update'), id: z.string().min(1), translations: GlossaryTranslations }),
  z.object({ type: z.literal('delete'), id: z.string().min(1) }),
]);

export const listGlossaryEntries = defineRoute({
  id: 'listGlossaryEntries',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/translations-glossary',
  summary: 'List the glossary entries of an organization',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId'),
  query: z.object({ ...paginationQuery, orderBy: TranslationLanguage.optional().describe("sort by the entries' term in this language (entries without one last)") }),
  paginated: true,
  cli: {
    command: 'translation glossary list',
    summary: 'List the glossary: the terms each language uses (what "translation run" replaces)',
    aliases: ['ls'],
    columns: 'glossaryEntry',
    noun: 'glossary entry',
    examples: ['docsctl translation glossary list', 'docsctl translation glossary list --order-by fr --json'],
  },
});

export const getGlossaryEntry = defineRoute({
  id: 'getGlossaryEntry',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/translations-glossary/{glossaryEntryId}',
  summary: 'Get a glossary entry',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId', 'glossaryEntryId'),
  query: noQuery(),
  cli: {
    command: 'translation glossary get',
    summary: 'Show a glossary entry: its term in each language',
    columns: 'glossaryEntry',
    examples: ['docsctl translation glossary get g10ss'],
  },
});

export const updateGlossaryEntries = defineRoute({
  id: 'updateGlossaryEntries',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/translations-glossary',
  summary: 'Insert, update and delete glossary entries',
  source: 'real-api',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({ operations: z.array(GlossaryOperation).min(1).max(1000) }),
  bodyRequired: true,
  success: 204,
  cli: {
    command: 'translation glossary update',
    summary: 'Change the glossary in one batch: add entries, replace their terms, delete them (admin; all or nothing)',
    columns: 'glossaryEntry',
    examples: [
      'docsctl translation glossary update --add en=Space,fr=Espace,de=Bereich --add en=Page,fr=Page',
      'docsctl translation glossary update --set g10ss:en=Space,fr=Espace --delete g10ss2',
      'docsctl translation glossary update --body ops.json',
    ],
  },
});

export const runTranslation = defineRoute({
  id: 'runTranslation',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/translations/{translationId}/run',
  summary: 'Run a translation again',
  source: 'real-api',
  access: 'admin',
  params: pathParams('organizationId', 'translationId'),
  query: noQuery(),
  success: 204,
  cli: {
    command: 'translation run',
    summary:
      "Run a translation: write its source space's content, with every glossary term replaced by its term in the target language, as a new revision of the translated space (created by the first run). Deterministic: no machine translation, only the glossary (admin)",
    columns: 'translation',
    // The run answers 204; the command prints the translation it completed (hook).
    output: 'object',
    examples: ['docsctl translation run tr4n5', 'docsctl translation glossary update --add en=Space,fr=Espace && docsctl translation run tr4n5'],
  },
});
