/**
 * Lists that grow, stored so that no write rewrites the whole list
 * (../shared/notes/hardening.md §1). Use these instead of a list-valued row.
 *
 * - `OrderedList`: items in a user-visible order (the spaces and collections of a
 *   container, a site's sections, a section's site spaces). Each item is one row
 *   `${owner}/${orderKey}` → `{id, value}` in `table`, where the order key is a
 *   fractional index (`fractional-indexing`): an insert or a move writes one row
 *   (plus the item's row in the position index `${table}.pos`, `${owner}/${id}` →
 *   orderKey), whatever the length of the list. A count row (`${table}.n`, owner →
 *   number) is updated in the same commit, so `count` never scans.
 * - `KeyedSet`: items keyed by id with no order of their own (a team's members,
 *   a user's organizations): `${owner}/${id}` → value, listed in id order.
 *
 * Both page with the list engine (`paginate` over `rowsOf`, pagination.ts): the
 * cursor is the last key returned, so a page of 50 reads 50 rows, not the list.
 *
 * Owner ids and item ids must not contain `/`.
 */
import { generateKeyBetween } from 'fractional-indexing';
import { badRequest } from '../api/errors.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import { type ListEnvelope, type PageQuery, paginate, rowsOf } from './pagination.js';

export interface Entry<V> {
  id: string;
  value: V;
}

/** Where to put an item: before or after a sibling (by id), or at the end. */
export interface Placement {
  before?: string | undefined;
  after?: string | undefined;
}

/** True when `id` can name an item (ids from a request may be anything: look them up only when this holds). */
export function isKeyedId(id: string): boolean {
  return id.length > 0 && !id.includes('/');
}

function checkId(what: string, id: string): void {
  if (id.includes('/')) throw new Error(`${what} "${id}" must not contain "/"`);
}

export class OrderedList<V> {
  readonly positions: string;
  readonly counts: string;
  /**
   * The highest order key ever given in a list (`${table}.end`, owner → key): appending
   * reads this one row instead of scanning for the last item, and a removed item's key
   * is never handed out again, so `reinsert` can put an item back where it was.
   */
  readonly ends: string;

  constructor(readonly table: string) {
    this.positions = `${table}.pos`;
    this.counts = `${table}.n`;
    this.ends = `${table}.end`;
  }

  private noteKey(tx: StoreWriter, owner: string, key: string): void {
    const end = tx.get<string>(this.ends, owner);
    if (end === undefined || key > end) tx.put(this.ends, owner, key);
  }

  private rowKey(owner: string, orderKey: string): string {
    return `${owner}/${orderKey}`;
  }

  /** The item's order key, or undefined when it is not in the list. */
  orderKey(tx: StoreReader, owner: string, id: string): string | undefined {
    // An id from a request with a "/" in it names no item (insert refuses such ids).
    if (!isKeyedId(id)) return undefined;
    return tx.get<string>(this.positions, `${owner}/${id}`);
  }

  has(tx: StoreReader, owner: string, id: string): boolean {
    return this.orderKey(tx, owner, id) !== undefined;
  }

  get(tx: StoreReader, owner: string, id: string): V | undefined {
    const key = this.orderKey(tx, owner, id);
    if (key === undefined) return undefined;
    return tx.get<Entry<V>>(this.table, this.rowKey(owner, key))?.value;
  }

  count(tx: StoreReader, owner: string): number {
    return tx.get<number>(this.counts, owner) ?? 0;
  }

  /** Up to `limit` items from the start (or the end with `reverse`). */
  head(tx: StoreReader, owner: string, limit: number, reverse = false): Array<Entry<V>> {
    return tx
      .scan<Entry<V>>(this.table, { prefix: `${owner}/`, limit, ...(reverse ? { reverse: true } : {}) })
      .map(([, entry]) => entry);
  }

  /** Every item, in order. Only for lists that stay small (a site's sections) or whole-list exports. */
  all(tx: StoreReader, owner: string): Array<Entry<V>> {
    return tx.scan<Entry<V>>(this.table, { prefix: `${owner}/` }).map(([, entry]) => entry);
  }

  /** One page of the list (`map` returning undefined drops an item from the page; `count`: the filtered list's, when it filters). */
  page<T>(tx: StoreReader, owner: string, query: PageQuery, map: (entry: Entry<V>) => T | undefined, count = this.count(tx, owner)): ListEnvelope<T> {
    return paginate(rowsOf<Entry<V>>(tx, this.table, `${owner}/`), query, (entry) => map(entry), count);
  }

