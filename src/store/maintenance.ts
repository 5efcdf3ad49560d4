/**
 * Store maintenance behind `docsctl store fsck|recover|unlock` (gc.ts: `store gc`).
 *
 * - fsck: verifies the newest commits (checksums, parent links, root objects), the
 *   packs they and CHECKPOINT name (index order, sizes: a torn pack is named), and every
 *   object reachable from the newest state; lists each problem with its file.
 * - recover: under the lock, writes everything the newest fully verified state (or
 *   `toGen`) reaches into one new pack, commits a new generation restoring it, makes
 *   that pack the base, and moves damaged files to quarantine/ (history is kept);
 *   `dryRun` reports what it would do and changes nothing.
 * - unlock: removes the LOCK (refuses while its holder is alive unless forced).
 *
 * Reachability: table nodes, root objects and transaction logs are structural.
 * Objects stored with putObject are referenced from table values (and from other
 * objects) by their hash, so any 64-hex string that names an existing object counts
 * as a reference (conservative: nothing a value names is dropped).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type BNode, bnodeShapeProblem, isBLeaf, looksLikeBNode } from './btree.js';
import { writePack } from './checkpoint.js';
import {
  type CommitRecord,
  FormatTooNewError,
  checkFormat,
  encodeRoot,
  formatText,
  listCommitGens,
  makeCommit,
  parseCommit,
  parseRoot,
  parseTxLog,
  paths,
  writeHead,
} from './commit-file.js';
import { DIR_MODE, errnoCode, fsops, fsyncDir, removeQuietly, tempPath, writeNewFile } from './durable.js';
import { StoreBusyError, StoreError, StoreNotFoundError } from './errors.js';
import { isLeaf, leafEach, nodeShapeProblem } from './hamt.js';
import { type LockOwner, acquireLock, breakLock, describeHolder, holderAlive, inspectLock } from './lock.js';
import { collectHashes, namesHashes, objectPath, parseObject, readLooseBytes, sha256 } from './objects.js';
import { PackFile, type PackWriter, indexPath, listPacks, newPackName, packPath } from './pack-file.js';
import { NO_CHECKPOINT, PackSet, readCheckpointState, writeCheckpoint } from './pack-set.js';

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
  /** The file exists, its content is wrong, and recover may set it aside (a loose object, a pack). */
  damaged: boolean;
}

type Kind = 'root' | 'node' | 'txlog' | 'object' | 'candidate';

/**
 * Reads objects without the cache, verifying each once; remembers every reachable hash
 * and every problem. Objects are in any pack or commit file present, or loose files.
 */
export class Verifier {
  /** Hash → whether the subtree below it is intact. */
  private readonly intact = new Map<string, boolean>();
  readonly damage = new Map<string, Damage>();
  readonly packs: PackSet;
  private readonly newest: number;

  constructor(readonly dir: string) {
    this.packs = new PackSet(dir);
    try {
      this.packs.indexEverything();
    } catch (error) {
      // A garbled CHECKPOINT: fsck reports it; the packs and commits present are still read.
      if (!(error instanceof StoreError)) throw error;
      this.packs.useCheckpoint(NO_CHECKPOINT);
      this.packs.indexEverything();
    }
    this.newest = listCommitGens(dir).at(-1) ?? 0;
  }

  /** True when `hash` names an object: in a pack or commit file, or loose. */
  exists(hash: string): boolean {
    return this.packs.has(hash) || fs.existsSync(objectPath(this.dir, hash));
  }

  /** An intact object's bytes, from a pack, a commit file or a loose file. Throws StoreError when damaged; undefined when missing. */
  bytes(hash: string): Buffer | undefined {
    const location = this.packs.locate(hash, this.newest);
    if (location !== undefined) return this.packs.readAt(hash, location);
    return readLooseBytes(this.dir, hash);
  }

