/**
 * The write path of the file store: group commit, two commits in flight, and the
 * checkpoints commits make due.
 *
 * - **Group commit.** `transact` queues; while one commit is written, the transactions
 *   that arrive wait, then run in order on the newest state (each sees the writes of
 *   those before it, `Writes` in snapshot.ts) and commit together: one lock hold, one
 *   set of fsyncs, one commit (up to MAX_GROUP). A transaction whose function throws is
 *   left out; the others commit. Transaction ids go into the root's log, so a retry
 *   with the same id is answered from it.
 * - **A commit** is built without I/O (`prepare`): the changed B+tree nodes, the root,
 *   the record. Its new objects travel inline in the commit file (one file, one fsync,
 *   one link) or, past INLINE_MAX bytes, in a pack file of their own; packs staged
 *   ahead (stage.ts) are named by the record. `publish` link()s the commit file as the
 *   next generation: EEXIST means another writer took it, and the group runs again.
 * - **Two in flight.** While a group's commit file is written and fsynced, the pump
 *   (keeping the lock) runs the next group on top of it (its objects readable through
 *   `speculative` until published) and writes that commit file too; it is linked only
 *   after the one before landed, so two fsyncs share one wait.
 * - **Checkpoints** (checkpoint.ts) run beside the next groups' commits, their packs
 *   written on the thread pool, and always end before the lock is let go.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type CommitRecord, type InlineEntry, type RootObject, FORMAT_VERSION, HEAD_EVERY, checkFormat, encodeCommitFile, encodeRoot, findNewest, formatText, makeCommit, paths, writeHead } from './commit-file.js';
import { CHECKPOINT_INLINE_BYTES, checkpoint } from './checkpoint.js';
import { DirSync, OpenedFile, errnoCode, fsops, fsyncDir, linkOnPool, poolIo, removeQuietly, tempPath, writeFailure, writeNewFile } from './durable.js';
import { StoreBusyError, StoreError } from './errors.js';
import { crashPoint } from './fault.js';
import { type BChange, type BEmit, type BLeaf, type BNode, isBLeaf } from './btree.js';
import type { HamtNode } from './hamt.js';
import { type LockHandle, WaitersCheck, acquireLock } from './lock.js';
import { namesHashes, sha256, storedText } from './objects.js';
import { BULK_ITEMS, yieldIfDue } from '../util/slices.js';
import { PackFile, PackWriter, newPackName } from './pack-file.js';
import type { PackSet } from './pack-set.js';
import { Snapshot, type SnapshotSource, Transaction, type TxLogEntry, Writes } from './snapshot.js';
import { StagedPack } from './stage.js';
import { type TableSource, tableApply } from './tables.js';
import type { StoreWriter, TransactOptions } from './types.js';

/** How many recent transaction ids the root remembers for idempotent retries. */
export const TX_LOG_SIZE = 100;
const MAX_ATTEMPTS = 10;
/** At most this many transactions share one commit. */
const MAX_GROUP = 256;
/** A process with more transactions queued keeps the lock this long before letting queued processes go first. */
const HOLD_SLICE_MS = 250;
/** A commit whose new objects pass this many bytes writes them into a pack file of its own, not inline. */
export const INLINE_MAX = 1024 * 1024;

/** What the committer needs from its store. */
export interface CommitHost extends SnapshotSource {
  readonly dir: string;
  readonly durable: boolean;
  readonly lockTimeoutMs: number;
  readonly checkpointEvery: number;
  readonly keepCommits: number;
  readonly packs: PackSet;
  /** The newest committed state (checked on disk: `fresh`). */
  snapshot(fresh: boolean): Snapshot;
  /** Called once a commit landed: its objects, record and root become the newest state. */
  committed(gen: number, record: CommitRecord, root: RootObject, values: Map<string, { value?: unknown; bytes: Buffer; node?: true }>): void;
  /** Prepared commits whose objects readers of the next group may ask for. */
  readonly speculative: Set<Prepared>;
}

/** An object of a commit being built: its bytes, and its value when the commit made it. */
interface Pending {
  value?: unknown;
  bytes: Buffer;
  names: boolean;
  /** A table node the commit built (dropped when a later change of the same commit superseded it). */
  node?: true;
}

/**
 * Resolves after the event loop's current turn: the requests read in the same turn as
 * the first that arrived join its group instead of waiting for the next one.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Changes applied to a table at once (see `prepare`). */
