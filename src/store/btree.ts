/**
 * A persistent B+tree of immutable JSON nodes, kept in key order: one per table.
 *
 * - Leaf  `{"k": [key, …], "v": [value, …]}`: rows in ascending code-unit key order.
 * - Inner `{"k": [separator, …], "c": [childHash, …]}`: child i holds the keys in
 *   [k[i], k[i+1]) (child 0 also holds everything below k[1]; k[0] is informative).
 *   A separator is any string above every key to its left and at most the first key of
 *   its child: where a leaf is cut, it is the shortest prefix of the right piece's first
 *   key that is above the left piece's last key (`separator`), as B+trees truncate
 *   suffixes. Readers only compare keys with it (older versions read such trees as they are).
 *
 * Nodes are cut by size, not by count: a node whose JSON grows past NODE_MAX_BYTES
 * is split into pieces of about NODE_TARGET_BYTES, and one that shrinks below
 * NODE_MIN_BYTES merges with a neighbour (inner nodes at half those sizes: INNER_SCALE).
 * So a write copies one leaf and the inner nodes above it (O(log n) bytes, a few KiB
 * each), a lookup reads O(log n) nodes
 * and a range scan reads O(log n + k) rows. All leaves are at the same depth.
 * Like hamt.ts, this module never touches files: callers give it a `BTreeSource`
 * to load nodes and an `emit` to store new ones.
 */
import type { Json } from './types.js';

export interface BLeaf {
  k: string[];
  v: Json[];
}
export interface BInner {
  k: string[];
  c: string[];
}
export type BNode = BLeaf | BInner;

/** A node whose JSON grows past this many bytes is split. */
export const NODE_MAX_BYTES = 4096;
/** Split pieces aim at this size. */
export const NODE_TARGET_BYTES = 2048;
/** A node smaller than this merges with a neighbour. */
export const NODE_MIN_BYTES = 1024;
/**
 * `cut`'s packLeft fills nodes to this, not to NODE_MAX_BYTES: a row inserted later
 * among packed rows (an update, a key out of time order) then fits without cutting the
 * node and its parent in two.
 */
const PACK_FILL_BYTES = NODE_MAX_BYTES - NODE_MAX_BYTES / 8;
/**
 * Inner nodes are cut at half a leaf's sizes: a write rewrites the inner node above its leaf
 * whole, whatever it changed in it (a child's hash), so its size is what every commit pays per
 * level; with short separators (`separator`) half the bytes still hold ~20 children.
 */
const INNER_SCALE = 2;
const LEAF_LIMITS = { max: NODE_MAX_BYTES, target: NODE_TARGET_BYTES, min: NODE_MIN_BYTES, fill: PACK_FILL_BYTES } as const;
const INNER_LIMITS = {
  max: NODE_MAX_BYTES / INNER_SCALE,
  target: NODE_TARGET_BYTES / INNER_SCALE,
  min: NODE_MIN_BYTES / INNER_SCALE,
  fill: PACK_FILL_BYTES / INNER_SCALE,
} as const;
const limits = (leaf: boolean) => (leaf ? LEAF_LIMITS : INNER_LIMITS);

const HASH_RE = /^[0-9a-f]{64}$/;

export function isBLeaf(node: BNode): node is BLeaf {
  return 'v' in node;
}

/** True when `value` has the shape of a B+tree node (cheap: used to tell tables in the older HAMT form apart). */
export function looksLikeBNode(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Array.isArray((value as { k?: unknown }).k);
}

/** Checks the shape of a parsed node; returns an explanation when it is not one. */
export function bnodeShapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a table node';
  const node = value as Record<string, unknown>;
  const names = Object.keys(node);
  if (names.length !== 2 || !Array.isArray(node.k)) return 'not a table node';
  const keys = node.k as unknown[];
  for (let i = 0; i < keys.length; i += 1) {
    if (typeof keys[i] !== 'string') return 'key that is not a string';
    if (i > 0 && !((keys[i - 1] as string) < (keys[i] as string))) return 'keys out of order';
  }
  if (Array.isArray(node.v)) return node.v.length === keys.length ? undefined : 'leaf with keys and values of different lengths';
  if (Array.isArray(node.c)) {
    if (node.c.length !== keys.length || keys.length === 0) return 'inner node without children';
    for (const child of node.c) if (typeof child !== 'string' || !HASH_RE.test(child)) return 'inner node with a malformed child';
    return undefined;
  }
  return 'not a table node';
}

