/**
 * Context sources of a site (0.202 `ContextConnection`, `ContextRecord`): where GitBook learns
 * what readers ask (support tickets, discussions, a website, records pushed through the API).
 *
 * Tables (each list is one row per item: none is rewritten whole):
 * | table                           | key                                 | value                                  |
 * |---------------------------------|-------------------------------------|----------------------------------------|
 * | siteContextConnections (KeyedSet)| siteId → connectionId              | ContextConnectionRecord                |
 * | siteContextRecords (KeyedSet)   | siteId → recordId                   | ContextRecordRow (what a list shows)   |
 * | siteContextRecordsOf (KeyedSet) | connectionId → recordId             | null (a connection's records, count)   |
 * | siteContextRecordKeys           | connectionId/sha256(source id)      | recordId (a second push replaces)      |
 * | siteContextRecordBodies         | recordId                            | the record's body and metadata         |
 *
 * Rules decided here (the spec gives the shapes only):
 * - docsctl reaches no outside service. Records come in through `upsertSiteContextRecords`,
 *   into the site's first `builtin:api` connection, made on the first push when there is none.
 *   A connection that would pull from a source (a website, Zendesk…) stays `pending`; a sync
 *   marks it `failed` (`upstream_unavailable`) saying so, at most once an hour as the API's 400
 *   says; a test reports `success: false` for it, `true` for connectors with nothing to verify.
 * - Secrets of a setup (tokens, keys) are stored and never read back: views show `********`, and
 *   a setup sent back with `********` keeps the stored secret.
 * - A connection's connector does not change (its records came from it): add another one.
 * - Records have no topics (docsctl finds none): the `topic` filter lists nothing.
 * - Deleting a connection deletes its records; deleting the site deletes both.
 */
import { createHash } from 'node:crypto';
import { badRequest, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/site-context.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { KeyedSet } from '../ordered.js';
import { paginate, rowsOf } from '../pagination.js';
import { apiUrl } from '../urls.js';
import { siteAccess } from './access.js';
import type { SiteRecord } from './site-records.js';

const on = implementer<typeof routes>();

type UsageSettings = { changeRequests: boolean; search: boolean; sync?: boolean | undefined; searchBoost: 'x0.8' | 'x1.0' | 'x1.2' };

export interface ContextConnectionRecord {
  id: string;
  connector: string;
  setupSettings?: Record<string, unknown>;
  usageSettings: UsageSettings;
  label?: string;
  filter?: string;
  status: 'pending' | 'syncing' | 'succeeded' | 'failed';
  failureReason?: 'authentication' | 'misconfigured' | 'rate_limited' | 'upstream_unavailable' | 'unknown';
  failureMessage?: string;
  createdAt: string;
  updatedAt: string;
  syncedAt?: string;
}

interface ContextRecordRow {
  id: string;
  connection: string;
  connector: string;
  type: 'ticket' | 'document';
  title: string;
  description?: string;
  url?: string;
  createdAt: string;
  processedAt: string;
}

const connections = new KeyedSet<ContextConnectionRecord>('siteContextConnections');
const records = new KeyedSet<ContextRecordRow>('siteContextRecords');
const recordsOf = new KeyedSet<null>('siteContextRecordsOf');
const RECORD_KEYS = 'siteContextRecordKeys';
const RECORD_BODIES = 'siteContextRecordBodies';

/** What a setup's secret reads back as; sent back, it keeps the stored secret. */
export const REDACTED = '********';
const SECRETS = new Set(['token', 'apiToken', 'apiKey', 'clientSecret', 'refreshToken']);
/** Connectors whose records are pushed to GitBook: nothing to sync, no credentials to test. */
const pushed = (connector: string) => connector === 'builtin:api' || connector === 'builtin:email' || connector.startsWith('integration:');
const SYNC_INTERVAL_MS = 60 * 60 * 1000;
const DEFAULT_USAGE: UsageSettings = { changeRequests: true, search: true, searchBoost: 'x1.0' };

function connectionLocation(origin: string, site: SiteRecord, id: string): string {
  const seg = encodeURIComponent;
  return apiUrl(origin, `orgs/${seg(site.organization)}/sites/${seg(site.id)}/context-connections/${seg(id)}`);
}

function redacted(settings: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, SECRETS.has(key) ? REDACTED : value]));
}

