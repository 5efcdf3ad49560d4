/**
 * The planning half of Git Sync, shared by the syncs (handlers.ts) and their
 * previews (preview.ts): where a request syncs, what the repository holds, and
 * what the converter makes of it. Nothing here writes to the store or pushes:
 * an import plan is the tree to commit, an export plan the files to write and
 * delete on the branch head (the export then commits and pushes them).
 */
import { ApiError, badRequest, conflict, notFound } from '../../api/errors.js';
import type { ContentTree } from '../../content-model/model.js';
import type { BlobSink, Mirror } from '../../git/repo.js';
import type { GitIdentity, GitSettings } from '../../git/settings.js';
import type { RepoSource } from '../../git/source.js';
import type { CheckedOutBranch } from '../../git/worktree.js';
import type { ExportResult, FileBlobs } from '../../gitsync/export.js';
import type { SyncLayout } from '../../gitsync/layout.js';
import type { HandlerContext, PrepareContext } from '../handler.js';
import { primaryRevision, spaceFor } from '../content/common.js';
import { type StoredData, fileDataHashes, openContent, storeFileData } from '../content/storage.js';
import type { ObjectStager, StoreReader } from '../../store/types.js';
import { type GitSyncRecord, type GitSyncTarget, getGitSync, isStale, knownBlob, rememberedLayout, sameTarget } from './state.js';
import { type RevisionRecord, getRevision } from '../core-records.js';
import { holdYoungGeneration, pinYoungGeneration, relieveHeap } from '../../util/heap-relief.js';

export interface SyncBody {
  url: string;
  ref: string;
  repoProjectDirectory?: string | undefined;
  repoTreeURL?: string | undefined;
  repoCommitURL?: string | undefined;
  timestamp?: string | undefined;
  force?: boolean | undefined;
  gitInfo?: { provider?: 'github' | 'gitlab' | undefined; url?: string | undefined } | undefined;
  /** Export only: the commit's author, `Name <email>` (a docsctl extension). */
  author?: string | undefined;
}

/** What the sync needs to know about the URL: its stored form and public state. Never the credentials. */
export interface Target extends GitSyncTarget {
  repoName: string;
  provider?: 'github' | 'gitlab';
}

/**
 * Where the request syncs: its repository (redacted), ref and project directory.
 * Without `repoProjectDirectory`, the directory the space was last synced with
 * (GitBook keeps it in the space's Git Sync configuration): an export after
 * `import --dir docs` writes into docs/, not over the repository root.
 */
export async function targetOf(body: SyncBody, record: GitSyncRecord | undefined, checkRef: (ref: string) => string): Promise<Target> {
  const [{ parseRepoUrl, providerOf, repoNameOf }, { normalizeProjectDirectory }, { GitSyncError }] = await Promise.all([
    import('../../git/credentials.js'),
    import('../../gitsync/paths.js'),
    import('../../gitsync/errors.js'),
  ]);
  let repo;
  try {
    repo = parseRepoUrl(body.url);
  } catch (error) {
    throw badRequest((error as Error).message);
  }
  checkRef(body.ref);
  let projectDirectory: string;
  try {
    projectDirectory =
      body.repoProjectDirectory === undefined ? (record?.projectDirectory ?? '') : normalizeProjectDirectory(body.repoProjectDirectory);
  } catch (error) {
    if (error instanceof GitSyncError) throw badRequest(`Invalid repoProjectDirectory: ${error.message}`);
    throw error;
  }
  const provider = body.gitInfo?.provider ?? providerOf(repo);
  return { url: repo.redacted, ref: body.ref, projectDirectory, repoName: repoNameOf(repo), ...(provider ? { provider } : {}) };
}

/**
 * The space was last synced with this commit of this repository and directory:
 * nothing to import, whichever ref named the commit (`HEAD`, the branch, its id).
 */
export function alreadyImported(record: GitSyncRecord | undefined, target: Target, oid: string): boolean {
  return record !== undefined && record.url === target.url && (record.projectDirectory ?? '') === target.projectDirectory && record.lastOid === oid;
}

/** The ref checks (refs.ts), loaded with the git code. */
export async function refChecks() {
  const { checkImportRef, checkRefName } = await import('../../git/refs.js');
  return { importRef: checkImportRef, branchRef: (ref: string) => checkRefName(ref) };
}

