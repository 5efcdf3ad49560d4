/**
 * Insights of a site (0.202 `site-insights`): events tracked, queries over them, visitor segments.
 *
 * Tables (insights-tables.ts; each event and each segment is one row: nothing is rewritten whole):
 * | table                          | key                                   | value                                  |
 * |--------------------------------|---------------------------------------|----------------------------------------|
 * | siteInsightsEvents             | siteId/ISO time/eventId               | InsightsRow (insights-ingest.ts)       |
 * | siteInsightsSegments (KeyedSet)| siteId → segmentId (first seen first) | SegmentRow: claims and counts          |
 * | siteInsightsSegmentOf          | siteId/sha256(claims as sorted JSON)  | segmentId                              |
 * | siteInsightsSegmentMembers     | segmentId/v|s/sha256(visitor|session) | null (distinct visitors and sessions)  |
 *
 * Events are keyed by time, so a query reads only its range (insights-query.ts). A segment's
 * counts are kept as events come in: listing segments reads no event.
 *
 * Rules decided here (the spec gives the shapes only):
 * - An event's `timestamp` must be within 5 minutes of now, as the API says (a 400 names the
 *   event); without one it happens now. A batch is all tracked or none.
 * - A segment is the visitors who sent the same claims (`visitorAuthClaims`); visitors without
 *   claims make one segment, titled "Anonymous". A segment's title is its claims in short.
 * - Deleting the site deletes its events and segments.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '../../api/errors.js';
import type * as routes from '../../api/routes/site-insights.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { type Handler, Reply, implementer } from '../handler.js';
import { siteAccess } from './access.js';
import { type InsightsRow, hasClaims, insightsRow, storedRow } from './insights-ingest.js';
import { aggregateInsights, rangeOf } from './insights-query.js';
import { EVENTS, SCAN_BATCH, SEGMENT_MEMBERS, SEGMENT_OF, type SegmentRow, segments } from './insights-tables.js';

const on = implementer<typeof routes>();

const TIMESTAMP_SLACK_MS = 5 * 60 * 1000;
const TITLE_LENGTH = 120;


const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with every object's keys sorted: the same claims, the same text. */
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${sortedJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

/** Claims in short: `plan=pro, role=admin` (objects as {…}), at most 120 characters. */
export function segmentTitle(claims: Record<string, unknown>): string {
  if (!hasClaims(claims)) return 'Anonymous';
  const part = (value: unknown): string =>
    Array.isArray(value) ? `[${value.map(part).join(',')}]` : value !== null && typeof value === 'object' ? '{…}' : String(value);
  const title = Object.keys(claims)
    .sort()
    .map((key) => `${key}=${part(claims[key])}`)
    .join(', ');
  return title.length <= TITLE_LENGTH ? title : `${title.slice(0, TITLE_LENGTH - 1)}…`;
}

/** Counts an event into its visitors' segment (made on its first event). */
function countIntoSegment(tx: StoreWriter, siteId: string, row: InsightsRow, ids: () => string): void {
  const claims = row.claims ?? {};
  const lookup = `${siteId}/${sha256(sortedJson(claims))}`;
  const known = tx.get<string>(SEGMENT_OF, lookup);
  const segment: SegmentRow = (known !== undefined ? segments.get(tx, siteId, known) : undefined) ?? {
    id: ids(),
    title: segmentTitle(claims),
    claims,
    events: 0,
    visitors: 0,
    sessions: 0,
  };
  if (known === undefined) tx.put(SEGMENT_OF, lookup, segment.id);
  const visitorKey = `${segment.id}/v/${sha256(row.visitor)}`;
  const sessionKey = `${segment.id}/s/${sha256(row.session)}`;
  const next = { ...segment, events: segment.events + 1 };
  if (!tx.has(SEGMENT_MEMBERS, visitorKey)) {
    tx.put(SEGMENT_MEMBERS, visitorKey, null);
    next.visitors += 1;
  }
  if (!tx.has(SEGMENT_MEMBERS, sessionKey)) {
    tx.put(SEGMENT_MEMBERS, sessionKey, null);
    next.sessions += 1;
  }
  segments.put(tx, siteId, segment.id, next);
}

/** A site's events from `from` to `to` (ISO, inclusive), in time order, read a batch at a time (as stored: see storedRow). */
function* eventsBetween(tx: StoreReader, siteId: string, from: string, to: string): Generator<InsightsRow> {
  const prefix = `${siteId}/`;
  const last = `${prefix}${to}/\uffff`;
  // Keys are siteId/time/id: every key of `from`'s instant sorts after siteId/from.
  let after = `${prefix}${from}`;
  for (;;) {
    const batch = tx.scan<InsightsRow>(EVENTS, { prefix, after, limit: SCAN_BATCH, shared: true });
    for (const [key, row] of batch) {
      if (key > last) return;
      yield row;
    }
    if (batch.length < SCAN_BATCH) return;
    after = (batch[batch.length - 1] as [string, InsightsRow])[0];
  }
}

export const insightsHandlers: Record<string, Handler> = {
  ...on('trackEventsInSiteById', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const now = ctx.clock();
    const times = body.events.map((event, at) => {
      if (event.timestamp === undefined) return now;
      const time = new Date(event.timestamp);
      if (Math.abs(time.getTime() - now.getTime()) > TIMESTAMP_SLACK_MS) {
        throw badRequest(`Invalid events[${at}].timestamp: ${event.timestamp} is more than 5 minutes from now (${now.toISOString()}); leave it out to track the event now`);
      }
      return time;
    });
    body.events.forEach((event, at) => {
      const row = insightsRow(event, times[at] as Date);
      ctx.tx.put(EVENTS, `${site.id}/${row.datetime}/${ctx.ids()}`, storedRow(row));
      countIntoSegment(ctx.tx, site.id, row, ctx.ids);
    });
    return new Reply(204);
  }),

  ...on('aggregateSiteEvents', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const range = rangeOf(body.range, ctx.clock());
    const rows = eventsBetween(ctx.tx, site.id, new Date(range.from).toISOString(), new Date(range.to).toISOString());
    return aggregateInsights(body, rows, range);
  }),

  ...on('listSiteVisitorSegments', (ctx, { params, query }) => {
    const { site } = siteAccess(ctx, params);
    return segments.page(ctx.tx, site.id, query, ({ value: { title, claims, events, visitors, sessions } }) => ({ title, claims, events, visitors, sessions }));
  }),
};
