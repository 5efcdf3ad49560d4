/**
 * Several processes on one store: parallel writers, kill -9 at random, stale and
 * live locks.
 */
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreBusyError } from '../../src/store/errors.js';
import { createStore, fsck, openStore, unlock } from '../../src/store/index.js';
import { listCommitGens, parseCommit, paths } from '../../src/store/json-file-store.js';
import { buildWorker, cleanupTempDirs, deadPid, runWorker, sleep, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

let worker: string;
beforeAll(async () => {
  worker = await buildWorker();
});

function newStore(label: string): string {
  const dir = storePath(label);
  void createStore(dir).close();
  return dir;
}

function writeLock(dir: string, owner: object, ageMs = 0): void {
  const file = path.join(dir, 'LOCK');
  fs.writeFileSync(file, JSON.stringify(owner), { mode: 0o600 });
  if (ageMs > 0) {
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(file, then, then);
  }
}

/** Time for one in-process transaction (with a short lock timeout so a stuck lock fails fast). */
async function timedWrite(dir: string, key: string, lockTimeoutMs = 5000): Promise<number> {
  const store = openStore(dir, { lockTimeoutMs });
  const started = Date.now();
  try {
    await store.transact((tx) => tx.put('items', key, true));
  } finally {
    await store.close();
  }
  return Date.now() - started;
}

describe('parallel writers', () => {
  it('20 processes × 10 transactions: 200 keys, gens 1..200, fsck clean', async () => {
    const dir = newStore('parallel');
    // 20 writers queue for one lock: on a loaded machine the last may wait longer than the 30 s default.
    const runs = Array.from({ length: 20 }, (_, i) => runWorker(worker, ['write', dir, `w${i}`, '10'], { DOCSCTL_LOCK_TIMEOUT_MS: '240000' }));
    const results = await Promise.all(runs.map((r) => r.done));
    for (const [i, result] of results.entries()) expect(result, runs[i]?.stderr()).toEqual({ code: 0, signal: null });
    const acked = runs.flatMap((r) => r.lines.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4)));
    expect(acked).toHaveLength(200);
    const store = openStore(dir);
    const reader = store.read();
    expect(reader.gen).toBe(200);
    const keys = reader.entries('items').map(([k]) => k);
    expect(keys).toHaveLength(200);
    expect(new Set(keys)).toEqual(new Set(acked));
    // Contiguous up to 200; checkpoints dropped the commit files older than the newest 100 (pack.ts).
    const gens = listCommitGens(dir);
    expect(gens.at(-1)).toBe(200);
    expect(gens[0]).toBeLessThanOrEqual(101);
    expect(gens).toEqual(Array.from({ length: gens.length }, (_, i) => (gens[0] as number) + i));
    for (const gen of gens) {
      parseCommit(fs.readFileSync(paths.commit(dir, gen), 'utf8'), paths.commit(dir, gen), gen);
    }
    expect((await fsck(dir, { commits: 200 })).problems).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
    await store.close();
  }, 300_000);
});

describe('kill -9 at random', () => {
  it('keeps every acknowledged write; the next writer gets the dead lock at once', async () => {
    const dir = newStore('kill9');
    const acked = new Set<string>();
    let killedMidway = 0;
    let ackedByWorkers = 0;
    for (let round = 0; round < 25; round += 1) {
      const run = runWorker(worker, ['write', dir, `r${round}`, '1000']);
      // Kill once the worker is writing (its first ack), at a random point after: on a loaded
      // machine a fixed delay can kill it before it even starts, testing nothing.
      await run.waitFor(/^ack /, 60_000);
      await sleep(Math.floor(Math.random() * 50));
      run.child.kill('SIGKILL');
      const { signal } = await run.done; // reaped: the pid is really gone
      if (signal === 'SIGKILL') killedMidway += 1;
      for (const line of run.lines) {
        if (!line.startsWith('ack ')) continue;
        acked.add(line.slice(4));
        ackedByWorkers += 1;
      }
      const reader = openStore(dir).read();
      for (const key of acked) expect(reader.has('items', key), `${key} after round ${round}`).toBe(true);
      const report = await fsck(dir);
      expect(report.problems, `round ${round}`).toEqual([]);
      // The dead owner's lock is taken over at once, not after the 15 s timeout of a silent owner
      // (the bound leaves room for a loaded machine).
      const took = await timedWrite(dir, `after-${round}`, 12_000);
      expect(took, `round ${round}: next writer waited`).toBeLessThan(10_000);
      acked.add(`after-${round}`);
    }
    expect(killedMidway).toBeGreaterThan(20);
    expect(ackedByWorkers).toBeGreaterThanOrEqual(25); // every worker was killed after writing
    const final = openStore(dir).read();
    for (const key of acked) expect(final.has('items', key)).toBe(true);
    // gens stay contiguous (from the oldest commit the checkpoints kept)
    const gens = listCommitGens(dir);
    expect(gens).toEqual(Array.from({ length: gens.length }, (_, i) => (gens[0] as number) + i));
  }, 300_000);
});

