/**
 * `createChangeRequest` (cr create): a change request on the space's primary content, or with
 * 0.202's `template` on that content with a built-in template's pages added. Apart from
 * change-requests.ts: the template path reaches the import and template modules, which use
 * change-requests.ts themselves.
 */
import { conflict } from '../../api/errors.js';
import type * as crRoutes from '../../api/routes/change-requests.js';
import { putSpace } from '../core-records.js';
import { type Handler, Reply, type TwoPhaseHandler, implementer } from '../handler.js';
import { type ChangeRequestRecord, addChangeRequest, changeRequestCount, countersAfter, newRevisionRecord } from './change-request-records.js';
import { primaryRevision, spaceFor } from './common.js';
import type { Prepared } from './import.js';
import { crView } from './revisions.js';
import { commitSave, contentOf, openContent } from './storage.js';

const crOn = implementer<typeof crRoutes>();

/**
 * A new change request on the space's primary content; with 0.202's `template`, its content
 * starts with that built-in template's pages added (prepared outside the store lock, as
 * applyTemplateToSpace does; the primary content moving meanwhile is a 409 to try again).
 */
const createChangeRequest: TwoPhaseHandler<typeof crRoutes.createChangeRequest, Prepared | undefined> = {
  async prepare(ctx, { params, body }) {
    if (body.template === undefined) return undefined;
    const { space } = spaceFor(ctx.reader, ctx, params.spaceId);
    const primary = primaryRevision(ctx.reader, space);
    const { prepareTemplateContent } = await import('./template-space.js');
    return prepareTemplateContent(ctx, ctx.reader, space.organization, body.template, { tree: openContent(ctx.reader, primary).tree(), revision: primary.id });
  },
  run(ctx, { params, body }, prepared) {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    const primary = primaryRevision(ctx.tx, space);
    if (prepared !== undefined && prepared.previousRevision !== primary.id) {
      throw conflict(`The content of space ${space.id} changed while the template was prepared: create the change request again`);
    }
    const now = ctx.clock().toISOString();
    const id = ctx.ids();
    const revision = newRevisionRecord(ctx.tx, {
      id: ctx.ids(),
      space: space.id,
      type: 'edits',
      parents: [primary.id],
      createdAt: now,
      content: prepared === undefined ? contentOf(primary) : commitSave(ctx.tx, prepared.saved),
    });
    const cr: ChangeRequestRecord = {
      id,
      space: space.id,
      number: changeRequestCount(ctx.tx, space.id) + 1,
      status: 'open',
      subject: body.subject ?? '',
      createdBy: ctx.actor.userId,
      createdAt: now,
      updatedAt: now,
      revision: revision.id,
      revisionInitial: primary.id,
      comments: 0,
      contributors: [ctx.actor.userId],
    };
    addChangeRequest(ctx.tx, cr);
    putSpace(ctx.tx, { ...space, counters: countersAfter(space, undefined, cr.status) });
    const view = crView(ctx.tx, ctx, space, cr);
    return new Reply(201, view, { Location: view.urls.location });
  },
};

export const crCreateHandlers: Record<string, Handler> = { ...crOn('createChangeRequest', createChangeRequest) };
