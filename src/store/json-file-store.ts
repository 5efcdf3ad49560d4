/**
 * JsonFileStore: the durable on-disk store (see notes/store.md §4).
 *
 * ```
 * <dir>/                      0700
 *   FORMAT                    {"format":"docsctl-store","version":3}
 *   HEAD                      hint: a recent gen, rewritten every HEAD_EVERY commits (readers probe past it)
 *   LOCK, waiters/            writer lock and its queue (lock.ts)
 *   commits/000000001043.json {gen, parent, root, at, txId?, command?, pack?, packs?, sum}\n<inline objects>; created only by link()
 *   packs/<name>.pack|.idx    pack files: JSON objects, one per line, and their sorted index (pack-file.ts)
 *   CHECKPOINT                the base packs, holding everything a recent generation reaches (checkpoint.ts)
 *   objects/ab/<sha256>.json  loose objects of stores written before packs (read until the first repack)
 *   tmp/                      temp files
 *   quarantine/               damaged files moved aside by recover
 * ```
 * A commit's root object is `{"tables": {name: tableRoot}, "tx"?: txLog}`; each table
 * is a B+tree (btree.ts) of small nodes. Readers take no lock: they read the newest
 * commit and walk immutable objects (pack-set.ts finds them), so they always see one
 * whole generation. Writers go through commit.ts: one lock, group commits, one link()
 * per generation. `stage` writes objects ahead of a transaction, outside the lock
 * (stage.ts).
 *
 * Knowing about other writers: a long-lived reader (`serve`, `watch: true`) watches
 * commits/ (fs.watch) and checks the disk only when it says something changed, or at
 * most every RECHECK_MS in case a file system drops events; a read costs no system
 * call while nothing changed. Other readers check with a stat per read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type BNode, bnodeShapeProblem } from './btree.js';
import { Committer, type Prepared } from './commit.js';
import { type CommitRecord, type RootObject, type TxLogEntry, findNewest, parseCommit, parseRoot, parseTxLog, paths } from './commit-file.js';
import { CHECKPOINT_EVERY, KEEP_COMMITS } from './checkpoint.js';
import { DIR_MODE, errnoCode } from './durable.js';
import { StoreError, StoreNotFoundError } from './errors.js';
import { type HamtNode, nodeShapeProblem } from './hamt.js';
import { lockTimeoutFromEnv } from './lock.js';
import { DAMAGE_HINT, HASH_RE, ObjectCache, missingObject, objectPath, parseObject, storedText } from './objects.js';
import { PackSet } from './pack-set.js';
import { Snapshot, type SnapshotSource } from './snapshot.js';
import { PackStager } from './stage.js';
import type { ObjectStager, Store, StoreReader, StoreWriter, TransactOptions } from './types.js';
import { checkFormat } from './commit-file.js';

export {
  FORMAT_NAME,
  FORMAT_VERSION,
  FormatTooNewError,
  HEAD_EVERY,
  checkFormat,
  findNewest,
  listCommitGens,
  makeCommit,
  parseCommit,
  paths,
} from './commit-file.js';
export type { CommitRecord, RootObject, TxLogEntry } from './commit-file.js';

const EMPTY_ROOT: RootObject = { tables: new Map() };

/** A watching reader checks the disk at least this often even when no event came (a file system may drop them). */
export const RECHECK_MS = 5;

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
  /** A writer checkpoints (checkpoint.ts) once the newest commit is this many past CHECKPOINT (default 32). */
  checkpointEvery?: number;
  /** Checkpoints drop commit files older than the newest this many (default 100; the history recover --to can reach). */
  keepCommits?: number;
  /**
   * Watch commits/ for other writers' commits (a long-lived reader: `serve`): reads then
   * cost no system call while nothing changed. Without it, each read checks with a stat.
   */
  watch?: boolean;
  /**
   * Cache the objects a walk over a whole trie reads (default: as `watch`). A long-lived
   * reader walks the same tries again; a one-shot command never does (its content reader
   * keeps the nodes it walked), and caching them only made the garbage collector copy them:
   * `site tree` over 200 spaces of distinct content spent a fifth of its CPU in GC.
   */
  keepWalked?: boolean;
}

