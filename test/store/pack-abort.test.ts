/**
 * PackWriter.abort while an open or a write is still on the thread pool: the pack is removed
 * once they settled (never left behind by an open that lands after the unlink), and its
 * descriptor is closed only after the write using it finished.
 */
import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { WriteIo } from '../../src/store/durable.js';
import { sha256 } from '../../src/store/objects.js';
import { PackWriter, newPackName, packsDir } from '../../src/store/pack-file.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

/** Thread-pool-like io whose calls named in `held` wait until `release` is called; `log` records the order of events. */
function heldIo(held: ReadonlySet<'open' | 'write'>) {
  const log: string[] = [];
  const waiting: Array<() => void> = [];
  const later = <T>(name: 'open' | 'write', run: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const go = () => {
        try {
          const value = run();
          log.push(`${name} done`);
          resolve(value);
        } catch (error) {
          reject(error as Error);
        }
      };
      if (held.has(name)) waiting.push(go);
      else setImmediate(go);
    });
  const io: WriteIo = {
    open: (file, flags, mode) => later('open', () => fs.openSync(file, flags, mode)),
    write: (fd, data, offset, length) => later('write', () => fs.writeSync(fd, data, offset, length)),
    size: (fd) => fs.fstatSync(fd).size,
    close: (fd) => {
      log.push('close');
      fs.closeSync(fd);
    },
    rename: (from, to) => fs.renameSync(from, to),
    unlink: (file) => fs.unlinkSync(file),
  };
  return { io, log, release: () => waiting.splice(0).forEach((go) => go()), waiting: () => waiting.length };
}

/** A writer given a little over one chunk (1 MiB), so a write to the disk has started. */
function busyWriter(io: WriteIo): { writer: PackWriter; dir: string } {
  const dir = storePath();
  fs.mkdirSync(packsDir(dir), { recursive: true });
  const writer = new PackWriter(dir, newPackName(1, 's'), { durable: false, io });
  for (let i = 0; i < 40; i += 1) {
    const bytes = Buffer.from(JSON.stringify({ i, text: 'x'.repeat(30_000) }));
    writer.add(sha256(bytes), bytes, false);
  }
  return { writer, dir };
}

const packFiles = (dir: string) => fs.readdirSync(packsDir(dir));

describe('PackWriter.abort with I/O on its way', () => {
  it('an open that lands after abort leaves no pack behind', async () => {
    const held = heldIo(new Set(['open']));
    const { writer, dir } = busyWriter(held.io);
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.waiting()).toBe(1); // the open is on its way
    writer.abort();
    held.release(); // the open lands now, creating the file
    await writer.removed;
    expect(packFiles(dir)).toEqual([]);
    expect(held.log).toEqual(['open done']); // and nothing was written into it after the abort
  });

  it('closes the descriptor only after the write using it finished, then removes the pack', async () => {
    const held = heldIo(new Set(['write']));
    const { writer, dir } = busyWriter(held.io);
    for (let i = 0; i < 10 && held.waiting() === 0; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(held.waiting()).toBe(1); // a write is on its way
    writer.abort();
    expect(packFiles(dir)).toEqual([`${writer.name}.pack`]); // not yet: the write still uses it
    held.release();
    await writer.removed;
    expect(packFiles(dir)).toEqual([]);
    expect(held.log).toEqual(['open done', 'write done']);
  });

  it('with nothing on its way, removes at once', async () => {
    const held = heldIo(new Set());
    const { writer, dir } = busyWriter(held.io);
    await writer.finish();
    expect(packFiles(dir).length).toBe(2);
    writer.abort();
    expect(packFiles(dir)).toEqual([]);
    await writer.removed;
  });
});
