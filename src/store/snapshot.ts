/**
 * Reading one committed generation (Snapshot) and writing on top of it
 * (Transaction). A transaction buffers its writes as JSON text; in a group
 * commit (json-file-store.ts) each transaction also sees the writes of the
 * transactions grouped before it (`Batch`), so the group behaves as if they had
 * committed one after another.
 */
import type { CommitRecord, RootObject, TxLogEntry } from './commit-file.js';
import { encodeJson, namesHashes, sha256 } from './objects.js';
import { inScanRange } from './scan.js';
import { tableEntries, tableGet, tableScan, type TableSource } from './tables.js';
import type { Json, ScanOptions, StagedObjects, StoreReader, StoreWriter } from './types.js';
import { copyJson } from '../util/json-copy.js';

/** What a snapshot needs from its store. */
export interface SnapshotSource extends TableSource {
  txLog(hash: string): TxLogEntry[];
}

// Values are parsed JSON shared with the cache: hand out copies (copyJson: structuredClone costs ~10x on small objects).
const copy = <T>(value: unknown): T => copyJson(value as T);
const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

export class Snapshot implements StoreReader {
  constructor(
    readonly gen: number,
    protected readonly source: SnapshotSource,
    readonly commit: CommitRecord | undefined,
    readonly root: RootObject,
  ) {}

  /** The root of `table` in the state this view reads (undefined: the table is empty). */
  protected tableRoot(table: string): string | undefined {
    return this.root.tables.get(table);
  }

  protected raw(table: string, key: string): Json | undefined {
    return tableGet(this.source, this.tableRoot(table), key);
  }

  get<T = unknown>(table: string, key: string): T | undefined {
    const value = this.raw(table, key);
    return value === undefined ? undefined : copy<T>(value);
  }

  has(table: string, key: string): boolean {
    return this.raw(table, key) !== undefined;
  }

  entries<T = unknown>(table: string): Array<[string, T]> {
    return tableEntries(this.source, this.tableRoot(table)).map(([key, value]) => [key, copy<T>(value)]);
  }

  scan<T = unknown>(table: string, options: ScanOptions = {}): Array<[string, T]> {
    const rows = tableScan(this.source, this.tableRoot(table), options);
    return options.shared ? (rows as Array<[string, T]>) : rows.map(([key, value]) => [key, copy<T>(value)]);
  }

  getObject<T = unknown>(hash: string): T {
    return copy<T>(this.source.object(hash));
  }

  sharedObject<T = unknown>(hash: string, walk?: boolean): T {
    return this.source.object(hash, walk) as T;
  }

  /** The table's root hash (trees are content-addressed: same rows, same hash). */
  tableVersion(table: string): string | undefined {
    return this.tableRoot(table) ?? 'empty';
  }

  /** The recorded outcome of an earlier transaction with this id, if it is among the recent ones. */
  findTx(txId: string): { gen: number; result: string | null } | undefined {
    if (this.root.tx === undefined) return undefined;
    for (const [id, gen, result] of this.source.txLog(this.root.tx)) {
      if (id === txId) return { gen, result };
    }
    return undefined;
  }
}

export type { CommitRecord, RootObject, TxLogEntry };

/** An object put in a transaction: its JSON text, and whether it may name other objects. */
export interface PutObject {
  text: string;
  names: boolean;
}

/**
 * Buffered writes: table → key → JSON text (null = deleted); objects: hash → text; the
 * staged objects the transaction adopts (Store.stage); tables whose whole state is replaced
 * by an earlier root (`replaceState`: table → root hash, null = emptied), under the rows.
 */
export class Writes {
  readonly tables = new Map<string, Map<string, string | null>>();
  readonly roots = new Map<string, string | null>();
  readonly objects = new Map<string, PutObject>();
  readonly staged = new Set<StagedObjects>();

  get(table: string, key: string): string | null | undefined {
    return this.tables.get(table)?.get(key);
  }

