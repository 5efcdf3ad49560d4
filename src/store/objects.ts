/**
 * The store's files: content-addressed objects (`objects/ab/<sha256>.json`,
 * immutable, verified on every read), and the durable-write helpers every
 * writer uses (temp file opened 'wx' 0600 → write → size check → fsync → close →
 * rename or link; directory fsync), with fault hooks on each fs call.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StoreError, StoreFullError } from './errors.js';
import { crashArmed, crashPoint, fault, type FsOp } from './fault.js';

export const HASH_RE = /^[0-9a-f]{64}$/;
export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

export const DAMAGE_HINT =
  'run "docsctl store fsck" to list the damage and "docsctl store recover" to return to the last good state';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Canonical text of a JSON value (no whitespace). Throws TypeError for values JSON cannot hold. */
export function encodeJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`cannot store ${typeof value} in the store (not a JSON value)`);
  return text;
}

export function objectPath(dir: string, hash: string): string {
  return path.join(dir, 'objects', hash.slice(0, 2), `${hash}.json`);
}

export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : undefined;
}

/** The error for an object that is neither a loose file nor in a pack. */
export function missingObject(dir: string, hash: string, cause?: unknown): StoreError {
  const file = objectPath(dir, hash);
  return new StoreError(`store damaged: object ${file} is missing`, file, { hint: DAMAGE_HINT, ...(cause ? { cause } : {}) });
}

/** Parses an object's verified bytes. Throws StoreError naming `file` when they are not JSON. */
export function parseObject(bytes: Buffer, file: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    throw new StoreError(`store damaged: ${file} is not valid JSON`, file, { hint: DAMAGE_HINT, cause: error });
  }
}

/**
 * Reads a loose object file and checks its hash; undefined when there is no such file
 * (the object may be in a pack, pack.ts). Throws StoreError naming the file when damaged.
 */
export function readLooseObject(dir: string, hash: string): { value: unknown; size: number } | undefined {
  const file = objectPath(dir, hash);
  let bytes: Buffer;
  try {
    fault('read', file);
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return undefined;
    throw new StoreError(`cannot read ${file} (${code ?? String(error)})`, file, { hint: DAMAGE_HINT, cause: error });
  }
  const actual = sha256(bytes);
  if (actual !== hash) {
    throw new StoreError(
      `store damaged: ${file} does not match its hash (${bytes.length} bytes, content sha256 ${actual.slice(0, 12)}…)`,
      file,
      { hint: DAMAGE_HINT },
    );
  }
  return { value: parseObject(bytes, file), size: bytes.length };
}

/** Reads a loose object file and checks its hash. Throws StoreError naming the file when missing or damaged. */
export function readObjectSync(dir: string, hash: string): { value: unknown; size: number } {
  const loose = readLooseObject(dir, hash);
  if (loose === undefined) throw missingObject(dir, hash);
  return loose;
}

/** A least-recently-used cache of parsed immutable objects, capped by count and by bytes. */
export class ObjectCache {
  private map = new Map<string, { value: unknown; size: number }>();
  private bytes = 0;
  constructor(
    private readonly maxEntries = 20_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}
  get(hash: string): unknown {
    const hit = this.map.get(hash);
    if (hit === undefined) return undefined;
    // Refresh recency only now and then: delete+set on every hit costs more than it saves.
    if (this.map.size > this.maxEntries / 2) {
      this.map.delete(hash);
      this.map.set(hash, hit);
    }
    return hit.value;
  }
  set(hash: string, value: unknown, size: number): void {
    if (size > this.maxBytes / 8 || this.maxEntries <= 0) return;
    const old = this.map.get(hash);
    if (old) {
      this.bytes -= old.size;
      this.map.delete(hash);
    }
    this.map.set(hash, { value, size });
    this.bytes += size;
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const first = this.map.keys().next();
      if (first.done) break;
      const entry = this.map.get(first.value);
      this.map.delete(first.value);
      this.bytes -= entry?.size ?? 0;
    }
  }
  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }
  get size(): number {
    return this.map.size;
  }
}

// ─── Durable writes ──────────────────────────────────────────────────────────

let tempCounter = 0;
const tempPrefix = `${process.pid}-${randomBytes(4).toString('hex')}`;

/** A unique temp file name in `<dir>/tmp/`. */
export function tempPath(dir: string, label = 'obj'): string {
  tempCounter += 1;
  return path.join(dir, 'tmp', `${label}-${tempPrefix}-${tempCounter}.tmp`);
}

/** An error for a write that wrote fewer bytes than asked (full disk). */
export class ShortWriteError extends Error {
  readonly code = 'ESHORT';
  constructor(
    readonly path: string,
    readonly written: number,
    readonly expected: number,
  ) {
    super(`short write to ${path}: ${written} of ${expected} bytes`);
  }
}

function guarded<T>(op: FsOp, file: string, call: () => T): T {
  fault(op, file);
  return call();
}

function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fsync(fd, (error) => (error ? reject(error) : resolve())));
}

