/**
 * Knowing about other writers without a system call per read (issue 21): a long-lived
 * reader (`serve`: `openStore(dir, { watch: true })`) watches commits/ and checks the
 * disk only when the watcher says something changed, or once every RECHECK_MS in case
 * a file system drops events. Another process's commit is seen all the same.
 */
import * as realFs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStore, openStore } from '../../src/store/index.js';
import { RECHECK_MS } from '../../src/store/json-file-store.js';
import { buildWorker, cleanupTempDirs, runWorker, sleep, storePath } from './helpers.js';

const probes = vi.hoisted(() => ({ count: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const existsSync = (file: realFs.PathLike): boolean => {
    probes.count += 1;
    return real.existsSync(file);
  };
  return { ...real, default: { ...real, existsSync }, existsSync };
});

afterAll(() => cleanupTempDirs());

let worker: string;
beforeAll(async () => {
  worker = await buildWorker();
});

async function storeWith(label: string, keys: number): Promise<string> {
  const dir = storePath(label);
  const store = createStore(dir);
  for (let i = 0; i < keys; i += 1) await store.transact((tx) => tx.put('items', `k${i}`, i));
  await store.close();
  return dir;
}

/** Reads `key` `times` times; the disk probes they made and how long they took. */
function readMany(store: ReturnType<typeof openStore>, times: number): { probes: number; ms: number } {
  probes.count = 0;
  const started = performance.now();
  for (let i = 0; i < times; i += 1) expect(store.read().get('items', 'k1')).toBe(1);
  return { probes: probes.count, ms: performance.now() - started };
}

describe('a watching reader', () => {
  it('makes no file-system call per read while nothing changed (at most one check every RECHECK_MS)', async () => {
    const dir = await storeWith('watch-quiet', 3);
    const store = openStore(dir, { watch: true });
    try {
      store.read();
      await sleep(50); // the watcher's first events (if any) are behind us
      const { probes: made, ms } = readMany(store, 20_000);
      expect(made).toBeLessThanOrEqual(2 * (Math.ceil(ms / RECHECK_MS) + 1));
      expect(made).toBeLessThan(20_000 / 10);
    } finally {
      await store.close();
    }
  });

  it('without watch, checks the disk on every read (a short-lived CLI reader)', async () => {
    const dir = await storeWith('watch-off', 3);
    const store = openStore(dir);
    try {
      store.read();
      expect(readMany(store, 1000).probes).toBeGreaterThanOrEqual(1000);
    } finally {
      await store.close();
    }
  });

  it("sees another process's commits (the watcher's event, else the periodic check)", async () => {
    const dir = await storeWith('watch-other', 3);
    const store = openStore(dir, { watch: true });
    try {
      expect(store.read().has('items', 'other-0')).toBe(false);
      const run = runWorker(worker, ['write', dir, 'other', '3']);
      const { code } = await run.done;
      expect(code).toBe(0);
      // One turn of the event loop lets the watcher's event in; past RECHECK_MS the check runs anyway.
      await sleep(RECHECK_MS + 1);
      const reader = store.read();
      for (const key of ['other-0', 'other-1', 'other-2']) expect(reader.has('items', key)).toBe(true);
      expect(reader.get('items', 'k2')).toBe(2);
    } finally {
      await store.close();
    }
  });

  it("sees a commit at once when the writer is this process, and after close stops watching", async () => {
    const dir = await storeWith('watch-self', 1);
    const store = openStore(dir, { watch: true });
    try {
      store.read();
      await store.transact((tx) => tx.put('items', 'mine', true));
      expect(store.read().get('items', 'mine')).toBe(true);
    } finally {
      await store.close();
    }
    expect(() => store.read()).toThrow(/closed/);
  });
});
