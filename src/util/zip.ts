/**
 * A small, defensive ZIP reader and a deflating ZIP writer (node:zlib only).
 *
 * Reading trusts the central directory (the local headers are only used to
 * find where each entry's data starts) and refuses, with a one-line
 * {@link ZipError}:
 * - corrupt or truncated archives (bad signatures, out-of-range offsets,
 *   overlapping entries, CRC-32 or size mismatches, broken deflate data);
 * - encrypted entries (traditional PKWARE, strong encryption, WinZip AES),
 *   compression methods other than stored (0) and deflate (8), multi-disk
 *   archives;
 * - entry paths that could escape the extraction directory (zip-slip):
 *   absolute paths, drive letters, UNC paths, `..` segments, NUL characters,
 *   and two entries with the same path;
 * - archives whose total uncompressed size exceeds a limit (zip bombs):
 *   512 MiB by default, checked against the declared sizes before anything is
 *   inflated, and enforced while inflating (an entry may not inflate to more
 *   than it declares).
 *
 * Names are UTF-8 when general-purpose flag bit 11 is set or an Info-ZIP
 * Unicode Path extra field matches, CP437 otherwise — except that a name
 * without the flag whose bytes are valid UTF-8 is read as UTF-8: Info-ZIP
 * `zip` on Unix and macOS Archive Utility write UTF-8 names without setting
 * the flag, and non-ASCII CP437 text is practically never valid UTF-8. Backslashes are read as
 * separators; returned paths are normalized (`a/./b` → `a/b`), directories
 * keep no trailing slash. ZIP64 is read and written where needed.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export class ZipError extends Error {
  override readonly name = 'ZipError';
}

export interface ZipEntry {
  /** Normalized relative path, `/`-separated, no trailing slash. */
  path: string;
  data: Uint8Array;
  isDirectory: boolean;
  /**
   * Unix mode (file type and permission bits, e.g. 0o100644) when the archive
   * was made on Unix. A symbolic link (type 0o120000) is returned as an entry
   * whose data is the link target: callers decide what to do with it (write
   * it as a regular file, or skip it), never create the link blindly.
   */
  mode?: number;
}

export interface ReadZipOptions {
  /** Largest total uncompressed size accepted, in bytes (default 512 MiB). */
  maxTotalSize?: number;
  /** Largest number of entries accepted (default 100,000). */
  maxEntries?: number;
  /** Called with each file entry's path and declared size before anything is inflated: throws to refuse the archive. */
  checkEntry?: (path: string, size: number) => void;
}

export interface WriteZipOptions {
  /** Modification time stored for every entry (default 1980-01-01 00:00, for reproducible archives). */
  date?: Date;
  /** Write ZIP64 records even when the archive does not need them. */
  forceZip64?: boolean;
}

export const DEFAULT_MAX_TOTAL_SIZE = 512 * 1024 * 1024;
export const DEFAULT_MAX_ENTRIES = 100_000;

// ---------------------------------------------------------------------------
// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320)

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array, previous = 0): number {
  let crc = ~previous >>> 0;
  for (let i = 0; i < data.length; i++) {
    crc = (CRC_TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8)) >>> 0;
  }
  return ~crc >>> 0;
}

// ---------------------------------------------------------------------------
// Names

/** CP437 code points for bytes 0x80–0xFF (0x00–0x7F are ASCII). */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

function decodeCp437(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A name without the UTF-8 flag: UTF-8 if it decodes as such, CP437 otherwise. */
function decodeLegacyName(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return decodeCp437(bytes);
  }
}

function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ZipError(`invalid UTF-8 in ${what}`);
  }
}

/**
 * Checks that an entry name stays inside the extraction directory and
 * normalizes it. Returns the path and whether the name denoted a directory.
 */
/** A name for an error message: quoted, escaped, shortened. */
function show(name: string): string {
  return JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name);
}

