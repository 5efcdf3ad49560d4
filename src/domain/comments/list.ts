/**
 * One page of a filtered scan: rows under a prefix, in key order (or reversed),
 * kept when `accept` maps them to an item, until `limit` items are found. The
 * cursor is the key of the last row returned, so the next page starts right after
 * it whatever was written meanwhile; a page reads the rows it returns plus the
 * rows the filter skipped, never the whole list when the filter is an index.
 * Rows are the store's own parsed values (no copy each): `accept` must not modify
 * them, and its items are answers, serialized before they leave the handler.
 */
import type { StoreReader } from '../../store/types.js';
import { decodeKeyCursor, encodeKeyCursor } from '../ordered.js';
import { DEFAULT_LIMIT } from '../pagination.js';

export interface FilteredPage<T> {
  next?: { page: string };
  count?: number;
  items: T[];
}

const CHUNK = 128;

export function scanPage<R, T>(
  tx: StoreReader,
  table: string,
  prefix: string,
  query: { page?: string | undefined; limit?: number | undefined },
  options: { reverse: boolean; count?: number | undefined },
  accept: (row: R, key: string) => T | undefined,
): FilteredPage<T> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const items: T[] = [];
  let after = query.page === undefined ? undefined : prefix + decodeKeyCursor(query.page);
  let lastTaken: string | undefined;
  let more = false;
  // The first read asks for just the page and one more row (to know whether there is a
  // next page); only a filter that skips rows makes the later reads, CHUNK rows each.
  let want = limit + 1;
  scanning: for (;;) {
    const rows = tx.scan<R>(table, {
      prefix,
      ...(after !== undefined ? { after } : {}),
      limit: want,
      ...(options.reverse ? { reverse: true } : {}),
      shared: true,
    });
    for (const [key, row] of rows) {
      const item = accept(row, key);
      if (item === undefined) continue;
      if (items.length === limit) {
        more = true;
        break scanning;
      }
      items.push(item);
      lastTaken = key;
    }
    if (rows.length < want) break;
    after = (rows.at(-1) as [string, R])[0];
    want = Math.max(CHUNK, limit + 1);
  }
  const page: FilteredPage<T> = { ...(options.count !== undefined ? { count: options.count } : {}), items };
  if (more && lastTaken !== undefined) return { next: { page: encodeKeyCursor(lastTaken.slice(prefix.length)) }, ...page };
  return page;
}
