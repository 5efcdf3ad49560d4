/**
 * Comments and replies on a space's content and on change requests (API doc
 * §4.10–4.11): post, list (newest first, filters of the real API), get, edit (the
 * author or an admin), delete (replies go with it), resolve/reopen, reactions.
 *
 * Access: reading needs membership (any role); posting, replying, reacting and
 * resolving need the `comment` role; editing or deleting someone else's comment
 * or reply needs `admin`. The change request's `comments` and the space's
 * `counters.comments` count the open comments and are kept in the same commit.
 *
 * Comments and reviews
 *
 * Comments (`src/domain/comments/`) are one row per comment in `comments`, keyed
 * `${thread}/${inverted sequence number}` where a thread is a space's content or one change request:
 * a forward scan is newest first, so a page of a 10,000-comment thread reads its page of rows. Index
 * rows (`comments.open`, `comments.resolved`, `comments.page`) serve the status and page filters, count
 * rows keep `count` and the open-comment counters (the change request's `comments`, the space's
 * `counters.comments`) exact in the same commit. Replies are one row each under their comment and go
 * with it. A comment keeps a snapshot of its page (title, path); its view checks the page against the
 * live revision (the space's, or the change request's until merged) and says `outdated: true` once the
 * page is gone. The review flow (`src/domain/review/`: requested reviewers, reviews, contributors,
 * `getChangeRequestChanges` from the same `diffTrees` as `cr diff`) shares the thread key; its merge
 * rules (`merge-rules.ts`) are checked by `cr merge`, which answers 409 naming each unmet rule.
 *
 * Search (`src/domain/search/`): an inverted index of each space's primary content. A word's
 * postings are split into up to 64 rows by a hash of the page id (`${space}/${word}/${group}` →
 * `[pageId, count in text, count in title, …]`), so a word found on every page of a 5,000-page
 * space is ~64 rows to read, and a page edit rewrites one small row per word of the page. Rows are
 * flat arrays because objects keyed by thousands of distinct page ids are slow to parse cold (V8
 * builds a hidden class per key set); rows an earlier version wrote as objects are still read and
 * are rewritten as arrays when a commit touches them. A state
 * row names the revision it reflects and the index format (an index of an older format counts as
 * missing). Searches read the rows with a shared scan (`ScanOptions.shared`: the store's parsed
 * values, read-only, no copy each). The commits that move a space's primary revision (merge,
 * `commitToSpace` for imports) call `indexCommit`, which diffs the two page tries and re-indexes only
 * the changed pages; an import plans that in its `prepare` from the trees it holds (`planIndex`,
 * outside the lock), and its commit only writes the rows. A search scans the postings of its words, ranks (words matched, then tf-idf
 * with title words weighted), and opens only the pages it returns. A space whose index is missing
 * or behind (content written another way, a duplicate) is searched by reading its pages until its
 * next commit indexes it.
 */
import type * as routes from '../../api/routes/comments.js';
import { badRequest, forbidden, notFound } from '../../api/errors.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { changeRequestFor, spaceFor } from '../content/common.js';
import { type ChangeRequestRecord, getChangeRequest, putChangeRequest } from '../content/change-request-records.js';
import { openContent } from '../content/storage.js';
import type { BodyFormat } from '../content/views.js';
import { type HandlerContext, deleted, implementer, nothingToDelete } from '../handler.js';
import { countRows, paginate, rowsOf } from '../pagination.js';
import { atLeast } from '../permissions.js';
import { type Role, type SpaceRecord, getRevision, getSpace, putSpace } from '../core-records.js';
import { countCommenter } from '../review/review-records.js';
import {
  type CommentRecord,
  CommentTables,
  type ReactionRecord,
  type ReplyRecord,
  type StoredBody,
  findComment,
  findReply,
  insertComment,
  newCommentSeq,
  newReplySeq,
  pagePrefix,
  putReply,
  removeComment,
  removeReply,
  replaceComment,
  storedRepliers,
  threadCount,
  threadOf,
  withReplier,
} from './comment-records.js';
import { type CommentViewContext, commentView, commentViewContext, isEmptyBody, replyView } from './views.js';

