/**
 * Conversations with an organization's Docs agent (routes: src/api/routes/org-conversations.ts).
 *
 * Table `orgConversations`, key `${organizationId}/${conversationId}` → record: one row each,
 * listed in id order through the one pagination engine (no list row is rewritten).
 *
 * Rules decided here (the spec gives the shapes only):
 * - The id is the client's: 1–100 letters, digits, `-` and `_`, the first a letter or digit
 *   (`-rf` is no id), as for a change request's conversations (content/conversations.ts).
 * - Provisioning an existing conversation changes nothing (204 both times), so a client may
 *   provision on every connection. A conversation starts shared and untitled (its title comes
 *   from its first message in GitBook; here from a rename).
 * - Its creator or an organization admin renames or deletes it; another member gets 403.
 * - Deleting answers 205; a missing conversation is not found (404): 0.202 declares 205 only.
 */
import { forbidden, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/org-conversations.js';
import { type Handler, type HandlerContext, Reply, deleted, implementer } from './handler.js';
import { paginate, rowsOf } from './pagination.js';
import { atLeast, orgAccess } from './permissions.js';
import { type ConversationRecord as OrgConversationRecord, checkConversationId, conversationView as view } from './conversation-view.js';

const on = implementer<typeof routes>();

const TABLE = 'orgConversations';



type Params = { organizationId: string; conversationId: string };
/** The key of a conversation of an organization the caller belongs to (404 for any other id, e.g. `a/b`). */
function keyOf(ctx: HandlerContext, params: Params): string {
  const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
  return `${org.id}/${params.conversationId}`;
}

/** The conversation, which the caller (its creator or an admin) may change. */
function changeable(ctx: HandlerContext, params: Params): OrgConversationRecord {
  const record = ctx.tx.get<OrgConversationRecord>(TABLE, keyOf(ctx, params));
  if (!record) throw notFound(`Conversation ${params.conversationId} not found in organization ${params.organizationId}`);
  if (record.createdBy !== ctx.actor.userId && !atLeast(ctx.access.role ?? null, 'admin')) {
    throw forbidden(`Only its creator or an admin may change conversation ${params.conversationId}`);
  }
  return record;
}

export const orgConversationHandlers: Record<string, Handler> = {
  ...on('listOrganizationAgentConversations', (ctx, { params, query }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return paginate(rowsOf<OrgConversationRecord>(ctx.tx, TABLE, `${org.id}/`), query, (record) => view(record));
  }),

  ...on('provisionOrganizationAgentConversation', (ctx, { params }) => {
    checkConversationId(params.conversationId);
    if (ctx.tx.has(TABLE, keyOf(ctx, params))) return new Reply(204);
    const now = ctx.clock().toISOString();
    const record: OrgConversationRecord = { id: params.conversationId, shared: true, createdBy: ctx.actor.userId, createdAt: now, updatedAt: now };
    ctx.tx.put(TABLE, keyOf(ctx, params), record);
    return new Reply(204);
  }),

  ...on('updateOrganizationAgentConversation', (ctx, { params, body }) => {
    const record = changeable(ctx, params);
    if (record.title === body.title) return view(record);
    const updated = { ...record, title: body.title, updatedAt: ctx.clock().toISOString() };
    ctx.tx.put(TABLE, keyOf(ctx, params), updated);
    return view(updated);
  }),

  ...on('deleteOrganizationAgentConversation', (ctx, { params }) => {
    changeable(ctx, params);
    ctx.tx.delete(TABLE, keyOf(ctx, params));
    return deleted();
  }),
};
