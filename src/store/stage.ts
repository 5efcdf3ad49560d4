/**
 * Staging: objects written into a pack file ahead of a transaction, outside the
 * writer lock (types.ts, `ObjectStager`). An import serializes, hashes and writes its
 * pages and files here, a slice at a time, with at most a few MiB on their way to the
 * disk; `seal` fsyncs the pack and its index. The transaction that adopts the pack
 * names it in its commit record, so the lock is held for a small commit and a link.
 *
 * A staged pack nothing commits is removed by `release`; one a crash left behind is
 * named by nothing, and `store gc` removes it once it is an hour old (a staging in
 * another process may still be on its way to its commit).
 */
import { StoreError } from './errors.js';
import { DAMAGE_HINT, encodeJson, namesHashes, parseObject, sha256 } from './objects.js';
import { PackFile, PackWriter, newPackName, removePack } from './pack-file.js';
import type { PackSet } from './pack-set.js';
import { BULK_ITEMS, yieldIfDue } from '../util/slices.js';
import type { ObjectStager, StagedObjects } from './types.js';
import { crashPoint } from './fault.js';
import { copyJson } from '../util/json-copy.js';

/** What a stager needs from its store. */
export interface StagerHost {
  readonly dir: string;
  readonly durable: boolean;
  readonly packs: PackSet;
  /** A committed object (for bases a staged tree reuses). */
  object(hash: string): unknown;
  /** The newest generation seen (names the pack). */
  readonly gen: number;
}

/** A sealed staged pack: what a transaction adopts, and the commit names. */
export class StagedPack implements StagedObjects {
  /** Set once a commit naming it has landed (then release leaves it alone). */
  committed = false;
  constructor(
    readonly pack: PackFile,
    readonly stager: PackStager,
  ) {}
  get name(): string {
    return this.pack.name;
  }
  get objects(): number {
    return this.pack.count;
  }
  get bytes(): number {
    return this.pack.bytes;
  }
}

/** What sealing a stager that was given nothing answers: adopting it adds nothing. */
const NOTHING_STAGED: StagedObjects = Object.freeze({ objects: 0, bytes: 0 });

/** Bytes unwritten before `pause` waits for the disk. */
const MAX_UNWRITTEN = 8 * 1024 * 1024;

export class PackStager implements ObjectStager {
  private readonly writer: PackWriter;
  private sealed: StagedPack | undefined;
  private released = false;
  private slice = performance.now();

  constructor(private readonly host: StagerHost) {
    this.writer = new PackWriter(host.dir, newPackName(host.gen, 's'), { durable: host.durable });
  }

  putObject(value: unknown): string {
    return this.putEncoded(Buffer.from(encodeJson(value)), namesHashes(value));
  }

  putEncoded(bytes: Buffer, names: boolean): string {
    if (this.sealed !== undefined || this.released) throw new Error('staged objects already sealed: put them before seal()');
    const hash = sha256(bytes);
    this.writer.add(hash, bytes, names);
    return hash;
  }

  getObject<T = unknown>(hash: string): T {
    const bytes = this.writer.peek(hash);
    if (bytes !== undefined) return parseObject(bytes, this.writer.packFile) as T;
    return copyJson(this.host.object(hash) as T);
  }

  async pause(): Promise<void> {
    if (this.writer.unwritten > MAX_UNWRITTEN) await this.writer.drain(MAX_UNWRITTEN / 4);
    this.slice = await yieldIfDue(this.slice, this.writer.count >= BULK_ITEMS);
  }

  async seal(): Promise<StagedObjects> {
    if (this.sealed !== undefined) return this.sealed;
    if (this.released) throw new Error('staged objects already released');
    if (this.writer.count === 0) return NOTHING_STAGED; // no pack for nothing (a tree equal to its base)
    try {
      await this.writer.finish();
    } catch (error) {
      this.writer.abort();
      throw error;
    }
    crashPoint('mid-stage');
    const pack = PackFile.open(this.host.dir, this.writer.name);
    if (pack === undefined) {
      throw new StoreError(`store damaged: ${this.writer.indexFile} vanished as it was staged`, this.writer.indexFile, { hint: DAMAGE_HINT });
    }
    this.host.packs.addPack(pack, { staged: true });
    this.sealed = new StagedPack(pack, this);
    return this.sealed;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.sealed === undefined) {
      this.writer.abort();
      return;
    }
    if (this.sealed.committed) return;
    this.host.packs.dropStaged(this.sealed.name);
    removePack(this.host.dir, this.sealed.name);
  }
}
