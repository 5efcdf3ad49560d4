/**
 * Page and file contents on export. A page file is rendered from its raw front
 * matter, raw heading and body (`extra`, see page.ts), so an unchanged page renders
 * to its original bytes and is not written; changed front matter fields are patched
 * in place, a changed title rewrites the heading. A symbolic link is never replaced:
 * writes go to its target.
 */
import { detectEol, headingLine, replaceLeadingHeading, splitLeadingHeading } from '../content-model/markdown.js';
import type { ContentFile, ContentPage, ContentRef } from '../content-model/model.js';
import { fileOid, gitBlobOid, holdsBytes } from './blob.js';
import type { GitBookConfig } from './config.js';
import { rewriteLinks } from './export-links.js';
import { naturalPath } from './export-paths.js';
import { contentRelative, type ExportRun, existsIn, type FileBlobs, lookup } from './export-run.js';
import { type CoverCodec, renderFrontMatter, splitFrontMatter } from './frontmatter.js';
import { resolveReference } from './import.js';
import { extraString, pageDecoder, pageEncoder, parsePageFile, setExtra } from './page.js';
import { basename, dirname, relativePath, type ResolvedFile, writePath } from './paths.js';
import { slugFromPath } from './slug.js';
import type { RepoSnapshot } from './types.js';

/** Where pages and files go (export-paths.ts), and what the tree had before. */
export interface Placed {
  walked: ReadonlyArray<{ page: ContentPage; path: string }>;
  finalPath: Map<ContentPage, string>;
  origin: Map<ContentPage, string>;
  filePath: Map<ContentFile, string>;
  firstDocument: ContentPage | undefined;
}

/**
 * Renders every document page at its path: the bytes to write where they differ
 * from the repository's, and each page updated to what is now there (`git`, slug,
 * `extra`, links rewritten for moved pages).
 */
export function renderPages(run: ExportRun, placed: Placed, writes: Map<string, Uint8Array>): void {
  const { config, current } = run;
  const { fileById, fileByPath } = fileIndex(placed.filePath);
  const moved = new Map<string, string>();
  for (const [page, orig] of placed.origin) {
    const path = placed.finalPath.get(page);
    if (path !== undefined && path !== orig) moved.set(orig, path);
  }
  const existsAfter = { has: (path: string) => existsIn(current, path) || fileByPath.has(path) };
  const written = new Map<string, ContentPage>();
  for (const { page, path: modelPath } of placed.walked) {
    if (page.type !== 'document') continue;
    const path = placed.finalPath.get(page) as string;
    const from = placed.origin.get(page) ?? naturalPath(config, page, modelPath, page === placed.firstDocument);
    let markdown = page.markdown ?? '';
    if (moved.size > 0 || from !== path) markdown = rewriteLinks(run, markdown, from, path, moved);
    const text = renderPage(run, page, markdown, coverCodec(config, existsAfter, path, fileById, fileByPath), path);
    const bytes = pageEncoder.encode(text);
    const existing = lookup(current, path);
    // A file whose bytes were not read (only its blob id): the same bytes are the same text; other bytes may be too (see UnreadPage).
    const unread = existing?.file.stored;
    const unchanged = existing !== null && (unread !== undefined ? unread.oid === gitBlobOid(bytes) : pageDecoder.decode(existing.file.data) === text);
    if (!unchanged) {
      const target = writePath(current, path);
      const other = written.get(target);
      if (other) run.warnings.push(`${target}: written for pages "${other.title}" and "${page.title}"; the last one wins`);
      written.set(target, page);
      writes.set(target, bytes);
      if (unread !== undefined) run.unread.set(target, { text, oid: unread.oid, page });
      else run.unread.delete(target);
    }
    asWritten(page, text);
    page.git = { oid: blobAfter(current, path, existing, unchanged ? undefined : bytes), path };
    page.slug = slugFromPath(contentRelative(config, path));
  }
}

/** The page as the file now holds it: body, raw front matter and heading, titles. */
function asWritten(page: ContentPage, text: string): void {
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
}

/**
 * Files: written where their bytes differ from the repository's; each updated to its path and blob.
 * A file whose blob id the caller knows (`run.blobs`) is compared by it, its bytes read only to be
 * written; the blob id of any other file's bytes is noted in `run.learnt`.
 */
export function writeFiles(run: ExportRun, filePath: Map<ContentFile, string>, writes: Map<string, Uint8Array>): void {
  for (const [file, path] of filePath) {
    const existing = lookup(run.current, path);
    const known = run.blobs?.oidOf(file.id);
    const unchanged = existing !== null && (known !== undefined ? fileOid(existing.file) === known : holdsBytes(existing.file, file.data));
    const data = known !== undefined && !unchanged ? (run.blobs as FileBlobs).bytesOf(file.id) : file.data;
    if (!unchanged) writes.set(writePath(run.current, path), data);
    file.git = { oid: blobAfter(run.current, path, existing, unchanged ? undefined : data), path };
    if (known === undefined) run.learnt.set(file.id, existing !== null && unchanged ? fileOid(existing.file) : gitBlobOid(data));
    if (file.name !== basename(path)) file.name = basename(path);
  }
}

/** File paths by id (the first file of an id) and ids by path. */
export function fileIndex(filePath: Map<ContentFile, string>): { fileById: Map<string, string>; fileByPath: Map<string, string> } {
  const fileById = new Map<string, string>();
  const fileByPath = new Map<string, string>();
  for (const [file, path] of filePath) {
    if (!fileById.has(file.id)) fileById.set(file.id, path);
    fileByPath.set(path, file.id);
  }
  return { fileById, fileByPath };
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
  run: ExportRun,
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
  if (frontMatter.warning) run.warnings.push(`${path}: ${frontMatter.warning}`);
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
  if (entry?.mode === 'symlink') return fileOid(entry);
  if (written) return gitBlobOid(written);
  const file = entry ?? existing?.file;
  return file ? fileOid(file) : gitBlobOid(new Uint8Array());
}
