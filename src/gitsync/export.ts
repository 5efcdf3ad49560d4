/**
 * Git Sync export: a ContentTree → the files to write and delete in a
 * repository in GitBook's layout.
 *
 * - A page keeps the path it was imported from (`git.path`); its file is
 *   rendered from its raw front matter, raw heading and body (`extra`, see
 *   page.ts), so an unchanged page renders to its original bytes and is not
 *   written. Changed front matter fields are patched in place.
 * - Moves: a page gaining children moves from `x.md` to `x/README.md`, one
 *   losing them from `x/README.md` back to `x.md`, and a page whose slug no
 *   longer matches its file name is renamed. Relative links to moved pages,
 *   and in moved pages, are rewritten.
 * - New pages follow GitBook's naming: `slug.md`, `slug/README.md` with
 *   children, under their group's slug or parent's folder, `-1`, `-2` on a
 *   clash; the first page goes to `structure.readme`. New files go to
 *   `.gitbook/assets/<name>`, ` (1)` on a clash.
 * - SUMMARY.md is regenerated (GitBook style) only when the structure
 *   differs from what the repository's own SUMMARY.md (or folders) gives.
 * - Nothing the space does not own is touched: a path is only deleted when
 *   importing `current` gives a page or file there that the tree no longer
 *   has there; a symbolic link is never replaced (writes go to its target).
 *
 * Links in a page's `markdown` are relative to its `git.path`; for a page
 * without one, to the path its slugs give (`a/b.md`, or `a/b/README.md` with
 * children; `structure.readme` for the first root page without a slug).
 */
import { extractLinks, type ExtractedLink } from '../content-model/links.js';
import { detectEol, headingLine, replaceLeadingHeading, splitLeadingHeading } from '../content-model/markdown.js';
import type { ContentFile, ContentPage, ContentRef, ContentTree } from '../content-model/model.js';
import { walkPages } from '../content-model/model.js';
import { gitBlobOid } from './blob.js';
import { GitSyncError } from './errors.js';
import { type GitBookConfig, normalizeProjectDirectory } from './config.js';
import { renderFrontMatter, splitFrontMatter, type CoverCodec } from './frontmatter.js';
import { importRepository, resolveReference } from './import.js';
import { extraString, pageDecoder, pageEncoder, parsePageFile, setExtra } from './page.js';
import { basename, dirname, isInside, joinPath, relativePath, resolveFile, writePath, type ResolvedFile } from './paths.js';
import { slugFromPath, slugify, uniqueName } from './slug.js';
import { writeSummary, type SummaryEntry, type SummaryItem } from './summary.js';
import type { RepoSnapshot } from './types.js';
import { sameBytes } from '../util/bytes.js';

export interface ExportOptions {
  projectDirectory?: string;
}

export interface ExportResult {
  /** Files to write (repository paths → bytes). */
  writes: Map<string, Uint8Array>;
  /** Files to delete: only ones this space owned. */
  deletes: string[];
  /** The tree as written: `git` refs, slugs, rewritten links and `extra` of what is now in the repository. */
  tree: ContentTree;
  warnings: string[];
}

interface State {
  config: GitBookConfig;
  current: RepoSnapshot;
  warnings: string[];
  /** Paths the space owns in `current` (its pages' and files' files). */
  owned: Set<string>;
  /** Paths taken by this export. */
  used: Set<string>;
}

const SAFE_SLUG = (slug: string | undefined): slug is string => slug !== undefined && slug !== '' && slugify(slug) === slug;

function lookup(snapshot: RepoSnapshot, path: string): ResolvedFile | null {
  try {
    return resolveFile(snapshot, path);
  } catch {
    return null;
  }
}

function existsIn(snapshot: RepoSnapshot, path: string): boolean {
  if (snapshot.has(path)) return true;
  try {
    return resolveFile(snapshot, path) !== null;
  } catch {
    return true;
  }
}

/** Free for this export: not used by another output, and not a file of the repository the space does not own. */
function isFree(state: State, path: string): boolean {
  if (state.used.has(path)) return false;
  return state.owned.has(path) || !existsIn(state.current, path);
}

function contentRelative(config: GitBookConfig, path: string): string {
  return isInside(path, config.root) ? relativePath(config.root, path) : path;
}

function clonePages(pages: ContentPage[]): ContentPage[] {
  return pages.map((page) => ({ ...structuredClone({ ...page, pages: [] }), pages: clonePages(page.pages) }));
}