/**
 * The fs calls of a durable write. `syncIo` makes them on the calling thread: cheaper
 * than a thread-pool round trip each, right for a commit, which waits for them anyway.
 * `poolIo` makes them on libuv's thread pool: creating and renaming a file wait for
 * the file system's journal while another file's fsync commits it (ext4), and a
 * checkpoint running beside the next commits (json-file-store.ts) must not stall the
 * event loop there.
 */
export interface WriteIo {
  open(file: string, flags: string, mode: number): number | Promise<number>;
  write(fd: number, data: Buffer, offset: number, length: number): number | Promise<number>;
  size(fd: number): number | Promise<number>;
  close(fd: number): void | Promise<void>;
  rename(from: string, to: string): void | Promise<void>;
}

export const syncIo: WriteIo = {
  open: (file, flags, mode) => fs.openSync(file, flags, mode),
  write: (fd, data, offset, length) => fs.writeSync(fd, data, offset, length),
  size: (fd) => fs.fstatSync(fd).size,
  close: (fd) => fs.closeSync(fd),
  rename: (from, to) => fs.renameSync(from, to),
};

/** Settles a promise from a node-style callback. */
function called<T>(start: (done: (error: Error | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => start((error, value) => (error ? reject(error) : resolve(value))));
}

export const poolIo: WriteIo = {
  open: (file, flags, mode) => called((done) => fs.open(file, flags, mode, done)),
  write: (fd, data, offset, length) => called((done) => fs.write(fd, data, offset, length, null, done)),
  size: (fd) => called<fs.Stats>((done) => fs.fstat(fd, done)).then((stat) => stat.size),
  close: (fd) => called<void>((done) => fs.close(fd, (error) => done(error ?? null, undefined))),
  rename: (from, to) => called<void>((done) => fs.rename(from, to, (error) => done(error ?? null, undefined))),
};

/**
 * Writes `bytes` to a new file (opened 'wx' 0600) and checks its size; fsyncs it when `sync`.
 * The calls go through `io` (syncIo by default, see WriteIo); the fsync always waits
 * asynchronously, so several files can sync in parallel.
 * The file is registered in `temps` as soon as it exists, so a failure can remove it.
 */
export async function writeNewFile(
  file: string,
  bytes: Buffer,
  options: { sync: boolean; temps?: Set<string>; object?: boolean; io?: WriteIo },
): Promise<void> {
  const io = options.io ?? syncIo;
  const fd = await guarded('open', file, () => io.open(file, 'wx', FILE_MODE));
  options.temps?.add(file);
  let closed = false;
  try {
    if (options.object) crashPoint('after-temp-open');
    if (options.object && crashArmed('mid-object-write')) {
      fs.writeSync(fd, bytes, 0, Math.floor(bytes.length / 2));
      fs.fsyncSync(fd);
      crashPoint('mid-object-write');
    }
    const data = fault('write', file) === 'short' ? bytes.subarray(0, Math.floor(bytes.length / 2)) : bytes;
    for (let offset = 0; offset < data.length; ) offset += await io.write(fd, data, offset, data.length - offset);
    const size = await guarded('fstat', file, () => io.size(fd));
    if (size !== bytes.length) throw new ShortWriteError(file, size, bytes.length);
    if (options.sync) {
      fault('fsync', file);
      await fsyncFd(fd);
    }
    closed = true;
    await guarded('close', file, () => io.close(fd));
  } finally {
    if (!closed) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failing
      }
    }
  }
}

/** fsyncs a directory so renames/links/creations in it survive a power loss (best effort where unsupported). */
export async function fsyncDir(dir: string): Promise<void> {
  fault('fsyncdir', dir);
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch (error) {
    if (process.platform === 'win32') return;
    throw error;
  }
  try {
    await fsyncFd(fd);
  } catch (error) {
    const code = errnoCode(error);
    // Some platforms / file systems cannot fsync a directory; data is still written.
    if (process.platform === 'win32' || code === 'EINVAL' || code === 'EPERM' || code === 'EISDIR' || code === 'ENOTSUP') {
      return;
    }
    throw error;
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // ignore
    }
  }
}

export const fsops = {
  rename: (from: string, to: string) => guarded('rename', from, () => fs.renameSync(from, to)),
  link: (from: string, to: string) => guarded('link', to, () => fs.linkSync(from, to)),
  unlink: (file: string) => guarded('unlink', file, () => fs.unlinkSync(file)),
  /** Size of a file, or undefined when it does not exist. */
  size: (file: string) => guarded('stat', file, () => fs.statSync(file, { throwIfNoEntry: false })?.size),
  mkdir: (dir: string) => guarded('mkdir', dir, () => fs.mkdirSync(dir, { mode: DIR_MODE })),
};

/** Removes files, ignoring errors (cleanup after a failure; never goes through fault hooks). */
export function removeQuietly(files: Iterable<string>): void {
  for (const file of files) {
    try {
      fs.unlinkSync(file);
    } catch {
      // gone already, or not ours to worry about: gc sweeps tmp/
    }
  }
}

