/**
 * Repacking (checkpoint.ts): base packs are merged as `git repack --geometric=2` picks
 * them, and a merge of every pack drops what no kept generation reaches, putObject
 * values included. A long run of page edits and file replacements stays within a
 * small multiple of its live data without `store gc`, keeps a few packs, and loses
 * nothing reachable; in doubt (a damaged object a kept generation names) a merge
 * drops nothing.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SMALL_PACK, markKept, packsToMerge } from '../../src/store/checkpoint.js';
import { createStore, fsck, openStore } from '../../src/store/index.js';
import { type JsonFileStore, parseCommit, paths } from '../../src/store/json-file-store.js';
import { PackFile, listPacks } from '../../src/store/pack-file.js';
import { readCheckpointState } from '../../src/store/pack-set.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(file) : fs.statSync(file).size;
  }
  return total;
}

/** Bytes of the distinct objects the kept generations reach (the live data, history for recover --to included). */
async function liveBytes(store: JsonFileStore, dir: string): Promise<number> {
  const { prunedBelow } = readCheckpointState(dir);
  const newest = store.read().gen;
  const marked = (await markKept(store, dir, Math.max(1, prunedBelow), newest, false)) as Set<string>;
  let total = 0;
  for (const hash of marked) total += Buffer.byteLength(JSON.stringify(store.object(hash)));
  return total;
}

const text = (bytes: number) => randomBytes(bytes / 2).toString('hex');

describe('which packs a checkpoint merges', () => {
  const pack = (mb: number) => ({ bytes: mb * 1024 * 1024 });
  it('merges the small ones while the next is under twice what is merged, never a lone pack', () => {
    expect(packsToMerge([pack(64)])).toEqual([]);
    expect(packsToMerge([pack(64), pack(2)])).toEqual([]); // a small pack beside a big one waits
    expect(packsToMerge([pack(64), pack(2), pack(1.5)])).toEqual([pack(1.5), pack(2)]);
    expect(packsToMerge([pack(64), pack(3.5), pack(2), pack(1.5)])).toEqual([pack(1.5), pack(2), pack(3.5)]);
    expect(packsToMerge([pack(8), pack(6)]).length).toBe(2); // the whole store: a full merge
    // Under SMALL_PACK, packs are merged whatever their sizes.
    expect(packsToMerge([{ bytes: SMALL_PACK / 10 }, { bytes: SMALL_PACK / 2 }]).length).toBe(2);
  });
});

describe('automatic gc in packs (putObject values too)', () => {
  it('keeps a long run of page edits and file replacements within a small multiple of the live data, in a few packs', async () => {
    const dir = storePath('repack');
    const store = createStore(dir, { checkpointEvery: 8, keepCommits: 16 });
    const pages = 40;
    await store.transact((tx) => {
      for (let i = 0; i < pages; i += 1) tx.put('pages', `p${i}`, { body: tx.putObject({ markdown: text(3000) }) });
      tx.put('files', 'logo', { data: tx.putObject({ base64: text(80_000) }) });
    });
    let worst = 0;
    for (let edit = 1; edit <= 400; edit += 1) {
      await store.transact((tx) => {
        tx.put('pages', `p${edit % pages}`, { body: tx.putObject({ markdown: text(3000) }), edit });
        if (edit % 25 === 0) tx.put('files', 'logo', { data: tx.putObject({ base64: text(80_000) }), edit });
      });
      if (edit % 100 === 0) {
        worst = Math.max(worst, bytesUnder(path.join(dir, 'packs')) / (await liveBytes(store, dir)));
        expect(listPacks(dir).length).toBeLessThanOrEqual(4);
      }
    }
    // Garbage waits for the next full merge: at most about what the base holds of live data.
    expect(worst).toBeLessThanOrEqual(3);
    // Nothing reachable went: every page and the file read back, fsck is clean.
    const reader = openStore(dir).read();
    for (const [, row] of reader.entries<{ body: string }>('pages')) expect(reader.getObject<{ markdown: string }>(row.body).markdown).toHaveLength(3000);
    const logo = reader.get<{ data: string }>('files', 'logo');
    expect(reader.getObject<{ base64: string }>(logo?.data as string).base64).toHaveLength(80_000);
    expect((await fsck(dir)).problems).toEqual([]);
    await store.close();
  }, 120_000);

  it('drops nothing while a kept generation names a damaged object (what it names cannot be marked)', async () => {
    const dir = storePath('repack-damaged');
    const store = createStore(dir, { checkpointEvery: 1, keepCommits: 1 });
    const a = await store.transact((tx) => {
      const hash = tx.putObject({ markdown: text(3000), names: tx.putObject({ child: text(200) }) });
      tx.put('pages', 'a', { body: hash });
      return hash;
    });
    await store.close();
    // Damage every copy of `a` in place: the base pack's, and the one in its commit file.
    const spots: Array<[file: string, offset: number, length: number]> = [];
    for (const name of listPacks(dir)) {
      const pack = PackFile.open(dir, name) as PackFile;
      const entry = pack.find(a);
      pack.close();
      if (entry !== undefined) spots.push([path.join(dir, 'packs', `${name}.pack`), entry.offset, entry.length]);
    }
    const commit = fs.readFileSync(paths.commit(dir, 1));
    let offset = commit.indexOf(0x0a) + 1;
    for (const [hash, length] of parseCommit(commit.toString('utf8'), paths.commit(dir, 1), 1).pack ?? []) {
      if (hash === a) spots.push([paths.commit(dir, 1), offset, length]);
      offset += length;
    }
    expect(spots).toHaveLength(2);
    for (const [file, at, length] of spots) {
      const bytes = fs.readFileSync(file);
      bytes.fill(0x78, at, at + length);
      fs.writeFileSync(file, bytes);
    }
    const later = openStore(dir, { checkpointEvery: 1, keepCommits: 1 }); // reads the damaged copy, not a cached one
    for (let i = 0; i < 5; i += 1) await later.transact((tx) => tx.put('files', 'b', { data: tx.putObject({ body: `${i} ${'y'.repeat(100_000)}` }) }));
    await later.close();
    // The five values, four of them replaced, are all kept: every merge was in doubt.
    expect(bytesUnder(path.join(dir, 'packs'))).toBeGreaterThan(5 * 100_000);
    expect((await fsck(dir)).problems.length).toBeGreaterThan(0);
  });
});