const on = implementer<typeof routes>();

type Ctx = Pick<HandlerContext, 'actor' | 'clock' | 'origin'> & { tx: StoreReader };

/** The comments of a space's content or of one change request, and who is asking. */
interface Thread {
  space: SpaceRecord;
  role: Role;
  cr?: ChangeRequestRecord;
  key: string;
  /** The revision a new comment is posted against. */
  revision: string;
  /** The revision whose pages tell whether a comment's page still exists. */
  live: string;
  /** "space S" or "change request #N", for messages. */
  label: string;
}

function threadFor(ctx: Ctx, spaceId: string, crParam: string | undefined): Thread {
  if (crParam === undefined) {
    const { space, role } = spaceFor(ctx.tx, ctx, spaceId);
    return { space, role, key: threadOf(space.id), revision: space.revision, live: space.revision, label: `space ${space.id}` };
  }
  const { space, role, cr } = changeRequestFor(ctx.tx, ctx, spaceId, crParam);
  return {
    space,
    role,
    cr,
    key: threadOf(space.id, cr.id),
    revision: cr.revision,
    // Once merged, the change request's pages live on in the space's primary content.
    live: cr.status === 'merged' ? space.revision : cr.revision,
    label: `change request #${cr.number}`,
  };
}

function viewContext(ctx: Ctx, thread: Thread): CommentViewContext {
  return commentViewContext(ctx.tx, ctx, thread.role, thread.space.id, thread.live);
}

function requireComment(tx: StoreReader, thread: Thread, commentId: string): CommentRecord {
  const comment = findComment(tx, thread.space.id, commentId);
  if (comment && comment.changeRequest === thread.cr?.id) return comment;
  const reply = comment ? undefined : findReply(tx, commentId);
  const hint = reply ? ` (${commentId} is a reply of comment ${reply.comment})` : '';
  throw notFound(`Comment ${commentId} not found in ${thread.label}${hint}`);
}

function requireReply(tx: StoreReader, thread: Thread, comment: CommentRecord, replyId: string): ReplyRecord {
  const reply = findReply(tx, replyId);
  if (!reply || reply.comment !== comment.id) throw notFound(`Reply ${replyId} not found in comment ${comment.id}`);
  return reply;
}

function requireBody(body: StoredBody, what: string): StoredBody {
  if (isEmptyBody(body)) throw badRequest(`The ${what} body is empty: pass body.markdown with some text`);
  return body;
}

/** Only the author, or an admin of the organization, may edit or delete a comment or reply. */
function requireAuthor(ctx: Ctx, thread: Thread, author: string, what: string, action: string): void {
  if (author === ctx.actor.userId || atLeast(thread.role, 'admin')) return;
  throw forbidden(`Only the author of ${what} or an admin can ${action} it`);
}


/** Keeps the open-comment counter of the change request or space equal to its index count. */
function syncOpenCounter(tx: StoreWriter, thread: Thread): void {
  const open = threadCount(tx, thread.key, 'open');
  if (thread.cr) {
    const cr = getChangeRequest(tx, thread.space.id, thread.cr.id) as ChangeRequestRecord;
    if (cr.comments !== open) putChangeRequest(tx, { ...cr, comments: open });
  } else {
    const space = getSpace(tx, thread.space.id) as SpaceRecord;
    if (space.counters.comments !== open) putSpace(tx, { ...space, counters: { ...space.counters, comments: open } });
  }
}

