/**
 * SQLite-style I/O fault loop: for N = 1, 2, … make the Nth fs call of a
 * transaction fail (ENOSPC, EIO, EACCES, or a short write) until a transaction
 * runs with no fault. Each failure must be the right one-line StoreError with
 * the store unchanged and no temp files left; the next transaction succeeds.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import { errnoError, faultCallCount, setFaultInjector, type FsOp } from '../../src/store/fault.js';
import { createStore, fsck, openStore } from '../../src/store/index.js';
import { listCommitGens, parseCommit, paths } from '../../src/store/json-file-store.js';
import { readCheckpointState } from '../../src/store/pack-set.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

afterEach(() => setFaultInjector(undefined));

type Kind = 'ENOSPC' | 'EIO' | 'EACCES' | 'short';

const expected: Record<Kind, RegExp> = {
  ENOSPC: /^disk full: nothing was saved \(store unchanged at gen (\d+)\)$/,
  EIO: /^(I\/O error writing \S+|cannot read \S+ \(EIO\)): nothing was saved \(store unchanged at gen (\d+)\)$|^cannot read \S+ \(EIO\)$/,
  EACCES: /^permission denied writing \S+: nothing was saved \(store unchanged at gen (\d+)\)$|^cannot read \S+ \(EACCES\)$/,
  short: /^short write to \S+ \(disk full\?\): nothing was saved \(store unchanged at gen (\d+)\)$/,
};

/** Pack files neither CHECKPOINT nor a commit names (what a failed write would leave behind). */
function unnamedPacks(dir: string): string[] {
  const named = new Set<string>(readCheckpointState(dir).packs);
  for (const gen of listCommitGens(dir)) for (const name of parseCommit(fs.readFileSync(paths.commit(dir, gen), 'utf8'), paths.commit(dir, gen), gen).packs ?? []) named.add(name);
  return fs.readdirSync(path.join(dir, 'packs')).filter((file) => !named.has(file.replace(/\.(pack|idx)$/, '')));
}

async function seeded(): Promise<string> {
  const dir = storePath('faults');
  const store = createStore(dir);
  await store.transact((tx) => {
    for (let i = 0; i < 100; i += 1) tx.put('items', `base-${i}`, { i });
  });
  await store.transact((tx) => tx.put('other', 'x', 1));
  await store.close();
  return dir;
}

/**
 * Fails the Nth eligible fs call for N = 1, 2, … until a transaction runs clean.
 * `only` narrows the eligible calls to one operation: objects are written in
 * parallel, so which operation is the Nth call overall varies from run to run,
 * while "the Nth rename" always exists until the renames run out.
 */
