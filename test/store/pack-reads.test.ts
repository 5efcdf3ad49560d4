/**
 * Reading objects out of a pack (pack-file.ts): a read that lands away from the last one
 * reads about a page, not a 64 KiB window (a merge of 10 pages in a 5,000-page space walks
 * ~8,000 objects across the pack: it copied 537 MB), and reads that go forward through the
 * pack still take large windows (a scan or repack reads about the pack once).
 */
import * as fs from 'node:fs';
import fsModule from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/store/objects.js';
import { PackFile, PackWriter, newPackName, packsDir } from '../../src/store/pack-file.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

/** A pack of `count` JSON objects of ~500 bytes, as a content tree stores pages. */
async function writePack(count: number): Promise<{ dir: string; name: string; objects: Map<string, Buffer> }> {
  const dir = storePath();
  fs.mkdirSync(packsDir(dir), { recursive: true });
  const name = newPackName(1, 'k');
  const writer = new PackWriter(dir, name, { durable: false });
  const objects = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const bytes = Buffer.from(JSON.stringify({ markdown: `# Page ${i}\n\n${'Some text of the page. '.repeat(20)}` }));
    const hash = sha256(bytes);
    objects.set(hash, bytes);
    writer.add(hash, bytes, false);
  }
  await writer.finish();
  return { dir, name, objects };
}

/** Bytes `fs.readSync` reads while `body` runs (node:fs patched, as the store module sees it). */
function bytesRead(body: () => void): number {
  let total = 0;
  const readSync = fsModule.readSync;
  fsModule.readSync = ((...args: Parameters<typeof fs.readSync>) => {
    const n = readSync(...args);
    total += n;
    return n;
  }) as typeof fs.readSync;
  syncBuiltinESMExports();
  try {
    body();
  } finally {
    fsModule.readSync = readSync;
    syncBuiltinESMExports();
  }
  return total;
}

describe('reading objects from a pack', () => {
  it('reads far-apart objects with about a page each, and every object reads back as written', async () => {
    const { dir, name, objects } = await writePack(2000);
    const pack = PackFile.open(dir, name) as PackFile;
    const entries = [...objects.keys()].map((hash) => pack.find(hash)!).sort((a, b) => a.offset - b.offset);
    // Every 7th object, backwards: never next to the last one read.
    const picked = entries.filter((_, i) => i % 7 === 0).reverse();
    pack.find(picked[0]!.hash); // index buckets read before counting
    const read = bytesRead(() => {
      for (const entry of picked) expect(pack.read(entry).equals(objects.get(entry.hash)!)).toBe(true);
    });
    pack.close();
    expect(read).toBeLessThanOrEqual(picked.length * 8 * 1024);
  });

  it('reads forward through the pack in large windows: about the pack once', async () => {
    const { dir, name, objects } = await writePack(2000);
    const pack = PackFile.open(dir, name) as PackFile;
    const entries = [...objects.keys()].map((hash) => pack.find(hash)!).sort((a, b) => a.offset - b.offset);
    let reads = 0;
    const read = bytesRead(() => {
      for (const entry of entries) {
        expect(pack.read(entry).equals(objects.get(entry.hash)!)).toBe(true);
        reads++;
      }
    });
    pack.close();
    expect(reads).toBe(2000);
    expect(read).toBeLessThanOrEqual(pack.bytes * 1.1);
  });

  it('hands out bytes that later reads do not change (the window memory is reused)', async () => {
    const { dir, name, objects } = await writePack(300);
    const pack = PackFile.open(dir, name) as PackFile;
    const entries = [...objects.keys()].map((hash) => pack.find(hash)!).sort((a, b) => a.offset - b.offset);
    // Forward and far reads alternate, so windows of every size are read into the same memory.
    const order = entries.flatMap((entry, i) => [entry, entries[entries.length - 1 - i]!]);
    const kept = order.map((entry) => [entry.hash, pack.read(entry)] as const);
    pack.close();
    for (const [hash, bytes] of kept) expect(bytes.equals(objects.get(hash)!)).toBe(true);
  });

  it('hands a reader that parses at once a view of the window, not a copy, with the object\'s bytes', async () => {
    const { dir, name, objects } = await writePack(300);
    const pack = PackFile.open(dir, name) as PackFile;
    const entries = [...objects.keys()].map((hash) => pack.find(hash)!).sort((a, b) => a.offset - b.offset);
    const memory = new Set<ArrayBufferLike>();
    for (const entry of entries) {
      const bytes = pack.read(entry, true);
      expect(bytes.equals(objects.get(entry.hash)!)).toBe(true);
      memory.add(bytes.buffer);
    }
    // 300 objects through one reused window: no buffer of their own.
    expect(memory.size).toBe(1);
    // A copy still, for a reader that keeps the bytes.
    expect(pack.read(entries[0]!).buffer).not.toBe([...memory][0]);
    pack.close();
  });
});

