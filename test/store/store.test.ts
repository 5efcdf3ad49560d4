import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StoreError, StoreExistsError, StoreNotFoundError } from '../../src/store/errors.js';
import { type BNode, NODE_MAX_BYTES, btreeWalk, isBLeaf } from '../../src/store/btree.js';
import { createStore, fsck, gc, openStore, storeExists, type JsonFileStore, type OpenStoreOptions } from '../../src/store/index.js';
import { HEAD_EVERY, findNewest, listCommitGens, makeCommit, parseCommit, paths } from '../../src/store/json-file-store.js';
import { FORMAT_VERSION } from '../../src/store/commit-file.js';
import { listPacks } from '../../src/store/pack-file.js';
import { readCheckpointState } from '../../src/store/pack-set.js';
import { cleanupTempDirs, storePath, tempDir } from './helpers.js';

afterAll(() => cleanupTempDirs());

const open: JsonFileStore[] = [];
function fresh(options: OpenStoreOptions = {}): { dir: string; store: JsonFileStore } {
  const dir = storePath('unit');
  const store = createStore(dir, options);
  open.push(store);
  return { dir, store };
}
function reopen(dir: string): JsonFileStore {
  const store = openStore(dir);
  open.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

function newestCommit(dir: string) {
  const { gen, text } = findNewest(dir);
  return parseCommit(text!, paths.commit(dir, gen), gen);
}

/** CHECKPOINT's generation (0 when there is none yet). */
const checkpointGen = (dir: string) => readCheckpointState(dir).gen;

/** Every file under the store's directory (relative paths). */
/** The store's files, tmp/ left out: a landed commit's temp file is removed on the thread pool after the answer (`close` waits for it). */
function filesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .filter((file) => !file.startsWith(`tmp${path.sep}`));
}

/** Every B+tree node of a table in the newest commit (read as a fresh process would: loose files and packs). */
function nodesOf(dir: string, table: string): BNode[] {
  const reader = openStore(dir);
  const root = reader.object(newestCommit(dir).root) as { tables: Record<string, string> };
  const nodes: BNode[] = [];
  const source = { bnode: (hash: string) => reader.object(hash) as BNode };
  const top = root.tables[table];
  if (top) btreeWalk(source, top, (_hash, node) => void nodes.push(node));
  return nodes;
}

describe('create / open', () => {
  it('creates the layout with FORMAT and an empty gen 0', async () => {
    const { dir, store } = fresh();
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'FORMAT'), 'utf8'))).toEqual({ format: 'docsctl-store', version: 6 });
    for (const sub of ['commits', 'packs', 'tmp', 'quarantine']) expect(fs.statSync(path.join(dir, sub)).isDirectory()).toBe(true);
    expect(fs.existsSync(path.join(dir, 'objects'))).toBe(false); // no loose objects any more
    expect(store.read().gen).toBe(0);
    expect(store.read().get('t', 'k')).toBeUndefined();
    expect(store.read().entries('t')).toEqual([]);
    expect(storeExists(dir)).toBe(true);
    expect(store.location).toBe(dir);
  });

  it('refuses to create over an existing store or a non-empty directory, creating nothing', () => {
    const { dir } = fresh();
    const before = fs.readdirSync(dir).sort();
    expect(() => createStore(dir)).toThrow(StoreExistsError);
    expect(fs.readdirSync(dir).sort()).toEqual(before);
    const other = tempDir('nonempty');
    fs.writeFileSync(path.join(other, 'notes.txt'), 'hi');
    expect(() => createStore(other)).toThrow(StoreExistsError);
    expect(fs.readdirSync(other)).toEqual(['notes.txt']);
  });

  it('hands out copies of scanned values, or with shared: true the parsed values themselves', async () => {
    const { store } = fresh();
    await store.transact((tx) => {
      tx.put('t', 'a/1', { n: 1 });
      tx.put('t', 'a/2', { n: 2 });
      tx.put('t', 'b/1', { n: 3 });
    });
    const reader = store.read();
    const copied = reader.scan<{ n: number }>('t', { prefix: 'a/' });
    const shared = reader.scan<{ n: number }>('t', { prefix: 'a/', shared: true });
    expect(shared).toEqual(copied);
    expect(reader.scan('t', { prefix: 'a/', shared: true })[0]?.[1]).toBe(shared[0]?.[1]);
    expect(reader.scan('t', { prefix: 'a/' })[0]?.[1]).not.toBe(copied[0]?.[1]);
  });

  it('creates inside an existing empty directory', () => {
    const dir = tempDir('empty');
    const store = createStore(dir);
    open.push(store);
    expect(storeExists(dir)).toBe(true);
  });

  it('finishes a create that was interrupted before FORMAT', () => {
    const { dir } = fresh();
    fs.rmSync(path.join(dir, 'FORMAT'));
    expect(() => openStore(dir)).toThrow(StoreNotFoundError);
    const store = createStore(dir);
    open.push(store);
    expect(store.read().gen).toBe(0);
  });

  it('openStore on a missing or foreign directory is StoreNotFoundError', () => {
    const missing = storePath('missing');
    expect(() => openStore(missing)).toThrow(StoreNotFoundError);
    expect(storeExists(missing)).toBe(false);
    expect(() => openStore(tempDir('foreign'))).toThrow(StoreNotFoundError);
  });

  it('refuses a newer format with a clear message', () => {
    const { dir } = fresh();
    fs.writeFileSync(path.join(dir, 'FORMAT'), `{"format":"docsctl-store","version":${FORMAT_VERSION + 1}}`);
    expect(() => openStore(dir)).toThrow(new RegExp(`format version ${FORMAT_VERSION + 1}, newer than this docsctl supports \\(${FORMAT_VERSION}\\)`));
  });
});

