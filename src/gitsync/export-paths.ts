/**
 * Where an export writes each page and file.
 *
 * - A page keeps the path it was imported from (`git.path`), unless a move rule
 *   applies: gaining children moves `x.md` to `x/README.md`, losing them moves
 *   `x/README.md` back to `x.md`, and a slug that no longer matches the file name
 *   renames it (`-1`, `-2` when the name is taken).
 * - New pages follow GitBook's naming: `slug.md`, `slug/README.md` with children,
 *   under their group's slug or parent's folder, `-1`, `-2` on a clash; the first
 *   page goes to `structure.readme`.
 * - A file keeps its path; new files go to `.gitbook/assets/<name>`, ` (1)` on a clash.
 * Paths of files the space does not own are never taken.
 */
import type { ContentFile, ContentPage } from '../content-model/model.js';
import { contentRelative, type ExportRun, isFree, isSafeSlug } from './export-run.js';
import type { GitBookConfig } from './config.js';
import { basename, dirname, isInside, joinPath } from './paths.js';
import { slugFromPath, slugify, uniqueName } from './slug.js';

export interface PagePlacement {
  /** Where each document page is written. */
  finalPath: Map<ContentPage, string>;
  /** Where each imported document page was (its `git.path`). */
  origin: Map<ContentPage, string>;
  /** The slug each group is written under. */
  groupSlug: Map<ContentPage, string>;
}

/** Paths of the files: their own, or a new one under `.gitbook/assets`. */
export function placeFiles(run: ExportRun, files: readonly ContentFile[]): Map<ContentFile, string> {
  const filePath = new Map<ContentFile, string>();
  const newFiles: ContentFile[] = [];
  for (const file of files) {
    const path = file.git?.path;
    if (path !== undefined && !run.used.has(path)) {
      filePath.set(file, path);
      run.used.add(path);
    } else newFiles.push(file);
  }
  return placeNewFiles(run, newFiles, filePath);
}

function placeNewFiles(run: ExportRun, files: readonly ContentFile[], filePath: Map<ContentFile, string>): Map<ContentFile, string> {
  for (const file of files) {
    const name = (file.name || 'file').replace(/[/\\]/g, '-').replace(/^\.+$/, 'file');
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : '';
    const at = (n: number): string => joinPath(run.config.root, '.gitbook/assets', n === 0 ? name : `${stem} (${n})${ext}`);
    let k = 0;
    while (!isFree(run, at(k))) k += 1;
    filePath.set(file, at(k));
    run.used.add(at(k));
  }
  return filePath;
}

/**
 * Paths of the pages, in two passes: imported pages that keep their path are
 * reserved first (so a new page never takes one), then moved and new pages are
 * placed, parents first.
 */
export function placePages(run: ExportRun, pages: ContentPage[], walked: ReadonlyArray<{ page: ContentPage; parent?: ContentPage | null | undefined }>): PagePlacement {
  const placement: PagePlacement = { finalPath: new Map(), origin: new Map(), groupSlug: new Map() };
  const desired = reserveKeptPages(run, walked, placement);
  const firstDocument = walked.find(({ page }) => page.type === 'document')?.page;
  const childDir = new Map<ContentPage, string>();
  const usedGroupSlugs = new Set<string>();
  const { config } = run;
  for (const { page, parent } of walked) {
    const parentDir = parent ? (childDir.get(parent) ?? config.root) : config.root;
    if (page.type === 'group') {
      const slug = uniqueName(page.slug || slugify(page.title) || 'untitled', (s) => usedGroupSlugs.has(s));
      usedGroupSlugs.add(slug);
      placement.groupSlug.set(page, slug);
      childDir.set(page, joinPath(parent ? parentDir : config.root, slug));
      continue;
    }
    if (page.type === 'link') {
      childDir.set(page, parentDir);
      continue;
    }
    let path = placement.finalPath.get(page);
    if (path === undefined) {
      const wanted = desired.get(page);
      if (wanted !== undefined) path = placeMoved(run, wanted);
      else if (page === firstDocument && isFree(run, config.readme)) path = config.readme;
      else path = placeNewPage(run, page, parent ? parent.pages : pages, parentDir, placement);
      placement.finalPath.set(page, path);
      run.used.add(path);
    }
    childDir.set(page, pageChildDir(config, path, parentDir));
  }
  return placement;
}