function react(reactions: readonly ReactionRecord[], user: string, now: string, added: readonly string[] = [], removed: readonly string[] = []): ReactionRecord[] {
  const out = reactions.map((reaction) => ({ emoji: reaction.emoji, users: [...reaction.users] }));
  for (const emoji of added) {
    let reaction = out.find((r) => r.emoji === emoji);
    if (!reaction) {
      reaction = { emoji, users: [] };
      out.push(reaction);
    }
    if (!reaction.users.some((entry) => entry.user === user)) reaction.users.push({ user, reactedAt: now });
  }
  for (const emoji of removed) {
    const reaction = out.find((r) => r.emoji === emoji);
    if (reaction) reaction.users = reaction.users.filter((entry) => entry.user !== user);
  }
  return out.filter((reaction) => reaction.users.length > 0);
}

// ─── Operations (shared by the space and change-request variants) ──────────

interface ListQuery {
  page?: string | undefined;
  limit?: number | undefined;
  order?: 'asc' | 'desc' | undefined;
  format?: BodyFormat | undefined;
  status?: 'all' | 'open' | 'resolved' | undefined;
  targetPage?: string | undefined;
  authors?: string[] | undefined;
}

function listComments(ctx: Ctx, thread: Thread, query: ListQuery) {
  const status = query.status ?? 'all';
  const authors = query.authors && query.authors.length > 0 ? new Set(query.authors) : undefined;
  const view = viewContext(ctx, thread);
  const record = (key: string) => ctx.tx.get<CommentRecord>(CommentTables.comments, `${thread.key}/${key.slice(key.lastIndexOf('/') + 1)}`);
  const keep = (comment: CommentRecord | undefined) =>
    comment !== undefined && (status === 'all' || comment.status === status) && (!authors || authors.has(comment.postedBy));
  // Scan the narrowest index: the page's comments, the open or resolved ones, or all.
  const [table, prefix] = query.targetPage !== undefined
    ? [CommentTables.byPage, pagePrefix(thread.key, query.targetPage)]
    : status === 'open'
      ? [CommentTables.open, `${thread.key}/`]
      : status === 'resolved'
        ? [CommentTables.resolved, `${thread.key}/`]
        : [CommentTables.comments, `${thread.key}/`];
  let count: number | undefined;
  if (!authors && query.targetPage === undefined) {
    const all = threadCount(ctx.tx, thread.key);
    const open = threadCount(ctx.tx, thread.key, 'open');
    count = status === 'all' ? all : status === 'open' ? open : all - open;
  } else if (!authors) {
    count = countRows<string>(ctx.tx, table, prefix, (_row, key) => status === 'all' || keep(record(key)));
  }
  // Rows are the store's own parsed values (shared, no copy each): read, never modified.
  return paginate(
    rowsOf<unknown>(ctx.tx, table, prefix, { reverse: query.order === 'asc', shared: true }),
    query,
    (row, key) => {
      const comment = table === CommentTables.comments ? (row as CommentRecord) : record(key);
      return keep(comment) ? commentView(view, comment as CommentRecord, query.format) : undefined;
    },
    count,
  );
}

interface PostBody {
  body: StoredBody;
  page?: string | undefined;
  node?: string | undefined;
  tableCell?: { record: string; definition: string } | undefined;
}

function postComment(ctx: HandlerContext, thread: Thread, body: PostBody, extra: Partial<CommentRecord> = {}) {
  requireBody(body.body, 'comment');
  let page: CommentRecord['page'];
  if (body.page !== undefined) {
    const revision = getRevision(ctx.tx, thread.space.id, thread.revision);
    const content = revision ? openContent(ctx.tx, revision) : undefined;
    const found = content?.page(body.page);
    if (!content || !found) throw badRequest(`Invalid page: ${body.page} is not a page of ${thread.label}`);
    page = {
      id: found.id,
      title: found.title || 'Untitled',
      path: content.pathOf(found.id),
      ...(found.emoji ? { emoji: found.emoji } : {}),
      ...(found.icon ? { icon: found.icon } : {}),
    };
  }
  const comment: CommentRecord = {
    id: ctx.ids(),
    space: thread.space.id,
    ...(thread.cr ? { changeRequest: thread.cr.id } : {}),
    seq: newCommentSeq(ctx.tx, thread.key),
    postedBy: ctx.actor.userId,
    postedAt: ctx.clock().toISOString(),
    body: body.body,
    revision: thread.revision,
    ...(body.node !== undefined ? { node: body.node } : {}),
    ...(page ? { page } : {}),
    ...(body.tableCell !== undefined ? { tableCell: body.tableCell } : {}),
    status: 'open',
    reactions: [],
    replies: 0,
    ...extra,
  };
  insertComment(ctx.tx, thread.key, comment);
  syncOpenCounter(ctx.tx, thread);
  countCommenter(ctx.tx, thread.space.id, thread.cr ? thread.key : undefined, ctx.actor.userId, comment.postedAt);
  return { comment, view: commentView(viewContext(ctx, thread), comment) };
}

