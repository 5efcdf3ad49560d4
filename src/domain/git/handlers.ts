/**
 * Git Sync of a space (API doc §4.19): `importGitRepository`,
 * `exportToGitRepository` (both answer 204) and `getSpaceGitInfo`.
 *
 * Both syncs are two-phase: `prepare` does the slow work outside the store lock
 * (fetch into the mirror cache, read the commit's tree, convert; for export also
 * commit and push), `run` applies the result in the transaction.
 *
 * Import: skipped (204, nothing changes) when `timestamp` is older than the last
 * applied event's, or when the branch still points at the commit the space last
 * synced with (same repository, branch and project directory) and `force` is
 * not set; that check happens right after the fetch, before reading the tree.
 * Otherwise the tree becomes a new primary revision (`edits`, `git: {oid,
 * message, createdByGitBook: false, url?, ref}`), or, with `standalone`, a
 * revision that is not the primary (kept in the git sync record as
 * `lastStandaloneRevision`; the space's state is not touched).
 *
 * Export: refused with 409 when the branch moved since the last sync (unless
 * `force`); no commit when the export writes and deletes nothing; otherwise one
 * commit on the branch head with `commitMessage`, pushed as a fast-forward (or
 * forced). The git refs the exporter gives pages and files (new blob ids and
 * paths) are attached with a new primary revision whose content is otherwise
 * the same. `standalone` pushes without linking: no state is recorded.
 *
 * State: the public `GitSyncState` on the space record (`gitSync`), the
 * private sync state in the `gitSync` table (state.ts). Credentials in `url`
 * never reach the store or a message.
 */
