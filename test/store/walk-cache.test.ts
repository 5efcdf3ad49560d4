/**
 * Objects read by a walk over a whole trie (`sharedObject(hash, true)`) are cached only by
 * a long-lived reader (`watch`, or `keepWalked`): a one-shot command walks each trie once
 * and its content reader keeps the nodes it walked, so caching them only cost GC (a fifth
 * of `site tree`'s CPU over 200 spaces of distinct content). Point reads are cached by both.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createStore, openStore, type OpenStoreOptions } from '../../src/store/index.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

/** A store holding `count` objects; their hashes. */
async function storeWithObjects(count: number): Promise<{ dir: string; hashes: string[] }> {
  const dir = storePath();
  const store = createStore(dir, { durable: false });
  const hashes: string[] = [];
  await store.transact((tx) => {
    for (let i = 0; i < count; i++) hashes.push(tx.putObject({ l: { [`page${i}`]: [`${i}`.padStart(64, '0'), { t: `Page ${i}` }] } }));
  });
  await store.close();
  return { dir, hashes };
}

/** How many objects the store reads from its packs while `body` runs. */
function packReads(store: ReturnType<typeof openStore>, body: () => void): number {
  const spy = vi.spyOn(store.packs, 'read');
  try {
    body();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

async function readsOfTwoWalks(options: OpenStoreOptions, walk: boolean): Promise<[number, number]> {
  const { dir, hashes } = await storeWithObjects(50);
  const store = openStore(dir, options);
  try {
    const reader = store.read();
    const readAll = () => {
      for (const hash of hashes) reader.sharedObject?.(hash, walk);
    };
    return [packReads(store, readAll), packReads(store, readAll)];
  } finally {
    await store.close();
  }
}

describe('caching what a whole-trie walk reads', () => {
  it('a one-shot reader does not keep walked objects: a second walk reads them again', async () => {
    expect(await readsOfTwoWalks({}, true)).toEqual([50, 50]);
  });

  it('a long-lived reader (watch) keeps them: a second walk reads nothing', async () => {
    expect(await readsOfTwoWalks({ watch: true }, true)).toEqual([50, 0]);
    expect(await readsOfTwoWalks({ keepWalked: true }, true)).toEqual([50, 0]);
  });

  it('point reads are kept by every reader', async () => {
    expect(await readsOfTwoWalks({}, false)).toEqual([50, 0]);
  });
});
