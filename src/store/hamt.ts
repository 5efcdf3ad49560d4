/**
 * A persistent hash-array-mapped trie of immutable JSON nodes: one per table.
 *
 * Keys are placed by the hex sha1 of the key. A leaf `{"a": [key, value, key, value, …]}`
 * (keys in order) holds up to LEAF_MAX values inline; a bigger one splits into an inner node
 * `{"n": {"0": hash, …, "f": hash}}` by the next hex digit of the key hash
 * (16-way). A write copies only the nodes on the path from the touched leaves
 * to the root; everything else is shared with the previous generation. Nodes
 * are stored as content-addressed objects; this module never touches files:
 * callers give it a `NodeSource` to load nodes and an `emit` to store new ones.
 *
 * Why a leaf is a list and not an object keyed by the keys: JSON.parse gives an object a
 * hidden class per new property name, and every leaf's keys are new (page ids): reading a
 * site's 3,400 leaves (40,000 pages) spent ~40% of its parse building those. Leaves written
 * before, `{"l": {key: value, …}}`, are read as they are; a write of a leaf writes the list.
 *
 * Why the object hashes that head values are kept apart: a pages-trie value is
 * `[pageHash, title, kind, slug, children?]` (page-slot.ts), and a whole-space read
 * (`site tree`) wants the outline, never the hash; the 64-hex hashes were over half of a
 * leaf's bytes and a string each for JSON.parse to build. A leaf whose every value is a
 * list headed by a 64-hex hash is written `{"a": [key, rest, …], "h": "<hash><hash>…"}`:
 * `rest` is the value without its hash, `h` the hashes in entry order, 64 characters
 * each, read by offset where one is needed. Everywhere else the value reads whole again
 * (`leafGet`, `leafEach`). Other leaves (file tries, bare-hash slots) keep the plain list.
 */
import { DAMAGE_HINT, digestHex } from './objects.js';
import { StoreError } from './errors.js';
import type { Json } from './types.js';

/** A leaf: keys and values alternating, keys in code-unit order. */
export interface ListLeaf {
  a: Json[];
}
/** A leaf whose values are lists headed by an object hash: `a` keys and the values without it, `h` those hashes in order (64 characters each). */
export interface HashedLeaf {
  a: Json[];
  h: string;
}
/** A leaf as the first layout wrote it (read, never written). */
export interface KeyedLeaf {
  l: Record<string, Json>;
}
export type LeafNode = ListLeaf | HashedLeaf | KeyedLeaf;
export interface InnerNode {
  n: Record<string, string>;
}
export type HamtNode = LeafNode | InnerNode;

/** A leaf with more entries than this splits. */
export const LEAF_MAX = 32;
/** After deletions, sibling leaves holding this many entries or fewer in total merge back into one leaf. */
export const MERGE_MAX = 16;
/** Hex digits in a key hash: below this depth leaves never split (33 keys sharing a sha1 cannot happen). */
export const MAX_DEPTH = 40;

const HEX = '0123456789abcdef';
const HASH_RE = /^[0-9a-f]{64}$/;
const HASH_LIST_RE = /^[0-9a-f]*$/;

