/**
 * The fast path of a three-way merge: when the two sides changed disjoint pages
 * (no page, no parent and no sibling list touched by both), the result is one
 * side with the other side's changed page objects applied — found by diffing the
 * content tries against the base, so a merge of 10 edited pages in a 5,000-page
 * space reads a few dozen objects instead of three whole trees. Anything less
 * clear-cut returns undefined and the full tree merge (`mergeTrees`) decides.
 */
import { type Change as TrieChange, DELETE, type HamtNode, type NodeSource, hamtApply, hamtDiff, makeChange } from '../../store/hamt.js';
import type { Json, StoreReader, StoreWriter } from '../../store/types.js';
import { slotHash } from './page-slot.js';
import type { ContentRoot, StoredPage } from './storage.js';

const EMPTY: ContentRoot = { rootPages: [], pages: null, files: null };
/** Parent key of root-level pages. */
const ROOT = '';

/** What to apply to `ours` to get the merge. */
export interface ContentPatch {
  ours: ContentRoot;
  oursHash: string | undefined;
  pages: TrieChange[];
  files: TrieChange[];
  rootPages: string[];
}

/**
 * An object shared with the store's cache, not copied: this module only reads what it
 * reads (trie nodes, roots, the changed pages' parent and slug) and builds new nodes from
 * copies of their entries. A copy of each was a seventh of a `cr merge`'s CPU.
 */
const shared = <T>(reader: StoreReader, hash: string): T => (reader.sharedObject ? reader.sharedObject<T>(hash) : reader.getObject<T>(hash));

class Source implements NodeSource {
  constructor(private readonly reader: StoreReader) {}
  node(hash: string): HamtNode {
    return shared<HamtNode>(this.reader, hash);
  }
}

const rootOf = (reader: StoreReader, hash: string | undefined): ContentRoot => (hash === undefined ? EMPTY : shared<ContentRoot>(reader, hash));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The pages a set of changes touches: each changed page, and — when it was added,
 * removed, moved or re-slugged (what can clash with its siblings) — its parents
 * before and after. A body or metadata edit touches the page alone.
 */
function touched(reader: StoreReader, changes: Map<string, [unknown, unknown]>): Set<string> {
  const out = new Set<string>();
  for (const [id, [before, after]] of changes) {
    out.add(id);
    const beforeHash = slotHash(before);
    const afterHash = slotHash(after);
    const old = beforeHash === undefined ? undefined : shared<StoredPage>(reader, beforeHash);
    const next = afterHash === undefined ? undefined : shared<StoredPage>(reader, afterHash);
    if (old && next && old.parent === next.parent && old.slug === next.slug) continue;
    if (old) out.add(old.parent ?? ROOT);
    if (next) out.add(next.parent ?? ROOT);
  }
  return out;
}

export function planFastMerge(
  reader: StoreReader,
  baseHash: string | undefined,
  oursHash: string | undefined,
  theirsHash: string | undefined,
): ContentPatch | undefined {
  const source = new Source(reader);
  const [base, ours, theirs] = [rootOf(reader, baseHash), rootOf(reader, oursHash), rootOf(reader, theirsHash)];
  const pagesOurs = hamtDiff(source, base.pages ?? undefined, ours.pages ?? undefined);
  const pagesTheirs = hamtDiff(source, base.pages ?? undefined, theirs.pages ?? undefined);
  for (const [id, [, after]] of pagesTheirs) {
    const mine = pagesOurs.get(id);
    if (mine && slotHash(mine[1]) !== slotHash(after)) return undefined;
  }
  const rootsOurs = !same(base.rootPages, ours.rootPages);
  const rootsTheirs = !same(base.rootPages, theirs.rootPages);
  if (rootsOurs && rootsTheirs && !same(ours.rootPages, theirs.rootPages)) return undefined;
  const touchedOurs = touched(reader, pagesOurs);
  if (rootsOurs) touchedOurs.add(ROOT);
  const touchedTheirs = touched(reader, pagesTheirs);
  if (rootsTheirs) touchedTheirs.add(ROOT);
  for (const id of touchedTheirs) if (touchedOurs.has(id) && !(pagesOurs.has(id) && slotHash(pagesOurs.get(id)?.[1]) === slotHash(pagesTheirs.get(id)?.[1]))) return undefined;

  const filesOurs = hamtDiff(source, base.files ?? undefined, ours.files ?? undefined);
  const filesTheirs = hamtDiff(source, base.files ?? undefined, theirs.files ?? undefined);
  for (const [id, [, after]] of filesTheirs) {
    const mine = filesOurs.get(id);
    if (mine && mine[1] !== after) return undefined;
  }
  // A value as the other side wrote it (a page slot with its outline, a file hash), or a deletion.
  const change = (id: string, after: Json | undefined) => makeChange(id, slotHash(after) === undefined ? DELETE : (after as Json));
  return {
    ours,
    oursHash,
    pages: [...pagesTheirs].filter(([id]) => !pagesOurs.has(id)).map(([id, [, after]]) => change(id, after)),
    files: [...filesTheirs].filter(([id]) => !filesOurs.has(id)).map(([id, [, after]]) => change(id, after)),
    rootPages: rootsTheirs ? theirs.rootPages : ours.rootPages,
  };
}

/** Writes the merged content (a few trie nodes and one root object) and returns its hash. */
export function applyPatch(tx: StoreWriter, patch: ContentPatch): string | undefined {
  if (patch.pages.length === 0 && patch.files.length === 0 && same(patch.rootPages, patch.ours.rootPages)) return patch.oursHash;
  const source = new Source(tx);
  const emit = (node: HamtNode): string => tx.putObject(node);
  const pages = hamtApply(source, patch.ours.pages ?? undefined, patch.pages, emit);
  const files = hamtApply(source, patch.ours.files ?? undefined, patch.files, emit);
  if (pages === undefined && files === undefined && patch.rootPages.length === 0) return undefined;
  const root: ContentRoot = { rootPages: patch.rootPages, pages: pages ?? null, files: files ?? null };
  return tx.putObject(root);
}
