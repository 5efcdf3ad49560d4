/**
 * Git Sync import: a repository snapshot in GitBook's layout → a ContentTree.
 *
 * - `.gitbook.yaml` (in the project directory) says where the content root,
 *   the first page and the table of contents are.
 * - With a SUMMARY.md, its items are the pages: `##` headings are groups, a
 *   local `.md` link is a document page (a file listed twice is one document,
 *   the occurrence with children or else the first, plus link pages to it),
 *   anchors (`x.md#y`, `#y`) and URLs are link pages, fenced YAML items are
 *   kept as link pages holding `extra.computed`. The first page
 *   (`structure.readme`) is added first when SUMMARY.md does not list it.
 *   Files it does not list are not pages.
 * - Without one, pages come from folders: the readme first, then every `.md`
 *   file and folder in name order, a folder's README.md being its page.
 * - Files are everything under `<root>/.gitbook/assets/` plus every file a
 *   page references (links, images, HTML, `{% file %}`, `cover:`).
 * - Reusable contents are the `.md` files directly under `<root>/.gitbook/includes/`: they
 *   travel as files of the tree (bytes kept, so export writes them back as they were), with
 *   ids starting `rc_` (REUSABLE_ID_PREFIX) that tell them from the space's other files.
 *
 * Paths that leave the repository (or the project directory) in the
 * configuration or SUMMARY.md, and symbolic links that point outside the
 * repository, are refused with a GitSyncError. Page links that lead nowhere
 * are only reported as warnings.
 */
import { lineNumbers, scanLinks, classifyTarget, resolveRelative } from '../content-model/links.js';
import type { ContentFile, ContentPage, ContentRef, ContentTree } from '../content-model/model.js';
import { REUSABLE_ID_PREFIX, walkPages } from '../content-model/model.js';
import { fileOid } from './blob.js';
import { readConfig, type GitBookConfig } from './config.js';
import { GitSyncError } from './errors.js';
import { layoutOf, type SyncLayout } from './layout.js';
import { fieldsFromFrontMatter } from './frontmatter.js';
import { contentTypeOf, imageDimensions } from './media.js';
import { pageDecoder, parsePageFile, setExtra } from './page.js';
import { basename, dirname, isInside, joinPath, normalizePath, relativePath, resolveFile } from './paths.js';
import { slugFromPath } from './slug.js';
import { parseSummary, type SummaryItem, type SummaryLink } from './summary.js';
import type { RepoFile, RepoSnapshot } from './types.js';
import { MAX_PAGE_DEPTH, requireImportableSize } from './limits.js';
import { Warnings } from './warnings.js';
import { runInSlices, runSteps } from '../util/slices.js';

export interface ImportOptions {
  /** Folder of the repository holding `.gitbook.yaml` and the content ('' or undefined: the root). */
  projectDirectory?: string;
  /** New ids, for pages and files `previous` has no match for. */
  ids: () => string;
  /** The space's current content: pages keep their ids (matched by `git.path`, then by path of slugs), files too (by `git.path`, then blob). */
  previous?: ContentTree;
  /** False: leave `.gitbook/includes/` out (what a space that never imported its reusable contents owns of a repository). */
  reusableContents?: boolean;
  /**
   * The caller has no use for `snapshot` afterwards: each page's bytes are let go from it
   * once decoded (the entry keeps its path and blob id), so a 4,000-page import does not hold
   * ~23 MB of page bytes beside the text made of them until the conversion ends.
   */
  consume?: boolean;
}


export interface ImportResult {
  tree: ContentTree;
  warnings: string[];
  /** Pages, files (reusable contents left out) and reusable contents imported. */
  stats: { pages: number; files: number; reusableContents: number };
  /** The configuration read (redirects included). */
  config: GitBookConfig;
  /** The layout read: what the space remembers of the repository (layout.ts). */
  layout: SyncLayout;
}

/** Where a document page came from: what import needs after the tree is built. */
interface DocInfo {
  path: string;
  /** Front matter and body text, to find the files it references. */
  body: string;
  /** `cover:` as written. */
  coverValue?: string;
}

