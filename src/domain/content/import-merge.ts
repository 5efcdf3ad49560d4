/**
 * Content import adds, it never deletes (issue 9 §2): the imported tree is
 * merged into the current one.
 *
 * - An imported page the converter matched to a current page (same source path,
 *   else same slug path: `importRepository`'s `previous`) updates that page in
 *   place: its fields and body become the imported ones, its position and id stay.
 * - Other imported pages are new pages, added at the end of the root, or at the
 *   end of the parent's children for a page-level import (groups are flattened
 *   there: a group only lives at the root).
 * - Files: a matched file is replaced, others are added.
 * - Nothing else changes: pages and files the source does not have stay.
 * - What a matched page keeps of its own is the caller's `Adopt` (content import:
 *   gitsync/adopt.ts, its file in the Git repository and its sidebar title).
 *
 * Mirroring a directory exactly (removing what it does not have) is `git import`.
 *
 * Content import adds; git import mirrors
 *
 * `importContent`, `importContentInChangeRequest` and their page-level variants
 * (`…PageById`, `cr import --parent`) convert the source with the current pages (or the parent's)
 * as `previous`, so a file at the path of an existing page gets that page's id, then
 * `src/domain/content/import-merge.ts` merges: matched pages are updated in place, the others are
 * added at the end (or under the parent), nothing is removed. A matched page keeps what is the
 * space's own (`src/gitsync/adopt.ts`): its file in the Git repository (`git.path`), and, when the
 * source has no SUMMARY.md, its sidebar title, link title and slug; a new page has no `git.path`
 * until an export places it. So `cr import FILE` + `git export` changes exactly that file, at its
 * path. `git import` is the mirror: the repository (or plain directory) becomes the content, pages
 * it does not have are removed.
 * Every import takes the limits of `src/gitsync/limits.ts` (a page's Markdown 8 MiB, a file 100 MiB,
 * 100,000 pages, 100 levels; a zip entry is refused from its declared size, before it is inflated):
 * beyond them a 413 names the file. Every reader of Markdown (`src/content-model/markdown.ts`, `links.ts`,
 * the search words, the document view) is linear in the page whatever its shape: lines are read one
 * at a time, never split into an array, and warnings are capped (`src/gitsync/warnings.ts`);
 * `test/content-model/hostile-markdown.test.ts` and `test/e2e/hostile-import.test.ts` hold them to it.
 */
import type { ContentFile, ContentPage, ContentTree } from '../../content-model/model.js';
import { walkPages } from '../../content-model/model.js';
import { runInSlices, runSteps } from '../../util/slices.js';

export interface MergeResult {
  tree: ContentTree;
  /** Pages and files created. */
  added: number;
  /** Pages and files whose content changed. */
  updated: number;
  /** Pages and files the source holds. */
  total: number;
}

function meta(page: ContentPage): Omit<ContentPage, 'pages' | 'id'> {
  const { pages: _pages, id: _id, ...rest } = page;
  return rest;
}

/** JSON with object keys sorted: the stored tree and the converter's do not order keys alike. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/**
 * How an imported page or file becomes the space's, given the one it matched (if
 * any): what of the space's own it keeps (gitsync/adopt.ts: its place in the Git
 * repository, its table-of-contents title). Default: the imported one as it is.
 */
export interface Adopt {
  page(existing: ContentPage | undefined, imported: ContentPage): ContentPage;
  file(existing: ContentFile | undefined, imported: ContentFile): ContentFile;
}

const asImported: Adopt = { page: (_existing, imported) => imported, file: (_existing, imported) => imported };

/**
 * Merges `imported` (converted with the current tree, or the parent's subtree,
 * as `previous`, so matches share ids) into `current`; `parentId` puts new
 * pages under that page. The current tree is not modified.
 */
export function mergeImported(current: ContentTree, imported: ContentTree, parentId?: string, adopt: Adopt = asImported): MergeResult {
  return runSteps(mergeSteps(current, imported, parentId, adopt));
}

/** `mergeImported` a page at a time, the event loop running between slices (an import of thousands of pages under `serve`). */
export function mergeImportedInSlices(current: ContentTree, imported: ContentTree, parentId?: string, adopt: Adopt = asImported): Promise<MergeResult> {
  return runInSlices(mergeSteps(current, imported, parentId, adopt), true);
}

function* mergeSteps(current: ContentTree, imported: ContentTree, parentId: string | undefined, adopt: Adopt): Generator<void, MergeResult> {
  const tree: ContentTree = structuredClone(current);
  const byId = new Map<string, ContentPage>();
  for (const { page } of walkPages(tree.pages)) byId.set(page.id, page);
  let added = 0;
  let updated = 0;
  let total = 0;

  const place = function* (list: ContentPage[], pages: readonly ContentPage[], nested: boolean): Generator<void, void> {
    for (const page of pages) {
      yield;
      if (nested && page.type === 'group') {
        yield* place(list, page.pages, nested);
        continue;
      }
      total += 1;
      const existing = byId.get(page.id);
      if (existing) {
        const next = meta(adopt.page(existing, page));
        if (!sameJson(meta(existing), next)) {
          for (const key of Object.keys(existing) as Array<keyof ContentPage>) if (key !== 'id' && key !== 'pages') delete existing[key];
          Object.assign(existing, structuredClone(next));
          updated += 1;
        }
        yield* place(existing.pages, page.pages, true);
      } else {
        const fresh: ContentPage = { ...structuredClone(meta(adopt.page(undefined, page))), id: page.id, pages: [] };
        list.push(fresh);
        byId.set(fresh.id, fresh);
        added += 1;
        yield* place(fresh.pages, page.pages, true);
      }
    }
  };

  const parent = parentId === undefined ? undefined : byId.get(parentId);
  yield* place(parent ? parent.pages : tree.pages, imported.pages, parent !== undefined);

  const files = new Map<string, number>();
  tree.files.forEach((file, index) => files.set(file.id, index));
  for (const file of imported.files) {
    total += 1;
    const index = files.get(file.id);
    const copy: ContentFile = structuredClone(adopt.file(index === undefined ? undefined : tree.files[index], file));
    if (index === undefined) {
      files.set(file.id, tree.files.length);
      tree.files.push(copy);
      added += 1;
    } else if (!sameJson(tree.files[index], copy)) {
      tree.files[index] = copy;
      updated += 1;
    }
    yield;
  }
  return { tree, added, updated, total };
}

/** The page `pageId` of `tree`, or undefined. */
export function findPage(tree: ContentTree, pageId: string): ContentPage | undefined {
  for (const { page } of walkPages(tree.pages)) if (page.id === pageId) return page;
  return undefined;
}
