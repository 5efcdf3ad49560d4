import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crc32, readZip, writeZip, ZipError } from '../../src/util/zip.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

function hasCommand(cmd: string): boolean {
  try {
    execFileSync(cmd, ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const hasZip = hasCommand('zip');
const hasUnzip = hasCommand('unzip');

const tmpDirs: string[] = [];
function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-zip-'));
  tmpDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

/** Offsets of the central directory records of an archive without comment or ZIP64. */
function centralRecords(zip: Uint8Array): number[] {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = zip.length - 22;
  const count = v.getUint16(eocd + 10, true);
  let p = v.getUint32(eocd + 16, true);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    out.push(p);
    p += 46 + v.getUint16(p + 28, true) + v.getUint16(p + 30, true) + v.getUint16(p + 32, true);
  }
  return out;
}

function patch(zip: Uint8Array, fn: (v: DataView, bytes: Uint8Array, central: number[]) => void): Uint8Array {
  const copy = zip.slice();
  fn(new DataView(copy.buffer), copy, centralRecords(copy));
  return copy;
}

/** Replaces an entry name (same byte length) in the local and central headers. */
function rename(zip: Uint8Array, from: string, to: string): Uint8Array {
  const a = enc.encode(from);
  const b = enc.encode(to);
  expect(a.length).toBe(b.length);
  const copy = zip.slice();
  for (let i = 0; i + a.length <= copy.length; i++) {
    if (a.every((x, k) => copy[i + k] === x)) copy.set(b, i);
  }
  return copy;
}

function zipError(fn: () => unknown): ZipError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ZipError);
    expect((err as Error).message).not.toContain('\n');
    return err as ZipError;
  }
  throw new Error('expected a ZipError');
}

const sample = [
  { path: 'README.md', data: enc.encode('# Hello\n\n'.repeat(200)) },
  { path: 'docs/', data: new Uint8Array(0) },
  { path: 'docs/guide/intro.md', data: enc.encode('Intro text') },
  { path: 'docs/empty.txt', data: new Uint8Array(0) },
  { path: 'docs/Ünïcödé – 日本.md', data: enc.encode('unicode name') },
  { path: 'assets/random.bin', data: new Uint8Array(randomBytes(4096)) },
];

