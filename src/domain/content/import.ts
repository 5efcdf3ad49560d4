/**
 * Content import (`importContent` into a space, `importContentInChangeRequest`):
 * `{url, source}` → a new revision whose content is the imported tree.
 *
 * Sources:
 * - `markdown`: a Markdown file (one page), or a directory laid out for Git Sync
 *   (`.gitbook.yaml`, `SUMMARY.md`, Markdown with front matter, `.gitbook/assets/`),
 *   converted by `importRepository`;
 * - `zip`: an archive of the same (a single top-level folder wrapping it, as
 *   GitHub's archives have, is unwrapped).
 * Any other source is a 400 naming the supported ones. URLs are `file://` (read
 * from the disk of the process running the handler: the CLI in local mode, the
 * server under `serve`) or `http(s)://` (fetched). A directory is only readable
 * through `file://`.
 *
 * The import adds, it never deletes (import-merge.ts): a page at the same path as
 * an imported file is updated, other files become new pages at the end, or under
 * the page of the page-level routes (`importContentInPageById`,
 * `importContentInChangeRequestPageById`). The change request gets a new
 * revision; the space a new primary revision (a space whose edit mode is `locked`
 * refuses it: 409, import into a change request instead). The fetch, read,
 * conversion and the writing of the new pages and files (staged, storage.ts
 * `prepareSave`) happen in `prepare`, outside the store lock; `run` links them
 * (unchanged pages keep their objects).
 *
 * Answer: 201 `{revision, importedResources, totalResources}` (`Location`: the new
 * revision), where `importedResources` = pages + files created or changed and
 * `totalResources` = pages + files the source holds; plus `warnings` (the
 * converter's, one line each) when there are any.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError, badRequest, conflict, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/content.js';
import { type ContentTree, walkPages } from '../../content-model/model.js';
import type { Adopt } from './import-merge.js';
import { readDirectorySnapshot } from '../../git/directory.js';
import type { RepoSnapshot } from '../../gitsync/types.js';
import { redactUrls } from '../../util/redact.js';
import { type Handler, type HandlerContext, type PrepareContext, Reply, type TwoPhaseHandler, implementer } from '../handler.js';
import { type InputPolicy, allowedLocalPath } from '../policy.js';
import type { SpaceRecord } from '../core-records.js';
import { apiUrl } from '../urls.js';
import { commitToChangeRequest, commitToSpace } from './change-requests.js';
import { changeRequestFor, primaryRevision, spaceFor } from './common.js';
import { type ChangeRequestRecord, requireRevisionRecord } from './change-request-records.js';
import { type SavedTree, commitSave, openContent, prepareSave } from './storage.js';
import { type IndexPlan, planIndex } from '../search/index.js';

export const SUPPORTED_SOURCES = ['markdown', 'zip'] as const;

/** Largest source accepted (bytes of all files) and most files. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;
export const MAX_IMPORT_FILES = 100_000;
const FETCH_TIMEOUT_MS = 60_000;

const MARKDOWN_EXT = /\.(md|markdown)$/i;

/** A page the import brought (import runs list them): its id, kind and where it came from in the source. */
export interface ImportedPage {
  id: string;
  type: 'page' | 'folder';
  /** The source file (repository path), when the page has one. */
  path?: string;
}

/** Pages an import remembers of what it brought (the counts are always exact). */
export const MAX_LISTED_PAGES = 200;

/** A source merged into the current content, before it is saved. */
export interface Merged {
  tree: ContentTree;
  imported: number;
  total: number;
  warnings: string[];
  /** The source's pages (at most MAX_LISTED_PAGES), with the ids they have in `tree`. */
  pages: ImportedPage[];
}

export interface Prepared {
  /** The merged tree, written ahead of the transaction when the store can (storage.ts, prepareSave). */
  saved: SavedTree;
  /** The tree the import replaces (its objects are reused). */
  previous: ContentTree;
  /** The revision `previous` was read from. */
  previousRevision: string;
  imported: number;
  total: number;
  warnings: string[];
  /** The search index update of a space import, planned here (search/index.ts). */
  index?: IndexPlan | undefined;
  /** The source's pages (at most MAX_LISTED_PAGES). */
  pages: ImportedPage[];
}

// ─── Reading the source ────────────────────────────────────────────────────

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/** Every file under `dir` (directory.ts), within the import limits. */
function readDirectory(dir: string): Promise<RepoSnapshot> {
  return readDirectorySnapshot(dir, {
    maxBytes: MAX_IMPORT_BYTES,
    maxFiles: MAX_IMPORT_FILES,
    tooLarge,
    tooMany: () => badRequest(`Import source has more than ${MAX_IMPORT_FILES} files`),
  });
}