import { badRequest, conflict, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/git.js';
import type { ContentTree } from '../../content/model.js';
import { type Handler, type HandlerContext, type PrepareContext, type TwoPhaseHandler, implementer } from '../handler.js';
import type { GitSyncState, RevisionGit, SpaceRecord } from '../records.js';
import { getSpace, putSpace } from '../records.js';
import { commitToSpace } from '../content/change-requests.js';
import { primaryRevision, spaceFor } from '../content/common.js';
import { newRevisionRecord, requireRevisionRecord } from '../content/records.js';
import { openContent, saveTree } from '../content/storage.js';
import { type GitSyncRecord, type GitSyncTarget, getGitSync, isStale, laterTimestamp, putGitSync, sameTarget } from './state.js';

const on = implementer<typeof routes>();

interface SyncBody {
  url: string;
  ref: string;
  repoProjectDirectory?: string | undefined;
  repoCommitURL?: string | undefined;
  timestamp?: string | undefined;
  force?: boolean | undefined;
}

/** What the sync needs to know about the URL: its stored form and public state. Never the credentials. */
interface Target extends GitSyncTarget {
  repoName: string;
  provider?: 'github' | 'gitlab';
}

async function targetOf(body: SyncBody): Promise<Target> {
  const [{ parseRepoUrl, providerOf, repoNameOf }, { normalizeProjectDirectory }, { GitSyncError }, { checkRefName }] = await Promise.all([
    import('../../git/credentials.js'),
    import('../../gitsync/config.js'),
    import('../../gitsync/errors.js'),
    import('../../git/refs.js'),
  ]);
  let repo;
  try {
    repo = parseRepoUrl(body.url);
  } catch (error) {
    throw badRequest((error as Error).message);
  }
  checkRefName(body.ref);
  let projectDirectory: string;
  try {
    projectDirectory = normalizeProjectDirectory(body.repoProjectDirectory);
  } catch (error) {
    if (error instanceof GitSyncError) throw badRequest(`Invalid repoProjectDirectory: ${error.message}`);
    throw error;
  }
  const provider = providerOf(repo);
  return { url: repo.redacted, ref: body.ref, projectDirectory, repoName: repoNameOf(repo), ...(provider ? { provider } : {}) };
}

/** The converter's errors (a symlink leaving the repository, a bad config…) are the caller's: 400. */
async function converting<T>(what: string, url: string, fn: () => T): Promise<T> {
  const { GitSyncError } = await import('../../gitsync/errors.js');
  try {
    return fn();
  } catch (error) {
    if (error instanceof GitSyncError) throw badRequest(`Cannot ${what} ${url}: ${error.message}`);
    throw error;
  }
}

function publicState(ctx: HandlerContext, target: Target): GitSyncState {
  return {
    repoName: target.repoName,
    ...(target.provider ? { installationProvider: target.provider } : {}),
    url: target.url,
    updatedAt: ctx.clock().toISOString(),
  };
}

function commitUrl(prefix: string | undefined, oid: string): string | undefined {
  if (prefix === undefined || prefix === '') return undefined;
  return prefix.endsWith('/') ? `${prefix}${oid}` : `${prefix}/${oid}`;
}

function requireActiveSpace(ctx: HandlerContext, spaceId: string): SpaceRecord {
  return spaceFor(ctx.tx, ctx, spaceId, 'edit', 'sync this space with Git').space;
}

// ─── Import ────────────────────────────────────────────────────────────────

type ImportPrepared =
  | { skipped: true; reason: string }
  | {
      skipped: false;
      target: Target;
      oid: string;
      message: string;
      tree: ContentTree;
      previous: ContentTree;
      previousRevision: string;
      warnings: string[];
    };

const importGitRepository: TwoPhaseHandler<typeof routes.importGitRepository, ImportPrepared> = {
  async prepare(ctx: PrepareContext, { params, body }) {
    const { space } = spaceFor(ctx.reader, ctx, params.spaceId, 'edit', 'sync this space with Git');
    const target = await targetOf(body);
    const record = getGitSync(ctx.reader, space.id);
    if (!body.standalone && isStale(record, body.timestamp)) return { skipped: true, reason: 'stale event' };
    const { openMirror } = await import('../../git/repo.js');
    const mirror = await openMirror(body.url, { policy: ctx.policy });
    const oid = await mirror.fetch(body.ref);
    if (oid === undefined) throw notFound(`Cannot fetch ${target.url} at ${body.ref}: remote ref not found`);
    if (!body.standalone && !body.force && sameTarget(record, target) && record.lastOid === oid) {
      return { skipped: true, reason: 'already synced' };
    }
    const [snapshot, message] = await Promise.all([mirror.readSnapshot(oid), mirror.commitMessage(oid)]);
    const revision = primaryRevision(ctx.reader, space);
    const previous = openContent(ctx.reader, revision).tree();
    const { importRepository } = await import('../../gitsync/import.js');
    const result = await converting('import', target.url, () =>
      importRepository(snapshot, { projectDirectory: target.projectDirectory, ids: ctx.ids, previous }),
    );
    return { skipped: false, target, oid, message, tree: result.tree, previous, previousRevision: revision.id, warnings: result.warnings };
  },
  run(ctx, { params, body }, prepared) {
    if (prepared.skipped) return undefined;
    const space = requireActiveSpace(ctx, params.spaceId);
    const record = getGitSync(ctx.tx, space.id);
    const { target, oid } = prepared;
    const git: RevisionGit = {
      oid,
      message: prepared.message,
      createdByGitBook: false,
      ref: target.ref,
    };
    const url = commitUrl(body.repoCommitURL, oid);
    if (url !== undefined) git.url = url;
    const content = saveTree(ctx.tx, prepared.tree, [prepared.previous]);
    const now = ctx.clock().toISOString();

    if (body.standalone) {
      const revision = newRevisionRecord(ctx.tx, {
        id: ctx.ids(),
        space: space.id,
        type: 'edits',
        parents: [space.revision],
        createdAt: now,
        content,
        git,
      });
      putGitSync(ctx.tx, {
        ...(record ?? { space: space.id }),
        lastStandaloneRevision: { revision: revision.id, oid, url: target.url, ref: target.ref, createdAt: now },
      });
      return undefined;
    }

    // Re-checked in the transaction: another sync may have applied a later event meanwhile.
    if (isStale(record, body.timestamp)) return undefined;
    if (!body.force && sameTarget(record, target) && record.lastOid === oid) return undefined;
    const revision = commitToSpace(ctx, ctx.tx, space, content, { git });
    const updated = getSpace(ctx.tx, space.id) as SpaceRecord;
    putSpace(ctx.tx, { ...updated, gitSync: publicState(ctx, target) });
    putGitSync(ctx.tx, {
      ...(record ?? { space: space.id }),
      url: target.url,
      ref: target.ref,
      projectDirectory: target.projectDirectory,
      lastOid: oid,
      lastTimestamp: laterTimestamp(record, body.timestamp),
      lastDirection: 'import',
      lastImportRevision: revision.id,
      updatedAt: now,
    });
    return undefined;
  },
};

// ─── Export ────────────────────────────────────────────────────────────────

type ExportPrepared =
  | { skipped: true; reason: string }
  | {
      skipped: false;
      target: Target;
      /** The branch head after the export (the pushed commit, or the head when nothing was committed). */
      oid: string | undefined;
      /** Whether a commit was pushed. */
      committed: boolean;
      message: string;
      /** The primary revision exported, and its tree. */
      baseRevision: string;
      base: ContentTree;
      /** The tree with the exporter's git refs. */
      exported: ContentTree;
    };

const exportToGitRepository: TwoPhaseHandler<typeof routes.exportToGitRepository, ExportPrepared> = {
  async prepare(ctx: PrepareContext, { params, body }) {
    const { space } = spaceFor(ctx.reader, ctx, params.spaceId, 'edit', 'sync this space with Git');
    const target = await targetOf(body);
    const standalone = (body as { standalone?: boolean }).standalone === true;
    const record = getGitSync(ctx.reader, space.id);
    if (!standalone && isStale(record, body.timestamp)) return { skipped: true, reason: 'stale event' };
    const { openMirror } = await import('../../git/repo.js');
    const mirror = await openMirror(body.url, { policy: ctx.policy });
    const head = await mirror.fetch(body.ref);
    if (
      !standalone &&
      !body.force &&
      head !== undefined &&
      sameTarget(record, target) &&
      record.lastOid !== undefined &&
      record.lastOid !== head
    ) {
      throw conflict(
        `Cannot export to ${target.url} at ${body.ref}: the remote branch moved since the last sync (${record.lastOid.slice(0, 12)} → ${head.slice(0, 12)}); import first, or pass force`,
      );
    }
    const current = head !== undefined ? await mirror.readSnapshot(head) : new Map();
    const revision = primaryRevision(ctx.reader, space);
    const base = openContent(ctx.reader, revision).tree();
    const { exportRepository } = await import('../../gitsync/export.js');
    const result = await converting('export to', target.url, () =>
      exportRepository(base, current, { projectDirectory: target.projectDirectory }),
    );
    let oid = head;
    let committed = false;
    if (result.writes.size > 0 || result.deletes.length > 0) {
      const commit = await mirror.commit({
        ...(head !== undefined ? { parent: head } : {}),
        writes: result.writes,
        deletes: result.deletes,
        message: body.commitMessage,
      });
      if (commit !== undefined) {
        await mirror.push(commit, body.ref, { force: body.force === true });
        oid = commit;
        committed = true;
      }
    }
    if (standalone) return { skipped: true, reason: 'standalone' };
    return { skipped: false, target, oid, committed, message: body.commitMessage, baseRevision: revision.id, base, exported: result.tree };
  },
  run(ctx, { params, body }, prepared) {
    if (prepared.skipped) return undefined;
    const space = requireActiveSpace(ctx, params.spaceId);
    const record = getGitSync(ctx.tx, space.id);
    const { target, oid } = prepared;
    const now = ctx.clock().toISOString();
    let exportRevision = record?.lastExportRevision;
    // Attach the exporter's git refs, unless the primary moved since (its next export will).
    if (space.revision === prepared.baseRevision) {
      const primary = requireRevisionRecord(ctx.tx, space.id, space.revision);
      const content = saveTree(ctx.tx, prepared.exported, [prepared.base]);
      if (content !== primary.content) {
        const git: RevisionGit | undefined =
          prepared.committed && oid !== undefined ? { oid, message: prepared.message, createdByGitBook: true, ref: target.ref } : undefined;
        const url = oid !== undefined ? commitUrl(body.repoCommitURL, oid) : undefined;
        if (git && url !== undefined) git.url = url;
        exportRevision = commitToSpace(ctx, ctx.tx, space, content, git ? { git } : {}).id;
      } else {
        exportRevision = space.revision;
      }
    }
    const updated = getSpace(ctx.tx, space.id) as SpaceRecord;
    putSpace(ctx.tx, { ...updated, gitSync: publicState(ctx, target) });
    const next: GitSyncRecord = {
      ...(record ?? { space: space.id }),
      url: target.url,
      ref: target.ref,
      projectDirectory: target.projectDirectory,
      lastTimestamp: laterTimestamp(record, body.timestamp),
      lastDirection: 'export',
      updatedAt: now,
    };
    if (oid !== undefined) next.lastOid = oid;
    if (exportRevision !== undefined) next.lastExportRevision = exportRevision;
    putGitSync(ctx.tx, next);
    return undefined;
  },
};

// ─── Info ──────────────────────────────────────────────────────────────────

function getSpaceGitInfo(ctx: HandlerContext, { params }: { params: { spaceId: string } }): GitSyncState {
  const { space } = spaceFor(ctx.tx, ctx, params.spaceId, 'read');
  if (space.gitSync === undefined) throw notFound(`Git Sync is not set up for space ${space.id}`);
  return space.gitSync;
}

export const gitHandlers: Record<string, Handler> = {
  ...on('importGitRepository', importGitRepository),
  ...on('exportToGitRepository', exportToGitRepository),
  ...on('getSpaceGitInfo', getSpaceGitInfo),
};