/** The converter's errors (a symlink leaving the repository, a bad config…) are the caller's: 400; content beyond the import limits 413. */
export async function converting<T>(what: string, url: string, fn: () => T | Promise<T>): Promise<T> {
  const { GitSyncError } = await import('../../gitsync/errors.js');
  try {
    return await fn();
  } catch (error) {
    if (error instanceof GitSyncError) throw new ApiError(error.tooLarge ? 413 : 400, `Cannot ${what} ${url}: ${error.message}`);
    throw error;
  }
}

/** How git runs for this request: the entry's settings (`--debug` trace, cache, committer), else this process's. */
export async function gitSettingsOf(ctx: Pick<HandlerContext, 'git'>): Promise<GitSettings> {
  if (ctx.git) return ctx.git;
  const { processGitSettings } = await import('../../git/settings.js');
  return processGitSettings();
}

/** The repository (or plain directory) at `url`, once the caller's policy allows it (reach.ts: 400, 403). */
async function openRequestSource(ctx: PrepareContext, url: string, settings: GitSettings, options: { directories?: boolean } = {}): Promise<RepoSource> {
  const [{ authorizeUrl }, { openSource }] = await Promise.all([import('./reach.js'), import('../../git/source.js')]);
  return openSource(await authorizeUrl(url, ctx.policy), settings, options);
}

/** The `author` of an export request (`Name <email>`, a docsctl extension); 400 when malformed. */
export async function authorOf(author: string | undefined): Promise<GitIdentity | undefined> {
  if (author === undefined) return undefined;
  const { parseIdentity } = await import('../../git/settings.js');
  const identity = parseIdentity(author);
  if (!identity) throw badRequest(`Invalid author "${author.replace(/[\u0000-\u001f\u007f]/g, '?')}": give it as "Name <email>"`);
  return identity;
}

/**
 * The files an import reads as text while git streams them (text-file.ts): Markdown outside
 * `.gitbook/` (whose files are kept as bytes). One that is not UTF-8 keeps its bytes.
 */
function readAsPage(path: string): boolean {
  return /\.md$/i.test(path) && !path.includes('.gitbook/');
}

/** Bytes of all the files read (for the progress line). */
function snapshotBytes(snapshot: ReadonlyMap<string, { data: Uint8Array; size?: number | undefined; stored?: { size: number } | undefined }>): number {
  let bytes = 0;
  // `size` first: a file read as text has no bytes to count (its `data` would encode them again).
  for (const file of snapshot.values()) bytes += file.stored?.size ?? file.size ?? file.data.byteLength;
  return bytes;
}

/**
 * Starts loading the converter's modules (what an import needs once the commit is fetched),
 * so they are compiled while git fetches. Their imports later find them loaded; a failure
 * to load shows there, not here.
 */
function loadConverter(): void {
  Promise.all([
    import('../../gitsync/import.js'),
    import('../../gitsync/media.js'),
    import('../../gitsync/limits.js'),
    import('../../gitsync/blob.js'),
    import('../../gitsync/paths.js'),
    import('../../gitsync/config.js'),
  ]).catch(() => undefined);
}

/** `fn` called once at most (a fetch retried after a ref lock starts git again). */
function once(fn: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    fn();
  };
}

/** Where an import puts file data as git streams it (see `planImport`): a stager, and the data objects it got by blob id. */
export interface EarlyStage {
  stager: ObjectStager;
  storedData: StoredData & Map<string, string>;
}

/** Bytes put into the stager between two chances for it to make the reading wait. */
const PAUSE_EVERY = 4 * 1024 * 1024;

/**
 * The BlobSink of an import: the files the converter never parses go into `early`'s stager as
 * they are read, unless the space already has their bytes (`previous`'s data objects, by the
 * blob id of their bytes): a sync after a one-page commit writes that page, not every image again.
 */