describe('group commit across processes', () => {
  it('kill -9 during grouped commits loses no acknowledged write', async () => {
    const dir = newStore('kill-group');
    const acked = new Set<string>();
    for (let round = 0; round < 4; round += 1) {
      const run = runWorker(worker, ['busy', dir, `g${round}`, '60000']);
      // Kill only once a good number of writes were acknowledged (robust to a slow start).
      const target = 40 + round * 10;
      for (let waited = 0; run.lines.filter((l) => l.startsWith('ack ')).length < target; waited += 10) {
        if (waited > 60_000) throw new Error(`worker acknowledged too little: ${run.stderr()}`);
        await sleep(10);
      }
      run.child.kill('SIGKILL');
      await run.done;
      for (const line of run.lines) if (line.startsWith('ack ')) acked.add(line.slice(4));
      const reader = openStore(dir).read();
      for (const key of acked) expect(reader.has('items', key), `${key} after round ${round}`).toBe(true);
      expect((await fsck(dir)).problems, `round ${round}`).toEqual([]);
    }
    // Grouped: fewer commits than acknowledged writes.
    expect(listCommitGens(dir).length).toBeLessThan(acked.size);
  }, 120_000);

  it('a second process takes its turn while another keeps the store busy (FIFO queue, not a retry loop)', async () => {
    const dir = newStore('fair');
    const busy = runWorker(worker, ['busy', dir, 'load', '15000']);
    await busy.waitFor(/^ack /, 30_000);
    await sleep(200); // the load is in full swing
    const waits: number[] = [];
    for (let i = 0; i < 3; i += 1) waits.push(await timedWrite(dir, `turn-${i}`, 14_000));
    const stillBusy = busy.child.exitCode === null;
    busy.child.kill('SIGKILL');
    await busy.done;
    expect(stillBusy).toBe(true); // the writes did not wait for the load to end
    // Each write waits for about one grouped commit, not for the 15 s load (generous for a loaded machine).
    for (const wait of waits) expect(wait).toBeLessThan(5_000);
    const reader = openStore(dir).read();
    for (let i = 0; i < 3; i += 1) expect(reader.has('items', `turn-${i}`)).toBe(true);
  }, 60_000);
});

