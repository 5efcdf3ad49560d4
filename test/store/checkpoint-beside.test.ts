/**
 * A checkpoint runs beside the next commits (json-file-store.ts, `startCheckpoint`):
 * queued transactions keep committing while it writes its loose files, a commit that
 * writes loose files itself waits for it, and its sweep reads the cut's inner nodes
 * once instead of walking every table for each listed object (pack.ts, `tableNodesAt`);
 * the lists say which objects are not values, so superseded nodes go unread; the writer
 * keeps the bytes it packed until its checkpoint (`PackIndex.keep`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type BNode, btreeWalk, isBLeaf } from '../../src/store/btree.js';
import { setFaultInjector } from '../../src/store/fault.js';
import { createStore, fsck, openStore } from '../../src/store/index.js';
import type { JsonFileStore } from '../../src/store/json-file-store.js';
import { findNewest, parseCommit, paths } from '../../src/store/json-file-store.js';
import { PackIndex, readCheckpoint, sweepLoose, tableNodesAt } from '../../src/store/pack.js';
import { sha256 } from '../../src/store/objects.js';
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

/** A store whose next commit makes a checkpoint due that has a few hundred leaves to make loose. */
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

describe('a checkpoint beside the commits', () => {
  it('lets queued transactions commit while it writes its loose files, and ends before the lock is let go', async () => {
    const { dir, store } = await storeWithBigCheckpointDue();
    const calls = recordCalls();
    const steps = Array.from({ length: 12 }, (_, i) => (tx: StoreWriter) => tx.put('small', `s${i}`, i));
    await chain(store, steps); // gen 2 makes the checkpoint due; gens 3.. are queued behind it
    // Callers whose commit ran beside it may be answered before it ends; it ends before the lock goes.
    await store.close();
    setFaultInjector(undefined);
    expect(fs.readFileSync(path.join(dir, 'CHECKPOINT'), 'utf8')).toMatch(/^2\b/);
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
    const moved = calls.findIndex(checkpointMoved);
    expect(moved).toBeGreaterThan(0);
    const firstLoose = calls.findIndex((call) => call.op === 'open' && /[/\\]obj-[^/\\]*\.tmp$/.test(call.file));
    expect(firstLoose).toBeGreaterThan(calls.findIndex(linkOf(dir, 2)));
    // Commits linked after the checkpoint began writing and before it moved CHECKPOINT.
    const beside = [3, 4, 5].filter((gen) => {
      const at = calls.findIndex(linkOf(dir, gen));
      return at > firstLoose && at < moved;
    });
    expect(beside.length).toBeGreaterThan(0);
    const reader = openStore(dir).read();
    expect(reader.gen).toBe(13);
    expect(reader.entries('small')).toHaveLength(12);
    expect((await fsck(dir)).problems).toEqual([]);
  }, 30_000);

  it('makes a commit that writes a loose file (over 64 KiB) wait until the checkpoint is over', async () => {
    const { dir, store } = await storeWithBigCheckpointDue();
    const calls = recordCalls();
    const big = 'b'.repeat(70 * 1024);
    const results = await chain(store, [
      (tx) => tx.put('small', 'a', 1), // gen 2: the checkpoint is due
      (tx) => tx.put('small', 'b', 2), // gen 3: beside it
      (tx) => tx.put('small', 'c', tx.putObject({ big })), // gen 4: a loose file
    ]);
    setFaultInjector(undefined);
    expect(results).toHaveLength(3);
    const moved = calls.findIndex(checkpointMoved);
    expect(calls.findIndex(linkOf(dir, 3))).toBeLessThan(moved); // the checkpoint was still running
    expect(calls.findIndex(linkOf(dir, 4))).toBeGreaterThan(moved);
    const bigOpen = calls.findIndex((call, i) => i > moved && call.op === 'open' && /[/\\]obj-[^/\\]*\.tmp$/.test(call.file));
    expect(bigOpen).toBeGreaterThan(moved);
    await store.close();
    const reader = openStore(dir).read();
    expect(reader.getObject(reader.get('small', 'c') as string)).toEqual({ big });
    expect((await fsck(dir)).problems).toEqual([]);
  }, 30_000);
});

describe('tableNodesAt (what the sweep of superseded loose objects keeps)', () => {
  it('names every node of every table, reading only the inner nodes', async () => {
    const dir = storePath('nodes');
    const store = createStore(dir, { checkpointEvery: 1 });
    await store.transact((tx) => {
      for (let i = 0; i < 2000; i += 1) tx.put('rows', `r${String(i).padStart(5, '0')}`, { i, pad: 'x'.repeat(150) });
      for (let i = 0; i < 50; i += 1) tx.put('few', `f${i}`, i);
      tx.put('one', 'k', tx.putObject({ value: 'named from a row' }));
    });
    await store.close();
    const reader = openStore(dir);
    const { gen, text } = findNewest(dir);
    const root = reader.object(parseCommit(text!, paths.commit(dir, gen), gen).root) as { tables: Record<string, string> };
    const expected = new Set<string>();
    let inner = 0;
    for (const top of Object.values(root.tables)) {
      btreeWalk({ bnode: (hash) => reader.object(hash) as BNode }, top, (hash, node) => {
        expected.add(hash);
        if (!isBLeaf(node)) inner += 1;
      });
    }
    expect(inner).toBeGreaterThan(0);
    const read: string[] = [];
    const nodes = tableNodesAt({ object: (hash) => (read.push(hash), reader.object(hash)) }, root);
    expect(nodes).toEqual(expected);
    // The inner nodes, plus one leaf per table on the leftmost path (its height).
    expect(new Set(read).size).toBeLessThanOrEqual(inner + Object.keys(root.tables).length);
    expect(read.length).toBeLessThan(expected.size / 4);
  });

  it('is in doubt (undefined) when a node cannot be read', async () => {
    const dir = storePath('doubt');
    const store = createStore(dir, { checkpointEvery: 1 });
    await store.transact((tx) => {
      for (let i = 0; i < 2000; i += 1) tx.put('rows', `r${String(i).padStart(5, '0')}`, { i, pad: 'x'.repeat(150) });
    });
    await store.close();
    const reader = openStore(dir);
    const { gen, text } = findNewest(dir);
    const root = reader.object(parseCommit(text!, paths.commit(dir, gen), gen).root) as { tables: Record<string, string> };
    const top = root.tables.rows as string;
    const failing = (hash: string) => {
      if (hash !== top) throw new Error('unreadable');
      return reader.object(hash);
    };
    expect(tableNodesAt({ object: failing }, root)).toBeUndefined();
  });
});

