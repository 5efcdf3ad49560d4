/**
 * Checkpoints: every `CHECKPOINT_EVERY` commits (or once the commits since the last
 * one packed `CHECKPOINT_INLINE_BYTES` inline) a writer, under its lock, moves the
 * objects the newest state reaches out of the commit files into base packs, so the
 * commit files can be dropped and readers index only the few commits after it:
 *
 * 1. The live new objects: a walk from the newest root through the objects packed
 *    inline by the commits since CHECKPOINT, and through the pack files those commits
 *    named (an import's staged pack), stopping at the base. The inline ones it reaches
 *    are written into one new pack; the named packs become base packs as they are (an
 *    import is written once, never copied again by its checkpoint).
 * 2. Commit files older than the newest `keepCommits` are dropped, cutting at an
 *    earlier checkpoint, so every kept generation stays whole: what it reaches was
 *    reachable at the cut (in the base) or packed after it (its commit file is kept).
 * 3. Repacking, as `git repack --geometric=2`: the base packs, smallest first, are
 *    merged while the next is less than twice what is merged so far (or under
 *    SMALL_PACK), so a store of n bytes keeps about log2(n) packs and a byte is copied
 *    O(log n) times. A merge of every pack also drops what no kept generation reaches
 *    (a mark from the roots of the commit files left): superseded table nodes, replaced
 *    values. A store written before packs folds its loose objects into that first full
 *    merge and its objects/ directory goes.
 * 4. CHECKPOINT is replaced (fsynced): from then on readers find the moved objects in
 *    the base; the packs merged away are removed.
 *
 * A crash before step 4 leaves CHECKPOINT as it was: new packs nothing names (gc
 * removes them). After it, packs merged away may remain until the next repack or gc.
 * Objects the base packs hold and no kept generation reaches wait for the next full
 * merge; at most about as many bytes as the base holds of live ones.
 */
import * as fs from 'node:fs';
import { type WriteIo, errnoCode, guarded, syncIo } from './durable.js';
import { StoreError } from './errors.js';
import { crashPoint } from './fault.js';
import { commitRoot, listCommitGens, paths } from './commit-file.js';
import { DAMAGE_HINT, objectPath, readLooseBytes } from './objects.js';
import { PackFile, PackWriter, indexPath, newPackName, packPath, removePack } from './pack-file.js';
import { type InlineLocation, type PackSet, readCheckpointState, writeCheckpoint } from './pack-set.js';
import { type WalkSource, walk } from './reachable.js';
import { yieldIfDue } from '../util/slices.js';

/** A writer checkpoints once the newest commit is this many commits past CHECKPOINT. */
export const CHECKPOINT_EVERY = 32;
/**
 * …or at once when the commits after CHECKPOINT have packed this much inline: a reader
 * parses the pack list of each of those commits that may hold what it reads.
 */
export const CHECKPOINT_INLINE_BYTES = 2 * 1024 * 1024;
/** The newest commits whose whole state stays readable (history for recover --to); older commit files are dropped. */
export const KEEP_COMMITS = 100;
/** At most this many commit files are removed per checkpoint (a store with a long history catches up over several). */
const PRUNE_BATCH = 256;
/**
 * Base packs under this size are merged whatever their neighbours (each costs a lookup, and little to copy).
 * Not higher: at 1 MiB, a checkpoint's ~150 KB pack of a busy serve was merged again at each of the next
 * checkpoints until the merged pack passed 1 MiB (~1.1 MB copied per 32 commits, half of every byte serve
 * wrote; 256 KiB: ~0.7 MB, the geometric rule's own rate).
 */
export const SMALL_PACK = 256 * 1024;

export interface CheckpointSource extends WalkSource {
  readonly packs: PackSet;
}

export interface CheckpointOptions {
  dir: string;
  /** The newest generation (committed), and its root object. */
  gen: number;
  root: string;
  durable: boolean;
  keepCommits?: number;
  /** How the pack files are written (a checkpoint beside commits: the thread pool). */
  io?: WriteIo;
}

export interface CheckpointReport {
  /** Objects moved from commit files into a new pack. */
  packed: number;
  /** Packs merged into one (0: no merge). */
  merged: number;
  /** Objects a full merge left out (no kept generation reaches them). */
  dropped: number;
}

/** True when the store still has loose objects (written before packs). */
export function hasLooseObjects(dir: string): boolean {
  try {
    return fs.readdirSync(paths.objects(dir)).length > 0;
  } catch {
    return false;
  }
}

/**
 * The base packs to merge, as `git repack --geometric=2` picks them: smallest first,
 * while the next is under twice the sum so far or under SMALL_PACK. Fewer than two: none.
 */
