/**
 * Packs: the objects a commit adds travel inside its commit file, so a commit is
 * one file, one fsync and one link, however many table nodes it touched (the
 * loose-object layout cost an open, an fsync, a rename and a directory fsync per
 * node, and a create at 3,000 spaces touches twice the nodes of one on an empty
 * store).
 *
 * ```
 * commits/000000001043.json   <commit record JSON, with "pack": [[hash, length], …]>\n<object bytes, in that order>
 * CHECKPOINT                  C [earlier checkpoints…] prunedBelow=P: every object reachable at gen C
 *                             (and at each earlier checkpoint listed) is a loose, fsynced file
 * ```
 * Readers look for an object as a loose file first, then in the packs of the
 * commits after CHECKPOINT (indexed lazily, once per commit and process). Every
 * `CHECKPOINT_EVERY` commits a writer makes the live objects of the newer packs
 * loose (fsynced) and moves CHECKPOINT forward (`checkpoint`), so readers never
 * index more than a few dozen packs. Objects the newer commits superseded stay
 * only in their packs, and go with the commit files: each checkpoint also drops, a
 * bounded batch at a time, the commit files older than the newest `keepCommits`
 * (`pruneCommits`), so the store's history does not grow without end.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { StoreError } from './errors.js';
import { isBLeaf, looksLikeBNode, type BNode } from './btree.js';
import { type CrashStep, crashPoint } from './fault.js';
import { DAMAGE_HINT, HASH_RE, ObjectWriter, type WriteIo, errnoCode, fsops, fsyncDir, sha256, tempPath, writeNewFile } from './objects.js';
import * as path from 'node:path';
import { isStoredValue, sweepUnreachable } from './sweep-unreachable.js';

/** Objects bigger than this are written as loose files, not packed (a commit file stays small to read). */
export const PACK_MAX_OBJECT = 64 * 1024;
/** A writer checkpoints once the newest commit is this many commits past CHECKPOINT. */
export const CHECKPOINT_EVERY = 32;
/**
 * …or at once when the commits after CHECKPOINT have packed this much (an import, a few
 * batches of comments): a reader parses the pack list of each of those commits that may
 * hold what it reads. A team sync or a comment packs far less, and a checkpoint costs
 * an fsync per live object, so they wait for the count above.
 */
export const CHECKPOINT_PACK_BYTES = 2 * 1024 * 1024;
/** The newest commits whose whole state stays readable (history for recover --to); older commit files are dropped. */
export const KEEP_COMMITS = 100;
/** At most this many commit files are removed per checkpoint (a store upgraded with a long history catches up over several). */
const PRUNE_BATCH = 256;
/** Earlier checkpoints remembered in CHECKPOINT (enough to reach back past KEEP_COMMITS). */
const HISTORY = 16;

export type PackList = Array<[hash: string, length: number]>;

const NEWLINE = 0x0a;

export function commitFilePath(dir: string, gen: number): string {
  return path.join(dir, 'commits', `${String(gen).padStart(12, '0')}.json`);
}

export function checkpointPath(dir: string): string {
  return path.join(dir, 'CHECKPOINT');
}

/** The bytes of a commit file: the record's JSON line, then each packed object's bytes. */
export function encodeCommitFile(recordJson: string, objects: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from(`${recordJson}\n`), ...objects]);
}

