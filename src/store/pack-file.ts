/**
 * Pack files: many objects in one file with a sorted index beside it, as git's
 * packfiles (Documentation/gitformat-pack.txt), kept as text so the store stays a
 * JSON-file store:
 *
 * ```
 * packs/<name>.pack   the objects' JSON, one per line (a JSONL file: `jq -c . < x.pack` reads it)
 * packs/<name>.idx    "docsctl-pack-index 1 <objects> <pack bytes>\n"
 *                     "fanout" + 256 × " <8 hex>\n": how many entries have a hash whose first byte is ≤ i
 *                     one 89-byte line per object, sorted by hash:
 *                     "<sha256> <offset: 12 hex> <length: 8 hex> <1 when the object may name other objects, else 0>\n"
 * ```
 * Fixed-width lines make the index searchable in place: the fan-out narrows a
 * lookup to 1/256th of the entries, read with one pread (and kept), then a binary
 * search; the object is one pread at its offset, verified against its hash. A pack
 * is written whole, fsynced, then its index, before anything names it (a commit
 * record or CHECKPOINT), and never changes after: a pack whose size is not the one
 * its index records was torn by a crash before it was named, or damaged since.
 * The "names" flag lets the walks that find what a state reaches (reachable.ts)
 * skip page bodies and file data without reading them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { FILE_MODE, ShortWriteError, errnoCode, fsops, fsyncDir, fsyncFd, guarded, poolIo, writeNewFile, type WriteIo } from './durable.js';
import { StoreError } from './errors.js';
import { crashArmed, crashPoint, fault } from './fault.js';
import { DAMAGE_HINT, HASH_RE, sha256, verifyObject } from './objects.js';

export const PACKS_DIR = 'packs';
/** `pack-<gen>-<kind>-<random>`: kind c (a commit's), k (checkpoint), m (merge), s (staged), g (gc), r (recover). */
export const PACK_NAME_RE = /^pack-\d{12}-[ckmsgr]-[0-9a-f]{8}$/;
export type PackKind = 'c' | 'k' | 'm' | 's' | 'g' | 'r';

const MAGIC = 'docsctl-pack-index 1';
const ENTRY = 89;
const NEWLINE = Buffer.from('\n');
/** Bytes gathered before they are handed to the disk (the writer keeps at most a few of these in flight). */
const CHUNK = 1024 * 1024;
/** A chunk is flushed once past CHUNK: most end within an object of it (larger ones are written from a buffer of their own). */
const REUSED_CHUNK = 2 * CHUNK;
/** Indexes up to this size are read whole at their first lookup; bigger ones a fan-out bucket at a time. */
const SMALL_INDEX = 256 * 1024;
/**
 * A bigger index is read whole after this many lookups, when it is at most WHOLE_INDEX_MAX;
 * before, each lookup reads its fan-out bucket (~20 KB for 60,000 objects) into memory the
 * pack reuses. Why not keep the buckets, or read the index whole sooner: new memory costs a
 * page fault per 4 KiB (~9 µs on a virtual machine), so a 5 MB index costs ~12 ms to hold,
 * while a bucket read again costs ~5 µs. Walks find most objects without the index
 * (PackSet.read); a process that looks up thousands of objects (serve) reads it whole.
 */
const WHOLE_AFTER_LOOKUPS = 2048;
const WHOLE_INDEX_MAX = 16 * 1024 * 1024;
/**
 * Small objects are read through a window: one page for a read that lands away from the
 * last one (a tree walk jumps around the pack: a 64 KiB window there copied 537 MB for a
 * 10-page merge of 8,000 objects), doubling up to 64 KiB while reads go forward past it
 * (a scan or repack reads neighbours together).
 */
const MIN_WINDOW = 4 * 1024;
const MAX_WINDOW = 64 * 1024;

export function packsDir(dir: string): string {
  return path.join(dir, PACKS_DIR);
}
export function packPath(dir: string, name: string): string {
  return path.join(dir, PACKS_DIR, `${name}.pack`);
}
export function indexPath(dir: string, name: string): string {
  return path.join(dir, PACKS_DIR, `${name}.idx`);
}

export function newPackName(gen: number, kind: PackKind): string {
  return `pack-${String(gen).padStart(12, '0')}-${kind}-${randomBytes(4).toString('hex')}`;
}

