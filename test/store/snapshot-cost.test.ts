/**
 * `serve` as a CI emulator: a named snapshot is the store's table roots and a restore one
 * commit setting them again (src/domain/emulator.ts), so saving and restoring write the same
 * few bytes whether the store holds ten spaces or ten thousand (issue 22: "O(1), not a copy;
 * test it at 10,000 spaces"). The bytes are those of the files each commit adds to the store.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { restoreSnapshot, saveSnapshot } from '../../src/domain/emulator.js';
import { createStore } from '../../src/store/index.js';
import type { JsonFileStore } from '../../src/store/json-file-store.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

/** Every file under `dir` with its size. */
function files(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(file, fs.statSync(file).size);
  }
  return out;
}

/** Bytes of the files `commit` adds or grows under the store's directory. */
async function bytesWritten(dir: string, commit: () => Promise<unknown>): Promise<number> {
  const before = files(dir);
  await commit();
  let bytes = 0;
  for (const [file, size] of files(dir)) bytes += Math.max(0, size - (before.get(file) ?? 0));
  return bytes;
}

/** A store of `spaces` spaces in the tables a space lives in (one commit: the rows, not the API, are what is measured). */
async function storeOf(spaces: number): Promise<{ dir: string; store: JsonFileStore }> {
  const dir = storePath(`snapshots-${spaces}`);
  const store = createStore(dir, { checkpointEvery: 1_000_000 });
  await store.transact((tx) => {
    for (let i = 0; i < spaces; i += 1) {
      const id = `s${String(i).padStart(6, '0')}`;
      tx.put('spaces', id, { id, organization: 'org', title: `Space ${i}`, visibility: 'private', revision: `r${id}` });
      tx.put('revisions', `${id}/r${id}`, { id: `r${id}`, space: id, type: 'edits', parents: [] });
      tx.put('orgSpaces', `org/${id}`, null);
    }
  });
  return { dir, store };
}

async function costs(spaces: number) {
  const { dir, store } = await storeOf(spaces);
  const now = '2026-11-28T10:00:00.000Z';
  const save = await bytesWritten(dir, () => store.transact((tx) => saveSnapshot(tx, 'clean', now), { alone: true }));
  await store.transact((tx) => tx.put('spaces', 'made-after', { id: 'made-after' }));
  const restore = await bytesWritten(dir, () => store.transact((tx) => restoreSnapshot(tx, 'clean', () => new ApiError(404, 'no snapshot')), { alone: true }));
  const reader = store.read();
  const state = { afterRestore: reader.get('spaces', 'made-after'), last: reader.get<{ title: string }>('spaces', `s${String(spaces - 1).padStart(6, '0')}`)?.title };
  return { save, restore, state };
}

describe('emulator snapshots cost the same at 10 and at 10,000 spaces', () => {
  it('save and restore each write a few KB whatever the store holds, and a restore brings the saved state back', { timeout: 120_000 }, async () => {
    const small = await costs(10);
    const large = await costs(10_000);
    expect(small.state).toEqual({ afterRestore: undefined, last: 'Space 9' });
    expect(large.state).toEqual({ afterRestore: undefined, last: 'Space 9999' });
    // A copy of 10,000 spaces would be megabytes; a snapshot is one row of table roots.
    for (const cost of [small.save, small.restore, large.save, large.restore]) expect(cost).toBeLessThan(16 * 1024);
    expect(large.save).toBeLessThan(small.save * 1.5 + 1024);
    expect(large.restore).toBeLessThan(small.restore * 1.5 + 1024);
  });
});
