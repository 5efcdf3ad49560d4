/**
 * The audit-log operations (0.202): `listOrganizationAuditEvents` (newest first; the
 * filters `action`, `actor`, `target` read their index rows and the few newest events not
 * indexed yet, `from`/`to` are a key range: a filtered page reads the rows of its page,
 * plus those a second filter drops),
 * `getOrganizationAuditEvent` (one row), `listOrganizationAuditEventActions` (the
 * operations that change something: one action each). Admin only (declared with the
 * routes). How events are recorded and stored: audit-records.ts.
 */
import { notFound } from '../api/errors.js';
import { manifest } from '../api/manifest.js';
import type * as routes from '../api/routes/audit.js';
import type { StoreReader } from '../store/types.js';
import {
  AUDIT,
  AUDIT_RECENT,
  type AuditRecord,
  LAST,
  MAX_AUDIT_EVENTS,
  actionKey,
  actorKey,
  auditCount,
  eventsKey,
  getAuditEvent,
  indexedUpTo,
  objectKey,
  objectsOf,
  timePrefix,
} from './audit-records.js';
import { type Handler, type HandlerContext, implementer } from './handler.js';
import { type PageSource, paginate } from './pagination.js';
import { apiUrl } from './urls.js';

const DEFAULT_AUDIT_LIMIT = 20;

function eventView(origin: string, org: string, event: AuditRecord) {
  return {
    object: 'audit-event' as const,
    id: event.id,
    occurredAt: event.occurredAt,
    action: event.action,
    actor: event.actor,
    source: event.source,
    target: event.target,
    urls: { location: apiUrl(origin, `orgs/${encodeURIComponent(org)}/audit-events/${event.id}`) },
  };
}

/**
 * Rows under `prefix` whose keys end in an event id, newest first, between two times: the
 * scan starts below `upper` (the first key after `to`'s millisecond) and stops at the
 * first key below `lower` (`from`'s millisecond).
 */
function timeRange<R>(tx: StoreReader, table: string, prefix: string, lower: string | undefined, upper: string | undefined): PageSource<R> {
  return {
    read(after, limit) {
      const start = after ?? upper;
      const rows = tx.scan<R>(table, { prefix, reverse: true, limit, ...(start !== undefined ? { after: prefix + start } : {}) });
      const page: Array<[string, R]> = [];
      for (const [key, row] of rows) {
        const rest = key.slice(prefix.length);
        if (lower !== undefined && rest < lower) break;
        page.push([rest, row]);
      }
      return page;
    },
  };
}

/**
 * The events of both tables (the log and `auditRecent`, audit-records.ts), newest first:
 * each is read up to `limit` rows after the cursor and the two runs merged by key.
 */
function events(tx: StoreReader, org: string, lower: string | undefined, upper: string | undefined): PageSource<AuditRecord> {
  const log = timeRange<AuditRecord>(tx, AUDIT, eventsKey(org), lower, upper);
  const recent = timeRange<AuditRecord>(tx, AUDIT_RECENT, eventsKey(org), lower, upper);
  return {
    read(after, limit) {
      const a = recent.read(after, limit) ?? [];
      const b = log.read(after, limit) ?? [];
      if (b.length === 0) return a;
      if (a.length === 0) return b;
      const rows: Array<[string, AuditRecord]> = [];
      for (let i = 0, j = 0; rows.length < limit && (i < a.length || j < b.length); ) {
        rows.push(j >= b.length || (i < a.length && (a[i] as [string, AuditRecord])[0] > (b[j] as [string, AuditRecord])[0]) ? (a[i++] as [string, AuditRecord]) : (b[j++] as [string, AuditRecord]));
      }
      return rows;
    },
  };
}

/**
 * A filtered list's rows, newest first: the events after the index mark (not indexed yet,
 * fewer than INDEX_BATCH: read as events, the view filters them), then the index rows up to
 * the mark. Both are keyed by event id, so a cursor names a place in either.
 */
