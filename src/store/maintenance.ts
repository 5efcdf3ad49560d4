/**
 * Store maintenance behind `docsctl store fsck|recover|gc|unlock`.
 *
 * - fsck: verifies the newest commits (checksums, parent links, root objects) and
 *   every object reachable from the newest state; lists each problem with its file.
 * - recover: under the lock, moves damaged files to quarantine/ and commits a new
 *   generation restoring the newest fully verified state (history is kept).
 * - gc: under the lock, keeps the newest K commits, and removes objects no kept
 *   commit reaches (older than an hour), old temp files and stale lock leftovers.
 *   What the kept commits reach inside packs is made loose first (pack.ts), so the
 *   dropped commit files take only unreachable objects with them.
 * - unlock: removes the LOCK (refuses while its holder is alive unless forced).
 *
 * Reachability: trie nodes, root objects and transaction logs are structural.
 * Objects stored with putObject are referenced from table values (and from other
 * objects) by their hash, so any 64-hex string that names an existing object
 * counts as a reference (conservative: gc never removes something a value names).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StoreBusyError, StoreError, StoreNotFoundError } from '../api/errors.js';
import { crashPoint } from './fault.js';
import { type BNode, bnodeShapeProblem, isBLeaf, looksLikeBNode } from './btree.js';
import { isLeaf, nodeShapeProblem } from './hamt.js';
import {
  type CommitRecord,
  FORMAT_NAME,
  FORMAT_VERSION,
  FormatTooNewError,
  checkFormat,
  encodeRoot,
  listCommitGens,
  makeCommit,
  parseCommit,
  parseRoot,
  parseTxLog,
  paths,
  writeHead,
} from './json-file-store.js';
import { type LockOwner, acquireLock, breakLock, describeHolder, holderAlive, inspectLock } from './lock.js';
import {
  DAMAGE_HINT,
  DIR_MODE,
  ObjectWriter,
  errnoCode,
  fsops,
  fsyncDir,
  objectPath,
  parseObject,
  readLooseObject,
  removeQuietly,
  sha256,
  tempPath,
  writeNewFile,
} from './objects.js';
import { PackIndex, collectHashes, forgetLooseLists, readCheckpointState, writeCheckpoint } from './pack.js';

export interface StoreProblem {
  /** The damaged or missing file. */
  path: string;
  problem: string;
}

export interface FsckReport {
  /** Newest generation in commits/ (0 when none). */
  gen: number;
  problems: StoreProblem[];
  checkedCommits: number;
  checkedObjects: number;
}

export interface RecoverReport {
  /** Newest generation before recovery. */
  fromGen: number;
  /** Generation whose state was restored (fromGen when nothing needed doing). */
  toGen: number;
  /** The generation committed by recover (fromGen when nothing was committed). */
  gen: number;
  /** Files moved into quarantine/ (their new paths). */
  quarantined: string[];
  /** Problems found on the way. */
  problems: StoreProblem[];
}

export interface GcReport {
  removedCommits: number;
  removedObjects: number;
  removedTemps: number;
}

// ─── Verification ────────────────────────────────────────────────────────────

interface Damage extends StoreProblem {
  /** The file exists but its content is wrong (can be quarantined). */
  damaged: boolean;
}

/**
 * Reads objects without the cache, verifying each once; remembers every reachable
 * hash and every problem. Objects are loose files or in the pack of any commit file.
 */
class Verifier {
  /** Hash → whether the subtree below it is intact. */
  private readonly intact = new Map<string, boolean>();
  readonly damage = new Map<string, Damage>();
  /** Reached objects that are only in packs (no loose file). */
  readonly packed = new Set<string>();
  readonly packs: PackIndex;
  constructor(readonly dir: string) {
    this.packs = new PackIndex(dir);
    this.packs.indexAll();
  }

  /** True when `hash` names an object: a loose file or a packed one. */
  exists(hash: string): boolean {
    return this.packs.get(hash) !== undefined || fs.existsSync(objectPath(this.dir, hash));
  }

  /** An intact object's value, from its loose file or its pack. Throws StoreError when damaged; undefined when missing. */
  read(hash: string): unknown {
    const loose = readLooseObject(this.dir, hash);
    if (loose !== undefined) return loose.value;
    const bytes = this.packs.read(hash);
    if (bytes === undefined) return undefined;
    this.packed.add(hash);
    return parseObject(bytes, objectPath(this.dir, hash));
  }

