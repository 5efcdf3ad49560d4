/**
 * Where a process finds objects: the PackSet. Objects are in
 *
 * - the base packs CHECKPOINT names: everything the checkpoint's generation reaches,
 *   and what older kept generations reach (checkpoint.ts keeps that true);
 * - the commits after the checkpoint: objects packed inline in their commit files,
 *   and the pack files their records name (a big commit's own, packs staged before it);
 * - loose files, `objects/ab/<hash>.json`, in stores written before packs, until the
 *   first repack folds them into a pack.
 *
 * A lookup tries what is already indexed, then indexes the commits after the checkpoint
 * newest first (what is read most is what was written last: the newest root, the
 * nodes it changed) and opens the base packs one by one, then the loose file. When
 * all that fails, the checkpoint may have moved (a repack merged the packs this
 * process knew and removed them): CHECKPOINT is read again and every commit file and
 * pack present is indexed before the object is declared missing.
 *
 * ```
 * CHECKPOINT   {"gen":C,"packs":[newest first…],"history":[earlier checkpoints…],"prunedBelow":P}
 * ```
 * (stores written before packs have `C h1 h2 … prunedBelow=P`: no base packs, loose objects instead).
 */
import * as fs from 'node:fs';
import { errnoCode, fsyncDir, guarded, poolIo, removeQuietly, tempPath, writeNewFile } from './durable.js';
import { StoreError } from './errors.js';
import { type CommitHead, type InlineEntry, listCommitGens, packProblem, paths, readCommitHead } from './commit-file.js';
import { DAMAGE_HINT, readLooseBytes, verifyObject } from './objects.js';
import { PACK_NAME_RE, type PackEntry, PackFile, indexPath, listPacks, packPath } from './pack-file.js';

// ─── CHECKPOINT ──────────────────────────────────────────────────────────────

export interface CheckpointState {
  /** Every object reachable at this generation is in the base packs (or, in a store written before packs, loose). */
  gen: number;
  /** The base packs, newest first. */
  packs: string[];
  /** Earlier checkpoint generations, newest first (cut points for pruning commit files). */
  history: number[];
  /** Commit files below this generation have been dropped. */
  prunedBelow: number;
  /** Written before packs (text form): the base is the loose objects. */
  legacy: boolean;
}

export const NO_CHECKPOINT: CheckpointState = { gen: 0, packs: [], history: [], prunedBelow: 0, legacy: false };

/** Earlier checkpoints remembered (enough to reach back past the kept commits). */
export const CHECKPOINT_HISTORY = 16;

/**
 * CHECKPOINT's state. No file is gen 0 with no base packs (a new store). A file that
 * cannot be read as either form is damage: readers would otherwise miss the base packs.
 */
export function readCheckpointState(dir: string): CheckpointState {
  const file = paths.checkpoint(dir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return NO_CHECKPOINT;
    throw new StoreError(`cannot read ${file} (${errnoCode(error) ?? String(error)})`, file, { cause: error });
  }
  const legacy = /^(\d{1,15})((?: \d{1,15})*)(?: prunedBelow=(\d{1,15}))?$/.exec(text);
  if (legacy) {
    const history = (legacy[2] ?? '').split(' ').filter(Boolean).map(Number);
    return { gen: Number(legacy[1]), packs: [], history, prunedBelow: Number(legacy[3] ?? 0), legacy: true };
  }
  let value: Partial<CheckpointState> | undefined;
  try {
    value = JSON.parse(text) as Partial<CheckpointState>;
  } catch {
    value = undefined;
  }
  const isGen = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  if (
    typeof value !== 'object' ||
    value === null ||
    !isGen(value.gen) ||
    !isGen(value.prunedBelow) ||
    !Array.isArray(value.packs) ||
    !value.packs.every((name) => typeof name === 'string' && PACK_NAME_RE.test(name)) ||
    !Array.isArray(value.history) ||
    !value.history.every(isGen)
  ) {
    throw new StoreError(`store damaged: ${file} is not a checkpoint`, file, { hint: DAMAGE_HINT });
  }
  return { gen: value.gen, packs: value.packs, history: value.history, prunedBelow: value.prunedBelow, legacy: false };
}