interface Context {
  snapshot: RepoSnapshot;
  config: GitBookConfig;
  warnings: Warnings;
  docs: Map<ContentPage, DocInfo>;
  docByPath: Map<string, ContentPage>;
  /** Link pages to a local page: the page's repository path and anchor. */
  linkTargets: Map<ContentPage, { path: string; anchor?: string; raw: string }>;
  /** With `consume`: the text of each page file whose bytes were let go, by its path (a symbolic link may lead to it again). */
  texts: Map<string, string> | undefined;
}

export function importRepository(snapshot: RepoSnapshot, options: ImportOptions): ImportResult {
  return runSteps(importSteps(snapshot, options));
}

/**
 * `importRepository` a page at a time, the event loop running between slices: `serve`
 * keeps answering while a repository of thousands of pages is converted.
 */
export function importRepositoryInSlices(snapshot: RepoSnapshot, options: ImportOptions): Promise<ImportResult> {
  return runInSlices(importSteps(snapshot, options), true);
}

/** The conversion as steps: each yield is a point where the work may pause. */
function* importSteps(snapshot: RepoSnapshot, options: ImportOptions): Generator<void, ImportResult> {
  const config = readConfig(snapshot, options.projectDirectory);
  const ctx: Context = {
    snapshot,
    config,
    warnings: new Warnings(),
    docs: new Map(),
    docByPath: new Map(),
    linkTargets: new Map(),
    texts: options.consume === true ? new Map() : undefined,
  };
  const summary = resolveFile(snapshot, config.summary);
  const pages = summary ? yield* pagesFromSummary(ctx, readText(summary.file, config.summary)) : yield* pagesFromFolders(ctx);
  const files = yield* collectFiles(ctx, options.reusableContents !== false);
  const tree: ContentTree = { pages, files };
  assignIds(tree, ctx, options);
  yield;
  resolveReferences(tree, ctx);
  if (pages.length === 0) {
    ctx.warnings.push(`no pages found in ${config.root === '' ? 'the repository' : config.root}`);
  }
  const count = [...walkPages(tree.pages)].length;
  const reusableContents = files.filter((file) => file.id.startsWith(REUSABLE_ID_PREFIX)).length;
  return { tree, warnings: ctx.warnings.list, stats: { pages: count, files: files.length - reusableContents, reusableContents }, config, layout: layoutOf(snapshot, config.projectDirectory) };
}

// ─── Pages ────────────────────────────────────────────────────────────────

/** Path of a repository file relative to the content root (or as is when outside it). */
function contentRelative(config: GitBookConfig, path: string): string {
  return isInside(path, config.root) ? relativePath(config.root, path) : path;
}

/** The bytes of a file read as text (a page, the table of contents), within the import's limits. */
function textBytes(file: RepoFile, path: string): Uint8Array {
  if (file.stored) throw new GitSyncError(`${path}: a file of .gitbook/assets cannot be read as a page`, { file: path });
  requireImportableSize(path, file.data.byteLength);
  return file.data;
}

/** A file's text: as the reader decoded it (exactly, as it streamed), else its bytes decoded as a page's. */
function readText(file: RepoFile, path: string): string {
  if (file.text === undefined) return pageDecoder.decode(textBytes(file, path));
  requireImportableSize(path, file.size ?? 0);
  return file.text;
}

/** Reads a page file into a document page (title from SUMMARY.md when given, else its H1, else its name). Null when missing. */
function readDocument(
  ctx: Context,
  path: string,
  summaryTitle: string | undefined,
  fallbackTitle: string,
): ContentPage | null {
  const found = resolveFile(ctx.snapshot, path);
  if (!found) return null;
  const text = pageText(ctx, found, path);
  const parsed = parsePageFile(text);
  if (parsed.frontMatterRefused) throw new GitSyncError(`${path}: front matter refused: ${parsed.frontMatterError ?? 'hostile YAML'}`, { file: path });
  if (parsed.frontMatterError !== undefined) {
    ctx.warnings.push(`${path}: front matter ignored (${parsed.frontMatterError}); kept as written`);
  }
  let coverValue: string | undefined;
  const fields = fieldsFromFrontMatter(parsed.data, (value) => {
    coverValue = value;
    return coverReference(ctx, path, value);
  });
  const headingText = parsed.heading?.text;
  const title = summaryTitle !== undefined && summaryTitle !== '' ? summaryTitle : (headingText ?? fallbackTitle);
  const page: ContentPage = {
    id: '',
    type: 'document',
    title: ownCopy(title) as string,
    slug: slugFromPath(contentRelative(ctx.config, path)),
    ...ownCopies(fields),
    git: { oid: fileOid(found.entry), path },
    markdown: parsed.markdown,
    pages: [],
  };
  setExtra(page, {
    frontMatter: ownCopy(parsed.frontMatter?.raw),
    heading: ownCopy(parsed.heading?.raw) ?? '',
    summaryTitle: parsed.heading && parsed.heading.text !== title ? title : undefined,
  });
  const info: DocInfo = { path, body: text.slice(parsed.frontMatter?.raw.length ?? 0) };
  if (coverValue !== undefined) info.coverValue = coverValue;
  ctx.docs.set(page, info);
  if (!ctx.docByPath.has(path)) ctx.docByPath.set(path, page);
  return page;
}

