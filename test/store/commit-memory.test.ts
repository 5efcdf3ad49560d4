/**
 * A commit holds the rows a transaction wrote once, not twice (issue 21: import peak memory):
 * the group commit moves each transaction's writes into the group's, so a Git import's fresh
 * search index (~15 MB of row text for 4,000 pages) is not kept by the finished transaction
 * while the commit builds its table nodes from it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/index.js';
import type { StoreWriter } from '../../src/store/types.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

describe('group commit', () => {
  it('moves a transaction’s rows into its commit and keeps none in the transaction', async () => {
    const store = createStore(storePath('commit-memory'));
    try {
      let writer: StoreWriter | undefined;
      await store.transact((tx) => {
        writer = tx;
        for (let i = 0; i < 2000; i += 1) {
          const key = `sp1/word${String(i).padStart(4, '0')}/00000000`;
          const row = JSON.stringify([`page${i}`, i, 0]);
          if (tx.putJson) tx.putJson('searchIndex', key, row);
          else tx.put('searchIndex', key, JSON.parse(row));
        }
        tx.put('spaces', 'sp1', { id: 'sp1' });
      });
      const own = (writer as unknown as { own: { tables: Map<string, unknown>; objects: Map<string, unknown> } }).own;
      expect(own.tables.size).toBe(0);
      expect(own.objects.size).toBe(0);
      // Committed all the same.
      const reader = store.read();
      expect(reader.get('searchIndex', 'sp1/word1999/00000000')).toEqual(['page1999', 1999, 0]);
      expect(reader.scan('searchIndex', { prefix: 'sp1/' })).toHaveLength(2000);
      expect(reader.get('spaces', 'sp1')).toEqual({ id: 'sp1' });
    } finally {
      await store.close();
    }
  });
});

describe('a commit’s new leaves', () => {
  it('are written from the rows’ text: a big commit parses no row (issue 21: the parsed rows were the commit’s garbage)', async () => {
    const store = createStore(storePath('commit-leaf-text'));
    const rows = 20_000;
    const row = (i: number) => JSON.stringify([`page${i}`, i, 0, `page${i + 1}`, 1, 2]);
    const parse = JSON.parse;
    let parsed = 0;
    try {
      JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
        parsed += 1;
        return parse(text, reviver);
      }) as typeof JSON.parse;
      await store.transact((tx) => {
        for (let i = 0; i < rows; i += 1) (tx.putJson as NonNullable<StoreWriter['putJson']>)('searchIndex', `sp1/w${String(i).padStart(5, '0')}/00000000`, row(i));
      });
      JSON.parse = parse;
      // Parsed: the few leaves a small commit keeps as values (KEEP_LEAF_VALUES_BYTES), the tree's
      // edge read back once per key range, the root and its records; not one parse per row.
      expect(parsed).toBeLessThan(rows / 10);
      const reader = store.read();
      expect(reader.get('searchIndex', 'sp1/w19999/00000000')).toEqual(['page19999', 19999, 0, 'page20000', 1, 2]);
      expect(reader.scan('searchIndex', { prefix: 'sp1/w0' })).toHaveLength(10_000);
    } finally {
      JSON.parse = parse;
      await store.close();
    }
  });
});