export function packsToMerge<T extends { bytes: number }>(packs: readonly T[]): T[] {
  if (packs.length < 2) return [];
  const ascending = [...packs].sort((a, b) => a.bytes - b.bytes);
  let sum = (ascending[0] as T).bytes;
  let n = 1;
  while (n < ascending.length) {
    const next = (ascending[n] as T).bytes;
    if (next >= 2 * sum && next >= SMALL_PACK) break;
    sum += next;
    n += 1;
  }
  return n >= 2 ? ascending.slice(0, n) : [];
}

/**
 * Writes the objects `add` produces into a new pack and opens it (known to `packs`, when
 * given, so it is not opened twice); aborts (removes it) on failure.
 */
export async function writePack(
  dir: string,
  name: string,
  options: { durable: boolean; io?: WriteIo },
  packs: PackSet | undefined,
  add: (writer: PackWriter) => Promise<void>,
): Promise<PackFile> {
  const writer = new PackWriter(dir, name, options);
  try {
    await add(writer);
    await writer.finish();
  } catch (error) {
    writer.abort();
    throw error;
  }
  let pack: PackFile | undefined;
  try {
    pack = PackFile.open(dir, name);
  } catch (error) {
    writer.abort();
    throw error;
  }
  if (pack === undefined) throw new StoreError(`store damaged: ${writer.indexFile} vanished as it was written`, writer.indexFile, { hint: DAMAGE_HINT });
  packs?.register(pack);
  return pack;
}

/**
 * Copies into `writer` the objects of `sources` that `keep` accepts (every one without
 * it), in each pack's order, as they are stored (PackFile.readRaw: a damaged object
 * keeps its damage and its name, and is found by the next read or fsck).
 */
export async function copyPacks(writer: PackWriter, sources: readonly PackFile[], keep?: (hash: string) => boolean): Promise<void> {
  let slice = performance.now();
  for (const source of sources) {
    const entries = source.allEntries().sort((a, b) => a.offset - b.offset);
    for (const entry of entries) {
      if (writer.has(entry.hash) || (keep !== undefined && !keep(entry.hash))) continue;
      writer.add(entry.hash, source.readRaw(entry), entry.names);
      if (writer.unwritten > 4 * 1024 * 1024) await writer.drain(1024 * 1024);
      slice = await yieldIfDue(slice);
    }
  }
}

/**
 * Every object the generations `from..newest` reach, or undefined when in doubt (a kept
 * commit unreadable, a damaged object): the caller then keeps everything. A 64-hex
 * string in a value that names no object (no pack, commit or loose file holds it) is
 * not followed; `loose` says whether loose files must be looked at.
 */
export async function markKept(source: CheckpointSource, dir: string, from: number, newest: number, loose: boolean): Promise<Set<string> | undefined> {
  const packs = source.packs;
  const roots: string[] = [];
  for (let gen = Math.max(1, from); gen <= newest; gen += 1) {
    const root = commitRoot(dir, gen);
    if (root === undefined) return undefined;
    roots.push(root);
  }
  packs.ensureIndexed(from, newest);
  packs.basePacks();
  const classify = (hash: string): 'enter' | 'leaf' | 'stop' => {
    const names = packs.namesOf(hash);
    if (names !== undefined) return names ? 'enter' : 'leaf';
    return loose && fs.existsSync(objectPath(dir, hash)) ? 'enter' : 'stop';
  };
  return walk(source, roots, classify);
}

/**
 * Drops commit files older than the newest `keep` commits, at most PRUNE_BATCH per
 * call, and returns the new prunedBelow. The cut is a checkpoint at or below
 * newest − keep (see the module comment). A crash midway leaves prunedBelow behind;
 * the next call finds those files already gone. The unlinks go through `io`: on the
 * thread pool beside commits (`poolIo`), where ~32 of them held serve's event loop ~2 ms.
 */
export async function pruneCommits(dir: string, checkpoints: number[], prunedBelow: number, newest: number, keep: number, io: WriteIo = syncIo): Promise<number> {
  const cut = Math.max(0, ...checkpoints.filter((gen) => gen <= newest - keep));
  if (cut <= Math.max(1, prunedBelow)) return prunedBelow;
  let gen = Math.max(1, prunedBelow);
  for (let removed = 0; gen < cut && removed < PRUNE_BATCH; gen += 1) {
    try {
      const file = paths.commit(dir, gen);
      await guarded('unlink', file, () => io.unlink(file));
      removed += 1;
      if (removed === 1) crashPoint('mid-prune');
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') break; // left for the next checkpoint
    }
  }
  return Math.max(prunedBelow, gen);
}

/**
 * Step 1: the objects packed inline since `previous` that the state at `root` reaches
 * (the walk also goes through the packs those commits named, which are not copied).
 */