function safePath(raw: string): { path: string; dir: boolean } {
  const shown = show(raw);
  if (raw.includes('\0')) throw new ZipError(`unsafe entry path ${shown}: contains NUL`);
  const name = raw.replace(/\\/g, '/');
  if (name.startsWith('/')) throw new ZipError(`unsafe entry path ${shown}: absolute path`);
  if (/^[A-Za-z]:/.test(name)) throw new ZipError(`unsafe entry path ${shown}: drive letter`);
  const parts: string[] = [];
  for (const part of name.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') throw new ZipError(`unsafe entry path ${shown}: escapes the archive root`);
    parts.push(part);
  }
  if (parts.length === 0) throw new ZipError(`unsafe entry path ${shown}: empty`);
  return { path: parts.join('/'), dir: name.endsWith('/') };
}

// ---------------------------------------------------------------------------
// Reading

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;

/** Little-endian reads at absolute archive offsets from bytes that start at `origin` (a window of the archive). */
export class Reader {
  private readonly view: DataView;
  constructor(
    readonly data: Uint8Array,
    readonly origin = 0,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  private at(offset: number, size: number, what: string): number {
    const local = offset - this.origin;
    if (local < 0 || local + size > this.data.length) throw new ZipError(`truncated archive: ${what} is past the end of the data`);
    return local;
  }
  u16(offset: number, what: string): number {
    return this.view.getUint16(this.at(offset, 2, what), true);
  }
  u32(offset: number, what: string): number {
    return this.view.getUint32(this.at(offset, 4, what), true);
  }
  u64(offset: number, what: string): number {
    const value = this.view.getBigUint64(this.at(offset, 8, what), true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipError(`corrupt archive: ${what} is out of range`);
    return Number(value);
  }
  bytes(offset: number, length: number, what: string): Uint8Array {
    const local = this.at(offset, length, what);
    return this.data.subarray(local, local + length);
  }
}

export interface CentralRecord {
  rawName: string;
  path: string;
  dir: boolean;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  mode: number | undefined;
}

/** The absolute offset of the end-of-central-directory record; `r` holds the archive's last bytes, `total` is its length. */
function findEocd(r: Reader, total: number): number {
  const data = r.data;
  if (total < 22) throw new ZipError('not a ZIP archive: too short');
  const lowest = Math.max(0, data.length - 22 - 0xffff);
  for (let i = data.length - 22; i >= lowest; i--) {
    if (data[i] === 0x50 && data[i + 1] === 0x4b && data[i + 2] === 0x05 && data[i + 3] === 0x06) {
      const commentLength = r.u16(r.origin + i + 20, 'end of central directory');
      if (i + 22 + commentLength <= data.length) return r.origin + i;
    }
  }
  if (r.origin === 0 && data.length >= 4 && r.u32(0, 'header') === SIG_LOCAL) throw new ZipError('truncated archive: end of central directory not found');
  throw new ZipError('not a ZIP archive: end of central directory not found');
}

function parseExtra(
  extra: Uint8Array,
  need: { size: boolean; compressedSize: boolean; localOffset: boolean },
  values: { size: number; compressedSize: number; localOffset: number },
  nameBytes: Uint8Array,
): { unicodeName?: string } {
  const r = new Reader(extra);
  const out: { unicodeName?: string } = {};
  const needs64 = need.size || need.compressedSize || need.localOffset;
  let found64 = false;
  let p = 0;
  while (p + 4 <= extra.length) {
    const id = r.u16(p, 'extra field');
    const len = r.u16(p + 2, 'extra field');
    const body = p + 4;
    if (body + len > extra.length) throw new ZipError('corrupt archive: extra field overruns its header');
    if (id === 0x0001) {
      found64 = true;
      let q = body;
      const take = (what: string): number => {
        if (q + 8 > body + len) throw new ZipError(`corrupt archive: ZIP64 extra field lacks the ${what}`);
        const v = r.u64(q, `ZIP64 ${what}`);
        q += 8;
        return v;
      };
      if (need.size) values.size = take('uncompressed size');
      if (need.compressedSize) values.compressedSize = take('compressed size');
      if (need.localOffset) values.localOffset = take('local header offset');
    } else if (id === 0x7075 && len >= 5 && extra[body] === 1) {
      // Info-ZIP Unicode Path: version 1, CRC-32 of the header name, UTF-8 name.
      if (r.u32(body + 1, 'Unicode Path extra field') === crc32(nameBytes)) {
        out.unicodeName = decodeUtf8(extra.subarray(body + 5, body + len), 'Unicode Path extra field');
      }
    }
    p = body + len;
  }
  if (needs64 && !found64) throw new ZipError('corrupt archive: ZIP64 values announced but no ZIP64 extra field');
  return out;
}

/** Where the central directory is and how many entries it announces. */
export interface DirectoryLocation {
  count: number;
  cdSize: number;
  cdOffset: number;
}

/** How many of an archive's last bytes `locateDirectory` needs: the EOCD with the longest comment, the ZIP64 locator and record. */
export const TAIL_BYTES = 22 + 0xffff + 20 + 56;

/** Finds the central directory from the archive's last bytes (`tail`, a window ending at `total`). */
export function locateDirectory(tail: Reader, total: number, options: ReadZipOptions = {}): DirectoryLocation {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const r = tail;
  const eocd = findEocd(r, total);

  let disk = r.u16(eocd + 4, 'end of central directory');
  let cdDisk = r.u16(eocd + 6, 'end of central directory');
  let count = r.u16(eocd + 10, 'end of central directory');
  let cdSize = r.u32(eocd + 12, 'end of central directory');
  let cdOffset = r.u32(eocd + 16, 'end of central directory');

  if (eocd - r.origin >= 20 && r.u32(eocd - 20, 'ZIP64 locator') === SIG_ZIP64_LOCATOR) {
    const recordOffset = r.u64(eocd - 12, 'ZIP64 locator');
    if (r.u32(recordOffset, 'ZIP64 end of central directory') !== SIG_ZIP64_EOCD) {
      throw new ZipError('corrupt archive: bad ZIP64 end of central directory signature');
    }
    disk = r.u32(recordOffset + 16, 'ZIP64 end of central directory');
    cdDisk = r.u32(recordOffset + 20, 'ZIP64 end of central directory');
    count = r.u64(recordOffset + 32, 'ZIP64 end of central directory');
    cdSize = r.u64(recordOffset + 40, 'ZIP64 end of central directory');
    cdOffset = r.u64(recordOffset + 48, 'ZIP64 end of central directory');
  } else if (cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    throw new ZipError('corrupt archive: ZIP64 values announced but no ZIP64 locator');
  }
  if (disk !== 0 || cdDisk !== 0) throw new ZipError('unsupported archive: spans several disks');
  if (count > maxEntries) throw new ZipError(`archive has ${count} entries, more than the limit of ${maxEntries}`);
  if (cdOffset + cdSize > total) throw new ZipError('truncated archive: central directory is past the end of the data');
  // The smallest central directory record is 46 bytes.
  if (count * 46 > cdSize) throw new ZipError(`corrupt archive: central directory too small for ${count} entries`);
  return { count, cdSize, cdOffset };
}

/** The entries the central directory lists (`r` holds it), checked: names, methods, sizes against the limit, duplicates. */
export function parseDirectory(r: Reader, location: DirectoryLocation, options: ReadZipOptions = {}): CentralRecord[] {
  const maxTotal = options.maxTotalSize ?? DEFAULT_MAX_TOTAL_SIZE;
  const { count, cdSize, cdOffset } = location;
  const records: CentralRecord[] = [];
  const seen = new Set<string>();
  let declaredTotal = 0;
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cdOffset + cdSize) throw new ZipError('corrupt archive: central directory shorter than announced');
    if (r.u32(p, 'central directory') !== SIG_CENTRAL) throw new ZipError(`corrupt archive: bad central directory signature at entry ${i + 1}`);
    const madeBy = r.u16(p + 4, 'central directory');
    const flags = r.u16(p + 8, 'central directory');
    const method = r.u16(p + 10, 'central directory');
    const crc = r.u32(p + 16, 'central directory');
    const values = {
      compressedSize: r.u32(p + 20, 'central directory'),
      size: r.u32(p + 24, 'central directory'),
      localOffset: r.u32(p + 42, 'central directory'),
    };
    const nameLength = r.u16(p + 28, 'central directory');
    const extraLength = r.u16(p + 30, 'central directory');
    const commentLength = r.u16(p + 32, 'central directory');
    const entryDisk = r.u16(p + 34, 'central directory');
    const external = r.u32(p + 38, 'central directory');
    const nameBytes = r.bytes(p + 46, nameLength, 'entry name');
    const extra = r.bytes(p + 46 + nameLength, extraLength, 'extra field');
    const need = {
      size: values.size === 0xffffffff,
      compressedSize: values.compressedSize === 0xffffffff,
      localOffset: values.localOffset === 0xffffffff,
    };
    const { unicodeName } = parseExtra(extra, need, values, nameBytes);
    p += 46 + nameLength + extraLength + commentLength;
    if (p > cdOffset + cdSize) throw new ZipError('corrupt archive: central directory record overruns the directory');

    const rawName = flags & 0x800 ? decodeUtf8(nameBytes, 'entry name') : unicodeName ?? decodeLegacyName(nameBytes);
    const shown = show(rawName);
    if (flags & 0x1 || flags & 0x40 || method === 99) throw new ZipError(`entry ${shown} is encrypted`);
    if (method !== 0 && method !== 8) throw new ZipError(`entry ${shown} uses unsupported compression method ${method}`);
    if (entryDisk !== 0 && entryDisk !== 0xffff) throw new ZipError('unsupported archive: spans several disks');
    const { path, dir: slashDir } = safePath(rawName);
    const host = madeBy >>> 8;
    const unixMode = host === 3 || host === 19 ? external >>> 16 : 0;
    const dir = slashDir || (unixMode ? (unixMode & 0o170000) === 0o040000 : (external & 0x10) !== 0);
    if (seen.has(path)) throw new ZipError(`archive has two entries for ${show(path)}`);
    seen.add(path);
    if (method === 0 && values.compressedSize !== values.size) {
      throw new ZipError(`corrupt archive: stored entry ${shown} has different compressed and uncompressed sizes`);
    }
    // Deflate cannot expand data by more than ~1032:1.
    if (method === 8 && values.size > values.compressedSize * 1032 + 1024) {
      throw new ZipError(`corrupt archive: entry ${shown} declares an impossible size`);
    }
    declaredTotal += values.size;
    if (declaredTotal > maxTotal) {
      throw new ZipError(`archive too large: uncompressed size exceeds the limit of ${maxTotal} bytes`);
    }
    if (!dir) options.checkEntry?.(path, values.size);
    records.push({ rawName, path, dir, flags, method, crc, ...values, mode: unixMode || undefined });
  }