/** The record's text of a commit file (everything before the first newline; JSON.stringify never writes one). */
export function commitHeader(text: string): string {
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

/** A commit file's record text and its size in bytes: what a reader needs without the packed objects after it. */
export interface CommitHead {
  header: string;
  size: number;
}

/** First read of a commit file; most commit records fit (a big import's pack list grows the read). */
const HEAD_READ = 16 * 1024;

/**
 * The record line of a commit file and the file's size, reading only up to the first
 * newline (a commit that packs an import is megabytes, its record a few KB); undefined
 * when the file does not exist. Other errors are thrown as they are.
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

/** The pack list of a parsed commit record, or undefined when it is not one (refused by parseCommit). */
export function packProblem(pack: unknown): string | undefined {
  if (pack === undefined) return undefined;
  if (!Array.isArray(pack)) return 'pack is not a list';
  for (const entry of pack) {
    if (
      !Array.isArray(entry) ||
      entry.length !== 2 ||
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

/** Where an object lies inside a commit file. */
export interface PackLocation {
  gen: number;
  start: number;
  length: number;
}

/** At most this many bytes of its own packed objects are kept by a writer until its next checkpoint (PackIndex.keep). */
const OWN_MAX_BYTES = 16 * 1024 * 1024;

/** hash → location in a pack, for the commits a process has indexed. */
export class PackIndex {
  private readonly locations = new Map<string, PackLocation>();
  /** Commits up to this generation have been indexed (0: none yet). */
  indexedTo = 0;
  /** True once every commit file in the store has been indexed (the slow path for old generations). */
  complete = false;

  constructor(readonly dir: string) {}

  /** Generations whose pack is indexed. */
  private readonly indexed = new Set<number>();

  /**
   * Records a commit's pack; `start` is the byte offset of its first object in the
   * commit file. An object packed more than once keeps its newest location (the
   * last commit files to be dropped, and what `packedAfter` asks).
   */
  add(gen: number, pack: PackList, start: number, loose?: PackList): void {
    this.indexed.add(gen);
    if (loose !== undefined && loose.length > 0) this.looseBytes.set(gen, loose.reduce((sum, [, length]) => sum + length, 0));
    let offset = start;
    for (const [hash, length] of pack) {
      const known = this.locations.get(hash);
      if (known === undefined || known.gen < gen) this.locations.set(hash, { gen, start: offset, length });
      offset += length;
    }
  }

  /** Bytes of the objects that indexed commits wrote as loose files (their record's `loose`), by generation. */
  private readonly looseBytes = new Map<number, number>();

  /** Bytes the commits of gens `from..to` wrote as loose files (indexes the range first). */
  looseBytesIn(from: number, to: number): number {
    this.ensureIndexed(from, to);
    let sum = 0;
    for (let gen = Math.max(1, from); gen <= to; gen += 1) sum += this.looseBytes.get(gen) ?? 0;
    return sum;
  }

  /** Indexes the commits of gens `from..to` not indexed yet (every pack of the range, e.g. for the sweep). */
  ensureIndexed(from: number, to: number): void {
    for (let gen = Math.max(1, from); gen <= to; gen += 1) if (!this.indexed.has(gen)) this.indexCommit(gen);
  }

  get(hash: string): PackLocation | undefined {
    return this.locations.get(hash);
  }

  /** Hashes packed in commits newer than `gen`. */
  packedAfter(gen: number): Set<string> {
    const out = new Set<string>();
    for (const [hash, location] of this.locations) if (location.gen > gen) out.add(hash);
    return out;
  }

  /** Indexes the commit files of gens `from..to` (missing ones are skipped: dropped by gc or quarantined). */
  indexRange(from: number, to: number): void {
    for (let gen = Math.max(1, from); gen <= to; gen += 1) this.indexCommit(gen);
    this.indexedTo = Math.max(this.indexedTo, to);
  }

  /**
   * The bytes of `hash` from the packs of gens `from..to`, indexing them newest first
   * and stopping at the first that holds it: what a reader asks for is most often in
   * the newest packs (the root of the newest commit, the nodes it changed), and a pack
   * list of thousands of objects is worth parsing only when needed.
   */
  readNewestFirst(hash: string, from: number, to: number): Buffer | undefined {
    for (let gen = to; gen >= Math.max(1, from); gen -= 1) {
      if (!this.indexed.has(gen)) this.indexCommit(gen);
      const bytes = this.read(hash);
      if (bytes !== undefined) return bytes;
    }
    this.indexedTo = Math.max(this.indexedTo, to);
    return undefined;
  }

  /** Indexes every commit file present (fsck, recover, gc, and readers of generations before CHECKPOINT). */
  indexAll(): void {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(this.dir, 'commits'));
    } catch {
      names = [];
    }
    for (const name of names) {
      const match = /^(\d{12})\.json$/.exec(name);
      if (!match) continue;
      const gen = Number(match[1]);
      this.indexCommit(gen);
      this.indexedTo = Math.max(this.indexedTo, gen);
    }
    this.complete = true;
  }

  private indexCommit(gen: number): void {
    // The record line only: objects are read one by one at their offsets (`read`).
    let head: CommitHead | undefined;
    try {
      head = readCommitHead(commitFilePath(this.dir, gen));
    } catch {
      return;
    }
    // A commit file gone (pruned, or set aside by recover) never comes back: not looked for again.
    this.indexed.add(gen);
    if (head === undefined) return;
    const start = Buffer.byteLength(head.header) + 1;
    if (start > head.size) return; // no newline: a record without a pack
    let record: { pack?: unknown; loose?: unknown };
    try {
      record = JSON.parse(head.header) as typeof record;
    } catch {
      return; // damaged: fsck reports the commit itself
    }
    const { pack, loose } = record;
    if (pack === undefined || packProblem(pack) !== undefined) return;
    this.add(gen, pack as PackList, start, loose !== undefined && packProblem(loose) === undefined ? (loose as PackList) : undefined);
  }

  /**
   * Bytes of objects this process packed itself (`keep`), until the checkpoint that makes
   * them loose passes them (`forgetUpTo`): it then writes them without reading each back
   * from its commit file (an open, a read and a hash per object).
   */
  private readonly own = new Map<string, { gen: number; bytes: Buffer }>();
  private ownBytes = 0;

  /** Keeps the bytes of an object `gen` packed (this process hashed them), within OWN_MAX_BYTES. */
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

  /**
   * The verified bytes of a packed object, or undefined when it is not in an indexed
   * pack or its commit file is gone (gc dropped it after making the object loose).
   * Throws StoreError naming the commit file when the bytes do not match the hash.
   */
  read(hash: string): Buffer | undefined {
    const kept = this.own.get(hash);
    if (kept !== undefined) return kept.bytes;
    const location = this.locations.get(hash);
    if (location === undefined) return undefined;
    const file = commitFilePath(this.dir, location.gen);
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') {
        this.locations.delete(hash);
        return undefined;
      }
      throw new StoreError(`cannot read ${file} (${errnoCode(error) ?? String(error)})`, file, { cause: error });
    }
    const bytes = Buffer.alloc(location.length);
    let got = 0;
    try {
      while (got < location.length) {
        const n = fs.readSync(fd, bytes, got, location.length - got, location.start + got);
        if (n === 0) break;
        got += n;
      }
    } finally {
      fs.closeSync(fd);
    }
    if (got !== location.length || sha256(bytes) !== hash) {
      throw new StoreError(`store damaged: object ${hash.slice(0, 12)}… in the pack of ${file} does not match its hash`, file, {
        hint: DAMAGE_HINT,
      });
    }
    return bytes;
  }
}

