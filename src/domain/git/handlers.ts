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
import { notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/git.js';
import type { ContentTree } from '../../content-model/model.js';
import type { AnyRoute, RouteInput } from '../../api/route.js';
import { type Handler, type HandlerContext, type PrepareContext, Reply, type TwoPhaseHandler, implementer } from '../handler.js';
import type { GitSyncState, RevisionGit, SpaceRecord } from '../core-records.js';
import { getSpace, gitSyncStateView, putSpace } from '../core-records.js';
import { commitToSpace } from '../content/change-requests.js';
import { spaceFor } from '../content/common.js';
import { newRevisionRecord, requireRevisionRecord } from '../content/change-request-records.js';
import { type SavedTree, commitSave, saveTree, stageSave } from '../content/storage.js';
import { type IndexPlan, planIndex } from '../search/index.js';
import type { SyncLayout } from '../../gitsync/layout.js';
import { type ImportPrepared, type SyncBody, type Target, addedPaths, alreadyImported, planExport, planImport } from './plan.js';
import { previewHandlers } from './preview.js';
import { type GitSyncRecord, getGitSync, isStale, laterTimestamp, putGitSync, rememberBlobs, rememberLayout, rememberedLayout } from './state.js';
import { recordSpaceEvent } from '../integration-events.js';
import { BULK_ITEMS } from '../../util/slices.js';
import { relieveHeap } from '../../util/heap-relief.js';

const on = implementer<typeof routes>();

/** Files named in the last export's report (the count is always exact). */
const MAX_REPORTED_FILES = 1000;

/** The space's public Git Sync state: `url` is the tree URL the caller gave (gitInfo.url, repoTreeURL), else the repository's. */
function publicState(ctx: HandlerContext, target: Target, body: SyncBody): GitSyncState {
  return {
    repoName: target.repoName,
    ...(target.provider ? { installationProvider: target.provider } : {}),
    url: body.gitInfo?.url ?? body.repoTreeURL ?? target.url,
    updatedAt: ctx.clock().toISOString(),
  };
}

/** What a sync remembers of its request beside the target: the gitInfo and tree URL it was given. */
function requestInfo(body: SyncBody): Pick<GitSyncRecord, 'gitInfo' | 'repoTreeURL'> {
  const gitInfo = body.gitInfo && (body.gitInfo.provider !== undefined || body.gitInfo.url !== undefined) ? { ...body.gitInfo } : undefined;
  return { gitInfo, repoTreeURL: body.repoTreeURL };
}

function commitUrl(prefix: string | undefined, oid: string): string | undefined {
  if (prefix === undefined || prefix === '') return undefined;
  return prefix.endsWith('/') ? `${prefix}${oid}` : `${prefix}/${oid}`;
}

function requireActiveSpace(ctx: HandlerContext, spaceId: string): SpaceRecord {
  return spaceFor(ctx.tx, ctx, spaceId).space;
}

// ─── Import ────────────────────────────────────────────────────────────────

/**
 * What an import's `run` links: the saved tree and the planned index, not the tree itself
 * (the pages' text of a 4,000-page import is then garbage before the commit is built).
 */
type ImportSaved =
  | Extract<ImportPrepared, { skipped: true }>
  | (Omit<Extract<ImportPrepared, { skipped: false }>, 'tree' | 'previous'> & {
      saved: SavedTree;
      index: IndexPlan | undefined;
      /** `[data object hash, git blob id]` of the files staged as git streamed them (state.ts gitBlobs). */
      blobs: Array<[string, string]>;
    });

const importGitRepository: TwoPhaseHandler<typeof routes.importGitRepository, ImportSaved> = {
  async prepare(ctx, input) {
    // Images go into the stager as git streams them (the import holds the pages' text, not the repository).
    const early = ctx.stage && { stager: ctx.stage(), storedData: new Map<string, string>() };
    const plan = await planImport(ctx, input, early);
    if (plan.skipped) return plan;
    // The pages and files are written now, and the search index planned, outside the store's lock
    // (storage.ts stageSave, search/index.ts planIndex): `run` links them.
    // The staged pack's fsyncs run while the index is planned (it needs the content hash, not a durable pack);
    // both are awaited before an error of either is thrown, so the stager is never released mid-seal.
    const staged = await stageSave(ctx, plan.tree, [plan.previous], early);
    const previous = { revision: plan.previousRevision, tree: plan.previous };
    const [sealing, planning] = await Promise.allSettled([
      staged.seal(),
      staged.staged && !input.body.standalone ? planIndex(ctx.reader, input.params.spaceId, previous, plan.tree, staged.content, { consume: true }) : undefined,
    ]);
    if (sealing.status === 'rejected') throw sealing.reason;
    if (planning.status === 'rejected') throw planning.reason;
    const [saved, index] = [sealing.value, planning.value];
    const { tree: _tree, previous: _previous, ...rest } = plan;
    const blobs = early ? [...early.storedData].map(([oid, dataHash]): [string, string] => [dataHash, oid]) : [];
    // The plan's garbage goes before the commit builds leaves from the planned rows, when there is much: the
    // import's peak was that garbage, the rows and their leaves together (server shape: heap 55 -> 77 MB in the
    // commit). Not forced: the plan collected once its pages were counted (planIndex), and a full collection
    // of the ~8 MB made since cost more CPU than it saved memory.
    if (index !== undefined && index.pages >= BULK_ITEMS) relieveHeap();
    return { ...rest, saved, index, blobs };
  },
  run(ctx, { params, body }, prepared) {
    if (prepared.skipped) return undefined;
    const space = requireActiveSpace(ctx, params.spaceId);
    const record = getGitSync(ctx.tx, space.id);
    const { target, oid } = prepared;
    let git: RevisionGit | undefined;
    if (oid !== undefined) {
      git = { oid, message: prepared.message, createdByGitBook: false, ref: target.ref };
      const url = commitUrl(body.repoCommitURL, oid);
      if (url !== undefined) git.url = url;
    }
    const content = commitSave(ctx.tx, prepared.saved);
    rememberBlobs(ctx.tx, prepared.blobs);
    const now = ctx.clock().toISOString();

    if (body.standalone) {
      const revision = newRevisionRecord(ctx.tx, {
        id: ctx.ids(),
        space: space.id,
        type: 'edits',
        parents: [space.revision],
        createdAt: now,
        content,
        ...(git ? { git } : {}),
      });
      putGitSync(ctx.tx, {
        ...(record ?? { space: space.id }),
        lastStandaloneRevision: { revision: revision.id, ...(oid ? { oid } : {}), url: target.url, ref: target.ref, createdAt: now },
      });
      return undefined;
    }

    // Re-checked in the transaction: another sync may have applied a later event meanwhile.
    if (isStale(record, body.timestamp)) return undefined;
    if (!body.force && oid !== undefined && alreadyImported(record, target, oid)) return undefined;
    const revision = commitToSpace(ctx, ctx.tx, space, content, git ? { git } : {}, prepared.index);
    const updated = getSpace(ctx.tx, space.id) as SpaceRecord;
    putSpace(ctx.tx, { ...updated, gitSync: publicState(ctx, target, body) });
    recordGitSync(ctx, updated, revision.id, oid);
    putGitSync(ctx.tx, {
      ...(record ?? { space: space.id }),
      url: target.url,
      ref: target.ref,
      projectDirectory: target.projectDirectory,
      ...requestInfo(body),
      lastOid: oid,
      lastTimestamp: laterTimestamp(record, body.timestamp),
      lastDirection: 'import',
      lastImportRevision: revision.id,
      layout: rememberLayout(ctx.tx, prepared.layout),
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
      /** The repository paths the commit wrote or deleted. */
      files: string[];
      message: string;
      /** The primary revision exported, and its tree. */
      baseRevision: string;
      base: ContentTree;
      /** The tree with the exporter's git refs. */
      exported: ContentTree;
      /** The layout of the project directory after the export. */
      layout: SyncLayout;
      /** `[data object hash, git blob id]` the export learnt (state.ts gitBlobs). */
      learntBlobs: Array<[string, string]>;
    };

const exportToGitRepository: TwoPhaseHandler<typeof routes.exportToGitRepository, ExportPrepared> = {
  async prepare(ctx: PrepareContext, input) {
    const plan = await planExport(ctx, input);
    if (plan.skipped) return plan;
    const { body } = input;
    const { target, mirror, head, result } = plan;
    let oid = head;
    let committed = false;
    if (result.writes.size > 0 || result.deletes.length > 0) {
      const commit = await mirror.commit({
        ...(head !== undefined ? { parent: head } : {}),
        writes: result.writes,
        deletes: result.deletes,
        message: body.commitMessage,
        author: plan.author,
      });
      if (commit !== undefined) {
        if (plan.checkedOut) {
          // A local work copy with the branch checked out: its work tree moves with the branch.
          const { updateCheckedOutBranch } = await import('../../git/worktree.js');
          await updateCheckedOutBranch(mirror, plan.checkedOut, commit, head, addedPaths(result, plan.existing));
          await mirror.followRef(body.ref, commit);
        } else {
          await mirror.push(commit, body.ref, { force: body.force === true, onProgress: ctx.progress });
        }
        oid = commit;
        committed = true;
      }
    }
    if (plan.standalone) return { skipped: true, reason: 'standalone' };
    const files = committed ? [...new Set([...result.writes.keys(), ...result.deletes])].sort() : [];
    return {
      skipped: false,
      target,
      oid,
      committed,
      files,
      message: body.commitMessage,
      baseRevision: plan.baseRevision,
      base: plan.base,
      exported: result.tree,
      layout: result.layout,
      learntBlobs: plan.learntBlobs,
    };
  },
  run(ctx, { params, body }, prepared) {
    if (prepared.skipped) return undefined;
    const space = requireActiveSpace(ctx, params.spaceId);
    const record = getGitSync(ctx.tx, space.id);
    const { target, oid } = prepared;
    const now = ctx.clock().toISOString();
    rememberBlobs(ctx.tx, prepared.learntBlobs);
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
    putSpace(ctx.tx, { ...updated, gitSync: publicState(ctx, target, body) });
    recordGitSync(ctx, updated, exportRevision ?? updated.revision, oid);
    const next: GitSyncRecord = {
      ...(record ?? { space: space.id }),
      url: target.url,
      ref: target.ref,
      projectDirectory: target.projectDirectory,
      ...requestInfo(body),
      lastTimestamp: laterTimestamp(record, body.timestamp),
      lastDirection: 'export',
      layout: rememberLayout(ctx.tx, prepared.layout),
      updatedAt: now,
    };
    if (oid !== undefined) next.lastOid = oid;
    if (exportRevision !== undefined) next.lastExportRevision = exportRevision;
    next.lastExport = {
      committed: prepared.committed,
      ...(oid !== undefined ? { commit: oid } : {}),
      fileCount: prepared.files.length,
      files: prepared.files.slice(0, MAX_REPORTED_FILES),
      at: now,
    };
    putGitSync(ctx.tx, next);
    return undefined;
  },
};

// ─── Info ──────────────────────────────────────────────────────────────────

/**
 * The public state, plus what docsctl's sync configuration of the space holds
 * (the real API's GitSyncState allows more properties; GitBook shows these in
 * the space's Git Sync settings): the repository, branch and project directory
 * later syncs use, the commit both sides last agreed on, and the gitInfo given.
 */
async function getSpaceGitInfo(ctx: HandlerContext, { params }: { params: { spaceId: string } }): Promise<GitSyncState & Record<string, unknown>> {
  const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
  if (space.gitSync === undefined) throw notFound(`Git Sync is not set up for space ${space.id}`);
  const record = getGitSync(ctx.tx, space.id);
  const state = gitSyncStateView(space.id, space.gitSync, (await installations()).spaceInstallationState(ctx.tx, space.id));
  if (record === undefined) return state;
  const extra: Record<string, unknown> = {
    repository: record.url,
    ref: record.ref,
    projectDirectory: record.projectDirectory ?? '',
    ...(await layoutInfo(ctx, record)),
    commit: record.lastOid,
    lastSync: record.lastDirection,
    lastExport: record.lastExport,
    gitInfo: record.gitInfo,
    repoTreeURL: record.repoTreeURL,
  };
  for (const key of Object.keys(extra)) if (extra[key] === undefined) delete extra[key];
  return { ...state, ...extra };
}

/** Where the remembered layout puts the space's content: `.gitbook.yaml`, the content root, README and SUMMARY (repository paths). */
async function layoutInfo(ctx: HandlerContext, record: GitSyncRecord): Promise<Record<string, unknown>> {
  const layout = rememberedLayout(ctx.tx, record);
  if (layout === undefined) return {};
  const { configOfLayout } = await import('../../gitsync/layout.js');
  try {
    const config = configOfLayout(layout);
    return { layout: { config: layout.config !== undefined ? config.path : null, root: config.root, readme: config.readme, summary: config.summary } };
  } catch {
    return {};
  }
}

// ─── Installations (installations.ts) ──────────────────────────────────────

const installations = () => import('./installations.js');

const installGitSyncProviderOnTarget: TwoPhaseHandler<typeof routes.installGitSyncProviderOnTarget, import('./installations.js').InstallPrepared> = {
  prepare: async (ctx, { body }) => (await installations()).prepareInstall(ctx, body),
  async run(ctx, { body }, prepared) {
    const { install, installationView } = await installations();
    const record = install(ctx, body, prepared);
    return new Reply(201, installationView(ctx, record), { Location: String((installationView(ctx, record).urls as { location: string }).location) });
  },
};

const updateGitSyncInstallationById: TwoPhaseHandler<typeof routes.updateGitSyncInstallationById, import('./installations.js').UpdatePrepared> = {
  prepare: async (ctx, { params, body }) => (await installations()).prepareUpdate(ctx, params.installationId, body),
  async run(ctx, { params, body }, prepared) {
    const { update, installationView } = await installations();
    return installationView(ctx, update(ctx, params.installationId, body, prepared));
  },
};

/** A listing that reads the repositories (git, outside any lock) and answers from what it read. */
function listing<R extends AnyRoute>(read: (ctx: PrepareContext, input: RouteInput<R>) => Promise<unknown>): TwoPhaseHandler<R, unknown> {
  return { prepare: read, run: (_ctx, _input, prepared) => prepared };
}

const project = (params: { projectId: string }) => ({ projectId: Number(params.projectId) });

const installationHandlers: Record<string, Handler> = {
  ...on('installGitSyncProviderOnTarget', installGitSyncProviderOnTarget),
  ...on('getGitSyncInstallationById', async (ctx, { params }) => {
    const { requireInstallation, installationView } = await installations();
    return installationView(ctx, requireInstallation(ctx.tx, ctx, params.installationId));
  }),
  ...on('updateGitSyncInstallationById', updateGitSyncInstallationById),
  ...on('uninstallGitSyncInstallation', async (ctx, { params }) => {
    (await installations()).uninstall(ctx, params.installationId);
    return new Reply(205);
  }),
  ...on('listGitHubRepositoriesForGitSyncInstallation', listing(async (ctx, { params }) => (await installations()).listRepositories(ctx, params.installationId, 'github'))),
  ...on('listGitLabProjectsForGitSyncInstallation', listing(async (ctx, { params }) => (await installations()).listRepositories(ctx, params.installationId, 'gitlab'))),
  ...on(
    'listGitHubRepoBranchesForGitSyncInstallation',
    listing(async (ctx, { params }) => (await installations()).listBranches(ctx, params.installationId, 'github', params)),
  ),
  ...on(
    'listGitLabProjectBranchesForGitSyncInstallation',
    listing(async (ctx, { params }) => (await installations()).listBranches(ctx, params.installationId, 'gitlab', project(params))),
  ),
  ...on(
    'getGitHubRepoFileForGitSyncInstallation',
    listing(async (ctx, { params, query }) => (await installations()).repositoryFile(ctx, params.installationId, 'github', params, query)),
  ),
  ...on(
    'getGitLabProjectFileForGitSyncInstallation',
    listing(async (ctx, { params, query }) => (await installations()).repositoryFile(ctx, params.installationId, 'gitlab', project(params), query)),
  ),
  ...on('listSiteGitSyncInstallations', async (ctx, { params }) => (await installations()).siteInstallations(ctx, params.organizationId, params.siteId)),
};

export const gitHandlers: Record<string, Handler> = {
  ...installationHandlers,
  ...on('importGitRepository', importGitRepository),
  ...on('exportToGitRepository', exportToGitRepository),
  ...on('getSpaceGitInfo', getSpaceGitInfo),
  ...previewHandlers,
};

/**
 * `space_gitsync_started` and `space_gitsync_completed` for the integrations installed on
 * the space: a sync runs within one operation here, so both are recorded when it is done
 * (a sync without a commit, as a failed one, records nothing).
 */
function recordGitSync(ctx: HandlerContext, space: SpaceRecord, revisionId: string, commitId: string | undefined): void {
  if (commitId === undefined) return;
  recordSpaceEvent(ctx, ctx.tx, space, { type: 'space_gitsync_started', revisionId, commitId });
  recordSpaceEvent(ctx, ctx.tx, space, { type: 'space_gitsync_completed', state: 'success', revisionId, commitId });
}