/** Existing objects up to this size are re-verified before being reused; bigger ones are trusted by size. */
const VERIFY_EXISTING_MAX = 256 * 1024;

function sameContent(file: string, hash: string): boolean {
  try {
    return sha256(fs.readFileSync(file)) === hash;
  } catch {
    return false;
  }
}

/**
 * Tracks one commit attempt's writes: new objects, the directories to fsync,
 * and temp files to remove if anything fails.
 */
export class ObjectWriter {
  readonly temps = new Set<string>();
  readonly touchedDirs = new Set<string>();
  constructor(
    readonly dir: string,
    /** Prefix directories (`objects/ab`) known to exist, shared per store. */
    private readonly knownPrefixes: Set<string>,
    /** False skips every fsync (bulk generation of fixtures only). */
    private readonly durable = true,
    /** How the files are created, written and renamed (see WriteIo). */
    private readonly io: WriteIo = syncIo,
  ) {}

  private ensurePrefix(prefix: string): void {
    if (this.knownPrefixes.has(prefix)) return;
    const full = path.join(this.dir, 'objects', prefix);
    try {
      fsops.mkdir(full);
      this.touchedDirs.add(path.join(this.dir, 'objects'));
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') {
        // objects/ itself is missing (an emptied store): recreate both levels.
        fs.mkdirSync(full, { recursive: true, mode: DIR_MODE });
        this.touchedDirs.add(this.dir);
        this.touchedDirs.add(path.join(this.dir, 'objects'));
      } else if (code !== 'EEXIST') {
        throw error;
      }
    }
    this.knownPrefixes.add(prefix);
  }

  /** Writes one object unless a complete copy already exists. */
  async writeObject(hash: string, bytes: Buffer): Promise<void> {
    const prefix = hash.slice(0, 2);
    this.ensurePrefix(prefix);
    const target = objectPath(this.dir, hash);
    const size = fsops.size(target);
    if (size === bytes.length && (size > VERIFY_EXISTING_MAX || sameContent(target, hash))) return; // already there
    // Missing, or damaged (a different size or content): write it (renaming over a damaged copy heals it).
    const temp = tempPath(this.dir);
    await writeNewFile(temp, bytes, { sync: this.durable, temps: this.temps, object: true, io: this.io });
    crashPoint('after-object-fsync');
    await guarded('rename', temp, () => this.io.rename(temp, target));
    this.temps.delete(temp);
    this.touchedDirs.add(path.dirname(target));
    crashPoint('after-rename');
  }

  /**
   * Writes all objects, at most `inFlight` at a time (all at once by default), and waits
   * for every write to settle before reporting the first failure.
   */
  async writeAll(objects: Map<string, Buffer>, inFlight = Number.POSITIVE_INFINITY): Promise<void> {
    const queue = [...objects];
    let failure: { reason: unknown } | undefined;
    const lane = async (): Promise<void> => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        try {
          await this.writeObject(next[0], next[1]);
        } catch (error) {
          failure ??= { reason: error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, queue.length) }, lane));
    if (failure) throw failure.reason;
  }

  async syncDirs(): Promise<void> {
    crashPoint('before-dir-fsync');
    if (!this.durable) return;
    const results = await Promise.allSettled([...this.touchedDirs].map((d) => fsyncDir(d)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    this.touchedDirs.clear();
  }

  cleanup(): void {
    removeQuietly(this.temps);
    this.temps.clear();
  }
}

/** The file a Node fs error names (its `path`), or `fallback`. */
export function errorPath(error: unknown, fallback: string): string {
  const named = typeof error === 'object' && error !== null ? (error as { path?: unknown }).path : undefined;
  return typeof named === 'string' ? named : fallback;
}

/**
 * Turns a failed write into one clear StoreError line: what happened, where, and
 * that nothing was saved.
 */
export function writeFailure(error: unknown, gen: number, fallbackPath: string): StoreError {
  if (error instanceof StoreError) return error;
  const code = errnoCode(error);
  const file = errorPath(error, fallbackPath);
  const unchanged = `nothing was saved (store unchanged at gen ${gen})`;
  let message: string;
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      message = `disk full: ${unchanged}`;
      break;
    case 'ESHORT':
      message = `short write to ${file} (disk full?): ${unchanged}`;
      break;
    case 'EACCES':
    case 'EPERM':
      message = `permission denied writing ${file}: ${unchanged}`;
      break;
    case 'EROFS':
      message = `read-only file system at ${file}: ${unchanged}`;
      break;
    case 'EIO':
      message = `I/O error writing ${file}: ${unchanged}`;
      break;
    case 'EMFILE':
    case 'ENFILE':
      message = `too many open files writing ${file}: ${unchanged}`;
      break;
    default:
      message = `cannot write ${file} (${code ?? (error instanceof Error ? error.message : String(error))}): ${unchanged}`;
  }
  const full = code === 'ENOSPC' || code === 'EDQUOT' || code === 'ESHORT';
  return full ? new StoreFullError(message, file, { cause: error }) : new StoreError(message, file, { cause: error });
}
