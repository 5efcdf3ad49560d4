/**
 * The Insights query engine (0.202 `SiteInsightsQueryEventsAggregation`): a site's events over a
 * time range, filtered (`where`), grouped (`groupBy`, and every column `select` names that is
 * not a count), counted (`eventsCount`, distinct `sessionsCount` and `visitorsCount`, the
 * `pageFeedbackRating` and `askResponseRating` tallies), ordered and cut to `limit`; the answer
 * is one array of values per selected column, row i of each belonging together.
 *
 * Rules the spec leaves open, decided here:
 * - A filter on a count applies to the groups (SQL's HAVING); on any other column to the events.
 * - An event without a column's value (a page view's `eventSearchQuery`) is left out of a
 *   grouping or an `in` filter on it, and kept by `notIn`. Columns the spec makes nullable read
 *   null instead (`eventLLMSVariant`; `eventPageNotFoundType` always: docsctl never finds a 404
 *   explained by adaptive content), UTM and referrer columns ''.
 * - `datetime` groups by day unless an `interval` is given; weeks start on Monday (UTC).
 * - Default order: by `datetime` ascending when grouped by it, else by the first selected count
 *   descending, else by the groups' values; ties by the groups' values, so answers are stable.
 * - Bounds (per query, whatever its shape): 200,000 events in the range (about a second), 100,000 groups.
 */
import { badRequest } from '../../api/errors.js';
import type { InsightsAggregation, InsightsColumn, InsightsColumnName, InsightsFilter } from '../../api/routes/site-insights.js';
import { type InsightsRow, STORED_DEFAULTS } from './insights-ingest.js';

export const MAX_EVENTS_PER_QUERY = 200_000;
export const MAX_GROUPS = 100_000;
const DEFAULT_LIMIT = 1000;

type Counted = 'eventsCount' | 'sessionsCount' | 'visitorsCount' | 'pageFeedbackRating' | 'askResponseRating';
const COUNTS: ReadonlySet<string> = new Set<Counted>(['eventsCount', 'sessionsCount', 'visitorsCount', 'pageFeedbackRating', 'askResponseRating']);
const isCount = (column: InsightsColumnName): column is Counted => COUNTS.has(column);

/** Columns read straight from the row, absent → left out of groupings and `in` filters. */
const EVENT_FIELDS: ReadonlySet<string> = new Set([
  'eventLinkTargetValue', 'eventLinkTargetKind', 'eventLinkPosition', 'eventSearchQuery', 'eventPageFeedbackRating',
  'eventPageFeedbackComment', 'eventAskResponseRating', 'eventAdDomain', 'eventAdPlacement', 'eventTrademarkPlacement',
]);

const ENUMS: Readonly<Partial<Record<InsightsColumnName, readonly unknown[]>>> = {
  eventType: [
    'page_view', 'page_markdown_request', 'search_open', 'search_type_query', 'search_open_result', 'page_post_feedback',
    'page_post_feedback_comment', 'agent_feedback', 'ask_question', 'ask_view', 'ask_rate_response', 'link_click',
    'api_client_open', 'api_client_request', 'ad_click', 'ad_display', 'trademark_click', 'llms_request', 'mcp_request', 'rss_request',
  ],
  displayContext: ['site', 'server', 'embed', 'mcp'],
  visitorDevice: ['desktop', 'tablet', 'mobile', 'unknown'],
  visitorBrowser: ['chrome', 'firefox', 'safari', 'edge', 'ie', 'opera', 'unknown'],
  visitorOS: ['windows', 'macos', 'linux', 'android', 'ios', 'unknown'],
  eventLinkTargetKind: ['url', 'page', 'file', 'anchor', 'space', 'collection', 'user', 'reusable-content'],
  eventLinkPosition: ['announcement', 'header', 'footer', 'sidebar', 'content'],
  eventLLMSVariant: [null, 'standard', 'full'],
  eventPageNotFoundType: [null, 'conditional'],
  eventMarkdownSource: [null, 'page-action'],
  eventPageFeedbackRating: ['bad', 'ok', 'good'],
  eventAdPlacement: ['aside'],
  eventTrademarkPlacement: ['sidebar', 'ad', 'footer', 'pdf', 'embed'],
  eventAskResponseRating: [1, -1],
};
const NUMBERS: ReadonlySet<string> = new Set(['dayOfWeek', 'hourOfDay', 'eventsCount', 'sessionsCount', 'visitorsCount', 'eventAskResponseRating']);
const NULLABLE_STRINGS: ReadonlySet<string> = new Set([
  'siteSection', 'siteSpace', 'siteShareKey', 'visitorGeoCountry', 'visitorLanguage', 'eventLinkTargetDomain',
  'eventAPIOperationPath', 'eventAPIOperationMethod', 'eventSearchResultRecordId', 'visitorBot',
]);

