/**
 * Pagination of list operations: opaque `next.page` cursors, `limit` ≤ 1000, `count`.
 *
 * The cursor encodes the offset of the next item; it is opaque to clients (they
 * pass `next.page` back as `page`) and a cursor that does not decode is a 400.
 */
import { badRequest } from '../api/errors.js';

/** Page size when the client gives no `limit` (the real API documents none). */
export const DEFAULT_LIMIT = 50;

export interface ListEnvelope<T> {
  next?: { page: string };
  count: number;
  items: T[];
}

export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`, 'utf8').toString('base64url');
}

export function decodeCursor(page: string): number {
  const text = Buffer.from(page, 'base64url').toString('utf8');
  const match = /^o:(\d+)$/.exec(text);
  if (!match) throw badRequest(`Invalid page cursor "${page}": pass the next.page value of a previous response`);
  return Number(match[1]);
}

/**
 * One page of `all`: `map` is applied only to the items of the page, so a listing
 * can hold cheap keys and load full records for the page alone.
 */
export function paginate<K, T>(
  all: readonly K[],
  query: { page?: string | undefined; limit?: number | undefined },
  map: (key: K) => T,
): ListEnvelope<T> {
  const offset = query.page === undefined ? 0 : decodeCursor(query.page);
  const limit = query.limit ?? DEFAULT_LIMIT;
  const slice = all.slice(offset, offset + limit);
  const envelope: ListEnvelope<T> = { count: all.length, items: slice.map(map) };
  const nextOffset = offset + slice.length;
  if (nextOffset < all.length && limit > 0) return { next: { page: encodeCursor(nextOffset) }, ...envelope };
  return envelope;
}