  // A path may not be both a file and a directory (`a` as a file, then `a/b`).
  const files = new Set(records.filter((rec) => !rec.dir).map((rec) => rec.path));
  for (const rec of records) {
    for (let i = rec.path.indexOf('/'); i > 0; i = rec.path.indexOf('/', i + 1)) {
      if (files.has(rec.path.slice(0, i))) throw new ZipError(`archive has ${JSON.stringify(rec.path.slice(0, i))} as both a file and a directory`);
    }
  }
  return records;
}

/** Where an entry's compressed data starts, from its local header (`r` must hold the header and its name/extra). */
export function dataStart(r: Reader, rec: CentralRecord): number {
  const shown = show(rec.rawName);
  if (r.u32(rec.localOffset, `local header of ${shown}`) !== SIG_LOCAL) throw new ZipError(`corrupt archive: bad local header signature for ${shown}`);
  const localName = r.u16(rec.localOffset + 26, `local header of ${shown}`);
  const localExtra = r.u16(rec.localOffset + 28, `local header of ${shown}`);
  return rec.localOffset + 30 + localName + localExtra;
}

/** Refuses entries whose data overlap (a zip-bomb technique); `starts[i]` is where records[i]'s data starts. */
export function checkOverlaps(records: CentralRecord[], starts: number[], total: number): void {
  const spans = records.map((rec, i) => ({ start: rec.localOffset, end: (starts[i] as number) + rec.compressedSize, rec }));
  for (const span of spans) if (span.end > total) throw new ZipError(`truncated archive: data of ${show(span.rec.rawName)} is past the end`);
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]!.start < spans[i - 1]!.end) throw new ZipError('corrupt archive: entries overlap');
  }
}