interface UpdateBody {
  resolved?: boolean | undefined;
  body?: StoredBody | undefined;
  addedReactions?: string[] | undefined;
  removedReactions?: string[] | undefined;
}

const NOTHING_TO_UPDATE = 'Nothing to update: pass at least one of resolved, body, addedReactions, removedReactions';

/** The comment after a change of status (resolve/reopen), or itself when it already has it. */
function withStatus(ctx: HandlerContext, thread: Thread, comment: CommentRecord, resolved: boolean): CommentRecord {
  if (resolved === (comment.status === 'resolved')) return comment;
  if (resolved) return { ...comment, status: 'resolved', resolvedAt: ctx.clock().toISOString(), resolvedBy: ctx.actor.userId };
  const { resolvedAt: _at, resolvedBy: _by, ...open } = comment;
  return { ...open, status: 'open' };
}

function updateComment(ctx: HandlerContext, thread: Thread, commentId: string, body: UpdateBody) {
  if (body.resolved === undefined && body.body === undefined && body.addedReactions === undefined && body.removedReactions === undefined) {
    throw badRequest(NOTHING_TO_UPDATE);
  }
  const before = requireComment(ctx.tx, thread, commentId);
  let after = before;
  const now = ctx.clock().toISOString();
  if (body.body !== undefined) {
    requireAuthor(ctx, thread, before.postedBy, `comment ${before.id}`, 'edit');
    after = { ...after, body: requireBody(body.body, 'comment'), editedAt: now };
  }
  if (body.resolved !== undefined) after = withStatus(ctx, thread, after, body.resolved);
  if (body.addedReactions !== undefined || body.removedReactions !== undefined) {
    after = { ...after, reactions: react(after.reactions, ctx.actor.userId, now, body.addedReactions, body.removedReactions) };
  }
  replaceComment(ctx.tx, thread.key, before, after);
  if (before.status !== after.status) syncOpenCounter(ctx.tx, thread);
  return commentView(viewContext(ctx, thread), after);
}

function deleteComment(ctx: HandlerContext, thread: Thread, commentId: string) {
  const comment = findComment(ctx.tx, thread.space.id, commentId);
  if (!comment || comment.changeRequest !== thread.cr?.id) return nothingToDelete();
  requireAuthor(ctx, thread, comment.postedBy, `comment ${comment.id}`, 'delete');
  removeComment(ctx.tx, thread.key, comment);
  if (comment.status === 'open') syncOpenCounter(ctx.tx, thread);
  return deleted();
}

function listReplies(ctx: Ctx, thread: Thread, commentId: string, query: { page?: string | undefined; limit?: number | undefined; format?: BodyFormat | undefined }) {
  const comment = requireComment(ctx.tx, thread, commentId);
  const view = viewContext(ctx, thread);
  // Oldest first: a thread reads in the order it was written.
  return paginate(
    rowsOf<ReplyRecord>(ctx.tx, CommentTables.replies, `${comment.id}/`, { reverse: true, shared: true }),
    query,
    (reply) => replyView(view, comment, reply, query.format),
    comment.replies,
  );
}

