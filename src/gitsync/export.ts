/**
 * Git Sync export: a ContentTree → the files to write and delete in a
 * repository in GitBook's layout. The phases, each in its module:
 *
 * 1. The target (here): the repository's configuration and what the space owns
 *    there (importing `current`); for a project directory that holds nothing yet,
 *    the layout the space remembers (layout.ts: its `.gitbook.yaml`, its root, its
 *    SUMMARY.md). Pages and files synced with another layout are moved to the same
 *    place under this one.
 * 2. Paths (export-paths.ts): imported pages keep their path unless a move rule
 *    applies; new pages and files follow GitBook's naming.
 * 3. Contents (export-pages.ts): each page rendered from its raw parts, written only
 *    where the bytes differ; links to moved pages rewritten (export-links.ts).
 * 4. SUMMARY.md (export-summary.ts): written only when the structure differs from
 *    the repository's own, as an edit of the file it replaces.
 * 5. Deletes (here): nothing the space does not own is touched: a path is only
 *    deleted when importing `current` gives a page or file there that the tree no
 *    longer has there; nothing is written or deleted outside the project directory.
 *
 * Links in a page's `markdown` are relative to its `git.path`; for a page
 * without one, to the path its slugs give (`a/b.md`, or `a/b/README.md` with
 * children; `structure.readme` for the first root page without a slug).
 */
import type { ContentFile, ContentPage, ContentTree } from '../content-model/model.js';
import { isReusableContent, walkPages } from '../content-model/model.js';
import { type GitBookConfig, normalizeProjectDirectory, readConfig } from './config.js';
import { GitSyncError } from './errors.js';
import { placeFiles, placePages } from './export-paths.js';
import { fileIndex, renderPages, writeFiles } from './export-pages.js';
import { type ExportRun, type FileBlobs, lookup, type UnreadPage } from './export-run.js';

export type { FileBlobs } from './export-run.js';
import { summaryAfter } from './export-summary.js';
import { importRepository, type ImportResult, isIncludePath } from './import.js';
import { type SyncLayout, configOfLayout, isEmptyAt, layoutOf, rebasePath } from './layout.js';
import { pageDecoder, pageEncoder } from './page.js';
import { isInside, joinPath, writePath } from './paths.js';
import type { RepoSnapshot } from './types.js';
import { copyJson } from '../util/json-copy.js';

export interface ExportOptions {
  projectDirectory?: string;
  /** The layout the space was last synced with: written into an empty project directory; pages synced with it are moved into this one. */
  remembered?: SyncLayout | undefined;
  /** Files of the tree whose blob id is known without their bytes (their `data` may be empty). */
  blobs?: FileBlobs | undefined;
  /**
   * What importing `current` gives, when the caller has it already: the tree of the space's
   * import of this very commit and project directory (the space's own content is `tree`).
   * Only its structure is read (pages' `git`, types, titles, extras, children; files' `git`):
   * bodies and data may be left out. Without it, `current` is converted again, every page
   * file parsed and its links scanned (most of a one-page export of a large space).
   */
  imported?: ContentTree | undefined;
}

export interface ExportResult {
  /** Files to write (repository paths → bytes). */
  writes: Map<string, Uint8Array>;
  /** Files to delete: only ones this space owned. */
  deletes: string[];
  /** The tree as written: `git` refs, slugs, rewritten links and `extra` of what is now in the repository. */
  tree: ContentTree;
  warnings: string[];
  /** The layout of the project directory after the export (what the space remembers next). */
  layout: SyncLayout;
  /** The blob id of each file's bytes this export read and hashed (not known by `blobs`), by file id: for the caller to remember. */
  learntBlobs: Map<string, string>;
  /** Writes over page files whose bytes `current` did not hold, by path: the caller reads them and calls `settleUnread`. */
  unread: Map<string, UnreadPage>;
}

/** The repository as the export finds it: its configuration, what the space owns there, the SUMMARY.md to edit. */
interface Target {
  run: ExportRun;
  before: Pick<ImportResult, 'config' | 'tree'>;
  /** `.gitbook.yaml` to write (the remembered one, into an empty project directory). */
  config?: string;
  /** The table of contents new entries are written over. */
  summaryBase: string | undefined;
}

/** Importing `current`: converted, or what the caller's import of it made (`imported`: a tree of the same conversion). */
function importCurrent(current: RepoSnapshot, projectDirectory: string, reusableContents: boolean, imported: ContentTree | undefined): Pick<ImportResult, 'config' | 'tree'> {
  if (imported === undefined) {
    let n = 0;
    // A space whose tree has no reusable contents (one imported before docsctl read them) does not own `.gitbook/includes/`.
    return importRepository(current, { ids: () => `current-${++n}`, projectDirectory, reusableContents });
  }
  const config = readConfig(current, projectDirectory);
  // The import read `.gitbook/includes/` (its default); without reusable contents they are not the space's (as above).
  const includes = joinPath(config.root, '.gitbook/includes');
  const files = reusableContents ? imported.files : imported.files.filter((file) => !(file.git && isIncludePath(file.git.path, includes)));
  return { config, tree: { pages: imported.pages, files } };
}