  /** An intact object's value. Throws StoreError when damaged; undefined when missing. */
  read(hash: string): unknown {
    const bytes = this.bytes(hash);
    return bytes === undefined ? undefined : parseObject(bytes, () => objectPath(this.dir, hash));
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
      // A damaged loose file or pack can be set aside; a commit file stays (its generation is history).
      const where = error instanceof StoreError ? error.path : file;
      const problem = error instanceof StoreError ? error.message.replace(`${where} `, '').replace(/^store damaged: /, '') : String(error);
      this.damage.set(hash, { path: where, problem, damaged: where === file || where.startsWith(paths.packs(this.dir)) });
      return undefined;
    }
  }

  private shape(hash: string, problem: string): false {
    this.damage.set(hash, { path: objectPath(this.dir, hash), problem, damaged: true });
    return false;
  }

  /**
   * Verifies the object `hash` of the given kind and everything below it. Kinds:
   * root, node (table node), txlog, object (must exist), candidate (a string that may name an object).
   */
  check(hash: string, kind: Kind): boolean {
    const known = this.intact.get(hash);
    if (known !== undefined) return known;
    if (kind === 'candidate' && !this.exists(hash)) return true; // not a reference
    this.intact.set(hash, true); // provisional (content addressing rules out cycles, but be safe)
    const ok = this.checkUncached(hash, kind);
    this.intact.set(hash, ok);
    return ok;
  }

  private checkUncached(hash: string, kind: Kind): boolean {
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
      if (isLeaf(node)) leafEach(node, (_key, value) => collectHashes(value, refs));
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
 * Writes every object the verifier reached into one new pack (gc, recover), so the
 * state it verified no longer needs any other pack, commit file or loose object.
 */
export async function packReached(dir: string, verifier: Verifier, gen: number, kind: 'g' | 'r'): Promise<PackFile> {
  return writePack(dir, newPackName(gen, kind), { durable: true }, undefined, async (writer: PackWriter) => {
    for (const hash of verifier.reached) {
      const bytes = verifier.bytes(hash);
      if (bytes === undefined) continue; // a candidate that named no object
      writer.add(hash, bytes, namesHashes(JSON.parse(bytes.toString('utf8'))));
      if (writer.unwritten > 8 * 1024 * 1024) await writer.drain(2 * 1024 * 1024);
    }
  });
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

/**
 * Packs a state names (CHECKPOINT, or a commit of `commits`) that cannot be read: a
 * missing or torn pack, a garbled index. Packs nothing names (a staging in progress,
 * litter a crash left) are not problems; gc removes them.
 */
function packProblems(dir: string, commits: Iterable<CommitRecord>): StoreProblem[] {
  const named = new Set<string>();
  const problems: StoreProblem[] = [];
  try {
    for (const name of readCheckpointState(dir).packs) named.add(name);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    problems.push({ path: error.path, problem: error.message.replace(/^store damaged: /, '').replace(`${error.path} `, '') });
  }
  const present = new Set(listPacks(dir));
  for (const commit of commits) for (const name of commit.packs ?? []) if (present.has(name)) named.add(name);
  for (const name of [...named].sort()) {
    try {
      const pack = PackFile.open(dir, name);
      if (pack === undefined) {
        problems.push({ path: packPath(dir, name), problem: 'missing (named by CHECKPOINT)' });
        continue;
      }
      const problem = pack.indexProblem();
      pack.close();
      if (problem !== undefined) problems.push({ path: pack.indexFile, problem });
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      problems.push({ path: error.path, problem: error.message.replace(/^store damaged: /, '').replace(`${error.path} `, '') });
    }
  }
  return problems;
}

// ─── fsck ────────────────────────────────────────────────────────────────────

/** Verifies the newest `commits` commit records, the packs they name, and every object reachable from the newest state. */
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
  problems.push(...packProblems(dir, commits.values()));
  const verifier = new Verifier(dir);
  // The newest readable state in full.
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
  verifier.packs.close();
  const unique = new Map(problems.map((p) => [`${p.path}\n${p.problem}`, p]));
  const sorted = [...unique.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { gen: newest, problems: sorted, checkedCommits: recent.length, checkedObjects: verifier.count };
}

// ─── recover ─────────────────────────────────────────────────────────────────

async function quarantine(dir: string, file: string, stamp: string): Promise<string> {
  const qdir = paths.quarantine(dir);
  fs.mkdirSync(qdir, { recursive: true, mode: DIR_MODE });
  const target = path.join(qdir, `${stamp}-${path.relative(dir, file).split(path.sep).join('_')}`);
  fsops.rename(file, target);
  return target;
}

/** The generation to restore: the newest intact one (or `toGen`), scanning from the newest. */
function chooseGeneration(dir: string, gens: number[], verifier: Verifier, toGen: number | undefined) {
  const commits = new Map<number, CommitRecord>();
  const badCommits: number[] = [];
  const problems: StoreProblem[] = [];
  let chosen: number | undefined;
  for (const gen of [...gens].reverse()) {
    const { commit, problem } = readCommit(dir, gen);
    if (problem) {
      problems.push(problem);
      badCommits.push(gen);
      continue;
    }
    const record = commit as CommitRecord;
    commits.set(gen, record);
    if (toGen !== undefined && gen !== toGen) {
      if (gen > toGen) continue;
      break;
    }
    if (verifier.check(record.root, 'root')) {
      chosen = gen;
      break;
    }
    if (toGen !== undefined) break; // the requested generation is damaged
  }
  return { commits, badCommits, problems, chosen: toGen === 0 ? 0 : chosen };
}

/** What recover sets aside and reports, dry or not (see `recover`). */
class RecoverPlan {
  readonly quarantined: string[] = [];
  readonly problems: StoreProblem[] = [];
  private bytes = 0;
  private readonly stamp = new Date().toISOString().replace(/[:.]/g, '-');
  constructor(
    readonly dir: string,
    readonly dryRun: boolean,
  ) {}

  /** Moves a damaged file into quarantine/ (dry: notes it and its bytes). */
  async setAside(file: string): Promise<void> {
    if (!this.dryRun) {
      this.quarantined.push(await quarantine(this.dir, file, this.stamp));
      return;
    }
    this.quarantined.push(file);
    this.bytes += fs.statSync(file).size;
  }

  report(fields: Omit<RecoverReport, 'quarantined' | 'problems'>): RecoverReport {
    const { quarantined, problems } = this;
    return this.dryRun ? { ...fields, quarantined, problems, dryRun: true, quarantinedBytes: this.bytes } : { ...fields, quarantined, problems };
  }
}

/** A damaged or garbled FORMAT is set aside and written again (its content is fixed). */
async function repairFormat(plan: RecoverPlan): Promise<void> {
  const { dir } = plan;
  const format = formatProblem(dir);
  if (format === undefined) return;
  plan.problems.push(format);
  if (fs.existsSync(paths.format(dir))) await plan.setAside(paths.format(dir));
  if (plan.dryRun) return;
  const temp = tempPath(dir, 'format');
  await writeNewFile(temp, Buffer.from(formatText()), { sync: true });
  fsops.link(temp, paths.format(dir));
  removeQuietly([temp]);
  await fsyncDir(dir);
}

/** The pack holding everything the restored state reaches (an empty root for `toGen: 0`); its name and the root. */
async function packRestored(dir: string, commits: Map<number, CommitRecord>, chosen: number, gen: number): Promise<{ root: string; pack: string }> {
  if (chosen === 0) {
    const bytes = Buffer.from(JSON.stringify(encodeRoot({ tables: new Map() })));
    const root = sha256(bytes);
    const empty = await writePack(dir, newPackName(gen, 'r'), { durable: true }, undefined, async (writer) => writer.add(root, bytes, true));
    empty.close();
    return { root, pack: empty.name };
  }
  const root = (commits.get(chosen) as CommitRecord).root;
  // What the restored state reaches, exactly (the first verifier also met the damaged newer states).
  const restored = new Verifier(dir);
  try {
    restored.check(root, 'root');
    const pack = await packReached(dir, restored, gen, 'r');
    pack.close();
    return { root, pack: pack.name };
  } finally {
    restored.packs.close();
  }
}

/** Commits generation `gen` restoring `root` (whole in `pack`), and makes that pack the base. */
async function commitRestored(dir: string, fields: { gen: number; parent: CommitRecord | undefined; root: string; chosen: number; pack: string }): Promise<void> {
  const { gen, parent, root, chosen, pack } = fields;
  const record = makeCommit({ gen, parent: parent?.sum ?? null, root, at: new Date().toISOString(), command: 'docsctl store recover', recoveredFrom: chosen, packs: [pack] });
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
  // It did not come from the checkpoints before it, so none of them may serve as a cut for
  // pruning: history starts again here.
  await writeCheckpoint(dir, { gen, packs: [pack], history: [], prunedBelow: safeCheckpoint(dir).prunedBelow }, true);
}

/**
 * Returns the store to its newest fully verified state (or `toGen`): what it reaches
 * goes into one new pack, a new commit restores it, damaged files go to quarantine/.
 * Refuses when no generation is intact, unless `toGen: 0` asks for an empty store.
 * `dryRun` finds the same and changes nothing (no lock, no file moved or written).
 */
export async function recover(dir: string, options: { toGen?: number; dryRun?: boolean } = {}): Promise<RecoverReport> {
  requireDir(dir);
  const plan = new RecoverPlan(dir, options.dryRun === true);
  await repairFormat(plan);
  const lock = plan.dryRun ? undefined : await acquireLock(dir, { command: 'docsctl store recover' });
  const verifier = new Verifier(dir);
  try {
    const gens = listCommitGens(dir);
    const fromGen = gens.at(-1) ?? 0;
    const { commits, badCommits, problems, chosen } = chooseGeneration(dir, gens, verifier, options.toGen);
    plan.problems.push(...problems, ...[...verifier.damage.values()].map(({ path: file, problem }) => ({ path: file, problem })));
    if (chosen === undefined) {
      const what = options.toGen !== undefined ? `generation ${options.toGen} is not intact` : 'no intact generation found';
      throw new StoreError(`cannot recover ${dir}: ${what} (checked ${gens.length} commits)`, paths.commits(dir), {
        hint: 'pass --to 0 to start over from an empty store (damaged files would stay in place for inspection)',
      });
    }
    const packIssues = packProblems(dir, commits.values());
    if (chosen === fromGen && badCommits.length === 0 && verifier.damage.size === 0 && packIssues.length === 0) return plan.report({ fromGen, toGen: chosen, gen: fromGen });
    plan.problems.push(...packIssues);
    const damaged = new Set([
      ...badCommits.filter((gen) => gen > chosen).map((gen) => paths.commit(dir, gen)),
      ...[...verifier.damage.values()].filter((d) => d.damaged).flatMap((d) => packFilesOf(dir, d.path)),
      ...packIssues.flatMap((p) => packFilesOf(dir, p.path)),
    ]);
    const top = gens.filter((gen) => !(badCommits.includes(gen) && gen > chosen)).at(-1) ?? 0;
    // The restored state, whole, in a pack of its own: then the damaged files can go.
    const restored = plan.dryRun ? undefined : await packRestored(dir, commits, chosen, top + 1);
    verifier.packs.close();
    for (const file of damaged) if (fs.existsSync(file)) await plan.setAside(file);
    if (restored !== undefined) {
      const parent = top > 0 ? (commits.get(top) ?? readCommit(dir, top).commit) : undefined;
      await commitRestored(dir, { gen: top + 1, parent, root: restored.root, chosen, pack: restored.pack });
    }
    return plan.report({ fromGen, toGen: chosen, gen: top + 1 });
  } finally {
    verifier.packs.close();
    await lock?.release();
  }
}

/** A damaged file to set aside: a pack goes with its index (and the other way round); other files alone. */
function packFilesOf(dir: string, file: string): string[] {
  if (path.dirname(file) !== paths.packs(dir)) return [file];
  const name = path.basename(file).replace(/\.(pack|idx)$/, '');
  return [packPath(dir, name), indexPath(dir, name)].filter((f) => fs.existsSync(f));
}

/** CHECKPOINT's state, or none when it is unreadable (recover and gc write a new one). */
export function safeCheckpoint(dir: string) {
  try {
    return readCheckpointState(dir);
  } catch {
    return NO_CHECKPOINT;
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