/** Pass one: imported pages that stay where they are take their paths; answers where the others want to go. */
function reserveKeptPages(run: ExportRun, walked: ReadonlyArray<{ page: ContentPage }>, placement: PagePlacement): Map<ContentPage, string> {
  const desired = new Map<ContentPage, string>();
  for (const { page } of walked) {
    if (page.type !== 'document') continue;
    const orig = page.git?.path;
    if (orig === undefined || run.used.has(orig) || placement.origin.has(page)) continue;
    placement.origin.set(page, orig);
    const wanted = existingPagePath(run, page, orig, run.hadChildren.get(orig));
    if (wanted === orig) {
      placement.finalPath.set(page, orig);
      run.used.add(orig);
    } else desired.set(page, wanted);
  }
  return desired;
}

/** A new page's path: its slug (or title) under its parent's folder, `-1`, `-2` when a sibling or a file has it. */
function placeNewPage(run: ExportRun, page: ContentPage, siblings: readonly ContentPage[], parentDir: string, placement: PagePlacement): string {
  const siblingSlugs = new Set<string>();
  for (const sibling of siblings) {
    if (sibling === page) continue;
    const p = placement.finalPath.get(sibling);
    if (p !== undefined) siblingSlugs.add(slugFromPath(contentRelative(run.config, p)));
    else if (sibling.type === 'group') siblingSlugs.add(placement.groupSlug.get(sibling) ?? sibling.slug ?? '');
  }
  const base = isSafeSlug(page.slug) ? page.slug : slugify(page.title) || 'untitled';
  const at = (name: string): string => (page.pages.length > 0 ? joinPath(parentDir, name, 'README.md') : joinPath(parentDir, `${name}.md`));
  return at(uniqueName(base, (candidate) => siblingSlugs.has(candidate) || !isFree(run, at(candidate))));
}

/** Where an imported page should be now (its own path unless a move rule applies). */
function existingPagePath(run: ExportRun, page: ContentPage, orig: string, hadChildren: boolean | undefined): string {
  const { config } = run;
  if (orig === config.readme || !isInside(orig, config.root)) return orig;
  const isReadme = basename(orig).toLowerCase() === 'readme.md';
  const dir = dirname(orig);
  const hasChildren = page.pages.length > 0;
  const pathSlug = slugFromPath(contentRelative(config, orig));
  const renamed = isSafeSlug(page.slug) && page.slug !== pathSlug ? page.slug : undefined;
  if (hasChildren && !isReadme && hadChildren === false) {
    return joinPath(dir, renamed ?? basename(orig).replace(/\.md$/i, ''), 'README.md');
  }
  if (!hasChildren && isReadme && hadChildren === true && dir !== config.root) {
    return joinPath(dirname(dir), `${renamed ?? basename(dir)}.md`);
  }
  if (renamed !== undefined) {
    return isReadme && dir !== config.root ? joinPath(dirname(dir), renamed, 'README.md') : joinPath(dir, `${renamed}.md`);
  }
  return orig;
}

/** A moved page's path, with `-1`, `-2` on its name when the wanted one is taken. */
function placeMoved(run: ExportRun, wanted: string): string {
  if (isFree(run, wanted)) return wanted;
  const isReadme = basename(wanted) === 'README.md';
  const dir = isReadme ? dirname(dirname(wanted)) : dirname(wanted);
  const name = isReadme ? basename(dirname(wanted)) : basename(wanted).replace(/\.md$/i, '');
  const at = (candidate: string): string => (isReadme ? joinPath(dir, candidate, 'README.md') : joinPath(dir, `${candidate}.md`));
  return at(uniqueName(name, (candidate) => !isFree(run, at(candidate))));
}

/** The folder new children of a page at `path` go to. */
function pageChildDir(config: GitBookConfig, path: string, parentDir: string): string {
  if (path === config.readme) return joinPath(parentDir, slugFromPath(contentRelative(config, path)));
  if (basename(path).toLowerCase() === 'readme.md') return dirname(path);
  return path.replace(/\.md$/i, '');
}

/** The path a page without `git.path` is written from: its slug path. */
export function naturalPath(config: GitBookConfig, page: ContentPage, slugPath: string, first: boolean): string {
  if (slugPath === '' || (first && !page.slug)) return config.readme;
  return joinPath(config.root, page.pages.length > 0 ? `${slugPath}/README.md` : `${slugPath}.md`);
}
