/**
 * JsonFileStore: the durable on-disk store (see notes/store.md §4).
 *
 * ```
 * <dir>/                      0700
 *   FORMAT                    {"format":"docsctl-store","version":1}
 *   HEAD                      hint: a recent gen, rewritten every HEAD_EVERY commits (readers probe past it)
 *   LOCK                      writer lock (lock.ts)
 *   commits/000000001043.json {gen, parent, root, at, txId?, command?, pack?, loose?, sum}\n<packed objects>; created only by link()
 *   CHECKPOINT                gen up to which every reachable object is a loose file (pack.ts)
 *   objects/ab/<sha256>.json  immutable JSON named by the sha256 of its bytes
 *   tmp/                      temp files
 *   quarantine/               damaged files moved aside by recover
 * ```
 * A commit's root object is `{"tables": {name: tableRoot}, "tx"?: txLog}`; each
 * table is a B+tree (btree.ts) of small nodes. Readers take no lock: they read the
 * newest commit and walk immutable objects, so they always see one whole
 * generation. A writer takes the lock, runs the transaction on the newest
 * state, and publishes the generation by link()ing one fsynced file to
 * `commits/<gen+1>`: the commit record followed by the new nodes (its pack,
 * pack.ts). EEXIST means another writer won and the transaction runs again on
 * the new state. Every few dozen commits a checkpoint turns the live packed
 * nodes into loose object files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StoreBusyError, StoreError, StoreNotFoundError } from './errors.js';
import { crashPoint } from './fault.js';
import { type BChange, type BNode, bnodeShapeProblem } from './btree.js';
import { type HamtNode, nodeShapeProblem } from './hamt.js';
import { type LockHandle, acquireLock, lockTimeoutFromEnv, othersWaiting } from './lock.js';
import {
  DAMAGE_HINT,
  DIR_MODE,
  HASH_RE,
  ObjectCache,
  ObjectWriter,
  errnoCode,
  fsops,
  fsyncDir,
  missingObject,
  objectPath,
  poolIo,
  parseObject,
  readLooseObject,
  removeQuietly,
  sha256,
  tempPath,
  writeFailure,
  writeNewFile,
} from './objects.js';
import { type CommitRecord, type RootObject, Snapshot, type SnapshotSource, Transaction, type TxLogEntry, Writes } from './snapshot.js';
import {
  CHECKPOINT_EVERY,
  CHECKPOINT_PACK_BYTES,
  KEEP_COMMITS,
  PACK_MAX_OBJECT,
  type PackList,
  PackIndex,
  checkpoint,
  type CommitHead,
  commitHeader,
  readCommitHead,
  encodeCommitFile,
  packProblem,
  readCheckpoint,
  writeCheckpoint,
} from './pack.js';
import { type TableSource, tableApply } from './tables.js';
import type { Store, StoreReader, StoreWriter, TransactOptions } from './types.js';

export type { CommitRecord, RootObject, TxLogEntry } from './snapshot.js';

export const FORMAT_NAME = 'docsctl-store';
/** 2: commit files carry packs (pack.ts). Version 1 stores are read as they are and upgraded at their first write. */
export const FORMAT_VERSION = 2;
/** How many recent transaction ids the root remembers for idempotent retries. */
export const TX_LOG_SIZE = 100;
const MAX_ATTEMPTS = 10;

// ─── Layout ──────────────────────────────────────────────────────────────────

export const paths = {
  format: (dir: string) => path.join(dir, 'FORMAT'),
  head: (dir: string) => path.join(dir, 'HEAD'),
  commits: (dir: string) => path.join(dir, 'commits'),
  objects: (dir: string) => path.join(dir, 'objects'),
  tmp: (dir: string) => path.join(dir, 'tmp'),
  quarantine: (dir: string) => path.join(dir, 'quarantine'),
  commit: (dir: string, gen: number) => path.join(dir, 'commits', `${String(gen).padStart(12, '0')}.json`),
  object: objectPath,
};

export const COMMIT_FILE_RE = /^(\d{12})\.json$/;

const EMPTY_ROOT: RootObject = { tables: new Map() };

/** The store was written by a newer docsctl (FORMAT version above ours): refuse to read or write it. */
export class FormatTooNewError extends StoreError {}

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

