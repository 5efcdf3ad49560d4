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
 * The parts: `tree-merge-pages.ts` (the merge's state; which pages exist, with
 * what content and parent), `tree-merge-structure.ts` (parents, cycles, the
 * merged tree, slug clashes), `tree-index.ts` (indexing, field merge helpers,
 * sibling order), `tree-files.ts` (files), `tree-diff.ts` (`diffTrees`, change
 * summaries).
 *
 * Cost: O(n) passes over maps indexed by id, plus diffs of the children lists
 * and bodies that actually changed.
 */

import type { ContentTree } from './model.js';
import { diffIndexed } from './tree-diff.js';
import { mergeFiles } from './tree-files.js';
import { MergeState, mergePages } from './tree-merge-pages.js';
import { buildTree, placePages, slugClashes } from './tree-merge-structure.js';
import type { MergeTreesOptions, MergeTreesResult } from './tree-types.js';

export { diffTrees } from './tree-diff.js';
// The types live in tree-types.ts, so tree-index/-files/-diff need not import this module back.
export type { Side, PageChange, FileChange, Change, FieldConflict, PagePosition, TreeConflictKind, TreeConflictDetail, TreeConflict, MergeTreesResult, MergeTreesOptions, KeptFile } from './tree-types.js';

/**
 * Three-way merge of two page trees against their common base. Clean: the
 * merged tree (new page objects; unchanged values may be shared with the
 * inputs) and what changed relative to `ours` (`diffTrees(ours, tree)`).
 * Otherwise the conflicts, in tree order (ours' pages first), pages before files.
 */
export function mergeTrees(base: ContentTree, ours: ContentTree, theirs: ContentTree, options: MergeTreesOptions = {}): MergeTreesResult {
  const s = new MergeState(base, ours, theirs, options);
  // 1. Which pages exist, with what content and parent.
  mergePages(s);
  // 2. Structure: parents that disappear, cycles.
  const childIds = placePages(s);
  // 3. Files.
  const files = mergeFiles(base.files, ours.files, theirs.files, s.label, s.conflicts);
  if (s.conflicts.length > 0) return { clean: false, conflicts: s.conflicts };
  // 4. The tree, each list of siblings ordered, indexed on the way.
  const { tree, index } = buildTree(s, childIds, files);
  // 5. Slug clashes created by the merge.
  const clashes = slugClashes(s, index);
  if (clashes.length > 0) return { clean: false, conflicts: clashes };
  return { clean: true, tree, changes: diffIndexed(s.O, index, ours.files, files) };
}
