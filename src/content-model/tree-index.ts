/** Three-way page-tree merge (tree-merge.ts): indexing a tree by id, field-by-field merges, sibling order. */
import { diffSequences, mergeSequences } from './diff3.js';
import type { ContentPage, ContentTree, PageMeta } from './model.js';
import type { FieldConflict } from './tree-types.js';

// ---------------------------------------------------------------------------
// Helpers

export type Rec = Record<string, unknown>;

/** Page fields that are not compared as metadata. */
export const NOT_META = new Set(['id', 'pages', 'markdown', 'git']);

export const rec = (x: object): Rec => x as Rec;

export function bytesEqual(x: Uint8Array, y: Uint8Array): boolean {
  if (x === y) return true;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function isPlainObject(x: unknown): x is Rec {
  if (typeof x !== 'object' || x === null || Array.isArray(x) || ArrayBuffer.isView(x)) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** Structural equality of JSON-like values; a key holding `undefined` counts as absent. */
export function deepEqual(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
    return typeof x === 'number' && typeof y === 'number' && Number.isNaN(x) && Number.isNaN(y);
  }
  if (x instanceof Uint8Array || y instanceof Uint8Array) {
    return x instanceof Uint8Array && y instanceof Uint8Array && bytesEqual(x, y);
  }
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!deepEqual(x[i], y[i])) return false;
    return true;
  }
  const xr = x as Rec;
  const yr = y as Rec;
  let nx = 0;
  for (const k of Object.keys(xr)) {
    if (xr[k] === undefined) continue;
    nx++;
    if (!deepEqual(xr[k], yr[k])) return false;
  }
  let ny = 0;
  for (const k of Object.keys(yr)) if (yr[k] !== undefined) ny++;
  return nx === ny;
}

function sameSeq(x: readonly string[], y: readonly string[]): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** Own keys of the given records (one to three), in first-seen order, without the excluded ones. */
export function unionKeys(records: readonly Rec[], exclude: ReadonlySet<string>): string[] {
  const keys: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as Rec;
    for (const k of Object.keys(r)) {
      if (exclude.has(k)) continue;
      let seen = false;
      for (let j = 0; j < i && !seen; j++) seen = Object.hasOwn(records[j] as Rec, k);
      if (!seen) keys.push(k);
    }
  }
  return keys;
}

/** Metadata fields (and `markdown`) that differ between two versions of a page; `git` is not compared. */
export function changedFields(x: PageMeta & { markdown?: string }, y: PageMeta & { markdown?: string }): string[] {
  const fields: string[] = [];
  const xr = rec(x);
  const yr = rec(y);
  for (const k of unionKeys([xr, yr], NOT_META)) if (!deepEqual(xr[k], yr[k])) fields.push(k);
  if (x.markdown !== y.markdown) fields.push('markdown');
  return fields;
}

/** `changedFields(x, y).length === 0`, without allocating. */
export function sameContent(x: PageMeta & { markdown?: string }, y: PageMeta & { markdown?: string }): boolean {
  if (x === y) return true;
  if (x.markdown !== y.markdown) return false;
  const xr = rec(x);
  const yr = rec(y);
  for (const k of Object.keys(xr)) if (!NOT_META.has(k) && !deepEqual(xr[k], yr[k])) return false;
  for (const k of Object.keys(yr)) if (!NOT_META.has(k) && !Object.hasOwn(xr, k) && yr[k] !== undefined) return false;
  return true;
}

/** Three-way choice without conflicts: ours wins a disagreement. */
export function pickOurs<T>(b: T, o: T, t: T): T {
  if (deepEqual(o, t) || !deepEqual(o, b)) return o;
  return t;
}

/**
 * Three-way merge of one value. Plain objects changed on both sides merge per
 * key when `nested` (used for `layout`); conflicts are recorded by name.
 */
export function mergeValue(field: string, b: unknown, o: unknown, t: unknown, out: FieldConflict[], nested: boolean): unknown {
  if (deepEqual(o, t)) return o;
  if (deepEqual(o, b)) return t;
  if (deepEqual(t, b)) return o;
  const objOrAbsent = (v: unknown): boolean => v === undefined || isPlainObject(v);
  if (nested && objOrAbsent(b) && objOrAbsent(o) && objOrAbsent(t)) {
    const br = (b ?? {}) as Rec;
    const or = (o ?? {}) as Rec;
    const tr = (t ?? {}) as Rec;
    const merged: Rec = {};
    for (const k of unionKeys([or, tr, br], new Set())) {
      const v = mergeValue(`${field}.${k}`, br[k], or[k], tr[k], out, false);
      if (v !== undefined) merged[k] = v;
    }
    return merged;
  }
  out.push({ field, base: b, ours: o, theirs: t });
  return o;
}

/** Sub-objects merged per key rather than as a whole. */
export const NESTED_FIELDS = new Set(['layout']);

// ---------------------------------------------------------------------------
// Indexing

export interface PageEntry {
  page: ContentPage;
  parent: string | null;
  index: number;
}

export interface TreeIndex {
  pages: Map<string, PageEntry>;
  /** Children ids per parent id (`null`: the root), for every page of the tree. */
  children: Map<string | null, string[]>;
  /** Page ids, depth-first. */
  order: string[];
  /** Slug paths computed so far (see `pathOf`). */
  paths: Map<string, string>;
}