/** Replaces CHECKPOINT durably (temp file fsynced, renamed, directory fsynced). */
export async function writeCheckpoint(dir: string, state: Omit<CheckpointState, 'legacy'>, durable: boolean): Promise<void> {
  const temp = tempPath(dir, 'checkpoint');
  const text = JSON.stringify({ gen: state.gen, packs: state.packs, history: state.history.slice(0, CHECKPOINT_HISTORY), prunedBelow: state.prunedBelow });
  // On the thread pool: a checkpoint runs beside serve's commits, and creating and renaming a
  // file there waited for ext4's journal on the event loop (a rename took ~1.7 ms) while a commit's fsync held it.
  try {
    await writeNewFile(temp, Buffer.from(`${text}\n`), { sync: durable, io: poolIo });
    await guarded('rename', temp, () => poolIo.rename(temp, paths.checkpoint(dir)));
  } catch (error) {
    removeQuietly([temp]);
    throw error;
  }
  if (durable) await fsyncDir(dir);
}

// ─── Locations ───────────────────────────────────────────────────────────────

/** An object inside a commit file (after its record line). */
export interface InlineLocation {
  gen: number;
  start: number;
  length: number;
  names: boolean;
}

export type Location = { inline: InlineLocation } | { pack: PackFile; entry: PackEntry };

/** Commit files up to this size are read whole and kept (the few newest), so neighbours cost no read. */
const COMMIT_CACHE_MAX = 256 * 1024;
const COMMIT_CACHE_ENTRIES = 8;
/** At most this many bytes of its own packed objects are kept by a writer until its next checkpoint (`keep`). */
const OWN_MAX_BYTES = 16 * 1024 * 1024;
/** How many times a lookup searches everything again while CHECKPOINT keeps moving under it. */
const SEARCH_ATTEMPTS = 4;

export class PackSet {
  private state: CheckpointState | undefined;
  /** Every pack this process has open, by name. */
  private readonly files = new Map<string, PackFile>();
  /** Base pack names not opened yet (opened one by one as lookups need them). */
  private unopened: string[] = [];
  /** Open packs in lookup order: those named by commits after the checkpoint and staged here (newest first), then the base. */
  private recent: PackFile[] = [];
  private base: PackFile[] = [];
  /** The pack the last lookup found its object in (tried first by the next). */
  private lastHit: PackFile | undefined;
  /**
   * Where the object after the last one read from a pack starts, and whether to try it
   * first (`readIfAt`): a walk reads objects in the order a commit wrote them, so most of
   * its reads need no index lookup (a whole-site read of 200 distinct spaces: 3,400 of
   * 3,500, and no 7 MB of indexes read). Tried while reads keep landing there: a read the
   * index found elsewhere stops it, one found just there starts it again, so reads in
   * another order cost no wasted hash.
   */
  private next: { pack: PackFile; offset: number } | undefined;
  private inOrder = false;
  /** Which commit named a pack (the newest one), for packs named by commits after the checkpoint. */
  private readonly namedBy = new Map<string, number>();
  private readonly inline = new Map<string, InlineLocation>();
  private readonly indexed = new Set<number>();
  /** True once every commit file and pack present was indexed (the slow path, for old generations and moved checkpoints). */
  complete = false;
  private readonly commitBytes = new Map<number, Buffer>();
  private readonly own = new Map<string, { gen: number; bytes: Buffer }>();
  private ownBytes = 0;

  constructor(readonly dir: string) {}

  /** CHECKPOINT as this process last read it (read at first use). */
  get checkpoint(): CheckpointState {
    if (this.state === undefined) this.useCheckpoint(readCheckpointState(this.dir));
    return this.state as CheckpointState;
  }

  /** Reads CHECKPOINT again; packs no longer named anywhere this process knows are closed. */
  refresh(): CheckpointState {
    const next = readCheckpointState(this.dir);
    if (this.state === undefined || next.gen !== this.state.gen || next.packs.join() !== this.state.packs.join()) this.useCheckpoint(next);
    return this.state as CheckpointState;
  }