interface Fetched {
  kind: 'file' | 'directory';
  /** Directory: its files. */
  snapshot?: RepoSnapshot;
  /** File: where its bytes are on disk (the source itself, or a private temporary copy of a download) and its name. */
  file?: string;
  name?: string;
  /** Removes the temporary copy, if any. */
  dispose?: () => Promise<void>;
}

const tooLarge = () => new ApiError(413, `Import source is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB (the largest import accepted)`);

async function fetchSource(policy: InputPolicy, url: URL): Promise<Fetched> {
  if (url.protocol === 'file:') {
    let named: string;
    try {
      named = fileURLToPath(url);
    } catch (error) {
      throw badRequest(`Invalid file URL ${redactUrls(url.href)}: ${describeError(error)}`);
    }
    // The real path, checked against the policy's roots (403 under `serve` outside --allow-local).
    const file = await allowedLocalPath(policy, named);
    try {
      const info = await stat(file);
      if (info.isDirectory()) return { kind: 'directory', snapshot: await readDirectory(file) };
      if (info.size > MAX_IMPORT_BYTES) throw tooLarge();
      return { kind: 'file', file, name: path.basename(file) };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw badRequest(`Cannot read ${file}: ${describeError(error)}`);
    }
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const { fetchToFile } = await import('../fetch-url.js');
    const fetched = await fetchToFile(policy, url, { maxBytes: MAX_IMPORT_BYTES, timeoutMs: FETCH_TIMEOUT_MS });
    return { kind: 'file', file: fetched.file, name: fetched.name, dispose: fetched.dispose };
  }
  throw badRequest(`Unsupported URL scheme "${url.protocol.replace(/:$/, '')}": use a file:// or http(s):// URL`);
}

/** The archive's files, unwrapping a single top-level folder that holds everything. */
async function unzip(file: string, name: string): Promise<RepoSnapshot> {
  const [{ ZipError }, { readZipFile }] = await Promise.all([import('../../util/zip.js'), import('../../util/zip-file.js')]);
  const { requireImportableSize } = await import('../../gitsync/limits.js');
  let entries;
  try {
    // A page or file beyond the limits is refused from its declared size, before it is inflated.
    entries = await readZipFile(file, { maxTotalSize: MAX_IMPORT_BYTES, maxEntries: MAX_IMPORT_FILES, checkEntry: requireImportableSize });
  } catch (error) {
    if (error instanceof ZipError) {
      // A size or entry-count limit is the server's cap (413), anything else a bad archive (400).
      if (/^archive too large|more than the limit/.test(error.message)) throw new ApiError(413, `Cannot import the archive ${name}: ${error.message}`);
      throw badRequest(`Cannot read the archive ${name}: ${error.message}`);
    }
    throw error;
  }
  const files = entries.filter((entry) => !entry.isDirectory && !entry.path.split('/').includes('__MACOSX'));
  const tops = new Set(files.map((entry) => (entry.path.includes('/') ? entry.path.split('/')[0] : '')));
  const top = tops.size === 1 ? [...tops][0] : '';
  const strip = top !== undefined && top !== '' && !files.some((entry) => ['.gitbook.yaml', 'SUMMARY.md', 'README.md'].includes(entry.path));
  const snapshot: RepoSnapshot = new Map();
  for (const entry of files) {
    const rel = strip ? entry.path.slice((top as string).length + 1) : entry.path;
    if (rel === '' || rel.split('/')[0] === '.git') continue;
    const isLink = entry.mode !== undefined && (entry.mode & 0o170000) === 0o120000;
    snapshot.set(
      rel,
      isLink
        ? { path: rel, data: entry.data, mode: 'symlink', linkTarget: Buffer.from(entry.data).toString('utf8') }
        : { path: rel, data: entry.data },
    );
  }
  return snapshot;
}

/** The snapshot to convert, from what the URL gave. */
async function snapshotFor(source: string, fetched: Fetched, url: URL): Promise<RepoSnapshot> {
  if (source === 'markdown') {
    if (fetched.kind === 'directory') return fetched.snapshot as RepoSnapshot;
    const name = fetched.name ?? 'README.md';
    const file = MARKDOWN_EXT.test(name) ? name : `${name}.md`;
    const { requireImportableSize } = await import('../../gitsync/limits.js');
    requireImportableSize(file, (await stat(fetched.file as string)).size);
    return new Map([[file, { path: file, data: new Uint8Array(await readFile(fetched.file as string)) }]]);
  }
  // zip
  if (fetched.kind === 'directory') throw badRequest(`Source "zip" needs an archive, but ${redactUrls(url.href)} is a directory (use source "markdown")`);
  return unzip(fetched.file as string, fetched.name ?? redactUrls(url.href));
}

