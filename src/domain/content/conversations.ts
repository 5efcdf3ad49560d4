/**
 * Agent conversations of a change request (routes: src/api/routes/conversations.ts).
 *
 * Table `crConversations`, key `${spaceId}/${changeRequestId}/${conversationId}` →
 * ConversationRecord: one row each, listed in id order through the one pagination engine.
 *
 * Rules decided here:
 * - The id is the client's (GitBook's clients generate it; `default` is a change request's
 *   default conversation): 1–100 letters, digits, `-` and `_`, the first a letter or digit
 *   (`-rf` is no id).
 * - Opening an existing conversation changes nothing and answers it (200), so a client may
 *   open it on every connection; a new one answers 201.
 * - A private conversation (`shared: false`, for good) is seen, renamed and deleted by its
 *   creator only: anyone else gets 404, as for a missing one. A shared one is renamed by
 *   anyone who may edit the change request, deleted by its creator or an admin.
 * - At most MAX_CONVERSATIONS per change request: a listing then reads a bounded number of
 *   rows whatever other people's private conversations it leaves out.
 */
import { ApiError, forbidden, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/conversations.js';
import type { StoreReader } from '../../store/types.js';
import { type Handler, type HandlerContext, Reply, deleted, implementer } from '../handler.js';
import { countRows, paginate, rowsOf } from '../pagination.js';
import { atLeast } from '../permissions.js';
import { changeRequestFor } from './common.js';
import { type ConversationRecord, checkConversationId, conversationView as view } from '../conversation-view.js';

const on = implementer<typeof routes>();

const TABLE = 'crConversations';
export const MAX_CONVERSATIONS = 1000;


const prefixOf = (spaceId: string, crId: string) => `${spaceId}/${crId}/`;


const visibleTo = (userId: string) => (record: ConversationRecord) => record.shared || record.createdBy === userId;

type Params = { spaceId: string; changeRequestId: string; conversationId: string };

/** The conversation the caller may see, its key, and the change request's access. */
function conversationFor(ctx: Pick<HandlerContext, 'tx' | 'actor' | 'clock' | 'origin'>, params: Params) {
  const access = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
  const key = `${prefixOf(access.space.id, access.cr.id)}${params.conversationId}`;
  const record = ctx.tx.get<ConversationRecord>(TABLE, key);
  if (!record || !visibleTo(ctx.actor.userId)(record)) {
    throw notFound(`Conversation ${params.conversationId} not found in change request #${access.cr.number}`);
  }
  return { ...access, key, record };
}

const countOf = (tx: StoreReader, prefix: string, keep: (record: ConversationRecord) => boolean = () => true) => countRows<ConversationRecord>(tx, TABLE, prefix, keep);

export const conversationHandlers: Record<string, Handler> = {
  ...on('listChangeRequestConversations', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const prefix = prefixOf(space.id, cr.id);
    const visible = visibleTo(ctx.actor.userId);
    return paginate(rowsOf<ConversationRecord>(ctx.tx, TABLE, prefix), query, (record) => (visible(record) ? view(record) : undefined), countOf(ctx.tx, prefix, visible));
  }),

  ...on('openChangeRequestConversation', (ctx, { params, body }) => {
    checkConversationId(params.conversationId);
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const prefix = prefixOf(space.id, cr.id);
    const key = `${prefix}${params.conversationId}`;
    const existing = ctx.tx.get<ConversationRecord>(TABLE, key);
    if (existing) {
      if (!visibleTo(ctx.actor.userId)(existing)) throw new ApiError(409, `Conversation id ${params.conversationId} is taken in change request #${cr.number}: choose another`);
      return new Reply(200, view(existing));
    }
    if (countOf(ctx.tx, prefix) >= MAX_CONVERSATIONS) {
      throw new ApiError(409, `Change request #${cr.number} has ${MAX_CONVERSATIONS} conversations, the most it may hold: delete some first`);
    }
    const now = ctx.clock().toISOString();
    const record: ConversationRecord = {
      id: params.conversationId,
      ...(body?.title !== undefined ? { title: body.title } : {}),
      shared: body?.shared ?? true,
      createdBy: ctx.actor.userId,
      createdAt: now,
      updatedAt: now,
    };
    ctx.tx.put(TABLE, key, record);
    return new Reply(201, view(record));
  }),

  ...on('updateChangeRequestConversation', (ctx, { params, body }) => {
    const { key, record } = conversationFor(ctx, params);
    if (record.title === body.title) return view(record);
    const updated = { ...record, title: body.title, updatedAt: ctx.clock().toISOString() };
    ctx.tx.put(TABLE, key, updated);
    return view(updated);
  }),

  ...on('deleteChangeRequestConversation', (ctx, { params }) => {
    const { key, record, role } = conversationFor(ctx, params);
    if (record.createdBy !== ctx.actor.userId && !atLeast(role, 'admin')) {
      throw forbidden(`Only its author or an admin may delete conversation ${params.conversationId}`);
    }
    ctx.tx.delete(TABLE, key);
    return deleted();
  }),
};