const NO_BYTES = new Uint8Array(0);

/**
 * The text of a page file. With `consume`, its bytes are let go once decoded, unless another
 * part of the import reads them: the files of `.gitbook/` (assets, reusable contents: their
 * bytes are kept as files), `.gitbook.yaml` and the table of contents (layoutOf).
 */
function pageText(ctx: Context, found: NonNullable<ReturnType<typeof resolveFile>>, path: string): string {
  const known = ctx.texts?.get(found.path);
  if (known !== undefined) return known;
  const text = readText(found.file, path);
  const { config } = ctx;
  if (ctx.texts !== undefined && found.path !== config.summary && found.path !== config.path && !found.path.includes('.gitbook/')) {
    const { text: _text, size: _size, ...kept } = { ...found.file };
    ctx.snapshot.set(found.path, { ...kept, data: NO_BYTES, oid: fileOid(found.file) });
    ctx.texts.set(found.path, text);
  }
  return text;
}

/**
 * `piece` (a part of a page's text) as a string of its own. V8 keeps a substring of 13 or
 * more characters as a view of the whole text: a page's front matter or heading kept that
 * way holds its whole file in memory after its body is let go (an import indexing 4,000
 * pages held ~20 MB of page text through them). Concatenating flattens into a new string.
 */
function ownCopy(piece: string | undefined): string | undefined {
  return piece === undefined || piece.length < 13 ? piece : ` ${piece}`.slice(1);
}

/** `fields` (read from a page's front matter) with each string a string of its own (`ownCopy`). */
function ownCopies<T>(fields: T): T {
  if (typeof fields === 'string') return ownCopy(fields) as T;
  if (Array.isArray(fields)) return fields.map((item: unknown) => ownCopies(item)) as T;
  if (typeof fields !== 'object' || fields === null) return fields;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) copy[key] = ownCopies(value);
  return copy as T;
}

/** A `cover:` value as a reference: a URL, or (for now) the repository path of a file, replaced by its id later. */
function coverReference(ctx: Context, pagePath: string, value: string): ContentRef | undefined {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:|^\/\//.test(trimmed)) return { kind: 'url', url: trimmed };
  const resolved = resolveReference(ctx.snapshot, ctx.config, pagePath, trimmed);
  if (!resolved || resolved.dir || !resolveFile(ctx.snapshot, resolved.path)) return undefined;
  return { kind: 'file', file: resolved.path };
}

/**
 * Resolves a link target written in the file at `from` (a repository path):
 * relative to the file, or to the content root when it starts with `/`.
 * Null when it leaves the project directory. `#` in file names is honoured
 * when such a file exists. `suffix` is the `#anchor`/`?query` part.
 */