async function convert(
  ctx: PrepareContext,
  snapshot: RepoSnapshot,
  previous: ContentTree,
  consume: boolean,
): Promise<{ tree: ContentTree; warnings: string[]; adopt: Adopt }> {
  const [{ importRepositoryInSlices }, { GitSyncError }, { adoptFile, adoptPage }] = await Promise.all([
    import('../../gitsync/import.js'),
    import('../../gitsync/errors.js'),
    import('../../gitsync/adopt.js'),
  ]);
  try {
    const result = await importRepositoryInSlices(snapshot, { ids: ctx.ids, previous, consume });
    // What the space keeps of its own over the import (its pages' places in Git, their sidebar titles).
    const source = { summary: result.layout.summary !== undefined };
    const adopt: Adopt = { page: (existing, page) => adoptPage(existing, page, source), file: adoptFile };
    return { tree: result.tree, warnings: result.warnings, adopt };
  } catch (error) {
    throw importError(error, GitSyncError);
  }
}

/** The API error for a converter error (413 for content beyond the limits, 400 otherwise); other errors as they are. */
function importError(error: unknown, GitSyncError: typeof import('../../gitsync/errors.js').GitSyncError): unknown {
  if (!(error instanceof GitSyncError)) return error;
  return new ApiError(error.tooLarge ? 413 : 400, `Cannot import: ${error.message}`);
}

function importedPages(imported: ContentTree): ImportedPage[] {
  const pages: ImportedPage[] = [];
  for (const { page } of walkPages(imported.pages)) {
    if (pages.length === MAX_LISTED_PAGES) break;
    if (page.type === 'link') continue;
    pages.push({ id: page.id, type: page.type === 'document' ? 'page' : 'folder', ...(page.git ? { path: page.git.path } : {}) });
  }
  return pages;
}

/** The import source a URL names when none is given: an archive by its name, else Markdown (a file or a directory). */
export function sourceOfUrl(url: string): (typeof SUPPORTED_SOURCES)[number] {
  try {
    return /\.zip$/i.test(new URL(url).pathname) ? 'zip' : 'markdown';
  } catch {
    return 'markdown';
  }
}

/** The source at `body.url` read, converted and merged into `previous` (under `parentId`); nothing saved yet. */
export async function mergeSource(
  ctx: PrepareContext,
  body: { url: string; source: string },
  previous: ContentTree,
  parentId: string | undefined,
): Promise<Merged> {
  const { findPage } = await import('./import-merge.js');
  const parent = parentId === undefined ? undefined : findPage(previous, parentId);
  if (parentId !== undefined && (parent === undefined || parent.type === 'link')) throw notFound(`Page ${parentId} not found`);
  if (!(SUPPORTED_SOURCES as readonly string[]).includes(body.source)) {
    throw badRequest(`Unsupported import source "${body.source}": docsctl imports ${SUPPORTED_SOURCES.map((s) => `"${s}"`).join(' and ')}`);
  }
  let url: URL;
  try {
    url = new URL(body.url);
  } catch {
    throw badRequest(`Invalid url "${redactUrls(body.url)}"`);
  }
  const fetched = await fetchSource(ctx.policy, url);
  let snapshot: RepoSnapshot;
  try {
    snapshot = await snapshotFor(body.source, fetched, url);
  } catch (error) {
    throw importError(error, (await import('../../gitsync/errors.js')).GitSyncError);
  } finally {
    await fetched.dispose?.();
  }
  return mergeSnapshot(ctx, snapshot, previous, parentId, { consume: true });
}

/** Converts `snapshot` (Git Sync layout) and merges it into `previous` (under `parentId`): what an import writes. */
export async function mergeSnapshot(
  ctx: PrepareContext,
  snapshot: RepoSnapshot,
  previous: ContentTree,
  parentId: string | undefined,
  /** `consume`: the snapshot is the import's own, its page bytes let go as they are read (import.ts ImportOptions). */
  options: { consume?: boolean } = {},
): Promise<Merged> {
  const { findPage, mergeImportedInSlices } = await import('./import-merge.js');
  const parent = parentId === undefined ? undefined : findPage(previous, parentId);
  // Matched against the pages the import lands among (the parent's, or the root's), so matches keep their ids.
  const converted = await convert(ctx, snapshot, parent ? { pages: parent.pages, files: previous.files } : previous, options.consume === true);
  const merged = await mergeImportedInSlices(previous, converted.tree, parentId, converted.adopt);
  return { tree: merged.tree, imported: merged.added + merged.updated, total: merged.total, warnings: converted.warnings, pages: importedPages(converted.tree) };
}

