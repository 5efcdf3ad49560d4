/**
 * An in-memory Store for unit tests of the domain: same semantics as the file
 * store (snapshots, transactions that see their own writes, all-or-nothing
 * commit, values deep-copied so callers cannot mutate committed state).
 */
import { createHash } from 'node:crypto';
import { StoreError } from './errors.js';
import { scanRows } from './scan.js';
import type { ObjectStager, ScanOptions, StagedObjects, Store, StoreReader, StoreWriter, TransactOptions } from './types.js';

type Tables = Map<string, Map<string, string>>;

const clone = <T>(text: string): T => JSON.parse(text) as T;

class Snapshot implements StoreReader {
  constructor(
    readonly gen: number,
    protected tables: Tables,
    protected objects: Map<string, string>,
  ) {}
  get<T>(table: string, key: string): T | undefined {
    const text = this.tables.get(table)?.get(key);
    return text === undefined ? undefined : clone<T>(text);
  }
  has(table: string, key: string): boolean {
    return this.tables.get(table)?.has(key) ?? false;
  }
  entries<T>(table: string): Array<[string, T]> {
    const rows = [...(this.tables.get(table) ?? new Map<string, string>())];
    rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return rows.map(([key, text]) => [key, clone<T>(text)]);
  }
  scan<T>(table: string, options: ScanOptions = {}): Array<[string, T]> {
    const rows = this.tables.get(table) ?? new Map<string, string>();
    return scanRows(rows, options).map(([key, text]) => [key, clone<T>(text)]);
  }
  getObject<T>(hash: string): T {
    const text = this.objects.get(hash);
    if (text === undefined) throw new StoreError(`object ${hash} is missing from the store`, `memory:${hash}`);
    return clone<T>(text);
  }
}

class Transaction extends Snapshot implements StoreWriter {
  dirty = false;
  put(table: string, key: string, value: unknown): void {
    let rows = this.tables.get(table);
    if (!rows) this.tables.set(table, (rows = new Map()));
    rows.set(key, JSON.stringify(value));
    this.dirty = true;
  }
  putJson(table: string, key: string, json: string): void {
    this.put(table, key, JSON.parse(json));
  }
  delete(table: string, key: string): boolean {
    const existed = this.tables.get(table)?.delete(key) ?? false;
    if (existed) this.dirty = true;
    return existed;
  }
  putObject(value: unknown): string {
    const text = JSON.stringify(value);
    const hash = hashOf(text);
    this.objects.set(hash, text);
    this.dirty = true;
    return hash;
  }
  adopt(staged: StagedObjects): void {
    if (!(staged instanceof MemoryStaged)) throw new TypeError('these staged objects belong to another store');
    for (const [hash, text] of staged.texts) this.objects.set(hash, text);
    this.dirty = true;
  }
  result(): { tables: Tables; objects: Map<string, string> } {
    return { tables: this.tables, objects: this.objects };
  }
}

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Objects staged ahead of a transaction (kept in memory until one adopts them). */
class MemoryStaged implements StagedObjects {
  readonly texts = new Map<string, string>();
  get objects(): number {
    return this.texts.size;
  }
  get bytes(): number {
    let total = 0;
    for (const text of this.texts.values()) total += text.length;
    return total;
  }
}

class MemoryStager implements ObjectStager {
  private readonly staged = new MemoryStaged();
  constructor(private readonly store: MemoryStore) {}
  putObject(value: unknown): string {
    const text = JSON.stringify(value);
    const hash = hashOf(text);
    this.staged.texts.set(hash, text);
    return hash;
  }
  getObject<T>(hash: string): T {
    const text = this.staged.texts.get(hash);
    return text === undefined ? this.store.read().getObject<T>(hash) : clone<T>(text);
  }
  async pause(): Promise<void> {}
  async seal(): Promise<StagedObjects> {
    return this.staged;
  }
  release(): void {}
}

export class MemoryStore implements Store {
  readonly location = 'memory';
  private gen = 0;
  private tables: Tables = new Map();
  private objects = new Map<string, string>();
  private queue: Promise<unknown> = Promise.resolve();

  read(): StoreReader {
    return new Snapshot(this.gen, this.tables, this.objects);
  }

  transact<T>(fn: (tx: StoreWriter) => T | Promise<T>, _options?: TransactOptions): Promise<T> {
    const run = async (): Promise<T> => {
      // Copy-on-write at table granularity is enough for tests.
      const tables: Tables = new Map([...this.tables].map(([name, rows]) => [name, new Map(rows)]));
      const tx = new Transaction(this.gen, tables, new Map(this.objects));
      const value = await fn(tx);
      if (tx.dirty) {
        const next = tx.result();
        this.tables = next.tables;
        this.objects = next.objects;
        this.gen += 1;
      }
      return value;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  stage(): ObjectStager {
    return new MemoryStager(this);
  }

  async close(): Promise<void> {}
}
