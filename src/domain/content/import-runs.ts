/**
 * Import runs (`startImportRun`, `getImportRun`, `listImportRuns`, `cancelImportRun`):
 * the real API's record of a content import, over the import docsctl already has
 * (import.ts: the same sources, limits, policy and merge).
 *
 * A run imports within the request that starts it: the fetch and conversion in
 * `prepare` (outside the store lock), the content and the run record in one commit.
 * So a run is `completed` (the new revision, the counts, the pages it brought) or
 * `failed` (the reason: an unreadable source, an archive beyond the limits…) by the
 * time anyone can read it; it is never seen `pending`, and cancelling a finished run
 * answers 400 naming its status, as the real API does. What the request itself gets
 * wrong (no such space, change request or page; a role too low; a source the policy
 * does not let this server read) is an error of the request, and no run is recorded.
 *
 * Sources: `website` `{url}` (a Markdown file, a directory by file://, or a .zip
 * archive), `file` `{files}` (up to 50 storage keys: docsctl has no file storage,
 * so a key is the file's URL, as a custom font's is), imported one after the other
 * into the same revision. The target is a space's primary content, or a change
 * request, optionally under a page.
 *
 * Rows: `importRuns` (KeyedSet: owner the organization, id the run's time-ordered
 * id, listed newest first) and `importRuns.space` (the space's runs, for the
 * `space` filter): a page of a listing reads its page of rows.
 */
import { ApiError, badRequest, notFound } from '../../api/errors.js';
import type { StoreReader } from '../../store/types.js';
import { redactUrls } from '../../util/redact.js';
import type { HandlerContext, PrepareContext } from '../handler.js';
import { KeyedSet } from '../ordered.js';
import { type ListPage, paginate, rowsOf } from '../pagination.js';
import { apiUrl } from '../urls.js';
import { type SpaceRecord, requireOrg } from '../core-records.js';
import { siteSpacesOfSpace } from '../sites/site-records.js';
import { commitToChangeRequest, commitToSpace } from './change-requests.js';
import { changeRequestFor, primaryRevision, spaceFor } from './common.js';
import { type ChangeRequestRecord, requireRevisionRecord } from './change-request-records.js';
import { type ImportedPage, MAX_LISTED_PAGES, type Merged, type Prepared, mergeSource, prepareMerged, sourceOfUrl } from './import.js';
import { commitSave, openContent } from './storage.js';

export type ImportRunStatus = 'pending' | 'in-progress' | 'completed' | 'failed' | 'cancelled';
export type ImportSource = { type: 'website'; url: string } | { type: 'file'; files: string[] };
export interface ImportTarget {
  space: string;
  changeRequest?: string | undefined;
  page?: string | undefined;
}

export interface ImportRunRecord {
  id: string;
  organization: string;
  status: ImportRunStatus;
  source: ImportSource;
  target: ImportTarget;
  site?: string;
  createdBy: string;
  createdAt: string;
  startedAt: string;
  updatedAt: string;
  completedAt?: string;
  reason?: string;
  /** The revision the import wrote (completed runs). */
  revision?: string;
  /** Pages and files created or changed, and those the source holds. */
  importedResources: number;
  totalResources: number;
  pages: Array<ImportedPage & { sourceURL?: string }>;
}

const runs = new KeyedSet<ImportRunRecord>('importRuns');
const runsOfSpace = new KeyedSet<null>('importRuns.space');

export interface StartBody {
  source: ImportSource;
  target: ImportTarget;
  site?: string | undefined;
  enhance?: boolean | undefined;
}

type Outcome = { ok: true; prepared: Prepared; base: string } | { ok: false; reason: string };

export interface StartPrepared {
  startedAt: string;
  outcome: Outcome;
}

/** The file URLs a source names, checked for shape (the import reads them). */
function sourceUrls(source: ImportSource): string[] {
  const urls = source.type === 'website' ? [source.url] : source.files;
  if (urls.length === 0) throw badRequest('Invalid body field "source.files": give at least one file');
  for (const url of urls) {
    if (!URL.canParse(url)) throw badRequest(`Invalid import source "${redactUrls(url)}": docsctl has no file storage, so a file key is the file's URL (file:// or http(s)://)`);
  }
  return urls;
}

interface TargetAccess {
  space: SpaceRecord;
  cr?: ChangeRequestRecord;
}