export interface BTreeSource {
  /** The node stored under `hash` (verified; throws StoreError when missing or damaged). Must not be mutated. */
  bnode(hash: string): BNode;
}

/**
 * Stores a new node and returns its hash. `leafText`, when the sink has it, stores a leaf
 * given as its JSON text (`{"k":[…],"v":[…]}`, exactly what JSON.stringify of the leaf
 * writes) and `values`, the text between the brackets of its "v": a leaf cut from the
 * rows of a commit is then written from the rows' text, never parsed into values only to
 * be written back (a fresh search index: ~15 MB of rows parsed into arrays of strings,
 * then stringified again, the garbage that made a 4,000-page import's heap grow most).
 * `leaf` gives the parsed leaf, for a sink that keeps it (a small commit's leaves are
 * cached): the rows it kept are shared, only the changed rows' text is parsed.
 */
export type BEmit = ((node: BNode) => string) & { leafText?: (text: string, values: string, leaf: () => BLeaf) => string };

// ─── Searching ───────────────────────────────────────────────────────────────

/**
 * The shortest prefix of `right` above `left` (`left` < `right`): a separator between a leaf
 * ending at `left` and one starting at `right`. Table keys share long prefixes (an
 * organization, a space id) and differ in a few characters of an id: inner nodes, a
 * create's most rewritten objects after its leaves, carried them whole (~1/3 of their bytes).
 */
export function separator(left: string, right: string): string {
  let i = 0;
  while (i < left.length && left.charCodeAt(i) === right.charCodeAt(i)) i += 1;
  return right.slice(0, i + 1);
}

/** Index of the first key ≥ `key`. */
function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first key > `key`. */
function upperBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The child of an inner node whose range holds `key`. */
export function childFor(node: BInner, key: string): number {
  return Math.max(0, upperBound(node.k, key) - 1);
}

/** The value under `key`, or undefined (shared with the node: copy it before handing it out). */
export function btreeGet(source: BTreeSource, root: string | undefined, key: string): Json | undefined {
  if (root === undefined) return undefined;
  let node = source.bnode(root);
  while (!isBLeaf(node)) node = source.bnode(node.c[childFor(node, key)] as string);
  const index = lowerBound(node.k, key);
  return node.k[index] === key ? node.v[index] : undefined;
}

/** Rows with key ≥ `from` (all when undefined), ascending. */
function* ascending(source: BTreeSource, hash: string, from: string | undefined): Generator<[string, Json]> {
  const node = source.bnode(hash);
  if (isBLeaf(node)) {
    for (let i = from === undefined ? 0 : lowerBound(node.k, from); i < node.k.length; i += 1) {
      yield [node.k[i] as string, node.v[i] as Json];
    }
    return;
  }
  const start = from === undefined ? 0 : childFor(node, from);
  for (let i = start; i < node.c.length; i += 1) yield* ascending(source, node.c[i] as string, i === start ? from : undefined);
}

/** Rows with key < `below` (all when undefined), descending. */
function* descending(source: BTreeSource, hash: string, below: string | undefined): Generator<[string, Json]> {
  const node = source.bnode(hash);
  if (isBLeaf(node)) {
    for (let i = (below === undefined ? node.k.length : lowerBound(node.k, below)) - 1; i >= 0; i -= 1) {
      yield [node.k[i] as string, node.v[i] as Json];
    }
    return;
  }
  const start = below === undefined ? node.c.length - 1 : Math.max(0, lowerBound(node.k, below) - 1);
  for (let i = start; i >= 0; i -= 1) yield* descending(source, node.c[i] as string, i === start ? below : undefined);
}

/** The smallest string greater than every string that starts with `prefix` (undefined: none exists). */
export function prefixEnd(prefix: string): string | undefined {
  let end = prefix;
  while (end.length > 0 && end.charCodeAt(end.length - 1) === 0xffff) end = end.slice(0, -1);
  if (end.length === 0) return undefined;
  return end.slice(0, -1) + String.fromCharCode(end.charCodeAt(end.length - 1) + 1);
}

