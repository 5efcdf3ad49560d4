/**
 * A checkpoint runs beside the next commits (commit.ts, `startCheckpoint`): queued
 * transactions keep committing while it writes its pack, and it ends before the lock
 * is let go. Its walks read only what they must: the live-object walk enters only the
 * objects packed since the last checkpoint, and neither it nor a full merge's mark
 * reads an object whose pack says it names nothing (page bodies, file data). A writer
 * keeps the bytes it packed until its checkpoint (`PackSet.keep`); two commits can be
 * in flight together.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkpoint } from '../../src/store/checkpoint.js';
import { setFaultInjector } from '../../src/store/fault.js';
import { createStore, fsck, openStore } from '../../src/store/index.js';
import type { JsonFileStore } from '../../src/store/json-file-store.js';
import { findNewest, parseCommit, paths } from '../../src/store/json-file-store.js';
import { sha256 } from '../../src/store/objects.js';
import { PackSet, readCheckpointState } from '../../src/store/pack-set.js';
import type { StoreWriter } from '../../src/store/types.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());
afterEach(() => setFaultInjector(undefined));

/** Every fs call of the write path, in order (the fault hook, failing nothing). */
function recordCalls(): Array<{ op: string; file: string }> {
  const calls: Array<{ op: string; file: string }> = [];
  setFaultInjector((op, file) => {
    calls.push({ op, file });
    return undefined;
  });
  return calls;
}

const linkOf = (dir: string, gen: number) => (call: { op: string; file: string }) => call.op === 'link' && call.file === paths.commit(dir, gen);
const checkpointMoved = (call: { op: string; file: string }) => call.op === 'rename' && /[/\\]checkpoint-[^/\\]*\.tmp$/.test(call.file);

/** A store whose next commit makes a checkpoint due that has a few hundred leaves to pack. */
async function storeWithBigCheckpointDue(): Promise<{ dir: string; store: JsonFileStore }> {
  const dir = storePath('beside');
  const store = createStore(dir, { checkpointEvery: 2 });
  await store.transact((tx) => {
    for (let i = 0; i < 3000; i += 1) tx.put('rows', `r${String(i).padStart(5, '0')}`, { i, pad: 'x'.repeat(150) });
  });
  return { dir, store };
}

/** Queues `steps` one after the other, each from inside the previous one's transaction: they arrive while a commit is written. */
function chain(store: JsonFileStore, steps: Array<(tx: StoreWriter) => void>): Promise<unknown[]> {
  const done: Array<Promise<unknown>> = [];
  const queue = (i: number): void => {
    const step = steps[i];
    if (step === undefined) return;
    done.push(
      store.transact((tx) => {
        step(tx);
        queue(i + 1);
      }),
    );
  };
  queue(0);
  return (async () => {
    const results: unknown[] = [];
    for (let i = 0; i < done.length; i += 1) results.push(await done[i]);
    return results;
  })();
}

const checkpointPack = (call: { op: string; file: string }) => call.op === 'open' && /[/\\]pack-\d{12}-[km]-[0-9a-f]{8}\.pack$/.test(call.file);

describe('a checkpoint beside the commits', () => {
  it('lets queued transactions commit while it writes its pack, and ends before the lock is let go', async () => {
    const { dir, store } = await storeWithBigCheckpointDue();
    const calls = recordCalls();
    const steps = Array.from({ length: 12 }, (_, i) => (tx: StoreWriter) => tx.put('small', `s${i}`, i));
    await chain(store, steps); // gen 2 makes the checkpoint due; gens 3.. are queued behind it
    // Callers whose commit ran beside it may be answered before it ends; it ends before the lock goes.
    await store.close();
    setFaultInjector(undefined);
    expect(readCheckpointState(dir).gen).toBeGreaterThanOrEqual(2);
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
    const moved = calls.findIndex(checkpointMoved);
    expect(moved).toBeGreaterThan(0);
    const firstPack = calls.findIndex(checkpointPack);
    expect(firstPack).toBeGreaterThan(calls.findIndex(linkOf(dir, 2)));
    // Commits linked after the checkpoint began writing and before it moved CHECKPOINT.
    const beside = [3, 4, 5].filter((gen) => {
      const at = calls.findIndex(linkOf(dir, gen));
      return at > firstPack && at < moved;
    });
    expect(beside.length).toBeGreaterThan(0);
    const reader = openStore(dir).read();
    expect(reader.gen).toBe(13);
    expect(reader.entries('small')).toHaveLength(12);
    expect((await fsck(dir)).problems).toEqual([]);
  }, 30_000);

  it('writes a pack (and its index) per checkpoint, however many objects it moves: files and fsyncs do not grow with them', async () => {
    const counts = async (rows: number) => {
      const dir = storePath(`files-${rows}`);
      const store = createStore(dir, { checkpointEvery: 1_000_000 });
      await store.transact((tx) => {
        for (let i = 0; i < rows; i += 1) tx.put('rows', `r${String(i).padStart(6, '0')}`, { i, pad: 'x'.repeat(150) });
      });
      const calls = recordCalls();
      const { gen, text } = findNewest(dir);
      await checkpoint({ object: (hash) => store.object(hash), packs: store.packs }, { dir, gen, root: parseCommit(text!, paths.commit(dir, gen), gen).root, durable: true });
      setFaultInjector(undefined);
      await store.close();
      return { opens: calls.filter((c) => c.op === 'open').length, fsyncs: calls.filter((c) => c.op === 'fsync' || c.op === 'fsyncdir').length };
    };
    const small = await counts(50);
    const large = await counts(5000);
    expect(large).toEqual(small);
  });
});

