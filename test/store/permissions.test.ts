/** Files 0600 and directories 0700 whatever the umask; an existing open directory is tightened. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, openStore } from '../../src/store/index.js';
import { buildWorker, cleanupTempDirs, runWorker, storePath, tempDir, walk } from './helpers.js';

afterAll(() => cleanupTempDirs());

let worker: string;
beforeAll(async () => {
  worker = await buildWorker();
});

describe.skipIf(process.platform === 'win32')('permissions', () => {
  for (const umask of ['000', '022', '077']) {
    it(`umask ${umask}: store dir and subdirs 0700, every file 0600`, async () => {
      const dir = storePath(`umask${umask}`);
      const run = runWorker(worker, ['create', dir, umask]);
      expect(await run.done, run.stderr()).toEqual({ code: 0, signal: null });
      // More commits from another process under the same umask.
      const more = runWorker(worker, ['write', dir, 'more', '3'], { TEST_UMASK: umask });
      expect((await more.done).code).toBe(0);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      const entries = walk(dir);
      expect(entries.filter((e) => e.stat.isFile()).length).toBeGreaterThan(6);
      expect(entries.some((e) => /^packs\/pack-.*\.pack$/.test(e.path) && e.stat.isFile())).toBe(true);
      expect(entries.some((e) => /^packs\/pack-.*\.idx$/.test(e.path) && e.stat.isFile())).toBe(true);
      expect(entries.some((e) => e.path === 'CHECKPOINT')).toBe(true);
      for (const entry of entries) {
        const mode = entry.stat.mode & 0o777;
        expect(`${entry.path} ${mode.toString(8)}`).toBe(`${entry.path} ${entry.stat.isDirectory() ? '700' : '600'}`);
      }
    });
  }

  it('tightens an existing store directory that others can read', async () => {
    const dir = path.join(tempDir('loose'), 'store');
    await createStore(dir).close();
    fs.chmodSync(dir, 0o755);
    await openStore(dir).close();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });
});
