/**
 * `docsctl store gc`: under the lock, verifies everything the newest K commits reach,
 * writes it into one new pack (the base from then on), and removes what that leaves
 * unneeded: older commit files, every pack a commit or CHECKPOINT named (their live
 * objects are in the new pack), loose objects of stores written before packs, and,
 * once older than `minAgeMs` (an hour by default), packs nothing names (a staging
 * still on its way to its commit is younger), temp files and stale lock leftovers.
 *
 * `dryRun` finds the same files and changes nothing: no lock is taken, no pack is
 * written, no checkpoint, nothing is removed. The report counts the files and their
 * bytes, and the objects no kept commit reaches that go with them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkFormat, listCommitGens, paths } from './commit-file.js';
import { fsops } from './durable.js';
import { StoreError } from './errors.js';
import { crashPoint } from './fault.js';
import { acquireLock } from './lock.js';
import { Verifier, packReached, readCommit, safeCheckpoint } from './maintenance.js';
import { DAMAGE_HINT, HASH_RE } from './objects.js';
import { PackFile, indexPath, listPacks, packPath } from './pack-file.js';
import { writeCheckpoint } from './pack-set.js';

export interface GcReport {
  removedCommits: number;
  removedObjects: number;
  removedTemps: number;
  /** Bytes of the files removed. */
  removedBytes: number;
  /** Set when nothing was removed: the counts are what gc would remove. */
  dryRun?: true;
}

interface Candidate {
  file: string;
  bytes: number;
}

function fileInfo(file: string): { bytes: number; mtimeMs: number } | undefined {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() ? { bytes: stat.size, mtimeMs: stat.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** Files older than `cutoff` among `names` of `dir` that `match` accepts. */
function oldFiles(dir: string, match: (name: string) => boolean, cutoff: number): Candidate[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const found: Candidate[] = [];
  for (const name of names) {
    if (!match(name)) continue;
    const info = fileInfo(path.join(dir, name));
    if (info !== undefined && info.mtimeMs <= cutoff) found.push({ file: path.join(dir, name), bytes: info.bytes });
  }
  return found;
}

/** Every loose object file (stores written before packs), with its hash. */
function looseObjects(dir: string): Array<Candidate & { hash: string }> {
  const objectsDir = paths.objects(dir);
  let prefixes: string[];
  try {
    prefixes = fs.readdirSync(objectsDir);
  } catch {
    return [];
  }
  const found: Array<Candidate & { hash: string }> = [];
  for (const prefix of prefixes) {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(objectsDir, prefix));
    } catch {
      continue;
    }
    for (const name of names) {
      const hash = name.replace(/\.json$/, '');
      if (!HASH_RE.test(hash)) continue;
      const file = path.join(objectsDir, prefix, name);
      found.push({ file, hash, bytes: fileInfo(file)?.bytes ?? 0 });
    }
  }
  return found;
}

/** What gc removes, and the objects no kept commit reaches that go with it. */
interface Plan {
  commits: Candidate[];
  packs: string[];
  loose: Candidate[];
  temps: Candidate[];
  unreached: number;
  bytes: number;
}