export class JsonFileStore implements Store, SnapshotSource {
  readonly location: string;
  readonly lockTimeoutMs: number;
  readonly durable: boolean;
  readonly checkpointEvery: number;
  readonly keepCommits: number;
  /** Where this process finds objects (pack-set.ts). */
  readonly packs: PackSet;
  /** Objects of prepared commits not yet published (commit.ts, two commits in flight). */
  readonly speculative = new Set<Prepared>();
  private readonly cache: ObjectCache;
  /** Whether objects read by a whole-trie walk are cached (OpenStoreOptions.keepWalked). */
  private readonly keepWalked: boolean;
  private committer: Committer | undefined;
  private closed = false;

  /** Opens an existing store (checks FORMAT; tightens the directory's mode to 0700). Prefer `openStore`. */
  constructor(
    readonly dir: string,
    private readonly options: OpenStoreOptions = {},
  ) {
    this.location = dir;
    this.lockTimeoutMs = options.lockTimeoutMs ?? lockTimeoutFromEnv();
    this.durable = options.durable ?? true;
    this.checkpointEvery = Math.max(1, options.checkpointEvery ?? CHECKPOINT_EVERY);
    this.keepCommits = Math.max(1, options.keepCommits ?? KEEP_COMMITS);
    this.packs = new PackSet(dir);
    this.cache = new ObjectCache(options.cacheEntries ?? 20_000, options.cacheBytes ?? 64 * 1024 * 1024);
    this.keepWalked = options.keepWalked ?? options.watch ?? false;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') throw new StoreNotFoundError(dir);
      throw new StoreError(`cannot read ${dir} (${errnoCode(error) ?? String(error)})`, dir, { cause: error });
    }
    if (!stat.isDirectory()) throw new StoreNotFoundError(dir);
    checkFormat(dir);
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      try {
        fs.chmodSync(dir, DIR_MODE);
      } catch {
        // not ours to change; the files inside are 0600 anyway
      }
    }
  }

  // ─── Objects ─────────────────────────────────────────────────────────────

  /**
   * A parsed object by hash (shared with the cache: do not mutate). Throws StoreError when
   * missing or damaged. `walk`: read by a whole-trie walk (cached only when keepWalked).
   */
  object(hash: string, walk = false): unknown {
    // The cache holds only hashes checked below: a hit needs no pattern test (a read walks a
    // few nodes per table, each found twice, and the test was 2–3% of a served GET).
    const cached = this.cache.get(hash);
    if (cached !== undefined) return cached;
    // A prepared commit's objects are found by a map lookup, which no string can misuse: the
    // pattern test is for names that reach the disk (the next group reads the nodes of the
    // commit in flight through here, some dozens per commit).
    if (this.speculative.size > 0) {
      const ahead = this.speculativeObject(hash);
      if (ahead !== undefined) return ahead;
    }
    if (typeof hash !== 'string' || !HASH_RE.test(hash)) {
      const file = path.join(this.dir, 'objects', '??', `${String(hash)}.json`);
      throw new StoreError(`no object "${String(hash)}" in the store (not an object hash)`, file);
    }
    // Parsed at once and not kept: the bytes may be a view of the pack's read window.
    const bytes = this.packs.read(hash, Math.max(this.latest?.gen ?? 0, this.newestSeen), true);
    if (bytes === undefined) throw missingObject(this.dir, hash);
    const value = parseObject(bytes, () => objectPath(this.dir, hash));
    if (!walk || this.keepWalked) this.cache.set(hash, value, bytes.length);
    return value;
  }

  /** A prepared commit's object, parsed (undefined when no prepared commit has it). */
  private speculativeObject(hash: string): unknown {
    for (const prepared of this.speculative) {
      const p = prepared.pending.get(hash);
      if (p === undefined) continue;
      if (p.value === undefined) return JSON.parse(storedText(p.bytes));
      // A table node the commit built has its shape by construction (as in `committed`): the
      // next group, which reads the nodes of the commit in flight, checks none of them (an
      // inner node's check tests each child's hash: ~2% of a create's CPU under serve).
      if (p.node === true && typeof p.value === 'object' && p.value !== null) this.checked.add(p.value);
      return p.value;
    }
    return undefined;
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

  txLog(hash: string): TxLogEntry[] {
    return parseTxLog(this.object(hash), objectPath(this.dir, hash));
  }

  // ─── The newest generation ─────────────────────────────────────────────────

  /** The newest snapshot this store has read (revalidated as `snapshot` says). */
  private latest: Snapshot | undefined;
  /** The newest generation whose commit this process has read (set before its root is read). */
  private newestSeen = 0;
  private watcher: fs.FSWatcher | undefined;
  /** Set by the watcher when commits/ changed since the last check. */
  private changed = true;
  private checkedAt = 0;

  /** The newest generation this process knows of (no check on disk). */
  get gen(): number {
    return Math.max(this.latest?.gen ?? 0, this.newestSeen);
  }

  /**
   * The newest committed generation. With a watcher, the cached snapshot stands while no
   * event came and the last check is under RECHECK_MS old. Otherwise (and with `fresh`)
   * one stat: commits are created in order by link(), so the cached snapshot is still the
   * newest exactly when `commits/<gen+1>` does not exist.
   */
  snapshot(fresh = false): Snapshot {
    const cached = this.latest;
    if (cached !== undefined && !fresh && this.watcher !== undefined && !this.changed && performance.now() - this.checkedAt < RECHECK_MS) return cached;
    this.changed = false;
    this.checkedAt = performance.now();
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

  private rootObject(hash: string): RootObject {
    return parseRoot(this.object(hash), objectPath(this.dir, hash));
  }

  /** Starts watching commits/ (options.watch), once; a watcher that fails leaves the stat per read. */
  private watch(): void {
    if (this.watcher !== undefined || this.options.watch !== true) return;
    try {
      const watcher = fs.watch(paths.commits(this.dir), { persistent: false }, () => {
        this.changed = true;
      });
      watcher.on('error', () => {
        watcher.close();
        if (this.watcher === watcher) this.watcher = undefined;
      });
      this.watcher = watcher;
    } catch {
      this.watcher = undefined;
    }
  }

  read(): StoreReader {
    this.assertOpen();
    this.watch();
    return this.snapshot();
  }

  /** Called by the committer once a commit landed (under our lock): its state is the newest. */
  committed(gen: number, record: CommitRecord, root: RootObject, values: Map<string, { value?: unknown; bytes: Buffer; node?: true }>): void {
    for (const [hash, p] of values) {
      if (p.value === undefined) continue;
      this.cache.set(hash, p.value, p.bytes.length);
      // A table node the commit built has its shape by construction: reading it checks nothing.
      if (p.node === true && typeof p.value === 'object' && p.value !== null) this.checked.add(p.value);
    }
    this.newestSeen = Math.max(this.newestSeen, gen);
    if ((this.latest?.gen ?? 0) < gen) this.latest = new Snapshot(gen, this, record, root);
  }

  // ─── Writing ─────────────────────────────────────────────────────────────

  /**
   * Queues `fn` for the next group commit (commit.ts): transactions that arrive while a
   * commit is being written wait and then commit together.
   */
  transact<T>(fn: (tx: StoreWriter) => T | Promise<T>, options: TransactOptions = {}): Promise<T> {
    try {
      this.assertOpen();
      this.committer ??= new Committer(this);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.committer.enqueue(fn, options);
  }

  stage(): ObjectStager {
    this.assertOpen();
    return new PackStager(this);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.committer?.close();
    this.watcher?.close();
    this.watcher = undefined;
    this.cache.clear();
    this.packs.close();
    this.latest = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`store ${this.dir} is closed`);
  }
}
