/**
 * `docsctl store gc`: under the lock, keeps the newest K commits, and removes objects
 * no kept commit reaches (older than an hour), old temp files and stale lock
 * leftovers. What the kept commits reach inside packs is made loose first (pack.ts),
 * so the dropped commit files take only unreachable objects with them.
 *
 * `dryRun` finds the same files and changes nothing: no lock is taken, nothing is
 * made loose, no checkpoint is written, nothing is removed. The report counts the
 * files and their bytes (the space they hold, not counting what gc would first copy
 * out of dropped commit files to keep).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StoreError } from './errors.js';
import { crashPoint } from './fault.js';
import { checkFormat, listCommitGens, paths } from './json-file-store.js';
import { acquireLock } from './lock.js';
import { Verifier, makeLoose, readCommit } from './maintenance.js';
import { DAMAGE_HINT, fsops } from './objects.js';
import { writeCheckpoint } from './pack.js';

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
    const file = path.join(dir, name);
    try {
      const stat = fs.statSync(file);
      if (stat.isFile() && stat.mtimeMs <= cutoff) found.push({ file, bytes: stat.size });
    } catch {
      // vanished: nothing to remove
    }
  }
  return found;
}

/** Loose objects no kept commit reaches, older than `cutoff`. */
function unreachableObjects(dir: string, marked: ReadonlySet<string>, cutoff: number): Candidate[] {
  const objectsDir = paths.objects(dir);
  let prefixes: string[];
  try {
    prefixes = fs.readdirSync(objectsDir);
  } catch {
    return [];
  }
  const found: Candidate[] = [];
  for (const prefix of prefixes) {
    if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
    const match = (name: string) => {
      const m = /^([0-9a-f]{64})\.json$/.exec(name);
      return m !== null && !marked.has(m[1] as string);
    };
    found.push(...oldFiles(path.join(objectsDir, prefix), match, cutoff));
  }
  return found;
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Removes each candidate it can; answers how many and their bytes. `first` runs after the first removal. */
function removeAll(candidates: readonly Candidate[], first?: () => void): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const candidate of candidates) {
    try {
      fs.unlinkSync(candidate.file);
    } catch {
      continue; // vanished or unremovable: leave it
    }
    count += 1;
    bytes += candidate.bytes;
    if (count === 1) first?.();
  }
  return { count, bytes };
}

/**
 * Keeps the newest `keepCommits` commits; removes objects none of them reaches,
 * and temp / stale-lock files, when older than `minAgeMs` (default one hour).
 */
export async function gc(dir: string, options: { keepCommits?: number; minAgeMs?: number; dryRun?: boolean } = {}): Promise<GcReport> {
  checkFormat(dir);
  const keep = Math.max(1, options.keepCommits ?? 100);
  const cutoff = Date.now() - (options.minAgeMs ?? 3_600_000);
  const lock = options.dryRun ? undefined : await acquireLock(dir, { command: 'docsctl store gc' });
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
    const commits = dropped.map((gen) => ({ file: paths.commit(dir, gen), bytes: sizeOf(paths.commit(dir, gen)) }));
    const temps = () => [...oldFiles(paths.tmp(dir), () => true, cutoff), ...oldFiles(dir, (name) => name.startsWith('LOCK.stale-'), cutoff)];
    if (options.dryRun) {
      const objects = unreachableObjects(dir, marked, cutoff);
      const litter = temps();
      const bytes = [...commits, ...objects, ...litter].reduce((sum, c) => sum + c.bytes, 0);
      return { removedCommits: commits.length, removedObjects: objects.length, removedTemps: litter.length, removedBytes: bytes, dryRun: true };
    }
    await makeLoose(dir, verifier);
    const newest = gens.at(-1);
    if (newest !== undefined) await writeCheckpoint(dir, { gen: newest, history: [], prunedBelow: kept[0] ?? 0 }, true);
    let removedCommits = 0;
    let removedBytes = 0;
    for (const commit of commits) {
      try {
        fsops.unlink(commit.file);
        removedBytes += commit.bytes;
      } catch {
        // leave it
      }
      removedCommits += 1;
      if (removedCommits === 1) crashPoint('mid-gc');
    }
    const objects = removeAll(unreachableObjects(dir, marked, cutoff), () => {
      if (removedCommits === 0) crashPoint('mid-gc');
    });
    const litter = removeAll(temps());
    return { removedCommits, removedObjects: objects.count, removedTemps: litter.count, removedBytes: removedBytes + objects.bytes + litter.bytes };
  } finally {
    await lock?.release();
  }
}
