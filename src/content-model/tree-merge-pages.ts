/**
 * Three-way page-tree merge (tree-merge.ts), its state and its first step: which
 * pages exist in the merge, with what content (metadata field by field, the body
 * with merge3, the `git` ref) and which parent, and the conflicts met on the way.
 * The rules are listed in tree-merge.ts.
 */
import { merge3 } from './diff3.js';
import type { ContentPage, ContentTree, PageMeta } from './model.js';
import {
  NESTED_FIELDS,
  NOT_META,
  type PageEntry,
  type Rec,
  type TreeIndex,
  changedFields,
  indexTree,
  mergeValue,
  pathOf,
  pickOurs,
  rec,
  reorderings,
  sameContent,
  setOrDelete,
  unionKeys,
  withGit,
  withoutChildren,
} from './tree-index.js';
import type { FieldConflict, MergeTreesOptions, PagePosition, Side, TreeConflict, TreeConflictDetail, TreeConflictKind } from './tree-types.js';

/** A page the merge keeps: its merged object (without children), its parent, and which side's place it takes. */
export interface KeptPage {
  node: Rec;
  parent: string | null;
  placedBy: Side;
}

/** What one merge knows (the three trees, indexed) and decides (the pages kept, the conflicts). */
export class MergeState {
  readonly label: Record<Side, string>;
  readonly B: TreeIndex;
  readonly O: TreeIndex;
  readonly T: TreeIndex;
  readonly oReordered: (parent: string | null) => ReadonlySet<string>;
  readonly tReordered: (parent: string | null) => ReadonlySet<string>;
  readonly conflicts: TreeConflict[] = [];
  /** Pages with a conflict (a parent-removed conflict is not reported twice below them). */
  readonly conflicted = new Set<string>();
  readonly kept = new Map<string, KeptPage>();
  /** Pages removed on one side without conflict: which side removed them. */
  readonly removedBy = new Map<string, Side>();

  constructor(base: ContentTree, ours: ContentTree, theirs: ContentTree, options: MergeTreesOptions) {
    this.label = { ours: options.oursLabel ?? 'ours', theirs: options.theirsLabel ?? 'theirs' };
    this.B = indexTree(base);
    this.O = indexTree(ours);
    this.T = indexTree(theirs);
    this.oReordered = reorderings(this.B, this.O);
    this.tReordered = reorderings(this.B, this.T);
  }

  /** A page's title and path, from ours when it has it, else theirs, else the base. */
  describe(id: string): { title: string; path: string } {
    const S = this.O.pages.has(id) ? this.O : this.T.pages.has(id) ? this.T : this.B;
    return { title: S.pages.get(id)?.page.title ?? id, path: pathOf(S, id) };
  }

  conflict(id: string, kind: TreeConflictKind, reason: string, detail: TreeConflictDetail): void {
    this.conflicted.add(id);
    this.conflicts.push({ kind, pageId: id, ...this.describe(id), reason, detail });
  }
}

/** Step 1: every page of ours (in its order), then those only theirs has: kept, removed or in conflict. */
export function mergePages(s: MergeState): void {
  for (const id of s.O.order) {
    const o = s.O.pages.get(id) as PageEntry;
    const b = s.B.pages.get(id);
    const t = s.T.pages.get(id);
    if (!b) {
      if (t) mergeAdded(s, id, o, t);
      else s.kept.set(id, { node: withoutChildren(o.page), parent: o.parent, placedBy: 'ours' });
    } else if (!t) removedOnOneSide(s, id, b, o, 'theirs');
    else mergeCommon(s, id, b, o, t);
  }
  for (const id of s.T.order) {
    if (s.O.pages.has(id)) continue;
    const t = s.T.pages.get(id) as PageEntry;
    const b = s.B.pages.get(id);
    if (!b) s.kept.set(id, { node: withoutChildren(t.page), parent: t.parent, placedBy: 'theirs' });
    else removedOnOneSide(s, id, b, t, 'ours');
  }
}