describe('the lists of what a checkpoint made loose', () => {
  it('name the nodes as not values, leave values out, and let the sweep remove superseded nodes unread', async () => {
    const dir = storePath('lists');
    // keepCommits high: this test runs the sweep itself, at the newest checkpoint.
    const store = createStore(dir, { checkpointEvery: 2, keepCommits: 1000 });
    await store.transact((tx) => {
      for (let i = 0; i < 400; i += 1) tx.put('rows', `r${String(i).padStart(4, '0')}`, { i, pad: 'x'.repeat(150) });
      tx.put('values', 'v', tx.putObject({ value: 'named from a row' }));
    });
    for (let round = 0; round < 6; round += 1) {
      await store.transact((tx) => {
        for (let i = round; i < 400; i += 40) tx.put('rows', `r${String(i).padStart(4, '0')}`, { i, round, pad: 'y'.repeat(150) });
      });
    }
    await store.close();
    const listsDir = path.join(dir, 'checkpoints');
    const lists = fs.readdirSync(listsDir).filter((name) => /^\d{12}$/.test(name));
    expect(lists.length).toBeGreaterThan(1);
    const listed = lists.flatMap((name) => fs.readFileSync(path.join(listsDir, name), 'utf8').trim().split('\n'));
    for (const line of listed) expect(line).toMatch(/^[0-9a-f]{64} n$/);
    const reader = openStore(dir);
    const value = reader.read().get('values', 'v') as string;
    expect(listed.map((line) => line.slice(0, 64))).not.toContain(value);

    const cut = readCheckpoint(dir);
    const { text } = findNewest(dir);
    expect(text).toBeDefined();
    const looseBefore = new Set(listed.map((line) => line.slice(0, 64)).filter((hash) => fs.existsSync(path.join(dir, 'objects', hash.slice(0, 2), `${hash}.json`))));
    const read: string[] = [];
    const removed = await sweepLoose({ object: (hash) => (read.push(hash), reader.object(hash)) }, new PackIndex(dir), dir, cut, readCheckpoint(dir));
    expect(removed).toBeGreaterThan(0);
    const gone = [...looseBefore].filter((hash) => !fs.existsSync(path.join(dir, 'objects', hash.slice(0, 2), `${hash}.json`)));
    expect(gone).toHaveLength(removed);
    for (const hash of gone) expect(read).not.toContain(hash);
    // The newest state is whole (a fresh process reads every row).
    const fresh = openStore(dir).read();
    expect(fresh.entries('rows')).toHaveLength(400);
    expect(fresh.getObject(value)).toEqual({ value: 'named from a row' });
  });

  it('are still read when written before the marks (a bare hash): a superseded node is read, then removed', async () => {
    const dir = storePath('bare');
    const store = createStore(dir, { checkpointEvery: 2, keepCommits: 1000 });
    await store.transact((tx) => {
      for (let i = 0; i < 400; i += 1) tx.put('rows', `r${String(i).padStart(4, '0')}`, { i, pad: 'x'.repeat(150) });
    });
    for (let round = 0; round < 6; round += 1) {
      await store.transact((tx) => {
        for (let i = round; i < 400; i += 40) tx.put('rows', `r${String(i).padStart(4, '0')}`, { i, round, pad: 'y'.repeat(150) });
      });
    }
    await store.close();
    const listsDir = path.join(dir, 'checkpoints');
    for (const name of fs.readdirSync(listsDir).filter((n) => /^\d{12}$/.test(n))) {
      const file = path.join(listsDir, name);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/ n$/gm, ''));
    }
    const reader = openStore(dir);
    const read: string[] = [];
    const cut = readCheckpoint(dir);
    const removed = await sweepLoose({ object: (hash) => (read.push(hash), reader.object(hash)) }, new PackIndex(dir), dir, cut, cut);
    expect(removed).toBeGreaterThan(0);
    expect(openStore(dir).read().entries('rows')).toHaveLength(400);
  });
});

describe('PackIndex.keep (a writer keeps what it packed until its checkpoint)', () => {
  it('answers kept bytes without a commit file, until forgetUpTo passes their generation', () => {
    const index = new PackIndex(storePath('keep')); // no store, no commit file at all
    const early = Buffer.from('{"k":["a"],"v":[1]}');
    const late = Buffer.from('{"k":["b"],"v":[2]}');
    index.keep(3, sha256(early), early);
    index.keep(5, sha256(late), late);
    expect(index.read(sha256(early))).toEqual(early);
    index.forgetUpTo(4);
    expect(index.read(sha256(early))).toBeUndefined();
    expect(index.read(sha256(late))).toEqual(late);
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