function postReply(ctx: HandlerContext, thread: Thread, commentId: string, body: { body: StoredBody }, format?: BodyFormat) {
  if (!findComment(ctx.tx, thread.space.id, commentId)) {
    const reply = findReply(ctx.tx, commentId);
    if (reply) throw badRequest(`${commentId} is a reply, and replies have no replies: reply to its comment ${reply.comment}`);
  }
  const comment = requireComment(ctx.tx, thread, commentId);
  const reply: ReplyRecord = {
    id: ctx.ids(),
    comment: comment.id,
    seq: newReplySeq(ctx.tx, comment.id),
    postedBy: ctx.actor.userId,
    postedAt: ctx.clock().toISOString(),
    body: requireBody(body.body, 'reply'),
    reactions: [],
  };
  putReply(ctx.tx, reply);
  countCommenter(ctx.tx, thread.space.id, thread.cr ? thread.key : undefined, ctx.actor.userId, reply.postedAt);
  const repliers = withReplier(storedRepliers(ctx.tx, comment), reply.postedBy, 1, reply.postedAt);
  replaceComment(ctx.tx, thread.key, comment, { ...comment, replies: comment.replies + 1, repliers });
  return replyView(viewContext(ctx, thread), comment, reply, format);
}

function updateReply(ctx: HandlerContext, thread: Thread, commentId: string, replyId: string, body: UpdateBody) {
  if (body.resolved === undefined && body.body === undefined && body.addedReactions === undefined && body.removedReactions === undefined) {
    throw badRequest(NOTHING_TO_UPDATE);
  }
  const comment = requireComment(ctx.tx, thread, commentId);
  const before = requireReply(ctx.tx, thread, comment, replyId);
  let after = before;
  const now = ctx.clock().toISOString();
  if (body.body !== undefined) {
    requireAuthor(ctx, thread, before.postedBy, `reply ${before.id}`, 'edit');
    after = { ...after, body: requireBody(body.body, 'reply'), editedAt: now };
  }
  if (body.addedReactions !== undefined || body.removedReactions !== undefined) {
    after = { ...after, reactions: react(after.reactions, ctx.actor.userId, now, body.addedReactions, body.removedReactions) };
  }
  putReply(ctx.tx, after);
  // `resolved` on a reply (change requests) resolves or reopens its thread.
  if (body.resolved !== undefined) {
    const resolved = withStatus(ctx, thread, comment, body.resolved);
    if (resolved !== comment) {
      replaceComment(ctx.tx, thread.key, comment, resolved);
      syncOpenCounter(ctx.tx, thread);
    }
  }
  return replyView(viewContext(ctx, thread), comment, after);
}

function deleteReply(ctx: HandlerContext, thread: Thread, commentId: string, replyId: string) {
  const comment = requireComment(ctx.tx, thread, commentId);
  const reply = findReply(ctx.tx, replyId);
  if (!reply || reply.comment !== comment.id) return nothingToDelete();
  requireAuthor(ctx, thread, reply.postedBy, `reply ${reply.id}`, 'delete');
  const repliers = withReplier(storedRepliers(ctx.tx, comment), reply.postedBy, -1);
  removeReply(ctx.tx, reply);
  replaceComment(ctx.tx, thread.key, comment, { ...comment, replies: Math.max(0, comment.replies - 1), repliers });
  return deleted();
}

/** Posts the comment a review carries (reviews.ts). */
export function postReviewComment(ctx: HandlerContext, spaceId: string, crId: string, body: StoredBody, review: string) {
  const thread = threadFor(ctx, spaceId, crId);
  return postComment(ctx, thread, { body }, { review });
}

export { commentView, viewContext as commentViewContextFor, threadFor as commentThreadFor };

// ─── Handlers ──────────────────────────────────────────────────────────────