export function exportRepository(tree: ContentTree, current: RepoSnapshot, options: ExportOptions = {}): ExportResult {
  let n = 0;
  const before = importRepository(current, {
    ids: () => `current-${++n}`,
    ...(options.projectDirectory !== undefined ? { projectDirectory: options.projectDirectory } : {}),
  });
  const config = before.config;
  const state: State = { config, current, warnings: [], owned: new Set(), used: new Set() };
  const hadChildren = new Map<string, boolean>();
  for (const { page } of walkPages(before.tree.pages)) {
    if (page.type === 'document' && page.git) {
      state.owned.add(page.git.path);
      hadChildren.set(page.git.path, page.pages.length > 0);
    }
  }
  for (const file of before.tree.files) if (file.git) state.owned.add(file.git.path);

  // A page or file imported from another project directory is new here: its old path is not ours to write.
  const projectDirectory = normalizeProjectDirectory(options.projectDirectory);
  const pages = clonePages(tree.pages);
  for (const { page } of walkPages(pages)) if (page.git && !isInside(page.git.path, projectDirectory)) delete page.git;
  const files = tree.files.map((file) => ({ ...file }));
  for (const file of files) if (file.git && !isInside(file.git.path, projectDirectory)) delete file.git;
  const out: ContentTree = { pages, files };
  const writes = new Map<string, Uint8Array>();

  // ─── Paths of files ───
  const filePath = new Map<ContentFile, string>();
  const newFiles: ContentFile[] = [];
  for (const file of files) {
    const path = file.git?.path;
    if (path !== undefined && !state.used.has(path)) {
      filePath.set(file, path);
      state.used.add(path);
    } else newFiles.push(file);
  }

  // ─── Paths of pages ───
  const walked = [...walkPages(pages)];
  const modelPaths = new Map<ContentPage, string>();
  for (const { page, path } of walked) modelPaths.set(page, path);
  const firstDocument = walked.find(({ page }) => page.type === 'document')?.page;

  const origin = new Map<ContentPage, string>();
  const finalPath = new Map<ContentPage, string>();
  const desired = new Map<ContentPage, string>();
  // Pass A: existing pages that keep their path are reserved first.
  for (const { page } of walked) {
    if (page.type !== 'document') continue;
    const orig = page.git?.path;
    if (orig === undefined || state.used.has(orig) || origin.has(page)) continue;
    origin.set(page, orig);
    const wanted = existingPagePath(state, page, orig, hadChildren.get(orig));
    if (wanted === orig) {
      finalPath.set(page, orig);
      state.used.add(orig);
    } else desired.set(page, wanted);
  }
  // Pass B: moved and new pages, parents first.
  const childDir = new Map<ContentPage, string>();
  const groupSlug = new Map<ContentPage, string>();
  const usedGroupSlugs = new Set<string>();
  for (const { page, parent } of walked) {
    const parentDir = parent ? (childDir.get(parent) ?? config.root) : config.root;
    if (page.type === 'group') {
      const base = page.slug || slugify(page.title) || 'untitled';
      const slug = uniqueName(base, (s) => usedGroupSlugs.has(s));
      usedGroupSlugs.add(slug);
      groupSlug.set(page, slug);
      childDir.set(page, joinPath(parent ? parentDir : config.root, slug));
      continue;
    }
    if (page.type === 'link') {
      childDir.set(page, parentDir);
      continue;
    }
    let path = finalPath.get(page);
    if (path === undefined) {
      const siblings = parent ? parent.pages : pages;
      const siblingSlugs = new Set<string>();
      for (const sibling of siblings) {
        if (sibling === page) continue;
        const p = finalPath.get(sibling);
        if (p !== undefined) siblingSlugs.add(slugFromPath(contentRelative(config, p)));
        else if (sibling.type === 'group') siblingSlugs.add(groupSlug.get(sibling) ?? sibling.slug ?? '');
      }
      const wanted = desired.get(page);
      if (wanted !== undefined) path = placeMoved(state, wanted);
      else if (page === firstDocument && isFree(state, config.readme)) path = config.readme;
      else {
        const base = SAFE_SLUG(page.slug) ? page.slug : slugify(page.title) || 'untitled';
        const at = (name: string): string =>
          page.pages.length > 0 ? joinPath(parentDir, name, 'README.md') : joinPath(parentDir, `${name}.md`);
        const name = uniqueName(base, (candidate) => siblingSlugs.has(candidate) || !isFree(state, at(candidate)));
        path = at(name);
      }
      finalPath.set(page, path);
      state.used.add(path);
    }
    childDir.set(page, pageChildDir(config, path, parentDir));
  }

  // ─── New files ───
  for (const file of newFiles) {
    const name = (file.name || 'file').replace(/[/\\]/g, '-').replace(/^\.+$/, 'file');
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : '';
    const at = (n: number): string => joinPath(config.root, '.gitbook/assets', n === 0 ? name : `${stem} (${n})${ext}`);
    let k = 0;
    while (!isFree(state, at(k))) k += 1;
    const path = at(k);
    filePath.set(file, path);
    state.used.add(path);
  }
  const fileById = new Map<string, string>();
  const fileByPath = new Map<string, string>();
  for (const [file, path] of filePath) {
    if (!fileById.has(file.id)) fileById.set(file.id, path);
    fileByPath.set(path, file.id);
  }

  // ─── Render pages ───
  const moved = new Map<string, string>();
  for (const [page, orig] of origin) {
    const path = finalPath.get(page);
    if (path !== undefined && path !== orig) moved.set(orig, path);
  }
  const existsAfter = { has: (path: string) => existsIn(current, path) || fileByPath.has(path) };
  const written = new Map<string, ContentPage>();
  for (const { page } of walked) {
    if (page.type !== 'document') continue;
    const path = finalPath.get(page) as string;
    const from = origin.get(page) ?? naturalPath(config, page, modelPaths.get(page) ?? '', page === firstDocument);
    let markdown = page.markdown ?? '';
    if (moved.size > 0 || from !== path) markdown = rewriteLinks(state, markdown, from, path, moved);
    const cover = coverCodec(config, existsAfter, path, fileById, fileByPath);
    const text = renderPage(state, page, markdown, cover, path);
    const bytes = pageEncoder.encode(text);
    const existing = lookup(current, path);
    const unchanged = existing !== null && pageDecoder.decode(existing.file.data) === text;
    if (!unchanged) {
      const target = writePath(current, path);
      const other = written.get(target);
      if (other) state.warnings.push(`${target}: written for pages "${other.title}" and "${page.title}"; the last one wins`);
      written.set(target, page);
      writes.set(target, bytes);
    }
    // The page as written.
    const parsed = parsePageFile(text, { data: false });
    page.markdown = parsed.markdown;
    setExtra(page, {
      frontMatter: parsed.frontMatter?.raw,
      heading: parsed.heading?.raw ?? '',
      summaryTitle: parsed.heading && parsed.heading.text !== page.title ? page.title : undefined,
      linkTitle: extraString(page, 'linkTitle'),
      computed: extraString(page, 'computed'),
      computedInfo: extraString(page, 'computedInfo'),
    });
    page.git = { oid: blobAfter(current, path, existing, unchanged ? undefined : bytes), path };
    page.slug = slugFromPath(contentRelative(config, path));
  }
  for (const [page, slug] of groupSlug) page.slug = slug;

  // ─── Files ───
  for (const [file, path] of filePath) {
    const existing = lookup(current, path);
    const unchanged = existing !== null && sameBytes(existing.file.data, file.data);
    if (!unchanged) writes.set(writePath(current, path), file.data);
    file.git = { oid: blobAfter(current, path, existing, unchanged ? undefined : file.data), path };
    if (file.name !== basename(path)) file.name = basename(path);
  }

  // ─── SUMMARY.md ───
  const pathById = new Map<string, string>();
  for (const [page, path] of finalPath) if (!pathById.has(page.id)) pathById.set(page.id, path);
  const currentPathById = new Map<string, string>();
  for (const { page } of walkPages(before.tree.pages)) if (page.git) currentPathById.set(page.id, page.git.path);
  const wantedStructure = JSON.stringify(structure(pages, (page) => finalPath.get(page), pathById));
  const currentStructure = JSON.stringify(structure(before.tree.pages, (page) => page.git?.path, currentPathById));
  if (wantedStructure !== currentStructure) {
    const entries = summaryEntries(state, pages, finalPath, pathById, fileById);
    const text = writeSummary(entries);
    const existing = lookup(current, config.summary);
    if (!existing || pageDecoder.decode(existing.file.data) !== text) {
      writes.set(writePath(current, config.summary), pageEncoder.encode(text));
    }
  }

  // ─── Deletes: what the space owned and no longer has there ───
  const keep = new Set<string>();
  for (const path of [...finalPath.values(), ...filePath.values()]) {
    keep.add(path);
    const resolved = lookup(current, path);
    if (resolved) keep.add(resolved.path);
  }
  const deletes = [...state.owned].filter((path) => !keep.has(path) && !writes.has(path)).sort();

  // The last line of defence of "an export never touches a file outside its project directory".
  const outside = [...writes.keys(), ...deletes].find((path) => !isInside(path, projectDirectory));
  if (outside !== undefined) throw new GitSyncError(`the export would change ${outside}, outside the project directory "${projectDirectory}"`, { file: outside });
  return { writes, deletes, tree: out, warnings: state.warnings };
}

