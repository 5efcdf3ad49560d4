/**
 * Handlers of the `imports` route module: import runs (content/import-runs.ts) and
 * space templates (content/templates.ts), both over the content import of
 * content/import.ts.
 */
import { ApiError, conflict } from '../api/errors.js';
import type * as routes from '../api/routes/imports.js';
import { type Handler, type TwoPhaseHandler, Reply, implementer } from './handler.js';
import { type StartPrepared, applyRun, cancelRun, listRuns, prepareRun, requireRun, runView } from './content/import-runs.js';
import type { Prepared } from './content/import.js';
import type { TemplateRef } from './content/templates.js';
import { changeRequestFor, primaryRevision, spaceFor } from './content/common.js';
import { commitToChangeRequest, commitToSpace } from './content/change-requests.js';
import { requireRevisionRecord } from './content/change-request-records.js';
import { commitSave, openContent } from './content/storage.js';
import type { HandlerContext } from './handler.js';
import type { StoreReader } from '../store/types.js';

const on = implementer<typeof routes>();

const startImportRun: TwoPhaseHandler<typeof routes.startImportRun, StartPrepared> = {
  prepare: (ctx, { params, body }) => prepareRun(ctx, params.organizationId, body),
  run(ctx, { params, body }, prepared) {
    const run = applyRun(ctx, params.organizationId, body, prepared);
    return new Reply(201, runView(ctx, run), { Location: String((runView(ctx, run).urls as { location: string }).location) });
  },
};

// ─── Templates ─────────────────────────────────────────────────────────────

type TemplateBody = { id: string; params?: { contentRefs?: Record<string, { kind: string }> | undefined } | undefined; changeRequestId?: string | undefined };

/** The content the template lands in: the change request's (open), else the space's primary (not locked). */
function templateTarget(tx: StoreReader, ctx: Pick<HandlerContext, 'actor' | 'clock' | 'origin'>, spaceId: string, body: TemplateBody) {
  const { space } = spaceFor(tx, ctx, spaceId);
  if (body.changeRequestId !== undefined) {
    const { cr } = changeRequestFor(tx, ctx, spaceId, body.changeRequestId);
    if (cr.status === 'merged' || cr.status === 'archived') throw new ApiError(409, `Change request #${cr.number} is ${cr.status}: its content cannot change`);
    return { space, cr, revision: requireRevisionRecord(tx, space.id, cr.revision) };
  }
  if (space.editMode === 'locked') throw new ApiError(409, `Space ${space.id} is locked: its content changes only through change requests (apply the template to one with changeRequestId)`);
  return { space, cr: undefined, revision: primaryRevision(tx, space) };
}

const applyTemplateToSpace: TwoPhaseHandler<typeof routes.applyTemplateToSpace, Prepared> = {
  async prepare(ctx, { params, body }) {
    const target = templateTarget(ctx.reader, ctx, params.spaceId, body);
    const [{ templateSnapshot }, { mergeSnapshot, prepareMerged }] = await Promise.all([import('./content/templates.js'), import('./content/import.js')]);
    const snapshot = templateSnapshot(ctx.reader, target.space.organization, target.space.id, body.id, body.params?.contentRefs as Record<string, TemplateRef> | undefined);
    const previous = { tree: openContent(ctx.reader, target.revision).tree(), revision: target.revision.id };
    const merged = await mergeSnapshot(ctx, snapshot, previous.tree, undefined);
    return prepareMerged(ctx, merged, previous, target.cr ? {} : { index: { spaceId: target.space.id } });
  },
  run(ctx, { params, body }, prepared) {
    const target = templateTarget(ctx.tx, ctx, params.spaceId, body);
    // The tree was merged against the revision read at prepare time: committing it over a newer one would drop that
    // change, so a move in between is a 409 to try again (as createChangeRequest's template path answers).
    if (target.revision.id !== prepared.previousRevision) {
      const where = target.cr ? `change request #${target.cr.number} of space ${target.space.id}` : `space ${target.space.id}`;
      throw conflict(`The content of ${where} changed while the template was prepared: apply the template again`);
    }
    const content = commitSave(ctx.tx, prepared.saved);
    if (target.cr) commitToChangeRequest(ctx, ctx.tx, target.cr, content);
    else commitToSpace(ctx, ctx.tx, target.space, content, {}, prepared.index);
    return new Reply(201);
  },
};

export const importHandlers: Record<string, Handler> = {
  ...on('listImportRuns', (ctx, { params, query }) => listRuns(ctx, params.organizationId, query)),
  ...on('startImportRun', startImportRun),
  ...on('getImportRun', (ctx, { params }) => runView(ctx, requireRun(ctx.tx, params.organizationId, params.importRunId))),
  ...on('cancelImportRun', (ctx, { params }) => runView(ctx, cancelRun(ctx, params.organizationId, params.importRunId))),
  ...on('applyTemplateToSpace', applyTemplateToSpace),
};