export function resolveReference(
  snapshot: { has(path: string): boolean },
  config: Pick<GitBookConfig, 'root' | 'projectDirectory'>,
  from: string,
  target: string,
): { path: string; suffix: string; dir: boolean } | null {
  const resolveWith = (value: string): string | null => {
    const resolved = value.startsWith('/')
      ? resolveRelative(joinPath(config.root, '_'), `.${value}`)
      : resolveRelative(from, value);
    if (resolved === null) return null;
    return isInside(resolved.replace(/\/$/, ''), config.projectDirectory) ? resolved : null;
  };
  if (/[#?]/.test(target)) {
    const literal = resolveWith(target.replace(/#/g, '%23').replace(/\?/g, '%3F'));
    if (literal !== null && snapshot.has(literal)) return { path: literal, suffix: '', dir: false };
  }
  const resolved = resolveWith(target);
  if (resolved === null) return null;
  const cut = target.search(/[?#]/);
  const suffix = cut < 0 ? '' : target.slice(cut);
  if (resolved.endsWith('/')) return { path: resolved.slice(0, -1), suffix, dir: true };
  return { path: resolved, suffix, dir: false };
}

/** Entries each link memo of `collectFiles` keeps at most. */
const MEMO_ENTRIES = 10_000;

type Resolved =
  | { kind: 'page'; path: string; anchor?: string }
  | { kind: 'anchor'; anchor: string }
  | { kind: 'url'; url: string }
  | { kind: 'other'; raw: string };

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:|^\/\//;

/** What a SUMMARY.md destination points at. Throws when a local path leaves the project directory or is absolute. */
function resolveSummaryHref(ctx: Context, href: string, line: number): Resolved {
  const file = ctx.config.summary;
  const value = href.trim();
  if (SCHEME.test(value)) return { kind: 'url', url: value };
  const hash = value.indexOf('#');
  const pathPart = hash < 0 ? value : value.slice(0, hash);
  const anchor = hash < 0 ? undefined : value.slice(hash + 1);
  if (pathPart === '') return { kind: 'anchor', anchor: anchor ?? '' };
  let decoded = pathPart.replace(/\\/g, '/');
  try {
    decoded = decodeURI(decoded);
  } catch {
    // Keep it as written.
  }
  if (decoded.startsWith('/')) {
    throw new GitSyncError(`${file}: line ${line}: absolute path "${href}" is not allowed (paths are relative to the content root)`, {
      file,
    });
  }
  const joined = normalizePath(joinPath(ctx.config.root, decoded));
  if (joined === null || !isInside(joined, ctx.config.projectDirectory)) {
    throw new GitSyncError(`${file}: line ${line}: "${href}" leaves the ${ctx.config.projectDirectory ? 'project directory' : 'repository'}`, {
      file,
    });
  }
  const path = decoded.endsWith('/') || joined === '' ? joinPath(joined, 'README.md') : joined;
  if (!/\.md$/i.test(path)) return { kind: 'other', raw: value };
  return anchor === undefined ? { kind: 'page', path } : { kind: 'page', path, anchor };
}

// eslint-disable-next-line max-lines-per-function -- one pass over the items of SUMMARY.md sharing the nesting stack and the set of paths seen
function* pagesFromSummary(ctx: Context, text: string): Generator<void, ContentPage[]> {
  const { config } = ctx;
  const parsed = parseSummary(text, config.summary);
  ctx.warnings.push(...parsed.warnings);

  // Resolve every destination first, then pick which occurrence of each file is its document.
  const resolved = new Map<SummaryLink, Resolved>();
  const occurrences = new Map<string, SummaryLink[]>();
  const visit = function* (items: SummaryItem[]): Generator<void, void> {
    for (const item of items) {
      if (item.kind === 'link') {
        const r = resolveSummaryHref(ctx, item.href, item.line);
        resolved.set(item, r);
        if (r.kind === 'page' && r.anchor === undefined) {
          const list = occurrences.get(r.path) ?? [];
          list.push(item);
          occurrences.set(r.path, list);
        }
      }
      yield* visit(item.children);
      yield;
    }
  };
  for (const entry of parsed.entries) yield* visit(entry.kind === 'group' ? entry.children : [entry]);
  const documentItem = new Map<string, SummaryLink>();
  for (const [path, items] of occurrences) {
    documentItem.set(path, items.find((item) => item.children.length > 0) ?? (items[0] as SummaryLink));
  }

  // A generator, so the conversion may pause after each page read (importRepositoryInSlices).
  const build = function* (items: SummaryItem[]): Generator<void, ContentPage[]> {
    const pages: ContentPage[] = [];
    for (const item of items) {
      const children = yield* build(item.children);
      if (item.kind === 'computed') {
        const page: ContentPage = { id: '', type: 'link', title: '', pages: children };
        setExtra(page, { computed: item.yaml, computedInfo: item.info });
        pages.push(page);
        ctx.warnings.push(`${config.summary}: line ${item.line}: computed page kept as written (not converted)`);
        continue;
      }
      const r = resolved.get(item) as Resolved;
      if (r.kind === 'page' && r.anchor === undefined && documentItem.get(r.path) === item) {
        const page = readDocument(ctx, r.path, item.title, fallbackTitle(r.path));
        yield;
        if (!page) {
          ctx.warnings.push(`${config.summary}: line ${item.line}: "${item.href}" does not exist; not imported`);
          for (const child of children) pages.push(child);
          continue;
        }
        page.pages = children;
        if (item.linkTitle !== undefined) setExtra(page, { ...currentExtra(page), linkTitle: item.linkTitle });
        pages.push(page);
        continue;
      }
      const page: ContentPage = { id: '', type: 'link', title: item.title, pages: children };
      if (item.linkTitle !== undefined) setExtra(page, { linkTitle: item.linkTitle });
      if (r.kind === 'url') {
        page.target = { kind: 'url', url: r.url };
        page.href = r.url;
      } else if (r.kind === 'anchor') {
        page.target = { kind: 'anchor', anchor: r.anchor };
      } else if (r.kind === 'page') {
        const target: { path: string; anchor?: string; raw: string } = { path: r.path, raw: item.href };
        if (r.anchor !== undefined) target.anchor = r.anchor;
        ctx.linkTargets.set(page, target);
      } else {
        ctx.warnings.push(`${config.summary}: line ${item.line}: "${item.href}" is not a Markdown page; kept as a link`);
        page.target = { kind: 'url', url: r.raw };
        page.href = r.raw;
      }
      pages.push(page);
    }
    return pages;
  };

  const pages: ContentPage[] = [];
  for (const entry of parsed.entries) {
    if (entry.kind === 'group') {
      pages.push({ id: '', type: 'group', title: entry.title, slug: entry.slug, pages: yield* build(entry.children) });
    } else for (const page of yield* build([entry])) pages.push(page);
  }

  // The first page is always the readme: add it when SUMMARY.md leaves it out.
  if (!ctx.docByPath.has(config.readme) && resolveFile(ctx.snapshot, config.readme)) {
    const readme = readDocument(ctx, config.readme, undefined, 'Introduction');
    if (readme) {
      pages.unshift(readme);
      ctx.warnings.push(`${config.summary}: does not list ${config.readme}; added as the first page`);
    }
  }
  return pages;
}

function currentExtra(page: ContentPage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(page.extra ?? {})) if (typeof value === 'string') out[key] = value;
  return out;
}

function fallbackTitle(path: string): string {
  const name = basename(path);
  if (name.toLowerCase() === 'readme.md') {
    const dir = basename(dirname(path));
    return dir || 'Introduction';
  }
  return name.replace(/\.md$/i, '');
}

interface FolderNode {
  files: Map<string, string>;
  dirs: Map<string, FolderNode>;
}

function* pagesFromFolders(ctx: Context): Generator<void, ContentPage[]> {
  const { config, snapshot } = ctx;
  const top: FolderNode = { files: new Map(), dirs: new Map() };
  for (const path of snapshot.keys()) {
    if (!isInside(path, config.root) || path === config.root) continue;
    const rel = relativePath(config.root, path);
    const segments = rel.split('/');
    if (segments.some((segment) => segment.startsWith('.'))) continue;
    if (!/\.md$/i.test(rel) || path === config.summary || path === config.readme) continue;
    if (segments.length > MAX_PAGE_DEPTH) {
      throw new GitSyncError(`${path}: pages nested more than ${MAX_PAGE_DEPTH} levels deep (one per folder)`, { file: path, tooLarge: true });
    }
    let node = top;
    for (const segment of segments.slice(0, -1)) {
      let next = node.dirs.get(segment);
      if (!next) node.dirs.set(segment, (next = { files: new Map(), dirs: new Map() }));
      node = next;
    }
    node.files.set(segments[segments.length - 1] as string, path);
  }
  const order = (a: string, b: string): number => {
    const la = a.toLowerCase();
    const lb = b.toLowerCase();
    if (la !== lb) return la < lb ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  const build = function* (node: FolderNode, isRoot: boolean): Generator<void, ContentPage[]> {
    const entries: Array<{ name: string; file?: string; dir?: FolderNode }> = [];
    for (const [name, path] of node.files) {
      if (!isRoot && name.toLowerCase() === 'readme.md') continue;
      entries.push({ name: name.replace(/\.md$/i, ''), file: path });
    }
    for (const [name, dir] of node.dirs) entries.push({ name, dir });
    entries.sort((a, b) => order(a.name, b.name));
    const pages: ContentPage[] = [];
    for (const entry of entries) {
      if (entry.file !== undefined) {
        const page = readDocument(ctx, entry.file, undefined, entry.name);
        if (page) pages.push(page);
        yield;
        continue;
      }
      const dir = entry.dir as FolderNode;
      const children = yield* build(dir, false);
      const readmeName = [...dir.files.keys()].filter((name) => name.toLowerCase() === 'readme.md').sort()[0];
      const readme = readmeName !== undefined ? readDocument(ctx, dir.files.get(readmeName) as string, undefined, entry.name) : null;
      if (readme) {
        readme.pages = children;
        pages.push(readme);
      } else for (const child of children) pages.push(child);
    }
    return pages;
  };
  const pages = yield* build(top, true);
  const readme = resolveFile(snapshot, config.readme) ? readDocument(ctx, config.readme, undefined, 'Introduction') : null;
  if (readme) pages.unshift(readme);
  return pages;
}

// ─── Files ────────────────────────────────────────────────────────────────

// eslint-disable-next-line max-lines-per-function -- one scan of every page's links sharing the two bounded memos and the set of paths found
function* collectFiles(ctx: Context, reusableContents: boolean): Generator<void, ContentFile[]> {
  const { snapshot, config } = ctx;
  const assets = joinPath(config.root, '.gitbook/assets');
  const includes = joinPath(config.root, '.gitbook/includes');
  const paths = new Set<string>();
  for (const path of snapshot.keys()) {
    if (path.startsWith(`${assets}/`)) paths.add(path);
    else if (reusableContents && isIncludePath(path, includes)) paths.add(path);
  }
  // Pages of one folder often link to the same targets. Both memos are bounded (a page of a million
  // distinct links must not keep a million entries): past MEMO_ENTRIES they start afresh.
  const memo = new Map<string, ReturnType<typeof resolveReference>>();
  const exists = new Map<string, boolean>();
  const resolve = (from: string, target: string): ReturnType<typeof resolveReference> => {
    const key = `${dirname(from)}\0${target}`;
    let resolved = memo.get(key);
    if (resolved === undefined && !memo.has(key)) {
      resolved = resolveReference(snapshot, config, from, target);
      if (memo.size >= MEMO_ENTRIES) memo.clear();
      memo.set(key, resolved);
    }
    return resolved ?? null;
  };
  const isFile = (path: string): boolean => {
    let found = exists.get(path);
    if (found === undefined) {
      found = resolveFile(snapshot, path) !== null;
      if (exists.size >= MEMO_ENTRIES) exists.clear();
      exists.set(path, found);
    }
    return found;
  };
  for (const [page, info] of ctx.docs) {
    // Warnings name the link's line: kept with their offsets, numbered in one sweep once the page is read.
    const pending: Array<{ at: number; message: (line: number) => string }> = [];
    const warn = (at: number, message: (line: number) => string): void => {
      if (ctx.warnings.full) ctx.warnings.skip();
      else pending.push({ at, message });
    };
    scanLinks(info.body, (start, _end, target) => {
      const kind = classifyTarget(target);
      if (kind !== 'file' && kind !== 'relative') return;
      const resolved = resolve(info.path, target);
      if (!resolved) {
        if (kind === 'file') {
          warn(start, (line) => `${info.path}: line ${line}: "${target}" leaves the ${config.projectDirectory ? 'project directory' : 'repository'}; not imported`);
        }
        return;
      }
      if (resolved.dir || paths.has(resolved.path)) return;
      if (/\.md$/i.test(resolved.path) && !isInside(resolved.path, assets)) return;
      if (isInside(resolved.path, includes)) return;
      if (!isFile(resolved.path)) {
        if (kind === 'file') warn(start, (line) => `${info.path}: line ${line}: file "${target}" not found`);
        return;
      }
      paths.add(resolved.path);
    });
    pending.sort((a, b) => a.at - b.at);
    const lines = lineNumbers(info.body, pending.map((warning) => warning.at));
    pending.forEach((warning, i) => ctx.warnings.push(warning.message(lines[i] as number)));
    if (page.cover?.ref?.kind === 'file') paths.add(page.cover.ref.file);
    else if (info.coverValue !== undefined && page.cover && !page.cover.ref) {
      ctx.warnings.push(`${info.path}: cover "${info.coverValue}" not found`);
    }
    yield;
  }
  const files: ContentFile[] = [];
  for (const path of [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const found = resolveFile(snapshot, path);
    if (!found) continue;
    const { data, stored } = found.file;
    const size = stored?.size ?? data.byteLength;
    requireImportableSize(path, size);
    const name = basename(path);
    const file: ContentFile = {
      id: '',
      name,
      contentType: contentTypeOf(name),
      size,
      git: { oid: fileOid(found.entry), path },
      // Empty when the bytes went to the store as they were read: the saver finds them by blob id.
      data,
    };
    const dimensions = stored ? stored.dimensions : imageDimensions(data);
    if (dimensions) file.dimensions = dimensions;
    files.push(file);
    yield;
  }
  return files;
}

/**
 * Files whose bytes an import never reads, only stores: `.gitbook/assets/` files other than
 * Markdown (always files of the space, never parsed). A reader may put their bytes into the
 * store as they stream from git and keep only a RepoFile's `stored` facts (types.ts).
 */
export function storedAsRead(path: string): boolean {
  return ASSET_PATH.test(path) && !/\.md$/i.test(path);
}

const ASSET_PATH = /(?:^|\/)\.gitbook\/assets\//;

/** A reusable content's file: a `.md` file directly in the includes folder. */
export const isIncludePath = (path: string, includes: string): boolean =>
  path.startsWith(`${includes}/`) && !path.slice(includes.length + 1).includes('/') && /\.md$/i.test(path);

// ─── Ids and references ───────────────────────────────────────────────────

function targetKey(target: ContentRef | undefined): string {
  if (!target) return '';
  switch (target.kind) {
    case 'url':
      return `url:${target.url}`;
    case 'page':
      return `page:${target.page}`;
    case 'anchor':
      return `anchor:${target.page ?? ''}#${target.anchor}`;
    case 'file':
      return `file:${target.file}`;
    case 'space':
      return `space:${target.space}`;
  }
}

// eslint-disable-next-line max-lines-per-function -- one walk giving every page and file its id (kept, reused from the previous import, or new), sharing the maps of all three
function assignIds(tree: ContentTree, ctx: Context, options: ImportOptions): void {
  const previous = options.previous;
  const used = new Set<string>();
  const byGitPath = new Map<string, ContentPage>();
  const bySlugPath = new Map<string, ContentPage>();
  const linksByKey = new Map<string, ContentPage[]>();
  if (previous) {
    const previousWalk = [...walkPages(previous.pages)];
    const previousPaths = new Map<ContentPage, string>();
    for (const { page, path } of previousWalk) previousPaths.set(page, path);
    for (const { page, parent, path } of previousWalk) {
      if (page.type === 'document' && page.git && !byGitPath.has(page.git.path)) byGitPath.set(page.git.path, page);
      if (page.type !== 'link') {
        const key = `${page.type}:${path}`;
        if (!bySlugPath.has(key)) bySlugPath.set(key, page);
      } else {
        const parentPath = parent ? (previousPaths.get(parent) ?? '') : '';
        const key = `${parentPath}\0${page.title}\0${targetKey(page.target)}\0${String(page.extra?.computed ?? '')}`;
        const list = linksByKey.get(key) ?? [];
        list.push(page);
        linksByKey.set(key, list);
      }
    }
  }
  const take = (candidate: ContentPage | undefined): string | undefined => {
    if (!candidate || used.has(candidate.id) || candidate.id === '') return undefined;
    used.add(candidate.id);
    return candidate.id;
  };
  const fresh = (): string => {
    for (;;) {
      const id = options.ids();
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
  // Documents and groups first, so that link targets have their ids.
  const walked = [...walkPages(tree.pages)];
  const pathOf = new Map<ContentPage, string>();
  for (const { page, path } of walked) pathOf.set(page, path);
  for (const { page, path } of walked) {
    if (page.type === 'link') continue;
    let id: string | undefined;
    if (page.type === 'document' && page.git) id = take(byGitPath.get(page.git.path));
    id ??= take(bySlugPath.get(`${page.type}:${path}`));
    page.id = id ?? '';
  }
  for (const { page } of walked) if (page.type !== 'link' && page.id === '') page.id = fresh();
  // Link targets.
  for (const [page, target] of ctx.linkTargets) {
    const doc = ctx.docByPath.get(target.path);
    if (!doc) {
      ctx.warnings.push(`${ctx.config.summary}: "${target.raw}" links to a page that is not in the table of contents; kept as a link`);
      page.target = { kind: 'url', url: target.raw };
      page.href = target.raw;
    } else if (target.anchor !== undefined) page.target = { kind: 'anchor', anchor: target.anchor, page: doc.id };
    else page.target = { kind: 'page', page: doc.id };
  }
  for (const { page, parent } of walked) {
    if (page.type !== 'link') continue;
    const parentPath = parent ? (pathOf.get(parent) ?? '') : '';
    const key = `${parentPath}\0${page.title}\0${targetKey(page.target)}\0${String(page.extra?.computed ?? '')}`;
    const candidates = linksByKey.get(key) ?? [];
    let id: string | undefined;
    while (id === undefined && candidates.length > 0) id = take(candidates.shift());
    page.id = id ?? fresh();
  }
  // Files.
  const filesByPath = new Map<string, ContentFile>();
  const filesByOid = new Map<string, ContentFile>();
  for (const file of previous?.files ?? []) {
    if (!file.git) continue;
    if (!filesByPath.has(file.git.path)) filesByPath.set(file.git.path, file);
    if (!filesByOid.has(file.git.oid)) filesByOid.set(file.git.oid, file);
  }
  const usedFiles = new Set<string>();
  const takeFile = (candidate: ContentFile | undefined): string | undefined => {
    if (!candidate || usedFiles.has(candidate.id)) return undefined;
    usedFiles.add(candidate.id);
    return candidate.id;
  };
  for (const file of tree.files) {
    const git = file.git as { oid: string; path: string };
    file.id = takeFile(filesByPath.get(git.path)) ?? takeFile(filesByOid.get(git.oid)) ?? '';
  }
  // Files the space had keep their order; new ones follow, by path.
  const order = new Map<string, number>();
  (previous?.files ?? []).forEach((file, index) => {
    if (!order.has(file.id)) order.set(file.id, index);
  });
  const rank = (file: ContentFile): number => order.get(file.id) ?? Number.MAX_SAFE_INTEGER;
  tree.files.sort((a, b) => rank(a) - rank(b));
  const includes = joinPath(ctx.config.root, '.gitbook/includes');
  for (const file of tree.files) {
    if (file.id !== '') continue;
    const prefix = file.git && isIncludePath(file.git.path, includes) ? REUSABLE_ID_PREFIX : '';
    for (;;) {
      const id = `${prefix}${options.ids()}`;
      if (!usedFiles.has(id)) {
        usedFiles.add(id);
        file.id = id;
        break;
      }
    }
  }
}

/** Replaces the repository paths of cover files by the files' ids. */
function resolveReferences(tree: ContentTree, ctx: Context): void {
  const byPath = new Map<string, string>();
  for (const file of tree.files) if (file.git) byPath.set(file.git.path, file.id);
  for (const page of ctx.docs.keys()) {
    const ref = page.cover?.ref;
    if (ref?.kind !== 'file' || !page.cover) continue;
    const id = byPath.get(ref.file);
    if (id !== undefined) page.cover = { ref: { kind: 'file', file: id }, yPos: page.cover.yPos };
    else page.cover = { yPos: page.cover.yPos };
  }
}
