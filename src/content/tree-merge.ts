/**
 * Three-way merge and diff of page trees (pure; inputs are never mutated).
 *
 * `mergeTrees(base, ours, theirs)`: for a change-request **merge**, `ours` is
 * the space's current primary content and `theirs` the change request's; for
 * an **update** (pull primary into the CR), `ours` is the CR and `theirs` the
 * primary. Pages and files are matched by `id`.
 *
 * Rules (each has a test in test/content/tree-merge.test.ts):
 *
 * - Existence. Added on one side → added. Added on both sides with the same id
 *   → kept when identical (except `git`), else conflict `added-differently`.
 *   Removed on one side and unchanged on the other → removed; removed on one
 *   side and edited (metadata or body) on the other → conflict
 *   `removed-and-edited`. Removed on one side and only *moved* on the other →
 *   removed (a move is not an edit). A page that the merge keeps under a parent
 *   the merge removes (e.g. a child added on one side under a page removed on
 *   the other) → conflict `parent-removed`.
 * - Position. A page is *moved* on a side when its parent changed, or when,
 *   among the siblings it shares with the base under the same parent, it is
 *   outside a longest common subsequence of the base order (so siblings
 *   shifting because of insertions or removals are not moves). Moved on one
 *   side → that side's parent. Moved on both sides: the same way (same parent
 *   and same previous sibling, counting only siblings present in all three
 *   trees) → fine; otherwise conflict `moved-differently`. Moves that together
 *   would make a page its own ancestor → conflict `move-cycle`.
 * - Sibling order (per parent): the three children lists are merged as id
 *   sequences with the same diff3 rules as text (see `mergeSequences`), so
 *   both sides' insertions and reorderings apply when they do not overlap; in
 *   a contradicting region ours' order is kept, and pages the other side
 *   placed there are inserted right after their previous sibling in that
 *   side's order (at the front when they have none). The result then holds
 *   exactly the pages whose merged parent is that parent.
 * - Metadata (every `PageMeta` field except `id` and `git`, including
 *   unknown ones) merges field by field: changed on one side → taken; changed
 *   on both to the same value → taken; changed differently → conflict `fields`
 *   naming the fields. `layout` merges per option (`layout.width`, …); other
 *   objects (`cover`, `target`, `extra`, …) are compared as a whole.
 * - `markdown` merges with `merge3`; its conflicts → conflict `content` with
 *   the base line ranges.
 * - `git` (blob ref) follows the content it describes: when the merged page's
 *   content (metadata + body) equals both sides', `git` merges like a field
 *   (ours wins a disagreement); when it equals only theirs' (theirs' change
 *   taken whole), theirs' `git`; only ours', ours' `git`; neither (a real
 *   combination of both sides' edits) → `git` is dropped. Hence `git` is
 *   dropped whenever theirs' edit is combined with an edit of ours, and kept
 *   when it came with theirs' change; when theirs' page is taken whole, its
 *   `git` comes along unchanged (so merging into an unchanged primary yields
 *   exactly theirs).
 * - A slug shared by two siblings in the result that were not already
 *   siblings with that slug on one side → conflict `slug-clash`.
 * - Files (by id): added/removed/changed with the same rules; `name` and the
 *   content (`data` bytes; `contentType`, `size`, `dimensions` and `git` follow
 *   the side whose bytes are taken) merge separately.
 *
 * Cost: O(n) passes over maps indexed by id, plus diffs of the children lists
 * and bodies that actually changed.
 */

import { diffSequences, merge3, mergeSequences, type Merge3Conflict } from './diff3.js';
import type { ContentFile, ContentPage, ContentTree, PageMeta } from './model.js';

export type Side = 'ours' | 'theirs';