  /** Takes a checkpoint this process wrote (or read) as the current one. */
  useCheckpoint(state: CheckpointState): void {
    this.state = state;
    const listed = new Set(state.packs);
    this.base = [];
    this.unopened = [];
    for (const name of state.packs) {
      const open = this.files.get(name);
      if (open !== undefined && !open.closed) this.base.push(open);
      else this.unopened.push(name);
    }
    for (const [name, gen] of this.namedBy) if (gen <= state.gen) this.namedBy.delete(name);
    this.recent = this.recent.filter((pack) => !pack.closed && !listed.has(pack.name) && (this.namedBy.has(pack.name) || this.staged.has(pack.name)));
    for (const [name, pack] of this.files) {
      if (listed.has(name) || this.namedBy.has(name) || this.staged.has(name)) continue;
      pack.close();
      this.files.delete(name);
    }
    for (const gen of this.commitBytes.keys()) if (gen <= state.gen) this.commitBytes.delete(gen);
    // What the commits up to the checkpoint packed is in the base now (when still reached): a
    // long-lived reader forgets their entries instead of growing with every commit it saw.
    for (const [hash, location] of this.inline) if (location.gen <= state.gen) this.inline.delete(hash);
    for (const gen of this.indexed) if (gen <= state.gen) this.indexed.delete(gen);
    this.complete = false;
  }

  /** Packs this process staged and has not seen committed (readable here only). */
  private readonly staged = new Set<string>();

  /** Makes a pack this process wrote readable here (a staged pack before its commit, a commit's own). */
  addPack(pack: PackFile, options: { gen?: number; staged?: boolean } = {}): void {
    this.files.set(pack.name, pack);
    if (options.staged) this.staged.add(pack.name);
    if (options.gen !== undefined) {
      this.staged.delete(pack.name);
      this.namedBy.set(pack.name, Math.max(options.gen, this.namedBy.get(pack.name) ?? 0));
    }
    if (!this.recent.includes(pack)) this.recent.unshift(pack);
  }

  /** Forgets a staged pack that will not be committed (its files are removed by the stager). */
  dropStaged(name: string): void {
    if (!this.staged.delete(name)) return;
    this.files.get(name)?.close();
    this.files.delete(name);
    this.recent = this.recent.filter((pack) => pack.name !== name);
  }

  /** Knows a pack this process just wrote and opened (so it is not opened a second time). */
  register(pack: PackFile): void {
    this.files.set(pack.name, pack);
  }

  /** Every base pack of the current checkpoint, open. A missing one is damage: its objects would be lost. */
  basePacks(): PackFile[] {
    while (this.unopened.length > 0) {
      const name = this.unopened.shift() as string;
      const pack = this.openPack(name);
      if (pack === undefined) {
        const file = paths.packs(this.dir);
        throw new StoreError(`store damaged: base pack ${name} named by CHECKPOINT is missing from ${file}`, file, { hint: DAMAGE_HINT });
      }
      this.base.push(pack);
    }
    return [...this.base];
  }

  private openPack(name: string): PackFile | undefined {
    const known = this.files.get(name);
    if (known !== undefined && !known.closed) return known;
    const pack = PackFile.open(this.dir, name);
    if (pack !== undefined) this.files.set(name, pack);
    return pack;
  }

  // ─── Commits ─────────────────────────────────────────────────────────────

  /** Records a commit's inline objects (`start`: offset of the first, after the record line) and the packs it names. */
  add(gen: number, record: { pack?: readonly InlineEntry[]; packs?: readonly string[] }, start: number): void {
    this.indexed.add(gen);
    let offset = start;
    for (const [hash, length, names] of record.pack ?? []) {
      const known = this.inline.get(hash);
      if (known === undefined || known.gen < gen) this.inline.set(hash, { gen, start: offset, length, names: names !== 0 });
      offset += length;
    }
    for (const name of record.packs ?? []) {
      if (gen <= this.checkpoint.gen && this.checkpoint.packs.includes(name)) continue; // a base pack already
      this.namedBy.set(name, Math.max(gen, this.namedBy.get(name) ?? 0));
      const pack = this.openPack(name);
      if (pack !== undefined && !this.recent.includes(pack)) this.recent.unshift(pack);
    }
  }

