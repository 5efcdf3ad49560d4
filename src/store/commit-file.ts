/**
 * The store's layout on disk and its commit files.
 *
 * ```
 * <dir>/FORMAT                      {"format":"docsctl-store","version":3}
 * <dir>/HEAD                        a recent generation (a hint, rewritten every HEAD_EVERY commits)
 * <dir>/commits/000000001043.json   <commit record JSON>\n<the objects it packs inline, back to back>
 * ```
 * A commit file is created only by link() of a complete, fsynced temp file, so it
 * exists exactly when its generation is committed. Its record names the root object,
 * the objects packed after it (`pack`: [hash, length, 0 when it names no object]), and
 * the pack files whose objects it adds (`packs`, pack-file.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errnoCode, guarded, poolIo, removeQuietly, tempPath, writeNewFile } from './durable.js';
import { StoreError, StoreNotFoundError } from './errors.js';
import { DAMAGE_HINT, HASH_RE, sha256 } from './objects.js';
import { PACK_NAME_RE } from './pack-file.js';

export const FORMAT_NAME = 'docsctl-store';
/**
 * 6: a hash-trie leaf whose values are lists headed by an object hash keeps those hashes
 * in one string (`{"a": […], "h": "…"}`, hamt.ts), which a version-5 docsctl would take
 * for a damaged node. 5: hash-trie leaves are lists (`{"a": [key, value, …]}`, src/store/hamt.ts) and a page's
 * outline is flat in its slot, which a version-4 docsctl cannot read (it failed on them
 * with a TypeError, not this refusal). 4: a revision's pages trie may hold a page's outline beside its hash
 * (src/domain/content/page-slot.ts), which a version-3 docsctl cannot read. 3: pack files
 * (pack-file.ts) and CHECKPOINT as JSON naming them; no loose objects are written. 2:
 * commit files carry inline packs, checkpoints wrote loose objects. 1: loose objects only.
 * Earlier versions are read as they are and upgraded by their first write.
 */
export const FORMAT_VERSION = 6;

export const paths = {
  format: (dir: string) => path.join(dir, 'FORMAT'),
  head: (dir: string) => path.join(dir, 'HEAD'),
  commits: (dir: string) => path.join(dir, 'commits'),
  objects: (dir: string) => path.join(dir, 'objects'),
  packs: (dir: string) => path.join(dir, 'packs'),
  tmp: (dir: string) => path.join(dir, 'tmp'),
  quarantine: (dir: string) => path.join(dir, 'quarantine'),
  checkpoint: (dir: string) => path.join(dir, 'CHECKPOINT'),
  commit: (dir: string, gen: number) => path.join(dir, 'commits', `${String(gen).padStart(12, '0')}.json`),
};

export const COMMIT_FILE_RE = /^(\d{12})\.json$/;

/** An inline pack's entry: hash, length, and 0 when the object names no other object (absent: it may). */
export type InlineEntry = [hash: string, length: number] | [hash: string, length: number, names: 0];
export type PackList = InlineEntry[];

export interface CommitRecord {
  gen: number;
  /** The `sum` of the previous generation's commit (null for gen 1). */
  parent: string | null;
  /** Hash of the root object. */
  root: string;
  at: string;
  txId?: string;
  command?: string;
  /** Set by `recover`: the generation whose state this commit restores. */
  recoveredFrom?: number;
  /** The objects this commit added, packed after the record in its file. */
  pack?: PackList;
  /** Pack files whose objects this commit adds (a big commit's own, packs staged before it). */
  packs?: string[];
  /** Version 2 only: objects that commit wrote as loose files. */
  loose?: Array<[hash: string, length: number]>;
  /** sha256 of this record's JSON without `sum`. */
  sum: string;
}

export interface RootObject {
  tables: Map<string, string>;
  tx?: string;
}

export type TxLogEntry = [txId: string, gen: number, result: string | null];

/** The store was written by a newer docsctl (FORMAT version above ours): refuse to read or write it. */
export class FormatTooNewError extends StoreError {}