export function indexTree(tree: ContentTree): TreeIndex {
  const pages = new Map<string, PageEntry>();
  const children = new Map<string | null, string[]>();
  const order: string[] = [];
  const visit = (list: readonly ContentPage[], parent: string | null): void => {
    const ids: string[] = [];
    children.set(parent, ids);
    for (const page of list) {
      if (pages.has(page.id)) continue; // a duplicate id: the first one counts
      pages.set(page.id, { page, parent, index: ids.length });
      order.push(page.id);
      ids.push(page.id);
      visit(page.pages, page.id);
    }
  };
  visit(tree.pages, null);
  return { pages, children, order, paths: new Map() };
}

/** The page's path of slugs from the root, as `walkPages` computes it (computed on demand: only changed pages need one). */
export function pathOf(S: TreeIndex, id: string): string {
  const hit = S.paths.get(id);
  if (hit !== undefined) return hit;
  const e = S.pages.get(id);
  if (!e) return '';
  const prefix = e.parent === null ? '' : pathOf(S, e.parent);
  const slug = e.page.slug;
  const path = slug ? (prefix ? `${prefix}/${slug}` : slug) : prefix;
  S.paths.set(id, path);
  return path;
}

/**
 * Pages of `side` under `parent` that are reordered relative to `base`: among
 * the children present under `parent` in both, those outside a longest common
 * subsequence of the two orders. Cached per parent.
 */
export function reorderings(base: TreeIndex, side: TreeIndex): (parent: string | null) => ReadonlySet<string> {
  const cache = new Map<string | null, ReadonlySet<string>>();
  const none: ReadonlySet<string> = new Set();
  return (parent) => {
    const hit = cache.get(parent);
    if (hit) return hit;
    const sKids = side.children.get(parent) ?? [];
    const bKids = base.children.get(parent) ?? [];
    let result = none;
    if (!sameSeq(sKids, bKids)) {
      const sCommon = sKids.filter((id) => base.pages.get(id)?.parent === parent);
      const bCommon = bKids.filter((id) => side.pages.get(id)?.parent === parent);
      if (!sameSeq(sCommon, bCommon)) {
        const moved = new Set<string>();
        for (const h of diffSequences(bCommon, sCommon)) {
          for (let j = h.bStart; j < h.bEnd; j++) moved.add(sCommon[j] as string);
        }
        result = moved;
      }
    }
    cache.set(parent, result);
    return result;
  };
}

/**
 * Merges the order of one list of siblings (pages under one parent, or files).
 * `finalIds`: exactly the ids the result holds. `theirsPlaced(id)`: the id's
 * position comes from theirs (added or moved there by theirs).
 */
export function mergeOrder(
  baseSeq: readonly string[],
  oursSeq: readonly string[],
  theirsSeq: readonly string[],
  finalIds: readonly string[],
  theirsPlaced: (id: string) => boolean,
): string[] {
  const final = new Set(finalIds);
  let start: readonly string[];
  if (sameSeq(oursSeq, baseSeq)) start = theirsSeq;
  else if (sameSeq(theirsSeq, baseSeq)) start = oursSeq;
  else start = mergeSequences(baseSeq, oursSeq, theirsSeq).flatMap((r) => (r.kind === 'ok' ? r.items : r.ours));
  if (sameSeq(start, finalIds)) return finalIds.slice();

  const placed = new Set<string>();
  const list: string[] = [];
  for (const id of start) {
    if (final.has(id) && !placed.has(id)) {
      placed.add(id);
      list.push(id);
    }
  }
  if (placed.size === final.size) return list;

  // Pages missing from the sequence merge: right after their previous sibling on the side that placed them.
  const after = new Map<string | null, string[]>();
  const anchor = (seq: readonly string[], want: (id: string) => boolean): void => {
    let prev: string | null = null;
    for (const id of seq) {
      if (!final.has(id)) continue;
      if (!placed.has(id) && want(id)) {
        placed.add(id);
        const bucket = after.get(prev);
        if (bucket) bucket.push(id);
        else after.set(prev, [id]);
      }
      if (placed.has(id)) prev = id;
    }
  };
  anchor(theirsSeq, theirsPlaced);
  anchor(oursSeq, (id) => !theirsPlaced(id));
  anchor(theirsSeq, () => true);
  anchor(oursSeq, () => true);
  const tail = finalIds.filter((id) => !placed.has(id));

  const out: string[] = [];
  const emitFollowers = (a: string | null): void => {
    const first = after.get(a);
    if (!first) return;
    const stack = first.slice().reverse();
    while (stack.length > 0) {
      const id = stack.pop() as string;
      out.push(id);
      const next = after.get(id);
      if (next) for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as string);
    }
  };
  emitFollowers(null);
  for (const id of list) {
    out.push(id);
    emitFollowers(id);
  }
  for (const id of tail) out.push(id);
  return out;
}

export function withoutChildren(page: ContentPage): Rec {
  const { pages: _children, ...rest } = page;
  return rest as Rec;
}

export function setOrDelete(r: Rec, key: string, value: unknown): void {
  if (value === undefined) delete r[key];
  else r[key] = value;
}

export function withGit(node: Rec, git: unknown): Rec {
  setOrDelete(node, 'git', git);
  return node;
}