const APPLY_CHUNK = 1024;
/** What a change becomes once applied (its text let go). */
const APPLIED: BChange = Object.freeze({ key: '', text: null });

/**
 * Drops the table nodes a commit built that its new table roots do not reach: a node cut
 * then merged with a neighbour, or rebuilt by a later key range of the same commit. The
 * walk goes through the commit's own nodes only (what it reaches below them was there).
 */
function dropSuperseded(pending: Map<string, Pending>, roots: Iterable<string>): void {
  const reached = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const hash = stack.pop() as string;
    const p = pending.get(hash);
    if (p?.node !== true || reached.has(hash)) continue;
    reached.add(hash);
    const node = p.value as BNode | undefined; // a leaf may be kept as bytes only (see `nodeSink`)
    if (node !== undefined && !isBLeaf(node)) stack.push(...node.c);
  }
  for (const [hash, p] of pending) if (p.node === true && !reached.has(hash)) pending.delete(hash);
}

/**
 * Leaf bytes a commit keeps parsed as well (the first ones it builds). A small commit (a
 * create through `serve`: a dozen leaves of a few KiB) keeps its leaves' values, so the
 * store caches them once it lands (`committed`) and the next commit, which changes the
 * same leaves, neither reads them back from its commit file, parses them nor checks their
 * shape again (that was ~15% of a create's CPU). Past this, leaves are bytes only.
 */
export const KEEP_LEAF_VALUES_BYTES = 256 * 1024;

/**
 * Where a commit's new table nodes go (`pending`), and how the commit reads them back. A
 * leaf past the first KEEP_LEAF_VALUES_BYTES is kept as its bytes only: its parsed rows
 * would double what a big commit holds (a fresh search index is ~15 MB of leaves). The
 * few leaves a later key range reads again (the tree's edge) are parsed back, once per
 * range. Inner nodes keep their value (`dropSuperseded` walks them; they are a few
 * percent of the bytes).
 */
function nodeSink(pending: Map<string, Pending>) {
  let reread = new Map<string, unknown>();
  let leafBytes = 0;
  const emit: BEmit = (object: BNode): string => {
    const bytes = Buffer.from(JSON.stringify(object));
    const hash = sha256(bytes);
    if (!isBLeaf(object)) pending.set(hash, { value: object, bytes, names: true, node: true });
    else {
      leafBytes += bytes.length;
      const names = namesHashes(object.v);
      pending.set(hash, leafBytes <= KEEP_LEAF_VALUES_BYTES ? { value: object, bytes, names, node: true } : { bytes, names, node: true });
    }
    return hash;
  };
  // A leaf cut from rows' text (btree.ts BEmit): its bytes written straight from that text. The
  // first KEEP_LEAF_VALUES_BYTES are kept parsed (`leaf`: only the changed rows are parsed, the
  // kept ones shared), so a small commit's leaves are cached as before.
  emit.leafText = (text: string, values: string, leaf: () => BLeaf): string => {
    const bytes = Buffer.from(text);
    const hash = sha256(bytes);
    leafBytes += bytes.length;
    const names = QUOTED_HASH_RE.test(values);
    pending.set(hash, leafBytes <= KEEP_LEAF_VALUES_BYTES ? { value: leaf(), bytes, names, node: true } : { bytes, names, node: true });
    return hash;
  };
  return {
    emit,
    value(hash: string): unknown {
      const p = pending.get(hash);
      if (p === undefined || p.value !== undefined || p.node !== true) return p?.value;
      let value = reread.get(hash);
      if (value === undefined) reread.set(hash, (value = JSON.parse(storedText(p.bytes))));
      return value;
    },
    /** A key range was applied: the leaves parsed back for it are let go. */
    rangeDone(): void {
      reread = new Map();
    },
  };
}

/**
 * A 64-hex JSON string in a leaf's values text: what `namesHashes` finds in its values, and
 * at worst more (an escaped quote before 64 hex digits), which only makes a walk read the leaf.
 */
const QUOTED_HASH_RE = /"[0-9a-f]{64}"/;

/** A group's commit, built and not yet published. */
export interface Prepared {
  gen: number;
  record: CommitRecord;
  root: RootObject;
  pending: Map<string, Pending>;
  /** The inline objects' bytes, in the order of `record.pack`. */
  inline: Buffer[];
  /** A commit past INLINE_MAX: its objects go into this pack file (named in the record). */
  ownPack?: string;
  /** Packs staged ahead and adopted by the group's transactions (named in the record). */
  staged: StagedPack[];
}

