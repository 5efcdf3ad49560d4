/**
 * What a state reaches: the walks behind checkpoints (which new objects are live),
 * repacks (which objects any kept generation still needs) and gc.
 *
 * An object names others by hash: a B+tree inner node its children, a leaf the
 * hashes in its rows' values, a root its tables and transaction log, and any other
 * value every 64-hex string in it (a content root its tries, a page its body). Packs
 * record per object whether it may name anything (pack-file.ts), so the walks never
 * read page bodies or file data, most of an import's bytes. Both walks yield to the
 * event loop every few milliseconds: a checkpoint runs beside `serve`'s requests.
 */
import { isBLeaf, looksLikeBNode, type BNode } from './btree.js';
import { collectHashes } from './objects.js';
import { yieldIfDue } from '../util/slices.js';

/** What the walks need from the store: objects, and whether one may name others. */
export interface WalkSource {
  /** The parsed object (shared, do not change it). Throws StoreError when it is damaged or missing. */
  object(hash: string): unknown;
}


/** The hashes an object names (children of a node, hashes in values). */
export function referencesOf(value: unknown, out: string[] = []): string[] {
  if (looksLikeBNode(value)) {
    const node = value as BNode;
    if (isBLeaf(node)) collectHashes(node.v, out);
    else out.push(...(node as { c: string[] }).c);
  } else {
    collectHashes(value, out);
  }
  return out;
}

/**
 * How a walk treats an object: `enter` reaches it, reads it and follows what it names;
 * `leaf` reaches it without reading it (it names nothing); `stop` leaves it out.
 */
export type Step = 'enter' | 'leaf' | 'stop';

/**
 * Walks from `roots`: `classify` says what to do with each object met; the objects
 * reached are returned. `unreadable` is asked about an object that cannot be read:
 * 'skip' (a 64-hex string in a value that names no object) or 'give up' (undefined is
 * returned: the caller must not act on a partial walk).
 *
 * The set comes in the order a pack should hold the objects (a checkpoint writes its pack
 * in it), as git's pack-objects writes commits, then trees, then blobs: first the objects
 * that name objects naming others (table nodes, content roots, trie nodes), then those
 * that name only data (pages), then the data (bodies, file bytes), each group depth-first
 * from the roots with children in the order they are named, which is the order a walk of
 * a trie reads them. Why: in commit order a space's trie nodes sat between its pages and
 * bodies, and `site tree` on 200 distinct spaces read 24.5 MB in 511 preads from 15.5 MB
 * of packs to get ~4.5 MB of trie nodes.
 */
export async function walk(
  source: WalkSource,
  roots: Iterable<string>,
  classify: (hash: string) => Step,
  unreadable: (hash: string, error: unknown) => 'skip' | 'give up' = () => 'give up',
): Promise<Set<string> | undefined> {
  const upper: string[] = [];
  const lower: string[] = [];
  const data: string[] = [];
  /** How each object met was classified (each is classified, and entered, once). */
  const steps = new Map<string, Step>();
  const stack: string[] = [];
  const meet = (hash: string): Step => {
    let step = steps.get(hash);
    if (step !== undefined) return step;
    step = classify(hash);
    steps.set(hash, step);
    if (step === 'leaf') data.push(hash);
    return step;
  };
  const first = [...roots];
  for (let i = first.length - 1; i >= 0; i -= 1) if (meet(first[i] as string) === 'enter') stack.push(first[i] as string);
  const refs: string[] = [];
  const next: string[] = [];
  let slice = performance.now();
  let visits = 0;
  while (stack.length > 0) {
    const hash = stack.pop() as string;
    let value: unknown;
    try {
      value = source.object(hash);
    } catch (error) {
      if (unreadable(hash, error) === 'skip') continue;
      return undefined;
    }
    refs.length = 0;
    referencesOf(value, refs);
    next.length = 0;
    let namesNamers = false;
    for (const ref of refs) {
      if (ref === hash) continue;
      const known = steps.get(ref);
      if (known === undefined) {
        if (meet(ref) === 'enter') {
          namesNamers = true;
          next.push(ref);
        }
      } else if (known === 'enter') namesNamers = true;
    }
    (namesNamers ? upper : lower).push(hash);
    // Reversed: the first named is the next popped (depth-first in the order named).
    for (let i = next.length - 1; i >= 0; i -= 1) stack.push(next[i] as string);
    if ((visits += 1) % 256 === 0) slice = await yieldIfDue(slice);
  }
  return new Set([...upper, ...lower, ...data]);
}
