/**
 * Translations of an organization, in two shapes that share one list (`orgTranslations`):
 * - API doc §4.16 translation settings (`object: "translation-settings"`, `title`,
 *   `languages`; gaps.md §0), created with `{title, languages?}`;
 * - the real API's `Translation` (0.202: `object: "translation"`, `source: {space,
 *   language}`, `language`, `instructions`, `status`, `stats`), created with
 *   `{source, language, instructions?}` as GitBook's client sends it. The source space
 *   must be a space of the organization (404). A translation is `pending` until its first
 *   `runTranslation`: a deterministic glossary-based run (glossary.ts: no machine
 *   translation) that writes the source space's primary content, glossary terms replaced,
 *   as a new revision of the translated space (made by the first run, in the source's
 *   collection, titled `<source> (<language>)`, made again if it was deleted); the
 *   translation is then `completed` with its `result` and `stats` (pages, words; durations
 *   0: a run takes no measurable time).
 *
 * Rules decided here: creating, replacing and deleting needs `admin`; any member may
 * read. `languages` are kept in the order given, without duplicates (a duplicate is a
 * 400). PUT replaces the title and, when given, the languages of settings, and the
 * instructions of a translation (each shape takes its own fields: 400 otherwise).
 */
import { badRequest, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/translations.js';
import type { StoreReader } from '../store/types.js';
import { type Handler, type HandlerContext, Reply, deleted, implementer, nothingToDelete } from './handler.js';
import { KeyedSet, isKeyedId } from './ordered.js';
import { atLeast, orgAccess } from './permissions.js';
import { type Role, type SpaceRecord, getRevision, getSpace, orgSpaceList, putSpace } from './core-records.js';
import { newRevisionRecord } from './content/change-request-records.js';
import { loadTree, saveTree } from './content/storage.js';
import { glossaryPairs, translateTree } from './glossary.js';
import { appendChild, containerKey } from './tree.js';
import { recordContentUpdated } from './integration-events.js';
import { indexCommit } from './search/index.js';
import { apiUrl } from './urls.js';

export interface TranslationSettingsRecord {
  id: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
  /** Set for a translation of the real API's shape (`title` is then empty, `languages` the target language). */
  translation?: {
    source: { space: string; language: string };
    language: string;
    instructions: Record<string, unknown>;
    /** Set by the first run: the translated space and the revision of the latest run. */
    result?: { space: string; revision: string };
    stats?: TranslationStats;
  };
}

interface TranslationStats {
  runs: number;
  totalWords: number;
  totalPages: number;
  totalDuration: number;
  latestRunDuration: number;
  latestPages: number;
  latestWords: number;
}

const NO_RUNS: TranslationStats = { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 };

const EMPTY_INSTRUCTIONS = { object: 'document', data: {}, nodes: [] };

/** What the caller may do with translations (shown, not checked: the routes declare the roles). */
const permissionsOf = (role: Role) => ({ view: true, edit: atLeast(role, 'admin') });

export const orgTranslations = new KeyedSet<TranslationSettingsRecord>('orgTranslations');

function checkLanguages(languages: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const language of languages) {
    if (seen.has(language)) throw badRequest(`Language "${language}" is listed twice in languages`);
    seen.add(language);
  }
  return [...languages];
}

