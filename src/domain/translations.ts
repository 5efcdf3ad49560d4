/**
 * API doc §4.16 translation settings of an organization (the API doc's shape:
 * `object: "translation-settings"`, `title`, `languages`; gaps.md §0 — the real
 * API's later `Translation` object differs, and remote mode reads it as it comes).
 *
 * Rules decided here: creating, replacing and deleting settings needs `admin`;
 * any member may read them. `languages` are kept in the order given, without
 * duplicates (a duplicate is a 400). PUT replaces the title and, when given, the
 * languages.
 */
import { badRequest, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/translations.js';
import type { StoreReader } from '../store/types.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from './handler.js';
import { KeyedSet, isKeyedId } from './ordered.js';
import { atLeast, orgAccess } from './permissions.js';
import type { Role } from './core-records.js';
import { apiUrl } from './urls.js';

export interface TranslationSettingsRecord {
  id: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
}

export const orgTranslations = new KeyedSet<TranslationSettingsRecord>('orgTranslations');

function checkLanguages(languages: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const language of languages) {
    if (seen.has(language)) throw badRequest(`Language "${language}" is listed twice in languages`);
    seen.add(language);
  }
  return [...languages];
}

function settingsView(origin: string, orgId: string, record: TranslationSettingsRecord, role: Role) {
  return {
    object: 'translation-settings' as const,
    id: record.id,
    title: record.title,
    languages: record.languages,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    permissions: { view: true, edit: atLeast(role, 'admin') },
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
    const record: TranslationSettingsRecord = {
      id: ctx.ids(),
      title: body.title,
      languages: checkLanguages(body.languages ?? []),
      createdAt: now,
      updatedAt: now,
    };
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
    const updated: TranslationSettingsRecord = {
      ...record,
      title: body.title,
      ...(body.languages !== undefined ? { languages: checkLanguages(body.languages) } : {}),
      updatedAt: ctx.clock().toISOString(),
    };
    orgTranslations.put(ctx.tx, org.id, record.id, updated);
    return settingsView(ctx.origin, org.id, updated, role);
  }),

  ...on('deleteTranslation', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const id = params.translationSettingsId;
    return isKeyedId(id) && orgTranslations.remove(ctx.tx, org.id, id) ? deleted() : nothingToDelete();
  }),
};