// ─── CHECKPOINT ──────────────────────────────────────────────────────────────

export interface CheckpointState {
  /** Every object reachable at this generation is a loose file. */
  gen: number;
  /** Earlier checkpoint generations, newest first (each was true when written, and stays true: loose files are kept). */
  history: number[];
  /** Commit files below this generation have been dropped (pruneCommits). */
  prunedBelow: number;
}

const NO_CHECKPOINT: CheckpointState = { gen: 0, history: [], prunedBelow: 0 };

/**
 * CHECKPOINT's content: `C h1 h2 … prunedBelow=P` (or just `C`). No file, or a garbled
 * one, is gen 0: readers then index every pack, which is slow but right.
 */
export function readCheckpointState(dir: string): CheckpointState {
  let text: string;
  try {
    text = fs.readFileSync(checkpointPath(dir), 'utf8').trim();
  } catch {
    return NO_CHECKPOINT;
  }
  const match = /^(\d{1,15})((?: \d{1,15})*)(?: prunedBelow=(\d{1,15}))?$/.exec(text);
  if (!match) return NO_CHECKPOINT;
  const history = (match[2] ?? '').split(' ').filter(Boolean).map(Number);
  return { gen: Number(match[1]), history, prunedBelow: Number(match[3] ?? 0) };
}