describe('what the walks read', () => {
  /** A store whose rows name 200 values that name nothing (page bodies), and an object naming them all. */
  async function withBodies(label: string): Promise<{ dir: string; store: JsonFileStore; bodies: string[] }> {
    const dir = storePath(label);
    const store = createStore(dir, { checkpointEvery: 1_000_000 });
    const bodies = await store.transact((tx) => {
      const out: string[] = [];
      for (let i = 0; i < 200; i += 1) out.push(tx.putObject({ markdown: `# Page ${i}\n\n${'text '.repeat(200)}` }));
      tx.put('pages', 'index', { trie: tx.putObject({ bodies: out }) });
      for (let i = 0; i < 200; i += 1) tx.put('pages', `p${i}`, { body: out[i] });
      return out;
    });
    return { dir, store, bodies };
  }

  it('a checkpoint packs the bodies without reading them (their pack entry says they name nothing)', async () => {
    const { dir, store, bodies } = await withBodies('walk-bodies');
    const read = new Set<string>();
    const { gen, text } = findNewest(dir);
    const report = await checkpoint(
      { object: (hash) => (read.add(hash), store.object(hash)), packs: store.packs },
      { dir, gen, root: parseCommit(text!, paths.commit(dir, gen), gen).root, durable: true },
    );
    expect(report.packed).toBeGreaterThan(200);
    for (const body of bodies) expect(read.has(body)).toBe(false);
    await store.close();
    const reader = openStore(dir).read();
    expect(reader.getObject(bodies[123] as string)).toEqual({ markdown: `# Page 123\n\n${'text '.repeat(200)}` });
  });

  it('a full merge marks the bodies without reading them either', async () => {
    const { dir, store, bodies } = await withBodies('mark-bodies');
    await store.close();
    const writer = openStore(dir, { checkpointEvery: 1 });
    await writer.transact((tx) => tx.put('other', 'a', 1)); // the first checkpoint: one base pack
    await writer.close();
    const read = new Set<string>();
    const again = openStore(dir, { checkpointEvery: 1_000_000 });
    await again.transact((tx) => tx.put('other', 'b', 2));
    const { gen, text } = findNewest(dir);
    const report = await checkpoint(
      { object: (hash) => (read.add(hash), again.object(hash)), packs: again.packs },
      { dir, gen, root: parseCommit(text!, paths.commit(dir, gen), gen).root, durable: true },
    );
    expect(report.merged).toBe(2); // the base pack and the new one, both small: merged, garbage dropped
    for (const body of bodies) expect(read.has(body)).toBe(false);
    await again.close();
    expect(openStore(dir).read().getObject(bodies[7] as string)).toEqual({ markdown: `# Page 7\n\n${'text '.repeat(200)}` });
    expect((await fsck(dir)).problems).toEqual([]);
  });
});

describe('PackSet.keep (a writer keeps what it packed until its checkpoint)', () => {
  it('answers kept bytes without a commit file, until forgetUpTo passes their generation', () => {
    const packs = new PackSet(storePath('keep')); // no store, no commit file at all
    const early = Buffer.from('{"k":["a"],"v":[1]}');
    const late = Buffer.from('{"k":["b"],"v":[2]}');
    packs.keep(3, sha256(early), early);
    packs.keep(5, sha256(late), late);
    expect(packs.read(sha256(early), 5)).toEqual(early);
    packs.forgetUpTo(4);
    expect(packs.read(sha256(early), 5)).toBeUndefined();
    expect(packs.read(sha256(late), 5)).toEqual(late);
  });
});

