/**
 * The one pagination engine (src/domain/pagination.ts): every list pages through
 * `paginate`, with one cursor format, and a scanned list reads its page, not the list.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { countRows, decodeCursor, encodeCursor, itemsOf, paginate, rowsOf } from '../../src/domain/pagination.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { StoreReader } from '../../src/store/types.js';

/** A store with `n` rows `o/000001`… in table `t`, and a reader that counts the rows its scans return. */
async function tableOf(n: number) {
  const store = new MemoryStore();
  await store.transact((tx) => {
    for (let i = 0; i < n; i++) tx.put('t', `o/${String(i).padStart(6, '0')}`, { i, even: i % 2 === 0 });
    tx.put('t', 'p/other', { i: -1, even: true });
  });
  const inner = store.read();
  const counter = { rows: 0 };
  const reader = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'scan') {
        return (...args: Parameters<StoreReader['scan']>) => {
          const rows = target.scan(...args);
          counter.rows += rows.length;
          return rows;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { reader, counter };
}

type Row = { i: number; even: boolean };

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('paginate over a sequence in memory', () => {
  const letters = ['a', 'b', 'c', 'd', 'e'];

  it('pages in order with next.page until the end, counting the sequence', () => {
    const first = paginate(itemsOf(letters), { limit: 2 }, (x) => x.toUpperCase());
    expect(first).toEqual({ next: { page: encodeCursor('1') }, count: 5, items: ['A', 'B'] });
    expect(Object.keys(first)).toEqual(['next', 'count', 'items']);
    const second = paginate(itemsOf(letters), { limit: 2, page: first.next?.page }, (x) => x);
    expect(second.items).toEqual(['c', 'd']);
    expect(paginate(itemsOf(letters), { limit: 2, page: second.next?.page }, (x) => x)).toEqual({ count: 5, items: ['e'] });
    expect(paginate(itemsOf(letters), { limit: 5 }, (x) => x)).toEqual({ count: 5, items: letters });
    expect(paginate(itemsOf([]), {}, (x) => x)).toEqual({ count: 0, items: [] });
  });

  it('maps only the items of the page', () => {
    const seen: string[] = [];
    paginate(itemsOf(letters), { limit: 2, page: encodeCursor('1') }, (x) => seen.push(x));
    expect(seen).toEqual(['c', 'd']);
  });

  it('refuses a cursor that names no position, and an offset cursor of an earlier version, with a 400', () => {
    for (const page of ['garbage', encodeCursor('x'), encodeCursor('-1'), encodeCursor('01'), encodeCursor('1e3')]) {
      const error = errorOf(() => paginate(itemsOf(letters), { page }, (x) => x));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/^Invalid page cursor ".*": pass the next.page value of a previous response$/);
    }
    const old = Buffer.from('o:50').toString('base64url');
    const error = errorOf(() => paginate(itemsOf(letters), { page: old }, (x) => x));
    expect(error.status).toBe(400);
    expect(error.message).toBe(`Page cursor "${old}" is from an earlier docsctl version: start the listing again without a page`);
    expect(() => decodeCursor(encodeCursor(''))).toThrow(/Invalid page cursor/);
  });
});

describe('paginate over store rows', () => {
  it('pages by key (forward and reversed), with the caller’s count and keys below the prefix', async () => {
    const { reader } = await tableOf(7);
    const seenKeys: string[] = [];
    const first = paginate(rowsOf<Row>(reader, 't', 'o/'), { limit: 3 }, (row, key) => (seenKeys.push(key), row.i), 7);
    expect(first).toEqual({ next: { page: encodeCursor('000002') }, count: 7, items: [0, 1, 2] });
    // The row after the page is mapped too: a filter could drop it, and then there is no next page.
    expect(seenKeys).toEqual(['000000', '000001', '000002', '000003']);
    const rest = paginate(rowsOf<Row>(reader, 't', 'o/'), { limit: 10, page: first.next?.page }, (row) => row.i, 7);
    expect(rest).toEqual({ count: 7, items: [3, 4, 5, 6] });
    const reversed = paginate(rowsOf<Row>(reader, 't', 'o/', { reverse: true }), { limit: 3 }, (row) => row.i);
    expect(reversed).toEqual({ next: { page: encodeCursor('000004') }, items: [6, 5, 4] });
    expect(Object.keys(reversed)).toEqual(['next', 'items']);
  });

  it('keeps a filtered page full, and counts matches with countRows', async () => {
    const { reader } = await tableOf(10);
    const even = (row: Row) => (row.even ? row.i : undefined);
    const count = countRows<Row>(reader, 't', 'o/', (row) => row.even);
    expect(count).toBe(5);
    const first = paginate(rowsOf<Row>(reader, 't', 'o/'), { limit: 2 }, even, count);
    expect(first).toMatchObject({ count: 5, items: [0, 2] });
    const second = paginate(rowsOf<Row>(reader, 't', 'o/'), { limit: 2, page: first.next?.page }, even, count);
    const third = paginate(rowsOf<Row>(reader, 't', 'o/'), { limit: 2, page: second.next?.page }, even, count);
    expect(second.items).toEqual([4, 6]);
    expect(third).toEqual({ count: 5, items: [8] });
  });

  it('reads the rows of its page at 1× and at 500× the data (every list grows)', async () => {
    const reads = async (n: number, map: (row: Row) => number | undefined) => {
      const { reader, counter } = await tableOf(n);
      const first = paginate(rowsOf<Row>(reader, 't', 'o/'), { limit: 50 }, map, n);
      counter.rows = 0;
      paginate(rowsOf<Row>(reader, 't', 'o/'), { limit: 50, page: first.next?.page }, map, n);
      return counter.rows;
    };
    // A page of 50 reads 51 rows (the last one says whether a next page exists), whatever the list's length.
    expect(await reads(120, (row) => row.i)).toBe(51);
    expect(await reads(60_000, (row) => row.i)).toBe(51);
    // A filter reads the rows it skips too, still not the list.
    const evenAt1000 = await reads(60_000, (row) => (row.even ? row.i : undefined));
    expect(evenAt1000).toBe(51 + 128);
  });
});

describe('one engine', () => {
  it('no other module of src/ encodes or decodes page cursors', () => {
    const root = join(__dirname, '../../src');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (path.endsWith('.ts') && !path.endsWith('domain/pagination.ts')) {
          const text = readFileSync(path, 'utf8');
          if (/next: \{ page:|decodeCursor|encodeCursor|\bo:\$\{|'k:'/.test(text)) offenders.push(path.slice(root.length + 1));
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
