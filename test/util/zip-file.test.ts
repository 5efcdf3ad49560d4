/** readZipFile: the same entries and the same refusals as readZip, read from a file entry by entry. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readZipFile } from '../../src/util/zip-file.js';
import { ZipError, readZip, writeZip } from '../../src/util/zip.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);
const dir = tempDir('docsctl-zip-file-');
let n = 0;
const toFile = (data: Uint8Array) => {
  const file = join(dir, `a${++n}.zip`);
  writeFileSync(file, data);
  return file;
};
const enc = new TextEncoder();
const sample = [
  { path: 'README.md', data: enc.encode('# Hello\n') },
  { path: 'docs/a.md', data: enc.encode('A'.repeat(100_000)) },
  { path: 'docs/empty.md', data: new Uint8Array(0) },
  { path: 'assets/bin', data: new Uint8Array(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)) },
];

async function outcome(read: () => unknown): Promise<unknown> {
  try {
    return { entries: await read() };
  } catch (error) {
    if (error instanceof ZipError) return { error: error.message };
    throw error;
  }
}

describe('readZipFile', () => {
  it.each([
    ['a plain archive', writeZip(sample)],
    ['a ZIP64 archive', writeZip(sample, { forceZip64: true })],
    ['an empty archive', writeZip([])],
  ])('reads %s exactly as readZip does', async (_name, zip) => {
    expect(await readZipFile(toFile(zip))).toEqual(readZip(zip));
  });

  it('applies the same limits (total size, entry count) before inflating', async () => {
    const zip = writeZip(sample);
    for (const options of [{ maxTotalSize: 1000 }, { maxEntries: 2 }]) {
      expect(await outcome(() => readZipFile(toFile(zip), options))).toEqual(await outcome(() => readZip(zip, options)));
      expect(await outcome(() => readZipFile(toFile(zip), options))).toHaveProperty('error');
    }
  });

  it('refuses damaged archives with a ZipError, as readZip does', async () => {
    const zip = writeZip(sample);
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 60; round++) {
      const damaged = zip.slice();
      for (let k = 0; k < 3; k++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
      const cut = round % 5 === 0 ? damaged.subarray(0, Math.floor(random() * damaged.length)) : damaged;
      const fromFile = (await outcome(() => readZipFile(toFile(cut)))) as { error?: string };
      const fromMemory = (await outcome(() => readZip(cut))) as { error?: string };
      expect('error' in fromFile).toBe('error' in fromMemory);
    }
  });
});
