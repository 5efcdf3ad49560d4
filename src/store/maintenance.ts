/**
 * Store maintenance behind `docsctl store fsck|recover|gc|unlock`.
 *
 * - fsck: verifies the newest commits (checksums, parent links, root objects) and
 *   every object reachable from the newest state; lists each problem with its file.
 * - recover: under the lock, moves damaged files to quarantine/ and commits a new
 *   generation restoring the newest fully verified state (history is kept);
 *   `dryRun` reports what it would do and changes nothing.
 * - gc (gc.ts) verifies what it keeps with the Verifier here.
 * - unlock: removes the LOCK (refuses while its holder is alive unless forced).
 *
 * Reachability: trie nodes, root objects and transaction logs are structural.
 * Objects stored with putObject are referenced from table values (and from other
 * objects) by their hash, so any 64-hex string that names an existing object
 * counts as a reference (conservative: gc never removes something a value names).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StoreBusyError, StoreError, StoreNotFoundError } from './errors.js';
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
  /** Files moved into quarantine/ (their new paths); with `dryRun`, the files it would move, where they are. */
  quarantined: string[];
  /** Problems found on the way. */
  problems: StoreProblem[];
  /** Set when nothing was changed: the report says what recover would do. */
  dryRun?: true;
  /** With `dryRun`: the bytes of the files it would move into quarantine/. */
  quarantinedBytes?: number;
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
export class Verifier {
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
export async function makeLoose(dir: string, verifier: Verifier): Promise<void> {
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

export function readCommit(dir: string, gen: number): { commit?: CommitRecord; problem?: StoreProblem } {
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
 * generation is intact, unless `toGen: 0` asks for an empty store. `dryRun` finds
 * the same and changes nothing (no lock, no file moved or written): the report
 * lists the files it would set aside and the generation it would commit.
 */
// eslint-disable-next-line max-lines-per-function -- verification, the choice of generation and the report share one scan; dryRun stops before the writes
export async function recover(dir: string, options: { toGen?: number; dryRun?: boolean } = {}): Promise<RecoverReport> {
  requireDir(dir);
  const dryRun = options.dryRun === true;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const quarantined: string[] = [];
  let quarantinedBytes = 0;
  const setAside = async (file: string): Promise<void> => {
    if (!dryRun) {
      quarantined.push(await quarantine(dir, file, stamp));
      return;
    }
    quarantined.push(file);
    quarantinedBytes += fs.statSync(file).size;
  };
  const planned = (report: Omit<RecoverReport, 'quarantined' | 'problems'>): RecoverReport =>
    dryRun ? { ...report, quarantined, problems, dryRun: true, quarantinedBytes } : { ...report, quarantined, problems };
  const problems: StoreProblem[] = [];
  const format = formatProblem(dir);
  if (format) {
    problems.push(format);
    // FORMAT's content is fixed: set the damaged one aside and write it again.
    if (fs.existsSync(paths.format(dir))) await setAside(paths.format(dir));
  }
  if (format && !dryRun) {
    const temp = tempPath(dir, 'format');
    await writeNewFile(temp, Buffer.from(`${JSON.stringify({ format: FORMAT_NAME, version: FORMAT_VERSION })}\n`), { sync: true });
    fsops.link(temp, paths.format(dir));
    removeQuietly([temp]);
    await fsyncDir(dir);
  }
  const lock = dryRun ? undefined : await acquireLock(dir, { command: 'docsctl store recover' });
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
      return planned({ fromGen, toGen, gen: fromGen });
    }
    // Quarantine damaged commit records newer than the restored state, and damaged objects.
    for (const gen of badCommits) if (gen > toGen) await setAside(paths.commit(dir, gen));
    for (const damage of verifier.damage.values()) {
      if (damage.damaged && fs.existsSync(damage.path)) await setAside(damage.path);
    }
    const restored = toGen;
    const remaining = dryRun ? gens.filter((gen) => !(badCommits.includes(gen) && gen > restored)) : listCommitGens(dir);
    if (dryRun) return planned({ fromGen, toGen, gen: (remaining.at(-1) ?? 0) + 1 });
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
    return planned({ fromGen, toGen, gen });
  } finally {
    await lock?.release();
  }
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