  get reached(): Iterable<string> {
    return this.intact.keys();
  }
  get count(): number {
    return this.intact.size;
  }

  private load(hash: string): unknown {
    const file = objectPath(this.dir, hash);
    try {
      const value = this.read(hash);
      if (value === undefined) this.damage.set(hash, { path: file, problem: 'missing (referenced by the store)', damaged: false });
      return value;
    } catch (error) {
      // A damaged loose file can be quarantined; a damaged pack stays with its commit
      // (quarantining the commit file would take the pack's intact objects with it).
      const where = error instanceof StoreError ? error.path : file;
      const problem = error instanceof StoreError ? error.message.replace(`${where} `, '').replace(/^store damaged: /, '') : String(error);
      this.damage.set(hash, { path: where, problem, damaged: where === file });
      return undefined;
    }
  }

  private shape(hash: string, problem: string): false {
    this.damage.set(hash, { path: objectPath(this.dir, hash), problem, damaged: true });
    return false;
  }

  /**
   * Verifies the object `hash` of the given kind and everything below it. Kinds:
   * root, node (trie node), txlog, object (must exist), candidate (a string that may name an object).
   */
  check(hash: string, kind: 'root' | 'node' | 'txlog' | 'object' | 'candidate'): boolean {
    const known = this.intact.get(hash);
    if (known !== undefined) return known;
    if (kind === 'candidate' && !this.exists(hash)) return true; // not a reference
    this.intact.set(hash, true); // provisional (content addressing rules out cycles, but be safe)
    const ok = this.checkUncached(hash, kind);
    this.intact.set(hash, ok);
    return ok;
  }

  private checkUncached(hash: string, kind: 'root' | 'node' | 'txlog' | 'object' | 'candidate'): boolean {
    const value = this.load(hash);
    if (value === undefined) return false;
    const file = objectPath(this.dir, hash);
    let ok = true;
    const refs: string[] = [];
    if (kind === 'root') {
      let root;
      try {
        root = parseRoot(value, file);
      } catch {
        return this.shape(hash, 'not a root object');
      }
      for (const child of root.tables.values()) ok = this.check(child, 'node') && ok;
      if (root.tx !== undefined) ok = this.check(root.tx, 'txlog') && ok;
      return ok;
    }
    if (kind === 'node' && looksLikeBNode(value)) {
      const problem = bnodeShapeProblem(value);
      if (problem !== undefined) return this.shape(hash, `not a table node (${problem})`);
      const node = value as BNode;
      if (isBLeaf(node)) collectHashes(node.v, refs);
      else for (const child of node.c) ok = this.check(child, 'node') && ok;
    } else if (kind === 'node') {
      const problem = nodeShapeProblem(value);
      if (problem !== undefined) return this.shape(hash, `not a table node (${problem})`);
      const node = value as Parameters<typeof isLeaf>[0];
      if (isLeaf(node)) collectHashes(node.l, refs);
      else for (const child of Object.values(node.n)) ok = this.check(child, 'node') && ok;
    } else if (kind === 'txlog') {
      let log;
      try {
        log = parseTxLog(value, file);
      } catch {
        return this.shape(hash, 'not a transaction log');
      }
      for (const [, , result] of log) if (result !== null) ok = this.check(result, 'object') && ok;
    } else {
      collectHashes(value, refs);
    }
    for (const ref of refs) if (ref !== hash) ok = this.check(ref, 'candidate') && ok;
    return ok;
  }
}

/**
 * Writes the packed objects the verifier reached as loose, fsynced files, so that
 * they outlive the commit files that carry them (gc) and a restored old state is
 * whole without its packs (recover).
 */
async function makeLoose(dir: string, verifier: Verifier): Promise<void> {
  const objects = new Map<string, Buffer>();
  for (const hash of verifier.packed) {
    const bytes = verifier.packs.read(hash);
    if (bytes !== undefined) objects.set(hash, bytes);
  }
  if (objects.size === 0) return;
  const writer = new ObjectWriter(dir, new Set());
  try {
    await writer.writeAll(objects);
    await writer.syncDirs();
  } finally {
    writer.cleanup();
  }
}

function readCommit(dir: string, gen: number): { commit?: CommitRecord; problem?: StoreProblem } {
  const file = paths.commit(dir, gen);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { problem: { path: file, problem: errnoCode(error) === 'ENOENT' ? 'missing' : `unreadable (${errnoCode(error)})` } };
  }
  try {
    return { commit: parseCommit(text, file, gen) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { problem: { path: file, problem: message.replace(/^store damaged: /, '').replace(`commit ${file} `, '').replace(`${file} `, '') } };
  }
}