/** Where an object is in a pack, and whether it may name other objects. */
export interface PackEntry {
  hash: string;
  offset: number;
  length: number;
  names: boolean;
}

/** What a finished pack holds. */
export interface PackInfo {
  name: string;
  objects: number;
  bytes: number;
}

/** The pack files present (names, from their indexes), for maintenance and a reader's last resort. */
export function listPacks(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(packsDir(dir));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.idx'))
    .map((name) => name.slice(0, -4))
    .filter((name) => PACK_NAME_RE.test(name))
    .sort();
}

function ensurePacksDir(dir: string): boolean {
  if (fs.existsSync(packsDir(dir))) return false;
  try {
    fsops.mkdir(packsDir(dir));
    return true;
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
    return false;
  }
}

// ─── Writing ─────────────────────────────────────────────────────────────────

/**
 * Writes a pack: `add` objects (duplicates are skipped), then `finish` (pack fsynced,
 * then its index, then packs/). Bytes are handed to the thread pool a chunk at a time
 * (`drain` waits while too many are in flight), so a big pack costs the event loop
 * little and memory a few chunks. `abort` removes what was written.
 */
export class PackWriter {
  readonly name: string;
  readonly packFile: string;
  readonly indexFile: string;
  private readonly entries = new Map<string, PackEntry>();
  /** Bytes of objects added and not yet on disk (so they can be read back meanwhile). */
  private readonly unflushed = new Map<string, Buffer>();
  /** Hashes added since the last flush. */
  private batch: string[] = [];
  private fd: number | undefined;
  private opened: Promise<number> | undefined;
  private offset = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private written = 0;
  private chain: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private failure: { reason: unknown } | undefined;
  private createdDir = false;
  private done = false;
  /**
   * The buffer a chunk's objects are copied into for their write, reused (writes go one at a
   * time, along `chain`). Why: a new buffer per chunk is garbage the moment it is written, and
   * its bytes outside V8's heap go only when a collection finds its wrapper, which a writer
   * allocating little hardly causes: a 4,376-page import's 15 MB commit pack left ~10 MB of such
   * chunks beside the pack's objects at the import's peak.
   */
  private chunkBuffer: Buffer | undefined;
  /** An open on its way (on the thread pool): its descriptor, or the file it creates, is not known yet. */
  private opening = false;
  /** Settles once `abort` removed the pack (later than the call when an open or a write was on its way). */
  removed: Promise<void> | undefined;

  constructor(
    readonly dir: string,
    name: string,
    private readonly options: { durable: boolean; io?: WriteIo } = { durable: true },
  ) {
    this.name = name;
    this.packFile = packPath(dir, name);
    this.indexFile = indexPath(dir, name);
  }

  get count(): number {
    return this.entries.size;
  }

  /** Bytes added so far (the pack's size once finished). */
  get size(): number {
    return this.offset;
  }

  has(hash: string): boolean {
    return this.entries.has(hash);
  }

  /** Where an added object is (undefined when it was not added). */
  entry(hash: string): PackEntry | undefined {
    return this.entries.get(hash);
  }

  /** Bytes added but not yet handed to the disk, and handed but not yet written. */
  get unwritten(): number {
    return this.pendingBytes + this.inFlight;
  }

  /** The bytes of an added object: still in memory, or read back from the file (undefined: not added). */
  peek(hash: string): Buffer | undefined {
    const kept = this.unflushed.get(hash);
    if (kept !== undefined) return kept;
    const entry = this.entries.get(hash);
    if (entry === undefined || this.fd === undefined || entry.offset + entry.length > this.written) return undefined;
    const bytes = Buffer.allocUnsafe(entry.length);
    let got = 0;
    while (got < entry.length) {
      const n = fs.readSync(this.fd, bytes, got, entry.length - got, entry.offset + got);
      if (n === 0) return undefined;
      got += n;
    }
    return bytes;
  }

  /** Appends an object's bytes (already hashed by the caller). */
  add(hash: string, bytes: Buffer, names: boolean): void {
    if (this.done) throw new Error('pack already finished');
    if (this.entries.has(hash)) return;
    this.entries.set(hash, { hash, offset: this.offset, length: bytes.length, names });
    this.unflushed.set(hash, bytes);
    this.batch.push(hash);
    this.offset += bytes.length + 1;
    this.pending.push(bytes, NEWLINE);
    this.pendingBytes += bytes.length + 1;
    if (this.pendingBytes >= CHUNK) this.flush();
  }