function readTarget(current: RepoSnapshot, projectDirectory: string, options: ExportOptions, reusableContents: boolean): Target {
  const { remembered, blobs } = options;
  const before = importCurrent(current, projectDirectory, reusableContents, options.imported);
  const fresh = remembered !== undefined && isEmptyAt(current, projectDirectory);
  const config: GitBookConfig = fresh ? configOfLayout(remembered, projectDirectory) : before.config;
  const run: ExportRun = { config, current, warnings: [], owned: new Set(), used: new Set(), hadChildren: new Map(), blobs, learnt: new Map(), unread: new Map() };
  for (const { page } of walkPages(before.tree.pages)) {
    if (page.type === 'document' && page.git) {
      run.owned.add(page.git.path);
      run.hadChildren.set(page.git.path, page.pages.length > 0);
    }
  }
  for (const file of before.tree.files) if (file.git) run.owned.add(file.git.path);
  const summary = lookup(current, config.summary);
  const summaryBase = summary ? pageDecoder.decode(summary.file.data) : fresh ? remembered.summary : undefined;
  return { run, before, ...(fresh && remembered.config !== undefined ? { config: remembered.config } : {}), summaryBase };
}

/** Copies of the pages (JSON values, as the store gives them: copyJson, not structuredClone and its cost per call). */
function clonePages(pages: ContentPage[]): ContentPage[] {
  return pages.map((page) => ({ ...copyJson({ ...page, pages: [] }), pages: clonePages(page.pages) }));
}

/**
 * The tree to write, as copies: a page or file synced with another layout moves to
 * the same place under this one; one from another project directory (with no layout
 * to move it by) is new here: its old path is not ours to write.
 */
function treeToWrite(tree: ContentTree, config: GitBookConfig, remembered: SyncLayout | undefined): ContentTree {
  const from = remembered !== undefined ? configOfLayout(remembered) : undefined;
  const moves = from !== undefined && (from.root !== config.root || from.projectDirectory !== config.projectDirectory);
  const place = (item: { git?: { oid: string; path: string } | undefined }): void => {
    if (!item.git) return;
    const path = moves ? rebasePath(item.git.path, from, config) : item.git.path;
    if (path === undefined || !isInside(path, config.projectDirectory)) delete item.git;
    else item.git = { ...item.git, path };
  };
  const pages = clonePages(tree.pages);
  for (const { page } of walkPages(pages)) place(page);
  const files: ContentFile[] = tree.files.map((file) => ({ ...file }));
  for (const file of files) place(file);
  return { pages, files };
}

/** What the space owned and no longer has there. */
function deletesOf(run: ExportRun, kept: Iterable<string>, writes: ReadonlyMap<string, Uint8Array>): string[] {
  const keep = new Set<string>();
  for (const path of kept) {
    keep.add(path);
    const resolved = lookup(run.current, path);
    if (resolved) keep.add(resolved.path);
  }
  return [...run.owned].filter((path) => !keep.has(path) && !writes.has(path)).sort();
}

export function exportRepository(tree: ContentTree, current: RepoSnapshot, options: ExportOptions = {}): ExportResult {
  const projectDirectory = normalizeProjectDirectory(options.projectDirectory);
  const target = readTarget(current, projectDirectory, options, tree.files.some(isReusableContent));
  const { run } = target;
  const out = treeToWrite(tree, run.config, options.remembered);
  const writes = new Map<string, Uint8Array>();
  if (target.config !== undefined) writes.set(run.config.path, pageEncoder.encode(target.config));

  const walked = [...walkPages(out.pages)];
  const filePath = placeFiles(run, out.files);
  const { finalPath, origin, groupSlug } = placePages(run, out.pages, walked);
  const firstDocument = walked.find(({ page }) => page.type === 'document')?.page;
  renderPages(run, { walked, finalPath, origin, filePath, firstDocument }, writes);
  for (const [page, slug] of groupSlug) page.slug = slug;
  writeFiles(run, filePath, writes);

  const summary = summaryAfter(run, out.pages, finalPath, target.before.tree.pages, fileIndex(filePath).fileById, target.summaryBase);
  const existingSummary = lookup(current, run.config.summary);
  if (summary !== undefined && (!existingSummary || pageDecoder.decode(existingSummary.file.data) !== summary)) {
    writes.set(writePath(current, run.config.summary), pageEncoder.encode(summary));
  }
  const deletes = deletesOf(run, [...finalPath.values(), ...filePath.values()], writes);

  // The last line of defence of "an export never touches a file outside its project directory".
  const outside = [...writes.keys(), ...deletes].find((path) => !isInside(path, projectDirectory));
  if (outside !== undefined) throw new GitSyncError(`the export would change ${outside}, outside the project directory "${projectDirectory}"`, { file: outside });
  return { writes, deletes, tree: out, warnings: run.warnings, layout: layoutAfter(current, writes, deletes, projectDirectory), learntBlobs: run.learnt, unread: run.unread };
}

/**
 * Settles the writes over page files whose bytes the export did not read (ExportResult.unread),
 * given those bytes by blob id: a file whose text is the page's keeps its bytes (no write; the
 * page names its blob), as when the export reads every page file.
 */
export function settleUnread(result: ExportResult, bytesOf: (oid: string) => Uint8Array | undefined): void {
  for (const [path, { text, oid, page }] of result.unread) {
    const bytes = bytesOf(oid);
    if (bytes === undefined || pageDecoder.decode(bytes) !== text) continue;
    result.writes.delete(path);
    if (page.git) page.git = { ...page.git, oid };
  }
  result.unread.clear();
}

/** The layout the project directory has once the writes and deletes are applied. */
function layoutAfter(current: RepoSnapshot, writes: ReadonlyMap<string, Uint8Array>, deletes: readonly string[], projectDirectory: string): SyncLayout {
  const after: RepoSnapshot = new Map(current);
  for (const path of deletes) after.delete(path);
  for (const [path, data] of writes) after.set(path, { path, data });
  return layoutOf(after, projectDirectory);
}