/** Parses and verifies a commit file's record (the text before its pack). Throws StoreError naming the file. */
export function parseCommit(text: string | CommitHead, file: string, gen: number): CommitRecord {
  const header = typeof text === 'string' ? commitHeader(text) : text.header;
  let value: unknown;
  try {
    value = JSON.parse(header);
  } catch (error) {
    throw new StoreError(`store damaged: commit ${file} is not valid JSON (truncated?)`, file, {
      hint: DAMAGE_HINT,
      cause: error,
    });
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
    packProblem(record.loose) !== undefined
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
    const expected = Buffer.byteLength(header) + 1 + record.pack.reduce((sum, [, length]) => sum + length, 0);
    const actual = typeof text === 'string' ? Buffer.byteLength(text) : text.size;
    if (actual !== expected) {
      throw new StoreError(`store damaged: commit ${file} is ${actual} bytes, its pack says ${expected} (truncated?)`, file, {
        hint: DAMAGE_HINT,
      });
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
    ...(fields.loose !== undefined ? { loose: fields.loose } : {}),
  };
  return { ...rest, sum: sha256(JSON.stringify(rest)) };
}

/** A commit file's record line and size (readCommitHead), or undefined when it does not exist. Other errors become StoreError. */
function readHeadIfExists(file: string): CommitHead | undefined {
  try {
    return readCommitHead(file);
  } catch (error) {
    throw new StoreError(`cannot read ${file} (${errnoCode(error) ?? String(error)})`, file, { cause: error });
  }
}

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

function readHead(dir: string): number | undefined {
  try {
    const text = fs.readFileSync(paths.head(dir), 'utf8').trim();
    return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * HEAD is rewritten only when a commit's generation is a multiple of this: replacing
 * it on every commit cost a file create and a rename (which ext4 flushes) per commit,
 * up to 16 ms on a busy disk. Readers probe at most this many commit files past it.
 */
export const HEAD_EVERY = 16;

/**
 * The newest generation and its commit record's text (read without its packed objects):
 * HEAD (a hint, up to HEAD_EVERY behind) then probing gen+1, gen+2… until one is missing
 * (a commit file exists only once it is complete: link()); readdir only when HEAD is
 * missing or wrong.
 */
export function findNewest(dir: string, seen = 0): { gen: number; text: CommitHead | undefined } {
  const read = readHead(dir);
  // A generation this process has seen committed is as good a start as HEAD, and newer when
  // HEAD lags (it is rewritten every HEAD_EVERY commits): fewer files to probe.
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

export function parseRoot(value: unknown, file: string): RootObject {
  const problem = (): StoreError =>
    new StoreError(`store damaged: ${file} is not a root object`, file, { hint: DAMAGE_HINT });
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

// ─── Options ─────────────────────────────────────────────────────────────────

export interface OpenStoreOptions {
  /** How long a transaction waits for another process's lock (default 30 s or DOCSCTL_LOCK_TIMEOUT_MS). */
  lockTimeoutMs?: number;
  /** Parsed-object cache capacity (entries; default 20,000). 0 disables the cache. */
  cacheEntries?: number;
  /** Parsed-object cache capacity (bytes of JSON; default 64 MiB). */
  cacheBytes?: number;
  /**
   * False skips every fsync: a crash of the machine (not of the process) may then
   * lose or damage recent commits. Only for generating throw-away fixtures in bulk.
   */
  durable?: boolean;
  /** A writer checkpoints (pack.ts) once the newest commit is this many past CHECKPOINT (default 32). */
  checkpointEvery?: number;
  /** Checkpoints drop commit files older than the newest this many (default 100; the history recover --to can reach). */
  keepCommits?: number;
}

// ─── The store ───────────────────────────────────────────────────────────────

interface Pending {
  value: unknown;
  bytes: Buffer;
}

/** A transaction waiting for the next group commit. */
interface Queued {
  fn: (tx: StoreWriter) => unknown;
  options: TransactOptions;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A group's commit, built and not yet published (JsonFileStore.prepare). */
interface Prepared {
  gen: number;
  record: CommitRecord;
  root: RootObject;
  pending: Map<string, Pending>;
  /** The packed objects' bytes, in the order of `record.pack`. */
  packed: Buffer[];
  /** Objects too big to pack: written as loose files. */
  loose: Map<string, Buffer>;
}

/** A group whose transactions ran, and the outcome of its commit. */
interface Ran {
  settle: Array<() => void>;
  prepared?: Prepared;
}

interface InFlight {
  group: Queued[];
  ran: Ran;
  /** Whether the commit landed (false: another writer took the generation, or the one before it did not land). */
  publishing: Promise<boolean>;
}

/** A committed transaction's id and result, for the transaction log (idempotent retries). */
interface LoggedTx {
  txId: string;
  value: unknown;
}

/** At most this many transactions share one commit. */
const MAX_GROUP = 256;
/** A process with more transactions queued keeps the lock this long before letting queued processes go first. */
const HOLD_SLICE_MS = 250;
/**
 * Loose files a checkpoint writes at once. Its calls queue on libuv's thread pool (4
 * threads) with the commits' fsyncs: a few at a time leaves room for those.
 */
const CHECKPOINT_IN_FLIGHT = 2;

export class JsonFileStore implements Store, SnapshotSource {
  readonly location: string;
  private readonly cache: ObjectCache;
  private readonly knownPrefixes = new Set<string>();
  private readonly lockTimeoutMs: number;
  private readonly durable: boolean;
  private readonly checkpointEvery: number;
  private readonly keepCommits: number;
  private formatVersion: number;
  /** Where this process has seen packed objects (filled lazily on a loose-file miss, and by its own commits). */
  private readonly packs: PackIndex;
  /** The CHECKPOINT generation as last read or written by this process. */
  private checkpointGen: number | undefined;
  /** This process's newest commit, for the checkpoint that may follow it. */
  private lastCommit: { gen: number; root: string; packedBytes: number } | undefined;
  private closed = false;

  /** Opens an existing store (checks FORMAT; tightens the directory's mode to 0700). Prefer `openStore`. */
  constructor(
    readonly dir: string,
    options: OpenStoreOptions = {},
  ) {
    this.location = dir;
    this.lockTimeoutMs = options.lockTimeoutMs ?? lockTimeoutFromEnv();
    this.durable = options.durable ?? true;
    this.checkpointEvery = Math.max(1, options.checkpointEvery ?? CHECKPOINT_EVERY);
    this.keepCommits = Math.max(1, options.keepCommits ?? KEEP_COMMITS);
    this.packs = new PackIndex(dir);
    this.cache = new ObjectCache(options.cacheEntries ?? 20_000, options.cacheBytes ?? 64 * 1024 * 1024);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') throw new StoreNotFoundError(dir);
      throw new StoreError(`cannot read ${dir} (${errnoCode(error) ?? String(error)})`, dir, { cause: error });
    }
    if (!stat.isDirectory()) throw new StoreNotFoundError(dir);
    this.formatVersion = checkFormat(dir);
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      try {
        fs.chmodSync(dir, DIR_MODE);
      } catch {
        // not ours to change; the files inside are 0600 anyway
      }
    }
  }

  // NodeSource + object access (verified, cached; callers must not mutate the results)

  /** A parsed object by hash (shared with the cache: do not mutate). Throws StoreError when missing or damaged. */
  object(hash: string): unknown {
    if (typeof hash !== 'string' || !HASH_RE.test(hash)) {
      const file = path.join(this.dir, 'objects', '??', `${String(hash)}.json`);
      throw new StoreError(`no object "${String(hash)}" in the store (not an object hash)`, file);
    }
    const cached = this.cache.get(hash);
    if (cached !== undefined) return cached;
    if (this.speculative.size > 0) {
      const ahead = this.speculativeObject(hash);
      if (ahead !== undefined) return ahead;
    }
    const loose = readLooseObject(this.dir, hash);
    if (loose !== undefined) {
      this.cache.set(hash, loose.value, loose.size);
      return loose.value;
    }
    const bytes = this.packed(hash);
    if (bytes === undefined) {
      // gc may have made it loose and dropped its pack since we looked.
      const late = readLooseObject(this.dir, hash);
      if (late === undefined) throw missingObject(this.dir, hash);
      this.cache.set(hash, late.value, late.size);
      return late.value;
    }
    const value = parseObject(bytes, objectPath(this.dir, hash));
    this.cache.set(hash, value, bytes.length);
    return value;
  }

  /**
   * A packed object's bytes: from the packs already indexed, else after indexing the
   * commits since CHECKPOINT (or since the last indexed one), else, for the objects
   * of generations before CHECKPOINT, every pack. Undefined when it is in none.
   */
  private packFloor: number | undefined;

  private packed(hash: string): Buffer | undefined {
    const found = this.packs.read(hash);
    if (found !== undefined) return found;
    const newest = Math.max(this.latest?.gen ?? 0, this.newestSeen);
    if (this.packs.indexedTo < newest) {
      // CHECKPOINT read once per process: a later one only made more objects loose (found above).
      this.packFloor ??= readCheckpoint(this.dir) + 1;
      const from = this.packs.indexedTo > 0 ? this.packs.indexedTo + 1 : this.packFloor;
      const bytes = this.packs.readNewestFirst(hash, from, newest);
      if (bytes !== undefined) return bytes;
    }
    if (this.packs.complete) return undefined;
    this.packs.indexAll();
    return this.packs.read(hash);
  }

  /** Nodes whose shape was checked (each parsed node is checked once, while it stays cached). */
  private readonly checked = new WeakSet<object>();

  private shaped<T>(hash: string, problemOf: (value: unknown) => string | undefined): T {
    const value = this.object(hash);
    if (typeof value === 'object' && value !== null && this.checked.has(value)) return value as T;
    const problem = problemOf(value);
    if (problem !== undefined) {
      const file = objectPath(this.dir, hash);
      throw new StoreError(`store damaged: ${file} is not a table node (${problem})`, file, { hint: DAMAGE_HINT });
    }
    this.checked.add(value as object);
    return value as T;
  }

  node(hash: string): HamtNode {
    return this.shaped<HamtNode>(hash, nodeShapeProblem);
  }

  bnode(hash: string): BNode {
    return this.shaped<BNode>(hash, bnodeShapeProblem);
  }

  private rootObject(hash: string): RootObject {
    return parseRoot(this.object(hash), objectPath(this.dir, hash));
  }

  txLog(hash: string): TxLogEntry[] {
    return parseTxLog(this.object(hash), objectPath(this.dir, hash));
  }

  /** The newest snapshot this store has read; revalidated with one stat per read (see `snapshot`). */
  private latest: Snapshot | undefined;
  /** The newest generation whose commit this process has read (set before its root is read: packed objects up to it may be asked for). */
  private newestSeen = 0;

  /**
   * The newest committed generation. Commits are created in order by link(), so the
   * cached snapshot is still the newest exactly when `commits/<gen+1>` does not exist:
   * one stat per read instead of re-reading HEAD and the commit record.
   */
  private snapshot(): Snapshot {
    const cached = this.latest;
    if (cached !== undefined && !fs.existsSync(paths.commit(this.dir, cached.gen + 1))) {
      if (cached.gen === 0 || fs.existsSync(paths.commit(this.dir, cached.gen))) return cached;
    }
    const { gen, text } = findNewest(this.dir, this.newestSeen);
    this.newestSeen = Math.max(this.newestSeen, gen);
    let snapshot: Snapshot;
    if (gen === 0 || text === undefined) snapshot = new Snapshot(0, this, undefined, EMPTY_ROOT);
    else {
      const commit = parseCommit(text, paths.commit(this.dir, gen), gen);
      snapshot = new Snapshot(gen, this, commit, this.rootObject(commit.root));
    }
    this.latest = snapshot;
    return snapshot;
  }

  read(): StoreReader {
    this.assertOpen();
    return this.snapshot();
  }

  /**
   * Queues `fn` for the next group commit. Transactions that arrive while a commit is
   * being written wait and then commit together: one lock hold, one set of fsyncs and
   * one commit for the whole group (see `commitGroup`).
   */
  transact<T>(fn: (tx: StoreWriter) => T | Promise<T>, options: TransactOptions = {}): Promise<T> {
    try {
      this.assertOpen();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ fn, options, resolve: resolve as (value: unknown) => void, reject } as Queued);
      if (!this.pumpActive) {
        this.pumpActive = true;
        this.pumping = this.pump();
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.pumpActive) await this.pumping;
    await this.pumping;
    this.cache.clear();
    this.latest = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`store ${this.dir} is closed`);
  }

  private readonly waiting: Queued[] = [];
  private pumping: Promise<void> | undefined;
  /** True while `pump` runs; cleared in the same turn it finds the queue empty, so no transaction is stranded. */
  private pumpActive = false;

  /**
   * Commits queued transactions group by group, keeping the lock between groups unless
   * another process waits. While a group's commit file is written and fsynced, the next
   * group runs on top of it and its commit file is written too (`publish` links it only
   * after the one before: two fsyncs share the wait); if the first does not land, the
   * next group runs again on what did. A checkpoint that a commit makes due runs beside
   * the next groups (its files are written on the thread pool, see `startCheckpoint`) and
   * always ends before the lock is let go: it works under the lock.
   */
  private async pump(): Promise<void> {
    let lock: LockHandle | undefined;
    let heldSince = 0;
    const letGo = (): boolean =>
      // Fairness: once we have held the lock for a slice, a process that has waited its
      // turn (lock.ts, BARGE_MS) goes before our next group. The slice keeps a loaded
      // machine from paying a hand-over (a context switch) on every commit.
      this.waiting.length === 0 || (Date.now() - heldSince >= HOLD_SLICE_MS && othersWaiting(this.dir));
    /** The group prepared on top of the one being published, its own commit under way. */
    let ahead: InFlight | undefined;
    try {
      for (;;) {
        let current: InFlight;
        if (ahead !== undefined) {
          current = ahead;
          ahead = undefined;
        } else {
          if (this.waiting.length === 0) {
            this.pumpActive = false;
            return;
          }
          const group = this.waiting.splice(0, MAX_GROUP);
          try {
            if (lock === undefined) {
              lock = await this.acquire(group[0]?.options.command);
              heldSince = Date.now();
            }
          } catch (error) {
            for (const item of group) item.reject(error);
            continue;
          }
          current = await this.startGroup(group, () => this.snapshot());
        }
        const prepared = current.ran.prepared;
        if (prepared !== undefined && this.formatVersion >= 2 && !letGo()) {
          const next = this.waiting.splice(0, MAX_GROUP);
          ahead = await this.startGroup(next, () => new Snapshot(prepared.gen, this, prepared.record, prepared.root), current.publishing);
        }
        let settle: Array<() => void>;
        const outcome = await current.publishing.then(
          (landed) => ({ landed, error: undefined as unknown }),
          (error: unknown) => ({ landed: false, error }),
        );
        if (outcome.landed) settle = current.ran.settle;
        else {
          if (ahead !== undefined) {
            // It ran on a state that did not land: it runs again, after this group.
            await ahead.publishing.catch(() => undefined);
            this.waiting.unshift(...ahead.group);
            ahead = undefined;
          }
          settle =
            outcome.error !== undefined
              ? current.group.map((item) => () => item.reject(outcome.error))
              : await this.commitGroup(current.group); // another writer took the generation
        }
        const started = this.startCheckpoint();
        let release = ahead === undefined && letGo();
        if (release && this.checkpointing !== undefined) {
          // Callers whose commit ran beside an earlier checkpoint are answered while it ends;
          // the caller whose commit made one due learns the outcome after it (a lone CLI
          // write sees the store as it always has: checkpointed when due, then unlocked).
          if (!started) {
            for (const done of settle) done();
            settle = [];
          }
          await this.checkpointing;
          release = letGo(); // work may have come meanwhile
        }
        if (release && lock !== undefined) {
          await lock.release();
          lock = undefined;
        }
        // Callers learn the outcome after the lock is let go (a CLI may exit at once).
        for (const done of settle) done();
      }
    } finally {
      this.pumpActive = false;
      if (ahead !== undefined) {
        const { group, ran } = ahead;
        const landed = await ahead.publishing.catch(() => false);
        if (landed) for (const done of ran.settle) done();
        else for (const item of group) item.reject(new StoreBusyError('store closed before this transaction could commit'));
      }
      await this.checkpointing;
      await lock?.release();
    }
  }

  /**
   * Runs `group` on `base()` and starts writing its commit (after `before` lands, when
   * given: `base()` is then that commit's state, not yet on disk). Never rejects itself;
   * `publishing` settles with the commit's outcome.
   */
  private async startGroup(group: Queued[], base: () => Snapshot, before?: Promise<boolean>): Promise<InFlight> {
    let ran: Ran;
    try {
      ran = await this.runGroup(group, base());
    } catch (error) {
      ran = { settle: group.map((item) => () => item.reject(error)) };
    }
    const publishing = ran.prepared !== undefined ? this.publish(ran.prepared, before) : (before ?? Promise.resolve(true));
    publishing.catch(() => undefined); // handled by whoever awaits it
    return { group, ran, publishing };
  }

  /**
   * Runs each transaction of `group` in order on `base`, each seeing the writes of those
   * before it, and prepares one commit of all their writes (no I/O). A transaction whose
   * function throws is left out (its caller gets the error); the others commit.
   */
  private async runGroup(group: Queued[], base: Snapshot): Promise<Ran> {
    const settle: Array<() => void> = [];
    const writes = new Writes();
    const logged: LoggedTx[] = [];
    const seen = new Map<string, unknown>();
    for (const item of group) {
      const { txId } = item.options;
      if (txId !== undefined) {
        if (seen.has(txId)) {
          const value = seen.get(txId);
          settle.push(() => item.resolve(value));
          continue;
        }
        const earlier = base.findTx(txId);
        if (earlier) {
          const value = earlier.result === null ? undefined : base.getObject(earlier.result);
          settle.push(() => item.resolve(value));
          continue;
        }
      }
      const tx = new Transaction(base.gen, this, base.commit, base.root, writes);
      let value: unknown;
      try {
        value = await item.fn(tx);
      } catch (error) {
        settle.push(() => item.reject(error));
        continue;
      } finally {
        tx.finished = true;
      }
      if (tx.dirty) {
        writes.absorb(tx.own);
        if (txId !== undefined) {
          logged.push({ txId, value });
          seen.set(txId, value);
        }
      }
      settle.push(() => item.resolve(value));
    }
    if (writes.empty) return { settle };
    return { settle, prepared: this.prepare(base, writes, logged, group[0]?.options.command) };
  }

  /**
   * Runs `group` on the newest state and commits it; when another writer took the
   * generation, the whole group runs again.
   */
  private async commitGroup(group: Queued[]): Promise<Array<() => void>> {
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const ran = await this.runGroup(group, this.snapshot());
        if (ran.prepared === undefined || (await this.publish(ran.prepared))) return ran.settle;
        // Another writer committed this generation first: run again on the new state.
      }
      throw new StoreBusyError(`store busy: ${MAX_ATTEMPTS} attempts to commit lost to other writers`, {
        hint: 'another process is writing without honouring the lock; try again',
      });
    } catch (error) {
      return group.map((item) => () => item.reject(error));
    }
  }

  /** The checkpoint running beside this process's commits (under its lock), if any; it never rejects. */
  private checkpointing: Promise<void> | undefined;

  /**
   * Under the lock, after a commit: once the newest commit is `checkpointEvery` past
   * CHECKPOINT, starts making the live packed objects loose (pack.ts) and returns true.
   * It runs beside the next groups' commits, which is safe: it writes only loose copies
   * of objects that stay in their packs, and moves CHECKPOINT to a generation already
   * committed; what it removes no commit after that generation can need (pack.ts,
   * sweepLoose, and commits that write loose files wait for it, see `commit`). The
   * commit is already durable, so a failure here is not the transaction's: CHECKPOINT
   * stays where it was and the next writer tries again.
   */
  private startCheckpoint(): boolean {
    const last = this.lastCommit;
    if (last === undefined || this.checkpointing !== undefined) return false;
    // Commits that pack a lot (an import, batches of comments) are checkpointed early: a reader
    // parses the pack list of each commit after CHECKPOINT that may hold what it reads.
    const due = (checkpointGen: number) =>
      last.gen - checkpointGen >= this.checkpointEvery ||
      (last.gen > checkpointGen && this.packedSince(checkpointGen, last.gen) >= CHECKPOINT_PACK_BYTES);
    this.checkpointGen ??= readCheckpoint(this.dir);
    if (!due(this.checkpointGen)) return false;
    this.checkpointGen = readCheckpoint(this.dir); // another process may have moved it
    this.packs.forgetUpTo(this.checkpointGen);
    if (!due(this.checkpointGen)) return false;
    this.checkpointing = checkpoint(this, this.packs, {
      dir: this.dir,
      gen: last.gen,
      root: last.root,
      knownPrefixes: this.knownPrefixes,
      durable: this.durable,
      keepCommits: this.keepCommits,
      io: poolIo,
      inFlight: CHECKPOINT_IN_FLIGHT,
    }).then(
      () => {
        this.checkpointGen = last.gen;
        this.packs.forgetUpTo(last.gen);
        this.checkpointing = undefined;
      },
      () => {
        this.checkpointing = undefined; // left for the next writer (see above)
      },
    );
    return true;
  }

  /** Packed bytes of the commits this process wrote (gen → bytes), until a checkpoint passes them. */
  private readonly packedByGen = new Map<number, number>();

  /** Bytes packed by the commits after `checkpointGen` (a commit file's size when another process wrote it). */
  private packedSince(checkpointGen: number, lastGen: number): number {
    for (const gen of this.packedByGen.keys()) if (gen <= checkpointGen) this.packedByGen.delete(gen);
    let total = 0;
    for (let gen = checkpointGen + 1; gen <= lastGen; gen += 1) {
      let bytes = this.packedByGen.get(gen);
      if (bytes === undefined) {
        try {
          bytes = fs.statSync(paths.commit(this.dir, gen)).size;
        } catch {
          bytes = 0;
        }
      }
      total += bytes;
    }
    return total;
  }

  /**
   * A version 1 store (loose objects only) becomes version 2 before its first pack:
   * CHECKPOINT first (every object so far is loose), then FORMAT, so a reader that
   * sees version 2 also finds CHECKPOINT.
   */
  private async upgradeFormat(gen: number): Promise<void> {
    this.formatVersion = checkFormat(this.dir); // another process may have upgraded it
    if (this.formatVersion >= 2) return;
    await writeCheckpoint(this.dir, { gen, history: [], prunedBelow: 0 }, this.durable);
    const temp = tempPath(this.dir, 'format');
    try {
      await writeNewFile(temp, Buffer.from(`${JSON.stringify({ format: FORMAT_NAME, version: FORMAT_VERSION })}\n`), {
        sync: this.durable,
      });
      fsops.rename(temp, paths.format(this.dir));
    } finally {
      removeQuietly([temp]);
    }
    if (this.durable) await fsyncDir(this.dir);
    this.formatVersion = FORMAT_VERSION;
    this.checkpointGen = gen;
  }

  private async acquire(command: string | undefined) {
    try {
      return await acquireLock(this.dir, {
        timeoutMs: this.lockTimeoutMs,
        ...(command !== undefined ? { command } : {}),
      });
    } catch (error) {
      if (error instanceof StoreBusyError || error instanceof StoreError) throw error;
      const gen = (() => {
        try {
          return findNewest(this.dir).gen;
        } catch {
          return 0;
        }
      })();
      throw writeFailure(error, gen, path.join(this.dir, 'LOCK'));
    }
  }

  /**
   * Builds the commit of a group's writes on `tx`'s state: the new table nodes, root and
   * record (no I/O). Until it is published or dropped, its objects are readable through
   * `speculative`, so the next group can run on top of it.
   */
  private prepare(tx: Snapshot, writes: Writes, logged: LoggedTx[], command: string | undefined): Prepared {
    const baseGen = tx.gen;
    const gen = baseGen + 1;
    const pending = new Map<string, Pending>();
    const emit = (object: unknown): string => {
      const bytes = Buffer.from(JSON.stringify(object));
      const hash = sha256(bytes);
      pending.set(hash, { value: object, bytes });
      return hash;
    };
    const pendingValue = (hash: string): unknown => pending.get(hash)?.value;
    const source: TableSource = {
      object: (hash) => pendingValue(hash) ?? this.object(hash),
      node: (hash) => (pendingValue(hash) as HamtNode | undefined) ?? this.node(hash),
      bnode: (hash) => (pendingValue(hash) as BNode | undefined) ?? this.bnode(hash),
    };

    const tables = new Map(tx.root.tables);
    for (const table of [...writes.tables.keys()].sort()) {
      const rows = writes.tables.get(table) as Map<string, string | null>;
      const changes: BChange[] = [];
      for (const [key, text] of rows) changes.push({ key, text });
      const next = tableApply(source, tables.get(table), changes, emit);
      if (next === undefined) tables.delete(table);
      else tables.set(table, next);
    }
    for (const [hash, text] of writes.objects) pending.set(hash, { value: undefined, bytes: Buffer.from(text) });

    let txHash = tx.root.tx;
    if (logged.length > 0) {
      const recent = tx.root.tx === undefined ? [] : [...this.txLog(tx.root.tx)];
      for (const { txId, value } of logged) {
        let resultHash: string | null = null;
        try {
          const text = value === undefined ? undefined : JSON.stringify(value);
          if (text !== undefined) {
            const bytes = Buffer.from(text);
            resultHash = sha256(bytes);
            pending.set(resultHash, { value: undefined, bytes });
          }
        } catch {
          resultHash = null; // not JSON: a retry gets undefined
        }
        recent.push([txId, gen, resultHash]);
      }
      txHash = emit({ recent: recent.slice(-TX_LOG_SIZE) });
    }
    const rootHash = emit(encodeRoot(txHash === undefined ? { tables } : { tables, tx: txHash }));

    // Small objects travel in the commit file (one fsync for all of them); big ones
    // (imported files) are loose files, so a commit file stays quick to read.
    const packed: Buffer[] = [];
    const pack: PackList = [];
    const loose = new Map<string, Buffer>();
    for (const [hash, p] of pending) {
      if (p.bytes.length > PACK_MAX_OBJECT) loose.set(hash, p.bytes);
      else {
        pack.push([hash, p.bytes.length]);
        packed.push(p.bytes);
      }
    }
    const record = makeCommit({
      gen,
      parent: tx.commit?.sum ?? null,
      root: rootHash,
      at: new Date().toISOString(),
      ...(logged.length === 1 ? { txId: (logged[0] as LoggedTx).txId } : {}),
      ...(command !== undefined ? { command } : {}),
      pack,
      ...(loose.size > 0 ? { loose: [...loose].map(([hash, bytes]): [string, number] => [hash, bytes.length]) } : {}),
    });
    const prepared: Prepared = { gen, record, root: txHash === undefined ? { tables } : { tables, tx: txHash }, pending, packed, loose };
    this.speculative.add(prepared);
    return prepared;
  }

  /** Objects of prepared commits not yet published (see `prepare`). */
  private readonly speculative = new Set<Prepared>();

  /** A prepared commit's object, parsed (undefined when no prepared commit has it). */
  private speculativeObject(hash: string): unknown {
    for (const prepared of this.speculative) {
      const p = prepared.pending.get(hash);
      if (p !== undefined) return p.value ?? JSON.parse(p.bytes.toString('utf8'));
    }
    return undefined;
  }

  /**
   * Writes a prepared commit's file (and big objects) and links it as its generation; with
   * `before`, the file is written and fsynced meanwhile but linked only once that commit
   * landed (false, without linking, when it did not). False when another writer took the
   * generation.
   */
  private async publish(prepared: Prepared, before?: Promise<boolean>): Promise<boolean> {
    try {
      return await this.write(prepared, before);
    } finally {
      this.speculative.delete(prepared);
    }
  }

  private async write(prepared: Prepared, before: Promise<boolean> | undefined): Promise<boolean> {
    const { gen, record, pending, packed, loose } = prepared;
    const baseGen = gen - 1;
    const rootHash = record.root;
    const pack = record.pack ?? [];
    if (before !== undefined && loose.size > 0) {
      // Loose files are written only with no checkpoint running (below), and the one the
      // commit before may start is not known yet: this group runs again, on its own.
      await before.catch(() => false);
      return false;
    }
    if (this.formatVersion < 2) await this.upgradeFormat(baseGen);
    // A checkpoint's sweeps remove loose files no generation up to its own reaches: one this
    // commit finds already there, or is about to write, must not go from under it.
    if (loose.size > 0) await this.checkpointing;
    const writer = new ObjectWriter(this.dir, this.knownPrefixes, this.durable);
    const commitFile = paths.commit(this.dir, gen);
    const header = JSON.stringify(record);
    const temp = tempPath(this.dir, 'commit');
    try {
      // The big objects and the commit file are written and fsynced in parallel; the
      // commit becomes visible (link) only after every object is in place and its
      // directory synced.
      const settled = await Promise.allSettled([
        writer.writeAll(loose),
        writeNewFile(temp, encodeCommitFile(header, packed), { sync: this.durable, temps: writer.temps }),
      ]);
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      if (loose.size > 0) await writer.syncDirs();
      if (before !== undefined && !(await before.catch(() => false))) return false;
      crashPoint('after-commit-temp');
      try {
        fsops.link(temp, commitFile);
      } catch (error) {
        if (errnoCode(error) === 'EEXIST') return false;
        throw error;
      }
    } catch (error) {
      throw writeFailure(error, baseGen, commitFile);
    } finally {
      writer.cleanup();
    }
    crashPoint('after-link');
    const commitsDir = paths.commits(this.dir);
    try {
      if (this.durable) await fsyncDir(commitsDir);
    } catch (error) {
      throw new StoreError(
        `I/O error syncing ${commitsDir} (${errnoCode(error) ?? String(error)}): the change was committed as gen ${gen} but may not survive a power failure`,
        commitsDir,
        { cause: error, hint: 'check the disk; retrying with the same transaction id is safe' },
      );
    }
    if (gen % HEAD_EVERY === 0) await writeHead(this.dir, gen);
    this.packs.add(gen, pack, Buffer.byteLength(header) + 1, record.loose);
    pack.forEach(([hash], i) => this.packs.keep(gen, hash, packed[i] as Buffer));
    this.lastCommit = { gen, root: rootHash, packedBytes: packed.reduce((sum, b) => sum + b.length, 0) };
    this.packedByGen.set(gen, this.lastCommit.packedBytes);
    for (const [hash, p] of pending) if (p.value !== undefined) this.cache.set(hash, p.value, p.bytes.length);
    // The newest snapshot is the one just linked, under our lock: the next read need not find
    // it again (read HEAD, probe up to HEAD_EVERY commit files, read the record back).
    this.newestSeen = Math.max(this.newestSeen, gen);
    if ((this.latest?.gen ?? 0) < gen) this.latest = new Snapshot(gen, this, record, prepared.root);
    crashPoint('before-lock-release');
    return true;
  }
}

/** Replaces HEAD (a hint: no fsync; failures are ignored, readers probe past it). */
export async function writeHead(dir: string, gen: number): Promise<void> {
  const temp = tempPath(dir, 'head');
  try {
    await writeNewFile(temp, Buffer.from(`${gen}\n`), { sync: false });
    fsops.rename(temp, paths.head(dir));
  } catch {
    removeQuietly([temp]);
  }
}
