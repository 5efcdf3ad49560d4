/**
 * Three-way page-tree merge (tree-merge.ts), after the pages are decided
 * (tree-merge-pages.ts): where each kept page hangs (a parent the merge removed
 * is a conflict, and so are moves that make a cycle), the merged tree with each
 * list of siblings ordered, and the slug clashes the merge would create.
 */
import type { ContentFile, ContentPage, ContentTree } from './model.js';
import type { KeptPage, MergeState } from './tree-merge-pages.js';
import { type PageEntry, type TreeIndex, mergeOrder } from './tree-index.js';
import type { TreeConflict } from './tree-types.js';

/** Kept pages by merged parent (null: the root), in the order ours then theirs listed them. */
export type ChildIds = Map<string | null, string[]>;

/** Step 2: each kept page under its parent; conflicts for pages whose parent is gone and for move cycles. */
export function placePages(s: MergeState): ChildIds {
  const { childIds, orphans } = attachToParents(s);
  const reachable = new Set<string>();
  const stack: Array<string | null> = [null];
  while (stack.length > 0) {
    const p = stack.pop() as string | null;
    for (const c of childIds.get(p) ?? []) {
      reachable.add(c);
      stack.push(c);
    }
  }
  if (reachable.size + orphans.size < s.kept.size) reportCycles(s, reachable, orphans);
  return childIds;
}

function attachToParents(s: MergeState): { childIds: ChildIds; orphans: Set<string> } {
  const childIds: ChildIds = new Map();
  const orphans = new Set<string>();
  for (const [id, k] of s.kept) {
    const p = k.parent;
    if (p !== null && !s.kept.has(p)) {
      orphans.add(id);
      if (!s.conflicted.has(p)) {
        const parentTitle = s.describe(p).title;
        const remover = s.removedBy.get(p) ?? 'both';
        const by = remover === 'both' ? `${s.label.ours} and ${s.label.theirs}` : s.label[remover];
        s.conflict(id, 'parent-removed', `its parent "${parentTitle}" was removed in ${by}`, { kind: 'parent-removed', parentId: p, parentTitle, removedBy: remover });
      }
      continue;
    }
    const list = childIds.get(p);
    if (list) list.push(id);
    else childIds.set(p, [id]);
  }
  return { childIds, orphans };
}

/** Pages neither reachable from the root nor orphaned hang on a cycle of moves: each page on it is a conflict. */
function reportCycles(s: MergeState, reachable: ReadonlySet<string>, orphans: ReadonlySet<string>): void {
  for (const [id, k] of s.kept) {
    if (reachable.has(id) || orphans.has(id)) continue;
    // On a cycle when walking up the parents comes back to the page.
    let p = k.parent;
    let steps = 0;
    while (p !== null && p !== id && !orphans.has(p) && steps <= s.kept.size) {
      p = s.kept.get(p)?.parent ?? null;
      steps++;
    }
    if (p !== id || s.conflicted.has(id)) continue;
    const parentId = k.parent as string;
    s.conflict(id, 'move-cycle', `moves in ${s.label.ours} and ${s.label.theirs} would put it inside "${s.describe(parentId).title}", its own descendant`, {
      kind: 'move-cycle',
      parentId,
    });
  }
}

/** Step 4: the merged tree, each list of siblings ordered by `mergeOrder`, and its index. */
export function buildTree(s: MergeState, childIds: ChildIds, files: ContentFile[]): { tree: ContentTree; index: TreeIndex } {
  const R: TreeIndex = { pages: new Map(), children: new Map(), order: [], paths: new Map() };
  const build = (parent: string | null): ContentPage[] => {
    const ids = mergeOrder(
      s.B.children.get(parent) ?? [],
      s.O.children.get(parent) ?? [],
      s.T.children.get(parent) ?? [],
      childIds.get(parent) ?? [],
      (id) => s.kept.get(id)?.placedBy === 'theirs',
    );
    R.children.set(parent, ids);
    return ids.map((id, index) => {
      // Every node is a fresh object of this merge, so it can take its children in place.
      const page = (s.kept.get(id) as KeptPage).node as unknown as ContentPage;
      R.pages.set(id, { page, parent, index });
      R.order.push(id);
      page.pages = build(id);
      return page;
    });
  };
  return { tree: { pages: build(null), files }, index: R };
}

/**
 * Step 5: slugs shared by siblings of the merged tree that were not already
 * siblings with that slug on one side. Such a clash involves a page whose parent
 * or slug differs from ours' (or that ours lacks): only those pages' new parents
 * need a look.
 */
export function slugClashes(s: MergeState, R: TreeIndex): TreeConflict[] {
  const touched = new Set<string | null>();
  for (const id of R.order) {
    const e = R.pages.get(id) as PageEntry;
    const o = s.O.pages.get(id);
    if (!o || o.parent !== e.parent || o.page.slug !== e.page.slug) touched.add(e.parent);
  }
  const clashes: TreeConflict[] = [];
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
      if (ids.every((id) => had(s.O, id)) || ids.every((id) => had(s.T, id))) continue;
      for (const id of ids) {
        if (had(s.O, id)) continue;
        clashes.push({
          kind: 'slug-clash',
          pageId: id,
          ...s.describe(id),
          reason: `slug "${slug}" is used by ${ids.length} sibling pages after the merge`,
          detail: { kind: 'slug-clash', slug, parentId: parent, pageIds: ids },
        });
      }
    }
  }
  return clashes;
}