  /** Indexes one commit file from its record line (a missing one is skipped: pruned, or set aside by recover). */
  indexCommit(gen: number): void {
    if (this.indexed.has(gen)) return;
    let head: CommitHead | undefined;
    try {
      head = readCommitHead(paths.commit(this.dir, gen));
    } catch {
      return;
    }
    this.indexed.add(gen);
    if (head === undefined) return;
    const start = Buffer.byteLength(head.header) + 1;
    let record: { pack?: unknown; packs?: unknown };
    try {
      record = JSON.parse(head.header) as typeof record;
    } catch {
      return; // damaged: fsck reports the commit itself
    }
    const pack = record.pack !== undefined && packProblem(record.pack) === undefined && start <= head.size ? (record.pack as InlineEntry[]) : undefined;
    const packs = Array.isArray(record.packs) ? record.packs.filter((name): name is string => typeof name === 'string' && PACK_NAME_RE.test(name)) : undefined;
    this.add(gen, { ...(pack ? { pack } : {}), ...(packs ? { packs } : {}) }, start);
  }

  /** Indexes the commits of gens `from..to` not indexed yet. */
  ensureIndexed(from: number, to: number): void {
    for (let gen = Math.max(1, from); gen <= to; gen += 1) this.indexCommit(gen);
  }

  /** Inline objects of the commits after `gen` (their newest locations). */
  inlineAfter(gen: number): Map<string, InlineLocation> {
    const out = new Map<string, InlineLocation>();
    for (const [hash, location] of this.inline) if (location.gen > gen) out.set(hash, location);
    return out;
  }

  /** Packs named by the indexed commits after `gen` (present ones), by name. */
  packsNamedAfter(gen: number): PackFile[] {
    const out: PackFile[] = [];
    for (const [name, by] of this.namedBy) {
      if (by <= gen) continue;
      const pack = this.openPack(name);
      if (pack !== undefined) out.push(pack);
    }
    return out;
  }

  // ─── Lookups ─────────────────────────────────────────────────────────────

  /** Where `hash` is among what is indexed and open now (no file read beyond index buckets). */
  private known(hash: string): Location | undefined {
    const inline = this.inline.get(hash);
    if (inline !== undefined) return { inline };
    // The pack of the last hit first: a walk reads objects one commit wrote together (a
    // space's trie), so with several packs most lookups end at the first index searched.
    const last = this.lastHit;
    if (last !== undefined && !last.closed && (this.recent.includes(last) || this.base.includes(last))) {
      const entry = last.find(hash);
      if (entry !== undefined) return { pack: last, entry };
    }
    for (const pack of this.recent) {
      if (pack === last) continue;
      const entry = pack.find(hash);
      if (entry !== undefined) return this.hit(pack, entry);
    }
    for (const pack of this.base) {
      if (pack === last) continue;
      const entry = pack.find(hash);
      if (entry !== undefined) return this.hit(pack, entry);
    }
    return undefined;
  }

  private hit(pack: PackFile, entry: PackEntry): Location {
    this.lastHit = pack;
    return { pack, entry };
  }

