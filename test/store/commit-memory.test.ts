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