/** The checkpoint generation (see readCheckpointState). */
export function readCheckpoint(dir: string): number {
  return readCheckpointState(dir).gen;
}

/** Replaces CHECKPOINT durably (temp file fsynced, renamed, directory fsynced). */
export async function writeCheckpoint(dir: string, state: CheckpointState, durable: boolean): Promise<void> {
  const temp = tempPath(dir, 'checkpoint');
  const text = [state.gen, ...state.history.slice(0, HISTORY)].join(' ') + (state.prunedBelow > 0 ? ` prunedBelow=${state.prunedBelow}` : '');
  try {
    await writeNewFile(temp, Buffer.from(`${text}\n`), { sync: durable });
    crashPoint('mid-checkpoint');
    fsops.rename(temp, checkpointPath(dir));
  } catch (error) {
    try {
      fs.unlinkSync(temp);
    } catch {
      // gone already
    }
    throw error;
  }
  if (durable) await fsyncDir(dir);
}

// ─── Making packed objects loose ─────────────────────────────────────────────

/** What the checkpoint walk needs: a parsed object by hash (packs included). */
export interface ObjectSource {
  object(hash: string): unknown;
}

/** Every 64-hex string in a JSON value (the objects it may name). */
export function collectHashes(value: unknown, out: string[]): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.length === 64 && HASH_RE.test(item)) out.push(item);
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (typeof item === 'object' && item !== null) {
      for (const key of Object.keys(item)) stack.push((item as Record<string, unknown>)[key]);
    }
  }
}

/**
 * The objects of `packed` that the state rooted at `root` reaches. The walk enters
 * only packed objects: a loose object's children are loose too (a checkpoint makes
 * a reachable object loose together with everything below it), so the work is the
 * number of live packed objects, not the size of the store.
 */
export function livePacked(source: ObjectSource, root: string, packed: Set<string>): Set<string> {
  const live = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const hash = stack.pop() as string;
    if (live.has(hash) || !packed.has(hash)) continue;
    live.add(hash);
    const value = source.object(hash);
    const refs: string[] = [];
    if (looksLikeBNode(value)) {
      const node = value as BNode;
      if (isBLeaf(node)) collectHashes(node.v, refs);
      else refs.push(...node.c);
    } else {
      // Root objects, transaction logs and putObject values: every hash they name.
      collectHashes(value, refs);
    }
    for (const ref of refs) if (ref !== hash) stack.push(ref);
  }
  return live;
}

/**
 * Writes the packed objects the newest state reaches as loose, fsynced files, then
 * moves CHECKPOINT to `gen` (run under the writer lock). A crash anywhere leaves
 * CHECKPOINT where it was: readers keep finding the objects in the packs.
 */