export interface BScan {
  prefix?: string;
  after?: string;
  limit?: number;
  reverse?: boolean;
}

/**
 * The rows a `StoreReader.scan` selects, walking only the nodes on the way to the
 * range and the rows in it (values shared: copy before handing out).
 */
export function btreeScan(source: BTreeSource, root: string | undefined, options: BScan = {}): Array<[string, Json]> {
  const out: Array<[string, Json]> = [];
  const limit = options.limit ?? Infinity;
  if (root === undefined || limit <= 0) return out;
  const prefix = options.prefix ?? '';
  const { after } = options;
  if (options.reverse) {
    const end = prefix === '' ? undefined : prefixEnd(prefix);
    const below = after === undefined ? end : end === undefined || after < end ? after : end;
    for (const row of descending(source, root, below)) {
      if (!row[0].startsWith(prefix)) break;
      out.push(row);
      if (out.length >= limit) break;
    }
    return out;
  }
  const from = after !== undefined && after >= prefix ? after : prefix;
  for (const row of ascending(source, root, from === '' ? undefined : from)) {
    if (row[0] === after) continue;
    if (!row[0].startsWith(prefix)) break;
    out.push(row);
    if (out.length >= limit) break;
  }
  return out;
}

/** Every row of the tree in key order (values shared). */
export function btreeEntries(source: BTreeSource, root: string | undefined): Array<[string, Json]> {
  return root === undefined ? [] : [...ascending(source, root, undefined)];
}

/** Calls `visit` for every node hash of the tree (parents before children); `false` skips the subtree. */
export function btreeWalk(source: BTreeSource, root: string, visit: (hash: string, node: BNode) => boolean | void): void {
  const node = source.bnode(root);
  if (visit(root, node) === false) return;
  if (!isBLeaf(node)) for (const child of node.c) btreeWalk(source, child, visit);
}

// ─── Writing ─────────────────────────────────────────────────────────────────

/** A change to one row: its new JSON text, or null to delete it. */
export interface BChange {
  key: string;
  /** The value's JSON text (its size decides where nodes split), or null to delete. */
  text: string | null;
}

/** A built node, as its parent sees it. */
interface Ref {
  key: string;
  hash: string;
  bytes: number;
  node: BNode | undefined;
  /** Built by this apply as text (`BEmit.leafText`): new like a ref with its node, read back by hash when merged. */
  built?: true;
  /**
   * Built from a node by adding rows or children only (never by removing any): it is not
   * merged with a neighbour even when small. The small node an append at a table's right
   * edge starts (see `cut`'s packLeft) stays, and fills up with the next appends.
   */
  grown?: true;
}

/** JSON bytes one entry adds to a node (key, quotes, commas; the value's text for leaves, a hash for inner nodes). */
const entryBytes = (key: string, valueBytes: number) => key.length + valueBytes + 6;
const HASH_ENTRY_BYTES = 66;

/**
 * The JSON text of rows this process parsed into a leaf it built from text (`textLeaf`),
 * keyed by the row's value: the next commit that rewrites the leaf (a create through
 * `serve` appends to the same dozen leaves, commit after commit) joins the kept rows'
 * text instead of stringifying each again. Rows are never mutated (BTreeSource), so the
 * text stays true; it lives as long as the cached leaf that holds the row.
 */
const rowTexts = new WeakMap<object, string>();

function textOf(value: Json): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  return rowTexts.get(value) ?? JSON.stringify(value);
}

/**
 * The size (as `cut` counts it: 12 + the entries' `entryBytes`) of nodes this process
 * built or measured. A leaf is immutable, so its size is measured once: a write that
 * changes a few rows of a leaf whose size is known measures only those rows, not every
 * row it keeps (a JSON.stringify of each: half of what a small commit's leaves cost).
 */
const nodeBytes = new WeakMap<BNode, number>();

