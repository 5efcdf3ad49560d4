/**
 * Whole-state snapshots of the file store (what `serve snapshot` and `serve reset` stand on):
 * `stateRoots` in a transaction committed alone sees exactly the transactions queued before
 * it, `replaceState` brings every table but the kept ones back in one commit, concurrent
 * writers (in this process and through another store instance, as another process) land
 * before or after it, and what a saved row names survives checkpoints and `store gc`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, fsck, gc, openStore } from '../../src/store/index.js';
import type { StoreWriter } from '../../src/store/types.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(cleanupTempDirs);

const SNAPSHOTS = 'snapshots';

const save = (tx: StoreWriter, name: string) => {
  const roots = (tx.stateRoots as () => Record<string, string>).call(tx);
  delete roots[SNAPSHOTS];
  tx.put(SNAPSHOTS, name, roots);
};

const restore = (tx: StoreWriter, name: string) => {
  const roots = tx.get<Record<string, string>>(SNAPSHOTS, name);
  if (!roots) throw new Error(`no snapshot ${name}`);
  (tx.replaceState as NonNullable<StoreWriter['replaceState']>).call(tx, roots, [SNAPSHOTS]);
};

const keys = (store: { read(): { scan(table: string): Array<[string, unknown]> } }, table: string) => store.read().scan(table).map(([key]) => key);

describe('whole-state snapshots of the file store', () => {
  it('restores every table (emptied, changed, new) and keeps the snapshots table', async () => {
    const store = createStore(storePath(), { durable: false });
    await store.transact((tx) => {
      tx.put('spaces', 'a', { title: 'A' });
      tx.put('spaces', 'b', { title: 'B' });
      tx.put('users', 'u1', { name: 'Ada' });
    });
    await store.transact((tx) => save(tx, 'one'), { alone: true });
    await store.transact((tx) => {
      tx.delete('spaces', 'a');
      tx.put('spaces', 'c', { title: 'C' });
      tx.delete('users', 'u1');
      tx.put('teams', 't1', { title: 'Writers' });
    });
    await store.transact((tx) => save(tx, 'two'), { alone: true });
    await store.transact((tx) => restore(tx, 'one'), { alone: true });
    expect(keys(store, 'spaces')).toEqual(['a', 'b']);
    expect(keys(store, 'users')).toEqual(['u1']);
    expect(keys(store, 'teams')).toEqual([]);
    expect(keys(store, SNAPSHOTS)).toEqual(['one', 'two']);
    await store.transact((tx) => restore(tx, 'two'), { alone: true });
    expect(keys(store, 'spaces')).toEqual(['b', 'c']);
    expect(keys(store, 'teams')).toEqual(['t1']);
    await store.close();
  });

  it('reads and writes after replaceState in the same transaction see the restored state', async () => {
    const store = createStore(storePath(), { durable: false });
    await store.transact((tx) => tx.put('spaces', 'a', 1));
    await store.transact((tx) => save(tx, 'one'), { alone: true });
    await store.transact((tx) => tx.put('spaces', 'b', 2));
    const seen = await store.transact(
      (tx) => {
        restore(tx, 'one');
        const inside = tx.scan('spaces').map(([key]) => key);
        tx.put('spaces', 'z', 26);
        return inside;
      },
      { alone: true },
    );
    expect(seen).toEqual(['a']);
    expect(keys(store, 'spaces')).toEqual(['a', 'z']);
    await store.close();
  });

  it('a save committed alone holds exactly the transactions queued before it, none after', async () => {
    const store = createStore(storePath(), { durable: false });
    const before = Array.from({ length: 40 }, (_, i) => store.transact((tx) => tx.put('rows', `k${String(i).padStart(2, '0')}`, i)));
    const saved = store.transact((tx) => save(tx, 'middle'), { alone: true });
    const after = Array.from({ length: 40 }, (_, i) => store.transact((tx) => tx.put('rows', `k${40 + i}`, 40 + i)));
    await Promise.all([...before, saved, ...after]);
    expect(keys(store, 'rows')).toHaveLength(80);
    await store.transact((tx) => restore(tx, 'middle'), { alone: true });
    expect(keys(store, 'rows')).toEqual(Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`));
    await store.close();
  });

  it('restores between concurrent writers of this process and of another store instance (the lock); fsck finds nothing', async () => {
    const dir = storePath();
    const store = createStore(dir, { durable: false });
    await store.transact((tx) => tx.put('rows', 'seed', 0));
    await store.transact((tx) => save(tx, 'seed'), { alone: true });
    const other = openStore(dir, { durable: false });
    const writes: Array<Promise<unknown>> = [];
    for (let round = 0; round < 5; round += 1) {
      for (let i = 0; i < 10; i += 1) {
        writes.push(store.transact((tx) => tx.put('rows', `mine-${round}-${i}`, i)));
        writes.push(other.transact((tx) => tx.put('rows', `other-${round}-${i}`, i)));
      }
      writes.push(store.transact((tx) => restore(tx, 'seed'), { alone: true }));
    }
    await Promise.all(writes);
    // This process's writes are ordered with its restores (each round ends with one): none is
    // left. The other instance's land before or after each restore, never torn.
    const rows = keys(store, 'rows');
    expect(rows).toContain('seed');
    expect(rows.every((key) => key === 'seed' || key.startsWith('other-'))).toBe(true);
    await store.transact((tx) => tx.put('rows', 'mine-late', 1));
    expect(keys(other, 'rows')).toContain('mine-late');
    await store.transact((tx) => restore(tx, 'seed'), { alone: true });
    expect(keys(other, 'rows')).toEqual(['seed']);
    await other.close();
    await store.close();
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('what a snapshot names survives checkpoints and store gc', async () => {
    const dir = storePath();
    const store = createStore(dir, { durable: false, checkpointEvery: 4, keepCommits: 2 });
    for (let i = 0; i < 50; i += 1) await store.transact((tx) => tx.put('rows', `old-${String(i).padStart(2, '0')}`, { i, pad: 'x'.repeat(200) }));
    await store.transact((tx) => save(tx, 'old'), { alone: true });
    for (let i = 0; i < 50; i += 1) await store.transact((tx) => tx.delete('rows', `old-${String(i).padStart(2, '0')}`));
    await store.close();
    await gc(dir, { keepCommits: 1, minAgeMs: 0 });
    const reopened = openStore(dir, { durable: false });
    expect(keys(reopened, 'rows')).toEqual([]);
    await reopened.transact((tx) => restore(tx, 'old'), { alone: true });
    expect(keys(reopened, 'rows')).toHaveLength(50);
    expect(reopened.read().get('rows', 'old-07')).toEqual({ i: 7, pad: 'x'.repeat(200) });
    await reopened.close();
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('stateRoots refuses a transaction that has buffered writes (its roots would not be exact)', async () => {
    const store = createStore(storePath(), { durable: false });
    await expect(
      store.transact((tx) => {
        tx.put('rows', 'a', 1);
        save(tx, 'x');
      }),
    ).rejects.toThrow(/needs a transaction of its own/);
    await store.close();
  });
});