export async function checkpoint(
  source: ObjectSource,
  index: PackIndex,
  options: {
    dir: string;
    gen: number;
    root: string;
    knownPrefixes: Set<string>;
    durable: boolean;
    keepCommits?: number;
    /** How the loose files are written, and how many at once (a checkpoint beside commits: poolIo, a few). */
    io?: WriteIo;
    inFlight?: number;
  },
): Promise<number> {
  const previous = readCheckpointState(options.dir);
  const from = previous.gen;
  if (from >= options.gen) return 0;
  if (index.indexedTo < options.gen) index.indexRange(Math.max(from, index.indexedTo) + 1, options.gen);
  const live = livePacked(source, options.root, index.packedAfter(from));
  const objects = new Map<string, Buffer>();
  for (const hash of live) {
    const bytes = index.read(hash);
    if (bytes !== undefined) objects.set(hash, bytes);
  }
  const writer = new ObjectWriter(options.dir, options.knownPrefixes, options.durable, options.io);
  try {
    await writer.writeAll(objects, options.inFlight);
    await writer.syncDirs();
  } finally {
    writer.cleanup();
  }
  // Values (putObject) are judged by sweepUnreachable, not from the lists; everything else is
  // listed as known not to be one, so the sweep can remove it without reading it first.
  let valueBytes = 0;
  const listed: string[] = [];
  for (const [hash, bytes] of objects) {
    if (isStoredValue(source.object(hash))) valueBytes += bytes.length;
    else listed.push(`${hash}${NOT_A_VALUE}`);
  }
  await writeLooseList(options.dir, options.gen, listed);
  const history = from > 0 ? [from, ...previous.history] : previous.history;
  const prunedBelow = pruneCommits(options.dir, [options.gen, ...history], previous.prunedBelow, options.gen, options.keepCommits ?? KEEP_COMMITS);
  await writeCheckpoint(options.dir, { gen: options.gen, history, prunedBelow }, options.durable);
  if (prunedBelow > 1) await sweepLoose(source, index, options.dir, prunedBelow, options.gen);
  const added = index.looseBytesIn(from + 1, options.gen) + valueBytes;
  await sweepUnreachable(source, index, options.dir, added, prunedBelow, options.gen);
  return objects.size;
}

// ─── Sweeping superseded loose objects ───────────────────────────────────────

/**
 * At most this many listed objects are looked at per checkpoint. Objects still live are
 * carried to a newer list, so the lists cycle through the live loose objects: garbage is
 * found within (live objects / budget) checkpoints, and a checkpoint's work stays bounded.
 */
const SWEEP_BUDGET = 2000;

function listsDir(dir: string): string {
  return path.join(dir, 'checkpoints');
}

/**
 * A list line is a hash, followed by this when the object is known not to be a putObject
 * value (a table node, a root, a transaction log): the sweep then needs no read to tell.
 * Lines without it (lists written before it existed) are read to be judged.
 */
const NOT_A_VALUE = ' n';

/** The lines of a list file that name an object (see NOT_A_VALUE). */
function listLines(text: string): string[] {
  return text.split('\n').filter((line) => HASH_RE.test(line.slice(0, 64)) && (line.length === 64 || line.slice(64) === NOT_A_VALUE));
}

/**
 * Records which objects a checkpoint made loose (`checkpoints/<gen>`, one line each, see
 * NOT_A_VALUE; no fsync: a lost list only means those objects wait for `store gc`).
 */