/** Generations present in commits/, ascending (readdir: maintenance and fallback only). */
export function listCommitGens(dir: string): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(paths.commits(dir));
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return [];
    const file = paths.commits(dir);
    throw new StoreError(`cannot read ${file} (${errnoCode(error) ?? String(error)})`, file, { cause: error });
  }
  const gens: number[] = [];
  for (const name of names) {
    const match = COMMIT_FILE_RE.exec(name);
    if (match) gens.push(Number(match[1]));
  }
  return gens.sort((a, b) => a - b);
}

/** Checks FORMAT and returns its version. Throws StoreNotFoundError when `dir` holds no store, StoreError when FORMAT is bad or newer. */
export function checkFormat(dir: string): number {
  const file = paths.format(dir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      if (listCommitGens(dir).length > 0) {
        throw new StoreError(`store damaged: ${file} is missing`, file, {
          hint: `restore it with the line {"format":"${FORMAT_NAME}","version":${FORMAT_VERSION}}`,
        });
      }
      throw new StoreNotFoundError(dir);
    }
    throw new StoreError(`cannot read ${file} (${code ?? String(error)})`, file, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const format = value as { format?: unknown; version?: unknown } | undefined;
  if (
    typeof format !== 'object' ||
    format === null ||
    format.format !== FORMAT_NAME ||
    typeof format.version !== 'number' ||
    !Number.isInteger(format.version) ||
    format.version < 1
  ) {
    throw new StoreError(`store damaged: ${file} is not a docsctl store format file`, file, {
      hint: `it should contain {"format":"${FORMAT_NAME}","version":${FORMAT_VERSION}}`,
    });
  }
  if (format.version > FORMAT_VERSION) {
    throw new FormatTooNewError(
      `the store at ${dir} has format version ${format.version}, newer than this docsctl supports (${FORMAT_VERSION})`,
      file,
      { hint: 'upgrade docsctl to use this store' },
    );
  }
  return format.version;
}

/** FORMAT's text for this version. */
export function formatText(): string {
  return `${JSON.stringify({ format: FORMAT_NAME, version: FORMAT_VERSION })}\n`;
}

// ─── Commit files ────────────────────────────────────────────────────────────

const NEWLINE = 0x0a;

/** The bytes of a commit file: the record's JSON line, then each inline object's bytes. */
export function encodeCommitFile(recordJson: string, objects: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from(`${recordJson}\n`), ...objects]);
}