/** FORMAT problem, or undefined. Throws for a missing store or a newer format. */
function formatProblem(dir: string): StoreProblem | undefined {
  try {
    checkFormat(dir);
    return undefined;
  } catch (error) {
    if (error instanceof FormatTooNewError || error instanceof StoreNotFoundError) throw error;
    if (error instanceof StoreError) return { path: error.path, problem: error.message.replace(/^store damaged: /, '') };
    throw error;
  }
}

function requireDir(dir: string): void {
  if (!fs.existsSync(paths.commits(dir)) && !fs.existsSync(paths.format(dir))) throw new StoreNotFoundError(dir);
}

// ─── fsck ────────────────────────────────────────────────────────────────────

/** Verifies the newest `commits` commit records and every object reachable from the newest state. */
export async function fsck(dir: string, options: { commits?: number } = {}): Promise<FsckReport> {
  requireDir(dir);
  const keep = Math.max(1, options.commits ?? 100);
  const problems: StoreProblem[] = [];
  const format = formatProblem(dir);
  if (format) problems.push(format);
  const gens = listCommitGens(dir);
  const newest = gens.at(-1) ?? 0;
  const oldest = gens[0] ?? 0;
  const present = new Set(gens);
  for (let gen = Math.max(oldest, newest - keep + 1); gen <= newest && gen > 0; gen += 1) {
    if (!present.has(gen)) problems.push({ path: paths.commit(dir, gen), problem: 'missing (gap in the commit history)' });
  }
  const verifier = new Verifier(dir);
  const recent = gens.slice(-keep);
  const commits = new Map<number, CommitRecord>();
  for (const gen of recent) {
    const { commit, problem } = readCommit(dir, gen);
    if (problem) problems.push(problem);
    if (commit) commits.set(gen, commit);
  }
  for (const gen of recent) {
    const commit = commits.get(gen);
    const previous = commits.get(gen - 1);
    if (commit && previous && commit.parent !== previous.sum) {
      problems.push({ path: paths.commit(dir, gen), problem: `parent does not match commit ${gen - 1}` });
    }
  }
  // The newest readable state in full (and the newest commit's, when it is not the same).
  const newestGood = [...commits.keys()].at(-1);
  if (newestGood !== undefined) verifier.check((commits.get(newestGood) as CommitRecord).root, 'root');
  // Older commits: their root objects must at least exist and verify, except in
  // generations a recover commit abandoned (its damage is in quarantine/).
  const abandoned = new Set<number>();
  for (const [gen, commit] of commits) {
    if (commit.recoveredFrom !== undefined) for (let g = commit.recoveredFrom + 1; g < gen; g += 1) abandoned.add(g);
  }
  for (const [gen, commit] of commits) {
    if (abandoned.has(gen)) continue;
    const file = objectPath(dir, commit.root);
    try {
      if (verifier.read(commit.root) === undefined) {
        verifier.damage.set(commit.root, { path: file, problem: 'missing (root of a recent commit)', damaged: false });
      }
    } catch (error) {
      const where = error instanceof StoreError ? error.path : file;
      const problem = error instanceof Error ? error.message.replace(/^store damaged: /, '').replace(`${where} `, '') : String(error);
      verifier.damage.set(commit.root, { path: where, problem, damaged: where === file });
    }
  }
  for (const damage of verifier.damage.values()) problems.push({ path: damage.path, problem: damage.problem });
  problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { gen: newest, problems, checkedCommits: recent.length, checkedObjects: verifier.count };
}

// ─── recover ─────────────────────────────────────────────────────────────────

async function quarantine(dir: string, file: string, stamp: string): Promise<string> {
  const qdir = paths.quarantine(dir);
  fs.mkdirSync(qdir, { recursive: true, mode: DIR_MODE });
  const target = path.join(qdir, `${stamp}-${path.relative(dir, file).split(path.sep).join('_')}`);
  fsops.rename(file, target);
  return target;
}

/**
 * Returns the store to its newest fully verified state (or `toGen`): damaged files
 * go to quarantine/, and a new commit restores that state. Refuses when no
 * generation is intact, unless `toGen: 0` asks for an empty store.
 */