async function liveNewObjects(source: CheckpointSource, root: string, fresh: Map<string, InlineLocation>, named: readonly PackFile[]): Promise<Array<[string, InlineLocation]>> {
  const classify = (hash: string): 'enter' | 'leaf' | 'stop' => {
    const inline = fresh.get(hash);
    if (inline !== undefined) return inline.names ? 'enter' : 'leaf';
    for (const pack of named) {
      const entry = pack.find(hash);
      if (entry !== undefined) return entry.names ? 'enter' : 'leaf';
    }
    return 'stop';
  };
  const reached = await walk(source, [root], classify);
  if (reached === undefined) throw new StoreError('checkpoint stopped: the newest state cannot be read whole', source.packs.dir, { hint: DAMAGE_HINT });
  const live: Array<[string, InlineLocation]> = [];
  for (const hash of reached) {
    const location = fresh.get(hash);
    if (location !== undefined) live.push([hash, location]);
  }
  return live;
}

/** What a checkpoint is doing: the packs it wrote, and where the base stands. */
interface Repack {
  base: PackFile[];
  created: PackFile[];
  merged: PackFile[];
  converted: boolean;
}

/**
 * Step 3: merges the base packs `packsToMerge` picks into one (all of them, dropping what
 * the generations from `keptFrom` do not reach, when it picks them all or loose objects
 * are left to fold in). Changes `work.base` to what the new CHECKPOINT will name.
 */
async function repack(source: CheckpointSource, work: Repack, options: CheckpointOptions & { keptFrom: number }, report: CheckpointReport): Promise<void> {
  const { dir, gen } = options;
  const packs = source.packs;
  const loose = hasLooseObjects(dir);
  let merge = packsToMerge(work.base);
  const full = loose || (merge.length === work.base.length && merge.length >= 2);
  if (full) merge = [...work.base];
  const marked = full ? await markKept(source, dir, options.keptFrom, gen, loose) : undefined;
  if (merge.length < 2 && !(loose && marked !== undefined)) return;
  const io = options.io ? { durable: options.durable, io: options.io } : { durable: options.durable };
  const merged = await writePack(dir, newPackName(gen, 'm'), io, packs, async (writer) => {
    await copyPacks(writer, merge, marked === undefined ? undefined : (hash) => marked.has(hash));
    if (loose && marked !== undefined) await copyLoose(writer, packs, marked);
  });
  work.created.push(merged);
  work.merged = merge;
  work.converted = loose && marked !== undefined;
  report.merged = merge.length;
  if (marked !== undefined) report.dropped = merge.reduce((sum, pack) => sum + pack.count, 0) - merged.count;
  const gone = new Set(merge.map((pack) => pack.name));
  work.base = [merged, ...work.base.filter((pack) => !gone.has(pack.name))];
}

/** After a failure: removes what this checkpoint wrote, unless CHECKPOINT names it (it may have moved before a later step failed). */
function abandon(dir: string, created: readonly PackFile[]): void {
  let listed: Set<string>;
  try {
    listed = new Set(readCheckpointState(dir).packs);
  } catch {
    return; // in doubt: remove nothing (the next checkpoint's leftovers pass looks again)
  }
  for (const pack of created) {
    if (listed.has(pack.name)) continue;
    pack.close();
    removePack(dir, pack.name);
  }
}