describe('commits in flight together', () => {
  const commitTemp = (call: { op: string; file: string }) => call.op === 'open' && /[/\\]commit-[^/\\]*\.tmp$/.test(call.file);
  const commitLink = (dir: string) => (call: { op: string; file: string }) => call.op === 'link' && call.file.startsWith(path.join(dir, 'commits'));

  it('writes the next group\'s commit file while the one before is written, and links them in order', async () => {
    const dir = storePath('pipeline');
    const store = createStore(dir);
    const calls = recordCalls();
    const steps = Array.from({ length: 8 }, (_, i) => (tx: StoreWriter) => tx.put('rows', `k${i}`, { i, seen: tx.get('rows', `k${i - 1}`) ?? null }));
    await chain(store, steps);
    await store.close();
    setFaultInjector(undefined);
    const opens = calls.flatMap((call, i) => (commitTemp(call) ? [i] : []));
    const links = calls.flatMap((call, i) => (commitLink(dir)(call) ? [i] : []));
    expect(links.map((i) => calls[i]?.file)).toEqual(Array.from({ length: 8 }, (_, i) => paths.commit(dir, i + 1)));
    // Some commit file was opened before the commit ahead of it was linked.
    expect(opens.some((at, i) => i > 0 && at < (links[i - 1] as number))).toBe(true);
    // Each group saw the one before it, although that one was not on disk yet when it ran.
    const reader = openStore(dir).read();
    for (let i = 1; i < 8; i += 1) expect(reader.get<{ seen: { i: number } }>('rows', `k${i}`)?.seen.i).toBe(i - 1);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('starts the group of a transaction that arrives while a commit is written before that commit lands (serve: clients send again once answered)', async () => {
    const dir = storePath('pipeline-arrival');
    const store = createStore(dir);
    const calls: Array<{ op: string; file: string }> = [];
    let later: Promise<unknown> | undefined;
    setFaultInjector((op, file) => {
      calls.push({ op, file });
      // B arrives a turn after A's commit file was opened: the queue was empty when A's group started.
      if (later === undefined && commitTemp({ op, file })) {
        later = new Promise((resolve, reject) => {
          setImmediate(() => {
            store.transact((tx) => tx.put('rows', 'b', { seen: tx.get('rows', 'a0') !== undefined })).then(resolve, reject);
          });
        });
      }
      return undefined;
    });
    const first = store.transact((tx) => {
      for (let i = 0; i < 2000; i += 1) tx.put('rows', `a${i}`, { i, pad: 'x'.repeat(100) });
    });
    await first.then(() => calls.push({ op: 'answered', file: 'a' }));
    await later;
    await store.close();
    setFaultInjector(undefined);
    const opens = calls.flatMap((call, i) => (commitTemp(call) ? [i] : []));
    const answered = calls.findIndex((call) => call.op === 'answered');
    expect(opens).toHaveLength(2);
    // B's commit file was written while A's was still landing (before A's caller was answered).
    expect(opens[1]).toBeLessThan(answered);
    expect(openStore(dir).read().get('rows', 'b')).toEqual({ seen: true });
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('runs the next group again when the commit ahead of it does not land', async () => {
    const dir = storePath('pipeline-fail');
    const store = createStore(dir);
    let failed = false;
    setFaultInjector((op, file) => {
      if (op !== 'link' || file !== paths.commit(dir, 2) || failed) return undefined;
      failed = true;
      return Object.assign(new Error('EIO: injected'), { code: 'EIO' });
    });
    const runs: number[] = [];
    const steps = [0, 1, 2].map((i) => (tx: StoreWriter) => {
      runs.push(i);
      tx.put('rows', `k${i}`, { i, before: tx.entries('rows').map(([key]) => key) });
    });
    const done: Array<Promise<unknown>> = [];
    const queue = (i: number): void => {
      const step = steps[i];
      if (step === undefined || done.length > i) return;
      const result = store.transact((tx) => {
        step(tx);
        queue(i + 1);
      });
      result.catch(() => undefined); // looked at below
      done.push(result);
    };
    queue(0);
    for (let i = 0; i < done.length; i += 1) await (done[i] as Promise<unknown>).catch(() => undefined);
    await store.close();
    const outcomes = await Promise.allSettled(done);
    setFaultInjector(undefined);
    expect(failed).toBe(true);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(runs.filter((i) => i === 2).length).toBe(2); // ran on the state with k1, then again without it
    const reader = openStore(dir).read();
    expect(reader.gen).toBe(2);
    expect(reader.get('rows', 'k1')).toBeUndefined();
    expect(reader.get('rows', 'k2')).toEqual({ i: 2, before: ['k0'] });
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
    expect((await fsck(dir)).problems).toEqual([]);
  });
});
