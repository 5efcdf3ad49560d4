/**
 * pruneCommits drops commit files older than the kept history through the checkpoint's
 * WriteIo: beside serve's commits that is the thread pool (`poolIo`), so ~32 unlinks per
 * checkpoint no longer hold the event loop; a lone CLI checkpoint unlinks synchronously.
 */
import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { pruneCommits } from '../../src/store/checkpoint.js';
import { paths } from '../../src/store/commit-file.js';
import { type WriteIo, poolIo, syncIo } from '../../src/store/durable.js';
import { cleanupTempDirs, tempDir } from './helpers.js';

afterAll(() => cleanupTempDirs());

function storeWithCommits(count: number): string {
  const dir = tempDir('prune');
  fs.mkdirSync(paths.commits(dir), { recursive: true });
  for (let gen = 1; gen <= count; gen += 1) fs.writeFileSync(paths.commit(dir, gen), '{}\n');
  return dir;
}

const kept = (dir: string) => fs.readdirSync(paths.commits(dir)).map((name) => Number(name.slice(0, 12)));

describe('pruneCommits', () => {
  it('unlinks through the io it is given, below the newest checkpoint at or under newest − keep', async () => {
    const dir = storeWithCommits(40);
    const unlinked: string[] = [];
    const io: WriteIo = {
      ...poolIo,
      unlink: (file) => {
        unlinked.push(file);
        return poolIo.unlink(file);
      },
    };
    // Checkpoints at 8, 16, 24, 32; the newest 20 kept: the cut is 16 (≤ 40 − 20).
    const prunedBelow = await pruneCommits(dir, [32, 24, 16, 8], 0, 40, 20, io);
    expect(prunedBelow).toBe(16);
    expect(unlinked).toEqual(Array.from({ length: 15 }, (_, i) => paths.commit(dir, i + 1)));
    expect(kept(dir)).toEqual(Array.from({ length: 25 }, (_, i) => i + 16));
  });

  it('goes on from where a crash left it: files already gone are skipped', async () => {
    const dir = storeWithCommits(40);
    for (let gen = 1; gen <= 5; gen += 1) fs.unlinkSync(paths.commit(dir, gen));
    expect(await pruneCommits(dir, [32, 16], 0, 40, 20, syncIo)).toBe(16);
    expect(kept(dir)[0]).toBe(16);
    expect(await pruneCommits(dir, [32, 16], 16, 40, 20, syncIo)).toBe(16); // nothing more to do
  });
});