async function stagingSink(early: EarlyStage, previous: ContentTree, assets: string | undefined, onChunk?: () => unknown): Promise<BlobSink> {
  const [{ storedAsRead }, { imageDimensions }, { MAX_FILE_BYTES }, { gitBlobOid }, { isInside }] = await Promise.all([
    import('../../gitsync/import.js'),
    import('../../gitsync/media.js'),
    import('../../gitsync/limits.js'),
    import('../../gitsync/blob.js'),
    import('../../gitsync/paths.js'),
  ]);
  // Hashed from the bytes, never taken from a file's `git.oid`: a content import keeps the ref of the file it replaced.
  const had = new Map<string, string>();
  const dataHashes = fileDataHashes(previous);
  for (const file of previous.files) {
    const hash = dataHashes?.get(file.id);
    if (hash !== undefined && storedAsRead(file.git?.path ?? '')) had.set(gitBlobOid(file.data), hash);
  }
  let unpaused = 0;
  return {
    takes: (path) => storedAsRead(path) && (assets === undefined || isInside(path, assets)),
    put(oid, data) {
      if (data.byteLength > MAX_FILE_BYTES) return undefined; // kept: the converter refuses it by name
      const known = had.get(oid);
      if (known !== undefined) early.storedData.set(oid, known);
      else early.storedData.set(oid, storeFileData(early.stager, data));
      unpaused += data.byteLength;
      const dimensions = imageDimensions(data);
      return dimensions ? { oid, size: data.byteLength, dimensions } : { oid, size: data.byteLength };
    },
    ready() {
      onChunk?.();
      if (unpaused < PAUSE_EVERY) return undefined;
      unpaused = 0;
      return early.stager.pause();
    },
  };
}

/** A chunk git sent to a large import: a slice boundary of bulk work, held again (an import beside it in `serve` may have ended the hold). */
function relieveBulkRead(): void {
  holdYoungGeneration();
  relieveHeap();
}

/** Page files from which an import holds the young generation (heap-relief.ts holdYoungGeneration). */
const MANY_PAGES = 2000;

function pageFiles(paths: Iterable<string>): number {
  let count = 0;
  for (const path of paths) if (readAsPage(path)) count += 1;
  return count;
}

/** Whether the commit's project directory has so many pages that the import's memory, not its speed, is at stake (read from its listing, before any blob). */
async function manyPages(mirror: Mirror, commit: string, projectDirectory: string | undefined): Promise<boolean> {
  const under = projectDirectory === undefined || projectDirectory === '' ? '' : `${projectDirectory}/`; // normalized (readSnapshot's `under`)
  const listed = (await mirror.listTree(commit)).map((entry) => entry.path);
  return pageFiles(listed.filter((path) => path.startsWith(under))) >= MANY_PAGES;
}

/**
 * The folder whose files an import stages as git streams them: `.gitbook/assets` under the
 * `root` of the project's `.gitbook.yaml` (one small blob, read first). Files of other
 * `.gitbook/assets` folders (above `root`, or a sibling space's, read because a link leads
 * out of the project directory) are files of the space only when a page links them: they are
 * held as read, not staged for nothing. Undefined (every assets folder staged) when the
 * config is a symbolic link (resolved with the snapshot) or does not parse (the converter says why).
 */
async function assetsFolderOf(mirror: Mirror, commit: string, projectDirectory: string | undefined): Promise<string | undefined> {
  const [{ normalizeProjectDirectory, parseConfig }, { joinPath }] = await Promise.all([import('../../gitsync/config.js'), import('../../gitsync/paths.js')]);
  try {
    const dir = normalizeProjectDirectory(projectDirectory);
    const configPath = joinPath(dir, '.gitbook.yaml');
    const entry = (await mirror.listTree(commit)).find((candidate) => candidate.path === configPath);
    if (entry?.mode === '120000') return undefined;
    const text = entry === undefined ? undefined : new TextDecoder('utf-8').decode((await mirror.readBlobs([entry.oid])).get(entry.oid));
    return joinPath(parseConfig(text, { projectDirectory: dir }).root, '.gitbook/assets');
  } catch {
    return undefined;
  }
}

// ─── Import ───────────────────────────────────────────────────────────────

export type ImportPrepared =
  | { skipped: true; reason: string }
  | {
      skipped: false;
      target: Target;
      /** The imported commit (undefined for a plain directory). */
      oid: string | undefined;
      message: string;
      tree: ContentTree;
      previous: ContentTree;
      previousRevision: string;
      warnings: string[];
      /** The layout read (what the space remembers of the repository). */
      layout: SyncLayout;
    };

/**
 * The BlobSink of an export: the branch's files the converter never parses are kept as their
 * blob id and size (the export compares the space's files with them by blob id: blob.ts
 * holdsBytes), not as a copy of every image of the project directory; their bytes are not
 * even read (`measure`: sizes from `git cat-file --batch-check`).
 */
async function measuringSink(pages?: (path: string) => boolean): Promise<BlobSink> {
  const { storedAsRead } = await import('../../gitsync/import.js');
  return {
    takes: pages === undefined ? storedAsRead : (path) => storedAsRead(path) || pages(path),
    put: (oid, data) => ({ oid, size: data.byteLength }),
    ready: () => undefined,
    measure: (oid, size) => ({ oid, size }),
  };
}