/**
 * Cuts sorted entries into nodes of about NODE_TARGET_BYTES (one node when they fit in
 * NODE_MAX_BYTES). `packLeft` (entries appended at the right of a node: ids and times
 * that only grow) fills each node up to PACK_FILL_BYTES from the left instead: an even
 * cut there left half-empty nodes that no write ever fills again, so a time-ordered
 * table had twice the leaves, and each append rewrote a leaf twice the size it needs.
 * `texts` (leaves, when `emit` takes text): each row's JSON text, for rows not parsed
 * (`items` holds null there) and rows already measured. `before`: the last key of the leaf
 * to the left of the first piece, when it stays (its separator is then short too).
 */
function cut(
  keys: string[],
  items: Array<Json | string>,
  sizes: number[],
  leaf: boolean,
  emit: BEmit,
  packLeft = false,
  texts?: Array<string | undefined>,
  before?: string,
): Ref[] {
  if (keys.length === 0) return [];
  const total = sizes.reduce((a, b) => a + b, 0);
  const pieces: Array<[number, number]> = [];
  const { max, target, fill } = limits(leaf);
  if (total <= max) pieces.push([0, keys.length]);
  else if (packLeft) {
    let start = 0;
    let bytes = 12;
    for (let i = 0; i < keys.length; i += 1) {
      const size = sizes[i] as number;
      if (i > start && bytes + size > fill) {
        pieces.push([start, i]);
        start = i;
        bytes = 12;
      }
      bytes += size;
    }
    pieces.push([start, keys.length]);
  } else {
    const count = Math.ceil(total / target);
    const share = total / count;
    let start = 0;
    let bytes = 0;
    for (let i = 0; i < keys.length; i += 1) {
      bytes += sizes[i] as number;
      if (bytes >= share && i + 1 < keys.length && pieces.length < count - 1) {
        pieces.push([start, i + 1]);
        start = i + 1;
        bytes = 0;
      }
    }
    pieces.push([start, keys.length]);
  }
  const leafText = leaf && texts !== undefined ? emit.leafText : undefined;
  return pieces.map(([from, to]) => {
    const k = keys.slice(from, to);
    let ref: Ref;
    if (leafText !== undefined) {
      let bytes = 12;
      for (let i = from; i < to; i += 1) bytes += sizes[i] as number;
      ref = textLeaf(k, items.slice(from, to) as Json[], (texts as Array<string | undefined>).slice(from, to), bytes, leafText);
    } else {
      const node: BNode = leaf ? { k, v: items.slice(from, to) as Json[] } : { k, c: items.slice(from, to) as string[] };
      let bytes = 12;
      for (let i = from; i < to; i += 1) bytes += sizes[i] as number;
      nodeBytes.set(node, bytes);
      ref = { key: k[0] as string, hash: emit(node), bytes, node };
    }
    // Between two leaves the last key on the left is known: the parent routes by a short
    // separator (an inner piece's left neighbour ends at a key nobody here knows).
    const left = from > 0 ? keys[from - 1] : before;
    if (leaf && left !== undefined) ref.key = separator(left, ref.key);
    if (packLeft) ref.grown = true;
    return ref;
  });
}

/**
 * A leaf written from its rows' text (`BEmit.leafText`): `texts[i]` is row i's JSON text, or
 * undefined where `values[i]` is parsed (its text then from `textOf`); `values[i]` is null
 * where only the text is known (a changed row: parsed only if the sink asks for the leaf).
 */
function textLeaf(keys: string[], values: Json[], texts: Array<string | undefined>, bytes: number, leafText: NonNullable<BEmit['leafText']>): Ref {
  const parts: string[] = [];
  for (let i = 0; i < keys.length; i += 1) parts.push(texts[i] ?? textOf(values[i] as Json));
  const joined = parts.join(',');
  const leaf = (): BLeaf => {
    // The rows known as text only, parsed in one call (a parse per row cost a big commit's
    // kept leaves thousands of calls).
    const unparsed: string[] = [];
    for (let i = 0; i < values.length; i += 1) if (values[i] === null) unparsed.push(parts[i] as string);
    const parsed = unparsed.length === 0 ? [] : (JSON.parse(`[${unparsed.join(',')}]`) as Json[]);
    let next = 0;
    const v = values.map((value, i) => {
      if (value !== null) return value;
      const row = parsed[next++] as Json;
      if (typeof row === 'object' && row !== null) rowTexts.set(row, parts[i] as string);
      return row;
    });
    const node: BLeaf = { k: keys, v };
    nodeBytes.set(node, bytes);
    return node;
  };
  return { key: keys[0] as string, hash: leafText(`{"k":${JSON.stringify(keys)},"v":[${joined}]}`, joined, leaf), bytes, node: undefined, built: true };
}