/** The target, as the caller may write it (404/403 otherwise): the organization's space, its open change request. */
function targetFor(tx: StoreReader, ctx: Pick<HandlerContext, 'actor' | 'clock' | 'origin'>, organizationId: string, target: ImportTarget): TargetAccess {
  const space = spaceFor(tx, ctx, target.space).space;
  if (space.organization !== organizationId) throw notFound(`Space ${target.space} not found in organization ${organizationId}`);
  const cr = target.changeRequest === undefined ? undefined : changeRequestFor(tx, ctx, target.space, target.changeRequest).cr;
  const access = { space };
  if (cr && (cr.status === 'merged' || cr.status === 'archived')) throw new ApiError(409, `Change request #${cr.number} is ${cr.status}: its content cannot change`);
  if (!cr && access.space.editMode === 'locked') throw new ApiError(409, `Space ${access.space.id} is locked: its content changes only through change requests (import into one)`);
  return cr ? { space: access.space, cr } : { space: access.space };
}

function revisionOf(tx: StoreReader, access: TargetAccess) {
  return access.cr ? requireRevisionRecord(tx, access.space.id, access.cr.revision) : primaryRevision(tx, access.space);
}

/** Imports every URL of the source into the target's content, one after the other. Request errors throw; content errors fail the run. */
export async function prepareRun(ctx: PrepareContext, organizationId: string, body: StartBody): Promise<StartPrepared> {
  const startedAt = ctx.clock().toISOString();
  requireOrg(ctx.reader, organizationId);
  const urls = sourceUrls(body.source);
  const access = targetFor(ctx.reader, ctx, organizationId, body.target);
  const revision = revisionOf(ctx.reader, access);
  const previous = openContent(ctx.reader, revision).tree();
  const merged: Merged = { tree: previous, imported: 0, total: 0, warnings: [], pages: [] };
  try {
    for (const url of urls) {
      const next = await mergeSource(ctx, { url, source: sourceOfUrl(url) }, merged.tree, body.target.page);
      Object.assign(merged, {
        tree: next.tree,
        imported: merged.imported + next.imported,
        total: merged.total + next.total,
        warnings: [...merged.warnings, ...next.warnings],
        pages: [...merged.pages, ...next.pages].slice(0, MAX_LISTED_PAGES),
      });
    }
  } catch (error) {
    // The policy's refusals and a missing page are the request's errors; what the source holds fails the run.
    if (!(error instanceof ApiError) || error.status === 403 || error.status === 404 || error.status >= 500) throw error;
    return { startedAt, outcome: { ok: false, reason: error.message } };
  }
  const index = access.cr ? {} : { index: { spaceId: access.space.id } };
  const prepared = await prepareMerged(ctx, merged, { tree: previous, revision: revision.id }, index);
  return { startedAt, outcome: { ok: true, prepared, base: revision.id } };
}

function runLocation(ctx: Pick<HandlerContext, 'origin'>, run: ImportRunRecord): string {
  return apiUrl(ctx.origin, `org/${encodeURIComponent(run.organization)}/imports/${encodeURIComponent(run.id)}`);
}

/** The one site the space belongs to, if exactly one. */
function siteOfSpace(tx: StoreReader, spaceId: string): string | undefined {
  const sites = new Set(siteSpacesOfSpace.all(tx, spaceId).map((entry) => entry.value));
  return sites.size === 1 ? [...sites][0] : undefined;
}

function sourceUrlOf(source: ImportSource, page: ImportedPage): string | undefined {
  const base = source.type === 'website' ? source.url : source.files.length === 1 ? source.files[0] : undefined;
  if (base === undefined) return undefined;
  if (page.path === undefined || !base.startsWith('file:') || /\.(md|markdown|zip)$/i.test(base)) return redactUrls(base);
  return redactUrls(`${base.replace(/\/+$/, '')}/${page.path.split('/').map(encodeURIComponent).join('/')}`);
}