/**
 * What an import request would do: skip, or commit this tree (the import's prepare). With
 * `early`, the files the converter never parses (images of `.gitbook/assets/`) go into its
 * stager as git streams them: the tree holds no bytes for them (see `prepareSave`).
 */
export async function planImport(
  ctx: PrepareContext,
  { params, body }: { params: { spaceId: string }; body: SyncBody & { standalone?: boolean | undefined } },
  early?: EarlyStage,
): Promise<ImportPrepared> {
  const { space } = spaceFor(ctx.reader, ctx, params.spaceId);
  const record = getGitSync(ctx.reader, space.id);
  const target = await targetOf(body, record, (await refChecks()).importRef);
  if (!body.standalone && isStale(record, body.timestamp)) return { skipped: true, reason: 'stale event' };
  const settings = await gitSettingsOf(ctx);
  const source = await openRequestSource(ctx, body.url, settings);
  const { readPlainDirectory } = await import('../../git/source.js');
  let oid: string | undefined;
  let snapshot;
  let message = '';
  const revision = primaryRevision(ctx.reader, space);
  let previous: ContentTree | undefined;
  if (source.kind === 'directory') {
    snapshot = await readPlainDirectory(source.dir);
  } else {
    // Held until the listing tells whether this import is large (heap-relief.ts pinYoungGeneration: the
    // converter's code and the fetch grew it past 16 MB in `serve` before a hold begun after the listing).
    const unpin = pinYoungGeneration();
    try {
      // The converter compiled while git fetches (this thread only waits for it), once git runs: begun before,
      // its loading delayed the fetch's process by as long (30-100 ms of the reference shape's import).
      oid = await source.mirror.fetch(body.ref, ctx.progress, once(loadConverter));
      if (oid === undefined) throw notFound(`Cannot fetch ${target.url} at ${body.ref}: remote ref not found`);
      if (!body.standalone && !body.force && alreadyImported(record, target, oid)) {
        return { skipped: true, reason: 'already synced' };
      }
      previous = openContent(ctx.reader, revision).tree();
      const { mirror } = source;
      const read = async (commit: string) => {
        // An import of many pages: its young generation held from the first blob, and each chunk git sends a slice
        // boundary of bulk work (reading has no slices): the young generation grows there first, and the images'
        // buffers, collected late, left the C heap ~35 MB larger for good (server shape, 4,376 pages).
        const many = await manyPages(mirror, commit, target.projectDirectory);
        unpin(!many);
        const sink = early && (await stagingSink(early, previous as ContentTree, await assetsFolderOf(mirror, commit, target.projectDirectory), many ? relieveBulkRead : undefined));
        return mirror.readSnapshot(commit, target.projectDirectory, sink, readAsPage);
      };
      [snapshot, message] = await Promise.all([read(oid), mirror.commitMessage(oid)]);
    } finally {
      unpin(true); // an error or a skip (a large import's read unpinned already: no-op)
    }
  }
  ctx.progress?.({ stage: 'reading', processed: snapshot.size, total: snapshot.size, bytes: snapshotBytes(snapshot) });
  previous ??= openContent(ctx.reader, revision).tree();
  const { importRepositoryInSlices } = await import('../../gitsync/import.js');
  ctx.progress?.({ stage: 'converting' });
  if (pageFiles(snapshot.keys()) >= MANY_PAGES) holdYoungGeneration(); // again: reading may have been long
  const result = await converting('import', target.url, () =>
    importRepositoryInSlices(snapshot, { projectDirectory: target.projectDirectory, ids: ctx.ids, previous, consume: true }),
  );
  ctx.progress?.({ stage: 'converted', processed: result.stats.pages, total: result.stats.pages });
  return { skipped: false, target, oid, message, tree: result.tree, previous, previousRevision: revision.id, warnings: result.warnings, layout: result.layout };
}

// ─── Export ───────────────────────────────────────────────────────────────

export type ExportPlan =
  | { skipped: true; reason: string }
  | {
      skipped: false;
      target: Target;
      standalone: boolean;
      /** The repository mirror, to commit and push the plan. */
      mirror: Mirror;
      /** The branch head the export builds on (undefined: a new branch). */
      head: string | undefined;
      /** Paths on the branch head before the export (to tell an added file from a changed one). */
      existing: ReadonlySet<string>;
      /** The primary revision exported, and its tree. */
      baseRevision: string;
      base: ContentTree;
      result: ExportResult;
      /** The branch is checked out in a local work copy: the export moves its work tree too (worktree.ts). */
      checkedOut: CheckedOutBranch | undefined;
      /** The commit's author the request names (else the settings'). */
      author: GitIdentity | undefined;
      /** `[data object hash, git blob id]` of the files whose bytes the export read and hashed (for the store to remember). */
      learntBlobs: Array<[string, string]>;
    };