/**
 * `applyToLeaf` on a leaf of known size whose rows still fit one node after the changes:
 * measures only the rows replaced or deleted; undefined when the leaf must be cut.
 */
function applyToSmallLeaf(node: BLeaf, known: number, changes: BChange[], emit: BEmit): Ref[] | undefined {
  // Where `emit` takes leaves as text, the changed rows stay text (see textLeaf).
  const leafText = emit.leafText;
  const keys: string[] = [];
  const values: Json[] = [];
  const texts: Array<string | undefined> = [];
  let bytes = known;
  let i = 0;
  for (const change of changes) {
    while (i < node.k.length && (node.k[i] as string) < change.key) {
      keys.push(node.k[i] as string);
      values.push(node.v[i] as Json);
      texts.push(undefined);
      i += 1;
    }
    if (i < node.k.length && node.k[i] === change.key) {
      bytes -= entryBytes(change.key, textOf(node.v[i] as Json).length); // replaced or deleted
      i += 1;
    }
    if (change.text !== null) {
      bytes += entryBytes(change.key, change.text.length);
      if (bytes > NODE_MAX_BYTES) return undefined;
      keys.push(change.key);
      if (leafText !== undefined) {
        values.push(null);
        texts.push(change.text);
      } else values.push(JSON.parse(change.text) as Json);
    }
  }
  if (bytes > NODE_MAX_BYTES) return undefined;
  for (; i < node.k.length; i += 1) {
    keys.push(node.k[i] as string);
    values.push(node.v[i] as Json);
    texts.push(undefined);
  }
  if (keys.length === 0) return [];
  let ref: Ref;
  if (leafText !== undefined) ref = textLeaf(keys, values, texts, bytes, leafText);
  else {
    const leaf: BLeaf = { k: keys, v: values };
    nodeBytes.set(leaf, bytes);
    ref = { key: keys[0] as string, hash: emit(leaf), bytes, node: leaf };
  }
  if (bytes >= known) ref.grown = true;
  return [ref];
}

/** The size of a leaf as `cut` counts it (measured once: `nodeBytes`). */
function leafBytes(node: BLeaf): number {
  let bytes = nodeBytes.get(node);
  if (bytes === undefined) {
    bytes = 12;
    for (let i = 0; i < node.k.length; i += 1) bytes += entryBytes(node.k[i] as string, textOf(node.v[i] as Json).length);
    nodeBytes.set(node, bytes);
  }
  return bytes;
}

/**
 * Changes that only add rows after a leaf's last key (a time-ordered table's appends)
 * overflowing it: the leaf stays as it is (not rewritten, not cut in two) when at least
 * half full, and the new rows start nodes of their own to its right (packLeft).
 */
function appendToLeaf(node: BLeaf, hash: string, changes: BChange[], emit: BEmit): Ref[] | undefined {
  const last = node.k[node.k.length - 1];
  if (last === undefined || !((changes[0] as BChange).key > last)) return undefined;
  if (changes.some((change) => change.text === null)) return undefined;
  const bytes = leafBytes(node);
  if (bytes < NODE_TARGET_BYTES) return undefined;
  const keys = changes.map((change) => change.key);
  const sizes = changes.map((change) => entryBytes(change.key, (change.text as string).length));
  if (sizes.reduce((a, b) => a + b, bytes) <= NODE_MAX_BYTES) return undefined; // still one leaf
  // Rows kept as text where `emit` takes leaves so (see applyToLeaf).
  const texts = emit.leafText === undefined ? undefined : changes.map((change) => change.text as string);
  const values = texts === undefined ? changes.map((change) => JSON.parse(change.text as string) as Json) : changes.map(() => null);
  return [{ key: node.k[0] as string, hash, bytes, node, grown: true }, ...cut(keys, values, sizes, true, emit, true, texts, last)];
}

