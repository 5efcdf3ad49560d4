/**
 * Durable writes, the way every file of the store is written: a new file opened
 * 'wx' 0600 → write (looping, size checked: a full disk can write short) → fsync →
 * close → rename or link; directories fsynced after entries change. Every fs call
 * goes through the fault hooks (fault.ts), and a failure becomes one clear
 * StoreError line saying nothing was saved (`writeFailure`).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StoreError, StoreFullError } from './errors.js';
import { fault, type FsOp } from './fault.js';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : undefined;
}

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

export function guarded<T>(op: FsOp, file: string, call: () => T): T {
  fault(op, file);
  return call();
}

export function fsyncFd(fd: number): Promise<void> {
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
  unlink(file: string): void | Promise<void>;
}

export const syncIo: WriteIo = {
  open: (file, flags, mode) => fs.openSync(file, flags, mode),
  write: (fd, data, offset, length) => fs.writeSync(fd, data, offset, length),
  size: (fd) => fs.fstatSync(fd).size,
  close: (fd) => fs.closeSync(fd),
  rename: (from, to) => fs.renameSync(from, to),
  unlink: (file) => fs.unlinkSync(file),
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
  unlink: (file) => called<void>((done) => fs.unlink(file, (error) => done(error ?? null, undefined))),
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
  options: { sync: boolean; temps?: Set<string>; io?: WriteIo },
): Promise<void> {
  const io = options.io ?? syncIo;
  const fd = await guarded('open', file, () => io.open(file, 'wx', FILE_MODE));
  options.temps?.add(file);
  let closed = false;
  try {
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

/**
 * A new file ('wx' 0600) opened on the thread pool ahead of its write: a commit opens its
 * temp file while its transactions run, not on the event loop when it writes it (an open
 * there waited for ext4's journal while another commit's fsync held it). The fault hook is
 * consulted when the open starts. `write` writes and fsyncs it on the pool too, and leaves
 * the descriptor for `remove`, which closes it off the commit's path: the file is linked
 * (commit.ts) once its bytes are synced, and a close after that flushes nothing.
 */
export class OpenedFile {
  private readonly fd: Promise<number>;
  private open = true;

  constructor(readonly file: string) {
    this.fd = (async () => guarded('open', file, () => poolIo.open(file, 'wx', FILE_MODE)))();
    this.fd.catch(() => undefined); // whoever writes or removes it sees the failure
  }

  /**
   * Writes `bytes` (looping: a full disk can write short), checks every byte was written
   * and fsyncs when `sync`; each call on the thread pool. Once.
   */
  async write(bytes: Buffer, sync: boolean): Promise<void> {
    const fd = await this.fd;
    const file = this.file;
    const data = fault('write', file) === 'short' ? bytes.subarray(0, Math.floor(bytes.length / 2)) : bytes;
    let written = 0;
    while (written < data.length) written += await poolIo.write(fd, data, written, data.length - written);
    // The count, not an fstat: the loop above ends only once the kernel took every byte it was given.
    if (written !== bytes.length) throw new ShortWriteError(file, written, bytes.length);
    if (sync) {
      fault('fsync', file);
      await fsyncFd(fd);
    }
  }

  /** Closes and removes the file on the thread pool (once; after `write`, or when nothing was written). Never rejects. */
  async remove(): Promise<void> {
    const fd = await this.fd.catch(() => undefined);
    if (fd === undefined) return;
    if (this.open) {
      this.open = false;
      await Promise.resolve(poolIo.close(fd)).catch(() => undefined);
    }
    await Promise.resolve(poolIo.unlink(this.file)).catch(() => undefined); // gc sweeps tmp/ if this fails
  }
}

/** Some platforms / file systems cannot fsync a directory (the data is still written). */
function unsyncableDir(error: unknown): boolean {
  const code = errnoCode(error);
  return process.platform === 'win32' || code === 'EINVAL' || code === 'EPERM' || code === 'EISDIR' || code === 'ENOTSUP';
}

function openDir(dir: string): Promise<number> {
  return called((done) => fs.open(dir, 'r', done));
}

/** fsyncs a directory so renames/links/creations in it survive a power loss (best effort where unsupported). */
export async function fsyncDir(dir: string): Promise<void> {
  fault('fsyncdir', dir);
  let fd: number;
  try {
    fd = await openDir(dir);
  } catch (error) {
    if (process.platform === 'win32') return;
    throw error;
  }
  try {
    await fsyncFd(fd);
  } catch (error) {
    if (unsyncableDir(error)) return;
    throw error;
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // ignore
    }
  }
}

/**
 * A directory kept open for fsyncDir's work: a commit syncs commits/ after every link,
 * and opening it each time was a path lookup and a descriptor on the event loop per
 * commit (~2% of a create under `serve`). A failed open or fsync lets the descriptor go
 * (closed once no sync uses it): the next sync opens the directory again. `close` when
 * the store closes.
 */
export class DirSync {
  private current: { fd: Promise<number>; users: number; dropped: boolean } | undefined;

  constructor(readonly dir: string) {}

  async sync(): Promise<void> {
    fault('fsyncdir', this.dir);
    const handle = (this.current ??= { fd: openDir(this.dir), users: 0, dropped: false });
    handle.users += 1;
    let opened = false;
    try {
      const fd = await handle.fd;
      opened = true;
      await fsyncFd(fd);
    } catch (error) {
      this.drop(handle);
      if (opened ? unsyncableDir(error) : process.platform === 'win32') return;
      throw error;
    } finally {
      handle.users -= 1;
      void this.closeIfDone(handle);
    }
  }

  /** Closes the descriptor (at once when no sync is under way; else after the last one). */
  async close(): Promise<void> {
    const handle = this.current;
    if (handle === undefined) return;
    this.drop(handle);
    await this.closeIfDone(handle);
  }

  private drop(handle: NonNullable<DirSync['current']>): void {
    if (this.current === handle) this.current = undefined;
    handle.dropped = true;
  }

  private async closeIfDone(handle: NonNullable<DirSync['current']>): Promise<void> {
    if (!handle.dropped || handle.users !== 0) return;
    handle.users = -1; // closed once: no sync can take it any more (dropped)
    const fd = await handle.fd.catch(() => undefined);
    if (fd === undefined) return;
    try {
      fs.closeSync(fd); // a directory's close flushes nothing
    } catch {
      // ignore
    }
  }
}

/**
 * A hard link made on the thread pool: a commit's link waits for ext4's journal while
 * another commit's fsync holds it, and on the event loop that wait held every request.
 */
export function linkOnPool(from: string, to: string): Promise<void> {
  return guarded('link', to, () => called<void>((done) => fs.link(from, to, (error) => done(error ?? null, undefined))));
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
