/**
 * Damaged files: a clear StoreError naming the file (never a silent reset);
 * fsck lists the damage; recover quarantines it and returns to the last good
 * generation; gc keeps everything the kept commits reach.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import { btreeWalk, isBLeaf, type BNode } from '../../src/store/btree.js';
import { createStore, fsck, gc, openStore, recover } from '../../src/store/index.js';
import { findNewest, parseCommit, paths } from '../../src/store/json-file-store.js';
import { objectPath, readObjectSync } from '../../src/store/objects.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

/**
 * A store at gen 5: gen 1 puts 100 keys; gens 2..5 put gen-<n> each. Each commit is
 * checkpointed, so the newest state's objects are loose files to damage (pack.ts).
 */
async function seeded(label: string): Promise<string> {
  const dir = storePath(label);
  const store = createStore(dir, { checkpointEvery: 1 });
  await store.transact((tx) => {
    // ~8 KiB of rows: several leaves, so damage to one leaf leaves others readable.
    for (let i = 0; i < 100; i += 1) tx.put('items', `base-${i}`, { i, note: 'n'.repeat(60) });
  });
  for (let gen = 2; gen <= 5; gen += 1) await store.transact((tx) => tx.put('items', `gen-${gen}`, gen));
  await store.close();
  return dir;
}

function newestCommit(dir: string) {
  const { gen, text } = findNewest(dir);
  return parseCommit(text!, paths.commit(dir, gen), gen);
}

/** The file of the leaf holding `key` in the newest state. */
function leafFileFor(dir: string, key: string): string {
  const root = readObjectSync(dir, newestCommit(dir).root).value as { tables: Record<string, string> };
  let hash = root.tables.items as string;
  for (;;) {
    const node = readObjectSync(dir, hash).value as BNode;
    if (isBLeaf(node)) return objectPath(dir, hash);
    // child i holds the keys from its separator up to the next one
    let child = 0;
    while (child + 1 < node.k.length && (node.k[child + 1] as string) <= key) child += 1;
    hash = node.c[child] as string;
  }
}

function expectStoreError(fn: () => unknown, file: string): StoreError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(StoreError);
  const error = caught as StoreError;
  expect(error.message).toContain(file);
  expect(error.path).toBe(file);
  expect(error.exitCode).toBe(74);
  expect(error.message).not.toContain('\n');
  return error;
}

function snapshotOfGen4(dir: string) {
  const reader = openStore(dir).read();
  return reader.entries('items').filter(([k]) => k !== 'gen-5');
}