function plan(dir: string, dropped: number[], kept: number[], reached: ReadonlySet<string>, cutoff: number): Plan {
  const commits = dropped.map((gen) => ({ file: paths.commit(dir, gen), bytes: fileInfo(paths.commit(dir, gen))?.bytes ?? 0 }));
  // Packs a state names are replaced by the new pack; the others only once they are old.
  const named = new Set(safeCheckpoint(dir).packs);
  for (const gen of [...dropped, ...kept]) for (const name of readCommit(dir, gen).commit?.packs ?? []) named.add(name);
  const packs = listPacks(dir).filter((name) => named.has(name) || (fileInfo(indexPath(dir, name))?.mtimeMs ?? 0) <= cutoff);
  // A pack without its index (a write a crash cut short) is litter too, once old.
  let packFiles: string[] = [];
  try {
    packFiles = fs.readdirSync(paths.packs(dir));
  } catch {
    // no packs/
  }
  const orphans = oldFiles(paths.packs(dir), (name) => name.endsWith('.pack') && !packFiles.includes(`${name.slice(0, -5)}.idx`), cutoff);
  const loose = looseObjects(dir);
  const temps = [...oldFiles(paths.tmp(dir), () => true, cutoff), ...oldFiles(dir, (name) => name.startsWith('LOCK.stale-'), cutoff), ...orphans];
  // Objects that go: in the removed packs, dropped commit files and loose files, and reached by no kept commit.
  const gone = new Set<string>();
  for (const name of packs) {
    let pack: PackFile | undefined;
    try {
      pack = PackFile.open(dir, name);
    } catch {
      continue; // damaged: nothing a kept commit reaches is in it (verified), its objects are not counted
    }
    for (const entry of pack?.allEntries() ?? []) if (!reached.has(entry.hash)) gone.add(entry.hash);
    pack?.close();
  }
  for (const gen of dropped) for (const [hash] of readCommit(dir, gen).commit?.pack ?? []) if (!reached.has(hash)) gone.add(hash);
  for (const { hash } of loose) if (!reached.has(hash)) gone.add(hash);
  const packBytes = packs.reduce((sum, name) => sum + (fileInfo(packPath(dir, name))?.bytes ?? 0) + (fileInfo(indexPath(dir, name))?.bytes ?? 0), 0);
  const bytes = [...commits, ...loose, ...temps].reduce((sum, c) => sum + c.bytes, packBytes);
  return { commits, packs, loose, temps, unreached: gone.size, bytes };
}

function unlinkQuietly(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch {
    return false; // gone already, or not removable now: the next gc looks again
  }
}

/**
 * Keeps the newest `keepCommits` commits and what they reach (in one new pack);
 * removes the rest as the module comment says.
 */
export async function gc(dir: string, options: { keepCommits?: number; minAgeMs?: number; dryRun?: boolean } = {}): Promise<GcReport> {
  checkFormat(dir);
  const keep = Math.max(1, options.keepCommits ?? 100);
  const cutoff = Date.now() - (options.minAgeMs ?? 3_600_000);
  const lock = options.dryRun ? undefined : await acquireLock(dir, { command: 'docsctl store gc' });
  const verifier = new Verifier(dir);
  try {
    const gens = listCommitGens(dir);
    const kept = gens.slice(-keep);
    const dropped = gens.slice(0, Math.max(0, gens.length - keep));
    for (const gen of kept) {
      const { commit, problem } = readCommit(dir, gen);
      if (problem || !commit) {
        const file = problem?.path ?? paths.commit(dir, gen);
        throw new StoreError(`gc stopped: ${file} is ${problem?.problem ?? 'damaged'}`, file, { hint: DAMAGE_HINT });
      }
      verifier.check(commit.root, 'root');
    }
    const first = verifier.damage.values().next();
    if (!first.done) throw new StoreError(`gc stopped: ${first.value.path} is ${first.value.problem}`, first.value.path, { hint: DAMAGE_HINT });
    const reached = new Set(verifier.reached);
    const planned = plan(dir, dropped, kept, reached, cutoff);
    const report = { removedCommits: planned.commits.length, removedObjects: planned.unreached, removedTemps: planned.temps.length, removedBytes: planned.bytes };
    if (options.dryRun) return { ...report, dryRun: true };
    const newest = gens.at(-1);
    if (newest !== undefined) {
      const pack = await packReached(dir, verifier, newest, 'g');
      pack.close();
      await writeCheckpoint(dir, { gen: newest, packs: [pack.name], history: [], prunedBelow: kept[0] ?? 0 }, true);
    }
    verifier.packs.close();
    let removed = 0;
    const step = () => {
      if ((removed += 1) === 1) crashPoint('mid-gc');
    };
    for (const commit of planned.commits) {
      try {
        fsops.unlink(commit.file);
      } catch {
        // leave it
      }
      step();
    }
    for (const name of planned.packs) for (const file of [indexPath(dir, name), packPath(dir, name)]) if (unlinkQuietly(file)) step();
    for (const object of planned.loose) if (unlinkQuietly(object.file)) step();
    fs.rmSync(paths.objects(dir), { recursive: true, force: true });
    fs.rmSync(path.join(dir, 'checkpoints'), { recursive: true, force: true });
    for (const temp of planned.temps) unlinkQuietly(temp.file);
    return report;
  } finally {
    verifier.packs.close();
    await lock?.release();
  }
}