export function keyHash(key: string): string {
  return digestHex('sha1', key);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the shape of a parsed node; returns an explanation when it is not one. */
export function nodeShapeProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'not a trie node';
  const keys = Object.keys(value);
  if (keys.length === 2 && 'a' in value && 'h' in value) {
    const list = value.a;
    if (!Array.isArray(list) || list.length % 2 !== 0) return 'leaf without entries';
    for (let i = 0; i < list.length; i += 2) {
      if (typeof list[i] !== 'string') return 'leaf with a malformed key';
      if (!Array.isArray(list[i + 1])) return 'leaf with a malformed value';
    }
    const hashes = value.h;
    if (typeof hashes !== 'string' || hashes.length !== list.length * 32 || !HASH_LIST_RE.test(hashes)) return 'leaf with malformed hashes';
    return undefined;
  }
  if (keys.length !== 1) return 'not a trie node';
  if (keys[0] === 'a') {
    const list = value.a;
    if (!Array.isArray(list) || list.length % 2 !== 0) return 'leaf without entries';
    for (let i = 0; i < list.length; i += 2) if (typeof list[i] !== 'string') return 'leaf with a malformed key';
    return undefined;
  }
  if (keys[0] === 'l') return isPlainObject(value.l) ? undefined : 'leaf without entries';
  if (keys[0] === 'n') {
    const children = value.n;
    if (!isPlainObject(children)) return 'inner node without children';
    const digits = Object.keys(children);
    if (digits.length === 0) return 'inner node without children';
    for (const digit of digits) {
      const child = children[digit];
      if (digit.length !== 1 || !HEX.includes(digit) || typeof child !== 'string' || !HASH_RE.test(child)) {
        return 'inner node with a malformed child';
      }
    }
    return undefined;
  }
  return 'not a trie node';
}

export interface NodeSource {
  /** The node stored under `hash` (verified; throws StoreError when missing or damaged). Must not be mutated. */
  node(hash: string): HamtNode;
}

/** Stores a new node and returns its hash. */
export type Emit = (node: HamtNode) => string;

export function isLeaf(node: HamtNode): node is LeafNode {
  return 'a' in node || 'l' in node;
}

/** True for a leaf that keeps its values' hashes apart (`{a, h}`). */
export function isHashedLeaf(node: HamtNode): node is HashedLeaf {
  return 'h' in node;
}

/**
 * The hash of a hashed leaf's entry at list position `i` (its key's index in `a`).
 * Throws when `h` is too short for it: the leaf was not written by this module.
 */
export function leafHashAt(node: HashedLeaf, i: number): string {
  const start = i * 32;
  if (typeof node.h !== 'string' || node.h.length < start + 64) throw new StoreError(`store damaged: a trie leaf lacks the hash of ${String(node.a[i])}`, '', { hint: DAMAGE_HINT });
  return node.h.slice(start, start + 64);
}

/**
 * Throws unless every entry of a hashed leaf has its hash and a list for the rest of its
 * value: what a reader checks before it uses the rests without the hashes.
 */
export function checkHashedLeaf(node: HashedLeaf): void {
  const list = node.a;
  if (typeof node.h !== 'string' || node.h.length !== list.length * 32) {
    throw new StoreError('store damaged: a trie leaf has the wrong number of hashes for its entries', '', { hint: DAMAGE_HINT });
  }
  for (let i = 1; i < list.length; i += 2) {
    if (!Array.isArray(list[i])) throw new StoreError(`store damaged: a trie leaf has a malformed value for ${String(list[i - 1])}`, '', { hint: DAMAGE_HINT });
  }
}

/** A hashed leaf's value at list position `i`, whole again: `[hash, …rest]`. */
function hashedValue(node: HashedLeaf, i: number): Json {
  const rest = node.a[i + 1];
  if (!Array.isArray(rest)) throw new StoreError(`store damaged: a trie leaf has a malformed value for ${String(node.a[i])}`, '', { hint: DAMAGE_HINT });
  return [leafHashAt(node, i), ...rest];
}

/** The value under `key` in a leaf, or undefined. */
function leafGet(node: LeafNode, key: string): Json | undefined {
  if ('l' in node) return Object.hasOwn(node.l, key) ? node.l[key] : undefined;
  const list = node.a;
  for (let i = 0; i < list.length; i += 2) if (list[i] === key) return isHashedLeaf(node) ? hashedValue(node, i) : list[i + 1];
  return undefined;
}

