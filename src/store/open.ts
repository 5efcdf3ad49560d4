/**
 * Create / open a JsonFileStore: what every command that uses the store loads.
 * The maintenance operations (`docsctl store fsck|recover|gc|unlock`) are in
 * index.ts, which adds them, so that the others do not load them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DocsctlError } from '../util/errors.js';
import { StoreError, StoreExistsError } from './errors.js';
import { formatText, listCommitGens, paths } from './commit-file.js';
import { DIR_MODE, FILE_MODE, errnoCode, errorPath } from './durable.js';
import { JsonFileStore, type OpenStoreOptions } from './json-file-store.js';

export { JsonFileStore, type OpenStoreOptions } from './json-file-store.js';
export { FormatTooNewError } from './commit-file.js';
export type { LockOwner } from './lock.js';
export type { Json, ScanOptions, Store, StoreReader, StoreWriter, TransactOptions } from './types.js';
export { scanRows } from './scan.js';

/** True when `dir` holds a store (has a FORMAT file). */
export function storeExists(dir: string): boolean {
  return fs.existsSync(paths.format(path.resolve(dir)));
}

/** Opens an existing store. Throws StoreNotFoundError when there is none, StoreError when FORMAT is bad or newer. */
export function openStore(dir: string, options: OpenStoreOptions = {}): JsonFileStore {
  return new JsonFileStore(path.resolve(dir), options);
}

function fsyncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // best effort (Windows cannot fsync a directory)
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Creates an empty store (gen 0) in `dir` (created 0700 if missing; an existing
 * directory must be empty) and opens it. Throws StoreExistsError, creating
 * nothing, when `dir` already holds a store or other files.
 */
export function createStore(dir: string, options: OpenStoreOptions = {}): JsonFileStore {
  const root = path.resolve(dir);
  try {
    return create(root, options);
  } catch (error) {
    if (error instanceof DocsctlError) throw error;
    const code = errnoCode(error);
    const file = errorPath(error, root);
    throw new StoreError(`cannot create a store at ${root}: ${code ?? String(error)} on ${file}`, file, { cause: error });
  }
}

function create(root: string, options: OpenStoreOptions): JsonFileStore {
  if (fs.existsSync(paths.format(root))) throw new StoreExistsError(root);
  let existing: string[] | undefined;
  try {
    existing = fs.readdirSync(root);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  // What a createStore interrupted before FORMAT leaves behind may be reused.
  const skeleton = new Set(['commits', 'packs', 'objects', 'tmp', 'quarantine', 'HEAD']);
  const interrupted =
    existing !== undefined && existing.every((name) => skeleton.has(name)) && listCommitGens(root).length === 0;
  if (existing !== undefined && existing.length > 0 && !interrupted) {
    throw new StoreExistsError(root, `${root} is not empty and is not a docsctl store`);
  }
  if (existing === undefined) {
    fs.mkdirSync(path.dirname(root), { recursive: true, mode: DIR_MODE });
    try {
      fs.mkdirSync(root, { mode: DIR_MODE });
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
    }
  }
  if (process.platform !== 'win32') fs.chmodSync(root, DIR_MODE);
  for (const sub of [paths.commits(root), paths.packs(root), paths.tmp(root), paths.quarantine(root)]) {
    try {
      fs.mkdirSync(sub, { mode: DIR_MODE });
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
    }
    if (process.platform !== 'win32') fs.chmodSync(sub, DIR_MODE);
  }
  const writeSynced = (file: string, text: string): void => {
    const fd = fs.openSync(file, 'wx', FILE_MODE);
    try {
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  };
  const head = path.join(paths.tmp(root), `head-init-${process.pid}-${Date.now()}.tmp`);
  writeSynced(head, '0\n');
  fs.renameSync(head, paths.head(root));
  // FORMAT last, and by link(): its presence means a complete store, and of two
  // concurrent inits exactly one succeeds.
  const temp = path.join(paths.tmp(root), `format-init-${process.pid}-${Date.now()}.tmp`);
  writeSynced(temp, formatText());
  try {
    fs.linkSync(temp, paths.format(root));
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') throw new StoreExistsError(root);
    throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  fsyncDirSync(root);
  fsyncDirSync(path.dirname(root));
  return new JsonFileStore(root, options);
}