function connectionView(tx: StoreReader, origin: string, site: SiteRecord, connection: ContextConnectionRecord) {
  const { id, connector, setupSettings, usageSettings, label, filter, status, failureReason, failureMessage, createdAt, syncedAt } = connection;
  return {
    object: 'context-connection' as const,
    id,
    createdAt,
    ...(syncedAt !== undefined ? { syncedAt } : {}),
    ...(label !== undefined ? { label } : {}),
    ...(filter !== undefined ? { filter } : {}),
    status,
    records: recordsOf.count(tx, id),
    ...(failureReason !== undefined ? { failureReason, failureMessage } : {}),
    ...(connector === 'builtin:email' ? { email: { ingestionAddress: `context-${id.toLowerCase()}@docsctl.invalid` } } : {}),
    usageSettings,
    urls: { location: connectionLocation(origin, site, id) },
    connector,
    ...(setupSettings !== undefined ? { setupSettings: redacted(setupSettings) } : {}),
  };
}

function recordView(origin: string, site: SiteRecord, row: ContextRecordRow) {
  const seg = encodeURIComponent;
  const { id, title, description, type, createdAt, processedAt, connection, connector, url } = row;
  return {
    object: 'context-record' as const,
    id,
    title,
    ...(description !== undefined ? { description } : {}),
    type,
    createdAt,
    processedAt,
    connection,
    connector,
    topics: [] as string[],
    urls: {
      location: apiUrl(origin, `orgs/${seg(site.organization)}/sites/${seg(site.id)}/context-records/${seg(id)}`),
      ...(url !== undefined ? { source: url } : {}),
    },
  };
}

function requireConnection(tx: StoreReader, site: SiteRecord, id: string): ContextConnectionRecord {
  const connection = connections.get(tx, site.id, id);
  if (!connection) throw notFound(`Context connection ${id} not found in site ${site.id}`);
  return connection;
}

/** The settings to store: secrets sent back as `********` keep the stored ones (refused where there is none). */
function settingsToStore(given: Record<string, unknown> | undefined, stored: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (given === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    if (value !== REDACTED || !SECRETS.has(key)) out[key] = value;
    else if (stored?.[key] !== undefined) out[key] = stored[key];
    else throw badRequest(`Invalid setupSettings.${key}: give the secret itself ("${REDACTED}" stands for a stored one, and this connection has none)`);
  }
  return out;
}

/** Deletes a connection's records (its own list, then each record's rows). */
function removeRecordsOf(tx: StoreWriter, siteId: string, connectionId: string): void {
  for (const { id } of recordsOf.all(tx, connectionId)) {
    recordsOf.remove(tx, connectionId, id);
    records.remove(tx, siteId, id);
    tx.delete(RECORD_BODIES, id);
  }
  for (const [key] of tx.scan<string>(RECORD_KEYS, { prefix: `${connectionId}/` })) tx.delete(RECORD_KEYS, key);
}

/** Deletes every context connection and record of a site (the site is being deleted). */
export function removeSiteContext(tx: StoreWriter, siteId: string): void {
  for (const { id } of connections.all(tx, siteId)) {
    removeRecordsOf(tx, siteId, id);
    connections.remove(tx, siteId, id);
  }
}

/** The connection pushed records go into: the site's first `builtin:api` one, made when there is none. */
function apiConnection(tx: StoreWriter, site: SiteRecord, now: string, ids: () => string): ContextConnectionRecord {
  const found = connections.all(tx, site.id).find(({ value }) => value.connector === 'builtin:api');
  if (found) return found.value;
  const made: ContextConnectionRecord = { id: ids(), connector: 'builtin:api', usageSettings: DEFAULT_USAGE, label: 'API', status: 'succeeded', createdAt: now, updatedAt: now };
  connections.put(tx, site.id, made.id, made);
  return made;
}