  /** Waits while more than `maxBytes` are on their way to the disk (backpressure for big packs). */
  async drain(maxBytes = 4 * CHUNK): Promise<void> {
    while (this.inFlight > maxBytes && this.failure === undefined) await this.chain;
    if (this.failure) throw this.failure.reason;
  }

  private open(): Promise<number> {
    this.opened ??= (async () => {
      this.createdDir = ensurePacksDir(this.dir);
      const io = this.options.io ?? poolIo;
      this.opening = true;
      try {
        this.fd = await guarded('open', this.packFile, () => io.open(this.packFile, 'wx+', FILE_MODE));
      } finally {
        this.opening = false;
      }
      crashPoint('after-temp-open');
      return this.fd;
    })();
    return this.opened;
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const buffers = this.pending;
    const hashes = this.batch;
    this.batch = [];
    const bytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    this.inFlight += bytes;
    this.chain = this.chain.then(async () => {
      try {
        if (this.failure) return;
        const fd = await this.open();
        if (this.failure) return; // aborted while the file was opened
        await this.writeBuffers(fd, buffers, bytes);
        for (const hash of hashes) this.unflushed.delete(hash);
      } catch (error) {
        this.failure ??= { reason: error };
      } finally {
        this.inFlight -= bytes;
      }
    });
  }

  private async writeBuffers(fd: number, buffers: Buffer[], bytes: number): Promise<void> {
    const data = buffers.length === 1 ? (buffers[0] as Buffer) : this.gathered(buffers, bytes);
    if (crashArmed('mid-pack-write')) {
      fs.writeSync(fd, data, 0, Math.floor(data.length / 2), this.written);
      fs.fsyncSync(fd);
      crashPoint('mid-pack-write');
    }
    const short = fault('write', this.packFile) === 'short';
    const end = short ? Math.floor(data.length / 2) : data.length;
    const io = this.options.io ?? poolIo;
    for (let at = 0; at < end; ) at += await io.write(fd, data, at, end - at);
    this.written += end;
    if (short) throw new ShortWriteError(this.packFile, this.written, this.offset);
  }

  /** A chunk's buffers copied back to back: into the writer's reused buffer when they fit (a bigger chunk holds a large object: its own). */
  private gathered(buffers: Buffer[], bytes: number): Buffer {
    if (bytes > REUSED_CHUNK) return Buffer.concat(buffers, bytes);
    this.chunkBuffer ??= Buffer.allocUnsafeSlow(REUSED_CHUNK);
    let at = 0;
    for (const buffer of buffers) at += buffer.copy(this.chunkBuffer, at);
    return this.chunkBuffer.subarray(0, bytes);
  }

  /**
   * Writes what is left, checks the pack's size, fsyncs it, writes and fsyncs its index
   * and syncs packs/. Nothing names the pack yet: the caller does, once this resolved.
   */
  async finish(): Promise<PackInfo> {
    this.flush();
    if (this.fd === undefined) await this.open();
    await this.chain;
    this.chunkBuffer = undefined;
    if (this.failure) throw this.failure.reason;
    this.done = true;
    const fd = this.fd as number;
    const io = this.options.io ?? poolIo;
    const size = await guarded('fstat', this.packFile, () => io.size(fd));
    if (size !== this.offset) throw new ShortWriteError(this.packFile, size, this.offset);
    if (this.options.durable) {
      fault('fsync', this.packFile);
      await fsyncFd(fd);
    }
    this.fd = undefined;
    await guarded('close', this.packFile, () => io.close(fd));
    crashPoint('after-pack-fsync');
    await writeNewFile(this.indexFile, encodeIndex([...this.entries.values()], this.offset), { sync: this.options.durable, io });
    crashPoint('before-dir-fsync');
    if (this.options.durable) {
      await fsyncDir(packsDir(this.dir));
      if (this.createdDir) await fsyncDir(this.dir);
    }
    return { name: this.name, objects: this.entries.size, bytes: this.offset };
  }