/** A transaction waiting for the next group commit. */
interface Queued {
  fn: (tx: StoreWriter) => unknown;
  options: TransactOptions;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
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
  /** Settles once the commit's file is written and fsynced (its link and the directory's fsync to come), or it failed. */
  synced: Promise<unknown>;
}

/** A committed transaction's id and result, for the transaction log. */
interface LoggedTx {
  txId: string;
  value: unknown;
}

export class Committer {
  private readonly waiting: Queued[] = [];
  private pumping: Promise<void> | undefined;
  /** True while `pump` runs; cleared in the same turn it finds the queue empty, so no transaction is stranded. */
  private pumpActive = false;
  /** The checkpoint running beside this process's commits (under its lock), if any; it never rejects. */
  private checkpointing: Promise<void> | undefined;
  /** This process's newest commit, for the checkpoint that may follow it. */
  private lastCommit: { gen: number; root: string } | undefined;
  /** Inline bytes of the commits this process wrote (gen → bytes), until a checkpoint passes them. */
  private readonly inlineByGen = new Map<number, number>();
  private formatVersion: number;
  /** commits/, kept open for the fsync after each link. */
  private readonly commitsDir: DirSync;
  /** Temp files of landed commits being removed on the thread pool (awaited by `close`). */
  private readonly removals = new Set<Promise<void>>();

  constructor(private readonly host: CommitHost) {
    this.formatVersion = checkFormat(host.dir);
    this.commitsDir = new DirSync(paths.commits(host.dir));
  }

  /** Called by the next `enqueue` (see `arrival`). */
  private arrived: (() => void) | undefined;

