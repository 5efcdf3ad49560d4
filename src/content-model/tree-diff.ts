/** The changes between two page trees (`cr diff`, change summaries), using the merge's indexing. */
import type { ContentFile, ContentTree } from './model.js';
import { fileChanged } from './tree-files.js';
import { changedFields, indexTree, type PageEntry, pathOf, reorderings, sameContent, type TreeIndex } from './tree-index.js';
import type { Change, FileChange, PageChange } from './tree-types.js';

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

// eslint-disable-next-line max-lines-per-function -- one walk matching the pages of both trees by id: moves, renames, edits and files share the two indexes
export function diffIndexed(F: TreeIndex, T: TreeIndex, fromFileList: readonly ContentFile[], toFileList: readonly ContentFile[]): Change[] {
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
