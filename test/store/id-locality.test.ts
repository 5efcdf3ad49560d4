/**
 * Ids that sort by creation time keep a create's cost flat as a table grows (issue 8 §2:
 * creates/s at 3,000 spaces ≥ 0.8 × on an empty organization). A row keyed by a
 * uniformly random id lands in a different B+tree leaf each time, so a checkpoint makes
 * about one leaf per create loose per table; rows keyed by time-ordered ids land in the
 * newest leaves, which a checkpoint makes loose once for all the creates since the last.
 * Measured on disk: the lines of the checkpoint's list (`checkpoints/<gen>`), one per
 * object it made loose.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, openStore } from '../../src/store/index.js';
import type { StoreWriter } from '../../src/store/types.js';
import { type IdGenerator, randomIds, timeOrderedIds } from '../../src/util/ids.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

const CREATES = 64;

function putSpace(tx: StoreWriter, id: string): void {
  // About the size of a space record, in two tables keyed by id as a space create writes.
  tx.put('spaces', id, { id, title: `Space ${id}`, organization: 'org', visibility: 'private', createdAt: '2026-11-27T00:00:00.000Z', counters: { comments: 0, changeRequests: 0 } });
  tx.put('revisions', `r${id}`, { id: `r${id}`, space: id, type: 'edits', parents: [] });
}

/** Objects the checkpoint after CREATES one-row commits made loose, in a table of `preload` rows. */
async function madeLoose(label: string, preload: number, ids: IdGenerator): Promise<number> {
  const dir = storePath(label);
  const fill = createStore(dir, { durable: false, checkpointEvery: 1 });
  for (let done = 0; done < preload; done += 500) {
    await fill.transact((tx) => {
      for (let i = done; i < Math.min(preload, done + 500); i++) putSpace(tx, ids());
    });
  }
  await fill.close();
  const store = openStore(dir, { durable: false, checkpointEvery: CREATES });
  const from = store.read().gen;
  for (let i = 0; i < CREATES; i++) await store.transact((tx) => putSpace(tx, ids()));
  await store.close();
  const list = path.join(dir, 'checkpoints', String(from + CREATES).padStart(12, '0'));
  return fs.readFileSync(list, 'utf8').split('\n').filter(Boolean).length;
}

/** Time-ordered ids from a clock that moves 1 ms per id (a busy server). */
const ticking = (): IdGenerator => {
  let now = Date.parse('2026-11-27T00:00:00.000Z');
  return timeOrderedIds(() => now++);
};

describe('a create in a large table, by id kind', () => {
  it('with time-ordered ids, a checkpoint at 3,000 rows makes about as many objects loose as at 0', async () => {
    const empty = await madeLoose('ids-time-0', 0, ticking());
    const large = await madeLoose('ids-time-3000', 3000, ticking());
    // The newest leaf of each table, the inner nodes above it (two levels at 3,000 rows), the root.
    expect(large).toBeLessThanOrEqual(empty + 8);
  });

  it('with random ids, the same checkpoint makes about one leaf per create and table loose (why ids are time-ordered)', async () => {
    const random = await madeLoose('ids-random-3000', 3000, randomIds());
    const ordered = await madeLoose('ids-time-3000b', 3000, ticking());
    expect(random).toBeGreaterThan(CREATES);
    expect(random).toBeGreaterThan(3 * ordered);
  });
});