type Interval = 'hour' | 'day' | 'week' | 'month';
const DAY_MS = 86_400_000;

/** The start of the interval `iso` falls in (UTC). */
export function bucketOf(iso: string, interval: Interval): string {
  const at = new Date(iso);
  switch (interval) {
    case 'hour':
      return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), at.getUTCHours())).toISOString();
    case 'day':
      return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())).toISOString();
    case 'week': {
      const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
      return new Date(day - ((at.getUTCDay() + 6) % 7) * DAY_MS).toISOString();
    }
    case 'month':
      return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)).toISOString();
  }
}

/** The value at a dotted path of a visitor's claims, as the strings it groups by. */
function claimValues(claims: Record<string, unknown> | undefined, path: string): string[] {
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, part)) return [];
    value = (value as Record<string, unknown>)[part];
  }
  const scalar = (item: unknown) => (item === null || typeof item === 'object' ? undefined : String(item));
  const items = Array.isArray(value) ? value.map(scalar) : [scalar(value)];
  return items.filter((item): item is string => item !== undefined);
}

/** The values an event has for a (non-count) column: none leaves it out, several count it in each. */
function valuesOf(row: InsightsRow, column: InsightsColumn): unknown[] {
  const name = column.column;
  switch (name) {
    case 'datetime':
      return [bucketOf(row.datetime, column.interval ?? 'day')];
    case 'dayOfWeek':
      return [((new Date(row.datetime).getUTCDay() + 6) % 7) + 1];
    case 'hourOfDay':
      return [new Date(row.datetime).getUTCHours()];
    case 'page':
      return [row.page == null ? null : { page: row.page, space: row.space ?? '' }];
    case 'visitorGeoCountry':
    case 'visitorGeoPoint':
    case 'eventPageNotFoundType':
      return [null];
    case 'visitorClaimProperty':
      return Object.keys(row.claims ?? {});
    case 'visitorClaim':
      return claimValues(row.claims, column.claim ?? '');
    default: {
      const value = (row as unknown as Record<string, unknown>)[name];
      if (value !== undefined) return [value];
      if (EVENT_FIELDS.has(name)) return [];
      return [Object.hasOwn(STORED_DEFAULTS, name) ? STORED_DEFAULTS[name] : null];
    }
  }
}

/** A value's identity: equal values, equal keys (objects by their sorted JSON). */
function keyOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(keyOf).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${keyOf(v)}`).join(',')}}`;
}

const columnKey = (column: InsightsColumn) =>
  column.column === 'datetime' ? `datetime:${column.interval ?? 'day'}` : column.column === 'visitorClaim' ? `visitorClaim:${column.claim}` : column.column;

function describeValue(value: unknown): string {
  return typeof value === 'string' ? `"${value.slice(0, 64)}"` : (JSON.stringify(value) ?? String(value)).slice(0, 64);
}

/** A filter's values checked against its column's type (a 400 naming the filter otherwise). */
function checkFilter(filter: InsightsFilter, at: number): void {
  const name = filter.column;
  const where = `where[${at}] (${name})`;
  if (name === 'pageFeedbackRating' || name === 'askResponseRating') throw badRequest(`Invalid ${where}: ${name} is a tally; filter by eventPageFeedbackRating or eventAskResponseRating instead`);
  if ((filter.claim !== undefined) !== (name === 'visitorClaim')) {
    throw badRequest(`Invalid ${where}: ${name === 'visitorClaim' ? 'name the claim of a visitorClaim filter' : 'only a visitorClaim filter takes a claim'}`);
  }
  const operator = filter.operator ?? 'in';
  const comparing = operator !== 'in' && operator !== 'notIn';
  if (comparing && filter.values.length !== 1) throw badRequest(`Invalid ${where}: ${operator} takes exactly one value`);
  const allowed = ENUMS[name];
  for (const value of filter.values) {
    let fits: boolean;
    if (allowed !== undefined) fits = allowed.includes(value);
    else if (NUMBERS.has(name)) fits = typeof value === 'number' && Number.isFinite(value);
    else if (name === 'datetime') fits = typeof value === 'string' && !Number.isNaN(Date.parse(value));
    else if (name === 'visitorAuthenticated') fits = value === null || typeof value === 'boolean';
    else if (name === 'page') {
      fits = value === null || (typeof value === 'object' && !Array.isArray(value) && typeof (value as { space?: unknown }).space === 'string' &&
        ((value as { page?: unknown }).page === null || typeof (value as { page?: unknown }).page === 'string'));
    } else if (name === 'visitorGeoPoint' || name === 'eventLinkTargetValue') fits = value === null || (typeof value === 'object' && !Array.isArray(value));
    else fits = typeof value === 'string' || (value === null && NULLABLE_STRINGS.has(name));
    if (!fits) {
      const expected = allowed !== undefined ? `one of ${allowed.map((item) => JSON.stringify(item)).join(', ')}` : NUMBERS.has(name) ? 'a number' : name === 'datetime' ? 'a timestamp' : name === 'page' ? 'null or {"space", "page"}' : 'a string';
      throw badRequest(`Invalid ${where}: ${describeValue(value)} is not ${expected}`);
    }
    if (comparing && (value === null || typeof value === 'object' || typeof value === 'boolean')) throw badRequest(`Invalid ${where}: ${operator} compares numbers, timestamps or strings`);
  }
}