export const commentHandlers = {
  // §4.11 space comments
  ...on('listCommentsInSpace', (ctx, { params, query }) => listComments(ctx, threadFor(ctx, params.spaceId, undefined), query)),
  ...on('postCommentInSpace', (ctx, { params, body }) => postComment(ctx, threadFor(ctx, params.spaceId, undefined), body).view),
  ...on('getCommentInSpace', (ctx, { params, query }) => {
    const thread = threadFor(ctx, params.spaceId, undefined);
    return commentView(viewContext(ctx, thread), requireComment(ctx.tx, thread, params.commentId), query.format);
  }),
  ...on('updateCommentInSpace', (ctx, { params, body }) => updateComment(ctx, threadFor(ctx, params.spaceId, undefined), params.commentId, body)),
  ...on('deleteCommentInSpace', (ctx, { params }) => deleteComment(ctx, threadFor(ctx, params.spaceId, undefined), params.commentId)),
  ...on('listCommentRepliesInSpace', (ctx, { params, query }) =>
    listReplies(ctx, threadFor(ctx, params.spaceId, undefined), params.commentId, query),
  ),
  ...on('postCommentReplyInSpace', (ctx, { params, body }) => postReply(ctx, threadFor(ctx, params.spaceId, undefined), params.commentId, body)),
  ...on('getCommentReplyInSpace', (ctx, { params, query }) => {
    const thread = threadFor(ctx, params.spaceId, undefined);
    const comment = requireComment(ctx.tx, thread, params.commentId);
    return replyView(viewContext(ctx, thread), comment, requireReply(ctx.tx, thread, comment, params.commentReplyId), query.format);
  }),
  ...on('updateCommentReplyInSpace', (ctx, { params, body }) =>
    updateReply(ctx, threadFor(ctx, params.spaceId, undefined), params.commentId, params.commentReplyId, body),
  ),
  ...on('deleteCommentReplyInSpace', (ctx, { params }) =>
    deleteReply(ctx, threadFor(ctx, params.spaceId, undefined), params.commentId, params.commentReplyId),
  ),

  // §4.10 change request comments
  ...on('listCommentsInChangeRequest', (ctx, { params, query }) =>
    listComments(ctx, threadFor(ctx, params.spaceId, params.changeRequestId), query),
  ),
  ...on('postCommentInChangeRequest', (ctx, { params, body }) =>
    postComment(ctx, threadFor(ctx, params.spaceId, params.changeRequestId), body).view,
  ),
  ...on('getCommentInChangeRequest', (ctx, { params, query }) => {
    const thread = threadFor(ctx, params.spaceId, params.changeRequestId);
    return commentView(viewContext(ctx, thread), requireComment(ctx.tx, thread, params.commentId), query.format);
  }),
  ...on('updateCommentInChangeRequest', (ctx, { params, body }) =>
    updateComment(ctx, threadFor(ctx, params.spaceId, params.changeRequestId), params.commentId, body),
  ),
  ...on('deleteCommentInChangeRequest', (ctx, { params }) =>
    deleteComment(ctx, threadFor(ctx, params.spaceId, params.changeRequestId), params.commentId),
  ),
  ...on('listCommentRepliesInChangeRequest', (ctx, { params, query }) =>
    listReplies(ctx, threadFor(ctx, params.spaceId, params.changeRequestId), params.commentId, query),
  ),
  ...on('postCommentReplyInChangeRequest', (ctx, { params, query, body }) =>
    postReply(ctx, threadFor(ctx, params.spaceId, params.changeRequestId), params.commentId, body, query.format),
  ),
  ...on('getCommentReplyInChangeRequest', (ctx, { params, query }) => {
    const thread = threadFor(ctx, params.spaceId, params.changeRequestId);
    const comment = requireComment(ctx.tx, thread, params.commentId);
    return replyView(viewContext(ctx, thread), comment, requireReply(ctx.tx, thread, comment, params.commentReplyId), query.format);
  }),
  ...on('updateCommentReplyInChangeRequest', (ctx, { params, body }) =>
    updateReply(ctx, threadFor(ctx, params.spaceId, params.changeRequestId), params.commentId, params.commentReplyId, body),
  ),
  ...on('deleteCommentReplyInChangeRequest', (ctx, { params }) =>
    deleteReply(ctx, threadFor(ctx, params.spaceId, params.changeRequestId), params.commentId, params.commentReplyId),
  ),
};