/**
 * Applies sorted, distinct changes to one leaf's rows (`hash`: the leaf's, undefined for a
 * new tree). Where `emit` takes a leaf as text, the changes' rows stay text (unparsed) and
 * the kept rows' text, measured anyway, is reused.
 */
function applyToLeaf(node: BLeaf, hash: string | undefined, changes: BChange[], emit: BEmit): Ref[] {
  const known = nodeBytes.get(node);
  if (known !== undefined) {
    const small = applyToSmallLeaf(node, known, changes, emit);
    if (small !== undefined) return small;
  }
  if (hash !== undefined) {
    const appended = appendToLeaf(node, hash, changes, emit);
    if (appended !== undefined) return appended;
  }
  const asText = emit.leafText !== undefined;
  const keys: string[] = [];
  const values: Json[] = [];
  const texts: Array<string | undefined> = [];
  const sizes: number[] = [];
  let i = 0;
  const keep = (index: number) => {
    const value = node.v[index] as Json;
    const text = textOf(value);
    keys.push(node.k[index] as string);
    values.push(value);
    if (asText) texts.push(text);
    sizes.push(entryBytes(node.k[index] as string, text.length));
  };
  for (const change of changes) {
    while (i < node.k.length && (node.k[i] as string) < change.key) keep(i++);
    if (i < node.k.length && node.k[i] === change.key) i += 1; // replaced or deleted
    if (change.text !== null) {
      keys.push(change.key);
      if (asText) {
        values.push(null);
        texts.push(change.text);
      } else values.push(JSON.parse(change.text) as Json);
      sizes.push(entryBytes(change.key, change.text.length));
    }
  }
  while (i < node.k.length) keep(i++);
  const refs = cut(keys, values, sizes, true, emit, false, asText ? texts : undefined);
  // Grown as `applyToSmallLeaf` tells it, so a tree's shape does not depend on which sizes were known.
  const only = refs.length === 1 ? (refs[0] as Ref) : undefined;
  if (only !== undefined && only.bytes >= leafBytes(node)) only.grown = true;
  return refs;
}

function refsOf(node: BInner): Ref[] {
  return node.k.map((key, i) => ({ key, hash: node.c[i] as string, bytes: -1, node: undefined }));
}

function nodeOf(source: BTreeSource, ref: Ref): BNode {
  ref.node ??= source.bnode(ref.hash);
  return ref.node;
}

function sizeOf(source: BTreeSource, ref: Ref): number {
  if (ref.bytes < 0) {
    const node = nodeOf(source, ref);
    const known = nodeBytes.get(node);
    if (known !== undefined) return (ref.bytes = known);
    let bytes = 12;
    if (isBLeaf(node)) for (let i = 0; i < node.k.length; i += 1) bytes += entryBytes(node.k[i] as string, textOf(node.v[i] as Json).length);
    else for (const key of node.k) bytes += entryBytes(key, HASH_ENTRY_BYTES);
    ref.bytes = bytes;
    nodeBytes.set(node, bytes);
  }
  return ref.bytes;
}

/** Rebuilds two neighbouring nodes (same level) as one run of nodes. */
function mergePair(source: BTreeSource, left: Ref, right: Ref, emit: BEmit): Ref[] {
  const a = nodeOf(source, left);
  const b = nodeOf(source, right);
  const keys = [...a.k, ...b.k];
  if (isBLeaf(a) && isBLeaf(b)) {
    const values = [...a.v, ...b.v];
    return cut(keys, values, keys.map((key, i) => entryBytes(key, textOf(values[i] as Json).length)), true, emit);
  }
  const children = [...(a as BInner).c, ...(b as BInner).c];
  // The right node's first separator may be stale (informative only): use its parent's.
  keys[a.k.length] = right.key;
  return cut(keys, children, keys.map((key) => entryBytes(key, HASH_ENTRY_BYTES)), false, emit);
}