  set(table: string, key: string, text: string | null): void {
    let rows = this.tables.get(table);
    if (!rows) this.tables.set(table, (rows = new Map()));
    rows.set(key, text);
  }

  /** The table's whole state becomes `root`'s (null: empty): rows buffered for it before are dropped. */
  replaceRoot(table: string, root: string | null): void {
    this.roots.set(table, root);
    this.tables.delete(table);
  }

  /** Adds `other`'s writes on top of these (its replaced roots first: its rows came after them). */
  absorb(other: Writes): void {
    for (const [table, root] of other.roots) this.replaceRoot(table, root);
    for (const [table, rows] of other.tables) for (const [key, text] of rows) this.set(table, key, text);
    for (const [hash, object] of other.objects) this.objects.set(hash, object);
    for (const staged of other.staged) this.staged.add(staged);
  }

  get empty(): boolean {
    return this.tables.size === 0 && this.objects.size === 0 && this.staged.size === 0 && this.roots.size === 0;
  }

  /** Forgets every write (once another Writes absorbed them). */
  clear(): void {
    this.tables.clear();
    this.roots.clear();
    this.objects.clear();
    this.staged.clear();
  }
}

export class Transaction extends Snapshot implements StoreWriter {
  readonly own = new Writes();
  dirty = false;
  finished = false;

  constructor(
    gen: number,
    source: SnapshotSource,
    commit: CommitRecord | undefined,
    root: RootObject,
    /** Writes of the transactions grouped before this one (read through, never changed here). */
    private readonly before: Writes = new Writes(),
  ) {
    super(gen, source, commit, root);
  }

  private buffered(table: string, key: string): string | null | undefined {
    const text = this.own.get(table, key);
    return text !== undefined || this.own.roots.has(table) ? text : this.before.get(table, key);
  }

  /** Buffered rows of a table (earlier transactions' writes overlaid by ours; none of theirs once we replaced the table). */
  private bufferedRows(table: string): Map<string, string | null> | undefined {
    const mine = this.own.tables.get(table);
    const theirs = this.own.roots.has(table) ? undefined : this.before.tables.get(table);
    if (!theirs) return mine;
    if (!mine) return theirs;
    return new Map([...theirs, ...mine]);
  }

  private writable(): void {
    if (this.finished) throw new Error('store transaction already finished: writes after it returned are not saved');
  }

  override get<T = unknown>(table: string, key: string): T | undefined {
    const text = this.buffered(table, key);
    if (text === undefined) return super.get<T>(table, key);
    return text === null ? undefined : (JSON.parse(text) as T);
  }

  override has(table: string, key: string): boolean {
    const text = this.buffered(table, key);
    return text === undefined ? super.has(table, key) : text !== null;
  }

  override entries<T = unknown>(table: string): Array<[string, T]> {
    const rows = super.entries<T>(table);
    const writes = this.bufferedRows(table);
    if (!writes) return rows;
    const merged = new Map(rows);
    for (const [key, text] of writes) {
      if (text === null) merged.delete(key);
      else merged.set(key, JSON.parse(text) as T);
    }
    return [...merged].sort(byKey);
  }

  override scan<T = unknown>(table: string, options: ScanOptions = {}): Array<[string, T]> {
    const writes = this.bufferedRows(table);
    if (!writes) return super.scan<T>(table, options);
    // Each buffered key can hide at most one committed row: read that many more, then overlay.
    const limit = options.limit === undefined ? undefined : options.limit + writes.size;
    const committed = super.scan<T>(table, limit === undefined ? options : { ...options, limit });
    const merged = new Map(committed);
    for (const [key, text] of writes) {
      if (!inScanRange(key, options)) continue;
      if (text === null) merged.delete(key);
      else merged.set(key, JSON.parse(text) as T);
    }
    const rows = [...merged].sort(byKey);
    if (options.reverse) rows.reverse();
    // Rows past the last committed row read may be missing from `committed` (cut by its limit):
    // only rows up to that boundary are complete.
    let complete = rows;
    if (limit !== undefined && committed.length === limit) {
      const boundary = (committed.at(-1) as [string, T])[0];
      complete = rows.filter(([key]) => (options.reverse ? key >= boundary : key <= boundary));
    }
    return options.limit === undefined ? complete : complete.slice(0, Math.max(0, options.limit));
  }

