/**
 * A checkpoint runs beside the next commits (json-file-store.ts, `startCheckpoint`):
 * queued transactions keep committing while it writes its loose files, a commit that
 * writes loose files itself waits for it, and its sweep reads the cut's inner nodes
 * once instead of walking every table for each listed object (pack.ts, `tableNodesAt`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type BNode, btreeWalk, isBLeaf } from '../../src/store/btree.js';
import { setFaultInjector } from '../../src/store/fault.js';
import { createStore, fsck, openStore } from '../../src/store/index.js';
import type { JsonFileStore } from '../../src/store/json-file-store.js';
import { findNewest, parseCommit, paths } from '../../src/store/json-file-store.js';
import { tableNodesAt } from '../../src/store/pack.js';
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