/** A page-level change (from `diffTrees`). */
export interface PageChange {
  object: 'page';
  /** `moved`: new parent or reordered among its siblings; `renamed`: title or slug; `edited`: body or other metadata. */
  kind: 'added' | 'removed' | 'moved' | 'edited' | 'renamed';
  pageId: string;
  /** Title after the change (before, for `removed`). */
  title: string;
  /** Slug path after the change (before, for `removed`). */
  path: string;
  /** `renamed`: the title before. */
  previousTitle?: string;
  /** `moved`, `renamed`: the path before (when it differs). */
  previousPath?: string;
  /** `renamed`: `title` and/or `slug`; `edited`: the changed fields (`markdown`, `description`, `layout`, …). */
  fields?: string[];
}

/** A file-level change (from `diffTrees`). */
export interface FileChange {
  object: 'file';
  kind: 'added' | 'removed' | 'changed';
  fileId: string;
  /** The file name (after; before, for `removed`). */
  title: string;
  /** The file name (files have no path). */
  path: string;
  /** `changed`: the name before, when renamed. */
  previousName?: string;
  /** `changed`: `name` and/or `data`. */
  fields?: string[];
}

export type Change = PageChange | FileChange;

export interface FieldConflict {
  /** Field name, e.g. `title`, `layout.width`, `data`. */
  field: string;
  base: unknown;
  ours: unknown;
  theirs: unknown;
}

/** Where a page sits on one side. */
export interface PagePosition {
  parentId: string | null;
  /** 0-based index among that side's siblings. */
  index: number;
  /** Previous sibling on that side (null when first). */
  afterId: string | null;
}

export type TreeConflictKind =
  | 'removed-and-edited'
  | 'added-differently'
  | 'fields'
  | 'content'
  | 'moved-differently'
  | 'move-cycle'
  | 'parent-removed'
  | 'slug-clash';

export type TreeConflictDetail =
  | { kind: 'removed-and-edited'; removedBy: Side; editedBy: Side; fields: string[] }
  | { kind: 'added-differently'; fields: string[] }
  | { kind: 'fields'; fields: FieldConflict[] }
  | { kind: 'content'; hunks: Merge3Conflict[] }
  | { kind: 'moved-differently'; base: PagePosition; ours: PagePosition; theirs: PagePosition }
  | { kind: 'move-cycle'; parentId: string }
  | { kind: 'parent-removed'; parentId: string; parentTitle: string; removedBy: Side | 'both' }
  | { kind: 'slug-clash'; slug: string; parentId: string | null; pageIds: string[] };

export interface TreeConflict {
  kind: TreeConflictKind;
  /** Set for page conflicts. */
  pageId?: string;
  /** Set for file conflicts. */
  fileId?: string;
  /** Page title (ours' version when it has one) or file name. */
  title: string;
  /** Page slug path (ours' version when it has one) or file name. */
  path: string;
  /** One line for humans, e.g. `title, description changed differently on both sides`. */
  reason: string;
  detail?: TreeConflictDetail;
}

export type MergeTreesResult =
  | { clean: true; tree: ContentTree; changes: Change[] }
  | { clean: false; conflicts: TreeConflict[] };

export interface MergeTreesOptions {
  /** How `reason` texts name the sides (default `ours` / `theirs`), e.g. `primary` / `change request`. */
  oursLabel?: string;
  theirsLabel?: string;
}

// ---------------------------------------------------------------------------
// Helpers

type Rec = Record<string, unknown>;

/** Page fields that are not compared as metadata. */
const NOT_META = new Set(['id', 'pages', 'markdown', 'git']);

const rec = (x: object): Rec => x as Rec;