  /**
   * Removes the pack and its index (a failed or abandoned write). Never throws. An open or
   * a write still on its way is let finish first (`removed` settles after): closing the
   * descriptor under a write could hand its number to another file meanwhile, and an open
   * that lands after the unlink would leave a pack file behind. Nothing new starts once
   * aborted (`failure` is set).
   */
  abort(): void {
    this.done = true;
    this.failure ??= { reason: new Error('pack aborted') };
    if (this.removed !== undefined) return;
    if (this.inFlight === 0 && !this.opening) {
      this.remove();
      this.removed = Promise.resolve();
      return;
    }
    const settled = Promise.allSettled([this.chain, this.opened]);
    this.removed = settled.then(() => this.remove());
  }

  private remove(): void {
    if (this.fd !== undefined) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = undefined;
    }
    for (const file of [this.packFile, this.indexFile]) {
      try {
        fs.unlinkSync(file);
      } catch {
        // not written, or gone
      }
    }
  }
}

/** The index of a pack: header, fan-out, entries sorted by hash. */
export function encodeIndex(entries: readonly PackEntry[], packBytes: number): Buffer {
  const sorted = [...entries].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  const header = `${MAGIC} ${sorted.length} ${packBytes}\n`;
  const fanout = new Array<number>(256).fill(0);
  for (const entry of sorted) fanout[parseInt(entry.hash.slice(0, 2), 16)] = (fanout[parseInt(entry.hash.slice(0, 2), 16)] as number) + 1;
  for (let i = 1; i < 256; i += 1) fanout[i] = (fanout[i] as number) + (fanout[i - 1] as number);
  const fanoutLine = `fanout${fanout.map((n) => ` ${n.toString(16).padStart(8, '0')}`).join('')}\n`;
  const out = Buffer.allocUnsafe(header.length + fanoutLine.length + sorted.length * ENTRY);
  let at = out.write(header, 0, 'latin1');
  at += out.write(fanoutLine, at, 'latin1');
  for (const entry of sorted) {
    at += out.write(
      `${entry.hash} ${entry.offset.toString(16).padStart(12, '0')} ${entry.length.toString(16).padStart(8, '0')} ${entry.names ? 1 : 0}\n`,
      at,
      'latin1',
    );
  }
  return out;
}

// ─── Reading ─────────────────────────────────────────────────────────────────

function damaged(file: string, what: string): StoreError {
  return new StoreError(`store damaged: ${file} ${what}`, file, { hint: DAMAGE_HINT });
}

function unreadable(file: string, error: unknown): StoreError {
  return new StoreError(`cannot read ${file} (${errnoCode(error) ?? String(error)})`, file, { hint: DAMAGE_HINT, cause: error });
}

function preadAll(fd: number, file: string, length: number, position: number, into?: Buffer): Buffer {
  fault('read', file);
  const bytes = into ?? Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, bytes, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === bytes.length ? bytes : bytes.subarray(0, got);
}

/**
 * A pack open for reading. `open` checks the index's header and that the pack has the
 * size it records (a torn or truncated pack is damage, named); lookups read the index
 * a fan-out bucket at a time. Undefined from `open` when the pack is gone (merged
 * into another and removed, or never finished).
 */
export class PackFile {
  private indexFd: number | undefined;
  private packFd: number | undefined;
  private readonly fanout = new Uint32Array(256);
  private entriesStart = 0;
  private whole: Buffer | undefined;
  /** Lookups made before the index was read whole. */
  private lookups = 0;
  /** Where a bucket is read while the index is not held whole (reused: see WHOLE_AFTER_LOOKUPS). */
  private scratch: Buffer | undefined;
  private window: { start: number; bytes: Buffer } | undefined;
  /**
   * The window's memory, reused by every window read (what a read returns is a copy): a
   * new buffer per read was 5% of a `cr merge`'s CPU, and its external memory drove GC.
   */
  private windowBuffer: Buffer | undefined;
  /** Bytes the next window read takes (see MIN_WINDOW). */
  private windowSize = MIN_WINDOW;
  readonly packFile: string;
  readonly indexFile: string;

  private constructor(
    readonly dir: string,
    readonly name: string,
    readonly count: number,
    readonly bytes: number,
  ) {
    this.packFile = packPath(dir, name);
    this.indexFile = indexPath(dir, name);
  }