export async function recover(dir: string, options: { toGen?: number } = {}): Promise<RecoverReport> {
  requireDir(dir);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const quarantined: string[] = [];
  const problems: StoreProblem[] = [];
  const format = formatProblem(dir);
  if (format) {
    problems.push(format);
    // FORMAT's content is fixed: set the damaged one aside and write it again.
    if (fs.existsSync(paths.format(dir))) quarantined.push(await quarantine(dir, paths.format(dir), stamp));
    const temp = tempPath(dir, 'format');
    await writeNewFile(temp, Buffer.from(`${JSON.stringify({ format: FORMAT_NAME, version: FORMAT_VERSION })}\n`), { sync: true });
    fsops.link(temp, paths.format(dir));
    removeQuietly([temp]);
    await fsyncDir(dir);
  }
  const lock = await acquireLock(dir, { command: 'docsctl store recover' });
  try {
    const gens = listCommitGens(dir);
    const fromGen = gens.at(-1) ?? 0;
    const verifier = new Verifier(dir);
    const commits = new Map<number, CommitRecord>();
    const badCommits: number[] = [];
    let toGen: number | undefined;
    for (const gen of [...gens].reverse()) {
      const { commit, problem } = readCommit(dir, gen);
      if (problem) {
        problems.push(problem);
        badCommits.push(gen);
        continue;
      }
      const record = commit as CommitRecord;
      commits.set(gen, record);
      if (options.toGen !== undefined && gen !== options.toGen) {
        if (gen > options.toGen) continue;
        break;
      }
      if (verifier.check(record.root, 'root')) {
        toGen = gen;
        break;
      }
      if (options.toGen !== undefined) break; // the requested generation is damaged
    }
    if (options.toGen === 0) toGen = 0;
    for (const damage of verifier.damage.values()) problems.push({ path: damage.path, problem: damage.problem });
    if (toGen === undefined) {
      const what = options.toGen !== undefined ? `generation ${options.toGen} is not intact` : 'no intact generation found';
      throw new StoreError(`cannot recover ${dir}: ${what} (checked ${gens.length} commits)`, paths.commits(dir), {
        hint: 'pass --to 0 to start over from an empty store (damaged files would stay in place for inspection)',
      });
    }
    if (toGen === fromGen && badCommits.length === 0 && verifier.damage.size === 0) {
      return { fromGen, toGen, gen: fromGen, quarantined, problems };
    }
    // Quarantine damaged commit records newer than the restored state, and damaged objects.
    for (const gen of badCommits) if (gen > toGen) quarantined.push(await quarantine(dir, paths.commit(dir, gen), stamp));
    for (const damage of verifier.damage.values()) {
      if (damage.damaged && fs.existsSync(damage.path)) quarantined.push(await quarantine(dir, damage.path, stamp));
    }
    const remaining = listCommitGens(dir);
    const top = remaining.at(-1) ?? 0;
    const parent = top > 0 ? (commits.get(top) ?? readCommit(dir, top).commit) : undefined;
    let root: string;
    if (toGen === 0) {
      const bytes = Buffer.from(JSON.stringify(encodeRoot({ tables: new Map() })));
      root = sha256(bytes);
      const writer = new ObjectWriter(dir, new Set());
      try {
        await writer.writeAll(new Map([[root, bytes]]));
        await writer.syncDirs();
      } finally {
        writer.cleanup();
      }
    } else {
      root = (commits.get(toGen) as CommitRecord).root;
      await makeLoose(dir, verifier);
    }
    const gen = top + 1;
    const record = makeCommit({
      gen,
      parent: parent?.sum ?? null,
      root,
      at: new Date().toISOString(),
      command: 'docsctl store recover',
      recoveredFrom: toGen,
    });
    const temp = tempPath(dir, 'commit');
    try {
      await writeNewFile(temp, Buffer.from(JSON.stringify(record)), { sync: true });
      fsops.link(temp, paths.commit(dir, gen));
    } finally {
      removeQuietly([temp]);
    }
    await fsyncDir(paths.commits(dir));
    await fsyncDir(paths.quarantine(dir)).catch(() => undefined);
    await writeHead(dir, gen);
    // The restored state is all loose now. It did not come from the generations before it,
    // so no older checkpoint may serve as a cut (pack.ts): forget them and their lists.
    forgetLooseLists(dir);
    await writeCheckpoint(dir, { gen, history: [], prunedBelow: readCheckpointState(dir).prunedBelow }, true);
    return { fromGen, toGen, gen, quarantined, problems };
  } finally {
    await lock.release();
  }
}

