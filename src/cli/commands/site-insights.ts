/**
 * Hooks of the Insights commands (src/api/routes/site-insights.ts): events tracked from a JSON
 * file or stdin; a query built from flags (`--group-by urlPath --where eventType=page_view`)
 * and printed as rows (one per group, a column per selected column) instead of the API's
 * column arrays, so that a table reads across and `--json` gives one object per row.
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { Column } from '../../output/columns.js';
import type { Hooks } from '../derive.js';
import { readJsonFile } from '../json-file.js';

const NUMBERS = new Set(['dayOfWeek', 'hourOfDay', 'eventsCount', 'sessionsCount', 'visitorsCount', 'eventAskResponseRating']);
const PRESETS = ['last24Hours', 'last7Days', 'last30Days', 'last3Months', 'lastYear'];
const OPERATORS: ReadonlyArray<readonly [string, string]> = [
  ['>=', 'greaterThanOrEqual'],
  ['<=', 'lessThanOrEqual'],
  ['!=', 'notIn'],
  ['>', 'greaterThan'],
  ['<', 'lessThan'],
  ['=', 'in'],
];

type QueryColumn = { column: string; interval?: string; precision?: number; claim?: string };

/** `urlPath`, `datetime:hour`, `visitorClaim:plan`, `visitorGeoPoint:5` as a query column. */
function columnOf(text: string, flag: string): QueryColumn {
  const at = text.indexOf(':');
  const column = at === -1 ? text : text.slice(0, at);
  const option = at === -1 ? undefined : text.slice(at + 1);
  if (!/^[A-Za-z]+$/.test(column)) throw new UsageError(`${flag}: "${text}" is not a column (e.g. urlPath, eventsCount, datetime:day, visitorClaim:plan)`);
  if (option === undefined) return { column };
  if (column === 'datetime') return { column, interval: option };
  if (column === 'visitorClaim') return { column, claim: option };
  if (column === 'visitorGeoPoint' && /^\d+$/.test(option)) return { column, precision: Number(option) };
  throw new UsageError(`${flag}: "${text}": only datetime:INTERVAL, visitorClaim:CLAIM and visitorGeoPoint:PRECISION take an option`);
}

const columnsOf = (value: unknown, flag: string) =>
  String(value)
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => columnOf(item, flag));