describe('locks', () => {
  it('takes over the lock of a dead process on this host at once', async () => {
    const dir = newStore('deadlock');
    writeLock(dir, { pid: await deadPid(), host: hostname(), token: 'dead', startedAt: new Date().toISOString(), command: 'x' });
    expect(await timedWrite(dir, 'k', 12_000)).toBeLessThan(10_000);
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
  });

  it('takes over a lock from another host whose heartbeat stopped', async () => {
    const dir = newStore('foreign');
    writeLock(dir, { pid: 1, host: 'some-other-host', token: 't', startedAt: new Date().toISOString() }, 20_000);
    expect(await timedWrite(dir, 'k', 12_000)).toBeLessThan(10_000);
  });

  it('waits for a live lock from another host, then names it', async () => {
    const dir = newStore('foreign-live');
    writeLock(dir, { pid: 4242, host: 'some-other-host', token: 't', startedAt: new Date().toISOString(), command: 'docsctl space edit' });
    const error = await timedWrite(dir, 'k', 300).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreBusyError);
    expect((error as Error).message).toMatch(/^store busy: locked by pid 4242 on host some-other-host \(docsctl space edit\) since \d\d:\d\d:\d\d$/);
    expect((error as StoreBusyError).hint).toMatch(/docsctl store unlock/);
  });

  it('takes over an unreadable lock file once it is a few seconds old', async () => {
    const dir = newStore('garbled');
    fs.writeFileSync(path.join(dir, 'LOCK'), '');
    const then = new Date(Date.now() - 5000);
    fs.utimesSync(path.join(dir, 'LOCK'), then, then);
    expect(await timedWrite(dir, 'k', 12_000)).toBeLessThan(10_000);
  });

  it('takes over a live pid whose heartbeat stopped (frozen holder or reused pid), after watching it', async () => {
    const dir = newStore('frozen');
    // A live process that does not heartbeat: ourselves under another token would be "ours"; use the parent.
    writeLock(dir, { pid: process.ppid, host: hostname(), token: 'frozen', startedAt: new Date().toISOString() }, 20_000);
    const took = await timedWrite(dir, 'k', 10_000);
    expect(took).toBeGreaterThanOrEqual(1900);
    expect(took).toBeLessThan(20_000);
  }, 300_000);

  it('never steals from a live holder (heartbeat), and says who holds it', async () => {
    const dir = newStore('live');
    const holder = runWorker(worker, ['hold', dir, '2500']);
    const line = await holder.waitFor(/^holding \d+/);
    const pid = Number(line.split(' ')[1]);
    // An old start time does not matter while the heartbeat runs.
    const error = await timedWrite(dir, 'k', 1500).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreBusyError);
    expect((error as Error).message).toMatch(new RegExp(`^store busy: locked by pid ${pid} \\(worker hold\\) since \\d\\d:\\d\\d:\\d\\d$`));
    await expect(unlock(dir)).rejects.toThrow(StoreBusyError);
    // Once it is done, the next writer goes through.
    expect(await timedWrite(dir, 'k2', 30_000)).toBeLessThan(30_000);
    expect(await holder.done).toEqual({ code: 0, signal: null });
    const reader = openStore(dir).read();
    expect(reader.has('items', `held-${pid}`)).toBe(true);
    expect(reader.has('items', 'k2')).toBe(true);
  }, 120_000);

  it('unlock removes a dead lock and reports its owner', async () => {
    const dir = newStore('unlock');
    expect(await unlock(dir)).toEqual({ removed: false });
    const pid = await deadPid();
    writeLock(dir, { pid, host: hostname(), token: 'x', startedAt: new Date().toISOString(), command: 'docsctl cr merge' });
    const result = await unlock(dir);
    expect(result.removed).toBe(true);
    expect(result.owner).toMatchObject({ pid, command: 'docsctl cr merge' });
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
    // force removes even a live one
    writeLock(dir, { pid: process.ppid, host: hostname(), token: 'y', startedAt: new Date().toISOString() });
    await expect(unlock(dir)).rejects.toThrow(StoreBusyError);
    expect((await unlock(dir, { force: true })).removed).toBe(true);
  });

  it('two contenders racing for one stale lock never both commit the same generation', async () => {
    const dir = newStore('race');
    for (let round = 0; round < 10; round += 1) {
      writeLock(dir, { pid: await deadPid(), host: hostname(), token: `dead${round}`, startedAt: new Date().toISOString() });
      const runs = [runWorker(worker, ['write', dir, `a${round}`, '3']), runWorker(worker, ['write', dir, `b${round}`, '3'])];
      for (const run of runs) expect((await run.done).code, run.stderr()).toBe(0);
    }
    const reader = openStore(dir).read();
    expect(reader.entries('items')).toHaveLength(60);
    expect(reader.gen).toBe(60);
    expect((await fsck(dir)).problems).toEqual([]);
  }, 300_000);
});