describe('crc32', () => {
  it('matches the reference value', () => {
    expect(crc32(enc.encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(enc.encode('56789'), crc32(enc.encode('1234')))).toBe(0xcbf43926);
  });
});

describe('writeZip → readZip', () => {
  it('round-trips files, directories and UTF-8 names', () => {
    const zip = writeZip(sample);
    const entries = readZip(zip);
    expect(entries.map((e) => e.path)).toEqual(['README.md', 'docs', 'docs/guide/intro.md', 'docs/empty.txt', 'docs/Ünïcödé – 日本.md', 'assets/random.bin']);
    for (const [i, e] of entries.entries()) {
      const src = sample[i]!;
      expect(e.isDirectory).toBe(src.path.endsWith('/'));
      expect(Buffer.from(e.data).equals(Buffer.from(src.data))).toBe(true);
      expect(e.mode).toBe(e.isDirectory ? 0o040755 : 0o100644);
    }
    // The repetitive file is deflated, the random one stored.
    expect(zip.length).toBeLessThan(4096 + 2000);
  });

  it('is deterministic', () => {
    expect(Buffer.from(writeZip(sample)).equals(Buffer.from(writeZip(sample)))).toBe(true);
  });

  it('round-trips forced ZIP64 records', () => {
    const zip = writeZip(sample, { forceZip64: true });
    expect(readZip(zip).map((e) => dec.decode(e.data))).toEqual(readZip(writeZip(sample)).map((e) => dec.decode(e.data)));
  });

  it('switches to ZIP64 past 65,535 entries', () => {
    const many = Array.from({ length: 70_000 }, (_, i) => ({ path: `f/${i}`, data: new Uint8Array(0) }));
    const zip = writeZip(many);
    const entries = readZip(zip);
    expect(entries).toHaveLength(70_000);
    expect(entries[69_999]!.path).toBe('f/69999');
    expect(zipError(() => readZip(zip, { maxEntries: 1000 })).message).toBe('archive has 70000 entries, more than the limit of 1000');
  }, 60_000);

  it('refuses unsafe paths and duplicates when writing', () => {
    zipError(() => writeZip([{ path: '../evil', data: new Uint8Array(1) }]));
    zipError(() => writeZip([{ path: '/abs', data: new Uint8Array(1) }]));
    zipError(() => writeZip([{ path: 'a', data: new Uint8Array(1) }, { path: './a', data: new Uint8Array(1) }]));
  });

  it('normalizes backslashes and dot segments', () => {
    const zip = rename(writeZip([{ path: 'a/./b.txt', data: enc.encode('x') }]), 'a/./b.txt', 'a\\.\\b.txt');
    expect(readZip(zip).map((e) => e.path)).toEqual(['a/b.txt']);
  });

  it('decodes CP437 names when the UTF-8 flag is clear and the name is not UTF-8', () => {
    const zip = patch(writeZip([{ path: 'xab.txt', data: enc.encode('x') }]), (v, bytes, [cd]) => {
      v.setUint16(cd! + 8, 0, true);
      bytes[cd! + 46] = 0x82; // é
      bytes[cd! + 47] = 0xe1; // ß
      v.setUint16(6, 0, true);
    });
    expect(readZip(zip)[0]!.path).toBe('éßb.txt');
  });
});

describe.skipIf(!hasZip)('archives made by the system zip command', () => {
  function build(args: string[]): { dir: string; zip: Uint8Array } {
    const dir = tmp();
    const src = join(dir, 'src');
    mkdirSync(join(src, 'docs', 'nested'), { recursive: true });
    mkdirSync(join(src, 'empty-dir'));
    writeFileSync(join(src, 'README.md'), '# Title\n\nsome text\n'.repeat(500));
    writeFileSync(join(src, 'docs', 'nested', 'page.md'), 'nested page');
    writeFileSync(join(src, 'docs', 'café.md'), 'accent');
    writeFileSync(join(src, 'bin.dat'), randomBytes(10_000));
    execFileSync('zip', ['-q', '-r', '-X', ...args, join(dir, 'out.zip'), '.'], { cwd: src });
    return { dir: src, zip: new Uint8Array(readFileSync(join(dir, 'out.zip'))) };
  }

  it('reads files, directories, names and modes', () => {
    const { dir, zip } = build([]);
    const entries = readZip(zip);
    const byPath = new Map(entries.map((e) => [e.path, e]));
    expect([...byPath.keys()].sort()).toEqual(['README.md', 'bin.dat', 'docs', 'docs/café.md', 'docs/nested', 'docs/nested/page.md', 'empty-dir']);
    expect(byPath.get('empty-dir')!.isDirectory).toBe(true);
    expect(byPath.get('README.md')!.isDirectory).toBe(false);
    expect(dec.decode(byPath.get('README.md')!.data)).toBe(readFileSync(join(dir, 'README.md'), 'utf8'));
    expect(Buffer.from(byPath.get('bin.dat')!.data).equals(readFileSync(join(dir, 'bin.dat')))).toBe(true);
    expect(dec.decode(byPath.get('docs/café.md')!.data)).toBe('accent');
    expect(byPath.get('README.md')!.mode! & 0o170000).toBe(0o100000);
  });

  it('reads ZIP64 archives (zip -fz)', () => {
    let built: { zip: Uint8Array };
    try {
      built = build(['-fz']);
    } catch {
      return; // this zip build lacks -fz
    }
    expect(readZip(built.zip).find((e) => e.path === 'docs/nested/page.md')!.data).toEqual(enc.encode('nested page'));
  });

  it('reads archives streamed to stdout (data descriptors)', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a.txt'), 'streamed '.repeat(100));
    const out = execFileSync('sh', ['-c', 'cat a.txt | zip -q - -'], { cwd: dir });
    const entries = readZip(new Uint8Array(out));
    expect(entries).toHaveLength(1);
    expect(dec.decode(entries[0]!.data)).toBe('streamed '.repeat(100));
  });
});

describe.skipIf(!hasUnzip)('archives written here, read by the system unzip command', () => {
  it('passes unzip -t and extracts identical content', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'out.zip'), writeZip(sample));
    execFileSync('unzip', ['-tq', 'out.zip'], { cwd: dir });
    execFileSync('unzip', ['-q', 'out.zip', '-d', 'x'], { cwd: dir });
    expect(readFileSync(join(dir, 'x', 'README.md'), 'utf8')).toBe(dec.decode(sample[0]!.data));
    expect(readFileSync(join(dir, 'x', 'assets', 'random.bin')).equals(Buffer.from(sample[5]!.data))).toBe(true);
    expect(readFileSync(join(dir, 'x', 'docs', 'Ünïcödé – 日本.md'), 'utf8')).toBe('unicode name');
    writeFileSync(join(dir, 'out64.zip'), writeZip(sample, { forceZip64: true }));
    execFileSync('unzip', ['-tq', 'out64.zip'], { cwd: dir });
  });
});

