/**
 * Three-way merge and diff of page trees (pure; inputs are never mutated).
 *
 * `mergeTrees(base, ours, theirs)`: for a change-request **merge**, `ours` is
 * the space's current primary content and `theirs` the change request's; for
 * an **update** (pull primary into the CR), `ours` is the CR and `theirs` the
 * primary. Pages and files are matched by `id`.
 *
 * Rules (each has a test in test/content-model/tree-merge.test.ts):
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
 * The parts: `tree-index.ts` (indexing, field merge helpers, sibling order),
 * `tree-files.ts` (files), `tree-diff.ts` (`diffTrees`, change summaries).
 *
 * Cost: O(n) passes over maps indexed by id, plus diffs of the children lists
 * and bodies that actually changed.
 */

import { merge3, type Merge3Conflict } from './diff3.js';
import type { ContentFile, ContentPage, ContentTree, PageMeta } from './model.js';
import { diffIndexed } from './tree-diff.js';
import { mergeFiles } from './tree-files.js';
import { changedFields, indexTree, mergeOrder, mergeValue, NESTED_FIELDS, NOT_META, type PageEntry, pathOf, pickOurs, type Rec, rec, reorderings, sameContent, setOrDelete, type TreeIndex, unionKeys, withGit, withoutChildren } from './tree-index.js';

export { diffTrees } from './tree-diff.js';
// The types live in tree-types.ts, so tree-index/-files/-diff need not import this module back.
export type { Side, PageChange, FileChange, Change, FieldConflict, PagePosition, TreeConflictKind, TreeConflictDetail, TreeConflict, MergeTreesResult, MergeTreesOptions, KeptFile } from './tree-types.js';
import type { Side, PageChange, FileChange, Change, FieldConflict, PagePosition, TreeConflictKind, TreeConflictDetail, TreeConflict, MergeTreesResult, MergeTreesOptions, KeptFile } from './tree-types.js';

// ---------------------------------------------------------------------------
// Merge

interface KeptPage {
  node: Rec;
  parent: string | null;
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