/** Calls `visit` with every entry of a leaf (values shared, except a hashed leaf's: built whole). */
export function leafEach(node: LeafNode, visit: (key: string, value: Json) => void): void {
  if ('l' in node) {
    for (const key of Object.keys(node.l)) visit(key, node.l[key] as Json);
    return;
  }
  const list = node.a;
  if (isHashedLeaf(node)) {
    for (let i = 0; i < list.length; i += 2) visit(list[i] as string, hashedValue(node, i));
    return;
  }
  for (let i = 0; i < list.length; i += 2) visit(list[i] as string, list[i + 1] as Json);
}

/** The value under `key`, or undefined (the returned value is shared: copy it before handing it out). */
export function hamtGet(source: NodeSource, root: string | undefined, key: string): Json | undefined {
  if (root === undefined) return undefined;
  let hash: string | undefined;
  let node = source.node(root);
  for (let depth = 0; ; depth += 1) {
    if (isLeaf(node)) return leafGet(node, key);
    hash ??= keyHash(key);
    const child = node.n[hash[depth] as string];
    if (child === undefined) return undefined;
    node = source.node(child);
  }
}

/** Every entry of the trie, unsorted (values shared: copy before handing out). */
export function hamtEntries(source: NodeSource, root: string | undefined): Array<[string, Json]> {
  const out: Array<[string, Json]> = [];
  if (root === undefined) return out;
  const visit = (hash: string): void => {
    const node = source.node(hash);
    if (isLeaf(node)) {
      leafEach(node, (key, value) => out.push([key, value]));
    } else {
      for (const digit of Object.keys(node.n)) visit(node.n[digit] as string);
    }
  };
  visit(root);
  return out;
}

/** Calls `visit` for every node hash of the trie (depth first, parents before children). */
export function hamtWalk(source: NodeSource, root: string, visit: (hash: string, node: HamtNode) => boolean | void): void {
  const node = source.node(root);
  if (visit(root, node) === false) return;
  if (!isLeaf(node)) for (const digit of Object.keys(node.n)) hamtWalk(source, node.n[digit] as string, visit);
}

export const DELETE: unique symbol = Symbol('delete');
export interface Change {
  key: string;
  /** keyHash(key) */
  hash: string;
  value: Json | typeof DELETE;
}

export function makeChange(key: string, value: Json | typeof DELETE): Change {
  return { key, hash: keyHash(key), value };
}

/** True for a value a hashed leaf can hold: a list headed by a 64-hex hash. */
function headedByHash(value: Json | undefined): value is Json[] {
  return Array.isArray(value) && typeof value[0] === 'string' && value[0].length === 64 && HASH_RE.test(value[0]);
}

function emitLeaf(entries: Map<string, Json>, emit: Emit): string {
  const keys = [...entries.keys()].sort();
  const a: Json[] = [];
  let hashed = keys.length > 0;
  for (const key of keys) {
    if (!headedByHash(entries.get(key))) {
      hashed = false;
      break;
    }
  }
  if (!hashed) {
    for (const key of keys) a.push(key, entries.get(key) as Json);
    return emit({ a });
  }
  let h = '';
  for (const key of keys) {
    const value = entries.get(key) as Json[];
    h += value[0] as string;
    a.push(key, value.slice(1));
  }
  return emit({ a, h });
}

function emitInner(children: Map<string, string>, emit: Emit): string {
  const n: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const digit of [...children.keys()].sort()) n[digit] = children.get(digit) as string;
  return emit({ n });
}

/** Builds a subtree at `depth` holding exactly `entries` (splitting as needed). */
function build(entries: Map<string, Json>, depth: number, emit: Emit, hashes?: Map<string, string>): string | undefined {
  if (entries.size === 0) return undefined;
  if (entries.size <= LEAF_MAX || depth >= MAX_DEPTH) return emitLeaf(entries, emit);
  const groups = new Map<string, Map<string, Json>>();
  for (const [key, value] of entries) {
    const digit = (hashes?.get(key) ?? keyHash(key))[depth] as string;
    let group = groups.get(digit);
    if (!group) groups.set(digit, (group = new Map()));
    group.set(key, value);
  }
  const children = new Map<string, string>();
  for (const [digit, group] of groups) {
    const child = build(group, depth + 1, emit, hashes);
    if (child !== undefined) children.set(digit, child);
  }
  return emitInner(children, emit);
}

