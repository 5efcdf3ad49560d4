/**
 * The one pagination engine of every list operation: `limit` ≤ 1000, an opaque
 * `next.page` cursor, a `count`.
 *
 * A list reads its items from a source (`rowsOf`: rows of a store table under a key
 * prefix, in key order or reversed; `itemsOf`: a sequence already computed in
 * memory, for the lists that must rank or sort before paging) and `paginate` takes
 * one page of it. The cursor is the key of the last item returned (a row's key
 * below its prefix, an item's position in a sequence), so the next page starts right
 * after it; a scanned list reads the rows of its page, plus the rows its filter skips,
 * never the whole list up front (every list grows: ../shared/notes/hardening.md §1).
 *
 * Cursors are opaque to clients (they pass `next.page` back as `page`); one that does
 * not decode, or does not name a position of the list, is a 400. Offset cursors of
 * earlier versions (`o:N`) are refused that way, with a hint to start the listing again.
 */
import { badRequest } from '../api/errors.js';
import type { StoreReader } from '../store/types.js';

/** Page size when the client gives no `limit` (the real API documents none). */
export const DEFAULT_LIMIT = 50;

export interface PageQuery {
  page?: string | undefined;
  limit?: number | undefined;
}

/** One page of a list whose count is known (every list but those of comments and reviews). */
export interface ListEnvelope<T> {
  next?: { page: string };
  count: number;
  items: T[];
}

/** One page of a list that may not say its count. */
export type ListPage<T> = Omit<ListEnvelope<T>, 'count'> & { count?: number };

/** Where a list's items come from, in list order, each with the key a cursor names. */
export interface PageSource<R> {
  /**
   * Up to `limit` items after the one keyed `after` (from the start when undefined),
   * as [key, item]; undefined when `after` is not a key this source can continue from.
   */
  read(after: string | undefined, limit: number): Array<[string, R]> | undefined;
  /** The number of items, when the source knows it without reading them. */
  readonly size?: number;
  /** Its items are the list's (already filtered): a next page exists when an item follows the page, unmapped. */
  readonly complete?: boolean;
}

const CURSOR_PREFIX = 'k:';

export function encodeCursor(key: string): string {
  return Buffer.from(`${CURSOR_PREFIX}${key}`, 'utf8').toString('base64url');
}

function invalidCursor(page: string, legacy = false) {
  return badRequest(
    legacy
      ? `Page cursor "${page}" is from an earlier docsctl version: start the listing again without a page`
      : `Invalid page cursor "${page}": pass the next.page value of a previous response`,
  );
}

export function decodeCursor(page: string): string {
  const text = Buffer.from(page, 'base64url').toString('utf8');
  if (text.startsWith(CURSOR_PREFIX) && text.length > CURSOR_PREFIX.length) return text.slice(CURSOR_PREFIX.length);
  throw invalidCursor(page, /^o:\d+$/.test(text));
}

/** Rows of `table` under `prefix` (keys below the prefix), in key order or reversed. */
export function rowsOf<R>(
  tx: StoreReader,
  table: string,
  prefix: string,
  options: { reverse?: boolean | undefined; shared?: boolean | undefined } = {},
): PageSource<R> {
  return {
    read(after, limit) {
      const rows = tx.scan<R>(table, {
        prefix,
        ...(after !== undefined ? { after: prefix + after } : {}),
        limit,
        ...(options.reverse ? { reverse: true } : {}),
        ...(options.shared ? { shared: true } : {}),
      });
      return rows.map(([key, row]) => [key.slice(prefix.length), row]);
    },
  };
}

/**
 * How many rows under `prefix` `keep` accepts (given each row and its key below the prefix): the count of a list filtered by
 * something no index holds, which reads the whole list (its page still reads its own
 * rows only). Rows are the store's own values: `keep` must not modify them.
 */
export function countRows<R>(tx: StoreReader, table: string, prefix: string, keep: (row: R, key: string) => boolean = () => true): number {
  let count = 0;
  for (const [key, row] of tx.scan<R>(table, { prefix, shared: true })) if (keep(row, key.slice(prefix.length))) count++;
  return count;
}

/** A sequence computed in memory (ranked, sorted, merged from several places); its keys are positions. */
export function itemsOf<R>(items: readonly R[]): PageSource<R> & { size: number } {
  return {
    size: items.length,
    complete: true,
    read(after, limit) {
      let start = 0;
      if (after !== undefined) {
        if (!/^(0|[1-9]\d{0,15})$/.test(after)) return undefined;
        start = Number(after) + 1;
      }
      return items.slice(start, start + limit).map((item, i) => [String(start + i), item]);
    },
  };
}

/** Rows read after the first read of a page, when a filter has dropped some. */
const CHUNK = 128;

/**
 * One page of `source`: `map` is applied in order to the items after the cursor until
 * the page is full (a `map` returning undefined drops the item, so a filtered list still
 * answers `limit` items a page), and to one more item of a scan (to know whether a next
 * page exists): a list can hold cheap keys and load full records for its page alone. `count` is the caller's (a counter row, a count of
 * matches), else the source's size, else absent. The first read asks for the page and
 * one more item (to know whether a next page exists); only a filter that drops items
 * makes later reads, CHUNK at least.
 */
type MapItem<R, T> = (item: R, key: string) => T | undefined;
export function paginate<R, T>(source: PageSource<R> & { size: number }, query: PageQuery, map: MapItem<R, T>, count?: number): ListEnvelope<T>;
export function paginate<R, T>(source: PageSource<R>, query: PageQuery, map: MapItem<R, T>, count: number): ListEnvelope<T>;
export function paginate<R, T>(source: PageSource<R>, query: PageQuery, map: MapItem<R, T>, count?: number): ListPage<T>;
export function paginate<R, T>(source: PageSource<R>, query: PageQuery, map: MapItem<R, T>, count?: number): ListPage<T> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const total = count ?? source.size;
  let after = query.page === undefined ? undefined : decodeCursor(query.page);
  const items: T[] = [];
  const envelope = (next?: string): ListPage<T> => ({
    ...(next !== undefined ? { next: { page: encodeCursor(next) } } : {}),
    ...(total !== undefined ? { count: total } : {}),
    items,
  });
  let want = limit + 1;
  let lastTaken: string | undefined;
  for (;;) {
    const rows = source.read(after, want);
    if (rows === undefined) throw invalidCursor(query.page as string);
    if (limit <= 0) return envelope();
    for (const [key, row] of rows) {
      if (items.length === limit && source.complete) return envelope(lastTaken);
      const item = map(row, key);
      if (item === undefined) continue;
      if (items.length === limit) return envelope(lastTaken);
      items.push(item);
      lastTaken = key;
    }
    if (rows.length < want) return envelope();
    after = (rows.at(-1) as [string, R])[0];
    want = Math.max(CHUNK, limit - items.length + 1);
  }
}