  /** A table replaced by `replaceState` (here or in a transaction grouped before) reads from its new root. */
  protected override tableRoot(table: string): string | undefined {
    const root = this.own.roots.get(table) ?? (this.own.roots.has(table) ? null : this.before.roots.get(table));
    if (root === undefined) return super.tableRoot(table);
    return root ?? undefined;
  }

  /**
   * The root of every table of the state this transaction reads: the whole state in a few
   * hashes (what an emulator snapshot keeps, `src/domain/emulator.ts`). Only exact before
   * anything is buffered (run it with `TransactOptions.alone`, first thing).
   */
  stateRoots(): Record<string, string> {
    if (this.own.tables.size + this.before.tables.size + this.own.roots.size + this.before.roots.size > 0) {
      throw new Error('stateRoots() needs a transaction of its own (TransactOptions.alone), called before any write');
    }
    return Object.fromEntries(this.root.tables);
  }

  /**
   * Makes every table but `keep` what `roots` says (a table it does not name becomes empty):
   * a whole earlier state back in one commit of a few hashes, whatever its size. Each root
   * must be one the store holds (kept reachable by the row that names it).
   */
  replaceState(roots: Readonly<Record<string, string>>, keep: readonly string[]): void {
    this.writable();
    for (const hash of Object.values(roots)) this.source.object(hash); // throws StoreError when missing or damaged
    const names = new Set([...this.root.tables.keys(), ...this.before.roots.keys(), ...Object.keys(roots)]);
    for (const table of names) {
      if (keep.includes(table)) continue;
      this.own.replaceRoot(table, Object.hasOwn(roots, table) ? (roots[table] as string) : null);
    }
    this.dirty = true;
  }

  /** Undefined once the table has buffered writes (they have no root hash yet). */
  override tableVersion(table: string): string | undefined {
    return this.bufferedRows(table) === undefined ? super.tableVersion(table) : undefined;
  }

  override getObject<T = unknown>(hash: string): T {
    const object = this.own.objects.get(hash) ?? this.before.objects.get(hash);
    return object === undefined ? super.getObject<T>(hash) : (JSON.parse(object.text) as T);
  }

  override sharedObject<T = unknown>(hash: string, walk?: boolean): T {
    const object = this.own.objects.get(hash) ?? this.before.objects.get(hash);
    return object === undefined ? super.sharedObject<T>(hash, walk) : (JSON.parse(object.text) as T);
  }

  put(table: string, key: string, value: unknown): void {
    this.writable();
    if (typeof table !== 'string' || typeof key !== 'string') throw new TypeError('table and key must be strings');
    this.own.set(table, key, encodeJson(value));
    this.dirty = true;
  }

  putJson(table: string, key: string, json: string): void {
    this.writable();
    if (typeof table !== 'string' || typeof key !== 'string' || typeof json !== 'string') throw new TypeError('table, key and json must be strings');
    this.own.set(table, key, json);
    this.dirty = true;
  }

  delete(table: string, key: string): boolean {
    this.writable();
    if (!this.has(table, key)) return false;
    this.own.set(table, key, null);
    this.dirty = true;
    return true;
  }

  putObject(value: unknown): string {
    this.writable();
    const text = encodeJson(value);
    const hash = sha256(text);
    this.own.objects.set(hash, { text, names: namesHashes(value) });
    this.dirty = true;
    return hash;
  }

  adopt(staged: StagedObjects): void {
    this.writable();
    this.own.staged.add(staged);
    this.dirty = true;
  }
}