/** Moves CHECKPOINT to `options.gen` (see the module comment). Run under the writer lock. */
export async function checkpoint(source: CheckpointSource, options: CheckpointOptions): Promise<CheckpointReport> {
  const { dir, gen, durable } = options;
  const packs = source.packs;
  const previous = packs.refresh();
  const report: CheckpointReport = { packed: 0, merged: 0, dropped: 0 };
  if (previous.gen >= gen) return report;
  packs.ensureIndexed(previous.gen + 1, gen);
  const named = packs.packsNamedAfter(previous.gen).sort((a, b) => b.name.localeCompare(a.name));
  const live = await liveNewObjects(source, options.root, packs.inlineAfter(previous.gen), named);
  const work: Repack = { base: [], created: [], merged: [], converted: false };
  try {
    if (live.length > 0) {
      const io = options.io ? { durable, io: options.io } : { durable };
      const fresh = await writePack(dir, newPackName(gen, 'k'), io, packs, async (writer) => {
        // Read in the commit files' order (each file read once: PackSet keeps a few whole),
        // written in the walk's (reachable.ts: a trie's nodes together). The bytes held
        // meanwhile are what the commits since CHECKPOINT packed inline: a few MB at most.
        const bytes: Buffer[] = new Array<Buffer>(live.length);
        const byFile = live.map((_, i) => i).sort((a, b) => {
          const x = (live[a] as [string, InlineLocation])[1];
          const y = (live[b] as [string, InlineLocation])[1];
          return x.gen - y.gen || x.start - y.start;
        });
        let slice = performance.now();
        for (const i of byFile) {
          const [hash, location] = live[i] as [string, InlineLocation];
          const read = packs.read(hash, gen);
          if (read === undefined) throw new StoreError(`store damaged: object ${hash} of generation ${gen} is missing`, paths.commit(dir, location.gen), { hint: DAMAGE_HINT });
          bytes[i] = read;
          slice = await yieldIfDue(slice);
        }
        for (let i = 0; i < live.length; i += 1) {
          const [hash, location] = live[i] as [string, InlineLocation];
          writer.add(hash, bytes[i] as Buffer, location.names);
        }
      });
      work.created.push(fresh);
      report.packed = live.length;
    }
    crashPoint('mid-checkpoint');
    work.base = [...work.created, ...named, ...packs.basePacks()];
    // 2. Commit files, before the merge: what a full merge keeps is what the generations left reach.
    const history = previous.gen > 0 ? [previous.gen, ...previous.history] : previous.history;
    const prunedBelow = await pruneCommits(dir, [gen, ...history], previous.prunedBelow, gen, options.keepCommits ?? KEEP_COMMITS, options.io);
    await repack(source, work, { ...options, keptFrom: Math.max(prunedBelow, listCommitGens(dir)[0] ?? 1) }, report);
    // 4. CHECKPOINT; then what it no longer names.
    const state = { gen, packs: work.base.map((pack) => pack.name), history, prunedBelow, legacy: false };
    await writeCheckpoint(dir, state, durable);
    packs.useCheckpoint(state);
    const listed = new Set(state.packs);
    let removed = 0;
    for (const pack of new Set([...work.merged, ...named, ...work.created])) {
      if (listed.has(pack.name)) continue;
      pack.close();
      if ((await removePackFiles(dir, pack.name, options.io ?? syncIo)) && (removed += 1) === 1) crashPoint('mid-repack');
    }
    if (work.converted) removeLegacy(dir);
    removeLeftovers(dir, listed, gen);
    return report;
  } catch (error) {
    abandon(dir, work.created);
    throw error;
  }
}

/** Removes a pack and its index through `io` (off the event loop beside commits); true when either was there. */
async function removePackFiles(dir: string, name: string, io: WriteIo): Promise<boolean> {
  let removed = false;
  for (const file of [indexPath(dir, name), packPath(dir, name)]) {
    try {
      await io.unlink(file);
      removed = true;
    } catch {
      // gone already
    }
  }
  return removed;
}

/** Adds the loose objects of `marked` (a store written before packs) to `writer`. */
async function copyLoose(writer: PackWriter, packs: PackSet, marked: Set<string>): Promise<void> {
  let slice = performance.now();
  for (const hash of marked) {
    if (writer.has(hash)) continue;
    const bytes = readLooseBytes(packs.dir, hash);
    if (bytes === undefined) continue; // inline in a kept commit, or not an object at all
    writer.add(hash, bytes, mayNameBytes(bytes));
    slice = await yieldIfDue(slice);
  }
}

/** Whether an object's JSON text may name another object (holds a 64-hex run). */
function mayNameBytes(bytes: Buffer): boolean {
  return /[0-9a-f]{64}/.test(bytes.toString('latin1'));
}

/**
 * Removes packs a crash left behind (a checkpoint's or a merge's, a commit's own pack
 * whose commit never linked, those a crash kept from being removed after a merge).
 * Run under the lock, so no other writer is making such packs; left alone: packs
 * CHECKPOINT lists, staged packs (another process may be about to commit one: gc
 * removes them once old), and a commit's own pack for a generation after `gen` (a
 * commit beside this checkpoint may be writing it).
 */
function removeLeftovers(dir: string, listed: ReadonlySet<string>, gen: number): void {
  let names: string[];
  try {
    names = fs.readdirSync(paths.packs(dir));
  } catch {
    return;
  }
  for (const file of names) {
    const match = /^(pack-(\d{12})-([ckmsgr])-[0-9a-f]{8})\.(pack|idx)$/.exec(file);
    if (match === null) continue;
    const [, name, packGen, kind] = match as unknown as [string, string, string, string];
    if (listed.has(name) || kind === 's' || (kind === 'c' && Number(packGen) > gen)) continue;
    try {
      fs.unlinkSync(`${paths.packs(dir)}/${file}`);
    } catch {
      // gone already
    }
  }
}

/** Removes what a store written before packs kept beside them: loose objects, checkpoint lists. */
function removeLegacy(dir: string): void {
  for (const legacy of [paths.objects(dir), `${dir}/checkpoints`]) {
    try {
      fs.rmSync(legacy, { recursive: true, force: true });
    } catch {
      // left for gc
    }
  }
}
