/**
 * The automatic gc of loose objects no kept generation reaches, putObject values
 * included (sweep-unreachable.ts): a long run of page edits and file replacements
 * stays within twice its live data without `store gc`, and nothing reachable goes.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, fsck, openStore } from '../../src/store/index.js';
import type { JsonFileStore } from '../../src/store/json-file-store.js';
import { readCheckpointState } from '../../src/store/pack.js';
import { markKept, readSweepState } from '../../src/store/sweep-unreachable.js';
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
function liveBytes(store: JsonFileStore, dir: string): number {
  const { gen, prunedBelow } = readCheckpointState(dir);
  const newest = store.read().gen;
  expect(gen).toBeGreaterThan(0);
  const marked = markKept(store, dir, prunedBelow, newest) as Set<string>;
  let total = 0;
  for (const hash of marked) total += Buffer.byteLength(JSON.stringify(store.object(hash)));
  return total;
}

const text = (bytes: number) => randomBytes(bytes / 2).toString('hex');

describe('automatic gc of unreachable loose objects (putObject values too)', () => {
  it('keeps a long run of page edits and file replacements within twice the live data (loose objects against the distinct objects the kept generations reach)', async () => {
    const dir = storePath('sweep');
    const store = createStore(dir, { checkpointEvery: 8, keepCommits: 16 });
    const pages = 40;
    await store.transact((tx) => {
      for (let i = 0; i < pages; i += 1) tx.put('pages', `p${i}`, { body: tx.putObject({ markdown: text(3000) }) });
      tx.put('files', 'logo', { data: tx.putObject({ base64: text(80_000) }) }); // over 64 KiB: a loose file
    });
    let worst = 0;
    for (let edit = 1; edit <= 400; edit += 1) {
      await store.transact((tx) => {
        tx.put('pages', `p${edit % pages}`, { body: tx.putObject({ markdown: text(3000) }), edit });
        if (edit % 25 === 0) tx.put('files', 'logo', { data: tx.putObject({ base64: text(80_000) }), edit });
      });
      if (edit % 100 === 0) {
        worst = Math.max(worst, bytesUnder(path.join(dir, 'objects')) / liveBytes(store, dir));
      }
    }
    expect(worst).toBeLessThanOrEqual(2); // 0.9 with the sweep; 6.7 without it at 400 edits, and growing
    expect(readSweepState(dir).live).toBeGreaterThan(0); // it swept
    // Nothing reachable went: every page and the file read back, fsck is clean.
    const reader = openStore(dir).read();
    for (const [, row] of reader.entries<{ body: string }>('pages')) expect(reader.getObject<{ markdown: string }>(row.body).markdown).toHaveLength(3000);
    const logo = reader.get<{ data: string }>('files', 'logo');
    expect(reader.getObject<{ base64: string }>(logo?.data as string).base64).toHaveLength(80_000);
    expect((await fsck(dir)).problems).toEqual([]);
    await store.close();
  }, 120_000);

  it('removes nothing while a kept generation names a damaged object (what it names cannot be marked)', async () => {
    const dir = storePath('sweep-damaged');
    const store = createStore(dir, { checkpointEvery: 1, keepCommits: 1 });
    const a = await store.transact((tx) => {
      const hash = tx.putObject({ markdown: text(3000), names: tx.putObject({ child: text(200) }) });
      tx.put('pages', 'a', { body: hash });
      return hash;
    });
    const file = path.join(dir, 'objects', a.slice(0, 2), `${a}.json`);
    fs.writeFileSync(file, 'x'.repeat(fs.statSync(file).size)); // damaged in place
    const bigFiles = () => fs.readdirSync(path.join(dir, 'objects')).flatMap((p) => fs.readdirSync(path.join(dir, 'objects', p)).map((n) => path.join(dir, 'objects', p, n))).filter((f) => fs.statSync(f).size >= 100_000);
    await store.close();
    const later = openStore(dir, { checkpointEvery: 1, keepCommits: 1 }); // reads the damaged file, not a cached copy
    for (let i = 0; i < 5; i += 1) await later.transact((tx) => tx.put('files', 'b', { data: tx.putObject({ body: `${i} ${'y'.repeat(100_000)}` }) }));
    expect(bigFiles()).toHaveLength(5); // four replaced values kept: the sweep stopped
    expect((await fsck(dir)).problems.map((p) => p.path)).toEqual([file]);
    await later.close();
  });
});
