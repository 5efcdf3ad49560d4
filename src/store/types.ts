/**
 * The store as the domain sees it: named tables of JSON values keyed by string,
 * plus immutable content-addressed objects for large content (revisions, page
 * bodies, files), read and written in snapshots and transactions.
 *
 * Reads are synchronous (small files, read on demand) so domain code stays plain;
 * a transaction is async only around the lock and the commit. Implementations:
 * `JsonFileStore` (`json-file-store.ts`, the durable on-disk store) and
 * `MemoryStore` (`memory-store.ts`, for unit tests).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface ScanOptions {
  /** Only keys that start with this prefix. */
  prefix?: string;
  /** Skip keys up to and including this one, in the scan's direction (a page cursor). */
  after?: string;
  /** At most this many rows. */
  limit?: number;
  /** Descending key order. */
  reverse?: boolean;
  /**
   * Hand out the store's own parsed values, without a copy each: for bulk reads that
   * never modify what they get (a search reading thousands of postings). Read-only.
   */
  shared?: boolean;
}

/** A consistent, read-only view of one committed generation. */
export interface StoreReader {
  /** Generation number of the commit this view reads (0 = empty store). */
  readonly gen: number;
  /** The value stored under `key` in `table`, or undefined. Never returns a torn value. */
  get<T = unknown>(table: string, key: string): T | undefined;
  /** True when `table` has `key`. */
  has(table: string, key: string): boolean;
  /** Every `[key, value]` of a table, in key order. For small tables and maintenance only. */
  entries<T = unknown>(table: string): Array<[string, T]>;
  /**
   * The `[key, value]` rows of a table in key order (code-unit order, descending with
   * `reverse`), limited to a key range: the way to list anything that grows (a space's
   * comments, a team's members, an organization's spaces). Keep one row per item under
   * a common prefix (`${orgId}/${orderKey}`) and page with `after`.
   */
  scan<T = unknown>(table: string, options?: ScanOptions): Array<[string, T]>;
  /** An immutable object by its hash (see `StoreWriter.putObject`). Throws StoreError when missing or damaged. */
  getObject<T = unknown>(hash: string): T;
  /**
   * `getObject` without the copy: the value is shared with the store's cache and must
   * never be changed. For hot read-only walks (a trie's nodes); optional (a test double
   * may not have it: then `getObject`). `walk`: one of many objects a walk over a whole trie
   * reads once (the walker keeps what it needs): a one-shot process does not cache it.
   */
  sharedObject?<T = unknown>(hash: string, walk?: boolean): T;
  /**
   * An opaque value that changes whenever `table`'s rows change (in the file store, the
   * table's root hash): a cache of what was read from the table stays valid while it is
   * the same. Undefined when the reader cannot tell (then cache per `gen`, or not at all).
   */
  tableVersion?(table: string): string | undefined;
}

/** A transaction: reads see its own writes; nothing is visible to others until commit. */
export interface StoreWriter extends StoreReader {
  put(table: string, key: string, value: unknown): void;
  /**
   * `put` of a value already serialized: `json` must be `JSON.stringify` of a JSON value
   * (for rows computed outside the lock, such as a planned search index: the commit then
   * copies no value and encodes nothing). Optional: without it, `put(JSON.parse(json))`.
   */
  putJson?(table: string, key: string, json: string): void;
  /** Removes a key; returns whether it existed. */
  delete(table: string, key: string): boolean;
  /**
   * Stores an immutable JSON value and returns its content hash (same value, same hash).
   * A row written in the same transaction must refer to it: an object that only a later
   * transaction refers to is unreachable in between, and a checkpoint or gc that runs
   * then may drop it (objects are kept by reachability from the tables, not by age).
   */
  putObject(value: unknown): string;
  /**
   * Makes objects written ahead of this transaction (`Store.stage`) part of its commit.
   * The transaction's rows must name what it needs of them, as for `putObject`.
   */
  adopt(staged: StagedObjects): void;
  /**
   * Whole-state snapshots, in a content-addressed store (the file store; absent in a test
   * double): the root hash of every table, and a state made those roots again (every
   * table but `keep`) in one commit whatever its size. See `Transaction` in snapshot.ts.
   */
  stateRoots?(): Record<string, string>;
  replaceState?(roots: Readonly<Record<string, string>>, keep: readonly string[]): void;
}

/** Where objects can be put and read back: a transaction, or a stager before one. */
export interface ObjectSink {
  putObject(value: unknown): string;
  getObject<T = unknown>(hash: string): T;
  /**
   * Puts an object given as its encoded JSON (exactly what `putObject` would write for its
   * value; `names`: whether it may name other objects). Optional: a caller falls back to
   * `putObject`. For big objects built as bytes (file data), which `putObject` would copy
   * twice as text first.
   */
  putEncoded?(bytes: Buffer, names: boolean): string;
}

/** Objects a stager sealed (see `ObjectStager`): what a transaction adopts. */
export interface StagedObjects {
  /** How many objects, and their bytes (for progress and tests). */
  readonly objects: number;
  readonly bytes: number;
}

/**
 * Writes objects ahead of a transaction, outside the writer lock: a big import
 * serializes, hashes and writes its pages and files here (in slices: `pause` lets the
 * event loop run and bounds the bytes on their way to disk), and the transaction only
 * adopts them, so `serve` keeps answering and the lock is held for the final link.
 * Staged objects are invisible to other readers until a commit adopts them.
 */
export interface ObjectStager extends ObjectSink {
  /** Lets other work run once a few milliseconds of work are spent; waits while too many bytes are unwritten. */
  pause(): Promise<void>;
  /** Writes what is left and makes it durable; the result is what a transaction adopts. */
  seal(): Promise<StagedObjects>;
  /** Removes the staged objects unless a committed transaction adopted them. Call it in every case (finally). */
  release(): void;
}

export interface TransactOptions {
  /** Idempotency key recorded in the commit: a retried transaction with the same id is not applied twice. */
  txId?: string;
  /** A short description of the writer, recorded in the lock (shown when the store is busy). */
  command?: string;
  /**
   * Commit this transaction in a group of its own, on the newest state (no transaction
   * grouped before it): what `stateRoots` needs to see a state exactly.
   */
  alone?: boolean;
}

export interface Store {
  /** Where the store lives (for messages). */
  readonly location: string;
  /** A snapshot of the newest committed generation. */
  read(): StoreReader;
  /**
   * Runs `fn` against the newest state under the writer lock and commits its writes atomically.
   * `fn` may run more than once (when another writer committed first), so it must not have
   * side effects outside the transaction. A transaction that writes nothing commits nothing.
   */
  transact<T>(fn: (tx: StoreWriter) => T | Promise<T>, options?: TransactOptions): Promise<T>;
  /**
   * A stager for objects written ahead of a transaction (see ObjectStager). Absent in a
   * store that cannot (a test double): callers then put the objects in the transaction.
   */
  stage?(): ObjectStager;
  /** Releases resources (timers, caches). */
  close(): Promise<void>;
}