function indexedRange(tx: StoreReader, org: string, index: string, lower: string | undefined, upper: string): PageSource<AuditRecord | 0> {
  const upTo = indexedUpTo(tx, org);
  const recent = events(tx, org, lower, upper);
  // Keys below `belowMark` are those up to the mark (event ids have one length).
  const belowMark = `${upTo}\u0000`;
  const indexed = timeRange<0>(tx, AUDIT, index, lower, belowMark);
  return {
    read(after, limit) {
      const start = after ?? upper;
      const rows: Array<[string, AuditRecord | 0]> = [];
      if (start > upTo) {
        for (const row of recent.read(start, limit) ?? []) {
          if (row[0] <= upTo) break;
          rows.push(row);
        }
      }
      if (rows.length < limit && upTo !== '') {
        const from = rows.length > 0 ? (rows.at(-1) as [string, AuditRecord])[0] : start;
        rows.push(...(indexed.read(from < belowMark ? from : belowMark, limit - rows.length) ?? []));
      }
      return rows;
    },
  };
}

interface AuditFilter {
  action?: string | undefined;
  actor?: string | undefined;
  target?: string | undefined;
}

const matches = (event: AuditRecord, org: string, filter: AuditFilter) =>
  (filter.action === undefined || event.action === filter.action) &&
  (filter.actor === undefined || event.actor.id === filter.actor) &&
  (filter.target === undefined || objectsOf(event, org).includes(filter.target));

/** The index rows that answer `filter` (the most specific one it names), or the events themselves. */
function indexOf(org: string, filter: AuditFilter): string | undefined {
  if (filter.target !== undefined) return objectKey(org, filter.target);
  if (filter.actor !== undefined) return actorKey(org, filter.actor);
  if (filter.action !== undefined) return actionKey(org, filter.action);
  return undefined;
}

/** `createSpace` → `Create space`. */
const labelOf = (id: string) => {
  const words = id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return words.charAt(0).toUpperCase() + words.slice(1).replace(/ ([A-Z])(?=[a-z])/g, (_, c: string) => ` ${c.toLowerCase()}`);
};

/** The organization the access check found (it lets an unknown one through for the handler's 404). */
function organizationOf(ctx: HandlerContext, id: string): string {
  if (ctx.access.organizationId !== id) throw notFound(`Organization ${id} not found`);
  return id;
}

const on = implementer<typeof routes>();

export const auditHandlers: Record<string, Handler> = {
  ...on('listOrganizationAuditEvents', (ctx, { params, query }) => {
    const org = organizationOf(ctx, params.organizationId);
    const filter: AuditFilter = { action: query.action, actor: query.actor, target: query.target };
    const index = indexOf(org, filter);
    const lower = query.from === undefined ? undefined : timePrefix(Date.parse(query.from));
    // Events end with the sequence row (LAST): a scan starts below it.
    const upper = query.to === undefined ? LAST : timePrefix(Date.parse(query.to) + 1);
    const filtered = index !== undefined || query.from !== undefined || query.to !== undefined;
    const source = index === undefined ? events(ctx.tx, org, lower, upper) : indexedRange(ctx.tx, org, index, lower, upper);
    const view = (row: AuditRecord | 0, id: string) => {
      const event = row === 0 ? getAuditEvent(ctx.tx, org, id) : row;
      return event && matches(event, org, filter) ? eventView(ctx.origin, org, event) : undefined;
    };
    const page = { page: query.page, limit: query.limit ?? DEFAULT_AUDIT_LIMIT };
    // The count of the whole log is a row; a filtered list's would read every match, so it has none.
    return filtered ? paginate(source, page, view) : paginate(source, page, view, auditCount(ctx.tx, org));
  }),

  ...on('getOrganizationAuditEvent', (ctx, { params }) => {
    const org = organizationOf(ctx, params.organizationId);
    const event = getAuditEvent(ctx.tx, org, params.auditEventId);
    if (!event) {
      throw notFound(`Audit event ${params.auditEventId} not found in organization ${org} (an organization keeps its newest ${MAX_AUDIT_EVENTS} events; see docsctl audit list)`);
    }
    return { ...eventView(ctx.origin, org, event), schemaVersion: 1, payload: { operation: event.action, ...event.payload } };
  }),

  ...on('listOrganizationAuditEventActions', (ctx, { params }) => {
    organizationOf(ctx, params.organizationId);
    const items = manifest
      .filter((info) => info.access !== undefined && info.method !== 'GET' && info.safe !== true)
      .map((info) => ({ object: 'audit-event-action' as const, id: info.id, label: labelOf(info.id) }));
    return { items: items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
  }),
};