  /**
   * Where `hash` is, opening base packs and indexing the commits after the checkpoint up
   * to `newest` (newest first) as needed; undefined when neither holds it. The base packs
   * first: opening one reads a page, where indexing the commits reads up to one file per
   * commit since the checkpoint (30 of them, 1 MB of records, for any read of a base
   * pack's object in a one-shot command). An object is the same wherever it is found.
   */
  locate(hash: string, newest: number): Location | undefined {
    const found = this.known(hash);
    if (found !== undefined) return found;
    const floor = this.checkpoint.gen;
    while (this.unopened.length > 0) {
      const name = this.unopened.shift() as string;
      const pack = this.openPack(name);
      if (pack === undefined) continue; // removed by a repack: the slow path reads CHECKPOINT again
      this.base.push(pack);
      const entry = pack.find(hash);
      if (entry !== undefined) return { pack, entry };
    }
    // The commits after the checkpoint not indexed yet, newest first.
    for (let gen = newest; gen > floor; gen -= 1) {
      if (this.indexed.has(gen)) continue;
      this.indexCommit(gen);
      const hit = this.known(hash);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  /** The verified bytes at a location (`transient`: see PackFile.read). Throws StoreError naming the file when damaged. */
  readAt(hash: string, location: Location, transient = false): Buffer {
    if ('pack' in location) return location.pack.read(location.entry, transient);
    const { gen, start, length } = location.inline;
    const file = paths.commit(this.dir, gen);
    let bytes: Buffer | undefined;
    const whole = this.commitFile(gen, start + length);
    if (whole !== undefined) bytes = transient ? whole.subarray(start, start + length) : Buffer.from(whole.subarray(start, start + length));
    else bytes = preadFile(file, start, length);
    if (bytes === undefined) throw missingInline(file, hash);
    verifyObject(bytes, hash, file, `object ${hash.slice(0, 12)}… in the pack of ${file}`);
    return bytes;
  }

  /** A small commit file's bytes, kept for the next reads (undefined when it is big or gone). */
  private commitFile(gen: number, atLeast: number): Buffer | undefined {
    const kept = this.commitBytes.get(gen);
    if (kept !== undefined) return kept;
    const file = paths.commit(this.dir, gen);
    let bytes: Buffer;
    try {
      const size = fs.statSync(file).size;
      if (size > COMMIT_CACHE_MAX || size < atLeast) return undefined;
      bytes = fs.readFileSync(file);
    } catch {
      return undefined;
    }
    if (this.commitBytes.size >= COMMIT_CACHE_ENTRIES) this.commitBytes.delete(this.commitBytes.keys().next().value as number);
    this.commitBytes.set(gen, bytes);
    return bytes;
  }

  /**
   * The verified bytes of `hash`: from what this process keeps, the packs, the commits
   * up to `newest`, a loose file, or (after reading CHECKPOINT again and indexing every
   * commit and pack present) anywhere; undefined when it is nowhere. A repack in another
   * process may remove the packs this process knew between two of those steps: while
   * CHECKPOINT keeps moving, the search starts again (a few times). `transient`: the caller
   * is done with the bytes before its next read (see PackFile.read).
   */
  read(hash: string, newest: number, transient = false): Buffer | undefined {
    const kept = this.own.get(hash);
    if (kept !== undefined) return kept.bytes;
    const next = this.next;
    if (this.inOrder && next !== undefined && !next.pack.closed) {
      const bytes = next.pack.readIfAt(next.offset, hash, transient);
      if (bytes !== undefined) {
        next.offset += bytes.length + 1;
        return bytes;
      }
    }
    const location = this.locate(hash, newest);
    if (location !== undefined) {
      const bytes = this.readOrGone(hash, location, transient);
      if (bytes !== undefined) {
        this.readFrom(location);
        return bytes;
      }
    }
    const loose = readLooseBytes(this.dir, hash);
    if (loose !== undefined) return loose;
    for (let attempt = 0; attempt < SEARCH_ATTEMPTS; attempt += 1) {
      const before = this.state;
      this.indexEverything();
      const late = this.locate(hash, newest);
      const bytes = late === undefined ? undefined : this.readOrGone(hash, late);
      if (bytes !== undefined) return bytes;
      const looseLate = readLooseBytes(this.dir, hash);
      if (looseLate !== undefined) return looseLate;
      if (this.state === before) break; // CHECKPOINT did not move: it is nowhere
    }
    // Nowhere: damage. A base pack CHECKPOINT names and that is gone explains it best.
    for (const name of this.checkpoint.packs) {
      const open = this.files.get(name);
      if (open !== undefined && !open.closed) continue;
      if (!fs.existsSync(indexPath(this.dir, name)) || !fs.existsSync(packPath(this.dir, name))) {
        const file = packPath(this.dir, name);
        throw new StoreError(`store damaged: base pack ${file} named by CHECKPOINT is missing`, file, { hint: DAMAGE_HINT });
      }
    }
    return undefined;
  }

  /** Notes where the object after one just read from `location` starts, and whether reads follow that order. */
  private readFrom(location: Location): void {
    if (!('pack' in location)) {
      this.next = undefined;
      this.inOrder = false;
      return;
    }
    const { pack, entry } = location;
    const next = this.next;
    this.inOrder = next !== undefined && next.pack === pack && next.offset === entry.offset;
    this.next = { pack, offset: entry.offset + entry.length + 1 };
  }

  /** Reads at a location; undefined when its file went away meanwhile (a pruned commit, a merged pack). */
  private readOrGone(hash: string, location: Location, transient = false): Buffer | undefined {
    try {
      return this.readAt(hash, location, transient);
    } catch (error) {
      if (!(error instanceof StoreError) || !isGone(error)) throw error;
      if ('inline' in location) this.inline.delete(hash);
      return undefined;
    }
  }

  /**
   * The slow path: CHECKPOINT again, every commit file and every pack present (readers
   * of generations before the checkpoint, fsck, gc, recover, and a reader whose packs
   * a repack replaced).
   */
  indexEverything(): void {
    this.refresh(); // a moved CHECKPOINT clears `complete`
    if (this.complete) return;
    for (const gen of listCommitGens(this.dir)) this.indexCommit(gen);
    const known = new Set([...this.base, ...this.recent].map((pack) => pack.name));
    for (const name of [...this.unopened, ...listPacks(this.dir)]) {
      if (known.has(name)) continue;
      let pack: PackFile | undefined;
      try {
        pack = this.openPack(name);
      } catch {
        continue; // a damaged or unfinished pack no state names: fsck and gc deal with it
      }
      if (pack === undefined) continue;
      known.add(name);
      this.base.push(pack);
    }
    this.unopened = [];
    this.complete = true;
  }

  /** Whether `hash` is in any pack or commit this process has indexed (maintenance: "does this name an object"). */
  has(hash: string): boolean {
    return this.own.has(hash) || this.known(hash) !== undefined;
  }

  /**
   * Whether an object may name others, by what its pack says; undefined when no pack or
   * commit this process has indexed or opened holds it.
   */
  namesOf(hash: string): boolean | undefined {
    const location = this.known(hash);
    if (location === undefined) return undefined;
    return 'pack' in location ? location.entry.names : location.inline.names;
  }

  // ─── A writer's own bytes ────────────────────────────────────────────────

  /** Keeps the bytes of an object `gen` packed (this process hashed them), within OWN_MAX_BYTES, until its checkpoint. */
  keep(gen: number, hash: string, bytes: Buffer): void {
    if (this.own.has(hash) || this.ownBytes + bytes.length > OWN_MAX_BYTES) return;
    this.own.set(hash, { gen, bytes });
    this.ownBytes += bytes.length;
  }

  /** Forgets the kept bytes of the objects packed at `gen` or before. */
  forgetUpTo(gen: number): void {
    for (const [hash, entry] of this.own) {
      if (entry.gen > gen) continue;
      this.own.delete(hash);
      this.ownBytes -= entry.bytes.length;
    }
  }

  close(): void {
    for (const pack of this.files.values()) pack.close();
    this.files.clear();
    this.recent = [];
    this.base = [];
    this.commitBytes.clear();
    this.own.clear();
    this.ownBytes = 0;
  }
}

function preadFile(file: string, start: number, length: number): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw new StoreError(`cannot read ${file} (${errnoCode(error) ?? String(error)})`, file, { cause: error });
  }
  try {
    const bytes = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const n = fs.readSync(fd, bytes, got, length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return got === length ? bytes : bytes.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
}

function missingInline(file: string, hash: string): StoreError {
  const error = new StoreError(`store damaged: object ${hash.slice(0, 12)}… is gone from ${file}`, file, { hint: DAMAGE_HINT });
  (error as { gone?: boolean }).gone = true;
  return error;
}

function isGone(error: StoreError): boolean {
  return (error as { gone?: boolean }).gone === true;
}