/** Writes the content and the run, in the start's transaction. */
export function applyRun(ctx: HandlerContext, organizationId: string, body: StartBody, prepared: StartPrepared): ImportRunRecord {
  const access = targetFor(ctx.tx, ctx, organizationId, body.target);
  const now = ctx.clock().toISOString();
  const site = body.site ?? siteOfSpace(ctx.tx, access.space.id);
  const source: ImportSource = body.source.type === 'website' ? { type: 'website', url: redactUrls(body.source.url) } : { type: 'file', files: body.source.files.map(redactUrls) };
  const run: ImportRunRecord = {
    id: ctx.ids(),
    organization: organizationId,
    status: 'failed',
    source,
    target: { space: access.space.id, ...(body.target.changeRequest !== undefined ? { changeRequest: body.target.changeRequest } : {}), ...(body.target.page !== undefined ? { page: body.target.page } : {}) },
    ...(site !== undefined ? { site } : {}),
    createdBy: ctx.actor.userId,
    createdAt: prepared.startedAt,
    startedAt: prepared.startedAt,
    updatedAt: now,
    importedResources: 0,
    totalResources: 0,
    pages: [],
  };
  const { outcome } = prepared;
  if (outcome.ok) {
    const { prepared: done } = outcome;
    const content = commitSave(ctx.tx, done.saved);
    const revision = access.cr ? commitToChangeRequest(ctx, ctx.tx, access.cr, content) : commitToSpace(ctx, ctx.tx, access.space, content, {}, done.index);
    Object.assign(run, {
      status: 'completed',
      completedAt: now,
      revision: revision.id,
      importedResources: done.imported,
      totalResources: done.total,
      pages: done.pages.map((page) => {
        const sourceURL = sourceUrlOf(body.source, page);
        return { id: page.id, type: page.type, ...(page.path !== undefined ? { path: page.path } : {}), ...(sourceURL !== undefined ? { sourceURL } : {}) };
      }),
    });
  } else {
    run.reason = outcome.reason;
  }
  runs.put(ctx.tx, organizationId, run.id, run);
  runsOfSpace.put(ctx.tx, access.space.id, run.id, null);
  return run;
}

/** The run as the API shows it. */
export function runView(ctx: Pick<HandlerContext, 'origin'>, run: ImportRunRecord): Record<string, unknown> {
  const { organization: _organization, pages, ...rest } = run;
  return {
    object: 'import-run',
    ...rest,
    pages: pages.map((page) => ({ id: page.id, type: page.type, status: 'complete', ...(page.sourceURL !== undefined ? { sourceURL: page.sourceURL } : {}) })),
    urls: { location: runLocation(ctx, run) },
  };
}

export function requireRun(tx: StoreReader, organizationId: string, runId: string): ImportRunRecord {
  requireOrg(tx, organizationId);
  const run = runs.get(tx, organizationId, runId);
  if (run === undefined) throw notFound(`Import run ${runId} not found in organization ${organizationId}`);
  return run;
}

export interface RunFilter {
  space?: string | undefined;
  changeRequest?: string | undefined;
  site?: string | undefined;
  status?: 'active' | ImportRunStatus | undefined;
  page?: string | undefined;
  limit?: number | undefined;
}

function matches(run: ImportRunRecord, filter: RunFilter): boolean {
  if (filter.changeRequest !== undefined && run.target.changeRequest !== filter.changeRequest) return false;
  if (filter.site !== undefined && run.site !== filter.site) return false;
  if (filter.status === 'active') return run.status === 'pending' || run.status === 'in-progress';
  return filter.status === undefined || run.status === filter.status;
}

/**
 * The organization's runs, newest first. With `space`, that space's runs only (its
 * own index rows); the other filters drop rows as the page is read, and a filtered
 * listing leaves `count` out (it would need every row).
 */
export function listRuns(ctx: Pick<HandlerContext, 'tx' | 'origin'>, organizationId: string, filter: RunFilter): ListPage<Record<string, unknown>> {
  requireOrg(ctx.tx, organizationId);
  const filtered = filter.changeRequest !== undefined || filter.site !== undefined || filter.status !== undefined;
  const view = (run: ImportRunRecord | undefined) => (run !== undefined && run.organization === organizationId && matches(run, filter) ? runView(ctx, run) : undefined);
  if (filter.space !== undefined) {
    const space = filter.space;
    const count = filtered ? undefined : runsOfSpace.count(ctx.tx, space);
    return paginate(rowsOf<null>(ctx.tx, runsOfSpace.table, `${space}/`, { reverse: true }), filter, (_row, key) => view(runs.get(ctx.tx, organizationId, key)), count);
  }
  const count = filtered ? undefined : runs.count(ctx.tx, organizationId);
  return paginate(rowsOf<ImportRunRecord>(ctx.tx, runs.table, `${organizationId}/`, { reverse: true }), filter, (run) => view(run), count);
}

/** Cancels a run that has not finished: 400 naming the status of one that has. */
export function cancelRun(ctx: HandlerContext, organizationId: string, runId: string): ImportRunRecord {
  const run = requireRun(ctx.tx, organizationId, runId);
  if (run.status !== 'pending' && run.status !== 'in-progress') {
    throw badRequest(`Import run ${run.id} is ${run.status}: only a pending or in-progress run can be cancelled`);
  }
  const now = ctx.clock().toISOString();
  const cancelled: ImportRunRecord = { ...run, status: 'cancelled', updatedAt: now };
  runs.put(ctx.tx, organizationId, run.id, cancelled);
  return cancelled;
}