const sourceKey = (connectionId: string, sourceId: string) => `${connectionId}/${createHash('sha256').update(sourceId).digest('hex')}`;

export const contextHandlers: Record<string, Handler> = {
  ...on('listSiteContextConnections', (ctx, { params, query }) => {
    const { site } = siteAccess(ctx, params);
    return connections.page(ctx.tx, site.id, query, ({ value }) => connectionView(ctx.tx, ctx.origin, site, value));
  }),

  ...on('createSiteContextConnection', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const now = ctx.clock().toISOString();
    const settings = settingsToStore(body.setupSettings, undefined);
    const connection: ContextConnectionRecord = {
      id: ctx.ids(),
      connector: body.connector,
      ...(settings !== undefined ? { setupSettings: settings } : {}),
      usageSettings: body.usageSettings ?? DEFAULT_USAGE,
      ...(body.filter ? { filter: body.filter } : {}),
      status: pushed(body.connector) ? 'succeeded' : 'pending',
      createdAt: now,
      updatedAt: now,
    };
    connections.put(ctx.tx, site.id, connection.id, connection);
    const view = connectionView(ctx.tx, ctx.origin, site, connection);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...on('getSiteContextConnectionById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    return connectionView(ctx.tx, ctx.origin, site, requireConnection(ctx.tx, site, params.siteContextConnectionId));
  }),

  ...on('updateSiteContextConnectionById', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const connection = requireConnection(ctx.tx, site, params.siteContextConnectionId);
    if (Object.keys(body).length === 0) throw badRequest('Nothing to update: pass a setup (connector and setupSettings), usageSettings, label or filter');
    const next: ContextConnectionRecord = { ...connection, updatedAt: ctx.clock().toISOString() };
    if (body.connector !== undefined) {
      if (body.connector !== connection.connector) {
        throw badRequest(`Context connection ${connection.id} is a ${connection.connector} connection; its connector does not change (add a ${body.connector} connection instead)`);
      }
      const settings = settingsToStore(body.setupSettings, connection.setupSettings);
      if (settings !== undefined) next.setupSettings = settings;
      // New credentials: a failed sync may now succeed.
      if (!pushed(connection.connector)) {
        next.status = 'pending';
        delete next.failureReason;
        delete next.failureMessage;
      }
    }
    if (body.usageSettings !== undefined) next.usageSettings = body.usageSettings;
    if (body.label !== undefined) {
      if (body.label === '') delete next.label;
      else next.label = body.label;
    }
    if (body.filter !== undefined) {
      if (body.filter === '') delete next.filter;
      else next.filter = body.filter;
    }
    connections.put(ctx.tx, site.id, connection.id, next);
    return connectionView(ctx.tx, ctx.origin, site, next);
  }),

  ...on('deleteSiteContextConnectionById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    if (!connections.has(ctx.tx, site.id, params.siteContextConnectionId)) return nothingToDelete();
    removeRecordsOf(ctx.tx, site.id, params.siteContextConnectionId);
    connections.remove(ctx.tx, site.id, params.siteContextConnectionId);
    return deleted();
  }),

  ...on('syncSiteContextConnection', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const connection = requireConnection(ctx.tx, site, params.siteContextConnectionId);
    if (pushed(connection.connector)) {
      throw badRequest(`Context connection ${connection.id} (${connection.connector}) has nothing to sync: its records are pushed (PUT …/context-records, docsctl site context-record push)`);
    }
    const now = ctx.clock();
    if (connection.syncedAt !== undefined && now.getTime() - Date.parse(connection.syncedAt) < SYNC_INTERVAL_MS) {
      const next = new Date(Date.parse(connection.syncedAt) + SYNC_INTERVAL_MS).toISOString();
      throw badRequest(`Context connection ${connection.id} was synced less than an hour ago (${connection.syncedAt}); sync it again after ${next}`);
    }
    connections.put(ctx.tx, site.id, connection.id, {
      ...connection,
      syncedAt: now.toISOString(),
      updatedAt: now.toISOString(),
      status: 'failed',
      failureReason: 'upstream_unavailable',
      failureMessage: `docsctl reaches no outside service, so it did not read ${connection.connector}; push records through the API instead (PUT …/context-records)`,
    });
    return new Reply(204);
  }),

  ...on('testSiteContextConnection', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const connection = requireConnection(ctx.tx, site, params.siteContextConnectionId);
    if (pushed(connection.connector)) return { object: 'context-connection-test-result' as const, success: true };
    return {
      object: 'context-connection-test-result' as const,
      success: false,
      error: `docsctl reaches no outside service, so the credentials for ${connection.connector} were not verified`,
    };
  }),

  ...on('upsertSiteContextRecords', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const now = ctx.clock().toISOString();
    const connection = apiConnection(ctx.tx, site, now, ctx.ids);
    const seen = new Set<string>();
    for (const input of body) {
      if (seen.has(input.id)) throw badRequest(`Invalid body: record id "${input.id.slice(0, 64)}" is given twice; give each record once`);
      seen.add(input.id);
    }
    const keys = body.map((input) => sourceKey(connection.id, input.id));
    const existing = keys.map((key) => ctx.tx.get<string>(RECORD_KEYS, key));
    // New records list in the order given: ids made in one millisecond are sorted before they are handed out.
    const fresh = existing.filter((id) => id === undefined).map(() => ctx.ids()).sort();
    body.forEach((input, at) => {
      const key = keys[at] as string;
      const known = existing[at];
      const id = known ?? (fresh.shift() as string);
      const previous = known === undefined ? undefined : records.get(ctx.tx, site.id, id);
      const row: ContextRecordRow = {
        id,
        connection: connection.id,
        connector: connection.connector,
        type: input.type,
        title: input.title,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.url !== undefined ? { url: input.url } : {}),
        createdAt: input.createdAt !== undefined ? new Date(input.createdAt).toISOString() : (previous?.createdAt ?? now),
        processedAt: now,
      };
      if (known === undefined) {
        ctx.tx.put(RECORD_KEYS, key, id);
        recordsOf.put(ctx.tx, connection.id, id, null);
      }
      records.put(ctx.tx, site.id, id, row);
      ctx.tx.put(RECORD_BODIES, id, { sourceId: input.id, body: input.body, ...(input.metadata !== undefined ? { metadata: input.metadata } : {}) });
    });
    return new Reply(204);
  }),

  ...on('listSiteContextRecords', (ctx, { params, query }) => {
    const { site } = siteAccess(ctx, params);
    const view = (row: ContextRecordRow) => recordView(ctx.origin, site, row);
    const { type, connector, connection, topic } = query;
    if (type === undefined && connector === undefined && connection === undefined && topic === undefined) {
      return records.page(ctx.tx, site.id, query, ({ value }) => view(value));
    }
    // Records have no topics, and come only from pushing connectors: such a filter lists nothing (no scan).
    if (topic !== undefined || (connector !== undefined && !pushed(connector))) return { items: [] };
    const keep = (row: ContextRecordRow | undefined): row is ContextRecordRow =>
      row !== undefined && (type === undefined || row.type === type) && (connector === undefined || row.connector === connector);
    if (connection !== undefined) {
      if (!connections.has(ctx.tx, site.id, connection)) return { items: [] };
      return paginate(rowsOf<null>(ctx.tx, recordsOf.table, `${connection}/`), query, (_value, key) => {
        const row = records.get(ctx.tx, site.id, key);
        return keep(row) ? view(row) : undefined;
      });
    }
    return paginate(rowsOf<ContextRecordRow>(ctx.tx, records.table, `${site.id}/`), query, (row) => (keep(row) ? view(row) : undefined));
  }),

  ...on('getSiteContextRecordById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const row = records.get(ctx.tx, site.id, params.siteContextRecordId);
    if (!row) throw notFound(`Context record ${params.siteContextRecordId} not found in site ${site.id}`);
    return recordView(ctx.origin, site, row);
  }),
};

