/**
 * Reads of a commit in flight (JsonFileStore.speculative): a group that arrives while the
 * commit before it is being written runs on that commit's nodes, found by hash in its
 * pending objects. They are used without a shape check (built by the commit), and a name
 * that is not an object hash is still refused before anything reaches the disk.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import { createStore } from '../../src/store/index.js';
import type { JsonFileStore } from '../../src/store/json-file-store.js';
import type { StoreWriter } from '../../src/store/types.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

const key = (i: number) => `r${String(i).padStart(5, '0')}`;

/** Runs `second` in a transaction queued from inside `first`'s: it arrives while `first`'s commit is written. */
function queuedBehind(store: JsonFileStore, first: (tx: StoreWriter) => void, second: (tx: StoreWriter) => void): Promise<unknown[]> {
  let behind: Promise<unknown> | undefined;
  const ahead = store.transact((tx) => {
    first(tx);
    behind = store.transact(second);
  });
  return ahead.then(async (value) => [value, await behind]);
}

describe('reads of a commit in flight', () => {
  it('a group queued behind a commit reads its rows through the nodes that commit built', async () => {
    const store = createStore(storePath('in-flight'));
    // Enough rows for inner nodes: the next group walks the in-flight commit's inner nodes and leaves.
    await store.transact((tx) => {
      for (let i = 0; i < 2000; i += 1) tx.put('rows', key(i), { i, pad: 'x'.repeat(60) });
    });
    const seen: Array<{ inFlight: number; row: unknown; other: unknown }> = [];
    await queuedBehind(
      store,
      (tx) => {
        tx.put('rows', key(1000), { i: 1000, changed: true });
        tx.put('rows', key(5000), { i: 5000 });
      },
      (tx) => {
        seen.push({ inFlight: store.speculative.size, row: tx.get('rows', key(1000)), other: tx.get('rows', key(1999)) });
        tx.put('rows', key(5001), { i: 5001 });
      },
    );
    expect(seen).toEqual([{ inFlight: 1, row: { i: 1000, changed: true }, other: { i: 1999, pad: 'x'.repeat(60) } }]);
    const reader = store.read();
    expect(reader.get('rows', key(5000))).toEqual({ i: 5000 });
    expect(reader.get('rows', key(5001))).toEqual({ i: 5001 });
    await store.close();
  });

  it('a name that is not an object hash is refused while a commit is in flight, as at any time', async () => {
    const store = createStore(storePath('in-flight-name'));
    await store.transact((tx) => tx.put('rows', key(1), { i: 1 }));
    const refused: string[] = [];
    const tryRead = (name: string) => {
      try {
        store.object(name);
        refused.push(`read ${name}`);
      } catch (error) {
        refused.push(error instanceof StoreError ? error.message : `other: ${String(error)}`);
      }
    };
    tryRead('../../etc/passwd');
    await queuedBehind(
      store,
      (tx) => tx.put('rows', key(2), { i: 2 }),
      (tx) => {
        expect(store.speculative.size).toBe(1);
        tryRead('../../etc/passwd');
        tryRead('A'.repeat(64));
        tx.put('rows', key(3), { i: 3 });
      },
    );
    expect(refused).toEqual([
      'no object "../../etc/passwd" in the store (not an object hash)',
      'no object "../../etc/passwd" in the store (not an object hash)',
      `no object "${'A'.repeat(64)}" in the store (not an object hash)`,
    ]);
    await store.close();
  });
});