/** -1, 0, 1: null first, then numbers, strings (timestamps are ISO strings), then objects by their keys. */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const ka = typeof a === 'string' ? a : keyOf(a);
  const kb = typeof b === 'string' ? b : keyOf(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function comparisonHolds(operator: InsightsFilter['operator'], order: number): boolean {
  switch (operator) {
    case 'greaterThan':
      return order > 0;
    case 'greaterThanOrEqual':
      return order >= 0;
    case 'lessThan':
      return order < 0;
    default:
      return order <= 0;
  }
}

/** An event filter as a predicate over its column's values. */
function matcher(filter: InsightsFilter): (values: unknown[]) => boolean {
  const operator = filter.operator ?? 'in';
  if (operator === 'in' || operator === 'notIn') {
    const keys = new Set(filter.values.map(keyOf));
    const any = (values: unknown[]) => values.some((value) => keys.has(keyOf(value)));
    return operator === 'in' ? any : (values) => !any(values);
  }
  const bound = filter.values[0];
  return (values) => values.some((value) => value !== null && comparisonHolds(operator, compareValues(value, bound)));
}

/** The range's first and last instants (ms since the epoch), inclusive. */
export function rangeOf(range: InsightsAggregation['range'], now: Date): { from: number; to: number } {
  const to = now.getTime();
  const monthsBack = (months: number) => {
    const from = new Date(now);
    from.setUTCMonth(from.getUTCMonth() - months);
    return from.getTime();
  };
  switch (range) {
    case 'last24Hours':
      return { from: to - DAY_MS, to };
    case 'last7Days':
      return { from: to - 7 * DAY_MS, to };
    case 'last30Days':
      return { from: to - 30 * DAY_MS, to };
    case 'last3Months':
      return { from: monthsBack(3), to };
    case 'lastYear':
      return { from: monthsBack(12), to };
    default: {
      const from = Date.parse(range.from);
      const end = Date.parse(range.to);
      if (from > end) throw badRequest(`Invalid range: from (${range.from}) is after to (${range.to})`);
      return { from, to: end };
    }
  }
}

interface Group {
  values: unknown[];
  key: string;
  events: number;
  sessions?: Set<string>;
  visitors?: Set<string>;
  feedback?: { ok: number; good: number; bad: number };
  asks?: { positive: number; negative: number };
}

function tally(group: Group, column: Counted): unknown {
  switch (column) {
    case 'eventsCount':
      return group.events;
    case 'sessionsCount':
      return group.sessions?.size ?? 0;
    case 'visitorsCount':
      return group.visitors?.size ?? 0;
    case 'pageFeedbackRating':
      return group.feedback ?? { ok: 0, good: 0, bad: 0 };
    case 'askResponseRating':
      return group.asks ?? { positive: 0, negative: 0 };
  }
}

/** Every combination of one value per grouped column (several when a column has several values). */
function combinations(lists: unknown[][]): unknown[][] {
  if (lists.every((list) => list.length === 1)) return [lists.map((list) => list[0])];
  let out: unknown[][] = [[]];
  for (const list of lists) out = out.flatMap((prefix) => list.map((value) => [...prefix, value]));
  return out;
}

export interface InsightsAnswer {
  columns: Array<{ column: InsightsColumnName; values: unknown[]; claim?: string }>;
}

/**
 * Runs a query over `rows` (a site's events from `from` to `to`, in time order: the caller scans
 * the store's range). Throws a 400 naming the part of the query that is wrong or too large.
 */
export function aggregateInsights(query: InsightsAggregation, rows: Iterable<InsightsRow>, range: { from: number; to: number }): InsightsAnswer {
  query.where?.forEach(checkFilter);
  const select = query.select ?? [...(query.groupBy ?? []), { column: 'eventsCount' as const }];
  if (select.length === 0) throw badRequest('Invalid select: name at least one column (e.g. eventsCount)');
  for (const [at, column] of (query.groupBy ?? []).entries()) {
    if (isCount(column.column)) throw badRequest(`Invalid groupBy[${at}]: ${column.column} is a count; group by the columns it counts over and select it`);
  }
  // Grouped columns: groupBy's, then select's and order's others, each once.
  const grouped: InsightsColumn[] = [];
  const seen = new Set<string>();
  for (const column of [...(query.groupBy ?? []), ...select, ...(query.order ? [query.order.by] : [])]) {
    if (isCount(column.column) || seen.has(columnKey(column))) continue;
    seen.add(columnKey(column));
    grouped.push(column);
  }
  const wanted = new Set<string>([...select, ...(query.order ? [query.order.by] : [])].map((column) => column.column));
  const groupFilters = (query.where ?? []).filter((filter) => isCount(filter.column));
  for (const filter of groupFilters) wanted.add(filter.column);
  const eventFilters = (query.where ?? [])
    .filter((filter) => !isCount(filter.column))
    .map((filter) => {
      const raw = filter.column === 'datetime';
      // Instants compare as the ISO strings rows keep (a filter may give another offset).
      const holds = matcher(raw ? { ...filter, values: filter.values.map((value) => new Date(value as string).toISOString()) } : filter);
      return { column: { column: filter.column, ...(filter.claim !== undefined ? { claim: filter.claim } : {}) } as InsightsColumn, holds, raw };
    });

  const groups = new Map<string, Group>();
  let scanned = 0;
  const first = new Date(range.from).toISOString();
  const last = new Date(range.to).toISOString();
  for (const row of rows) {
    if (row.datetime < first || row.datetime > last) continue;
    if (++scanned > MAX_EVENTS_PER_QUERY) {
      throw badRequest(`The range holds more than ${MAX_EVENTS_PER_QUERY.toLocaleString('en-US')} events; query a shorter range`);
    }
    if (!eventFilters.every(({ column, holds, raw }) => holds(raw ? [row.datetime] : valuesOf(row, column)))) continue;
    for (const values of combinations(grouped.map((column) => valuesOf(row, column)))) {
      const key = values.map(keyOf).join('\u0000');
      let group = groups.get(key);
      if (group === undefined) {
        if (groups.size >= MAX_GROUPS) throw badRequest(`The query makes more than ${MAX_GROUPS.toLocaleString('en-US')} groups; group by fewer columns or filter the events`);
        group = { values, key, events: 0 };
        groups.set(key, group);
      }
      group.events += 1;
      if (wanted.has('sessionsCount')) (group.sessions ??= new Set()).add(row.session);
      if (wanted.has('visitorsCount')) (group.visitors ??= new Set()).add(row.visitor);
      if (wanted.has('pageFeedbackRating') && row.eventPageFeedbackRating !== undefined) (group.feedback ??= { ok: 0, good: 0, bad: 0 })[row.eventPageFeedbackRating] += 1;
      if (wanted.has('askResponseRating') && row.eventAskResponseRating !== undefined) {
        const asks = (group.asks ??= { positive: 0, negative: 0 });
        if (row.eventAskResponseRating > 0) asks.positive += 1;
        else asks.negative += 1;
      }
    }
  }
  // Counting every event with no column to group by answers one row, zero when there were none.
  if (grouped.length === 0 && groups.size === 0) groups.set('', { values: [], key: '', events: 0 });

  let result = [...groups.values()];
  for (const filter of groupFilters) {
    const holds = matcher(filter);
    result = result.filter((group) => holds([tally(group, filter.column as Counted)]));
  }
  // Each column's value in a group, resolved once (the sort calls it for every comparison).
  const reader = (column: InsightsColumn): ((group: Group) => unknown) => {
    if (isCount(column.column)) {
      const counted = column.column;
      return (group) => tally(group, counted);
    }
    const at = grouped.findIndex((candidate) => columnKey(candidate) === columnKey(column));
    return (group) => group.values[at];
  };

  const order = query.order ?? defaultOrder(grouped, select);
  const direction = order?.direction === 'desc' ? -1 : 1;
  const orderBy = order ? reader(order.by) : undefined;
  result.sort((a, b) => (orderBy ? direction * compareValues(orderBy(a), orderBy(b)) : 0) || compareValues(a.key, b.key));
  result = result.slice(0, query.limit ?? DEFAULT_LIMIT);
  return {
    columns: select.map((column) => ({
      column: column.column,
      ...(column.column === 'visitorClaim' && column.claim !== undefined ? { claim: column.claim } : {}),
      values: result.map(reader(column)),
    })),
  };
}

function defaultOrder(grouped: InsightsColumn[], select: InsightsColumn[]): InsightsAggregation['order'] {
  const datetime = grouped.find((column) => column.column === 'datetime');
  if (datetime) return { by: datetime, direction: 'asc' };
  const count = select.find((column) => isCount(column.column) && column.column !== 'pageFeedbackRating' && column.column !== 'askResponseRating');
  if (count) return { by: count, direction: 'desc' };
  return undefined;
}