/** Removed by `remover`, kept by the other side: removed, unless the other side edited it (conflict). */
function removedOnOneSide(s: MergeState, id: string, b: PageEntry, survivor: PageEntry, remover: Side): void {
  const keeper: Side = remover === 'ours' ? 'theirs' : 'ours';
  const fields = changedFields(b.page, survivor.page);
  if (fields.length === 0) {
    s.removedBy.set(id, remover);
    return;
  }
  s.conflict(id, 'removed-and-edited', `removed in ${s.label[remover]} but edited in ${s.label[keeper]} (${fields.join(', ')})`, {
    kind: 'removed-and-edited',
    removedBy: remover,
    editedBy: keeper,
    fields,
  });
}

/** In all three trees: the content of the side that changed it (or both merged), then its place. */
function mergeCommon(s: MergeState, id: string, b: PageEntry, o: PageEntry, t: PageEntry): void {
  const oursChanged = !sameContent(o.page, b.page);
  const theirsChanged = !sameContent(t.page, b.page);
  let node: Rec;
  if (oursChanged && theirsChanged) node = mergeContent(s, id, b.page, o.page, t.page);
  // Only one side changed the content (metadata, body): its version, with its git ref.
  else if (theirsChanged) node = withoutChildren(t.page);
  else if (oursChanged) node = withoutChildren(o.page);
  // Neither did: the git refs merge like a field.
  else node = withGit(withoutChildren(o.page), pickOurs(b.page.git, o.page.git, t.page.git));
  mergePosition(s, id, b, o, t, node);
}

/** Metadata and body edited on both sides: field by field, body by merge3, then the git rule. */
function mergeContent(s: MergeState, id: string, bp: ContentPage, op: ContentPage, tp: ContentPage): Rec {
  const node: Rec = { id };
  mergeFields(s, id, node, rec(bp), rec(op), rec(tp));
  setOrDelete(node, 'markdown', mergeBody(s, id, bp, op, tp));
  return withGit(node, mergedGit(node, bp, op, tp));
}

/** Every metadata field (unknown ones too) merged into `node`; fields changed differently are one conflict. */
function mergeFields(s: MergeState, id: string, node: Rec, br: Rec, or: Rec, tr: Rec): void {
  const fieldConflicts: FieldConflict[] = [];
  for (const k of unionKeys([or, tr, br], NOT_META)) {
    setOrDelete(node, k, mergeValue(k, br[k], or[k], tr[k], fieldConflicts, NESTED_FIELDS.has(k)));
  }
  if (fieldConflicts.length === 0) return;
  const names = fieldConflicts.map((f) => f.field);
  s.conflict(id, 'fields', `${names.join(', ')} changed differently in ${s.label.ours} and ${s.label.theirs}`, { kind: 'fields', fields: fieldConflicts });
}

/**
 * Lines a body may have for a line-by-line merge. Beyond, a body both sides changed
 * is a conflict of the whole page (settled with `cr resolve`): a diff of millions of
 * lines costs seconds to minutes and gigabytes, which no request may take.
 */
export const MAX_MERGE_LINES = 100_000;

/** Lines of a text, as diff3's splitLines counts them (a last line without a break counts). */
function lineCount(text: string): number {
  let count = text === '' || text.endsWith('\n') ? 0 : 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}