  /** The neighbours' order keys around an anchor: [key before the slot, key after the slot]. */
  private slot(tx: StoreReader, owner: string, placement: Placement | undefined): [string | null, string | null] {
    const prefix = `${owner}/`;
    if (placement?.before !== undefined && placement.after !== undefined) {
      throw badRequest('Invalid position: give either "before" or "after", not both');
    }
    if (placement?.before !== undefined) {
      const anchor = this.orderKey(tx, owner, placement.before);
      if (anchor === undefined) throw badRequest(`Invalid position: ${placement.before} is not in this list`);
      const prev = tx.scan(this.table, { prefix, after: prefix + anchor, reverse: true, limit: 1 })[0];
      return [prev ? prev[0].slice(prefix.length) : null, anchor];
    }
    if (placement?.after !== undefined) {
      const anchor = this.orderKey(tx, owner, placement.after);
      if (anchor === undefined) throw badRequest(`Invalid position: ${placement.after} is not in this list`);
      const next = tx.scan(this.table, { prefix, after: prefix + anchor, limit: 1 })[0];
      return [anchor, next ? next[0].slice(prefix.length) : null];
    }
    const end = tx.get<string>(this.ends, owner);
    if (end !== undefined) return [end, null];
    const last = tx.scan(this.table, { prefix, reverse: true, limit: 1 })[0];
    return [last ? last[0].slice(prefix.length) : null, null];
  }

  /** Adds an item (at the end, or before/after a sibling). Replaces the value when it is already there, keeping its place. */
  insert(tx: StoreWriter, owner: string, id: string, value: V, placement?: Placement): void {
    checkId('owner', owner);
    checkId('id', id);
    const existing = this.orderKey(tx, owner, id);
    if (existing !== undefined) {
      tx.put(this.table, this.rowKey(owner, existing), { id, value });
      return;
    }
    const [low, high] = this.slot(tx, owner, placement);
    this.add(tx, owner, id, value, generateKeyBetween(low, high));
  }

  private add(tx: StoreWriter, owner: string, id: string, value: V, key: string): void {
    tx.put(this.table, this.rowKey(owner, key), { id, value });
    tx.put(this.positions, `${owner}/${id}`, key);
    tx.put(this.counts, owner, this.count(tx, owner) + 1);
    this.noteKey(tx, owner, key);
  }

  /**
   * Puts a removed item back at the order key it had (`orderKey` from before its
   * removal): a restored item takes its old place. At the end when that key is taken.
   */
  reinsert(tx: StoreWriter, owner: string, id: string, value: V, orderKey: string | undefined): void {
    checkId('owner', owner);
    checkId('id', id);
    if (this.has(tx, owner, id)) {
      this.update(tx, owner, id, value);
      return;
    }
    if (orderKey === undefined || tx.has(this.table, this.rowKey(owner, orderKey))) {
      this.insert(tx, owner, id, value);
      return;
    }
    this.add(tx, owner, id, value, orderKey);
  }

  /** The ids of the items just before and just after `id` (undefined at either end). */
  neighbours(tx: StoreReader, owner: string, id: string): { prev?: string; next?: string } | undefined {
    const key = this.orderKey(tx, owner, id);
    if (key === undefined) return undefined;
    const prefix = `${owner}/`;
    const prev = tx.scan<Entry<V>>(this.table, { prefix, after: prefix + key, reverse: true, limit: 1 })[0];
    const next = tx.scan<Entry<V>>(this.table, { prefix, after: prefix + key, limit: 1 })[0];
    return { ...(prev ? { prev: prev[1].id } : {}), ...(next ? { next: next[1].id } : {}) };
  }

  /**
   * The item already sits where `placement` would put it (before/after that sibling,
   * or last without one): moving it there would change nothing. False when it is not in the list.
   */
  inPlace(tx: StoreReader, owner: string, id: string, placement: Placement | undefined): boolean {
    const around = this.neighbours(tx, owner, id);
    if (around === undefined) return false;
    if (placement?.before !== undefined) return around.next === placement.before;
    if (placement?.after !== undefined) return around.prev === placement.after;
    return around.next === undefined;
  }

