/**
 * `git import --dry-run` and `git export --dry-run`: what the sync would change,
 * changing nothing (no revision, no commit, no push). Both ask the server through
 * the transport — `previewGitImport` / `previewGitExport`, docsctl extension routes
 * that are `safe` (the global `--dry-run` lets them through) and need the sync's
 * role — so the preview is computed where the sync would run, from the same data,
 * in local mode and against `docsctl serve` alike.
 *
 * A server without the extension (GitBook itself): the import preview falls back to
 * reading the space through the API and the repository here (approximate: the API
 * does not carry the Git metadata the server keeps); the export preview cannot be
 * made without that metadata, and says so (exit 2).
 */
import { ApiError, UsageError } from '../../api/errors.js';
import type { RouteId } from '../../api/route-id.js';
import type { ContentTree } from '../../content-model/model.js';
import type { Change } from '../../content-model/tree-merge.js';
import type { Transport } from '../../transport/types.js';
import { redactUrls } from '../../util/redact.js';
import type { Session } from '../session.js';
import { type SyncBodyOptions, syncBody } from './git-sync-body.js';

interface ImportPreview {
  ref: string | null;
  commit: string | null;
  skipped?: string;
  changes: Change[];
  warnings: string[];
}

interface ExportPreview {
  commit: string | null;
  skipped?: string;
  wouldCommit: boolean;
  files: Array<{ path: string; change: 'add' | 'change' | 'delete' }>;
  warnings: string[];
}

/**
 * Whether an error from a preview route means the server has no such route (GitBook
 * answers 404, 405 or 501 for a path it does not know). A 404 is ambiguous (a missing
 * space or repository is a 404 too): the route is then asked with an empty body, which
 * a server that has it refuses as invalid (400), and the space is looked up.
 */
async function previewUnsupported(transport: Transport, route: RouteId, spaceId: string, error: unknown): Promise<boolean> {
  if (!(error instanceof ApiError) || ![404, 405, 501].includes(error.status)) return false;
  try {
    await transport.request(route, { params: { spaceId }, body: {} });
    return false;
  } catch (probe) {
    if (!(probe instanceof ApiError) || ![404, 405, 501].includes(probe.status)) return false;
  }
  try {
    await transport.request('getSpaceById', { params: { spaceId } });
    return true;
  } catch {
    return false;
  }
}

async function report(session: Session, lines: string[], json: unknown): Promise<void> {
  if (session.format === 'json' || session.format === 'yaml') await session.printObject(json, []);
  else await session.printText(lines.join('\n'));
}

/** The first of `refs` the server finds (a short name may be a branch or a tag), as the import itself tries them. */
async function previewImport(transport: Transport, spaceId: string, url: string, refs: readonly string[], options: SyncBodyOptions & { ref?: string | undefined }) {
  const { isRefNotFound, noSuchRef } = await import('./git-ref-errors.js');
  for (const [i, ref] of refs.entries()) {
    try {
      return (await transport.request('previewGitImport', { params: { spaceId }, body: syncBody(url, ref, options) })).body as ImportPreview;
    } catch (error) {
      if (!isRefNotFound(error)) throw error;
      if (i === refs.length - 1) throw noSuchRef(url, options.ref ?? ref, refs);
    }
  }
  throw new UsageError('git import needs a ref');
}

export async function dryRunImport(session: Session, spaceId: string, url: string, refs: readonly string[], options: SyncBodyOptions & { ref?: string | undefined }) {
  const transport = await session.transport();
  let preview: ImportPreview;
  try {
    preview = await previewImport(transport, spaceId, url, refs, options);
  } catch (error) {
    if (!(await previewUnsupported(transport, 'previewGitImport', spaceId, error))) throw error;
    await session.info('note: this server has no import preview (a docsctl extension); comparing with the space as the API shows it');
    preview = await previewImportHere(transport, spaceId, url, refs, options);
  }
  for (const warning of preview.warnings) await session.info(`warning: ${warning}`);
  const lines = preview.changes.map((c) => `${c.kind.padEnd(8)} ${c.object} ${c.path || c.title}`);
  const from = preview.ref === null ? `the directory ${redactUrls(url)}` : `${redactUrls(url)} ${preview.ref}${preview.commit ? ` (${preview.commit.slice(0, 12)})` : ''}`;
  lines.push(
    preview.skipped !== undefined
      ? `dry run: the import from ${from} would be skipped (${preview.skipped}); nothing was imported`
      : `dry run: ${preview.changes.length} change(s) from ${from}; nothing was imported`,
  );
  await report(session, lines, preview);
}

