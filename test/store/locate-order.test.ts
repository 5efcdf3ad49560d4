/**
 * Where a reader looks for an object it has not met (pack-set.ts `locate`): the base packs
 * the checkpoint names first, then the commits since, newest first. Opening a pack reads a
 * page; indexing the commits reads a file per commit since the checkpoint, which a one-shot
 * command paid for any read of an object the checkpoint packed (`space get` opened 30
 * commit files on a store 27 commits past its checkpoint).
 */
import fsModule from 'node:fs';
import * as fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, openStore } from '../../src/store/index.js';
import { readCheckpointState } from '../../src/store/pack-set.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

/** The files under `dir` that `fs.openSync` opens while `body` runs (node:fs patched, as the store module sees it). */
function opened<T>(dir: string, body: () => T): { value: T; files: string[] } {
  const files: string[] = [];
  const openSync = fsModule.openSync;
  fsModule.openSync = ((file: fs.PathLike, ...rest: unknown[]) => {
    const name = String(file);
    if (name.startsWith(dir)) files.push(path.relative(dir, name));
    return (openSync as (...args: unknown[]) => number)(file, ...rest);
  }) as typeof fs.openSync;
  syncBuiltinESMExports();
  try {
    return { value: body(), files };
  } finally {
    fsModule.openSync = openSync;
    syncBuiltinESMExports();
  }
}

describe('finding an object a reader has not met', () => {
  it('looks in the base packs before the commits since the checkpoint, and still finds what only those commits hold', async () => {
    const dir = storePath('locate-order');
    const store = createStore(dir, { durable: false, checkpointEvery: 8 });
    const packed: string[] = [];
    for (let i = 0; i < 8; i += 1) await store.transact((tx) => tx.put('items', `old${i}`, { hash: (packed[i] = tx.putObject({ old: i, text: 'x'.repeat(200) })) }));
    const recent: string[] = [];
    for (let i = 0; i < 6; i += 1) await store.transact((tx) => tx.put('recent', `new${i}`, { hash: (recent[i] = tx.putObject({ recent: i })) }));
    await store.close();
    const checkpoint = readCheckpointState(dir).gen;
    expect(checkpoint).toBe(8);

    const reader = openStore(dir).read(); // the newest commit, its root and the tables' roots
    const base = opened(dir, () => reader.getObject<{ old: number }>(packed[3] as string));
    expect(base.value.old).toBe(3);
    expect(base.files.filter((file) => file.startsWith('commits'))).toEqual([]);
    // An object only an older commit since the checkpoint holds: found by indexing the commits, newest first.
    const late = opened(dir, () => reader.getObject<{ recent: number }>(recent[0] as string));
    expect(late.value.recent).toBe(0);
    expect(late.files.filter((file) => file.startsWith('commits')).length).toBeGreaterThan(0);
    for (const [i, hash] of recent.entries()) expect(reader.getObject<{ recent: number }>(hash).recent).toBe(i);
    for (const [i, hash] of packed.entries()) expect(reader.getObject<{ old: number }>(hash).old).toBe(i);
  });
});