  static open(dir: string, name: string): PackFile | undefined {
    const indexFile = indexPath(dir, name);
    let indexFd: number;
    try {
      fault('read', indexFile);
      indexFd = fs.openSync(indexFile, 'r');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw unreadable(indexFile, error);
    }
    let pack: PackFile | undefined;
    try {
      const head = preadAll(indexFd, indexFile, 4096, 0);
      const firstEnd = head.indexOf(0x0a);
      const match = firstEnd < 0 ? null : /^docsctl-pack-index 1 (\d{1,12}) (\d{1,15})$/.exec(head.toString('latin1', 0, firstEnd));
      const secondEnd = firstEnd < 0 ? -1 : head.indexOf(0x0a, firstEnd + 1);
      if (!match || secondEnd !== firstEnd + 1 + 6 + 256 * 9 || head.toString('latin1', firstEnd + 1, firstEnd + 7) !== 'fanout') {
        throw damaged(indexFile, 'is not a pack index');
      }
      pack = new PackFile(dir, name, Number(match[1]), Number(match[2]));
      for (let i = 0; i < 256; i += 1) {
        const at = firstEnd + 8 + i * 9;
        pack.fanout[i] = parseInt(head.toString('latin1', at, at + 8), 16);
      }
      pack.entriesStart = secondEnd + 1;
      const indexSize = fs.fstatSync(indexFd).size;
      if (pack.fanout[255] !== pack.count || indexSize !== pack.entriesStart + pack.count * ENTRY) {
        throw damaged(indexFile, `is ${indexSize} bytes, not the index of ${pack.count} objects (torn?)`);
      }
      let packFd: number;
      try {
        packFd = fs.openSync(pack.packFile, 'r');
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') throw damaged(pack.packFile, 'is missing (its index is there)');
        throw unreadable(pack.packFile, error);
      }
      pack.packFd = packFd;
      const size = fs.fstatSync(packFd).size;
      if (size !== pack.bytes) throw damaged(pack.packFile, `is ${size} bytes, its index says ${pack.bytes} (torn?)`);
      pack.indexFd = indexFd;
      return pack;
    } catch (error) {
      pack?.close();
      try {
        fs.closeSync(indexFd);
      } catch {
        // closed
      }
      throw error instanceof StoreError ? error : unreadable(indexFile, error);
    }
  }

  get closed(): boolean {
    return this.indexFd === undefined;
  }

  /** The entries whose hash starts with byte `b`, as index lines. */
  private bucket(b: number): Buffer {
    const from = b === 0 ? 0 : (this.fanout[b - 1] as number);
    const to = this.fanout[b] as number;
    const size = this.count * ENTRY;
    if (this.whole === undefined && (size <= SMALL_INDEX || (++this.lookups > WHOLE_AFTER_LOOKUPS && size <= WHOLE_INDEX_MAX))) {
      this.whole = preadAll(this.indexFd as number, this.indexFile, size, this.entriesStart);
      this.scratch = undefined;
    }
    if (this.whole !== undefined) return this.whole.subarray(from * ENTRY, to * ENTRY);
    const length = (to - from) * ENTRY;
    if (this.scratch === undefined || this.scratch.length < length) this.scratch = Buffer.allocUnsafe(Math.max(length, 64 * ENTRY));
    return preadAll(this.indexFd as number, this.indexFile, length, this.entriesStart + from * ENTRY, this.scratch.subarray(0, length));
  }

  /** Where `hash` is in this pack (undefined: not here, or the pack was closed). */
  find(hash: string): PackEntry | undefined {
    if (this.indexFd === undefined || hash.length !== 64) return undefined;
    let lines: Buffer;
    try {
      lines = this.bucket(parseInt(hash.slice(0, 2), 16));
    } catch (error) {
      throw unreadable(this.indexFile, error);
    }
    // A binary search comparing the lines' hex digits with the hash's in place (lowercase hex
    // sorts as its value): no string or number per line. A Buffer.compare per step, then a
    // number per line of each bucket met, were most of the CPU of reading a whole site's tries.
    let lo = 0;
    let hi = lines.length / ENTRY;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const order = compareHashAt(lines, mid * ENTRY, hash);
      if (order === 0) return parseEntry(lines, mid * ENTRY, this.indexFile, hash);
      if (order < 0) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }

  /**
   * The verified bytes of an entry of this pack. Throws StoreError naming the pack when they do not match.
   * `transient`: the caller uses the bytes before its next read of this pack (parses them at once), so they may
   * be a view of the read window rather than a copy (a copy per object was ~3% of reading a whole site's tries).
   */
  read(entry: PackEntry, transient = false): Buffer {
    const bytes = this.readRaw(entry, transient);
    verifyObject(bytes, entry.hash, this.packFile, `object ${entry.hash.slice(0, 12)}… in ${this.packFile}`);
    return bytes;
  }

  /**
   * An entry's bytes as stored, unverified: a repack copies them as they are, so damage
   * travels with its hash and is still found by the next read or fsck, and a merge is not
   * stopped by one bad object.
   */
  readRaw(entry: PackEntry, transient = false): Buffer {
    if (this.packFd === undefined) throw unreadable(this.packFile, new Error('closed'));
    const end = entry.offset + entry.length;
    if (end > this.bytes) throw damaged(this.packFile, `is too short for object ${entry.hash.slice(0, 12)}…`);
    let bytes: Buffer;
    try {
      if (entry.length >= MAX_WINDOW / 2) bytes = preadAll(this.packFd, this.packFile, entry.length, entry.offset);
      else {
        const window = this.windowFor(entry.offset, end);
        const view = window.bytes.subarray(entry.offset - window.start, end - window.start);
        bytes = transient ? view : Buffer.from(view);
      }
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw unreadable(this.packFile, error);
    }
    return bytes;
  }

  /** The read window holding bytes `offset`..`end` of the pack: the last one, or a new one read there. */
  private windowFor(offset: number, end: number): { start: number; bytes: Buffer } {
    let window = this.window;
    if (window === undefined || offset < window.start || end > window.start + window.bytes.length) {
      // Forward from the last window (straddling its end or just past it): a sequential read.
      const forward = window !== undefined && offset >= window.start && offset < window.start + window.bytes.length + this.windowSize;
      this.windowSize = forward ? Math.min(this.windowSize * 2, MAX_WINDOW) : MIN_WINDOW;
      const size = Math.min(Math.max(this.windowSize, end - offset), this.bytes - offset);
      this.windowBuffer ??= Buffer.allocUnsafe(MAX_WINDOW);
      window = { start: offset, bytes: preadAll(this.packFd as number, this.packFile, size, offset, this.windowBuffer) };
      this.window = window;
    }
    return window;
  }

  /**
   * The bytes of the object that starts at `offset` when it is `hash` (verified: they hash
   * to it), else undefined, with no index lookup: objects follow one another in a pack, one
   * per line, and a walk reads them in the order a commit wrote them (a trie before its
   * children). Objects of half a window or more are left to the index. Anything unexpected
   * (past the end, no line end, another object, a read error) is undefined: the caller looks
   * the hash up in the index, whose read reports damage. `transient`: as for `read`.
   */
  readIfAt(offset: number, hash: string, transient = false): Buffer | undefined {
    if (this.packFd === undefined || offset >= this.bytes) return undefined;
    try {
      let window = this.windowFor(offset, offset + 1);
      let newline = window.bytes.indexOf(0x0a, offset - window.start);
      if (newline < 0 && window.start + window.bytes.length < this.bytes) {
        // The line runs past the window: a window from its start (up to half the largest).
        window = this.windowFor(offset, Math.min(offset + MAX_WINDOW / 2, this.bytes));
        newline = window.bytes.indexOf(0x0a, offset - window.start);
      }
      if (newline < 0) return undefined;
      const view = window.bytes.subarray(offset - window.start, newline);
      if (sha256(view) !== hash) return undefined;
      return transient ? view : Buffer.from(view);
    } catch {
      return undefined;
    }
  }

  /** Every entry, in hash order (reads the whole index). */
  allEntries(): PackEntry[] {
    if (this.indexFd === undefined) return [];
    const lines = this.count * ENTRY <= SMALL_INDEX ? this.bucketAll() : preadAll(this.indexFd, this.indexFile, this.count * ENTRY, this.entriesStart);
    const out: PackEntry[] = [];
    for (let at = 0; at < lines.length; at += ENTRY) out.push(parseEntry(lines, at, this.indexFile));
    return out;
  }

