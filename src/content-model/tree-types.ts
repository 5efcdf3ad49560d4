/** The types of the page-tree merge and diff (tree-merge.ts re-exports them). */
import type { Merge3Conflict } from './diff3.js';
import type { ContentFile, ContentTree } from './model.js';

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

export interface KeptFile {
  file: ContentFile;
  placedBy: Side;
}

/** What an answer says of a conflict (the merge's `conflicts` and `cr conflicts`): one shape for both. */
export function conflictSummary(c: TreeConflict) {
  return {
    kind: c.kind,
    ...(c.pageId !== undefined ? { page: c.pageId } : {}),
    ...(c.fileId !== undefined ? { file: c.fileId } : {}),
    title: c.title,
    path: c.path,
    reason: c.reason,
  };
}