  /** Queues `fn` for the next group commit. */
  enqueue<T>(fn: (tx: StoreWriter) => T | Promise<T>, options: TransactOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ fn, options, resolve: resolve as (value: unknown) => void, reject } as Queued);
      const arrived = this.arrived;
      this.arrived = undefined;
      arrived?.();
      if (!this.pumpActive) {
        this.pumpActive = true;
        this.pumping = this.pump();
      }
    });
  }

  /**
   * The next group from the queue: up to MAX_GROUP transactions, ending before one that
   * must commit alone (`TransactOptions.alone`), which is a group of its own when first.
   */
  private takeGroup(): Queued[] {
    const alone = this.waiting.findIndex((item) => item.options.alone === true);
    return this.waiting.splice(0, alone === 0 ? 1 : alone === -1 ? MAX_GROUP : Math.min(alone, MAX_GROUP));
  }

  /** Waits for every queued transaction and any checkpoint. */
  async drain(): Promise<void> {
    while (this.pumpActive) await this.pumping;
    await this.pumping;
  }

  /** Drains, waits for the temp files still being removed and lets commits/ go. */
  async close(): Promise<void> {
    await this.drain();
    while (this.removals.size > 0) await Promise.all(this.removals);
    await this.commitsDir.close();
  }

  /** Removes a temp file on the thread pool, off the commit's path (`close` waits for it). */
  private removeLater(temp: OpenedFile): void {
    const removal = temp.remove().finally(() => this.removals.delete(removal));
    this.removals.add(removal);
  }

  /**
   * Commits queued transactions group by group, keeping the lock between groups unless
   * another process waits (module comment). A checkpoint a commit makes due runs beside
   * the next groups and always ends before the lock is let go: it works under the lock.
   */
  private async pump(): Promise<void> {
    let lock: LockHandle | undefined;
    let heldSince = 0;
    // Fairness: once we have held the lock for a slice, a process that has waited its turn
    // (lock.ts, BARGE_MS) goes before our next group. The slice keeps a loaded machine from
    // paying a hand-over (a context switch) on every commit.
    const waiters = new WaitersCheck(this.host.dir);
    const letGo = (): boolean => {
      if (this.waiting.length === 0) return true;
      const now = Date.now();
      return now - heldSince >= HOLD_SLICE_MS && waiters.due(now);
    };
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
          const group = this.takeGroup();
          try {
            if (lock === undefined) {
              lock = await this.acquire(group[0]?.options.command);
              heldSince = Date.now();
            }
          } catch (error) {
            for (const item of group) item.reject(error);
            continue;
          }
          current = await this.startGroup(group, () => this.host.snapshot(true));
        }
        const prepared = current.ran.prepared;
        if (prepared !== undefined && this.formatVersion >= FORMAT_VERSION) {
          // The next group starts on top of this commit once this commit's file is fsynced,
          // with what queued meanwhile, or with the first transactions to arrive after that;
          // not after this commit landed: that cost each of them a second whole fsync chain.
          // What is left of this commit then (a link and the directory's fsync) takes as long
          // as the next group's own file, so they overlap. It waits for the fsync even with
          // transactions queued (starting at once made smaller groups: more bytes and CPU per
          // create, paired 0.88-0.93x bytes, 0.88-0.95x CPU).
          await Promise.race([current.synced, current.publishing.catch(() => undefined)]);
          if (this.waiting.length === 0 && (await this.arrivalBefore(current.publishing))) await nextTurn();
          if (!letGo()) {
            const next = this.takeGroup();
            ahead = await this.startGroup(next, () => new Snapshot(prepared.gen, this.host, prepared.record, prepared.root), current.publishing);
          }
        }
        let settle = await this.outcome(current, () => {
          const pending = ahead;
          ahead = undefined;
          return pending;
        });
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

  /** True when a transaction is queued before `landing` settles (false once it did). */
  private arrivalBefore(landing: Promise<boolean>): Promise<boolean> {
    return Promise.race([
      landing.then(
        () => false,
        () => false,
      ),
      new Promise<boolean>((resolve) => {
        this.arrived = () => resolve(true);
      }),
    ]).finally(() => {
      this.arrived = undefined;
    });
  }

  /**
   * Waits for `current`'s commit; when it did not land, the group written ahead of it
   * (`takeAhead`) goes back to the queue and `current` runs again on what did land.
   */
  private async outcome(current: InFlight, takeAhead: () => InFlight | undefined): Promise<Array<() => void>> {
    const outcome = await current.publishing.then(
      (landed) => ({ landed, error: undefined as unknown }),
      (error: unknown) => ({ landed: false, error }),
    );
    if (outcome.landed) return current.ran.settle;
    const ahead = takeAhead();
    if (ahead !== undefined) {
      // It ran on a state that did not land: it runs again, after this group.
      await ahead.publishing.catch(() => undefined);
      this.waiting.unshift(...ahead.group);
    }
    if (outcome.error !== undefined) return current.group.map((item) => () => item.reject(outcome.error));
    return this.commitGroup(current.group); // another writer took the generation
  }

  /**
   * Runs `group` on `base()` and starts writing its commit (after `before` lands, when
   * given: `base()` is then that commit's state, not yet on disk). Never rejects itself;
   * `publishing` settles with the commit's outcome.
   */
  private async startGroup(group: Queued[], base: () => Snapshot, before?: Promise<boolean>): Promise<InFlight> {
    // Its commit file is opened on the thread pool while the group runs (OpenedFile).
    const temp = new OpenedFile(tempPath(this.host.dir, 'commit'));
    let ran: Ran;
    try {
      ran = await this.runGroup(group, base());
    } catch (error) {
      ran = { settle: group.map((item) => () => item.reject(error)) };
    }
    let fileSynced = (): void => undefined;
    const synced = new Promise<void>((resolve) => {
      fileSynced = resolve;
    });
    if (ran.prepared === undefined) this.removeLater(temp);
    const publishing = ran.prepared !== undefined ? this.publish(ran.prepared, before, fileSynced, temp) : (before ?? Promise.resolve(true));
    publishing.catch(() => undefined).finally(fileSynced); // handled by whoever awaits it
    return { group, ran, publishing, synced };
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
      const tx = new Transaction(base.gen, this.host, base.commit, base.root, writes);
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
        // Moved, not copied: this frame keeps `tx` until the group is prepared, and with it
        // every row it wrote (a fresh search index's text, ~15 MB) beside the nodes built from them.
        writes.absorb(tx.own);
        tx.own.clear();
        if (txId !== undefined) {
          logged.push({ txId, value });
          seen.set(txId, value);
        }
      }
      settle.push(() => item.resolve(value));
    }
    if (writes.empty) return { settle };
    return { settle, prepared: await this.prepare(base, writes, logged, group[0]?.options.command) };
  }

  /** Runs `group` on the newest state and commits it; when another writer took the generation, the whole group runs again. */
  private async commitGroup(group: Queued[]): Promise<Array<() => void>> {
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const ran = await this.runGroup(group, this.host.snapshot(true));
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

  /**
   * Under the lock, after a commit: once the newest commit is `checkpointEvery` past
   * CHECKPOINT, or the commits since packed CHECKPOINT_INLINE_BYTES inline, starts a
   * checkpoint (checkpoint.ts) and returns true. It runs beside the next groups'
   * commits, which is safe: it only writes new packs and moves CHECKPOINT to a
   * generation already committed; the packs it merges away hold nothing a later
   * commit needs that the merged pack lacks. The commit is already durable, so a
   * failure here is not the transaction's: CHECKPOINT stays and the next writer tries again.
   */
  private startCheckpoint(): boolean {
    const last = this.lastCommit;
    if (last === undefined || this.checkpointing !== undefined) return false;
    const packs = this.host.packs;
    const due = (checkpointGen: number) =>
      last.gen - checkpointGen >= this.host.checkpointEvery ||
      (last.gen > checkpointGen && this.inlineSince(checkpointGen, last.gen) >= CHECKPOINT_INLINE_BYTES);
    if (!due(packs.checkpoint.gen)) return false;
    const checkpointGen = packs.refresh().gen; // another process may have moved it
    packs.forgetUpTo(checkpointGen);
    if (!due(checkpointGen)) return false;
    this.checkpointing = checkpoint(
      { object: (hash) => this.host.object(hash), packs },
      { dir: this.host.dir, gen: last.gen, root: last.root, durable: this.host.durable, keepCommits: this.host.keepCommits, io: poolIo },
    ).then(
      () => {
        packs.forgetUpTo(last.gen);
        this.checkpointing = undefined;
      },
      () => {
        this.checkpointing = undefined; // left for the next writer (see above)
      },
    );
    return true;
  }

  /** Inline bytes of the commits after `checkpointGen` (a commit file's size when another process wrote it). */
  private inlineSince(checkpointGen: number, lastGen: number): number {
    for (const gen of this.inlineByGen.keys()) if (gen <= checkpointGen) this.inlineByGen.delete(gen);
    let total = 0;
    for (let gen = checkpointGen + 1; gen <= lastGen; gen += 1) {
      let bytes = this.inlineByGen.get(gen);
      if (bytes === undefined) {
        bytes = fs.statSync(paths.commit(this.host.dir, gen), { throwIfNoEntry: false })?.size ?? 0;
        this.inlineByGen.set(gen, bytes);
      }
      total += bytes;
    }
    return total;
  }

  /**
   * A store of an earlier version becomes version 3 at its first write: FORMAT first, so
   * an older docsctl refuses it from then on (it would not find objects in pack files).
   * Everything else is read as it is; its first checkpoint folds loose objects into a pack.
   */
  private async upgradeFormat(): Promise<void> {
    this.formatVersion = checkFormat(this.host.dir); // another process may have upgraded it
    if (this.formatVersion >= FORMAT_VERSION) return;
    const temp = tempPath(this.host.dir, 'format');
    try {
      await writeNewFile(temp, Buffer.from(formatText()), { sync: this.host.durable });
      fsops.rename(temp, paths.format(this.host.dir));
    } finally {
      removeQuietly([temp]);
    }
    if (this.host.durable) await fsyncDir(this.host.dir);
    this.formatVersion = FORMAT_VERSION;
  }

  private async acquire(command: string | undefined) {
    try {
      return await acquireLock(this.host.dir, { timeoutMs: this.host.lockTimeoutMs, ...(command !== undefined ? { command } : {}) });
    } catch (error) {
      if (error instanceof StoreBusyError || error instanceof StoreError) throw error;
      const gen = (() => {
        try {
          return findNewest(this.host.dir).gen;
        } catch {
          return 0;
        }
      })();
      throw writeFailure(error, gen, path.join(this.host.dir, 'LOCK'));
    }
  }

  /**
   * Builds the commit of a group's writes on `base`'s state: the new table nodes, root
   * and record (no I/O). Until it is published or dropped, its objects are readable
   * through `speculative`, so the next group can run on top of it.
   */
  private async prepare(base: Snapshot, writes: Writes, logged: LoggedTx[], command: string | undefined): Promise<Prepared> {
    const gen = base.gen + 1;
    const pending = new Map<string, Pending>();
    const { emit, value: pendingValue, rangeDone } = nodeSink(pending);
    const source: TableSource = {
      object: (hash) => pendingValue(hash) ?? this.host.object(hash),
      node: (hash) => (pendingValue(hash) as HamtNode | undefined) ?? this.host.node(hash),
      bnode: (hash) => (pendingValue(hash) as BNode | undefined) ?? this.host.bnode(hash),
    };
    const tables = new Map(base.root.tables);
    // Tables a transaction replaced whole (Transaction.replaceState) start from their new root.
    for (const [table, root] of writes.roots) {
      if (root === null) tables.delete(table);
      else tables.set(table, root);
    }
    let slice = performance.now();
    for (const table of [...writes.tables.keys()].sort()) {
      const rows = writes.tables.get(table) as Map<string, string | null>;
      const changes: BChange[] = [];
      for (const [key, text] of rows) changes.push({ key, text });
      // The rows' text is held by `changes` alone from here, and each range's let go once applied
      // (`rows` is emptied too: this frame keeps it across the awaits below).
      writes.tables.delete(table);
      rows.clear();
      changes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      // A big change set (a fresh search index is a hundred thousand rows) goes a key range at
      // a time, the event loop running between: `serve` keeps answering while it is built.
      let next = tables.get(table);
      for (let from = 0; from < changes.length; from += APPLY_CHUNK) {
        const to = Math.min(changes.length, from + APPLY_CHUNK);
        next = tableApply(source, next, changes.slice(from, to), emit);
        changes.fill(APPLIED, from, to);
        rangeDone();
        slice = await yieldIfDue(slice, changes.length >= BULK_ITEMS);
      }
      if (next === undefined) tables.delete(table);
      else tables.set(table, next);
    }
    dropSuperseded(pending, tables.values());
    for (const [hash, { text, names }] of writes.objects) pending.set(hash, { bytes: Buffer.from(text), names });
    const txHash = this.logTransactions(base, gen, logged, pending);
    const root: RootObject = txHash === undefined ? { tables } : { tables, tx: txHash };
    const rootValue = encodeRoot(root);
    const rootBytes = Buffer.from(JSON.stringify(rootValue));
    const rootHash = sha256(rootBytes);
    pending.set(rootHash, { value: rootValue, bytes: rootBytes, names: true });

    let size = 0;
    for (const p of pending.values()) size += p.bytes.length;
    const ownPack = size > INLINE_MAX ? newPackName(gen, 'c') : undefined;
    const inline: Buffer[] = [];
    const pack: InlineEntry[] = [];
    if (ownPack === undefined) {
      for (const [hash, p] of pending) {
        pack.push(p.names ? [hash, p.bytes.length] : [hash, p.bytes.length, 0]);
        inline.push(p.bytes);
      }
    }
    const staged = [...writes.staged].filter((s): s is StagedPack => s instanceof StagedPack);
    const record = makeCommit({
      gen,
      parent: base.commit?.sum ?? null,
      root: rootHash,
      at: new Date().toISOString(),
      ...(logged.length === 1 ? { txId: (logged[0] as LoggedTx).txId } : {}),
      ...(command !== undefined ? { command } : {}),
      pack,
      packs: [...(ownPack ? [ownPack] : []), ...staged.map((s) => s.name)],
    });
    const prepared: Prepared = { gen, record, root, pending, inline, staged, ...(ownPack ? { ownPack } : {}) };
    this.host.speculative.add(prepared);
    return prepared;
  }

  /** The transaction log with `logged` appended (its hash; results are objects of the commit). */
  private logTransactions(base: Snapshot, gen: number, logged: LoggedTx[], pending: Map<string, Pending>): string | undefined {
    if (logged.length === 0) return base.root.tx;
    const recent: TxLogEntry[] = base.root.tx === undefined ? [] : [...this.host.txLog(base.root.tx)];
    for (const { txId, value } of logged) {
      let resultHash: string | null = null;
      try {
        const text = value === undefined ? undefined : JSON.stringify(value);
        if (text !== undefined) {
          const bytes = Buffer.from(text);
          resultHash = sha256(bytes);
          pending.set(resultHash, { bytes, names: namesHashes(value) });
        }
      } catch {
        resultHash = null; // not JSON: a retry gets undefined
      }
      recent.push([txId, gen, resultHash]);
    }
    const log = { recent: recent.slice(-TX_LOG_SIZE) };
    const bytes = Buffer.from(JSON.stringify(log));
    const hash = sha256(bytes);
    pending.set(hash, { value: log, bytes, names: true });
    return hash;
  }

  /**
   * Writes a prepared commit's file (and its own pack) and links it as its generation;
   * with `before`, the file is written and fsynced meanwhile but linked only once that
   * commit landed (false, without linking, when it did not). False when another writer
   * took the generation.
   */
  private async publish(prepared: Prepared, before?: Promise<boolean>, synced?: () => void, temp?: OpenedFile): Promise<boolean> {
    try {
      return await this.write(prepared, before, synced, temp ?? new OpenedFile(tempPath(this.host.dir, 'commit')));
    } finally {
      this.host.speculative.delete(prepared);
    }
  }

  private async write(prepared: Prepared, before: Promise<boolean> | undefined, synced: (() => void) | undefined, opened: OpenedFile): Promise<boolean> {
    const { gen, record } = prepared;
    const dir = this.host.dir;
    const commitFile = paths.commit(dir, gen);
    const temp = opened.file;
    const own = prepared.ownPack === undefined ? undefined : new PackWriter(dir, prepared.ownPack, { durable: this.host.durable });
    let linked = false;
    const header = JSON.stringify(record); // once: the file's first line, and its length for the pack index (landed)
    try {
      if (this.formatVersion < FORMAT_VERSION) await this.upgradeFormat();
      // The commit's own pack and the commit file are written and fsynced in parallel; the
      // commit becomes visible (link) only after both are complete. The commit file's write
      // and link run on the thread pool, its close after the link (OpenedFile): on the event
      // loop, each waited for ext4's journal while the commit before was being fsynced (~4 ms
      // a write under load), and every request waited with it.
      const settled = await Promise.allSettled([
        own === undefined ? Promise.resolve() : this.writeOwnPack(own, prepared),
        opened.write(encodeCommitFile(header, prepared.inline), this.host.durable),
      ]);
      synced?.();
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      if (before !== undefined && !(await before.catch(() => false))) return false;
      crashPoint('after-commit-temp');
      try {
        await linkOnPool(temp, commitFile);
        linked = true;
      } catch (error) {
        if (errnoCode(error) === 'EEXIST') return false;
        throw error;
      }
    } catch (error) {
      throw writeFailure(error, gen - 1, commitFile);
    } finally {
      if (linked) this.removeLater(opened);
      else {
        await opened.remove();
        own?.abort();
      }
    }
    this.landed(prepared, own, header);
    crashPoint('after-link');
    const commitsDir = paths.commits(dir);
    try {
      if (this.host.durable) await this.commitsDir.sync();
    } catch (error) {
      throw new StoreError(
        `I/O error syncing ${commitsDir} (${errnoCode(error) ?? String(error)}): the change was committed as gen ${gen} but may not survive a power failure`,
        commitsDir,
        { cause: error, hint: 'check the disk; retrying with the same transaction id is safe' },
      );
    }
    if (gen % HEAD_EVERY === 0) await writeHead(dir, gen);
    crashPoint('before-lock-release');
    return true;
  }

  private async writeOwnPack(writer: PackWriter, prepared: Prepared): Promise<void> {
    for (const [hash, p] of prepared.pending) {
      writer.add(hash, p.bytes, p.names);
      if (writer.unwritten > 8 * 1024 * 1024) await writer.drain(2 * 1024 * 1024);
    }
    await writer.finish();
  }

  /** A linked commit: the packs it names are committed, its objects readable, its state the newest. */
  private landed(prepared: Prepared, own: PackWriter | undefined, header: string): void {
    const { gen, record, pending } = prepared;
    const packs = this.host.packs;
    for (const staged of prepared.staged) {
      staged.committed = true;
      packs.addPack(staged.pack, { gen });
    }
    if (own !== undefined) {
      const pack = PackFile.open(this.host.dir, own.name);
      if (pack !== undefined) packs.addPack(pack, { gen });
    }
    packs.add(gen, record, Buffer.byteLength(header) + 1);
    let inlineBytes = 0;
    (record.pack ?? []).forEach(([hash], i) => {
      const bytes = prepared.inline[i] as Buffer;
      inlineBytes += bytes.length;
      packs.keep(gen, hash, bytes);
    });
    this.inlineByGen.set(gen, inlineBytes);
    this.lastCommit = { gen, root: record.root };
    this.host.committed(gen, record, prepared.root, pending);
  }
}
