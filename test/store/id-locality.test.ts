/**
 * Ids that sort by creation time keep a create's cost flat as a table grows (issue 8 §2:
 * creates/s at 3,000 spaces ≥ 0.8 × on an empty organization). A row keyed by a
 * uniformly random id lands in a different B+tree leaf each time, so a checkpoint packs
 * about one leaf per create per table; rows keyed by time-ordered ids land in the
 * newest leaves, which a checkpoint packs once for all the creates since the last.
 * Measured by the checkpoint itself: how many live new objects it packed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { checkpoint } from '../../src/store/checkpoint.js';
import { createStore, openStore } from '../../src/store/index.js';
import { findNewest, parseCommit, paths } from '../../src/store/json-file-store.js';
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

/** Objects the checkpoint after CREATES one-row commits packs, in a table of `preload` rows. */
async function madeLoose(label: string, preload: number, ids: IdGenerator): Promise<number> {
  const dir = storePath(label);
  const fill = createStore(dir, { durable: false, checkpointEvery: 1 });
  for (let done = 0; done < preload; done += 500) {
    await fill.transact((tx) => {
      for (let i = done; i < Math.min(preload, done + 500); i++) putSpace(tx, ids());
    });
  }
  await fill.close();
  const store = openStore(dir, { durable: false, checkpointEvery: 1_000_000 });
  for (let i = 0; i < CREATES; i++) await store.transact((tx) => putSpace(tx, ids()));
  const { gen, text } = findNewest(dir);
  const root = parseCommit(text!, paths.commit(dir, gen), gen).root;
  const report = await checkpoint({ object: (hash) => store.object(hash), packs: store.packs }, { dir, gen, root, durable: false });
  await store.close();
  return report.packed;
}

/** Time-ordered ids from a clock that moves 1 ms per id (a busy server). */
const ticking = (): IdGenerator => {
  let now = Date.parse('2026-11-27T00:00:00.000Z');
  return timeOrderedIds(() => now++);
};

describe('a create in a large table, by id kind', () => {
  it('with time-ordered ids, a checkpoint at 3,000 rows packs about as many objects as at 0', async () => {
    const empty = await madeLoose('ids-time-0', 0, ticking());
    const large = await madeLoose('ids-time-3000', 3000, ticking());
    // The newest leaf of each table, the inner nodes above it (two levels at 3,000 rows), the root.
    expect(large).toBeLessThanOrEqual(empty + 8);
  });

  it('with random ids, the same checkpoint packs about one leaf per create and table (why ids are time-ordered)', async () => {
    const random = await madeLoose('ids-random-3000', 3000, randomIds());
    const ordered = await madeLoose('ids-time-3000b', 3000, ticking());
    expect(random).toBeGreaterThan(CREATES);
    expect(random).toBeGreaterThan(3 * ordered);
  });
});