function leafEntries(node: LeafNode): Map<string, Json> {
  const entries = new Map<string, Json>();
  leafEach(node, (key, value) => entries.set(key, value));
  return entries;
}

/**
 * Applies `changes` to the trie rooted at `root` (undefined = empty) and returns
 * the new root hash (undefined when the trie became empty). New nodes go to
 * `emit`; untouched subtrees keep their hashes.
 */
export function hamtApply(
  source: NodeSource,
  root: string | undefined,
  changes: Change[],
  emit: Emit,
  depth = 0,
): string | undefined {
  if (changes.length === 0) return root;
  const node: HamtNode = root === undefined ? { a: [] } : source.node(root);
  if (isLeaf(node)) {
    const entries = leafEntries(node);
    const hashes = new Map<string, string>();
    for (const change of changes) {
      hashes.set(change.key, change.hash);
      if (change.value === DELETE) entries.delete(change.key);
      else entries.set(change.key, change.value);
    }
    return build(entries, depth, emit, hashes);
  }
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const digit = change.hash[depth] as string;
    let group = groups.get(digit);
    if (!group) groups.set(digit, (group = []));
    group.push(change);
  }
  const children = new Map<string, string>(Object.entries(node.n));
  let shrank = false;
  for (const [digit, group] of groups) {
    const next = hamtApply(source, children.get(digit), group, emit, depth + 1);
    if (next === undefined) children.delete(digit);
    else children.set(digit, next);
    if (group.some((c) => c.value === DELETE)) shrank = true;
  }
  if (children.size === 0) return undefined;
  if (shrank) {
    // Merge small sibling leaves back into one leaf, so deletions do not leave a sparse tree.
    const merged = new Map<string, Json>();
    let mergeable = true;
    for (const child of children.values()) {
      const childNode = source.node(child);
      if (!isLeaf(childNode)) {
        mergeable = false;
        break;
      }
      leafEach(childNode, (key, value) => merged.set(key, value));
      if (merged.size > MERGE_MAX) {
        mergeable = false;
        break;
      }
    }
    if (mergeable) return emitLeaf(merged, emit);
  }
  return emitInner(children, emit);
}

/**
 * The entries that differ between two tries: key → [value in a, value in b]
 * (undefined where absent). Subtrees with the same hash are skipped, so the cost
 * follows the number of differences, not the size of the tries.
 */
export function hamtDiff(
  source: NodeSource,
  a: string | undefined,
  b: string | undefined,
): Map<string, [Json | undefined, Json | undefined]> {
  const out = new Map<string, [Json | undefined, Json | undefined]>();
  const visit = (x: string | undefined, y: string | undefined): void => {
    if (x === y) return;
    const nx = x === undefined ? undefined : source.node(x);
    const ny = y === undefined ? undefined : source.node(y);
    if (nx && ny && !isLeaf(nx) && !isLeaf(ny)) {
      for (const digit of new Set([...Object.keys(nx.n), ...Object.keys(ny.n)])) visit(nx.n[digit], ny.n[digit]);
      return;
    }
    // A leaf on either side (or one side absent): compare the entries of both subtrees.
    const left = new Map(x === undefined ? [] : hamtEntries(source, x));
    const right = new Map(y === undefined ? [] : hamtEntries(source, y));
    for (const [key, value] of left) {
      const other = right.get(key);
      if (other === undefined || JSON.stringify(other) !== JSON.stringify(value)) out.set(key, [value, other]);
    }
    for (const [key, value] of right) if (!left.has(key)) out.set(key, [undefined, value]);
  };
  visit(a, b);
  return out;
}
