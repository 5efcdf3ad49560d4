/**
 * DOCSCTL_STORE_FAULT=crash@<step>: the writer is SIGKILLed at each step of a
 * commit; the store must land on the old or the new state, with the lock
 * recoverable and fsck clean.
 */
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, fsck, gc, openStore } from '../../src/store/index.js';
import { listCommitGens, paths } from '../../src/store/json-file-store.js';
import { AT_ONCE_MS, buildWorker, cleanupTempDirs, deadPid, runWorker, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

let worker: string;
beforeAll(async () => {
  worker = await buildWorker();
});

async function seeded(label: string): Promise<string> {
  const dir = storePath(label);
  const store = createStore(dir);
  // Enough keys for a two-level trie, so a commit writes several objects.
  await store.transact((tx) => {
    for (let i = 0; i < 100; i += 1) tx.put('items', `base-${i}`, { i });
  });
  await store.close();
  return dir;
}

async function nextWriteMs(dir: string): Promise<number> {
  const store = openStore(dir, { lockTimeoutMs: 3000 });
  const started = Date.now();
  await store.transact((tx) => tx.put('items', 'next', true));
  await store.close();
  return Date.now() - started;
}

/**
 * Steps by kind of write: a commit file with its inline objects; a commit whose objects
 * pass 1 MiB and go into a pack file of its own, written before the commit is linked;
 * a checkpoint after the commit (the commit has landed, CHECKPOINT has not moved).
 */
const packSteps = ['after-temp-open', 'mid-pack-write', 'after-pack-fsync', 'before-dir-fsync'] as const;
const commitSteps: Array<readonly [step: string, lands: 'old' | 'new', env: Record<string, string>, label: string]> = [
  ['after-commit-temp', 'old', {}, ''],
  ['after-link', 'new', {}, ''],
  ['before-lock-release', 'new', {}, ''],
  ...packSteps.map((step) => [step, 'old', { WORKER_HUGE: '1' }, ' (a commit with its own pack)'] as const),
  ...[...packSteps, 'mid-checkpoint'].map((step) => [step, 'new', { WORKER_CHECKPOINT_EVERY: '1' }, ' (checkpoint)'] as const),
];

/** The pack files present (names). */
const packsIn = (dir: string) => (fs.existsSync(path.join(dir, 'packs')) ? fs.readdirSync(path.join(dir, 'packs')).sort() : []);

describe('crash at every commit step', () => {
  for (const [step, lands, env, label] of commitSteps) {
    it(`crash@${step}${label} lands on the ${lands} state`, async () => {
      const dir = await seeded(`${step}${env.WORKER_HUGE ? '-huge' : ''}`);
      const run = runWorker(worker, ['write', dir, 'crash', '1'], { DOCSCTL_STORE_FAULT: `crash@${step}`, ...env });
      const { signal } = await run.done;
      expect(signal, run.stderr()).toBe('SIGKILL');
      expect(run.lines).toEqual([]); // never acknowledged
      const reader = openStore(dir).read();
      expect(reader.gen).toBe(lands === 'old' ? 1 : 2);
      expect(reader.has('items', 'crash-0')).toBe(lands === 'new');
      expect(reader.entries('items').length).toBe(lands === 'old' ? 100 : 101);
      expect((await fsck(dir)).problems).toEqual([]);
      if (env.WORKER_CHECKPOINT_EVERY) expect(fs.existsSync(path.join(dir, 'CHECKPOINT'))).toBe(false); // never moved
      expect(await nextWriteMs(dir)).toBeLessThan(AT_ONCE_MS);
      const after = openStore(dir).read();
      expect(after.gen).toBe(lands === 'old' ? 2 : 3);
      expect((await fsck(dir)).problems).toEqual([]);
      // What the crash left half-written is named by nothing: the next checkpoint removes it.
      const writer = openStore(dir, { checkpointEvery: 1 });
      await writer.transact((tx) => tx.put('items', 'checkpointed', true));
      await writer.close();
      expect(packsIn(dir)).toHaveLength(2); // one base pack and its index
      expect(openStore(dir).read().entries('items').length).toBe(lands === 'old' ? 102 : 103);
      expect((await fsck(dir)).problems).toEqual([]);
    });
  }

  it('crash@mid-repack (removing the packs a merge replaced) keeps every generation whole; the next checkpoint removes what is left', async () => {
    const dir = await seeded('repack');
    const env = { WORKER_CHECKPOINT_EVERY: '1' };
    // gen 2's checkpoint writes the first base pack; gen 3's merges it with its own and removes both: killed there.
    const run = runWorker(worker, ['write', dir, 'r', '3'], { DOCSCTL_STORE_FAULT: 'crash@mid-repack', ...env });
    expect((await run.done).signal).toBe('SIGKILL');
    expect(run.lines).toEqual(['ack r-0']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'CHECKPOINT'), 'utf8'))).toMatchObject({ gen: 3 });
    expect(packsIn(dir).length).toBeGreaterThan(2); // the merged pack, and a replaced one not yet removed
    expect(openStore(dir).read().entries('items')).toHaveLength(102);
    expect((await fsck(dir)).problems).toEqual([]);
    const next = runWorker(worker, ['write', dir, 's', '1'], env);
    expect((await next.done).code).toBe(0);
    expect(packsIn(dir)).toHaveLength(2);
    expect(openStore(dir).read().entries('items')).toHaveLength(103);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('crash@mid-prune keeps every commit, and the next checkpoint finishes the pruning', async () => {
    const dir = await seeded('prune');
    const env = { WORKER_CHECKPOINT_EVERY: '1', WORKER_KEEP_COMMITS: '1' };
    // gen 2 is checkpointed (nothing old enough to drop); gen 3's checkpoint drops commit 1: killed there.
    const run = runWorker(worker, ['write', dir, 'p', '5'], { DOCSCTL_STORE_FAULT: 'crash@mid-prune', ...env });
    expect((await run.done).signal).toBe('SIGKILL');
    expect(run.lines).toEqual(['ack p-0']);
    expect(fs.existsSync(paths.commit(dir, 1))).toBe(false);
    const reader = openStore(dir).read();
    expect(reader.gen).toBe(3);
    expect(reader.entries('items')).toHaveLength(102);
    expect((await fsck(dir)).problems).toEqual([]);
    const next = runWorker(worker, ['write', dir, 'q', '2'], env);
    expect((await next.done).code).toBe(0);
    expect(listCommitGens(dir)).toEqual([4, 5]); // kept: the newest, and back to the checkpoint at or below it
    expect(openStore(dir).read().entries('items')).toHaveLength(104);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('a kill during a long run of checkpointed writes of replaced values loses no acknowledged write; the values no kept generation reaches go', async () => {
    const dir = await seeded('replaced');
    // Each transaction replaces one row naming a 100 KB value: the value it replaces becomes garbage.
    const env = { WORKER_CHECKPOINT_EVERY: '1', WORKER_KEEP_COMMITS: '1', WORKER_BIG: '1', WORKER_SAME_KEY: '1' };
    const run = runWorker(worker, ['write', dir, 'u', '6'], { DOCSCTL_STORE_FAULT: 'crash@mid-repack#3', ...env });
    expect((await run.done).signal).toBe('SIGKILL');
    const row = openStore(dir).read().get<{ i: number; big: string }>('items', 'u');
    expect(row?.i).toBeGreaterThanOrEqual(run.lines.length - 1); // every acknowledged write is there
    expect(openStore(dir).read().getObject<{ body: string }>(row?.big as string).body).toHaveLength(100_000);
    expect((await fsck(dir)).problems).toEqual([]);
    const next = runWorker(worker, ['write', dir, 'v', '4'], env);
    expect((await next.done).code).toBe(0);
    const reader = openStore(dir).read();
    expect(reader.getObject<{ body: string }>(reader.get<{ big: string }>('items', 'v')?.big as string).body).toHaveLength(100_000);
    expect((await fsck(dir)).problems).toEqual([]);
    // Of the ten 100 KB values written, the packs keep the one the newest generation reaches, and
    // the few a full merge has not dropped yet: far less than the megabyte written.
    const bytes = packsIn(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, 'packs', name)).size, 0);
    expect(bytes).toBeLessThan(450_000);
    await gc(dir, { keepCommits: 1000, minAgeMs: 3_600_000 }); // verifies every kept commit whole
  });

  it('crash@mid-stale-takeover leaves a takeover the next writer completes', async () => {
    const dir = await seeded('takeover');
    fs.writeFileSync(
      path.join(dir, 'LOCK'),
      JSON.stringify({ pid: await deadPid(), host: hostname(), token: 'dead', startedAt: new Date().toISOString() }),
    );
    const run = runWorker(worker, ['write', dir, 'crash', '1'], { DOCSCTL_STORE_FAULT: 'crash@mid-stale-takeover' });
    expect((await run.done).signal).toBe('SIGKILL');
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('LOCK.stale-')).length).toBe(1);
    expect(await nextWriteMs(dir)).toBeLessThan(AT_ONCE_MS);
    expect((await fsck(dir)).problems).toEqual([]);
    const report = await gc(dir, { minAgeMs: 0 });
    expect(report.removedTemps).toBeGreaterThanOrEqual(1);
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('LOCK'))).toEqual([]);
  });

  it('crash@mid-gc leaves a store that reads, checks clean, and collects next time', async () => {
    const dir = await seeded('gc');
    // Checkpointed rewrites: superseded objects in packs for gc to collect, besides old commit files.
    const store = openStore(dir, { checkpointEvery: 1 });
    for (let i = 0; i < 5; i += 1) await store.transact((tx) => tx.put('items', 'base-1', { rewrite: i }));
    await store.close();
    const run = runWorker(worker, ['gc', dir], { DOCSCTL_STORE_FAULT: 'crash@mid-gc' });
    expect((await run.done).signal).toBe('SIGKILL');
    const reader = openStore(dir).read();
    expect(reader.get('items', 'base-1')).toEqual({ rewrite: 4 });
    expect(reader.entries('items')).toHaveLength(100);
    expect((await fsck(dir)).problems).toEqual([]);
    const report = await gc(dir, { keepCommits: 1, minAgeMs: 0 });
    expect(report.removedObjects).toBeGreaterThan(0);
    expect((await fsck(dir)).problems).toEqual([]);
    expect(await nextWriteMs(dir)).toBeLessThan(AT_ONCE_MS);
  });
});