/**
 * The merged tree saved ahead of the transaction where the store can (prepareSave), and
 * with `index`, the search index update of the space whose primary revision it becomes.
 */
export async function prepareMerged(
  ctx: PrepareContext,
  merged: Merged,
  previous: { tree: ContentTree; revision: string },
  options: { index?: { spaceId: string } } = {},
): Promise<Prepared> {
  const saved = await prepareSave(ctx, merged.tree, [previous.tree]);
  return {
    saved,
    index: options.index && 'staged' in saved ? await planIndex(ctx.reader, options.index.spaceId, previous, merged.tree, saved.content) : undefined,
    previous: previous.tree,
    previousRevision: previous.revision,
    imported: merged.imported,
    total: merged.total,
    warnings: merged.warnings,
    pages: merged.pages,
  };
}

async function prepareImport(
  ctx: PrepareContext,
  body: { url: string; source: string },
  previous: { tree: ContentTree; revision: string },
  parentId: string | undefined,
  /** `index`: the import moves this space's primary revision (its search index is planned too). */
  options: { index?: { spaceId: string } } = {},
): Promise<Prepared> {
  return prepareMerged(ctx, await mergeSource(ctx, body, previous.tree, parentId), previous, options);
}

function answer(ctx: HandlerContext, space: SpaceRecord, revision: string, prepared: Prepared): Reply {
  return new Reply(
    201,
    {
      revision,
      importedResources: prepared.imported,
      totalResources: prepared.total,
      ...(prepared.warnings.length > 0 ? { warnings: prepared.warnings } : {}),
    },
    { Location: apiUrl(ctx.origin, `spaces/${encodeURIComponent(space.id)}/revisions/${encodeURIComponent(revision)}`) },
  );
}

function requireEditable(cr: ChangeRequestRecord): void {
  if (cr.status === 'merged' || cr.status === 'archived') {
    throw conflict(`Change request #${cr.number} is ${cr.status}: its content cannot change`);
  }
}

function requireLive(space: SpaceRecord): void {
  if (space.editMode === 'locked') {
    throw conflict(`Space ${space.id} is locked: its content changes only through change requests (import into one)`);
  }
}

const on = implementer<typeof routes>();

type CrImportRoute = typeof routes.importContentInChangeRequest | typeof routes.importContentInChangeRequestPageById;
type SpaceImportRoute = typeof routes.importContent | typeof routes.importContentInPageById;
const pageOf = (params: object): string | undefined => (params as { pageId?: string }).pageId;

const importIntoChangeRequest: TwoPhaseHandler<CrImportRoute, Prepared> = {
  async prepare(ctx, { params, body }) {
    const { space, cr } = changeRequestFor(ctx.reader, ctx, params.spaceId, params.changeRequestId);
    requireEditable(cr);
    const revision = requireRevisionRecord(ctx.reader, space.id, cr.revision);
    return prepareImport(ctx, body, { tree: openContent(ctx.reader, revision).tree(), revision: revision.id }, pageOf(params));
  },
  run(ctx, { params }, prepared) {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    requireEditable(cr);
    const content = commitSave(ctx.tx, prepared.saved);
    const revision = commitToChangeRequest(ctx, ctx.tx, cr, content);
    return answer(ctx, space, revision.id, prepared);
  },
};

const importIntoSpace: TwoPhaseHandler<SpaceImportRoute, Prepared> = {
  async prepare(ctx, { params, body }) {
    const { space } = spaceFor(ctx.reader, ctx, params.spaceId);
    requireLive(space);
    const revision = primaryRevision(ctx.reader, space);
    return prepareImport(ctx, body, { tree: openContent(ctx.reader, revision).tree(), revision: revision.id }, pageOf(params), { index: { spaceId: space.id } });
  },
  run(ctx, { params }, prepared) {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    requireLive(space);
    const content = commitSave(ctx.tx, prepared.saved);
    const revision = commitToSpace(ctx, ctx.tx, space, content, {}, prepared.index);
    return answer(ctx, space, revision.id, prepared);
  },
};

export const importHandlers: Record<string, Handler> = {
  ...on('importContentInChangeRequest', importIntoChangeRequest),
  ...on('importContentInChangeRequestPageById', importIntoChangeRequest),
  ...on('importContent', importIntoSpace),
  ...on('importContentInPageById', importIntoSpace),
};
