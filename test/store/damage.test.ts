/**
 * Damaged files: a clear StoreError naming the file (never a silent reset);
 * fsck lists the damage; recover returns to the last good generation and
 * quarantines what it can set aside (a torn or damaged pack, a garbled commit);
 * gc keeps everything the kept commits reach.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import { btreeWalk, isBLeaf, type BNode } from '../../src/store/btree.js';
import { createStore, fsck, gc, openStore, recover } from '../../src/store/index.js';
import { type HamtNode, hamtApply, hamtGet, isLeaf, makeChange } from '../../src/store/hamt.js';
import { findNewest, listCommitGens, parseCommit, paths } from '../../src/store/json-file-store.js';
import { PackFile, listPacks, packPath } from '../../src/store/pack-file.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

/** A store at gen 5: gen 1 puts 100 keys; gens 2..5 put gen-<n> each. Each commit is checkpointed into base packs. */
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

/** The hash of the leaf holding `key` in the newest state. */
function leafFor(dir: string, key: string): string {
  const store = openStore(dir);
  const root = store.object(newestCommit(dir).root) as { tables: Record<string, string> };
  let hash = root.tables.items as string;
  for (;;) {
    const node = store.object(hash) as BNode;
    if (isBLeaf(node)) return hash;
    // child i holds the keys from its separator up to the next one
    let child = 0;
    while (child + 1 < node.k.length && (node.k[child + 1] as string) <= key) child += 1;
    hash = node.c[child] as string;
  }
}

/** Every stored copy of an object: inline in commit files, in pack files (file, offset, length). */
function copiesOf(dir: string, hash: string): Array<{ file: string; offset: number; length: number }> {
  const copies: Array<{ file: string; offset: number; length: number }> = [];
  for (const gen of listCommitGens(dir)) {
    const file = paths.commit(dir, gen);
    const bytes = fs.readFileSync(file);
    const end = bytes.indexOf(0x0a);
    let offset = end + 1;
    for (const [h, length] of (JSON.parse(bytes.toString('utf8', 0, end)) as { pack?: Array<[string, number]> }).pack ?? []) {
      if (h === hash) copies.push({ file, offset, length });
      offset += length;
    }
  }
  for (const name of listPacks(dir)) {
    const pack = PackFile.open(dir, name);
    const entry = pack?.find(hash);
    if (entry) copies.push({ file: packPath(dir, name), offset: entry.offset, length: entry.length });
    pack?.close();
  }
  return copies;
}

/** Changes every copy of an object in place (same size); returns the files it touched. */
function damage(dir: string, hash: string, change: (bytes: Buffer) => void): string[] {
  const copies = copiesOf(dir, hash);
  if (copies.length === 0) throw new Error(`fixture: no copy of ${hash}`);
  for (const { file, offset, length } of copies) {
    const bytes = fs.readFileSync(file);
    const part = bytes.subarray(offset, offset + length);
    change(part);
    fs.writeFileSync(file, bytes);
  }
  return copies.map((c) => c.file);
}

