/**
 * `git import --dry-run` and `git export --dry-run`: run the Git Sync converter on
 * the repository and the space's current content, print what would change, and
 * change nothing (no revision, no commit, no push). The repository is read by the
 * CLI itself (a mirror in the git cache). The space's content comes from the local
 * store; remotely it is read through the API (without the Git metadata the server
 * keeps, an export preview would be approximate, so it needs local mode).
 */
import { UsageError } from '../../api/errors.js';
import type { ContentTree } from '../../content/model.js';
import { fetchTree } from '../content-fetch.js';
import type { Session } from '../session.js';
import { redactUrls } from '../../util/redact.js';

async function storedTree(session: Session, spaceId: string): Promise<ContentTree> {
  const [{ openStore }, { getSpace, getRevision }, { loadTree }, { ApiError }] = await Promise.all([
    import('../../store/index.js'),
    import('../../domain/records.js'),
    import('../../domain/content/storage.js'),
    import('../../api/errors.js'),
  ]);
  const store = openStore(session.settings.storeDir);
  try {
    const reader = store.read();
    const space = getSpace(reader, spaceId);
    if (!space || space.deletedAt) throw new ApiError(404, `Space ${spaceId} not found`);
    const revision = getRevision(reader, spaceId, space.revision);
    return revision ? loadTree(reader, revision) : { pages: [], files: [] };
  } finally {
    await store.close();
  }
}

async function currentTree(session: Session, spaceId: string): Promise<ContentTree> {
  if (session.settings.mode === 'local') return storedTree(session, spaceId);
  return fetchTree(await session.transport(), spaceId, { kind: 'primary' });
}

async function snapshotAt(url: string, ref: string) {
  const { openMirror } = await import('../../git/repo.js');
  const mirror = await openMirror(url);
  const oid = await mirror.fetch(ref);
  return { mirror, oid, snapshot: oid === undefined ? new Map() : await mirror.readSnapshot(oid) };
}

/** The first of `refs` the repository has (a plain directory: its files, no commit). */
async function importSnapshot(url: string, refs: readonly string[]) {
  const { openSource, readPlainDirectory } = await import('../../git/source.js');
  const source = await openSource(url);
  if (source.kind === 'directory') return { ref: undefined, oid: undefined, snapshot: await readPlainDirectory(source.dir) };
  for (const ref of refs) {
    const oid = await source.mirror.fetch(ref);
    if (oid !== undefined) return { ref, oid, snapshot: await source.mirror.readSnapshot(oid) };
  }
  throw new UsageError(`${redactUrls(url)} has no ${refs.join(' or ')}`);
}

/** --dir, else the project directory the space last synced with (as the sync itself does). */
async function projectDirectoryOf(session: Session, spaceId: string, dir: string | undefined): Promise<string | undefined> {
  if (dir !== undefined) return dir;
  try {
    const { body } = await (await session.transport()).request('getSpaceGitInfo', { params: { spaceId } });
    const remembered = (body as { projectDirectory?: unknown }).projectDirectory;
    return typeof remembered === 'string' ? remembered : undefined;
  } catch {
    return undefined;
  }
}

async function report(session: Session, lines: string[], json: unknown): Promise<void> {
  if (session.format === 'json' || session.format === 'yaml') await session.printObject(json, []);
  else await session.printText(lines.length ? lines.join('\n') : 'No changes.');
}

export async function dryRunImport(session: Session, spaceId: string, url: string, refs: readonly string[], dirOption: string | undefined) {
  const [{ importRepository }, { diffTrees }, { randomIds }] = await Promise.all([
    import('../../gitsync/import.js'),
    import('../../content/tree-merge.js'),
    import('../../util/ids.js'),
  ]);
  const current = await currentTree(session, spaceId);
  const dir = await projectDirectoryOf(session, spaceId, dirOption);
  const { ref, oid, snapshot } = await importSnapshot(url, refs);
  const imported = importRepository(snapshot, { ...(dir !== undefined ? { projectDirectory: dir } : {}), ids: randomIds(), previous: current });
  const changes = diffTrees(current, imported.tree);
  for (const warning of imported.warnings) await session.info(`warning: ${warning}`);
  const lines = changes.map((c) => `${c.kind.padEnd(8)} ${c.object} ${c.path || c.title}`);
  const from = ref === undefined ? `the directory ${redactUrls(url)}` : `${redactUrls(url)} ${ref} (${(oid as string).slice(0, 12)})`;
  lines.push(`dry run: ${changes.length} change(s) from ${from}; nothing was imported`);
  await report(session, lines, { commit: oid ?? null, changes, warnings: imported.warnings });
}

export async function dryRunExport(session: Session, spaceId: string, url: string, ref: string, dirOption: string | undefined) {
  if (session.settings.mode !== 'local') {
    throw new UsageError('git export --dry-run previews from the local store', { hint: 'run it with --store (the server keeps the Git metadata it needs)' });
  }
  const { exportRepository } = await import('../../gitsync/export.js');
  const tree = await currentTree(session, spaceId);
  const dir = await projectDirectoryOf(session, spaceId, dirOption);
  const { oid, snapshot } = await snapshotAt(url, ref);
  const result = exportRepository(tree, snapshot, dir !== undefined ? { projectDirectory: dir } : {});
  for (const warning of result.warnings) await session.info(`warning: ${warning}`);
  const lines = [
    ...[...result.writes.keys()].sort().map((path) => `${snapshot.has(path) ? 'change' : 'add'}     ${path}`),
    ...[...result.deletes].sort().map((path) => `delete   ${path}`),
  ];
  lines.push(`dry run: ${result.writes.size} file(s) to write, ${result.deletes.length} to delete on ${redactUrls(url)} ${ref}${oid ? ` (${oid.slice(0, 12)})` : ' (new branch)'}; nothing was committed`);
  await report(session, lines, { commit: oid ?? null, writes: [...result.writes.keys()].sort(), deletes: [...result.deletes].sort() });
}