async function writeLooseList(dir: string, gen: number, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  const lists = listsDir(dir);
  try {
    fsops.mkdir(lists);
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  const temp = tempPath(dir, 'list');
  try {
    await writeNewFile(temp, Buffer.from(`${hashes.join('\n')}\n`), { sync: false });
    fsops.rename(temp, path.join(lists, String(gen).padStart(12, '0')));
  } catch (error) {
    try {
      fs.unlinkSync(temp);
    } catch {
      // gone already
    }
    throw error;
  }
}

/** Removes every checkpoint list (recover: a restored state did not come from the checkpoints before it). */
export function forgetLooseLists(dir: string): void {
  fs.rmSync(listsDir(dir), { recursive: true, force: true });
}

/**
 * Incremental gc of loose files: once the cut `cut` (every commit below it dropped)
 * has passed a checkpoint, the objects that checkpoint made loose are removed unless
 * a kept generation may reach them: an object reachable at gen h ≥ cut was either
 * reachable at `cut` or packed again after it (a commit reaches only what it packs and
 * what its parent reached). Reachable at `cut` means: the cut's root or transaction
 * log, or a node of one of its tables (tableNodesAt: the inner nodes are read once per
 * sweep, the leaves are named by them). Anything in doubt (a value stored with
 * putObject, an unreadable node) is kept for `store gc`.
 * The work is a few lists per checkpoint, each about the size of one checkpoint.
 */
export async function sweepLoose(source: ObjectSource, index: PackIndex, dir: string, cut: number, newest: number): Promise<number> {
  let names: string[];
  try {
    names = fs.readdirSync(listsDir(dir)).filter((name) => /^\d{12}$/.test(name) && Number(name) < cut).sort();
  } catch {
    return 0;
  }
  if (names.length === 0) return 0;
  let rootHash: string;
  let root: { tables?: Record<string, string>; tx?: string };
  try {
    rootHash = (JSON.parse(commitHeader(fs.readFileSync(commitFilePath(dir, cut), 'utf8'))) as { root: string }).root;
    root = source.object(rootHash) as typeof root;
  } catch {
    return 0; // the cut's state is unreadable: keep everything
  }
  index.ensureIndexed(cut + 1, newest);
  // Once per sweep, not a walk from every table's root per listed object: most of what the
  // lists hold is still live (carried from cut to cut), and a store of thousands of rows
  // lists a few thousand of them.
  const nodes = tableNodesAt(source, root);
  let budget = SWEEP_BUDGET;
  const carried: string[] = [];
  const dead: string[] = [];
  const done: Array<{ file: string; later: string[] }> = [];
  for (const name of names) {
    if (budget <= 0) break;
    const file = path.join(listsDir(dir), name);
    let lines: string[];
    try {
      lines = listLines(fs.readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    const later = lines.slice(budget);
    lines = lines.slice(0, budget);
    budget -= lines.length;
    for (const line of lines) {
      const hash = line.slice(0, 64);
      // Packed again after the cut: the checkpoint that makes it loose again lists it again.
      if ((index.get(hash)?.gen ?? 0) > cut) continue;
      const state = hash === rootHash || hash === root.tx ? 'live' : reachableAt(source, nodes, hash, line.length > 64);
      if (state === 'blob') continue; // named from rows: left for store gc
      if (state !== 'dead') {
        carried.push(line); // looked at again when a later cut passes this one
        continue;
      }
      dead.push(objectFilePath(dir, hash));
    }
    done.push({ file, later });
  }
  const removed = await unlinkAll(dead, 'mid-sweep');
  for (const { file, later } of done) {
    if (later.length > 0) {
      rewriteList(dir, file, later); // the rest waits for the next checkpoint
      continue;
    }
    try {
      fs.unlinkSync(file);
    } catch {
      // the next sweep reads it again: every removal is idempotent
    }
  }
  if (carried.length > 0) {
    const target = path.join(listsDir(dir), String(cut).padStart(12, '0'));
    let existing: string[] = [];
    try {
      existing = listLines(fs.readFileSync(target, 'utf8'));
    } catch {
      // no list yet
    }
    rewriteList(dir, target, [...existing, ...carried]);
  }
  return removed;
}

/** Files unlinked at once: on a busy disk each unlink waits on the journal, so several in flight overlap their waits. */
const UNLINKS_IN_FLIGHT = 16;

/**
 * Removes `files` (already gone: not counted), a few at a time in parallel, off the
 * event loop; `step` is the crash point after the first removal. Returns how many it removed.
 */
export async function unlinkAll(files: string[], step: CrashStep): Promise<number> {
  let removed = 0;
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++] as string;
      try {
        await fsp.unlink(file);
        removed += 1;
        crashPoint(step);
      } catch {
        // gone already, or not removable now: a later sweep looks again
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(UNLINKS_IN_FLIGHT, files.length) }, lane));
  return removed;
}