describe('damage is reported, listed and recovered', () => {
  it('truncated newest commit', async () => {
    const dir = await seeded('trunc');
    const expected = snapshotOfGen4(dir);
    const file = paths.commit(dir, 5);
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.slice(0, text.length >> 1));
    const error = expectStoreError(() => openStore(dir).read(), file);
    expect(error.hint).toMatch(/docsctl store fsck.*docsctl store recover/);
    // Writes are refused too (never built on a state that cannot be read).
    await expect(openStore(dir).transact((tx) => tx.put('items', 'x', 1))).rejects.toThrow(StoreError);
    const report = await fsck(dir);
    expect(report.gen).toBe(5);
    expect(report.problems.map((p) => p.path)).toEqual([file]);
    const result = await recover(dir);
    expect(result).toMatchObject({ fromGen: 5, toGen: 4, gen: 5 });
    expect(result.quarantined).toHaveLength(1);
    expect(fs.readFileSync(result.quarantined[0] as string, 'utf8')).toBe(text.slice(0, text.length >> 1));
    const reader = openStore(dir).read();
    expect(reader.gen).toBe(5);
    expect(reader.entries('items')).toEqual(expected);
    expect((await fsck(dir)).problems).toEqual([]);
    await openStore(dir).transact((tx) => tx.put('items', 'after', true));
    expect(openStore(dir).read().gen).toBe(6);
  });

  it('zero-filled object: the error names it, other subtrees still read', async () => {
    const dir = await seeded('zero');
    const expected = snapshotOfGen4(dir);
    const leaf = leafFileFor(dir, 'gen-5');
    fs.writeFileSync(leaf, Buffer.alloc(fs.statSync(leaf).size));
    const reader = openStore(dir).read();
    expectStoreError(() => reader.get('items', 'gen-5'), leaf);
    // A key in another leaf is unaffected.
    const other = Array.from({ length: 100 }, (_, i) => `base-${i}`).find((k) => leafFileFor(dir, k) !== leaf) as string;
    expect(reader.get('items', other)).toBeDefined();
    const report = await fsck(dir);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ path: leaf });
    expect(report.problems[0]?.problem).toMatch(/does not match its hash/);
    const result = await recover(dir);
    expect(result).toMatchObject({ fromGen: 5, toGen: 4, gen: 6 });
    expect(result.quarantined).toEqual([expect.stringContaining(path.basename(leaf))]);
    expect(fs.existsSync(leaf)).toBe(false);
    expect(openStore(dir).read().entries('items')).toEqual(expected);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('one flipped byte', async () => {
    const dir = await seeded('flip');
    const root = objectPath(dir, newestCommit(dir).root);
    const bytes = fs.readFileSync(root);
    bytes[5] = (bytes[5] as number) ^ 0x01;
    fs.writeFileSync(root, bytes);
    expectStoreError(() => openStore(dir).read(), root);
    expect((await fsck(dir)).problems.map((p) => p.path)).toContain(root);
    const result = await recover(dir);
    expect(result).toMatchObject({ fromGen: 5, toGen: 4, gen: 6 });
    expect(openStore(dir).read().has('items', 'gen-5')).toBe(false);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('a deleted loose object is read from its pack while its commit file is kept; gc makes it loose again', async () => {
    const dir = await seeded('repacked');
    const leaf = leafFileFor(dir, 'gen-5');
    fs.rmSync(leaf);
    expect(openStore(dir).read().get('items', 'gen-5')).toBe(5); // gen 5's commit file carries it
    expect((await fsck(dir)).problems).toEqual([]);
    await gc(dir, { keepCommits: 1, minAgeMs: 0 }); // drops commits 1..4, keeps what gen 5 reaches
    expect(fs.existsSync(leaf)).toBe(true);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('a deleted referenced object that no pack holds', async () => {
    const dir = await seeded('deleted');
    await gc(dir, { keepCommits: 2, minAgeMs: 0 }); // gens 4 and 5 stay; base-0's leaf was packed in gen 1
    const leaf = leafFileFor(dir, 'base-0');
    fs.rmSync(leaf);
    const error = expectStoreError(() => openStore(dir).read().get('items', 'base-0'), leaf);
    expect(error.message).toMatch(/missing/);
    expect((await fsck(dir)).problems).toEqual([{ path: leaf, problem: expect.stringMatching(/missing/) }]);
    // Both kept generations need that leaf: recover says so rather than guess.
    await expect(recover(dir)).rejects.toThrow(/no intact generation/);
  });

  it('a damaged object stored with putObject', async () => {
    const dir = await seeded('userobj');
    const store = openStore(dir, { checkpointEvery: 1 });
    const hash = await store.transact((tx) => {
      const h = tx.putObject({ body: 'page text' });
      tx.put('revisions', 'r1', { body: h });
      return h;
    });
    const file = objectPath(dir, hash);
    fs.writeFileSync(file, '{"body":"tampered"}');
    expectStoreError(() => openStore(dir).read().getObject(hash), file);
    expect((await fsck(dir)).problems.map((p) => p.path)).toEqual([file]);
    await store.close();
  });

  it('malformed FORMAT, and a newer one', async () => {
    const dir = await seeded('format');
    const file = path.join(dir, 'FORMAT');
    fs.writeFileSync(file, '{"format":"docsctl-st');
    expectStoreError(() => openStore(dir), file);
    expect((await fsck(dir)).problems).toEqual([{ path: file, problem: expect.stringContaining('FORMAT') }]);
    const result = await recover(dir);
    expect(result.quarantined).toEqual([expect.stringContaining('FORMAT')]);
    expect(result.gen).toBe(5); // nothing else to do
    expect(openStore(dir).read().gen).toBe(5);
    fs.writeFileSync(file, '{"format":"docsctl-store","version":7}');
    expect(() => openStore(dir)).toThrow(/format version 7, newer than this docsctl supports \(2\)/);
    await expect(fsck(dir)).rejects.toThrow(/newer/);
    await expect(recover(dir)).rejects.toThrow(/newer/);
  });

  it('recover on a healthy store changes nothing', async () => {
    const dir = await seeded('healthy');
    expect(await recover(dir)).toEqual({ fromGen: 5, toGen: 5, gen: 5, quarantined: [], problems: [] });
    expect(openStore(dir).read().gen).toBe(5);
  });

  it('refuses when no generation is intact, unless asked to start empty', async () => {
    const dir = await seeded('hopeless');
    // A leaf written in gen 1 and shared by every later generation.
    const leaf = leafFileFor(dir, 'base-0');
    if (leaf === leafFileFor(dir, 'gen-5')) throw new Error('fixture: pick another key');
    fs.writeFileSync(leaf, 'garbage');
    await expect(recover(dir)).rejects.toThrow(/no intact generation/);
    expect(openStore(dir).read().gen).toBe(5); // unchanged
    const result = await recover(dir, { toGen: 0 });
    expect(result).toMatchObject({ fromGen: 5, toGen: 0, gen: 6 });
    expect(openStore(dir).read().entries('items')).toEqual([]);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('recover to a chosen generation', async () => {
    const dir = await seeded('chosen');
    const result = await recover(dir, { toGen: 2 });
    expect(result).toMatchObject({ fromGen: 5, toGen: 2, gen: 6 });
    const reader = openStore(dir).read();
    expect(reader.has('items', 'gen-2')).toBe(true);
    expect(reader.has('items', 'gen-3')).toBe(false);
  });
});

describe('gc', () => {
  it('keeps what the kept commits reach (including objects named in values), sweeps the rest', async () => {
    const dir = await seeded('gc');
    const store = openStore(dir);
    const [page, tree] = await store.transact((tx) => {
      const p = tx.putObject({ body: 'page' });
      const t = tx.putObject({ pages: [p] }); // an object naming another object
      tx.put('revisions', 'r1', { tree: t, tokenHash: 'f'.repeat(64) /* names no object */ });
      return [p, t];
    });
    for (let i = 0; i < 10; i += 1) await store.transact((tx) => tx.put('items', 'base-1', { rewrite: i }));
    fs.writeFileSync(path.join(dir, 'tmp', 'old.tmp'), 'litter');
    fs.writeFileSync(path.join(dir, 'LOCK.stale-abc'), '{}');
    const young = await gc(dir, { keepCommits: 2 }); // default minimum age: nothing young is removed
    expect(young.removedCommits).toBe(14);
    expect(young.removedObjects).toBe(0);
    expect(young.removedTemps).toBe(0);
    const report = await gc(dir, { keepCommits: 2, minAgeMs: 0 });
    expect(report.removedObjects).toBeGreaterThan(10);
    expect(report.removedTemps).toBe(2);
    const reader = openStore(dir).read();
    expect(reader.get('items', 'base-1')).toEqual({ rewrite: 9 });
    expect(reader.entries('items')).toHaveLength(104);
    expect(reader.getObject(tree as string)).toEqual({ pages: [page] });
    expect(reader.getObject(page as string)).toEqual({ body: 'page' });
    expect((await fsck(dir)).problems).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'commits'))).toHaveLength(2);
    // Writing continues on top.
    await store.transact((tx) => tx.put('items', 'after-gc', true));
    expect(openStore(dir).read().gen).toBe(17);
    await store.close();
  });

  it('stops instead of sweeping when the kept state is damaged', async () => {
    const dir = await seeded('gc-damaged');
    const leaf = leafFileFor(dir, 'gen-5');
    fs.writeFileSync(leaf, 'garbage');
    await expect(gc(dir, { minAgeMs: 0 })).rejects.toThrow(StoreError);
  });
});

describe('fsck', () => {
  it('is clean on a healthy store and counts what it checked', async () => {
    const dir = await seeded('fsck');
    const report = await fsck(dir);
    expect(report).toMatchObject({ gen: 5, problems: [], checkedCommits: 5 });
    expect(report.checkedObjects).toBeGreaterThan(3);
  });

  it('reports a gap in the history and a broken parent link', async () => {
    const dir = await seeded('gap');
    fs.rmSync(paths.commit(dir, 3));
    const report = await fsck(dir);
    expect(report.problems).toEqual([{ path: paths.commit(dir, 3), problem: expect.stringMatching(/missing/) }]);
  });

  it('walks every trie node of the newest state', async () => {
    const dir = await seeded('walk');
    const root = readObjectSync(dir, newestCommit(dir).root).value as { tables: Record<string, string> };
    let count = 0;
    btreeWalk({ bnode: (h) => readObjectSync(dir, h).value as BNode }, root.tables.items as string, () => {
      count += 1;
    });
    expect((await fsck(dir)).checkedObjects).toBeGreaterThanOrEqual(count + 1);
  });
});