// ─── gc ──────────────────────────────────────────────────────────────────────

/**
 * Keeps the newest `keepCommits` commits; removes objects none of them reaches,
 * and temp / stale-lock files, when older than `minAgeMs` (default one hour).
 */
export async function gc(dir: string, options: { keepCommits?: number; minAgeMs?: number } = {}): Promise<GcReport> {
  checkFormat(dir);
  const keep = Math.max(1, options.keepCommits ?? 100);
  const minAgeMs = options.minAgeMs ?? 3_600_000;
  const cutoff = Date.now() - minAgeMs;
  const lock = await acquireLock(dir, { command: 'docsctl store gc' });
  try {
    const gens = listCommitGens(dir);
    const kept = gens.slice(-keep);
    const dropped = gens.slice(0, Math.max(0, gens.length - keep));
    const verifier = new Verifier(dir);
    for (const gen of kept) {
      const { commit, problem } = readCommit(dir, gen);
      if (problem || !commit) {
        throw new StoreError(`gc stopped: ${problem?.path ?? paths.commit(dir, gen)} is ${problem?.problem ?? 'damaged'}`, problem?.path ?? paths.commit(dir, gen), { hint: DAMAGE_HINT });
      }
      verifier.check(commit.root, 'root');
    }
    const first = verifier.damage.values().next();
    if (!first.done) {
      throw new StoreError(`gc stopped: ${first.value.path} is ${first.value.problem}`, first.value.path, { hint: DAMAGE_HINT });
    }
    const marked = new Set(verifier.reached);
    await makeLoose(dir, verifier);
    const newest = gens.at(-1);
    if (newest !== undefined) await writeCheckpoint(dir, { gen: newest, history: [], prunedBelow: kept[0] ?? 0 }, true);
    let removedCommits = 0;
    for (const gen of dropped) {
      try {
        fsops.unlink(paths.commit(dir, gen));
      } catch {
        // leave it
      }
      removedCommits += 1;
      if (removedCommits === 1) crashPoint('mid-gc');
    }
    let removedObjects = 0;
    const objectsDir = paths.objects(dir);
    let prefixes: string[] = [];
    try {
      prefixes = fs.readdirSync(objectsDir);
    } catch {
      prefixes = [];
    }
    for (const prefix of prefixes) {
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
      const sub = path.join(objectsDir, prefix);
      let names: string[];
      try {
        names = fs.readdirSync(sub);
      } catch {
        continue;
      }
      for (const name of names) {
        const match = /^([0-9a-f]{64})\.json$/.exec(name);
        if (!match || marked.has(match[1] as string)) continue;
        const file = path.join(sub, name);
        try {
          if (fs.statSync(file).mtimeMs > cutoff) continue;
          fs.unlinkSync(file);
          removedObjects += 1;
          if (removedObjects === 1 && removedCommits === 0) crashPoint('mid-gc');
        } catch {
          // vanished or unremovable: leave it
        }
      }
    }
    const removedTemps = removeOld(paths.tmp(dir), () => true, cutoff) + removeOld(dir, (name) => name.startsWith('LOCK.stale-'), cutoff);
    return { removedCommits, removedObjects, removedTemps };
  } finally {
    await lock.release();
  }
}

function removeOld(dir: string, match: (name: string) => boolean, cutoff: number): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!match(name)) continue;
    const file = path.join(dir, name);
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile() || stat.mtimeMs > cutoff) continue;
      fs.unlinkSync(file);
      removed += 1;
    } catch {
      // leave it
    }
  }
  return removed;
}

// ─── unlock ──────────────────────────────────────────────────────────────────

/**
 * Removes the writer lock. Refuses (StoreBusyError) while the holder is a live
 * process on this host with a fresh heartbeat, unless `force`.
 */
export async function unlock(dir: string, options: { force?: boolean } = {}): Promise<{ removed: boolean; owner?: LockOwner }> {
  checkFormat(dir);
  const state = inspectLock(dir);
  if (!state) return { removed: false };
  if (holderAlive(state) && !options.force) {
    throw new StoreBusyError(`store is locked by ${describeHolder(state)}, which is still running`, {
      hint: 'wait for it to finish, or stop it; --force removes the lock anyway',
    });
  }
  const removed = await breakLock(dir, state);
  return { removed, ...(state.owner ? { owner: state.owner } : {}) };
}