/** Where an imported page should be now (its own path unless a move rule applies). */
function existingPagePath(state: State, page: ContentPage, orig: string, hadChildren: boolean | undefined): string {
  const { config } = state;
  if (orig === config.readme || !isInside(orig, config.root)) return orig;
  const isReadme = basename(orig).toLowerCase() === 'readme.md';
  const dir = dirname(orig);
  const hasChildren = page.pages.length > 0;
  const pathSlug = slugFromPath(contentRelative(config, orig));
  const renamed = SAFE_SLUG(page.slug) && page.slug !== pathSlug ? page.slug : undefined;
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
function placeMoved(state: State, wanted: string): string {
  if (isFree(state, wanted)) return wanted;
  const isReadme = basename(wanted) === 'README.md';
  const dir = isReadme ? dirname(dirname(wanted)) : dirname(wanted);
  const name = isReadme ? basename(dirname(wanted)) : basename(wanted).replace(/\.md$/i, '');
  const at = (candidate: string): string =>
    isReadme ? joinPath(dir, candidate, 'README.md') : joinPath(dir, `${candidate}.md`);
  return at(uniqueName(name, (candidate) => !isFree(state, at(candidate))));
}

/** The folder new children of a page at `path` go to. */
function pageChildDir(config: GitBookConfig, path: string, parentDir: string): string {
  if (path === config.readme) return joinPath(parentDir, slugFromPath(contentRelative(config, path)));
  if (basename(path).toLowerCase() === 'readme.md') return dirname(path);
  return path.replace(/\.md$/i, '');
}

/** The path a page without `git.path` is written from: its slug path. */
function naturalPath(config: GitBookConfig, page: ContentPage, slugPath: string, first: boolean): string {
  if (slugPath === '' || (first && !page.slug)) return config.readme;
  return joinPath(config.root, page.pages.length > 0 ? `${slugPath}/README.md` : `${slugPath}.md`);
}

function coverCodec(
  config: GitBookConfig,
  exists: { has(path: string): boolean },
  pagePath: string,
  fileById: Map<string, string>,
  fileByPath: Map<string, string>,
): CoverCodec {
  return {
    write: (ref: ContentRef) => {
      if (ref.kind === 'url') return ref.url;
      if (ref.kind !== 'file') return undefined;
      const path = fileById.get(ref.file);
      return path === undefined ? undefined : relativePath(dirname(pagePath), path);
    },
    read: (value: string) => {
      const trimmed = value.trim();
      if (trimmed === '' || trimmed.startsWith('#')) return undefined;
      if (/^[a-zA-Z][a-zA-Z0-9+.-]*:|^\/\//.test(trimmed)) return { kind: 'url', url: trimmed };
      const resolved = resolveReference(exists, config, pagePath, trimmed);
      const id = resolved && !resolved.dir ? fileByPath.get(resolved.path) : undefined;
      return id === undefined ? undefined : { kind: 'file', file: id };
    },
  };
}

function renderPage(
  state: State,
  page: ContentPage,
  markdown: string,
  cover: CoverCodec,
  path: string,
): string {
  const rawFrontMatter = extraString(page, 'frontMatter');
  const block = rawFrontMatter !== undefined ? splitFrontMatter(rawFrontMatter).frontMatter : undefined;
  const rawHeading = extraString(page, 'heading');
  const eol = detectEol(rawFrontMatter ?? rawHeading ?? (markdown.includes('\n') ? markdown : '\n'));
  const frontMatter = renderFrontMatter(block, page, cover, eol);
  if (frontMatter.warning) state.warnings.push(`${path}: ${frontMatter.warning}`);
  let heading = '';
  if (rawHeading === undefined) {
    // Not read from a file by this converter: GitBook's layout, `# Title` then a blank line.
    heading = headingLine(page.title) + eol + (markdown !== '' ? eol : '');
  } else if (rawHeading !== '') {
    const importedTitle = extraString(page, 'summaryTitle') ?? splitLeadingHeading(rawHeading)?.text;
    heading = page.title === importedTitle ? rawHeading : replaceLeadingHeading(rawHeading, page.title);
  }
  if (frontMatter.text !== undefined && block === undefined && heading !== '' && !/^[ \t]*\r?\n/.test(heading)) {
    heading = eol + heading;
  }
  if (frontMatter.text === undefined && block !== undefined) heading = heading.replace(/^(?:[ \t]*\r?\n)+/, '');
  return (frontMatter.text ?? '') + heading + markdown;
}

/** The blob at `path` once written: a symbolic link keeps its own blob; else the bytes written, or those already there. */
function blobAfter(current: RepoSnapshot, path: string, existing: ResolvedFile | null, written: Uint8Array | undefined): string {
  const entry = current.get(path);
  if (entry?.mode === 'symlink') return gitBlobOid(entry.data);
  if (written) return gitBlobOid(written);
  return gitBlobOid((entry ?? existing?.file)?.data ?? new Uint8Array());
}


// ─── Links ───────────────────────────────────────────────────────────────

/** Rewrites the relative links of a page written at `to` instead of `from`, and links to pages that moved. */
function rewriteLinks(state: State, markdown: string, from: string, to: string, moved: Map<string, string>): string {
  const { config, current } = state;
  const exists = { has: (path: string) => existsIn(current, path) };
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const links = extractLinks(markdown);
  // Only links that can lead to a moved page matter when the page itself stays.
  if (from === to && !links.some((link) => mayPointAt(link.target, moved))) return markdown;
  for (const link of links) {
    if (link.kind !== 'relative' && link.kind !== 'file') continue;
    if (from === to && !mayPointAt(link.target, moved)) continue;
    const resolved = resolveReference(exists, config, from, link.target);
    if (!resolved) continue;
    const key = resolved.dir ? joinPath(resolved.path, 'README.md') : resolved.path;
    const movedTo = moved.get(key);
    if (from === to && movedTo === undefined) continue;
    let value: string;
    if (link.target.startsWith('/')) {
      if (movedTo === undefined) continue;
      value = `/${relativePath(config.root, movedTo)}`;
    } else {
      const base = dirname(to);
      if (movedTo === undefined) {
        value = resolved.dir ? `${relativePath(base, resolved.path) || '.'}/` : relativePath(base, resolved.path);
      } else if (resolved.dir && basename(movedTo) === 'README.md') {
        value = `${relativePath(base, dirname(movedTo)) || '.'}/`;
      } else value = relativePath(base, movedTo);
    }
    const check = resolveReference(exists, config, to, link.target);
    const wantedPath = movedTo ?? key;
    if (check && (check.dir ? joinPath(check.path, 'README.md') : check.path) === wantedPath && check.dir === resolved.dir) continue;
    edits.push({ start: link.start, end: link.end, text: formatTarget(value + resolved.suffix, link) });
  }
  let out = markdown;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/** Whether a link target can name one of the moved files (by its last path segment, or a folder). */
function mayPointAt(target: string, moved: Map<string, string>): boolean {
  const path = target.replace(/[?#].*$/s, '').replace(/\/+$/, '');
  let name = path.slice(path.lastIndexOf('/') + 1);
  try {
    name = decodeURIComponent(name);
  } catch {
    // As written.
  }
  if (name === '' || name === '.' || name === '..' || target.endsWith('/')) return true;
  return movedNames(moved).has(name);
}

const movedNameCache = new WeakMap<Map<string, string>, Set<string>>();

/** The names a link to a moved file can end with: its file name, or its folder's for a README. */
function movedNames(moved: Map<string, string>): Set<string> {
  let names = movedNameCache.get(moved);
  if (!names) {
    names = new Set();
    for (const old of moved.keys()) {
      names.add(basename(old));
      if (basename(old).toLowerCase() === 'readme.md') names.add(basename(dirname(old)));
    }
    movedNameCache.set(moved, names);
  }
  return names;
}

/** A new destination written the way the old one was (`<…>`, percent-encoded, or raw). */
function formatTarget(value: string, link: ExtractedLink): string {
  const cut = value.search(/[?#]/);
  const path = cut < 0 ? value : value.slice(0, cut);
  const suffix = cut < 0 ? '' : value.slice(cut);
  if (link.raw.startsWith('<')) return `<${path.replace(/[<>]/g, (c) => `\\${c}`)}${suffix}>`;
  if (/%[0-9a-fA-F]{2}/.test(link.raw)) return encodeURI(path) + suffix;
  if (link.via === 'link' || link.via === 'image') {
    return /[\s<>()]/.test(path) ? `<${path.replace(/[<>]/g, (c) => `\\${c}`)}${suffix}>` : path + suffix;
  }
  return (path + suffix).replace(/"/g, '%22');
}

// ─── Structure and SUMMARY.md ────────────────────────────────────────────

type StructureNode = Array<string | number | StructureNode[]>;

/** What SUMMARY.md says of a tree: types, titles, link titles, files, targets, nesting. */
function structure(
  pages: ContentPage[],
  pathOf: (page: ContentPage) => string | undefined,
  pathById: Map<string, string>,
): StructureNode[] {
  return pages.map((page): StructureNode => {
    const children = structure(page.pages, pathOf, pathById);
    const linkTitle = extraString(page, 'linkTitle') ?? '';
    if (page.type === 'group') return ['group', page.title, page.slug ?? '', children];
    if (page.type === 'document') return ['document', page.title, linkTitle, pathOf(page) ?? '', children];
    const computed = extraString(page, 'computed');
    if (computed !== undefined) return ['computed', computed, extraString(page, 'computedInfo') ?? '', children];
    return ['link', page.title, linkTitle, linkKey(page.target, pathById), children];
  });
}

function linkKey(target: ContentRef | undefined, pathById: Map<string, string>): string {
  if (!target) return '';
  switch (target.kind) {
    case 'url':
      return `url:${target.url}`;
    case 'page':
      return `page:${pathById.get(target.page) ?? `?${target.page}`}`;
    case 'anchor':
      return `page:${target.page !== undefined ? (pathById.get(target.page) ?? `?${target.page}`) : ''}#${target.anchor}`;
    case 'file':
      return `file:${target.file}`;
    case 'space':
      return `space:${target.space}`;
  }
}

function summaryEntries(
  state: State,
  pages: ContentPage[],
  finalPath: Map<ContentPage, string>,
  pathById: Map<string, string>,
  fileById: Map<string, string>,
): SummaryEntry[] {
  const { config } = state;
  const href = (path: string): string => relativePath(config.root, path);
  const items = (list: ContentPage[]): SummaryItem[] => {
    const out: SummaryItem[] = [];
    for (const page of list) {
      if (page.type === 'group') {
        state.warnings.push(`group "${page.title}" is not at the root; its pages are written in its place`);
        out.push(...items(page.pages));
        continue;
      }
      const children = items(page.pages);
      const linkTitle = extraString(page, 'linkTitle');
      const withTitle = <T extends SummaryItem>(item: T): T => {
        if (linkTitle !== undefined && item.kind === 'link') item.linkTitle = linkTitle;
        return item;
      };
      if (page.type === 'document') {
        out.push(withTitle({ kind: 'link', title: page.title, href: href(finalPath.get(page) as string), line: 0, children }));
        continue;
      }
      const computed = extraString(page, 'computed');
      if (computed !== undefined) {
        out.push({ kind: 'computed', yaml: computed, info: extraString(page, 'computedInfo') ?? 'yaml', line: 0, children });
        continue;
      }
      const target = page.target;
      let destination: string | undefined;
      if (target?.kind === 'url') destination = target.url;
      else if (target?.kind === 'page') {
        const path = pathById.get(target.page);
        if (path !== undefined) destination = href(path);
      } else if (target?.kind === 'anchor') {
        const path = target.page !== undefined ? pathById.get(target.page) : undefined;
        if (target.page === undefined) destination = `#${target.anchor}`;
        else if (path !== undefined) destination = `${href(path)}#${target.anchor}`;
      } else if (target?.kind === 'file') {
        const path = fileById.get(target.file);
        if (path !== undefined) destination = href(path);
      } else if (target?.kind === 'space') destination = `https://app.gitbook.com/s/${target.space}/`;
      destination ??= page.href;
      if (destination === undefined) {
        state.warnings.push(`link page "${page.title}" has no target that can be written; left out of ${config.summary}`);
        out.push(...children);
        continue;
      }
      out.push(withTitle({ kind: 'link', title: page.title, href: destination, line: 0, children }));
    }
    return out;
  };
  const entries: SummaryEntry[] = [];
  for (const page of pages) {
    if (page.type === 'group') {
      entries.push({ kind: 'group', title: page.title, slug: page.slug ?? slugify(page.title), line: 0, children: items(page.pages) });
    } else entries.push(...items([page]));
  }
  return entries;
}

