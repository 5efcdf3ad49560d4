/**
 * Automatic gc of the loose objects no kept generation reaches, putObject values
 * included (imported pages and files), which the per-checkpoint node sweep
 * (`sweepLoose`, pack.ts) cannot judge: whether a row names a value is only known
 * from a mark of the whole state.
 *
 * So the mark is amortised: each checkpoint adds the bytes of values that became
 * loose since the last one (made loose by the checkpoint, or written loose by a
 * commit: its record's `loose`) to `since` in `checkpoints/unreachable`; once
 * `since` reaches the loose bytes the last sweep left (`live`, at least
 * SWEEP_MIN_BYTES), the checkpoint marks everything the kept generations reach and
 * removes the loose files it did not mark. Values that became garbage are at most
 * what was written since the last sweep, so loose objects stay within about twice
 * the live ones, and the work is linear in the bytes written.
 *
 * Safe for the same reasons as the prune (pack.ts): it runs under the writer lock,
 * after CHECKPOINT moved, and marks from every generation whose commit file is kept
 * (from `prunedBelow` on), so a reader of any kept generation finds all it reaches.
 * Anything in doubt (a commit file missing or unreadable, a loose file that is
 * named but damaged) stops the sweep before it removes anything.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isBLeaf, looksLikeBNode, type BNode } from './btree.js';
import { HASH_RE, objectPath, tempPath } from './objects.js';
import { type ObjectSource, type PackIndex, collectHashes, commitFilePath, commitHeader, unlinkAll } from './pack.js';

/** Below this many bytes of new values since the last sweep, no sweep (a tiny store is not marked over and over). */
export const SWEEP_MIN_BYTES = 64 * 1024;

export interface SweepState {
  /** Bytes of loose objects the last sweep left. */
  live: number;
  /** Bytes of values made or written loose since. */
  since: number;
}

function statePath(dir: string): string {
  return path.join(dir, 'checkpoints', 'unreachable');
}

export function readSweepState(dir: string): SweepState {
  try {
    const match = /^live=(\d{1,15}) since=(\d{1,15})\s*$/.exec(fs.readFileSync(statePath(dir), 'utf8'));
    if (match) return { live: Number(match[1]), since: Number(match[2]) };
  } catch {
    // none yet
  }
  return { live: 0, since: 0 };
}

/** Replaces the state (temp file and rename; no fsync: a lost state only moves the next sweep). */
function writeSweepState(dir: string, state: SweepState): void {
  const temp = tempPath(dir, 'sweep');
  try {
    fs.mkdirSync(path.dirname(statePath(dir)), { recursive: true, mode: 0o700 });
    fs.writeFileSync(temp, `live=${state.live} since=${state.since}\n`, { flag: 'wx', mode: 0o600 });
    fs.renameSync(temp, statePath(dir));
  } catch {
    try {
      fs.unlinkSync(temp);
    } catch {
      // gone already
    }
  }
}

/** True for a value stored with putObject (not a table node, a root or a transaction log). */
export function isStoredValue(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return !looksLikeBNode(value) && !('tables' in value) && !('recent' in value);
}

/**
 * Every object the generations `from..newest` reach (roots, table nodes, transaction
 * logs, values and what values name), or undefined when in doubt.
 */
export function markKept(
  source: ObjectSource,
  dir: string,
  from: number,
  newest: number,
  packed: (hash: string) => boolean = () => false,
): Set<string> | undefined {
  const stack: string[] = [];
  for (let gen = Math.max(1, from); gen <= newest; gen += 1) {
    try {
      const root = (JSON.parse(commitHeader(fs.readFileSync(commitFilePath(dir, gen), 'utf8'))) as { root?: unknown }).root;
      if (typeof root !== 'string' || !HASH_RE.test(root)) return undefined;
      stack.push(root);
    } catch {
      return undefined; // a kept commit missing or damaged: keep everything
    }
  }
  const marked = new Set<string>();
  const refs: string[] = [];
  while (stack.length > 0) {
    const hash = stack.pop() as string;
    if (marked.has(hash)) continue;
    let value: unknown;
    try {
      value = source.object(hash);
    } catch {
      // Not an object (a row may hold any 64-hex string), or damaged: a damaged loose file or
      // pack entry stops the sweep (what it names cannot be marked, so must not be removed).
      if (fs.existsSync(objectPath(dir, hash)) || packed(hash)) return undefined;
      continue;
    }
    marked.add(hash);
    refs.length = 0;
    if (looksLikeBNode(value)) {
      const node = value as BNode;
      if (isBLeaf(node)) collectHashes(node.v, refs);
      else refs.push(...node.c);
    } else {
      collectHashes(value, refs); // roots, logs, values, first-release hash tries
    }
    for (const ref of refs) if (!marked.has(ref)) stack.push(ref);
  }
  return marked;
}

/** Removes the loose objects not in `marked`; returns how many it removed and the bytes left. */
async function removeUnmarked(dir: string, marked: Set<string>): Promise<{ removed: number; live: number }> {
  const objects = path.join(dir, 'objects');
  const unmarked: string[] = [];
  let live = 0;
  let prefixes: string[];
  try {
    prefixes = fs.readdirSync(objects);
  } catch {
    return { removed: 0, live };
  }
  for (const prefix of prefixes) {
    if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
    let names: string[];
    try {
      names = fs.readdirSync(path.join(objects, prefix));
    } catch {
      continue;
    }
    for (const name of names) {
      const match = /^([0-9a-f]{64})\.json$/.exec(name);
      if (!match) continue;
      const file = path.join(objects, prefix, name);
      if (!marked.has(match[1] as string)) unmarked.push(file);
      else {
        try {
          live += fs.statSync(file).size;
        } catch {
          // vanished: not live bytes
        }
      }
    }
  }
  return { removed: await unlinkAll(unmarked, 'mid-unreachable-sweep'), live };
}

/**
 * Called by each checkpoint (under the lock, after CHECKPOINT moved): counts `added`
 * bytes of new loose values and, when due, marks from `prunedBelow` to `newest` and
 * removes what no kept generation reaches. Returns the number of files removed.
 */
export async function sweepUnreachable(
  source: ObjectSource,
  index: PackIndex,
  dir: string,
  added: number,
  prunedBelow: number,
  newest: number,
): Promise<number> {
  const state = readSweepState(dir);
  state.since += added;
  if (state.since < Math.max(state.live / 2, SWEEP_MIN_BYTES)) {
    if (added > 0) writeSweepState(dir, state);
    return 0;
  }
  const marked = markKept(source, dir, prunedBelow, newest, (hash) => index.get(hash) !== undefined);
  if (marked === undefined) {
    // In doubt: try again once as many bytes again were written (a sweep removes all garbage, not just the newest).
    writeSweepState(dir, { live: state.live, since: 0 });
    return 0;
  }
  const { removed, live } = await removeUnmarked(dir, marked);
  writeSweepState(dir, { live, since: 0 });
  return removed;
}