/** Checks an inflated entry against its record and makes the ZipEntry. */
export function finishEntry(rec: CentralRecord, out: Uint8Array): ZipEntry {
  const shown = show(rec.rawName);
  if (out.length !== rec.size) throw new ZipError(`corrupt archive: entry ${shown} is ${out.length} bytes, declared ${rec.size}`);
  if (crc32(out) !== rec.crc) throw new ZipError(`corrupt archive: CRC-32 mismatch for entry ${shown}`);
  if (rec.dir && out.length !== 0) throw new ZipError(`corrupt archive: directory entry ${shown} has data`);
  const entry: ZipEntry = { path: rec.path, data: out, isDirectory: rec.dir };
  if (rec.mode !== undefined) entry.mode = rec.mode;
  return entry;
}

/** Why inflating an entry failed, as a ZipError. */
export function inflateError(rec: CentralRecord, err: unknown): ZipError {
  const shown = show(rec.rawName);
  const code = (err as { code?: unknown }).code;
  if (code === 'ERR_BUFFER_TOO_LARGE') return new ZipError(`corrupt archive: entry ${shown} inflates past its declared size`);
  return new ZipError(`corrupt archive: entry ${shown} has invalid deflate data`);
}

export function readZip(data: Uint8Array, options: ReadZipOptions = {}): ZipEntry[] {
  const r = new Reader(data);
  const records = parseDirectory(r, locateDirectory(r, data.length, options), options);
  const starts = records.map((rec) => dataStart(r, rec));
  checkOverlaps(records, starts, data.length);
  return records.map((rec, i) => {
    const raw = r.bytes(starts[i] as number, rec.compressedSize, `data of ${show(rec.rawName)}`);
    if (rec.method === 0) return finishEntry(rec, raw.slice());
    let inflated: Buffer;
    try {
      // maxOutputLength: an entry may not inflate past what it declared.
      inflated = inflateRawSync(raw, { maxOutputLength: Math.max(rec.size, 1) });
    } catch (err) {
      throw inflateError(rec, err);
    }
    return finishEntry(rec, new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength));
  });
}