export async function dryRunExport(session: Session, spaceId: string, url: string, ref: string, options: SyncBodyOptions) {
  const transport = await session.transport();
  let preview: ExportPreview;
  try {
    preview = (await transport.request('previewGitExport', { params: { spaceId }, body: syncBody(url, ref, options) })).body as ExportPreview;
  } catch (error) {
    if (!(await previewUnsupported(transport, 'previewGitExport', spaceId, error))) throw error;
    throw new UsageError('git export --dry-run is not supported by this server: the export preview is a docsctl extension (GitBook does not offer it)', {
      hint: 'run it against "docsctl serve" or a local store (--store); the API alone lacks the Git metadata an exact preview needs',
    });
  }
  for (const warning of preview.warnings) await session.info(`warning: ${warning}`);
  const lines = preview.files.map((file) => `${file.change.padEnd(8)} ${file.path}`);
  const writes = preview.files.filter((file) => file.change !== 'delete').length;
  const on = `${redactUrls(url)} ${ref}${preview.commit ? ` (${preview.commit.slice(0, 12)})` : ' (new branch)'}`;
  lines.push(
    preview.skipped !== undefined
      ? `dry run: the export to ${on} would be skipped (${preview.skipped}); nothing was committed`
      : `dry run: ${writes} file(s) to write, ${preview.files.length - writes} to delete on ${on}${preview.wouldCommit ? '' : ', no commit'}; nothing was committed`,
  );
  await report(session, lines, preview);
}

// ─── Without the extension: the import preview made here ──────────────────

/** The first of `refs` the repository has (a plain directory: its files, no commit), read below `under` (readSnapshot). */
async function importSnapshot(url: string, refs: readonly string[], under: string, given: string | undefined) {
  const [{ openSource, readPlainDirectory }, { authorizeUrl }, { processGitSettings }, { noSuchRef }] = await Promise.all([
    import('../../git/source.js'),
    import('../../domain/git/reach.js'),
    import('../../git/settings.js'),
    import('./git-ref-errors.js'),
  ]);
  // This machine's own repository or directory, as local mode reads it.
  const source = await openSource(await authorizeUrl(url), processGitSettings());
  if (source.kind === 'directory') return { ref: null, oid: null, snapshot: await readPlainDirectory(source.dir) };
  for (const ref of refs) {
    const oid = await source.mirror.fetch(ref);
    if (oid !== undefined) return { ref, oid, snapshot: await source.mirror.readSnapshot(oid, under) };
  }
  throw noSuchRef(url, given ?? (refs[0] as string), refs);
}

/** --dir, else the project directory the space last synced with (as the sync itself does). */
async function projectDirectoryOf(transport: Transport, spaceId: string, dir: string | undefined): Promise<string | undefined> {
  if (dir !== undefined) return dir;
  try {
    const { body } = await transport.request('getSpaceGitInfo', { params: { spaceId } });
    const remembered = (body as { projectDirectory?: unknown }).projectDirectory;
    return typeof remembered === 'string' ? remembered : undefined;
  } catch {
    return undefined;
  }
}

async function previewImportHere(
  transport: Transport,
  spaceId: string,
  url: string,
  refs: readonly string[],
  { dir, ref: given }: { dir?: string | undefined; ref?: string | undefined },
): Promise<ImportPreview> {
  const [{ importRepository }, { normalizeProjectDirectory }, { diffTrees }, { randomIds }, { fetchTree }] = await Promise.all([
    import('../../gitsync/import.js'),
    import('../../gitsync/config.js'),
    import('../../content-model/tree-merge.js'),
    import('../../util/ids.js'),
    import('../content-fetch.js'),
  ]);
  const current: ContentTree = await fetchTree(transport, spaceId, { kind: 'primary' });
  const projectDirectory = await projectDirectoryOf(transport, spaceId, dir);
  const { ref, oid, snapshot } = await importSnapshot(url, refs, normalizeProjectDirectory(projectDirectory), given);
  const imported = importRepository(snapshot, { ...(projectDirectory !== undefined ? { projectDirectory } : {}), ids: randomIds(), previous: current });
  return { ref, commit: oid, changes: diffTrees(current, imported.tree), warnings: imported.warnings };
}