async function loop(kind: Kind, only?: FsOp, checkpoints = false, huge = false): Promise<{ failures: number; ops: Set<string> }> {
  const dir = await seeded();
  let failures = 0;
  const ops = new Set<string>();
  for (let n = 1; n < 500; n += 1) {
    const before = openStore(dir).read();
    const gen = before.gen;
    let hit: { op: FsOp; file: string } | undefined;
    let seen = 0;
    setFaultInjector((op, file) => {
      // Which calls can fail this way: a short count only on writes; reads do not fill disks.
      if (kind === 'short' ? op !== 'write' : kind === 'ENOSPC' && op === 'read') return undefined;
      if (only !== undefined && op !== only) return undefined;
      seen += 1;
      if (seen !== n) return undefined;
      hit = { op, file };
      return kind === 'short' ? 'short' : errnoError(kind, op, file);
    });
    // A fresh instance each time, so reads go to disk (no cache) and count too. With
    // `checkpoints`, every commit is followed by a checkpoint (pack.ts), whose writes get faults too.
    const store = openStore(dir, checkpoints ? { checkpointEvery: 1 } : {});
    const key = `k${n}`;
    let error: unknown;
    try {
      await store.transact(
        (tx) => {
          tx.put('items', key, { n, text: 'x'.repeat(200) });
          tx.putObject({ body: `object ${n}` });
          // Past 1 MiB, the commit writes its objects into a pack file of its own.
          if (huge) tx.put('items', `${key}-huge`, tx.putObject({ body: `big ${n} ${'x'.repeat(1_200_000)}` }));
        },
        { command: 'fault loop' },
      );
    } catch (e) {
      error = e;
    }
    const calls = faultCallCount();
    setFaultInjector(undefined);
    await store.close();
    const after = openStore(dir).read();
    if (hit === undefined) {
      // No fault happened: the loop is over.
      expect(error).toBeUndefined();
      expect(after.has('items', key)).toBe(true);
      if (only === undefined && !checkpoints) {
        expect(n).toBeGreaterThan(kind === 'short' ? 2 : 12);
        // Every eligible call up to here was failed once; the count of calls per commit can
        // shift by a node or two as the table's B+tree splits, so the last run may make fewer.
        expect(seen).toBeGreaterThanOrEqual(n - 8);
      }
      expect(calls).toBeGreaterThanOrEqual(seen);
      return { failures, ops };
    }
    ops.add(hit.op);
    if (error === undefined) {
      // A fault where it does not matter (HEAD hint, releasing the lock, removing a temp), or in
      // the checkpoint after the commit (CHECKPOINT stays where it was): committed.
      const inCheckpoint = /[/\\]checkpoint-[^/\\]*\.tmp$|[/\\]pack-\d{12}-[km]-[0-9a-f]{8}\.(pack|idx)$|[/\\]packs$|[/\\]CHECKPOINT$/.test(hit.file) || hit.file === dir;
      if (!checkpoints || !inCheckpoint) expect(['open', 'write', 'fstat', 'close', 'rename', 'unlink'], `${hit.op} ${hit.file}`).toContain(hit.op);
      expect(after.gen).toBe(gen + 1);
      expect(after.has('items', key)).toBe(true);
    } else {
      failures += 1;
      expect(error, `${kind} at call ${n} (${hit.op} ${hit.file})`).toBeInstanceOf(StoreError);
      const message = (error as Error).message;
      if (/was committed as gen/.test(message)) {
        // fsync of commits/ failed after the link: visible, reported as possibly not durable.
        expect(hit.op).toBe('fsyncdir');
        expect(after.gen).toBe(gen + 1);
        expect(after.has('items', key)).toBe(true);
      } else {
        expect(message, `${kind} at call ${n} (${hit.op} ${hit.file})`).toMatch(expected[kind]);
        const unchangedAt = /store unchanged at gen (\d+)/.exec(message);
        if (unchangedAt) expect(Number(unchangedAt[1])).toBe(gen);
        expect(after.gen).toBe(gen);
        expect(after.has('items', key)).toBe(false);
        expect(after.entries('items')).toEqual(before.entries('items'));
      }
    }
    // No litter, no lock left behind; the next transaction works.
    expect(fs.readdirSync(path.join(dir, 'tmp')), `${kind} at call ${n} (${hit.op})`).toEqual([]);
    // What a failed checkpoint wrote, or could not remove yet, goes with the next one.
    if (!checkpoints) expect(unnamedPacks(dir), `${kind} at call ${n} (${hit.op} ${hit.file})`).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
    const next = openStore(dir);
    await next.transact((tx) => tx.put('other', `after-${n}`, true));
    await next.close();
    if (checkpoints) {
      const checkpointing = openStore(dir, { checkpointEvery: 1 });
      await checkpointing.transact((tx) => tx.put('other', `checkpointed-${n}`, true));
      await checkpointing.close();
      expect(unnamedPacks(dir), `${kind} at call ${n} (${hit.op} ${hit.file})`).toEqual([]);
    }
    expect((await fsck(dir)).problems).toEqual([]);
  }
  throw new Error('the fault loop did not end');
}

describe('injected I/O faults at the Nth fs call', () => {
  for (const kind of ['ENOSPC', 'EIO', 'EACCES', 'short'] as const) {
    it(`${kind}: right error, store unchanged, next transaction succeeds`, async () => {
      const { failures } = await loop(kind);
      expect(failures).toBeGreaterThan(kind === 'short' ? 1 : 6);
    }, 60_000);
  }

  for (const kind of ['ENOSPC', 'EIO', 'short'] as const) {
    it(`${kind} in a checkpoint: the commit stands, CHECKPOINT stays, fsck is clean, the next one completes`, async () => {
      const { ops } = await loop(kind, undefined, true);
      expect(ops.size).toBeGreaterThan(kind === 'short' ? 0 : 3);
    }, 60_000);
  }

  for (const kind of ['ENOSPC', 'EIO'] as const) {
    for (const op of ['open', 'write', 'fsync', 'link', 'fsyncdir'] as const) {
      it(`${kind} at every ${op} of a transaction: right error or committed, never half-written`, async () => {
        const { ops } = await loop(kind, op);
        expect([...ops]).toEqual([op]);
      }, 60_000);
    }
    for (const op of ['open', 'write', 'fstat', 'fsync', 'fsyncdir'] as const) {
      it(`${kind} at every ${op} of a commit that writes a pack of its own: right error or committed, no pack left behind`, async () => {
        const { ops } = await loop(kind, op, false, true);
        expect([...ops]).toEqual([op]);
      }, 60_000);
    }
  }

  for (const kind of ['ENOSPC', 'short'] as const) {
    it(`${kind} anywhere in a commit that writes a pack of its own`, async () => {
      const { failures } = await loop(kind, undefined, false, true);
      expect(failures).toBeGreaterThan(1);
    }, 60_000);
  }

  it('costs nothing and counts nothing when no injector is set', async () => {
    setFaultInjector(undefined);
    const dir = await seeded();
    const store = openStore(dir);
    await store.transact((tx) => tx.put('items', 'x', 1));
    await store.close();
    expect(faultCallCount()).toBe(0);
  });
});