/** Applies sorted, distinct changes below `hash`; returns the nodes that replace it (same level; maybe none). */
function applyToNode(source: BTreeSource, hash: string, changes: BChange[], emit: BEmit): Ref[] {
  const node = source.bnode(hash);
  if (isBLeaf(node)) return applyToLeaf(node, hash, changes, emit);
  const refs = refsOf(node);
  const next: Ref[] = [];
  let c = 0;
  // Whether every rebuilt child only grew, and whether only the last child was rebuilt
  // (then this node is at the right edge of appends: cut packLeft, see `cut`).
  let grown = true;
  let onlyLast = true;
  for (let i = 0; i < refs.length; i += 1) {
    // The changes that fall in child i: keys below the next separator.
    const limit = i + 1 < refs.length ? (refs[i + 1] as Ref).key : undefined;
    let end = c;
    while (end < changes.length && (limit === undefined || (changes[end] as BChange).key < limit)) end += 1;
    if (end === c) next.push(refs[i] as Ref);
    else {
      const rebuilt = applyToNode(source, (refs[i] as Ref).hash, changes.slice(c, end), emit);
      if (rebuilt.length > 0 && i > 0) (rebuilt[0] as Ref).key = (refs[i] as Ref).key; // keep the separator the parent routes by
      if (rebuilt.length === 0 || rebuilt.some((ref) => ref.grown !== true)) grown = false;
      if (i + 1 < refs.length) onlyLast = false;
      next.push(...rebuilt);
    }
    c = end;
  }
  // Merge nodes that became small into a neighbour, so deletions do not leave a sparse tree.
  for (let i = 0; i < next.length && next.length > 1; ) {
    const ref = next[i] as Ref;
    if ((ref.node === undefined && ref.built !== true) || ref.grown === true || sizeOf(source, ref) >= limits(ref.built === true || isBLeaf(nodeOf(source, ref))).min) {
      i += 1;
      continue;
    }
    const at = i + 1 < next.length ? i : i - 1;
    const merged = mergePair(source, next[at] as Ref, next[at + 1] as Ref, emit);
    if (merged.length > 0 && at > 0) (merged[0] as Ref).key = (next[at] as Ref).key;
    next.splice(at, 2, ...merged);
    i = at + merged.length;
  }
  const built = group(source, next, emit, grown && onlyLast);
  if (grown) for (const ref of built) ref.grown = true;
  return built;
}

/** Packs one level's refs into inner nodes. */
function group(source: BTreeSource, refs: Ref[], emit: BEmit, packLeft = false): Ref[] {
  return cut(
    refs.map((r) => r.key),
    refs.map((r) => r.hash),
    refs.map((r) => entryBytes(r.key, HASH_ENTRY_BYTES)),
    false,
    emit,
    packLeft,
  );
}

/**
 * Applies `changes` (any order; the last change to a key wins) to the tree rooted
 * at `root` (undefined = empty) and returns the new root hash (undefined when the
 * tree became empty). New nodes go to `emit`; untouched subtrees keep their hashes.
 */
export function btreeApply(source: BTreeSource, root: string | undefined, changes: BChange[], emit: BEmit): string | undefined {
  if (changes.length === 0) return root;
  const byKey = new Map<string, BChange>();
  for (const change of changes) byKey.set(change.key, change);
  const sorted = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let level = root === undefined ? applyToLeaf({ k: [], v: [] }, undefined, sorted, emit) : applyToNode(source, root, sorted, emit);
  while (level.length > 1) level = group(source, level, emit);
  if (level.length === 0) return undefined;
  // A root with one child is dropped (the tree shrinks by a level).
  let top = level[0] as Ref;
  for (;;) {
    const node = nodeOf(source, top);
    if (isBLeaf(node) || node.c.length !== 1) return top.hash;
    top = { key: top.key, hash: node.c[0] as string, bytes: -1, node: undefined };
  }
}

/** Builds a tree from rows (any order). */
export function btreeBuild(rows: Iterable<[string, string]>, emit: BEmit): string | undefined {
  const changes: BChange[] = [];
  for (const [key, text] of rows) changes.push({ key, text });
  return btreeApply({ bnode: () => { throw new Error('empty tree has no nodes'); } }, undefined, changes, emit);
}