/**
 * What an export request would do: refused with 409 when the branch moved since the
 * last sync (unless `force`), or when the branch is checked out in a local work copy
 * whose work tree has changes; skipped for a stale event; else the files to write and
 * delete on the branch head (none: nothing to commit).
 */
export async function planExport(
  ctx: PrepareContext,
  { params, body }: { params: { spaceId: string }; body: SyncBody & { standalone?: boolean | undefined } },
): Promise<ExportPlan> {
  const { space } = spaceFor(ctx.reader, ctx, params.spaceId);
  const standalone = body.standalone === true;
  const record = getGitSync(ctx.reader, space.id);
  const target = await targetOf(body, record, (await refChecks()).branchRef);
  const author = await authorOf(body.author);
  if (!standalone && isStale(record, body.timestamp)) return { skipped: true, reason: 'stale event' };
  const settings = await gitSettingsOf(ctx);
  const source = await openRequestSource(ctx, body.url, settings, { directories: false });
  if (source.kind !== 'repository') throw badRequest(`${target.url} is not a Git repository`);
  const { mirror } = source;
  let spawned!: () => void;
  const fetchRuns = new Promise<void>((resolve) => (spawned = resolve));
  const fetching = mirror.fetch(body.ref, ctx.progress, once(() => spawned()));
  // Whether a local repository has the branch checked out (git processes of their own): asked now, answered
  // while git fetches and the converter runs, awaited (its 409 thrown) where it was asked after the conversion.
  const checkingOut = checkedOutOf(settings, source, body.ref, target.url);
  // Awaited below; a store error thrown meanwhile must not leave their rejections unhandled.
  fetching.then(spawned, spawned);
  checkingOut.catch(() => undefined);
  // The store's side (the revision's tree) needs nothing from git: read while git fetches, once its process
  // runs (read at once, it held the process back: simple-git starts it a few event-loop turns after the call).
  await fetchRuns;
  const revision = primaryRevision(ctx.reader, space);
  const { base, blobs } = exportBase(ctx.reader, revision);
  const head = await fetching;
  if (
    !standalone &&
    !body.force &&
    head !== undefined &&
    sameTarget(record, target) &&
    record.lastOid !== undefined &&
    record.lastOid !== head
  ) {
    throw conflict(
      `Cannot export to ${target.url} at ${body.ref}: the remote branch moved since the last sync (${record.lastOid.slice(0, 12)} → ${head.slice(0, 12)}); import first, or export with --force (API: "force": true) to overwrite it`,
    );
  }
  const remembered = rememberedLayout(ctx.reader, record);
  const imported = head !== undefined ? importedTree(ctx.reader, space.id, record, target, head) : undefined;
  // The branch's images are compared by blob id, never read as bytes (see measuringSink); so are its pages when
  // the export is handed the import of this head: only those whose blob id differs from the page's are read.
  const unread = head !== undefined && imported !== undefined && remembered !== undefined ? await unreadPages(mirror, head, remembered) : undefined;
  const current = head !== undefined ? await mirror.readSnapshot(head, target.projectDirectory, await measuringSink(unread)) : new Map();
  const { exportRepository, settleUnread } = await import('../../gitsync/export.js');
  const result = await converting('export to', target.url, () =>
    exportRepository(base, current, { projectDirectory: target.projectDirectory, remembered, blobs, imported }),
  );
  if (result.unread.size > 0) {
    const read = await mirror.readBlobs([...result.unread.values()].map((page) => page.oid));
    settleUnread(result, (oid) => read.get(oid));
  }
  const existing = new Set<string>(current.keys());
  const checkedOut = await workCopyCheck(settings, await checkingOut, target.url, result, existing);
  const dataHashes = fileDataHashes(base);
  const learntBlobs: Array<[string, string]> = [];
  for (const [id, oid] of result.learntBlobs) {
    const dataHash = dataHashes?.get(id);
    if (dataHash !== undefined) learntBlobs.push([dataHash, oid]);
  }
  return { skipped: false, target, standalone, mirror, head, existing, baseRevision: revision.id, base, result, checkedOut, author, learntBlobs };
}

