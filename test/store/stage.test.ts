/**
 * Staging (stage.ts): objects written into a pack ahead of their transaction, outside
 * the writer lock. The transaction adopts the sealed pack and its commit names it; a
 * pack no commit adopted is removed by `release`, or, left by a crash, by `store gc`
 * once old; a checkpoint makes an adopted pack a base pack as it is, without copying it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStore, fsck, gc, openStore } from '../../src/store/index.js';
import { findNewest, parseCommit, paths } from '../../src/store/json-file-store.js';
import { listPacks } from '../../src/store/pack-file.js';
import { readCheckpointState } from '../../src/store/pack-set.js';
import { buildWorker, cleanupTempDirs, runWorker, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

let worker: string;
beforeAll(async () => {
  worker = await buildWorker();
});

function newestCommit(dir: string) {
  const { gen, text } = findNewest(dir);
  return parseCommit(text!, paths.commit(dir, gen), gen);
}

const filesIn = (dir: string) => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

describe('staging objects ahead of a transaction', () => {
  it('writes them into a pack the commit names: three files whatever their number, readable by another process', async () => {
    const dir = storePath('stage');
    const store = createStore(dir);
    const before = filesIn(dir);
    const stager = store.stage();
    const hashes: string[] = [];
    for (let i = 0; i < 2000; i += 1) {
      hashes.push(stager.putObject({ markdown: `page ${i} ${'text '.repeat(100)}` }));
      await stager.pause();
    }
    const trie = stager.putObject({ pages: hashes });
    expect(stager.getObject<{ pages: string[] }>(trie).pages).toHaveLength(2000); // readable before it is sealed
    const staged = await stager.seal();
    expect(staged.objects).toBe(2001);
    expect(store.read().has('t', 'k')).toBe(false); // nothing committed yet
    await store.transact((tx) => {
      tx.adopt(staged);
      tx.put('t', 'k', { trie });
    });
    stager.release(); // committed: stays
    const record = newestCommit(dir);
    expect(record.packs).toHaveLength(1);
    expect(listPacks(dir)).toEqual(record.packs);
    expect(filesIn(dir) - before).toBe(3); // the staged pack, its index, the commit file
    await store.close();
    const reader = openStore(dir).read();
    const { trie: read } = reader.get<{ trie: string }>('t', 'k') as { trie: string };
    expect(reader.getObject<{ markdown: string }>(reader.getObject<{ pages: string[] }>(read).pages[1999] as string).markdown).toMatch(/^page 1999 /);
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('removes what no commit adopted when released: a transaction that failed, or never ran', async () => {
    const dir = storePath('stage-release');
    const store = createStore(dir);
    const stager = store.stage();
    const hash = stager.putObject({ body: 'never committed' });
    const staged = await stager.seal();
    await expect(
      store.transact((tx) => {
        tx.adopt(staged);
        tx.put('t', 'k', hash);
        throw new Error('the handler failed');
      }),
    ).rejects.toThrow('the handler failed');
    expect(listPacks(dir)).toHaveLength(1);
    stager.release();
    expect(fs.readdirSync(path.join(dir, 'packs'))).toEqual([]);
    const unsealed = store.stage();
    unsealed.putObject({ body: 'x'.repeat(3 * 1024 * 1024) }); // big enough to reach the disk before seal
    await unsealed.pause();
    unsealed.release();
    // A write still on its way is let finish first (PackWriter.abort): the pack goes right after.
    await vi.waitFor(() => expect(fs.readdirSync(path.join(dir, 'packs'))).toEqual([]), { timeout: 2000 });
    await store.close();
  });

  it('a checkpoint makes the adopted pack a base pack as it is, and packs only what the commits wrote inline', async () => {
    const dir = storePath('stage-checkpoint');
    const store = createStore(dir, { checkpointEvery: 2 });
    const stager = store.stage();
    const bodies = Array.from({ length: 800 }, (_, i) => stager.putObject({ markdown: `${i} ${'x'.repeat(2000)}` })); // 1.6 MB: past SMALL_PACK
    const staged = await stager.seal();
    await store.transact((tx) => {
      tx.adopt(staged);
      tx.put('pages', 'all', bodies);
    });
    stager.release();
    const [name] = newestCommit(dir).packs ?? [];
    const size = fs.statSync(path.join(dir, 'packs', `${name}.pack`)).size;
    await store.transact((tx) => tx.put('t', 'other', 1)); // gen 2: the checkpoint
    await store.close();
    const state = readCheckpointState(dir);
    expect(state.gen).toBe(2);
    expect(state.packs).toContain(name as string); // adopted as it is
    expect(fs.statSync(path.join(dir, 'packs', `${name}.pack`)).size).toBe(size);
    const others = state.packs.filter((pack) => pack !== name).map((pack) => fs.statSync(path.join(dir, 'packs', `${pack}.pack`)).size);
    expect(others.reduce((a, b) => a + b, 0)).toBeLessThan(size / 20); // the table nodes and roots only
    expect(openStore(dir).read().getObject(bodies[499] as string)).toEqual({ markdown: `499 ${'x'.repeat(2000)}` });
    expect((await fsck(dir)).problems).toEqual([]);
  });

  it('a staged pack a crash left behind is named by nothing: the store reads and checks clean, gc removes it once old', async () => {
    const dir = storePath('stage-crash');
    await createStore(dir).close();
    const run = runWorker(worker, ['stage', dir], { DOCSCTL_STORE_FAULT: 'crash@mid-stage' });
    expect((await run.done).signal).toBe('SIGKILL');
    expect(listPacks(dir)).toHaveLength(1);
    expect(openStore(dir).read().gen).toBe(0);
    expect((await fsck(dir)).problems).toEqual([]);
    // A checkpoint leaves a staged pack alone (another process may be about to commit it).
    const writer = openStore(dir, { checkpointEvery: 1 });
    await writer.transact((tx) => tx.put('t', 'k', 1));
    await writer.close();
    expect(listPacks(dir).filter((name) => /-s-/.test(name))).toHaveLength(1);
    expect((await gc(dir)).removedBytes).toBeGreaterThan(0); // old enough? not yet: only what gc always removes
    expect(listPacks(dir).filter((name) => /-s-/.test(name))).toHaveLength(1);
    await gc(dir, { minAgeMs: 0 });
    expect(listPacks(dir).filter((name) => /-s-/.test(name))).toEqual([]);
    expect(openStore(dir).read().get('t', 'k')).toBe(1);
    expect((await fsck(dir)).problems).toEqual([]);
  });
});