  private bucketAll(): Buffer {
    this.bucket(0);
    return this.whole as Buffer;
  }

  /** Problems of the index itself (fsck): order, entries out of the pack, overlaps. */
  indexProblem(): string | undefined {
    let previous = '';
    let bytes = 0;
    try {
      const entries = this.allEntries();
      for (const entry of entries) {
        if (entry.hash <= previous) return 'has entries out of order';
        previous = entry.hash;
        if (entry.offset + entry.length > this.bytes) return `names object ${entry.hash.slice(0, 12)}… beyond the end of its pack`;
        bytes += entry.length + 1;
      }
      if (bytes !== this.bytes) return `accounts for ${bytes} of the pack's ${this.bytes} bytes`;
      for (let b = 0; b < 256; b += 1) {
        const from = b === 0 ? 0 : (this.fanout[b - 1] as number);
        const to = this.fanout[b] as number;
        for (let i = from; i < to; i += 1) if (parseInt((entries[i] as PackEntry).hash.slice(0, 2), 16) !== b) return 'has a wrong fan-out table';
      }
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    return undefined;
  }

  /** Reads `length` bytes at `offset` of the pack, unverified (copying a whole pack). */
  readRange(offset: number, length: number): Buffer {
    if (this.packFd === undefined) throw unreadable(this.packFile, new Error('closed'));
    return preadAll(this.packFd, this.packFile, length, offset);
  }

  close(): void {
    for (const fd of [this.indexFd, this.packFd]) {
      if (fd === undefined) continue;
      try {
        fs.closeSync(fd);
      } catch {
        // closed
      }
    }
    this.indexFd = undefined;
    this.packFd = undefined;
    this.whole = undefined;
    this.scratch = undefined;
    this.window = undefined;
    this.windowBuffer = undefined;
  }
}

/** How the hash of the index line at `at` sorts against `hash` (the bucket's first byte is the same): a byte loop, not a Buffer. */
function compareHashAt(lines: Buffer, at: number, hash: string): number {
  for (let i = 2; i < 64; i += 1) {
    const order = (lines[at + i] as number) - hash.charCodeAt(i);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * The entry of the index line at `at`. `found`: the hash a search matched there (its bytes
 * equal the line's), so the line's hash is not read again; its numbers are read from the
 * bytes. Three small strings and two parseInt per lookup were a third of finding an object.
 */
function parseEntry(lines: Buffer, at: number, file: string, found?: string): PackEntry {
  const hash = found ?? lines.toString('latin1', at, at + 64);
  const offset = hexAt(lines, at + 65, 12);
  const length = hexAt(lines, at + 78, 8);
  const flag = lines[at + 87];
  if (
    (found === undefined && !HASH_RE.test(hash)) ||
    offset < 0 ||
    length < 0 ||
    lines[at + 64] !== 0x20 ||
    lines[at + 77] !== 0x20 ||
    lines[at + 86] !== 0x20 ||
    (flag !== 0x30 && flag !== 0x31) ||
    lines[at + 88] !== 0x0a
  ) {
    throw damaged(file, 'has a garbled entry');
  }
  return { hash, offset, length, names: flag === 0x31 };
}

/** The number written in `digits` lowercase hex digits at `at`, or -1 when one is not a hex digit. */
function hexAt(bytes: Buffer, at: number, digits: number): number {
  let value = 0;
  for (let i = at; i < at + digits; i += 1) {
    const c = bytes[i] as number;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Removes a pack and its index (maintenance); true when something was removed. */
export function removePack(dir: string, name: string): boolean {
  let removed = false;
  for (const file of [indexPath(dir, name), packPath(dir, name)]) {
    try {
      fs.unlinkSync(file);
      removed = true;
    } catch {
      // gone already
    }
  }
  return removed;
}

/** Bytes of a pack and its index on disk (0 when gone). */
export function packDiskBytes(dir: string, name: string): number {
  let bytes = 0;
  for (const file of [indexPath(dir, name), packPath(dir, name)]) {
    try {
      bytes += fs.statSync(file).size;
    } catch {
      // gone
    }
  }
  return bytes;
}