describe('reads and writes', () => {
  it('puts, gets, deletes, lists', async () => {
    const { dir, store } = fresh();
    await store.transact((tx) => {
      tx.put('spaces', 'b', { title: 'B' });
      tx.put('spaces', 'a', { title: 'A', tags: ['x'] });
      tx.put('users', 'u1', 'plain string');
      tx.put('users', 'u2', null);
    });
    let r = store.read();
    expect(r.gen).toBe(1);
    expect(r.get('spaces', 'a')).toEqual({ title: 'A', tags: ['x'] });
    expect(r.get('users', 'u1')).toBe('plain string');
    expect(r.get('users', 'u2')).toBeNull();
    expect(r.has('users', 'u2')).toBe(true);
    expect(r.has('users', 'nope')).toBe(false);
    expect(r.get('nope', 'a')).toBeUndefined();
    expect(r.entries('spaces')).toEqual([
      ['a', { title: 'A', tags: ['x'] }],
      ['b', { title: 'B' }],
    ]);
    const existed = await store.transact((tx) => [tx.delete('spaces', 'a'), tx.delete('spaces', 'zzz')]);
    expect(existed).toEqual([true, false]);
    r = store.read();
    expect(r.gen).toBe(2);
    expect(r.entries('spaces')).toEqual([['b', { title: 'B' }]]);
    // Another instance (as another process would) sees the same state.
    expect(reopen(dir).read().entries('spaces')).toEqual([['b', { title: 'B' }]]);
  });

  it('handles awkward keys and table names', async () => {
    const { dir, store } = fresh();
    const keys = ['__proto__', 'constructor', 'toString', '', '0', '10', '9', 'a/b\\c', 'ünï €', 'x'.repeat(500)];
    await store.transact((tx) => {
      for (const key of keys) tx.put('__proto__', key, { key });
      tx.put('constructor', 'hasOwnProperty', 1);
    });
    const r = reopen(dir).read();
    for (const key of keys) expect(r.get('__proto__', key)).toEqual({ key });
    expect(r.get('constructor', 'hasOwnProperty')).toBe(1);
    expect(r.get('constructor', 'valueOf')).toBeUndefined();
    expect(r.has('__proto__', 'hasOwnProperty')).toBe(false);
    expect(r.entries('__proto__').map(([k]) => k)).toEqual([...keys].sort());
  });

  it('stores content-addressed objects', async () => {
    const { dir, store } = fresh();
    const value = { pages: [{ title: 'Intro', body: 'hello' }] };
    const hash = await store.transact((tx) => {
      const h = tx.putObject(value);
      expect(tx.putObject(value)).toBe(h);
      expect(tx.getObject(h)).toEqual(value); // buffered, visible inside the transaction
      tx.put('revisions', 'r1', { tree: h });
      return h;
    });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    // Packed in the commit file (commit.ts): no file of its own.
    expect(newestCommit(dir).pack?.map(([h]) => h)).toContain(hash);
    expect(filesOf(dir).filter((f) => f.includes(hash))).toEqual([]);
    expect(reopen(dir).read().getObject(hash)).toEqual(value);
    expect(() => store.read().getObject('0'.repeat(64))).toThrow(StoreError);
    expect(() => store.read().getObject('../../etc/passwd')).toThrow(StoreError);
  });

  it('writes a commit whose new objects pass 1 MiB into a pack file of its own, named by the commit (one more file, not one per object)', async () => {
    const { dir, store } = fresh({ checkpointEvery: 32 });
    await store.transact((tx) => tx.put('t', 'small', 1));
    const before = filesOf(dir).length;
    const hashes = await store.transact((tx) => {
      const out: string[] = [];
      for (let i = 0; i < 400; i += 1) out.push(tx.putObject({ i, body: 'x'.repeat(5000) }));
      tx.put('t', 'bodies', out);
      return out;
    });
    const record = newestCommit(dir);
    expect(record.pack).toEqual([]);
    expect(record.packs).toHaveLength(1);
    expect(listPacks(dir)).toEqual(record.packs);
    expect(filesOf(dir).length - before).toBe(3); // the commit file, the pack, its index
    const reader = reopen(dir).read();
    expect(reader.getObject(hashes[399] as string)).toEqual({ i: 399, body: 'x'.repeat(5000) });
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('hands out copies', async () => {
    const { store } = fresh();
    const value = { nested: { list: [1, 2] } };
    await store.transact((tx) => {
      tx.put('t', 'k', value);
      value.nested.list.push(3); // after put: not stored
      const inside = tx.get<typeof value>('t', 'k');
      inside?.nested.list.push(4);
      expect(tx.get('t', 'k')).toEqual({ nested: { list: [1, 2] } });
    });
    const r = store.read();
    const got = r.get<typeof value>('t', 'k');
    got?.nested.list.push(99);
    expect(r.get('t', 'k')).toEqual({ nested: { list: [1, 2] } });
    const rows = r.entries<typeof value>('t');
    rows[0]?.[1].nested.list.push(99);
    expect(r.entries('t')).toEqual([['k', { nested: { list: [1, 2] } }]]);
    const hash = await store.transact((tx) => tx.putObject({ a: [1] }));
    const object = store.read().getObject<{ a: number[] }>(hash);
    object.a.push(2);
    expect(store.read().getObject(hash)).toEqual({ a: [1] });
  });

  it('refuses values JSON cannot hold, and writes after the transaction returned', async () => {
    const { store } = fresh();
    await expect(store.transact((tx) => tx.put('t', 'k', undefined))).rejects.toThrow(TypeError);
    let leaked: { put(t: string, k: string, v: unknown): void } | undefined;
    await store.transact((tx) => {
      leaked = tx;
      tx.put('t', 'a', 1);
    });
    expect(() => leaked?.put('t', 'b', 2)).toThrow(/already finished/);
    expect(store.read().has('t', 'b')).toBe(false);
  });
});

describe('transactions', () => {
  it('keeps snapshots isolated', async () => {
    const { dir, store } = fresh();
    await store.transact((tx) => tx.put('t', 'k', 1));
    const before = store.read();
    const other = reopen(dir);
    const otherBefore = other.read();
    await other.transact((tx) => {
      tx.put('t', 'k', 2);
      tx.put('t', 'new', true);
    });
    expect(before.gen).toBe(1);
    expect(before.get('t', 'k')).toBe(1);
    expect(before.has('t', 'new')).toBe(false);
    expect(otherBefore.entries('t')).toEqual([['k', 1]]);
    const after = store.read();
    expect(after.gen).toBe(2);
    expect(after.get('t', 'k')).toBe(2);
  });

  it('reads its own writes', async () => {
    const { store } = fresh();
    await store.transact((tx) => {
      tx.put('t', 'a', 1);
      tx.put('t', 'b', 2);
    });
    await store.transact((tx) => {
      expect(tx.gen).toBe(1);
      tx.put('t', 'c', 3);
      tx.put('t', 'a', 10);
      expect(tx.delete('t', 'b')).toBe(true);
      expect(tx.delete('t', 'b')).toBe(false);
      expect(tx.get('t', 'a')).toBe(10);
      expect(tx.has('t', 'b')).toBe(false);
      expect(tx.get('t', 'b')).toBeUndefined();
      expect(tx.entries('t')).toEqual([
        ['a', 10],
        ['c', 3],
      ]);
      // Not visible outside until commit.
      expect(store.read().get('t', 'a')).toBe(1);
    });
    expect(store.read().entries('t')).toEqual([
      ['a', 10],
      ['c', 3],
    ]);
  });

  it('commits nothing when fn throws, and rethrows the same error', async () => {
    const { dir, store } = fresh();
    await store.transact((tx) => tx.put('t', 'a', 1));
    const boom = new Error('boom');
    await expect(
      store.transact(async (tx) => {
        tx.put('t', 'a', 2);
        tx.putObject({ big: 'object' });
        await Promise.resolve();
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(store.read().gen).toBe(1);
    expect(store.read().get('t', 'a')).toBe(1);
    expect(fs.readdirSync(path.join(dir, 'commits'))).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
    await store.transact((tx) => tx.put('t', 'b', 1)); // lock released
    expect(store.read().gen).toBe(2);
  });

  it('commits nothing when nothing was written', async () => {
    const { dir, store } = fresh();
    await store.transact((tx) => tx.put('t', 'a', 1));
    const result = await store.transact((tx) => tx.get('t', 'a'));
    expect(result).toBe(1);
    expect(await store.transact((tx) => tx.delete('t', 'missing'))).toBe(false);
    expect(store.read().gen).toBe(1);
    expect(fs.readdirSync(path.join(dir, 'commits'))).toHaveLength(1);
  });

  it('serialises concurrent transactions in one process', async () => {
    const { dir, store } = fresh();
    const other = reopen(dir); // a second instance competes through the file lock
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? other : store).transact(async (tx) => {
          const n = tx.get<number>('t', 'counter') ?? 0;
          await new Promise((resolve) => setTimeout(resolve, 1));
          tx.put('t', 'counter', n + 1);
        }),
      ),
    );
    expect(store.read().get('t', 'counter')).toBe(40);
    // Transactions queued together in one instance share a commit (group commit).
    expect(store.read().gen).toBeGreaterThanOrEqual(2);
    expect(store.read().gen).toBeLessThan(40);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('commits concurrent transactions in groups: each sees the ones before it, a failing one is left out', async () => {
    const { store } = fresh();
    await store.transact((tx) => tx.put('t', 'counter', 0));
    const gen = store.read().gen;
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        store.transact(
          (tx) => {
            const n = tx.get<number>('t', 'counter') as number;
            tx.put('t', 'counter', n + 1);
            tx.put('log', String(i).padStart(2, '0'), n);
            if (i === 7) throw new Error('seven fails');
            return n;
          },
          { txId: `tx-${i}` },
        ),
      ),
    );
    expect(results[7]).toMatchObject({ status: 'rejected', reason: { message: 'seven fails' } });
    const values = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value);
    expect(values).toEqual(Array.from({ length: 29 }, (_, i) => i)); // in order, each seeing the previous
    const reader = store.read();
    expect(reader.get('t', 'counter')).toBe(29);
    expect(reader.has('log', '07')).toBe(false);
    expect(reader.scan('log').map(([, n]) => n)).toEqual(values);
    expect(reader.gen - gen).toBeLessThan(30); // fewer commits than transactions
    expect(reader.gen - gen).toBeGreaterThanOrEqual(1);
    // Retried ids give the recorded results without running again.
    expect(await store.transact(() => -1, { txId: 'tx-3' })).toBe(3);
  });

  it('re-runs fn when another writer took the generation (link compare-and-swap)', async () => {
    const { dir, store } = fresh();
    await store.transact((tx) => tx.put('t', 'a', 1));
    let runs = 0;
    await store.transact((tx) => {
      runs += 1;
      if (runs === 1) {
        // Simulate a writer that ignored the lock: publish gen 2 (same root) now.
        const { gen, text } = findNewest(dir);
        const current = parseCommit(text!, paths.commit(dir, gen), gen);
        const record = makeCommit({ gen: gen + 1, parent: current.sum, root: current.root, at: new Date().toISOString() });
        fs.writeFileSync(paths.commit(dir, gen + 1), JSON.stringify(record), { mode: 0o600 });
      }
      tx.put('t', 'n', tx.gen);
    });
    expect(runs).toBe(2);
    const r = store.read();
    expect(r.gen).toBe(3);
    expect(r.get('t', 'n')).toBe(2);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('applies a transaction id once', async () => {
    const { store } = fresh();
    let runs = 0;
    const fn = (tx: { put(t: string, k: string, v: unknown): void }) => {
      runs += 1;
      tx.put('t', `run${runs}`, true);
      return { created: `run${runs}` };
    };
    expect(await store.transact(fn, { txId: 'req-1' })).toEqual({ created: 'run1' });
    expect(await store.transact(fn, { txId: 'req-1' })).toEqual({ created: 'run1' });
    expect(runs).toBe(1);
    expect(store.read().gen).toBe(1);
    await store.transact(fn, { txId: 'req-2' });
    expect(runs).toBe(2);
    // Older ids are remembered across commits without ids.
    await store.transact((tx) => tx.put('t', 'plain', 1));
    expect(await store.transact(fn, { txId: 'req-1' })).toEqual({ created: 'run1' });
    expect(await store.transact(() => 'never', { txId: 'req-2' })).toEqual({ created: 'run2' });
  });

  it('finds the newest commit when HEAD is behind, missing or garbled', async () => {
    const { dir, store } = fresh();
    for (let i = 0; i < 3; i += 1) await store.transact((tx) => tx.put('t', `k${i}`, i));
    fs.writeFileSync(path.join(dir, 'HEAD'), '1\n');
    expect(reopen(dir).read().gen).toBe(3);
    fs.writeFileSync(path.join(dir, 'HEAD'), 'garbage');
    expect(reopen(dir).read().gen).toBe(3);
    fs.writeFileSync(path.join(dir, 'HEAD'), '99\n');
    expect(reopen(dir).read().gen).toBe(3);
    fs.rmSync(path.join(dir, 'HEAD'));
    const again = reopen(dir);
    expect(again.read().gen).toBe(3);
    await again.transact((tx) => tx.put('t', 'k3', 3));
    expect(again.read().gen).toBe(4);
    expect(fs.existsSync(path.join(dir, 'HEAD'))).toBe(false); // a hint, rewritten every HEAD_EVERY commits
  });

  it(`rewrites HEAD every ${HEAD_EVERY} commits, and readers find the commits past it`, async () => {
    const { dir, store } = fresh();
    for (let i = 1; i <= HEAD_EVERY + 3; i += 1) {
      await store.transact((tx) => tx.put('t', `k${i}`, i));
      const head = fs.existsSync(path.join(dir, 'HEAD')) ? Number(fs.readFileSync(path.join(dir, 'HEAD'), 'utf8')) : 0;
      expect(head).toBe(i >= HEAD_EVERY ? HEAD_EVERY : 0);
      const reader = reopen(dir);
      expect(reader.read().gen).toBe(i);
      expect(reader.read().get('t', `k${i}`)).toBe(i);
    }
  });

  it('tells a table\'s version: unchanged by writes to other tables, changed by its own, the same for the same rows', async () => {
    const { store } = fresh();
    await store.transact((tx) => tx.put('tokens', 'a', 1));
    const first = store.read().tableVersion?.('tokens');
    await store.transact((tx) => tx.put('spaces', 's1', { title: 'x' }));
    expect(store.read().tableVersion?.('tokens')).toBe(first);
    await store.transact((tx) => tx.put('tokens', 'b', 2));
    expect(store.read().tableVersion?.('tokens')).not.toBe(first);
    await store.transact((tx) => tx.delete('tokens', 'b'));
    expect(store.read().tableVersion?.('tokens')).toBe(first);
    expect(store.read().tableVersion?.('none')).toBe(store.read().tableVersion?.('other-none'));
    await store.transact((tx) => {
      expect(tx.tableVersion?.('tokens')).toBe(first);
      tx.put('tokens', 'c', 3);
      expect(tx.tableVersion?.('tokens')).toBeUndefined(); // buffered rows have no version yet
    });
  });

  it('finds the newest commit when HEAD names a generation whose commit files were pruned (never forks history)', async () => {
    const { dir, store } = fresh({ checkpointEvery: 2, keepCommits: 3 });
    for (let i = 1; i <= 12; i += 1) await store.transact((tx) => tx.put('t', `k${i}`, i));
    expect(listCommitGens(dir)[0]).toBeGreaterThan(2);
    for (const hint of ['0\n', '1\n', '2\n']) {
      fs.writeFileSync(path.join(dir, 'HEAD'), hint);
      const writer = reopen(dir);
      expect(writer.read().gen).toBe(12);
      expect(writer.read().get('t', 'k12')).toBe(12);
    }
    await reopen(dir).transact((tx) => tx.put('t', 'k13', 13));
    expect(listCommitGens(dir).at(-1)).toBe(13);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('reads a version 1 store (loose objects, no packs), upgrades it at its first write and folds its loose objects into a pack at its first checkpoint', async () => {
    const { dir, store } = fresh();
    await store.transact((tx) => {
      for (let i = 0; i < 50; i += 1) tx.put('t', `k${i}`, { i, pad: 'p'.repeat(100) });
    });
    await store.close();
    // Rewrite it as the first release wrote it: every object a loose file, a commit record without a pack, FORMAT 1.
    const record = newestCommit(dir);
    const source = openStore(dir);
    const walk = (hash: string) => {
      const bytes = JSON.stringify(source.object(hash));
      fs.mkdirSync(path.join(dir, 'objects', hash.slice(0, 2)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'objects', hash.slice(0, 2), `${hash}.json`), bytes);
      const value = source.object(hash) as { tables?: Record<string, string>; c?: string[] };
      for (const child of [...Object.values(value.tables ?? {}), ...(value.c ?? [])]) walk(child);
    };
    walk(record.root);
    await source.close();
    const { pack: _pack, sum: _sum, ...fields } = record;
    fs.writeFileSync(paths.commit(dir, 1), JSON.stringify(makeCommit(fields)));
    fs.writeFileSync(path.join(dir, 'FORMAT'), '{"format":"docsctl-store","version":1}\n');
    fs.rmSync(path.join(dir, 'packs'), { recursive: true });
    const old = reopen(dir);
    expect(old.read().entries('t')).toHaveLength(50);
    await old.transact((tx) => tx.put('t', 'new', true));
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'FORMAT'), 'utf8')).version).toBe(FORMAT_VERSION);
    expect(fs.existsSync(path.join(dir, 'objects'))).toBe(true); // read as they are until a checkpoint
    expect(newestCommit(dir).pack?.length).toBeGreaterThan(0);
    const upgraded = openStore(dir, { checkpointEvery: 1 });
    open.push(upgraded);
    await upgraded.transact((tx) => tx.put('t', 'newer', true));
    expect(fs.existsSync(path.join(dir, 'objects'))).toBe(false); // folded into the base pack
    expect(readCheckpointState(dir)).toMatchObject({ gen: 3, packs: [expect.stringMatching(/^pack-/)] });
    const fresh2 = reopen(dir).read();
    expect(fresh2.entries('t')).toHaveLength(52);
    expect(fresh2.get('t', 'k7')).toEqual({ i: 7, pad: 'p'.repeat(100) });
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('reads a version 2 store (inline packs, loose objects, CHECKPOINT as text) and converts it at its first checkpoint', async () => {
    const { dir, store } = fresh();
    for (let i = 0; i < 3; i += 1) await store.transact((tx) => tx.put('t', `k${i}`, { i, pad: 'p'.repeat(100) }));
    await store.close();
    // What version 2 left: gens 1..2 made loose by a checkpoint at 2 (text CHECKPOINT), gen 3 packed inline.
    const source = openStore(dir);
    const rootOf = (gen: number) => parseCommit(fs.readFileSync(paths.commit(dir, gen), 'utf8'), paths.commit(dir, gen), gen).root;
    const walk = (hash: string) => {
      fs.mkdirSync(path.join(dir, 'objects', hash.slice(0, 2)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'objects', hash.slice(0, 2), `${hash}.json`), JSON.stringify(source.object(hash)));
      const value = source.object(hash) as { tables?: Record<string, string>; c?: string[] };
      for (const child of [...Object.values(value.tables ?? {}), ...(value.c ?? [])]) walk(child);
    };
    walk(rootOf(2));
    await source.close();
    fs.writeFileSync(path.join(dir, 'CHECKPOINT'), '2\n');
    fs.writeFileSync(path.join(dir, 'FORMAT'), '{"format":"docsctl-store","version":2}\n');
    fs.rmSync(path.join(dir, 'packs'), { recursive: true });
    for (const gen of [1, 2]) fs.rmSync(paths.commit(dir, gen)); // pruned: their objects are loose
    expect(reopen(dir).read().entries('t')).toHaveLength(3);
    const upgraded = openStore(dir, { checkpointEvery: 1 });
    open.push(upgraded);
    await upgraded.transact((tx) => tx.put('t', 'k3', { i: 3 }));
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'FORMAT'), 'utf8')).version).toBe(FORMAT_VERSION);
    expect(fs.existsSync(path.join(dir, 'objects'))).toBe(false);
    expect(readCheckpointState(dir)).toMatchObject({ gen: 4, packs: [expect.stringMatching(/^pack-/)], history: [2] });
    expect(reopen(dir).read().entries('t')).toHaveLength(4);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('a reader finds objects packed by another process, before and after their checkpoint', async () => {
    const { dir, store } = fresh({ checkpointEvery: 4 });
    const reader = reopen(dir);
    for (let i = 0; i < 10; i += 1) {
      await store.transact((tx) => tx.put('t', `k${i}`, i));
      const seen = reader.read();
      expect(seen.gen).toBe(i + 1);
      expect(seen.entries('t').map(([, v]) => v)).toEqual(Array.from({ length: i + 1 }, (_, j) => j));
    }
    expect(readCheckpointState(dir)).toMatchObject({ gen: 8, history: [4] }); // the checkpoint, then earlier ones
    // A new process that starts after the checkpoint indexes only the packs after it.
    expect(reopen(dir).read().get('t', 'k9')).toBe(9);
  });

  it('counts what the commits after CHECKPOINT packed: a few medium commits wait, then one checkpoint covers them', async () => {
    const { dir, store } = fresh({ checkpointEvery: 32 });
    await store.transact((tx) => tx.put('t', 'small', 1));
    for (let batch = 0; batch < 4; batch += 1) {
      await store.transact((tx) => {
        for (let i = 0; i < 300; i += 1) tx.put('rows', `b${batch}-${String(i).padStart(4, '0')}`, 'x'.repeat(2000));
      });
      // ~600 KB each: three stay packed (1.8 MB), the fourth passes 2 MiB.
      expect(checkpointGen(dir)).toBe(batch < 3 ? 0 : 5);
    }
    expect(reopen(dir).read().get('rows', 'b0-0000')).toBe('x'.repeat(2000));
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('drops commit files older than the newest keepCommits at its checkpoints; every kept generation stays whole', async () => {
    const { dir, store } = fresh({ checkpointEvery: 4, keepCommits: 8 });
    const early = reopen(dir);
    await store.transact((tx) => tx.put('u', 'first', true));
    expect(early.read().get('u', 'first')).toBe(true); // indexes gen 1's pack, which goes below
    for (let i = 0; i < 40; i += 1) {
      await store.transact((tx) => {
        tx.put('t', `k${i % 7}`, { i, pad: 'x'.repeat(300) });
        tx.put('u', `n${i}`, i);
      });
    }
    const gens = listCommitGens(dir);
    expect(gens.at(-1)).toBe(41);
    // Checkpoints at 4, 8, … 40: the cut is the newest one at or below 41 - 8, gen 32.
    expect(gens).toEqual(Array.from({ length: 10 }, (_, i) => 32 + i));
    expect(readCheckpointState(dir)).toMatchObject({ gen: 40, history: [36, 32, 28, 24, 20, 16, 12, 8, 4], prunedBelow: 32 });
    expect((await fsck(dir)).problems).toEqual([]);
    // gc verifies every kept commit's whole state first (it stops on a missing object).
    await gc(dir, { keepCommits: 1000, minAgeMs: 3_600_000 });
    expect(early.read().entries('u')).toHaveLength(41);
    expect(reopen(dir).read().get('t', 'k4')).toEqual({ i: 39, pad: 'x'.repeat(300) });
  });

  it('stays flat over a long run of edits: a few packs, superseded nodes dropped by the merges', async () => {
    const { dir, store } = fresh({ checkpointEvery: 4, keepCommits: 8, durable: false }); // fsyncs would only slow it
    await store.transact((tx) => {
      for (let i = 0; i < 300; i += 1) tx.put('t', `k${String(i).padStart(3, '0')}`, { i, pad: 'x'.repeat(100) });
    });
    const packBytes = () => fs.readdirSync(path.join(dir, 'packs')).reduce((n, f) => n + fs.statSync(path.join(dir, 'packs', f)).size, 0);
    const edit = async (count: number, round: number) => {
      for (let i = 0; i < count; i += 1) {
        await store.transact((tx) => tx.put('t', `k${String((i * 37 + round) % 300).padStart(3, '0')}`, { i, round, pad: 'y'.repeat(100) }));
      }
    };
    await edit(100, 1);
    const early = packBytes();
    await edit(300, 2);
    // Every checkpoint adds a pack of the leaves it found live; merges fold them and drop the superseded ones.
    expect(packBytes()).toBeLessThanOrEqual(early * 2.5);
    expect(listPacks(dir).length).toBeLessThanOrEqual(4);
    expect((await fsck(dir)).problems).toEqual([]);
    // A full gc finds what the last full merge left, and verifies every kept commit whole first.
    const report = await gc(dir, { keepCommits: 8, minAgeMs: 0 });
    expect(report.removedObjects).toBeLessThan(400);
    expect(reopen(dir).read().get('t', 'k265')).toEqual({ i: 299, round: 2, pad: 'y'.repeat(100) }); // the last edit
  });

  it('can skip fsync for bulk fixture generation (durable: false)', async () => {
    const dir = storePath('bulk');
    const store = createStore(dir, { durable: false });
    open.push(store);
    for (let i = 0; i < 20; i += 1) await store.transact((tx) => tx.put('t', `k${i}`, i));
    expect(reopen(dir).read().entries('t')).toHaveLength(20);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('rejects use after close', async () => {
    const { store } = fresh();
    await store.close();
    expect(() => store.read()).toThrow(/closed/);
    await expect(store.transact(() => undefined)).rejects.toThrow(/closed/);
  });
});

describe('B+tree tables', () => {
  it('splits into a tree with thousands of keys, lists them sorted, and shrinks back', async () => {
    const { dir, store } = fresh();
    const keys = Array.from({ length: 3000 }, (_, i) => `space-${(i * 7919) % 3000}`);
    await store.transact((tx) => {
      for (const key of keys) tx.put('spaces', key, { id: key });
    });
    // Then many small transactions touching a few keys each.
    for (let i = 0; i < 20; i += 1) {
      await store.transact((tx) => {
        tx.put('spaces', `extra-${i}`, { i });
        tx.put('spaces', keys[i * 3] as string, { id: keys[i * 3], updated: i });
      });
    }
    const fresh2 = reopen(dir).read();
    const rows = fresh2.entries<{ id?: string }>('spaces');
    expect(rows).toHaveLength(3020);
    const names = rows.map(([k]) => k);
    expect(names).toEqual([...names].sort());
    for (const key of keys.slice(0, 200)) expect(fresh2.get<{ id: string }>('spaces', key)?.id).toBe(key);
    expect(fresh2.get('spaces', 'extra-19')).toEqual({ i: 19 });
    const nodes = nodesOf(dir, 'spaces');
    const leaves = nodes.filter(isBLeaf);
    expect(nodes.length).toBeGreaterThan(leaves.length); // inner nodes exist
    for (const node of nodes) expect(JSON.stringify(node).length).toBeLessThanOrEqual(NODE_MAX_BYTES + 100);
    // A one-key write path-copies only a few nodes.
    await store.transact((tx) => tx.put('spaces', 'one-more', 1));
    expect(newestCommit(dir).pack?.length).toBeLessThanOrEqual(4); // leaf, inner nodes, root object
    // Delete nearly everything: the tree merges back into a small one.
    await store.transact((tx) => {
      for (const [key] of rows.slice(5)) tx.delete('spaces', key);
      tx.delete('spaces', 'one-more');
    });
    const left = reopen(dir).read().entries('spaces');
    expect(left.map(([k]) => k)).toEqual(names.slice(0, 5));
    expect(nodesOf(dir, 'spaces')).toHaveLength(1);
    await store.transact((tx) => {
      for (const [key] of left) tx.delete('spaces', key);
    });
    expect(store.read().entries('spaces')).toEqual([]);
    expect(nodesOf(dir, 'spaces')).toHaveLength(0);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('writes the same bytes for the same content (shared, deduplicated nodes)', async () => {
    const a = fresh();
    const b = fresh();
    await a.store.transact((tx) => {
      for (let i = 0; i < 100; i += 1) tx.put('t', `k${i}`, i);
    });
    for (let i = 99; i >= 0; i -= 10) {
      await b.store.transact((tx) => {
        for (let j = i; j > i - 10; j -= 1) tx.put('t', `k${j}`, j);
      });
    }
    const rootOf = (dir: string) => {
      const { gen, text } = findNewest(dir);
      return parseCommit(text!, paths.commit(dir, gen), gen).root;
    };
    expect(rootOf(a.dir)).toBe(rootOf(b.dir));
  });
});