/** The real API's `Translation` of a record made from `{source, language}`. */
function translationView(origin: string, orgId: string, record: TranslationSettingsRecord & Required<Pick<TranslationSettingsRecord, 'translation'>>, role: Role) {
  const { source, language, instructions, result, stats } = record.translation;
  return {
    object: 'translation' as const,
    id: record.id,
    status: result ? ('completed' as const) : ('pending' as const),
    source,
    language,
    instructions,
    ...(result ? { result: { ...result, language } } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    stats: stats ?? NO_RUNS,
    permissions: permissionsOf(role),
    urls: { location: apiUrl(origin, `orgs/${encodeURIComponent(orgId)}/translations/${encodeURIComponent(record.id)}`) },
  };
}

function settingsView(origin: string, orgId: string, record: TranslationSettingsRecord, role: Role) {
  if (record.translation) return translationView(origin, orgId, { ...record, translation: record.translation }, role);
  return {
    object: 'translation-settings' as const,
    id: record.id,
    title: record.title,
    languages: record.languages,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    permissions: permissionsOf(role),
    urls: { location: apiUrl(origin, `orgs/${encodeURIComponent(orgId)}/translations/${encodeURIComponent(record.id)}`) },
  };
}

function requireSettings(tx: StoreReader, orgId: string, id: string): TranslationSettingsRecord {
  const record = isKeyedId(id) ? orgTranslations.get(tx, orgId, id) : undefined;
  if (!record) throw notFound(`Translation settings ${id} not found in organization ${orgId}`);
  return record;
}

const on = implementer<typeof routes>();

export const translationHandlers: Record<string, Handler> = {
  ...on('listTranslations', (ctx, { params, query }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return orgTranslations.page(ctx.tx, org.id, query, ({ value }) => settingsView(ctx.origin, org.id, value, role));
  }),

  ...on('createTranslation', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const now = ctx.clock().toISOString();
    let record: TranslationSettingsRecord;
    if (body.title !== undefined) {
      record = { id: ctx.ids(), title: body.title, languages: checkLanguages(body.languages ?? []), createdAt: now, updatedAt: now };
    } else {
      // The route let only {source, language, instructions?} through without a title.
      const source = body.source as { space: string; language: string };
      const language = body.language as string;
      const space = getSpace(ctx.tx, source.space);
      if (!space || space.organization !== org.id || space.deletedAt !== undefined) throw notFound(`Space ${source.space} not found in organization ${org.id}`);
      if (language === source.language) throw badRequest(`Invalid language "${language}": it is the source's language; pick the language to translate into`);
      record = {
        id: ctx.ids(),
        title: '',
        languages: [language],
        createdAt: now,
        updatedAt: now,
        translation: { source: { space: space.id, language: source.language }, language, instructions: body.instructions ?? EMPTY_INSTRUCTIONS },
      };
    }
    orgTranslations.put(ctx.tx, org.id, record.id, record);
    const view = settingsView(ctx.origin, org.id, record, role);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...on('getTranslation', (ctx, { params }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return settingsView(ctx.origin, org.id, requireSettings(ctx.tx, org.id, params.translationSettingsId), role);
  }),

  ...on('updateTranslation', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const record = requireSettings(ctx.tx, org.id, params.translationSettingsId);
    const updatedAt = ctx.clock().toISOString();
    let updated: TranslationSettingsRecord;
    if (record.translation) {
      if (body.instructions === undefined || body.title !== undefined || body.languages !== undefined) {
        throw badRequest(`Translation ${record.id} takes instructions (a JSON document), not title or languages: those are translation settings'`);
      }
      updated = { ...record, translation: { ...record.translation, instructions: body.instructions }, updatedAt };
    } else {
      if (body.title === undefined || body.instructions !== undefined) {
        throw badRequest(`Translation settings ${record.id} take a title (and languages), not instructions: those are a translation's`);
      }
      updated = { ...record, title: body.title, ...(body.languages !== undefined ? { languages: checkLanguages(body.languages) } : {}), updatedAt };
    }
    orgTranslations.put(ctx.tx, org.id, record.id, updated);
    return settingsView(ctx.origin, org.id, updated, role);
  }),

  ...on('deleteTranslation', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const id = params.translationSettingsId;
    return isKeyedId(id) && orgTranslations.remove(ctx.tx, org.id, id) ? deleted() : nothingToDelete();
  }),

  ...on('runTranslation', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const record = requireSettings(ctx.tx, org.id, params.translationId);
    const translation = record.translation;
    if (!translation) throw badRequest(`Translation settings ${record.id} are the API doc's settings (a title and languages), not a translation: create one with a source space and a language to run it`);
    const source = getSpace(ctx.tx, translation.source.space);
    if (!source || source.organization !== org.id || source.deletedAt !== undefined) {
      throw notFound(`The source space ${translation.source.space} of translation ${record.id} was deleted: create a translation of another space`);
    }
    const at = ctx.clock().toISOString();
    const { tree, count } = translateTree(loadTree(ctx.tx, getRevision(ctx.tx, source.id, source.revision) ?? {}), glossaryPairs(ctx.tx, org.id, translation.source.language, translation.language));
    const target = resultSpace(ctx, source, translation, at);
    const revision = newRevisionRecord(ctx.tx, { id: ctx.ids(), space: target.id, type: 'edits', parents: [target.revision], createdAt: at, content: saveTree(ctx.tx, tree) });
    putSpace(ctx.tx, { ...target, revision: revision.id, updatedAt: at });
    // As every commit that moves a space's primary revision: its search index and its integrations' events.
    indexCommit(ctx.tx, target.id, getRevision(ctx.tx, target.id, target.revision), revision);
    recordContentUpdated(ctx, ctx.tx, target, revision.id);
    const stats = translation.stats ?? NO_RUNS;
    const ran: TranslationSettingsRecord = {
      ...record,
      updatedAt: at,
      translation: {
        ...translation,
        result: { space: target.id, revision: revision.id },
        stats: { ...stats, runs: stats.runs + 1, totalWords: stats.totalWords + count.words, totalPages: stats.totalPages + count.pages, latestRunDuration: 0, latestPages: count.pages, latestWords: count.words },
      },
    };
    orgTranslations.put(ctx.tx, org.id, record.id, ran);
    return new Reply(204);
  }),
};

/** The space a translation's runs write to: the one its first run made, else a new one beside the source. */
function resultSpace(ctx: HandlerContext, source: SpaceRecord, translation: NonNullable<TranslationSettingsRecord['translation']>, at: string): SpaceRecord {
  const existing = translation.result ? getSpace(ctx.tx, translation.result.space) : undefined;
  if (existing && existing.deletedAt === undefined && existing.organization === source.organization) return existing;
  const id = ctx.ids();
  const revision = newRevisionRecord(ctx.tx, { id: ctx.ids(), space: id, type: 'edits', parents: [], createdAt: at, content: undefined });
  const space: SpaceRecord = {
    id,
    organization: source.organization,
    title: `${source.title} (${translation.language})`.slice(0, 100),
    emoji: source.emoji,
    visibility: source.visibility,
    ...(source.parent !== undefined ? { parent: source.parent } : {}),
    editMode: source.editMode,
    defaultLevel: source.defaultLevel,
    language: translation.language,
    mergeRules: source.mergeRules,
    revision: revision.id,
    createdAt: at,
    updatedAt: at,
    counters: { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 },
  };
  putSpace(ctx.tx, space);
  orgSpaceList.insert(ctx.tx, source.organization, id, null);
  appendChild(ctx.tx, containerKey(source.organization, source.parent), { type: 'space', id });
  return space;
}