// ---------------------------------------------------------------------------
// Writing

function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

class Writer {
  private readonly chunks: Uint8Array[] = [];
  length = 0;
  push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }
  record(size: number, fill: (v: DataView) => void): void {
    const bytes = new Uint8Array(size);
    fill(new DataView(bytes.buffer));
    this.push(bytes);
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let p = 0;
    for (const c of this.chunks) {
      out.set(c, p);
      p += c.length;
    }
    return out;
  }
}

const MAX32 = 0xffffffff;

/**
 * Writes a ZIP archive: files are deflated (or stored when deflate does not
 * help), paths ending in `/` become directory entries. Names are written as
 * UTF-8 (flag bit 11). ZIP64 records are added when sizes, offsets or the
 * entry count need them.
 */
// eslint-disable-next-line max-lines-per-function -- local headers, data and central directory in one pass: the ZIP64 fields depend on the offsets it computes
export function writeZip(entries: Array<{ path: string; data: Uint8Array }>, options: WriteZipOptions = {}): Uint8Array {
  const dos = dosDateTime(options.date ?? new Date(1980, 0, 1));
  const force = options.forceZip64 === true;
  const w = new Writer();
  const central: Array<{
    name: Uint8Array;
    dir: boolean;
    method: number;
    crc: number;
    compressedSize: number;
    size: number;
    offset: number;
  }> = [];
  const seen = new Set<string>();
  const encoder = new TextEncoder();

  for (const entry of entries) {
    const { path, dir } = safePath(entry.path);
    if (seen.has(path)) throw new ZipError(`two entries for ${JSON.stringify(path)}`);
    seen.add(path);
    if (dir && entry.data.length > 0) throw new ZipError(`directory entry ${JSON.stringify(entry.path)} has data`);
    const name = encoder.encode(dir ? `${path}/` : path);
    if (name.length > 0xffff) throw new ZipError(`entry path too long: ${JSON.stringify(path.slice(0, 80))}…`);
    const crc = crc32(entry.data);
    let method = 0;
    let body = entry.data;
    if (!dir && entry.data.length > 0) {
      const deflated = deflateRawSync(entry.data);
      if (deflated.length < entry.data.length) {
        method = 8;
        body = new Uint8Array(deflated.buffer, deflated.byteOffset, deflated.byteLength);
      }
    }
    const offset = w.length;
    const local64 = force || body.length >= MAX32 || entry.data.length >= MAX32;
    w.record(30, (v) => {
      v.setUint32(0, SIG_LOCAL, true);
      v.setUint16(4, local64 ? 45 : 20, true);
      v.setUint16(6, 0x800, true);
      v.setUint16(8, method, true);
      v.setUint16(10, dos.time, true);
      v.setUint16(12, dos.date, true);
      v.setUint32(14, crc, true);
      v.setUint32(18, local64 ? MAX32 : body.length, true);
      v.setUint32(22, local64 ? MAX32 : entry.data.length, true);
      v.setUint16(26, name.length, true);
      v.setUint16(28, local64 ? 20 : 0, true);
    });
    w.push(name);
    if (local64) {
      w.record(20, (v) => {
        v.setUint16(0, 0x0001, true);
        v.setUint16(2, 16, true);
        v.setBigUint64(4, BigInt(entry.data.length), true);
        v.setBigUint64(12, BigInt(body.length), true);
      });
    }
    w.push(body);
    central.push({ name, dir, method, crc, compressedSize: body.length, size: entry.data.length, offset });
  }

  const cdOffset = w.length;
  for (const c of central) {
    const needSize = force || c.size >= MAX32;
    const needCompressed = force || c.compressedSize >= MAX32;
    const needOffset = force || c.offset >= MAX32;
    const extraLength = needSize || needCompressed || needOffset ? 4 + 8 * (+needSize + +needCompressed + +needOffset) : 0;
    w.record(46, (v) => {
      v.setUint32(0, SIG_CENTRAL, true);
      v.setUint16(4, (3 << 8) | 45, true); // made by Unix, spec 4.5
      v.setUint16(6, extraLength ? 45 : 20, true);
      v.setUint16(8, 0x800, true);
      v.setUint16(10, c.method, true);
      v.setUint16(12, dos.time, true);
      v.setUint16(14, dos.date, true);
      v.setUint32(16, c.crc, true);
      v.setUint32(20, needCompressed ? MAX32 : c.compressedSize, true);
      v.setUint32(24, needSize ? MAX32 : c.size, true);
      v.setUint16(28, c.name.length, true);
      v.setUint16(30, extraLength, true);
      const mode = c.dir ? 0o040755 : 0o100644;
      v.setUint32(38, ((mode << 16) | (c.dir ? 0x10 : 0)) >>> 0, true);
      v.setUint32(42, needOffset ? MAX32 : c.offset, true);
    });
    w.push(c.name);
    if (extraLength) {
      w.record(extraLength, (v) => {
        v.setUint16(0, 0x0001, true);
        v.setUint16(2, extraLength - 4, true);
        let q = 4;
        for (const [need, value] of [
          [needSize, c.size],
          [needCompressed, c.compressedSize],
          [needOffset, c.offset],
        ] as const) {
          if (!need) continue;
          v.setBigUint64(q, BigInt(value), true);
          q += 8;
        }
      });
    }
  }
  const cdSize = w.length - cdOffset;
  const zip64 = force || central.length >= 0xffff || cdOffset >= MAX32 || cdSize >= MAX32;
  if (zip64) {
    const recordOffset = w.length;
    w.record(56, (v) => {
      v.setUint32(0, SIG_ZIP64_EOCD, true);
      v.setBigUint64(4, 44n, true);
      v.setUint16(12, (3 << 8) | 45, true);
      v.setUint16(14, 45, true);
      v.setBigUint64(24, BigInt(central.length), true);
      v.setBigUint64(32, BigInt(central.length), true);
      v.setBigUint64(40, BigInt(cdSize), true);
      v.setBigUint64(48, BigInt(cdOffset), true);
    });
    w.record(20, (v) => {
      v.setUint32(0, SIG_ZIP64_LOCATOR, true);
      v.setBigUint64(8, BigInt(recordOffset), true);
      v.setUint32(16, 1, true);
    });
  }
  w.record(22, (v) => {
    v.setUint32(0, SIG_EOCD, true);
    v.setUint16(8, zip64 ? 0xffff : central.length, true);
    v.setUint16(10, zip64 ? 0xffff : central.length, true);
    v.setUint32(12, zip64 ? MAX32 : cdSize, true);
    v.setUint32(16, zip64 ? MAX32 : cdOffset, true);
  });
  return w.concat();
}