/** The merged Markdown (ours' on a conflict, which is then reported with its base line ranges). */
function mergeBody(s: MergeState, id: string, bp: ContentPage, op: ContentPage, tp: ContentPage): string | undefined {
  if (op.markdown === tp.markdown || tp.markdown === bp.markdown) return op.markdown;
  if (op.markdown === bp.markdown) return tp.markdown;
  const longest = Math.max(...[bp.markdown, op.markdown, tp.markdown].map((text) => lineCount(text ?? '')));
  if (longest > MAX_MERGE_LINES) {
    const whole = { baseRange: [0, lineCount(bp.markdown ?? '')] as [number, number], ours: op.markdown ?? '', theirs: tp.markdown ?? '' };
    s.conflict(id, 'content', `body changed in both ${s.label.ours} and ${s.label.theirs}, and too long to merge line by line (${longest} lines, more than ${MAX_MERGE_LINES})`, {
      kind: 'content',
      hunks: [whole],
    });
    return op.markdown;
  }
  const r = merge3(bp.markdown ?? '', op.markdown ?? '', tp.markdown ?? '', { oursLabel: s.label.ours, theirsLabel: s.label.theirs });
  if (r.clean) return r.text;
  const lines = r.conflicts.map((c) => (c.baseRange[0] === c.baseRange[1] ? `at line ${c.baseRange[0] + 1}` : `lines ${c.baseRange[0] + 1}–${c.baseRange[1]}`));
  s.conflict(id, 'content', `body changed differently in ${s.label.ours} and ${s.label.theirs} (${lines.join(', ')})`, { kind: 'content', hunks: r.conflicts });
  return op.markdown;
}

/** `git` follows the content it describes: both sides' when the merge equals both, one side's when it equals that side, else none. */
function mergedGit(node: Rec, bp: ContentPage, op: ContentPage, tp: ContentPage): unknown {
  const merged = node as unknown as PageMeta & { markdown?: string };
  const oursSame = sameContent(merged, op);
  const theirsSame = sameContent(merged, tp);
  if (oursSame && theirsSame) return pickOurs(bp.git, op.git, tp.git);
  if (theirsSame) return tp.git;
  if (oursSame) return op.git;
  return undefined;
}

/** Where a page is on side S: its parent, index, and previous sibling. */
function position(S: TreeIndex, e: PageEntry): PagePosition {
  const siblings = S.children.get(e.parent) ?? [];
  return { parentId: e.parent, index: e.index, afterId: e.index > 0 ? (siblings[e.index - 1] ?? null) : null };
}

/** Previous sibling on side S present in all three trees. */
function stableAnchor(s: MergeState, S: TreeIndex, e: PageEntry): string | null {
  const siblings = S.children.get(e.parent) ?? [];
  for (let i = e.index - 1; i >= 0; i--) {
    const id = siblings[i] as string;
    if (s.B.pages.has(id) && s.O.pages.has(id) && s.T.pages.has(id)) return id;
  }
  return null;
}

/** Keeps the page under the parent of the side that moved it (ours when neither did; a conflict when both did differently). */
function mergePosition(s: MergeState, id: string, b: PageEntry, o: PageEntry, t: PageEntry, node: Rec): void {
  const oMoved = o.parent !== b.parent || s.oReordered(o.parent).has(id);
  const tMoved = t.parent !== b.parent || s.tReordered(t.parent).has(id);
  let parent = o.parent;
  let placedBy: Side = 'ours';
  if (oMoved && tMoved) {
    if (o.parent !== t.parent || stableAnchor(s, s.O, o) !== stableAnchor(s, s.T, t)) {
      s.conflict(id, 'moved-differently', `moved differently in ${s.label.ours} and ${s.label.theirs}`, {
        kind: 'moved-differently',
        base: position(s.B, b),
        ours: position(s.O, o),
        theirs: position(s.T, t),
      });
    }
  } else if (tMoved) {
    parent = t.parent;
    placedBy = 'theirs';
  }
  s.kept.set(id, { node, parent, placedBy });
}

/** Added on both sides with the same id: kept when identical (parent included), else a conflict. */
function mergeAdded(s: MergeState, id: string, o: PageEntry, t: PageEntry): void {
  const fields = changedFields(o.page, t.page);
  if (o.parent !== t.parent) fields.push('parent');
  if (fields.length > 0) {
    s.conflict(id, 'added-differently', `added in both ${s.label.ours} and ${s.label.theirs}, differently (${fields.join(', ')})`, {
      kind: 'added-differently',
      fields,
    });
    return;
  }
  s.kept.set(id, { node: withoutChildren(o.page), parent: o.parent, placedBy: 'ours' });
}