  /** Replaces an item's value in place. False when it is not in the list. */
  update(tx: StoreWriter, owner: string, id: string, value: V): boolean {
    const key = this.orderKey(tx, owner, id);
    if (key === undefined) return false;
    tx.put(this.table, this.rowKey(owner, key), { id, value });
    return true;
  }

  /** Moves an item before/after a sibling (or to the end). False when it is not in the list. */
  move(tx: StoreWriter, owner: string, id: string, placement: Placement | undefined): boolean {
    const key = this.orderKey(tx, owner, id);
    if (key === undefined) return false;
    if (placement?.before === id || placement?.after === id) {
      throw badRequest(`Invalid position: cannot place ${id} relative to itself`);
    }
    const value = (tx.get<Entry<V>>(this.table, this.rowKey(owner, key)) as Entry<V>).value;
    tx.delete(this.table, this.rowKey(owner, key));
    tx.delete(this.positions, `${owner}/${id}`);
    const [low, high] = this.slot(tx, owner, placement);
    const next = generateKeyBetween(low, high);
    tx.put(this.table, this.rowKey(owner, next), { id, value });
    tx.put(this.positions, `${owner}/${id}`, next);
    this.noteKey(tx, owner, next);
    return true;
  }

  /** Removes an item. False when it was not in the list. */
  remove(tx: StoreWriter, owner: string, id: string): boolean {
    const key = this.orderKey(tx, owner, id);
    if (key === undefined) return false;
    tx.delete(this.table, this.rowKey(owner, key));
    tx.delete(this.positions, `${owner}/${id}`);
    const count = this.count(tx, owner) - 1;
    if (count > 0) tx.put(this.counts, owner, count);
    else tx.delete(this.counts, owner);
    return true;
  }
}

export class KeyedSet<V> {
  readonly counts: string;

  constructor(readonly table: string) {
    this.counts = `${table}.n`;
  }

  private key(owner: string, id: string): string {
    checkId('owner', owner);
    checkId('id', id);
    return `${owner}/${id}`;
  }

  // Reads and removes take ids from requests as they come: one that cannot name an item
  // (a "/" in it) is simply not in the set. Only a put refuses it, as a caller's bug.
  get(tx: StoreReader, owner: string, id: string): V | undefined {
    return isKeyedId(owner) && isKeyedId(id) ? tx.get<V>(this.table, this.key(owner, id)) : undefined;
  }

  has(tx: StoreReader, owner: string, id: string): boolean {
    return isKeyedId(owner) && isKeyedId(id) && tx.has(this.table, this.key(owner, id));
  }

  count(tx: StoreReader, owner: string): number {
    return tx.get<number>(this.counts, owner) ?? 0;
  }

  /** Adds or replaces an item. True when it was new. */
  put(tx: StoreWriter, owner: string, id: string, value: V): boolean {
    const key = this.key(owner, id);
    const isNew = !tx.has(this.table, key);
    tx.put(this.table, key, value);
    if (isNew) tx.put(this.counts, owner, this.count(tx, owner) + 1);
    return isNew;
  }

  remove(tx: StoreWriter, owner: string, id: string): boolean {
    if (!isKeyedId(owner) || !isKeyedId(id) || !tx.delete(this.table, this.key(owner, id))) return false;
    const count = this.count(tx, owner) - 1;
    if (count > 0) tx.put(this.counts, owner, count);
    else tx.delete(this.counts, owner);
    return true;
  }

  /** Every item in id order. Only for sets that stay small, or whole-set operations (a sync diff). */
  all(tx: StoreReader, owner: string): Array<Entry<V>> {
    const prefix = `${owner}/`;
    return tx.scan<V>(this.table, { prefix }).map(([key, value]) => ({ id: key.slice(prefix.length), value }));
  }

  /**
   * A page of items in id order. `shared`: `map` gets the store's own values, read-only
   * (no copy of each row: for a big page that only reads its rows to build new values).
   */
  page<T>(
    tx: StoreReader,
    owner: string,
    query: PageQuery,
    map: (entry: Entry<V>) => T | undefined,
    options: { shared?: boolean } = {},
  ): ListEnvelope<T> {
    return paginate(rowsOf<V>(tx, this.table, `${owner}/`, options), query, (value, id) => map({ id, value }), this.count(tx, owner));
  }
}