/** Replaces a list file (written whole, then renamed: a crash leaves the old list). */
function rewriteList(dir: string, file: string, hashes: string[]): void {
  const temp = tempPath(dir, 'list');
  try {
    fs.writeFileSync(temp, `${hashes.join('\n')}\n`, { flag: 'wx', mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    try {
      fs.unlinkSync(temp);
    } catch {
      // gone already
    }
  }
}

function objectFilePath(dir: string, hash: string): string {
  return path.join(dir, 'objects', hash.slice(0, 2), `${hash}.json`);
}

/**
 * The table nodes of the state with root object `root`: every inner node (read) and
 * every leaf (named by its parent, never read), so the work is the inner nodes, about
 * one in forty of the nodes. Undefined when in doubt: a table that is not a B+tree (a
 * first-release hash trie) or a node that cannot be read.
 */
export function tableNodesAt(source: ObjectSource, root: { tables?: Record<string, string> }): Set<string> | undefined {
  const nodes = new Set<string>();
  const inner = (hash: string): BNode & { c: string[] } => {
    const node = source.object(hash);
    if (!looksLikeBNode(node) || isBLeaf(node as BNode)) throw new Error('not an inner B+tree node');
    return node as BNode & { c: string[] };
  };
  try {
    for (const top of Object.values(root.tables ?? {})) {
      // Every leaf of a B+tree is at the same depth: the leftmost path gives the height.
      let height = 0;
      for (let node = source.object(top); ; height += 1) {
        if (!looksLikeBNode(node)) return undefined;
        if (isBLeaf(node as BNode)) break;
        node = source.object((node as { c: string[] }).c[0] as string);
      }
      const stack: Array<[hash: string, height: number]> = [[top, height]];
      while (stack.length > 0) {
        const [hash, level] = stack.pop() as [string, number];
        if (nodes.has(hash)) continue;
        nodes.add(hash);
        if (level === 0) continue;
        for (const child of inner(hash).c) {
          if (level === 1) nodes.add(child);
          else stack.push([child, level - 1]);
        }
      }
    }
  } catch {
    return undefined;
  }
  return nodes;
}

/**
 * Whether the state whose table nodes are `nodes` (tableNodesAt) reaches `hash` (see
 * sweepLoose; the caller has ruled out the state's root and log): 'dead' only when sure,
 * 'blob' for a putObject value (named from rows), 'doubt' when unreadable or when the
 * state's nodes are unknown. `notAValue`: the list says it is a node, a root or a log,
 * and such an object outside `nodes` is dead without reading it.
 */
function reachableAt(source: ObjectSource, nodes: Set<string> | undefined, hash: string, notAValue: boolean): 'live' | 'dead' | 'blob' | 'doubt' {
  if (nodes?.has(hash)) return 'live';
  if (notAValue) return nodes === undefined ? 'doubt' : 'dead';
  try {
    const value = source.object(hash);
    if (typeof value === 'object' && value !== null && 'tables' in value) return 'dead'; // another generation's root
    if (typeof value === 'object' && value !== null && 'recent' in value) return 'dead'; // another root's transaction log
    if (!looksLikeBNode(value)) return 'blob';
    return nodes === undefined ? 'doubt' : 'dead';
  } catch {
    return 'doubt';
  }
}

/**
 * Drops commit files older than the newest `keep` commits, at most PRUNE_BATCH per
 * call, and returns the new prunedBelow. The cut is a checkpoint B at or below
 * newest − keep: every generation from B on stays whole, because an object a kept
 * commit reaches was either reachable at B (so it is loose) or packed after B (so its
 * commit file is kept). A crash midway leaves prunedBelow behind; the next call
 * finds those files already gone.
 */
export function pruneCommits(dir: string, checkpoints: number[], prunedBelow: number, newest: number, keep: number): number {
  const cut = Math.max(0, ...checkpoints.filter((gen) => gen <= newest - keep));
  if (cut <= Math.max(1, prunedBelow)) return prunedBelow;
  let gen = Math.max(1, prunedBelow);
  for (let removed = 0; gen < cut && removed < PRUNE_BATCH; gen += 1) {
    try {
      fsops.unlink(commitFilePath(dir, gen));
      removed += 1;
      if (removed === 1) crashPoint('mid-prune');
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') break; // left for the next checkpoint
    }
  }
  return Math.max(prunedBelow, gen);
}