describe('readZip refuses bad archives', () => {
  const stored = writeZip([{ path: 'a.txt', data: enc.encode('ab') }]); // too small to deflate: stored
  const deflated = writeZip([{ path: 'a.txt', data: enc.encode('hello '.repeat(1000)) }]);

  it('refuses a corrupt CRC', () => {
    // Flip a data byte (stored data starts after the 30-byte header and the name).
    const badData = stored.slice();
    badData[30 + 5] = badData[30 + 5]! ^ 0xff;
    expect(zipError(() => readZip(badData)).message).toBe('corrupt archive: CRC-32 mismatch for entry "a.txt"');
    const badCrc = patch(deflated, (v, _b, [cd]) => v.setUint32(cd! + 16, v.getUint32(cd! + 16, true) ^ 1, true));
    expect(zipError(() => readZip(badCrc)).message).toContain('CRC-32 mismatch');
  });

  it('refuses truncated archives, at every length', () => {
    const zip = writeZip(sample.slice(0, 3));
    expect(zipError(() => readZip(zip.subarray(0, zip.length - 10))).message).toContain('truncated archive');
    for (let len = 0; len < zip.length; len++) zipError(() => readZip(zip.subarray(0, len)));
    zipError(() => readZip(new Uint8Array(0)));
    zipError(() => readZip(enc.encode('not a zip at all, just some text that is long enough')));
  });

  it('only ever throws ZipError on random corruption', () => {
    const zip = writeZip(sample);
    let seed = 42;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let round = 0; round < 2000; round++) {
      const bad = zip.slice();
      for (let k = 0; k < 1 + rand(3); k++) bad[rand(bad.length)] = rand(256);
      try {
        readZip(bad);
      } catch (err) {
        if (!(err instanceof ZipError)) throw err;
      }
    }
  });

  it('refuses entries that escape the extraction directory (zip-slip)', () => {
    const base = writeZip([{ path: 'xx/evil', data: enc.encode('x') }]);
    expect(zipError(() => readZip(rename(base, 'xx/evil', '../evil'))).message).toBe('unsafe entry path "../evil": escapes the archive root');
    expect(zipError(() => readZip(rename(base, 'xx/evil', 'a/../..'))).message).toContain('escapes the archive root');
    expect(zipError(() => readZip(rename(base, 'xx/evil', '/etc/xx'))).message).toContain('absolute path');
    expect(zipError(() => readZip(rename(base, 'xx/evil', 'C:\\evil'))).message).toContain('drive letter');
    expect(zipError(() => readZip(rename(base, 'xx/evil', '\\\\h\\s\\x'))).message).toContain('absolute path');
    expect(zipError(() => readZip(rename(base, 'xx/evil', 'a\\..\\..'))).message).toContain('escapes the archive root');
  });

  it('refuses duplicate paths and file/directory clashes', () => {
    const dup = rename(writeZip([{ path: 'a/x', data: enc.encode('1') }, { path: 'a/y', data: enc.encode('2') }]), 'a/y', 'a/x');
    expect(zipError(() => readZip(dup)).message).toBe('archive has two entries for "a/x"');
    const clash = writeZip([{ path: 'link', data: enc.encode('/etc') }, { path: 'link/passwd', data: enc.encode('x') }]);
    expect(zipError(() => readZip(clash)).message).toContain('both a file and a directory');
  });

  it('refuses a huge declared size (zip bomb)', () => {
    const huge = patch(deflated, (v, _b, [cd]) => v.setUint32(cd! + 24, 0xfffffff0, true));
    zipError(() => readZip(huge));
    // Within the deflate ratio but over the total limit.
    const bomb = writeZip([{ path: 'zeros', data: new Uint8Array(4 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(10_000);
    expect(readZip(bomb)[0]!.data.length).toBe(4 * 1024 * 1024);
    expect(zipError(() => readZip(bomb, { maxTotalSize: 1024 * 1024 })).message).toBe('archive too large: uncompressed size exceeds the limit of 1048576 bytes');
    // Declaring less than the data inflates to is caught while inflating.
    const liar = patch(bomb, (v, _b, [cd]) => v.setUint32(cd! + 24, 1000, true));
    expect(zipError(() => readZip(liar)).message).toContain('inflates past its declared size');
  });

  it('refuses encrypted entries and unsupported methods', () => {
    const encrypted = patch(deflated, (v, _b, [cd]) => v.setUint16(cd! + 8, v.getUint16(cd! + 8, true) | 1, true));
    expect(zipError(() => readZip(encrypted)).message).toBe('entry "a.txt" is encrypted');
    const aes = patch(deflated, (v, _b, [cd]) => v.setUint16(cd! + 10, 99, true));
    expect(zipError(() => readZip(aes)).message).toBe('entry "a.txt" is encrypted');
    const bzip2 = patch(deflated, (v, _b, [cd]) => v.setUint16(cd! + 10, 12, true));
    expect(zipError(() => readZip(bzip2)).message).toBe('entry "a.txt" uses unsupported compression method 12');
  });

  it('refuses broken deflate data', () => {
    const bad = deflated.slice();
    bad.fill(0xff, 40, 60);
    zipError(() => readZip(bad));
  });
});