function bytesEqual(x: Uint8Array, y: Uint8Array): boolean {
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
function unionKeys(records: readonly Rec[], exclude: ReadonlySet<string>): string[] {
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
function changedFields(x: PageMeta & { markdown?: string }, y: PageMeta & { markdown?: string }): string[] {
  const fields: string[] = [];
  const xr = rec(x);
  const yr = rec(y);
  for (const k of unionKeys([xr, yr], NOT_META)) if (!deepEqual(xr[k], yr[k])) fields.push(k);
  if (x.markdown !== y.markdown) fields.push('markdown');
  return fields;
}

/** `changedFields(x, y).length === 0`, without allocating. */
function sameContent(x: PageMeta & { markdown?: string }, y: PageMeta & { markdown?: string }): boolean {
  if (x === y) return true;
  if (x.markdown !== y.markdown) return false;
  const xr = rec(x);
  const yr = rec(y);
  for (const k of Object.keys(xr)) if (!NOT_META.has(k) && !deepEqual(xr[k], yr[k])) return false;
  for (const k of Object.keys(yr)) if (!NOT_META.has(k) && !Object.hasOwn(xr, k) && yr[k] !== undefined) return false;
  return true;
}

/** Three-way choice without conflicts: ours wins a disagreement. */
function pickOurs<T>(b: T, o: T, t: T): T {
  if (deepEqual(o, t) || !deepEqual(o, b)) return o;
  return t;
}

/**
 * Three-way merge of one value. Plain objects changed on both sides merge per
 * key when `nested` (used for `layout`); conflicts are recorded by name.
 */
function mergeValue(field: string, b: unknown, o: unknown, t: unknown, out: FieldConflict[], nested: boolean): unknown {
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
const NESTED_FIELDS = new Set(['layout']);

// ---------------------------------------------------------------------------
// Indexing

interface PageEntry {
  page: ContentPage;
  parent: string | null;
  index: number;
}

interface TreeIndex {
  pages: Map<string, PageEntry>;
  /** Children ids per parent id (`null`: the root), for every page of the tree. */
  children: Map<string | null, string[]>;
  /** Page ids, depth-first. */
  order: string[];
  /** Slug paths computed so far (see `pathOf`). */
  paths: Map<string, string>;
}

function indexTree(tree: ContentTree): TreeIndex {
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
function pathOf(S: TreeIndex, id: string): string {
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
function reorderings(base: TreeIndex, side: TreeIndex): (parent: string | null) => ReadonlySet<string> {
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
function mergeOrder(
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
  out.push(...tail);
  return out;
}

function withoutChildren(page: ContentPage): Rec {
  const { pages: _children, ...rest } = page;
  return rest as Rec;
}

function setOrDelete(r: Rec, key: string, value: unknown): void {
  if (value === undefined) delete r[key];
  else r[key] = value;
}

function withGit(node: Rec, git: unknown): Rec {
  setOrDelete(node, 'git', git);
  return node;
}

// ---------------------------------------------------------------------------
// Merge

interface KeptPage {
  node: Rec;
  parent: string | null;
  placedBy: Side;
}

interface KeptFile {
  file: ContentFile;
  placedBy: Side;
}

/**
 * Three-way merge of two page trees against their common base. Clean: the
 * merged tree (new page objects; unchanged values may be shared with the
 * inputs) and what changed relative to `ours` (`diffTrees(ours, tree)`).
 * Otherwise the conflicts, in tree order (ours' pages first), pages before files.
 */
export function mergeTrees(
  base: ContentTree,
  ours: ContentTree,
  theirs: ContentTree,
  options: MergeTreesOptions = {},
): MergeTreesResult {
  const label: Record<Side, string> = { ours: options.oursLabel ?? 'ours', theirs: options.theirsLabel ?? 'theirs' };
  const B = indexTree(base);
  const O = indexTree(ours);
  const T = indexTree(theirs);
  const oReordered = reorderings(B, O);
  const tReordered = reorderings(B, T);
  const conflicts: TreeConflict[] = [];
  const conflicted = new Set<string>();
  const kept = new Map<string, KeptPage>();
  const removedBy = new Map<string, Side>();

  const describe = (id: string): { title: string; path: string } => {
    const S = O.pages.has(id) ? O : T.pages.has(id) ? T : B;
    return { title: S.pages.get(id)?.page.title ?? id, path: pathOf(S, id) };
  };
  const conflict = (id: string, kind: TreeConflictKind, reason: string, detail: TreeConflictDetail): void => {
    conflicted.add(id);
    conflicts.push({ kind, pageId: id, ...describe(id), reason, detail });
  };
  const position = (S: TreeIndex, e: PageEntry): PagePosition => {
    const siblings = S.children.get(e.parent) ?? [];
    return { parentId: e.parent, index: e.index, afterId: e.index > 0 ? (siblings[e.index - 1] ?? null) : null };
  };
  /** Previous sibling on side S present in all three trees. */
  const stableAnchor = (S: TreeIndex, e: PageEntry): string | null => {
    const siblings = S.children.get(e.parent) ?? [];
    for (let i = e.index - 1; i >= 0; i--) {
      const s = siblings[i] as string;
      if (B.pages.has(s) && O.pages.has(s) && T.pages.has(s)) return s;
    }
    return null;
  };

  const removedOnOneSide = (id: string, b: PageEntry, survivor: PageEntry, remover: Side): void => {
    const keeper: Side = remover === 'ours' ? 'theirs' : 'ours';
    const fields = changedFields(b.page, survivor.page);
    if (fields.length === 0) {
      removedBy.set(id, remover);
      return;
    }
    conflict(id, 'removed-and-edited', `removed in ${label[remover]} but edited in ${label[keeper]} (${fields.join(', ')})`, {
      kind: 'removed-and-edited',
      removedBy: remover,
      editedBy: keeper,
      fields,
    });
  };

  const mergeCommon = (id: string, b: PageEntry, o: PageEntry, t: PageEntry): void => {
    const bp = b.page;
    const op = o.page;
    const tp = t.page;
    const oursChanged = !sameContent(op, bp);
    const theirsChanged = !sameContent(tp, bp);
    let node: Rec;
    if (oursChanged && theirsChanged) node = mergeContent(id, bp, op, tp);
    // Only one side changed the content (metadata, body): its version, with its git ref.
    else if (theirsChanged) node = withoutChildren(tp);
    else if (oursChanged) node = withoutChildren(op);
    // Neither did: the git refs merge like a field.
    else node = withGit(withoutChildren(op), pickOurs(bp.git, op.git, tp.git));
    mergePosition(id, b, o, t, node);
  };

  /** Metadata and body edited on both sides: field by field, body by merge3, then the git rule. */
  const mergeContent = (id: string, bp: ContentPage, op: ContentPage, tp: ContentPage): Rec => {
    const br = rec(bp);
    const or = rec(op);
    const tr = rec(tp);
    const node: Rec = { id };
    const fieldConflicts: FieldConflict[] = [];
    for (const k of unionKeys([or, tr, br], NOT_META)) {
      setOrDelete(node, k, mergeValue(k, br[k], or[k], tr[k], fieldConflicts, NESTED_FIELDS.has(k)));
    }
    if (fieldConflicts.length > 0) {
      const names = fieldConflicts.map((f) => f.field);
      conflict(id, 'fields', `${names.join(', ')} changed differently in ${label.ours} and ${label.theirs}`, {
        kind: 'fields',
        fields: fieldConflicts,
      });
    }

    let markdown: string | undefined;
    if (op.markdown === tp.markdown || tp.markdown === bp.markdown) markdown = op.markdown;
    else if (op.markdown === bp.markdown) markdown = tp.markdown;
    else {
      const r = merge3(bp.markdown ?? '', op.markdown ?? '', tp.markdown ?? '', {
        oursLabel: label.ours,
        theirsLabel: label.theirs,
      });
      if (r.clean) markdown = r.text;
      else {
        markdown = op.markdown;
        const lines = r.conflicts.map((c) =>
          c.baseRange[0] === c.baseRange[1] ? `at line ${c.baseRange[0] + 1}` : `lines ${c.baseRange[0] + 1}–${c.baseRange[1]}`,
        );
        conflict(id, 'content', `body changed differently in ${label.ours} and ${label.theirs} (${lines.join(', ')})`, {
          kind: 'content',
          hunks: r.conflicts,
        });
      }
    }
    setOrDelete(node, 'markdown', markdown);

    const nodeMeta = node as unknown as PageMeta & { markdown?: string };
    const oursSame = sameContent(nodeMeta, op);
    const theirsSame = sameContent(nodeMeta, tp);
    let git: unknown;
    if (oursSame && theirsSame) git = pickOurs(bp.git, op.git, tp.git);
    else if (theirsSame) git = tp.git;
    else if (oursSame) git = op.git;
    return withGit(node, git);
  };

  const mergePosition = (id: string, b: PageEntry, o: PageEntry, t: PageEntry, node: Rec): void => {
    const oMoved = o.parent !== b.parent || oReordered(o.parent).has(id);
    const tMoved = t.parent !== b.parent || tReordered(t.parent).has(id);
    let parent = o.parent;
    let placedBy: Side = 'ours';
    if (oMoved && tMoved) {
      if (o.parent !== t.parent || stableAnchor(O, o) !== stableAnchor(T, t)) {
        conflict(id, 'moved-differently', `moved differently in ${label.ours} and ${label.theirs}`, {
          kind: 'moved-differently',
          base: position(B, b),
          ours: position(O, o),
          theirs: position(T, t),
        });
      }
    } else if (tMoved) {
      parent = t.parent;
      placedBy = 'theirs';
    }
    kept.set(id, { node, parent, placedBy });
  };

  const mergeAdded = (id: string, o: PageEntry, t: PageEntry): void => {
    const fields = changedFields(o.page, t.page);
    if (o.parent !== t.parent) fields.push('parent');
    if (fields.length > 0) {
      conflict(id, 'added-differently', `added in both ${label.ours} and ${label.theirs}, differently (${fields.join(', ')})`, {
        kind: 'added-differently',
        fields,
      });
      return;
    }
    kept.set(id, { node: withoutChildren(o.page), parent: o.parent, placedBy: 'ours' });
  };

  // 1. Which pages exist, with what content and parent.
  for (const id of O.order) {
    const o = O.pages.get(id) as PageEntry;
    const b = B.pages.get(id);
    const t = T.pages.get(id);
    if (!b) {
      if (t) mergeAdded(id, o, t);
      else kept.set(id, { node: withoutChildren(o.page), parent: o.parent, placedBy: 'ours' });
    } else if (!t) removedOnOneSide(id, b, o, 'theirs');
    else mergeCommon(id, b, o, t);
  }
  for (const id of T.order) {
    if (O.pages.has(id)) continue;
    const t = T.pages.get(id) as PageEntry;
    const b = B.pages.get(id);
    if (!b) kept.set(id, { node: withoutChildren(t.page), parent: t.parent, placedBy: 'theirs' });
    else removedOnOneSide(id, b, t, 'ours');
  }

  // 2. Structure: parents that disappear, cycles.
  const childIds = new Map<string | null, string[]>();
  const orphans = new Set<string>();
  for (const [id, k] of kept) {
    const p = k.parent;
    if (p !== null && !kept.has(p)) {
      orphans.add(id);
      if (!conflicted.has(p)) {
        const parentTitle = describe(p).title;
        const remover = removedBy.get(p) ?? 'both';
        const by = remover === 'both' ? `${label.ours} and ${label.theirs}` : label[remover];
        conflict(id, 'parent-removed', `its parent "${parentTitle}" was removed in ${by}`, {
          kind: 'parent-removed',
          parentId: p,
          parentTitle,
          removedBy: remover,
        });
      }
      continue;
    }
    const list = childIds.get(p);
    if (list) list.push(id);
    else childIds.set(p, [id]);
  }
  const reachable = new Set<string>();
  {
    const stack: (string | null)[] = [null];
    while (stack.length > 0) {
      const p = stack.pop() as string | null;
      for (const c of childIds.get(p) ?? []) {
        reachable.add(c);
        stack.push(c);
      }
    }
  }
  if (reachable.size + orphans.size < kept.size) {
    for (const [id, k] of kept) {
      if (reachable.has(id) || orphans.has(id)) continue;
      // On a cycle when walking up the parents comes back to the page.
      let p = k.parent;
      let steps = 0;
      while (p !== null && p !== id && !orphans.has(p) && steps <= kept.size) {
        p = kept.get(p)?.parent ?? null;
        steps++;
      }
      if (p !== id || conflicted.has(id)) continue;
      const parentId = k.parent as string;
      conflict(id, 'move-cycle', `moves in ${label.ours} and ${label.theirs} would put it inside "${describe(parentId).title}", its own descendant`, {
        kind: 'move-cycle',
        parentId,
      });
    }
  }

  // 3. Files.
  const files = mergeFiles(base.files, ours.files, theirs.files, label, conflicts);

  if (conflicts.length > 0) return { clean: false, conflicts };

  // 4. Build the tree, ordering each list of siblings, and index it on the way.
  const R: TreeIndex = { pages: new Map(), children: new Map(), order: [], paths: new Map() };
  const build = (parent: string | null): ContentPage[] => {
    const ids = mergeOrder(
      B.children.get(parent) ?? [],
      O.children.get(parent) ?? [],
      T.children.get(parent) ?? [],
      childIds.get(parent) ?? [],
      (id) => kept.get(id)?.placedBy === 'theirs',
    );
    R.children.set(parent, ids);
    return ids.map((id, index) => {
      // Every node is a fresh object of this merge, so it can take its children in place.
      const page = (kept.get(id) as KeptPage).node as unknown as ContentPage;
      R.pages.set(id, { page, parent, index });
      R.order.push(id);
      page.pages = build(id);
      return page;
    });
  };
  const tree: ContentTree = { pages: build(null), files };

  // 5. Slug clashes created by the merge. A clash that was not already in ours involves a page whose
  // parent or slug differs from ours' (or that ours lacks): only those pages' new parents need a look.
  const touched = new Set<string | null>();
  for (const id of R.order) {
    const e = R.pages.get(id) as PageEntry;
    const o = O.pages.get(id);
    if (!o || o.parent !== e.parent || o.page.slug !== e.page.slug) touched.add(e.parent);
  }
  const slugConflicts: TreeConflict[] = [];
  for (const parent of touched) {
    const bySlug = new Map<string, string[]>();
    for (const id of R.children.get(parent) ?? []) {
      const slug = (R.pages.get(id) as PageEntry).page.slug;
      if (slug === undefined || slug === '') continue;
      const ids = bySlug.get(slug);
      if (ids) ids.push(id);
      else bySlug.set(slug, [id]);
    }
    for (const [slug, ids] of bySlug) {
      if (ids.length < 2) continue;
      const had = (S: TreeIndex, id: string): boolean => {
        const e = S.pages.get(id);
        return e !== undefined && e.parent === parent && e.page.slug === slug;
      };
      if (ids.every((id) => had(O, id)) || ids.every((id) => had(T, id))) continue;
      for (const id of ids) {
        if (had(O, id)) continue;
        slugConflicts.push({
          kind: 'slug-clash',
          pageId: id,
          ...describe(id),
          reason: `slug "${slug}" is used by ${ids.length} sibling pages after the merge`,
          detail: { kind: 'slug-clash', slug, parentId: parent, pageIds: ids },
        });
      }
    }
  }
  if (slugConflicts.length > 0) return { clean: false, conflicts: slugConflicts };

  return { clean: true, tree, changes: diffIndexed(O, R, ours.files, files) };
}

// ---------------------------------------------------------------------------
// Files

/** Properties that describe the bytes and follow the side whose `data` is taken. */
const FILE_CONTENT = new Set(['data', 'contentType', 'size', 'dimensions', 'git']);
const FILE_NOT_FIELDS = new Set(['id', ...FILE_CONTENT]);

function fileChanged(x: ContentFile, y: ContentFile): string[] {
  const fields: string[] = [];
  if (x.name !== y.name) fields.push('name');
  if (!bytesEqual(x.data, y.data)) fields.push('data');
  return fields;
}

function mergeFiles(
  base: readonly ContentFile[],
  ours: readonly ContentFile[],
  theirs: readonly ContentFile[],
  label: Record<Side, string>,
  conflicts: TreeConflict[],
): ContentFile[] {
  const byId = (files: readonly ContentFile[]): Map<string, ContentFile> => {
    const m = new Map<string, ContentFile>();
    for (const f of files) if (!m.has(f.id)) m.set(f.id, f);
    return m;
  };
  const B = byId(base);
  const O = byId(ours);
  const T = byId(theirs);
  const kept = new Map<string, KeptFile>();
  const conflict = (f: ContentFile, kind: TreeConflictKind, reason: string, detail: TreeConflictDetail): void => {
    conflicts.push({ kind, fileId: f.id, title: f.name, path: f.name, reason, detail });
  };
  const removedOnOneSide = (b: ContentFile, k: ContentFile, remover: Side): void => {
    const keeper: Side = remover === 'ours' ? 'theirs' : 'ours';
    const fields = fileChanged(b, k);
    if (fields.length === 0) return;
    conflict(k, 'removed-and-edited', `file removed in ${label[remover]} but changed in ${label[keeper]} (${fields.join(', ')})`, {
      kind: 'removed-and-edited',
      removedBy: remover,
      editedBy: keeper,
      fields,
    });
  };
  const mergeCommon = (b: ContentFile, o: ContentFile, t: ContentFile): void => {
    const out: FieldConflict[] = [];
    const result: Rec = { id: o.id };
    const br = rec(b);
    const or = rec(o);
    const tr = rec(t);
    for (const k of unionKeys([or, tr, br], FILE_NOT_FIELDS)) setOrDelete(result, k, mergeValue(k, br[k], or[k], tr[k], out, false));
    const oData = !bytesEqual(o.data, b.data);
    const tData = !bytesEqual(t.data, b.data);
    if (oData && tData && !bytesEqual(o.data, t.data)) {
      out.push({ field: 'data', base: `${b.data.length} bytes`, ours: `${o.data.length} bytes`, theirs: `${t.data.length} bytes` });
    }
    for (const k of FILE_CONTENT) {
      // The bytes' own properties come with the bytes; when the bytes did not change, each merges alone.
      const v = tData && !oData ? tr[k] : oData ? or[k] : pickOurs(br[k], or[k], tr[k]);
      setOrDelete(result, k, v);
    }
    if (out.length > 0) {
      conflict(o, 'fields', `${out.map((f) => f.field).join(', ')} changed differently in ${label.ours} and ${label.theirs}`, {
        kind: 'fields',
        fields: out,
      });
    }
    kept.set(o.id, { file: result as unknown as ContentFile, placedBy: 'ours' });
  };

  for (const o of O.values()) {
    const b = B.get(o.id);
    const t = T.get(o.id);
    if (!b) {
      if (!t) kept.set(o.id, { file: o, placedBy: 'ours' });
      else {
        const fields = fileChanged(o, t);
        if (fields.length > 0) {
          conflict(o, 'added-differently', `file added in both ${label.ours} and ${label.theirs}, differently (${fields.join(', ')})`, {
            kind: 'added-differently',
            fields,
          });
        } else kept.set(o.id, { file: o, placedBy: 'ours' });
      }
    } else if (!t) removedOnOneSide(b, o, 'theirs');
    else mergeCommon(b, o, t);
  }
  for (const t of T.values()) {
    if (O.has(t.id)) continue;
    const b = B.get(t.id);
    if (!b) kept.set(t.id, { file: t, placedBy: 'theirs' });
    else removedOnOneSide(b, t, 'ours');
  }

  const ids = mergeOrder([...B.keys()], [...O.keys()], [...T.keys()], [...kept.keys()], (id) => kept.get(id)?.placedBy === 'theirs');
  return ids.map((id) => (kept.get(id) as KeptFile).file);
}

// ---------------------------------------------------------------------------
// Diff

/**
 * What changed from one tree to another, page by page in tree order (`to`'s
 * order; a removed page where it was, after its previous sibling that is still
 * there), then files. A page changed in several ways yields one change per
 * kind, in the order moved, renamed, edited. `git` alone is not an edit.
 */
export function diffTrees(from: ContentTree, to: ContentTree): Change[] {
  return diffIndexed(indexTree(from), indexTree(to), from.files, to.files);
}

function diffIndexed(F: TreeIndex, T: TreeIndex, fromFileList: readonly ContentFile[], toFileList: readonly ContentFile[]): Change[] {
  const reordered = reorderings(F, T);
  const out: Change[] = [];

  const emitRemoved = (id: string): void => {
    const e = F.pages.get(id) as PageEntry;
    out.push({ object: 'page', kind: 'removed', pageId: id, title: e.page.title, path: pathOf(F, id) });
    for (const c of F.children.get(id) ?? []) if (!T.pages.has(c)) emitRemoved(c);
  };
  const emitPage = (id: string): void => {
    const t = T.pages.get(id) as PageEntry;
    const f = F.pages.get(id);
    const title = t.page.title;
    if (!f) {
      out.push({ object: 'page', kind: 'added', pageId: id, title, path: pathOf(T, id) });
      return;
    }
    const moved = t.parent !== f.parent || reordered(t.parent).has(id);
    if (!moved && sameContent(f.page, t.page)) return;
    const path = pathOf(T, id);
    const previousPath = pathOf(F, id);
    if (moved) {
      const change: PageChange = { object: 'page', kind: 'moved', pageId: id, title, path };
      if (previousPath !== path) change.previousPath = previousPath;
      out.push(change);
    }
    const fields = changedFields(f.page, t.page);
    const renamed = fields.filter((k) => k === 'title' || k === 'slug');
    const edited = fields.filter((k) => k !== 'title' && k !== 'slug');
    if (renamed.length > 0) {
      const change: PageChange = { object: 'page', kind: 'renamed', pageId: id, title, path, fields: renamed };
      if (f.page.title !== title) change.previousTitle = f.page.title;
      if (previousPath !== path) change.previousPath = previousPath;
      out.push(change);
    }
    if (edited.length > 0) out.push({ object: 'page', kind: 'edited', pageId: id, title, path, fields: edited });
  };
  const visit = (parent: string | null): void => {
    let removedAfter: Map<string | null, string[]> | undefined;
    const fromKids = F.children.get(parent);
    if (fromKids) {
      let prev: string | null = null;
      for (const c of fromKids) {
        const te = T.pages.get(c);
        if (!te) {
          removedAfter ??= new Map();
          const bucket = removedAfter.get(prev);
          if (bucket) bucket.push(c);
          else removedAfter.set(prev, [c]);
        } else if (te.parent === parent) prev = c;
      }
    }
    for (const r of removedAfter?.get(null) ?? []) emitRemoved(r);
    for (const id of T.children.get(parent) ?? []) {
      emitPage(id);
      visit(id);
      for (const r of removedAfter?.get(id) ?? []) emitRemoved(r);
    }
  };
  visit(null);

  // Files, in `to`'s order, removed ones after their previous file that is still there.
  const toFiles = new Map<string, ContentFile>();
  for (const f of toFileList) if (!toFiles.has(f.id)) toFiles.set(f.id, f);
  const fromFiles = new Map<string, ContentFile>();
  for (const f of fromFileList) if (!fromFiles.has(f.id)) fromFiles.set(f.id, f);
  const removedAfter = new Map<string | null, ContentFile[]>();
  let prev: string | null = null;
  for (const f of fromFiles.values()) {
    if (toFiles.has(f.id)) prev = f.id;
    else {
      const bucket = removedAfter.get(prev);
      if (bucket) bucket.push(f);
      else removedAfter.set(prev, [f]);
    }
  }
  const emitRemovedFiles = (after: string | null): void => {
    for (const f of removedAfter.get(after) ?? []) {
      out.push({ object: 'file', kind: 'removed', fileId: f.id, title: f.name, path: f.name });
    }
  };
  emitRemovedFiles(null);
  for (const t of toFiles.values()) {
    const f = fromFiles.get(t.id);
    if (!f) out.push({ object: 'file', kind: 'added', fileId: t.id, title: t.name, path: t.name });
    else {
      const fields = fileChanged(f, t);
      if (fields.length > 0) {
        const change: FileChange = { object: 'file', kind: 'changed', fileId: t.id, title: t.name, path: t.name, fields };
        if (f.name !== t.name) change.previousName = f.name;
        out.push(change);
      }
    }
    emitRemovedFiles(t.id);
  }
  return out;
}
