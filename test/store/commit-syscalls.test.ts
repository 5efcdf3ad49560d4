/**
 * The commit path's file work off the event loop (issue 21): a commit's temp file is
 * opened ahead on the thread pool (OpenedFile) and removed there once linked, and commits/
 * stays open for the fsync after each link (DirSync) until the store closes.
 */
import * as fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DirSync, OpenedFile } from '../../src/store/durable.js';
import { errnoError, setFaultInjector } from '../../src/store/fault.js';
import { createStore, openStore } from '../../src/store/index.js';
import { cleanupTempDirs, storePath, tempDir } from './helpers.js';

afterAll(() => cleanupTempDirs());
afterEach(() => setFaultInjector(undefined));

/** This process's descriptors open on `target` (Linux: /proc/self/fd). */
function openOn(target: string): number {
  let count = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(path.join('/proc/self/fd', fd)) === target) count += 1;
    } catch {
      // the descriptor readdir itself used, closed meanwhile
    }
  }
  return count;
}

const linux = process.platform === 'linux';

describe('commit file work', () => {
  it.runIf(linux)('keeps commits/ open across commits, one descriptor, and lets it go when the store closes', async () => {
    const dir = storePath('commit-dirsync');
    const store = createStore(dir);
    const commits = fs.realpathSync(path.join(dir, 'commits'));
    expect(openOn(commits)).toBe(0);
    await store.transact((tx) => tx.put('items', 'a', 1));
    expect(openOn(commits)).toBe(1);
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.transact((tx) => tx.put('items', `k${i}`, i))));
    expect(openOn(commits)).toBe(1);
    await store.close();
    expect(openOn(commits)).toBe(0);
    const again = openStore(dir);
    expect(again.read().get('items', 'k39')).toBe(39);
    await again.close();
  });

  it('leaves no temp file behind once the store closes, with commits in flight two at a time', async () => {
    const dir = storePath('commit-temps');
    const store = createStore(dir);
    const writes: Array<Promise<unknown>> = [];
    for (let i = 0; i < 60; i += 1) {
      writes.push(store.transact((tx) => tx.put('items', `k${i}`, { i })));
      if (i % 7 === 0) await writes[i];
    }
    await Promise.all(writes);
    // A transaction that writes nothing opened a temp file too (before it ran): removed.
    await store.transact(() => 'read only');
    await store.close();
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
    const reopened = openStore(dir);
    expect(reopened.read().entries('items')).toHaveLength(60);
    await reopened.close();
  });

  it('a failed open of the ahead-opened temp file fails that commit, cleanly; the next one commits', async () => {
    const dir = storePath('commit-open-fault');
    const store = createStore(dir);
    await store.transact((tx) => tx.put('items', 'before', 1));
    setFaultInjector((op, file) => (op === 'open' && /[/\\]tmp[/\\]commit-/.test(file) ? errnoError('ENOSPC', 'open', file) : undefined));
    await expect(store.transact((tx) => tx.put('items', 'lost', 1))).rejects.toThrow(/^disk full: nothing was saved \(store unchanged at gen 1\)$/);
    setFaultInjector(undefined);
    await store.transact((tx) => tx.put('items', 'after', 1));
    await store.close();
    const reopened = openStore(dir);
    expect(reopened.read().gen).toBe(2);
    expect(reopened.read().has('items', 'lost')).toBe(false);
    expect(reopened.read().get('items', 'after')).toBe(1);
    await reopened.close();
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
  });
});

/** Calls `fn` with node:fs's synchronous write, fstat, close and link recording what they touch (Linux: fds through /proc). */
async function syncCallsDuring(fn: () => Promise<void>): Promise<string[]> {
  const cjs = createRequire(import.meta.url)('node:fs') as typeof fs;
  const calls: string[] = [];
  const named = (fd: number) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return `fd ${fd}`;
    }
  };
  const originals = { writeSync: cjs.writeSync, fstatSync: cjs.fstatSync, closeSync: cjs.closeSync, linkSync: cjs.linkSync };
  const wrap = <K extends keyof typeof originals>(name: K, target: (args: unknown[]) => string) => {
    const original = originals[name] as (...args: unknown[]) => unknown;
    (cjs as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      calls.push(`${name} ${target(args)}`);
      return original(...args);
    };
  };
  wrap('writeSync', (args) => named(args[0] as number));
  wrap('fstatSync', (args) => named(args[0] as number));
  wrap('closeSync', (args) => named(args[0] as number));
  wrap('linkSync', (args) => String(args[1]));
  syncBuiltinESMExports();
  try {
    await fn();
  } finally {
    Object.assign(cjs, originals);
    syncBuiltinESMExports();
  }
  return calls;
}

describe('commit file write off the event loop', () => {
  it.runIf(linux)('writes, fsyncs, links and closes a commit file with no synchronous fs call (the thread pool does them)', async () => {
    const dir = storePath('commit-pool-write');
    const store = createStore(dir);
    await store.transact((tx) => tx.put('items', 'first', 0));
    const calls = await syncCallsDuring(async () => {
      await Promise.all(Array.from({ length: 30 }, (_, i) => store.transact((tx) => tx.put('items', `k${i}`, { i }))));
      await store.transact((tx) => tx.put('items', 'last', 1));
    });
    const commitFiles = calls.filter((call) => /[/\\](tmp[/\\]commit-[^/\\]*\.tmp|commits[/\\]\d{12}\.json)$/.test(call));
    expect(commitFiles).toEqual([]);
    await store.close();
    const reopened = openStore(dir);
    expect(reopened.read().entries('items')).toHaveLength(32);
    await reopened.close();
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
  });
});

describe('DirSync', () => {
  it('opens the directory again after a failed sync (here: it did not exist yet)', async () => {
    const parent = tempDir('dirsync');
    const dir = path.join(parent, 'later');
    const sync = new DirSync(dir);
    await expect(sync.sync()).rejects.toMatchObject({ code: 'ENOENT' });
    fs.mkdirSync(dir);
    await expect(sync.sync()).resolves.toBeUndefined();
    await Promise.all([sync.sync(), sync.sync(), sync.sync()]);
    if (linux) expect(openOn(fs.realpathSync(dir))).toBe(1);
    await sync.close();
    if (linux) expect(openOn(fs.realpathSync(dir))).toBe(0);
  });
});

describe('OpenedFile', () => {
  it('removes a file nobody wrote (closing it first), and one it wrote', async () => {
    const dir = tempDir('opened');
    const idle = new OpenedFile(path.join(dir, 'idle.tmp'));
    const written = new OpenedFile(path.join(dir, 'written.tmp'));
    await written.write(Buffer.from('x'), true);
    expect(fs.readFileSync(path.join(dir, 'written.tmp'), 'utf8')).toBe('x');
    expect(fs.readdirSync(dir).sort()).toEqual(['idle.tmp', 'written.tmp']);
    await idle.remove();
    await written.remove();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('reports a failed open to its writer; removing it then does nothing and never throws', async () => {
    const dir = tempDir('opened-fault');
    setFaultInjector((op) => (op === 'open' ? errnoError('EACCES', 'open', 'x') : undefined));
    const file = new OpenedFile(path.join(dir, 'denied.tmp'));
    setFaultInjector(undefined);
    await expect(file.write(Buffer.from('x'), true)).rejects.toMatchObject({ code: 'EACCES' });
    await expect(file.remove()).resolves.toBeUndefined();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