/** One value of a `--where` as its column takes it: numbers, booleans, `null`, SPACE/PAGE for page. */
function valueOf(column: string, text: string): unknown {
  if (text === 'null') return null;
  if (NUMBERS.has(column) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (column === 'visitorAuthenticated' && (text === 'true' || text === 'false')) return text === 'true';
  if (column === 'page') {
    const [space, page] = text.split('/');
    if (!space || page === undefined) throw new UsageError(`--where page=${text}: give SPACE/PAGE (SPACE/null for a space's 404s) or null`);
    return { space, page: page === 'null' ? null : page };
  }
  return text;
}

/** `COLUMN=V1,V2`, `COLUMN!=V`, `COLUMN>=V`… (`COLUMN=[json…]` for values with commas) as a filter. */
export function filterOf(text: string): Record<string, unknown> {
  const match = /^([A-Za-z]+(?::[^=!<>]+)?)(>=|<=|!=|=|>|<)(.*)$/s.exec(text);
  if (!match) throw new UsageError(`--where "${text}": use COLUMN=VALUE[,VALUE…], COLUMN!=VALUE, COLUMN>VALUE, >=, < or <= (e.g. eventType=page_view)`);
  const [, columnText, sign, rest] = match as unknown as [string, string, string, string];
  const { column, claim } = columnOf(columnText, '--where');
  const operator = (OPERATORS.find(([symbol]) => symbol === sign) as readonly [string, string])[1];
  let values: unknown[];
  if (rest.startsWith('[')) {
    try {
      values = JSON.parse(rest) as unknown[];
    } catch {
      throw new UsageError(`--where "${text}": the values after ${sign} start with [ but are not a JSON array`);
    }
    if (!Array.isArray(values)) throw new UsageError(`--where "${text}": the values after ${sign} must be a JSON array`);
  } else {
    values = (operator === 'in' || operator === 'notIn' ? rest.split(',') : [rest]).map((item) => valueOf(column, item));
  }
  return { column, ...(claim !== undefined ? { claim } : {}), values, operator };
}

/** `--range last7Days` or `--range 2026-01-01..2026-02-01` (timestamps or dates, UTC). */
function rangeOf(text: string): unknown {
  if (PRESETS.includes(text)) return text;
  const [from, to, extra] = text.split('..');
  const instant = (value: string | undefined) => {
    const time = value === undefined || value === '' ? Number.NaN : Date.parse(value);
    if (Number.isNaN(time)) throw new UsageError(`--range "${text}": use ${PRESETS.join(', ')} or FROM..TO (e.g. 2026-01-01..2026-01-31T23:59:59Z)`);
    return new Date(time).toISOString();
  };
  if (extra !== undefined) instant(undefined);
  return { from: instant(from), to: instant(to) };
}

const nameOf = (column: QueryColumn) =>
  column.column === 'datetime' ? `datetime:${column.interval ?? 'day'}` : column.column === 'visitorClaim' ? `visitorClaim:${column.claim}` : column.column;

/** A cell for people: objects in short (`ok=1 good=2 bad=0`, SPACE/PAGE), null as -. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value !== 'object') return String(value);
  const object = value as Record<string, unknown>;
  if ('space' in object && 'page' in object) return `${String(object.space)}/${String(object.page)}`;
  return Object.entries(object)
    .map(([key, inner]) => `${key}=${typeof inner === 'object' ? JSON.stringify(inner) : String(inner)}`)
    .join(' ');
}

function bodyOf(input: RawInput): Record<string, unknown> {
  input.body ??= {};
  return input.body as Record<string, unknown>;
}

export const hooks = {
  'site insights track': {
    flags: [{ flags: '--file <file>', description: 'a JSON array of events, or {"events": […]}; - for stdin', required: true }],
    build: (options, input) => {
      const file = String(options.file);
      const parsed = readJsonFile(file, 'an array of events ({"type", "session", "location"})');
      const events = Array.isArray(parsed) ? parsed : (parsed as { events?: unknown } | null)?.events;
      if (!Array.isArray(events)) throw new UsageError(`--file ${file} must hold a JSON array of events, or {"events": […]}`);
      input.body = { events };
    },
  },
  'site insights query': {
    flags: [
      { flags: '--range <range>', description: `the time range: ${PRESETS.join(', ')} or FROM..TO (default last30Days)` },
      { flags: '--group-by <columns>', description: 'columns to group by, comma-separated: urlPath, eventType, referrerDomain, datetime:day, visitorClaim:plan…' },
      { flags: '--select <columns>', description: 'columns to show, comma-separated (default: the groups and eventsCount); counts: eventsCount, sessionsCount, visitorsCount' },
      { flags: '--where <filter...>', description: 'COLUMN=V1,V2, COLUMN!=V, COLUMN>V, >=, <, <= (repeat it; null, numbers, SPACE/PAGE for page)' },
      { flags: '--order <column[:asc|desc]>', description: 'order of the rows (default: by time, else by the first count, descending)' },
      { flags: '--limit <n>', description: 'at most this many rows (1–1000, default 1000)' },
    ],
    build: (options, input) => {
      const body = bodyOf(input);
      if (options.range !== undefined) body.range = rangeOf(String(options.range));
      body.range ??= 'last30Days';
      if (options.groupBy !== undefined) body.groupBy = columnsOf(options.groupBy, '--group-by');
      if (options.select !== undefined) body.select = columnsOf(options.select, '--select');
      if (options.where !== undefined) body.where = (options.where as string[]).map(filterOf);
      if (options.order !== undefined) {
        const text = String(options.order);
        const direction = /:(asc|desc)$/.exec(text)?.[1];
        const by = columnOf(direction ? text.slice(0, -direction.length - 1) : text, '--order');
        body.order = { by, direction: direction ?? (NUMBERS.has(by.column) ? 'desc' : 'asc') };
      }
      if (options.limit !== undefined) {
        const limit = Number(options.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit expects an integer from 1 to 1000, got "${String(options.limit)}"`);
        body.limit = limit;
      }
    },
    after: async (session, answer, input) => {
      const columns = (answer as { columns?: Array<QueryColumn & { values: unknown[] }> }).columns ?? [];
      // Named as asked (the answer's datetime column does not say its interval).
      const body = input.body as { select?: QueryColumn[]; groupBy?: QueryColumn[] };
      const asked = body.select ?? [...(body.groupBy ?? []), { column: 'eventsCount' }];
      const names = columns.map((column, at) => nameOf(asked[at]?.column === column.column ? (asked[at] as QueryColumn) : column));
      const rows = (columns[0]?.values ?? []).map((_, at) => Object.fromEntries(columns.map((column, index) => [names[index], column.values[at]])));
      const table: Column[] = names.map((name) => ({ header: name.toUpperCase(), get: (row) => cell(row[name]) }));
      await session.printList(rows, table);
    },
  },
} satisfies Hooks;