/**
 * The page files an export over the commit the space imported leaves unread (compared by blob
 * id, read only where the page's bytes differ: export.ts settleUnread): every Markdown file the
 * import read as a page but the table of contents (read as text), when the tree has no symbolic
 * link (a page reached through one is compared as read). `remembered` is the layout of that
 * import, so of this head (its `.gitbook.yaml` names the table of contents).
 */
async function unreadPages(mirror: Mirror, head: string, remembered: SyncLayout): Promise<((path: string) => boolean) | undefined> {
  if ((await mirror.listTree(head)).some((entry) => entry.mode === '120000')) return undefined;
  const { configOfLayout } = await import('../../gitsync/layout.js');
  let summary: string;
  try {
    summary = configOfLayout(remembered).summary;
  } catch {
    return undefined;
  }
  return (path) => readAsPage(path) && path !== summary;
}

/**
 * What the space made of the branch head, when its last sync was the import of this very
 * commit (same repository, branch and project directory): that import's revision, read
 * without bodies or data. The export takes what the space owns on the branch from it
 * instead of converting every page file of the head again (export.ts ExportOptions.imported).
 * A head that moved since (someone pushed), or a last sync that was an export (its revision is
 * what the space wrote, not what a conversion of the head gives), is converted as before.
 */
function importedTree(reader: StoreReader, spaceId: string, record: GitSyncRecord | undefined, target: Target, head: string): ContentTree | undefined {
  if (!sameTarget(record, target) || record.lastDirection !== 'import' || record.lastOid !== head || record.lastImportRevision === undefined) return undefined;
  const revision = getRevision(reader, spaceId, record.lastImportRevision);
  return revision === undefined ? undefined : openContent(reader, revision).tree({ bodies: false, data: false });
}

/**
 * The tree an export writes, its files' bytes left unread where a sync learnt their blob id
 * (state.ts gitBlobs): an export compares an image with the branch by that id instead of
 * reading, decoding and hashing it again, and reads it only to write it.
 */
function exportBase(reader: StoreReader, revision: Pick<RevisionRecord, 'content'>): { base: ContentTree; blobs: FileBlobs } {
  const content = openContent(reader, revision);
  const known = new Map<string, string>();
  const base = content.tree({
    data: (file) => {
      const oid = knownBlob(reader, file.data);
      if (oid === undefined) return true;
      known.set(file.data, oid);
      return false;
    },
  });
  const dataHashes = fileDataHashes(base);
  const blobs: FileBlobs = {
    oidOf: (fileId) => {
      const dataHash = dataHashes?.get(fileId);
      return dataHash === undefined ? undefined : known.get(dataHash);
    },
    bytesOf: (fileId) => {
      const file = content.file(fileId);
      if (file === undefined) throw new Error(`file ${fileId} of the exported revision is missing`);
      return content.fileData(file);
    },
  };
  return { base, blobs };
}

/** The work copy of a local repository that has `ref` checked out (worktree.ts checkedOutBranch); 409 when another work tree has it. */
async function checkedOutOf(settings: GitSettings, source: Extract<RepoSource, { kind: 'repository' }>, ref: string, shown: string): Promise<CheckedOutBranch | undefined> {
  if (source.repo.kind !== 'file' && source.repo.kind !== 'path') return undefined;
  const { checkedOutBranch } = await import('../../git/worktree.js');
  return checkedOutBranch(settings, source.repo.gitUrl, ref, shown);
}

/**
 * A local repository with the branch checked out (worktree.ts): the export must move
 * its work tree, so one with changes refuses the export here, before anything is
 * committed, and a preview refuses it alike.
 */
async function workCopyCheck(
  settings: GitSettings,
  checkedOut: CheckedOutBranch | undefined,
  shown: string,
  result: ExportResult,
  existing: ReadonlySet<string>,
): Promise<CheckedOutBranch | undefined> {
  if (checkedOut === undefined || (result.writes.size === 0 && result.deletes.length === 0)) return checkedOut;
  const { dirtyWorktree, worktreeRefusal } = await import('../../git/worktree.js');
  const why = await worktreeRefusal(settings, checkedOut, addedPaths(result, existing));
  if (why !== undefined) throw dirtyWorktree(shown, checkedOut, why);
  return checkedOut;
}

/** The paths an export creates (written where the branch has no file). */
export function addedPaths(result: Pick<ExportResult, 'writes'>, existing: ReadonlySet<string>): string[] {
  return [...result.writes.keys()].filter((path) => !existing.has(path));
}