/** The record's text of a commit file (everything before the first newline; JSON.stringify never writes one). */
export function commitHeader(text: string): string {
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

/** A commit file's record text and its size in bytes: what a reader needs without the objects after it. */
export interface CommitHead {
  header: string;
  size: number;
}

/** First read of a commit file; most commit records fit (a big pack list grows the read). */
const HEAD_READ = 16 * 1024;

/**
 * The record line of a commit file and the file's size, reading only up to the first
 * newline; undefined when the file does not exist. Other errors are thrown as they are.
 */
export function readCommitHead(file: string): CommitHead | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const size = fs.fstatSync(fd).size;
    let buffer = Buffer.allocUnsafe(Math.min(size, HEAD_READ));
    let filled = 0;
    for (;;) {
      const read = fs.readSync(fd, buffer, filled, buffer.length - filled, filled);
      const end = buffer.subarray(0, filled + read).indexOf(NEWLINE, filled);
      filled += read;
      if (end >= 0) return { header: buffer.toString('utf8', 0, end), size };
      if (read === 0 || filled >= size) return { header: buffer.toString('utf8', 0, filled), size: Math.max(size, filled) };
      if (filled === buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(size, buffer.length * 4));
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** What is wrong with an inline pack list, or undefined (refused by parseCommit). */
export function packProblem(pack: unknown): string | undefined {
  if (pack === undefined) return undefined;
  if (!Array.isArray(pack)) return 'pack is not a list';
  for (const entry of pack) {
    if (
      !Array.isArray(entry) ||
      (entry.length !== 2 && !(entry.length === 3 && entry[2] === 0)) ||
      typeof entry[0] !== 'string' ||
      !HASH_RE.test(entry[0]) ||
      !Number.isInteger(entry[1]) ||
      (entry[1] as number) < 0
    ) {
      return 'pack entry is not [hash, length]';
    }
  }
  return undefined;
}

function packsProblem(packs: unknown): string | undefined {
  if (packs === undefined) return undefined;
  if (!Array.isArray(packs) || !packs.every((name) => typeof name === 'string' && PACK_NAME_RE.test(name))) return 'packs is not a list of pack names';
  return undefined;
}

/** Parses and verifies a commit file's record (the text before its objects). Throws StoreError naming the file. */
export function parseCommit(text: string | CommitHead, file: string, gen: number): CommitRecord {
  const header = typeof text === 'string' ? commitHeader(text) : text.header;
  let value: unknown;
  try {
    value = JSON.parse(header);
  } catch (error) {
    throw new StoreError(`store damaged: commit ${file} is not valid JSON (truncated?)`, file, { hint: DAMAGE_HINT, cause: error });
  }
  const record = value as Partial<CommitRecord> | null;
  if (
    typeof record !== 'object' ||
    record === null ||
    Array.isArray(record) ||
    typeof record.sum !== 'string' ||
    typeof record.root !== 'string' ||
    !HASH_RE.test(record.root) ||
    packProblem(record.pack) !== undefined ||
    packProblem(record.loose) !== undefined ||
    packsProblem(record.packs) !== undefined
  ) {
    throw new StoreError(`store damaged: ${file} is not a commit record`, file, { hint: DAMAGE_HINT });
  }
  const { sum, ...rest } = record;
  if (sha256(JSON.stringify(rest)) !== sum) {
    throw new StoreError(`store damaged: commit ${file} fails its checksum`, file, { hint: DAMAGE_HINT });
  }
  if (record.gen !== gen) {
    throw new StoreError(`store damaged: commit ${file} records gen ${String(record.gen)}`, file, { hint: DAMAGE_HINT });
  }
  if (record.pack !== undefined) {
    const expected = Buffer.byteLength(header) + 1 + record.pack.reduce((total, [, length]) => total + length, 0);
    const actual = typeof text === 'string' ? Buffer.byteLength(text) : text.size;
    if (actual !== expected) {
      throw new StoreError(`store damaged: commit ${file} is ${actual} bytes, its pack says ${expected} (truncated?)`, file, { hint: DAMAGE_HINT });
    }
  }
  return record as CommitRecord;
}

/** Builds a commit record with its checksum. */
export function makeCommit(fields: Omit<CommitRecord, 'sum'>): CommitRecord {
  const rest: Omit<CommitRecord, 'sum'> = {
    gen: fields.gen,
    parent: fields.parent,
    root: fields.root,
    at: fields.at,
    ...(fields.txId !== undefined ? { txId: fields.txId } : {}),
    ...(fields.command !== undefined ? { command: fields.command } : {}),
    ...(fields.recoveredFrom !== undefined ? { recoveredFrom: fields.recoveredFrom } : {}),
    ...(fields.pack !== undefined ? { pack: fields.pack } : {}),
    ...(fields.packs !== undefined && fields.packs.length > 0 ? { packs: fields.packs } : {}),
    ...(fields.loose !== undefined ? { loose: fields.loose } : {}),
  };
  return { ...rest, sum: sha256(JSON.stringify(rest)) };
}

/** A commit file's record and size (readCommitHead), or undefined when it does not exist. Other errors become StoreError. */
export function readHeadIfExists(file: string): CommitHead | undefined {
  try {
    return readCommitHead(file);
  } catch (error) {
    throw new StoreError(`cannot read ${file} (${errnoCode(error) ?? String(error)})`, file, { cause: error });
  }
}

/** The root hash a commit file names, or undefined when it is missing or unreadable (maintenance walks). */
export function commitRoot(dir: string, gen: number): string | undefined {
  try {
    const head = readCommitHead(paths.commit(dir, gen));
    if (head === undefined) return undefined;
    const root = (JSON.parse(head.header) as { root?: unknown }).root;
    return typeof root === 'string' && HASH_RE.test(root) ? root : undefined;
  } catch {
    return undefined;
  }
}

// ─── Root objects and transaction logs ─────────────────────────────────────────

export function parseRoot(value: unknown, file: string): RootObject {
  const problem = (): StoreError => new StoreError(`store damaged: ${file} is not a root object`, file, { hint: DAMAGE_HINT });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw problem();
  const { tables, tx } = value as { tables?: unknown; tx?: unknown };
  if (typeof tables !== 'object' || tables === null || Array.isArray(tables)) throw problem();
  if (tx !== undefined && (typeof tx !== 'string' || !HASH_RE.test(tx))) throw problem();
  const map = new Map<string, string>();
  for (const name of Object.keys(tables)) {
    const hash = (tables as Record<string, unknown>)[name];
    if (typeof hash !== 'string' || !HASH_RE.test(hash)) throw problem();
    map.set(name, hash);
  }
  return tx === undefined ? { tables: map } : { tables: map, tx };
}

export function encodeRoot(root: RootObject): unknown {
  const tables = Object.create(null) as Record<string, string>;
  for (const name of [...root.tables.keys()].sort()) tables[name] = root.tables.get(name) as string;
  return root.tx === undefined ? { tables } : { tables, tx: root.tx };
}

export function parseTxLog(value: unknown, file: string): TxLogEntry[] {
  const recent = (value as { recent?: unknown } | null)?.recent;
  const ok =
    Array.isArray(recent) &&
    recent.every(
      (e) =>
        Array.isArray(e) &&
        e.length === 3 &&
        typeof e[0] === 'string' &&
        typeof e[1] === 'number' &&
        (e[2] === null || (typeof e[2] === 'string' && HASH_RE.test(e[2]))),
    );
  if (!ok) throw new StoreError(`store damaged: ${file} is not a transaction log`, file, { hint: DAMAGE_HINT });
  return recent as TxLogEntry[];
}

// ─── HEAD and the newest generation ────────────────────────────────────────────

/**
 * HEAD is rewritten only when a commit's generation is a multiple of this: replacing
 * it on every commit cost a file create and a rename (which ext4 flushes) per commit.
 * Readers probe at most this many commit files past it.
 */
export const HEAD_EVERY = 16;

function readHead(dir: string): number | undefined {
  try {
    const text = fs.readFileSync(paths.head(dir), 'utf8').trim();
    return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces HEAD (a hint: no fsync; failures are ignored, readers probe past it). */
export async function writeHead(dir: string, gen: number): Promise<void> {
  const temp = tempPath(dir, 'head');
  try {
    // On the thread pool: creating and renaming a file wait for ext4's journal while a commit's fsync holds it.
    await writeNewFile(temp, Buffer.from(`${gen}\n`), { sync: false, io: poolIo });
    await guarded('rename', temp, () => poolIo.rename(temp, paths.head(dir)));
  } catch {
    removeQuietly([temp]);
  }
}

/**
 * The newest generation and its commit record's text (read without its objects): HEAD
 * (a hint, up to HEAD_EVERY behind) or a generation this process has seen committed,
 * then probing gen+1, gen+2… until one is missing (a commit file exists only once it is
 * complete: link()); readdir only when HEAD is missing or wrong.
 */
export function findNewest(dir: string, seen = 0): { gen: number; text: CommitHead | undefined } {
  const read = readHead(dir);
  const head = read === undefined ? undefined : Math.max(read, seen);
  let gen = head ?? (listCommitGens(dir).at(-1) ?? 0);
  while (fs.existsSync(paths.commit(dir, gen + 1))) gen += 1;
  if (gen === 0 && head !== undefined) {
    // HEAD 0 (a new store) or below the pruned history (pruneCommits dropped gen HEAD+1):
    // probing from it would find no commit and fork history at gen 1. Look.
    gen = listCommitGens(dir).at(-1) ?? 0;
    while (fs.existsSync(paths.commit(dir, gen + 1))) gen += 1;
  }
  let text: CommitHead | undefined;
  if (gen > 0) {
    text = readHeadIfExists(paths.commit(dir, gen));
    if (text === undefined) {
      // HEAD ahead of the commits (files quarantined or removed by hand): look.
      gen = listCommitGens(dir).at(-1) ?? 0;
      text = gen > 0 ? readHeadIfExists(paths.commit(dir, gen)) : undefined;
      if (gen > 0 && text === undefined) {
        const file = paths.commit(dir, gen);
        throw new StoreError(`store damaged: commit ${file} disappeared while reading`, file, { hint: DAMAGE_HINT });
      }
    }
  }
  return { gen, text };
}
