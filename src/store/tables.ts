/**
 * A table's rows, whatever form its tree has: a sorted B+tree (btree.ts; every
 * table written by this version) or a hash trie (hamt.ts; tables last written by
 * an earlier version). Reads work on both; the first write to a trie table
 * rebuilds it as a B+tree, so stores upgrade themselves table by table.
 */
import {
  type BChange,
  type BEmit,
  type BNode,
  type BTreeSource,
  btreeApply,
  btreeBuild,
  btreeEntries,
  btreeGet,
  btreeScan,
  looksLikeBNode,
} from './btree.js';
import { type HamtNode, type NodeSource, hamtEntries, hamtGet } from './hamt.js';
import { scanRows } from './scan.js';
import type { Json, ScanOptions } from './types.js';

export interface TableSource extends BTreeSource, NodeSource {
  /**
   * The parsed object under `hash` (shape unchecked). `walk`: read by a walk over a whole
   * trie, which the source may leave out of its cache (see OpenStoreOptions.keepWalked).
   */
  object(hash: string, walk?: boolean): unknown;
}

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

function isBTree(source: TableSource, root: string): boolean {
  return looksLikeBNode(source.object(root));
}

export function tableGet(source: TableSource, root: string | undefined, key: string): Json | undefined {
  if (root === undefined) return undefined;
  return isBTree(source, root) ? btreeGet(source, root, key) : hamtGet(source, root, key);
}

/** Every row in key order (values shared with the cache: copy before handing out). */
export function tableEntries(source: TableSource, root: string | undefined): Array<[string, Json]> {
  if (root === undefined) return [];
  if (isBTree(source, root)) return btreeEntries(source, root);
  return hamtEntries(source, root).sort(byKey);
}

export function tableScan(source: TableSource, root: string | undefined, options: ScanOptions): Array<[string, Json]> {
  if (root === undefined) return [];
  if (isBTree(source, root)) return btreeScan(source, root, options);
  return scanRows(hamtEntries(source, root), options);
}

/** Applies changes and returns the new root (a B+tree; undefined when the table became empty). */
export function tableApply(source: TableSource, root: string | undefined, changes: BChange[], emit: BEmit): string | undefined {
  if (root === undefined || isBTree(source, root)) return btreeApply(source, root, changes, emit);
  const rows = new Map<string, string | null>();
  for (const [key, value] of hamtEntries(source, root)) rows.set(key, JSON.stringify(value));
  for (const change of changes) rows.set(change.key, change.text);
  const live: Array<[string, string]> = [];
  for (const [key, text] of rows) if (text !== null) live.push([key, text]);
  return btreeBuild(live, emit);
}

export type { BNode, HamtNode };