describe('finding an object in a pack index', () => {
  it('finds each hash, also among hashes that share their first 12 digits, and nothing else', async () => {
    const dir = storePath();
    fs.mkdirSync(packsDir(dir), { recursive: true });
    const name = newPackName(1, 'k');
    const writer = new PackWriter(dir, name, { durable: false });
    // The index is searched by a 12-digit numeric prefix, then byte by byte: same-prefix neighbours must not be confused.
    const shared = 'abcdef012345';
    const hashes = [
      ...['0', '7', 'f'].map((d) => shared + d.repeat(52)),
      ...Array.from({ length: 300 }, (_, i) => sha256(Buffer.from(`object ${i}`))),
      'ab'.padEnd(64, '0'),
      'ab'.padEnd(64, 'f'),
    ];
    for (const hash of hashes) writer.add(hash, Buffer.from(JSON.stringify({ hash })), false);
    await writer.finish();
    const pack = PackFile.open(dir, name) as PackFile;
    for (const hash of hashes) expect(pack.find(hash)?.hash).toBe(hash);
    for (const absent of [shared + '3'.repeat(52), shared + 'f'.repeat(51) + 'e', 'ab'.padEnd(63, '0') + '1', '00'.padEnd(64, '0'), 'ff'.padEnd(64, 'f')]) {
      expect(pack.find(absent)).toBeUndefined();
    }
    pack.close();
  });
});

describe('reading the object that follows the last one (a walk in pack order)', () => {
  it('hands out the object that starts at an offset when it is the one asked for, and nothing otherwise', async () => {
    const { dir, name, objects } = await writePack(50);
    const pack = PackFile.open(dir, name) as PackFile;
    const entries = [...objects.keys()].map((hash) => pack.find(hash)!).sort((a, b) => a.offset - b.offset);
    for (const [i, entry] of entries.entries()) {
      expect(pack.readIfAt(entry.offset, entry.hash)?.equals(objects.get(entry.hash)!)).toBe(true);
      const next = entries[i + 1];
      if (next) expect(entry.offset + entry.length + 1).toBe(next.offset);
    }
    const [first, second] = entries as [(typeof entries)[0], (typeof entries)[0]];
    expect(pack.readIfAt(first.offset, second.hash)).toBeUndefined(); // another object there
    expect(pack.readIfAt(first.offset + 1, first.hash)).toBeUndefined(); // not where an object starts
    expect(pack.readIfAt(pack.bytes, first.hash)).toBeUndefined(); // past the end
    pack.close();
    expect(pack.readIfAt(first.offset, first.hash)).toBeUndefined(); // closed
  });

  it('does not hand out an object whose bytes in the pack were damaged', async () => {
    const { dir, name, objects } = await writePack(20);
    const pack = PackFile.open(dir, name) as PackFile;
    const entry = [...objects.keys()].map((hash) => pack.find(hash)!).sort((a, b) => a.offset - b.offset)[5]!;
    pack.close();
    const fd = fs.openSync(pack.packFile, 'r+');
    fs.writeSync(fd, Buffer.from('X'), 0, 1, entry.offset + 20);
    fs.closeSync(fd);
    const reopened = PackFile.open(dir, name) as PackFile;
    expect(reopened.readIfAt(entry.offset, entry.hash)).toBeUndefined();
    expect(() => reopened.read(entry)).toThrow(/does not match its hash/);
    reopened.close();
  });
});

describe('looking objects up in a large pack index', () => {
  it('reads one bucket per lookup, not the whole index, until many lookups were made; every lookup answers right', async () => {
    // 4,000 objects: an index of 356 KB, past what is read whole at the first lookup.
    const { dir, name, objects } = await writePack(4000);
    const pack = PackFile.open(dir, name) as PackFile;
    const hashes = [...objects.keys()];
    const indexBytes = 4000 * 89;
    // 100 lookups (a walk's misses, over most buckets): a bucket (~1.4 KB here) each, less than half the index in all.
    const read = bytesRead(() => {
      for (const hash of hashes.slice(0, 100)) expect(pack.find(hash)?.hash).toBe(hash);
    });
    expect(read).toBeLessThan(indexBytes / 2);
    // Thousands more (a long-running serve): the index is then read whole, and lookups still answer right.
    for (const hash of hashes) expect(pack.find(hash)?.hash).toBe(hash);
    for (const hash of hashes.slice(0, 50)) expect(pack.find(sha256(Buffer.from(`absent ${hash}`)))).toBeUndefined();
    const after = bytesRead(() => {
      for (const hash of hashes.slice(0, 500)) expect(pack.find(hash)?.hash).toBe(hash);
    });
    expect(after).toBe(0);
    pack.close();
  });
});
