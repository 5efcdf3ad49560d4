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
 */
export async function walk(
  source: WalkSource,
  roots: Iterable<string>,
  classify: (hash: string) => Step,
  unreadable: (hash: string, error: unknown) => 'skip' | 'give up' = () => 'give up',
): Promise<Set<string> | undefined> {
  const reached = new Set<string>();
  const seen = new Set<string>();
  const stack = [...roots];
  const refs: string[] = [];
  let slice = performance.now();
  let steps = 0;
  while (stack.length > 0) {
    const hash = stack.pop() as string;
    if (seen.has(hash)) continue;
    seen.add(hash);
    const step = classify(hash);
    if (step === 'stop') continue;
    if (step === 'leaf') {
      reached.add(hash);
      continue;
    }
    let value: unknown;
    try {
      value = source.object(hash);
    } catch (error) {
      if (unreadable(hash, error) === 'skip') continue;
      return undefined;
    }
    reached.add(hash);
    refs.length = 0;
    referencesOf(value, refs);
    for (const ref of refs) if (ref !== hash && !seen.has(ref)) stack.push(ref);
    if ((steps += 1) % 256 === 0) slice = await yieldIfDue(slice);
  }
  return reached;
}