function expectStoreError(fn: () => unknown, files: string | string[]): StoreError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(StoreError);
  const error = caught as StoreError;
  const candidates = typeof files === 'string' ? [files] : files;
  expect(candidates).toContain(error.path);
  expect(error.message).toContain(error.path);
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

  it('zero-filled object: the error names the file it was read from, other subtrees still read', async () => {
    const dir = await seeded('zero');
    const expected = snapshotOfGen4(dir);
    const leaf = leafFor(dir, 'gen-5');
    const files = damage(dir, leaf, (bytes) => bytes.fill(0));
    const reader = openStore(dir).read();
    expectStoreError(() => reader.get('items', 'gen-5'), files);
    // A key in another leaf is unaffected.
    const other = Array.from({ length: 100 }, (_, i) => `base-${i}`).find((k) => leafFor(dir, k) !== leaf) as string;
    expect(reader.get('items', other)).toBeDefined();
    const report = await fsck(dir);
    expect(report.problems).toHaveLength(1);
    expect(files).toContain(report.problems[0]?.path);
    expect(report.problems[0]?.problem).toMatch(/does not match its hash/);
    const result = await recover(dir);
    expect(result).toMatchObject({ fromGen: 5, toGen: 4, gen: 6 });
    expect(openStore(dir).read().entries('items')).toEqual(expected);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('one flipped byte', async () => {
    const dir = await seeded('flip');
    const files = damage(dir, newestCommit(dir).root, (bytes) => {
      bytes[5] = (bytes[5] as number) ^ 0x01;
    });
    expectStoreError(() => openStore(dir).read(), files);
    expect((await fsck(dir)).problems.map((p) => p.path)).toContain(paths.commit(dir, 5));
    const result = await recover(dir);
    expect(result).toMatchObject({ fromGen: 5, toGen: 4, gen: 6 });
    expect(openStore(dir).read().has('items', 'gen-5')).toBe(false);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('a torn pack at the end of the file: named, listed, and recover returns to the generation before it', async () => {
    const dir = await seeded('torn');
    const store = openStore(dir);
    const hash = await store.transact((tx) => {
      const h = tx.putObject({ body: 'x'.repeat(1_200_000) }); // past 1 MiB: the commit writes a pack of its own
      tx.put('items', 'huge', h);
      return h;
    });
    await store.close();
    const [name] = newestCommit(dir).packs ?? [];
    const pack = packPath(dir, name as string);
    fs.truncateSync(pack, fs.statSync(pack).size - 1000); // its end never reached the disk
    expectStoreError(() => openStore(dir).read().getObject(hash), pack);
    const report = await fsck(dir);
    expect(report.problems).toContainEqual({ path: pack, problem: expect.stringMatching(/torn/) });
    const result = await recover(dir);
    expect(result).toMatchObject({ fromGen: 6, toGen: 5, gen: 7 });
    expect(result.quarantined.map((file) => path.extname(file)).sort()).toEqual(['.idx', '.pack']);
    expect(fs.existsSync(pack)).toBe(false);
    const reader = openStore(dir).read();
    expect(reader.has('items', 'huge')).toBe(false);
    expect(reader.get('items', 'gen-5')).toBe(5);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('a missing base pack: named by the error and by fsck; recover does not guess', async () => {
    const dir = await seeded('deleted');
    await gc(dir, { keepCommits: 2, minAgeMs: 0 }); // gens 4 and 5 stay; every object they reach in one pack
    const { packs } = JSON.parse(fs.readFileSync(path.join(dir, 'CHECKPOINT'), 'utf8')) as { packs: string[] };
    expect(packs).toHaveLength(1);
    fs.rmSync(packPath(dir, packs[0] as string));
    fs.rmSync(path.join(dir, 'packs', `${packs[0]}.idx`));
    const error = expectStoreError(() => openStore(dir).read().get('items', 'base-0'), packPath(dir, packs[0] as string));
    expect(error.message).toMatch(/missing/);
    expect((await fsck(dir)).problems).toContainEqual({ path: packPath(dir, packs[0] as string), problem: expect.stringMatching(/missing/) });
    // Both kept generations need that pack: recover says so rather than guess.
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
    await store.close();
    const files = damage(dir, hash, (bytes) => bytes.write('{"body":"tampered"'));
    expectStoreError(() => openStore(dir).read().getObject(hash), files);
    const problems = (await fsck(dir)).problems;
    expect(problems).toHaveLength(1);
    expect(files).toContain(problems[0]?.path);
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
    expect(() => openStore(dir)).toThrow(/format version 7, newer than this docsctl supports \(6\)/);
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
    const leaf = leafFor(dir, 'base-0');
    if (leaf === leafFor(dir, 'gen-5')) throw new Error('fixture: pick another key');
    damage(dir, leaf, (bytes) => bytes.fill(0x41));
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
    const young = await gc(dir, { keepCommits: 2 }); // default minimum age: young temp files stay
    expect(young.removedCommits).toBe(14);
    expect(young.removedObjects).toBeGreaterThan(10); // superseded leaves and roots, in packs and commit files
    expect(young.removedTemps).toBe(0);
    const report = await gc(dir, { keepCommits: 2, minAgeMs: 0 });
    expect(report.removedObjects).toBe(0);
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
    damage(dir, leafFor(dir, 'gen-5'), (bytes) => bytes.fill(0x41));
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
    const store = openStore(dir);
    const root = store.object(newestCommit(dir).root) as { tables: Record<string, string> };
    let count = 0;
    btreeWalk({ bnode: (h) => store.object(h) as BNode }, root.tables.items as string, () => {
      count += 1;
    });
    expect((await fsck(dir)).checkedObjects).toBeGreaterThanOrEqual(count + 1);
  });
});

describe('hash-trie leaves that keep their values\' hashes apart (hamt.ts)', () => {
  /** A seeded store plus a 40-entry pages-like trie (split: leaves with hash lists) named by a record, then 10 more commits. */
  async function withTrie(label: string) {
    const dir = await seeded(label);
    const store = openStore(dir);
    const { pages, root } = await store.transact((tx) => {
      const pages = Array.from({ length: 40 }, (_, i) => tx.putObject({ id: `p-${i}`, title: `Page ${i}`, children: [] }));
      const source = { node: (hash: string) => tx.getObject<HamtNode>(hash) };
      const changes = pages.map((hash, i) => makeChange(`p-${i}`, [hash, `Page ${i}`, '', `p${i}`]));
      const root = hamtApply(source, undefined, changes, (node) => tx.putObject(node)) as string;
      tx.put('revisions', 'r1', { content: root });
      return { pages, root };
    });
    for (let i = 0; i < 10; i += 1) await store.transact((tx) => tx.put('items', 'base-1', { rewrite: i }));
    await store.close();
    // Precondition: each page hash is in a leaf's hash list only, never a JSON string of its own.
    const reader = openStore(dir).read();
    const leaves: HamtNode[] = [];
    const visit = (hash: string): void => {
      const node = reader.getObject<HamtNode>(hash);
      if (isLeaf(node)) leaves.push(node);
      else for (const child of Object.values(node.n)) visit(child);
    };
    visit(root);
    expect(leaves.length).toBeGreaterThan(1);
    for (const leaf of leaves) expect(Object.keys(leaf)).toEqual(['a', 'h']);
    const text = JSON.stringify(leaves.map((leaf) => (leaf as { a: unknown[] }).a));
    for (const page of pages) expect(text).not.toContain(`"${page}"`);
    return { dir, pages, root };
  }

  it('gc keeps every page object that a leaf names only in its hash list', async () => {
    const { dir, pages, root } = await withTrie('gc-hash-list');
    const report = await gc(dir, { keepCommits: 2, minAgeMs: 0 });
    expect(report.removedObjects).toBeGreaterThan(0);
    const reader = openStore(dir).read();
    pages.forEach((page, i) => expect(reader.getObject(page)).toEqual({ id: `p-${i}`, title: `Page ${i}`, children: [] }));
    const source = { node: (hash: string) => reader.getObject<HamtNode>(hash) };
    expect(hamtGet(source, root, 'p-7')).toEqual([pages[7], 'Page 7', '', 'p7']);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('fsck reads the page objects a hash list names: damage to one is reported', async () => {
    const { dir, pages } = await withTrie('fsck-hash-list');
    expect((await fsck(dir)).problems).toEqual([]);
    damage(dir, pages[7] as string, (bytes) => bytes.fill(0x41, 2, 6));
    const problems = (await fsck(dir)).problems;
    expect(problems.length).toBeGreaterThan(0);
    expect(JSON.stringify(problems)).toContain((pages[7] as string).slice(0, 12));
  });
});
