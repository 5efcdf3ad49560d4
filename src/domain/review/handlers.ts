/**
 * The review flow of a change request (real API): requested reviewers, reviews
 * (approve / request changes, with an optional comment), contributors, and the
 * changes of the change request, computed with the same tree diff as `cr diff`
 * (content/tree-merge.ts `diffTrees`, primary content → change request).
 *
 * Access: reading needs membership; requesting reviewers needs `edit`; reviewing
 * needs `review` (the author may review too: whether that counts is up to the
 * merge rules, e.g. `require_specific_reviewers`).
 */
import type * as routes from '../../api/routes/reviews.js';
import { badRequest, conflict, notFound } from '../../api/errors.js';
import type { StoreReader } from '../../store/types.js';
import type { ContentPage, ContentTree } from '../../content-model/model.js';
import { type Change, diffTrees } from '../../content-model/tree-merge.js';
import { postReviewComment } from '../comments/handlers.js';
import { type CommentRecord, findComment, threadOf } from '../comments/comment-records.js';
import { commentView, commentViewContext } from '../comments/views.js';
import { changeRequestFor, primaryRevision, spaceFor } from '../content/common.js';
import { type ChangeRequestRecord, getChangeRequest, putChangeRequest, requireRevisionRecord } from '../content/change-request-records.js';
import { loadTree } from '../content/storage.js';
import { crView, revisionById } from '../content/revisions.js';
import { type HandlerContext, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { type PageQuery, countRows, itemsOf, paginate, rowsOf } from '../pagination.js';
import { roleIn } from '../permissions.js';
import { type SpaceRecord, type Role, getMember, getUser } from '../core-records.js';
import { apiUrl } from '../urls.js';
import { type UserView, userView } from '../views.js';
import {
  type CommenterRecord,
  type RequestedReviewerRecord,
  type ReviewRecord,
  ReviewTables,
  addReview,
  currentReviews,
  reviewById,
} from './review-records.js';
import { memberView } from '../members.js';

const on = implementer<typeof routes>();
const seg = (id: string) => encodeURIComponent(id);

type Ctx = Pick<HandlerContext, 'actor' | 'clock' | 'origin'> & { tx: StoreReader };

function userRef(tx: StoreReader, origin: string, id: string): UserView {
  const user = getUser(tx, id);
  return user ? userView({ origin }, user) : { object: 'user', id, displayName: id, email: '', urls: { location: apiUrl(origin, `users/${seg(id)}`) } };
}

const crLocation = (origin: string, cr: ChangeRequestRecord) => apiUrl(origin, `spaces/${seg(cr.space)}/change-requests/${seg(cr.id)}`);

function requestedView(ctx: Ctx, record: RequestedReviewerRecord) {
  return {
    object: 'change-request-requested-reviewer' as const,
    revision: record.revision,
    requestedBy: userRef(ctx.tx, ctx.origin, record.requestedBy),
    createdAt: record.createdAt,
    kind: 'user' as const,
    user: userRef(ctx.tx, ctx.origin, record.user),
  };
}

function reviewView(ctx: Ctx, space: SpaceRecord, role: Role, cr: ChangeRequestRecord, review: ReviewRecord, format?: 'markdown' | 'document') {
  const thread = threadOf(space.id, cr.id);
  const latest = currentReviews(ctx.tx, thread).get(review.reviewer);
  const comment = review.comment === undefined ? undefined : findComment(ctx.tx, space.id, review.comment);
  return {
    object: 'change-request-review' as const,
    id: review.id,
    revision: review.revision,
    reviewer: userRef(ctx.tx, ctx.origin, review.reviewer),
    ...(review.requestedBy !== undefined ? { requestedBy: userRef(ctx.tx, ctx.origin, review.requestedBy) } : {}),
    status: review.status,
    // Superseded by a later review of the same reviewer.
    outdated: latest?.id !== review.id,
    ...(comment ? { comment: commentView(commentViewContext(ctx.tx, ctx, role, space.id, cr.status === 'merged' ? space.revision : cr.revision), comment as CommentRecord, format) } : {}),
    createdAt: review.createdAt,
    updatedAt: review.createdAt,
    // 0.202: where getChangeRequestReviewById reads it.
    urls: { location: `${crLocation(ctx.origin, cr)}/reviews/${seg(review.id)}` },
  };
}

// ─── Changes (the same diff as `cr diff`) ──────────────────────────────────

interface PageInfo {
  page: ContentPage;
  parent: string | undefined;
  path: string;
}

function indexPages(tree: ContentTree): Map<string, PageInfo> {
  const out = new Map<string, PageInfo>();
  const visit = (pages: ContentPage[], parent: string | undefined, prefix: string) => {
    for (const page of pages) {
      const path = page.slug ? (prefix ? `${prefix}/${page.slug}` : page.slug) : prefix;
      out.set(page.id, { page, parent, path });
      visit(page.pages, page.id, path);
    }
  };
  visit(tree.pages, undefined, '');
  return out;
}

const changedPage = (info: PageInfo) => ({ id: info.page.id, type: info.page.type, title: info.page.title || 'Untitled', path: info.path });

/** One API `RevisionSemanticChange` per change of `diffTrees`. */
function semanticChange(change: Change, before: Map<string, PageInfo>, after: Map<string, PageInfo>, fromFiles: ContentTree['files'], toFiles: ContentTree['files']) {
  if (change.object === 'file') {
    const file = (change.kind === 'removed' ? fromFiles : toFiles).find((f) => f.id === change.fileId);
    const ref = { id: change.fileId, name: change.title, contentType: file?.contentType ?? 'application/octet-stream', downloadURL: '' };
    if (change.kind === 'added') return { type: 'file_created', file: ref };
    if (change.kind === 'removed') return { type: 'file_deleted', file: ref };
    const attributes: Record<string, unknown> = {};
    if (change.fields?.includes('name')) attributes.name = { before: change.previousName, after: change.title };
    if (change.fields?.includes('data') || Object.keys(attributes).length === 0) attributes.downloadURL = {};
    return { type: 'file_edited', file: ref, attributes };
  }
  const now = after.get(change.pageId);
  const then = before.get(change.pageId);
  if (change.kind === 'added') return { type: 'page_created', page: changedPage(now as PageInfo) };
  if (change.kind === 'removed') return { type: 'page_deleted', page: changedPage(then as PageInfo) };
  if (change.kind === 'moved') {
    const from = then?.parent === undefined ? undefined : before.get(then.parent);
    const to = now?.parent === undefined ? undefined : after.get(now.parent);
    return {
      type: 'page_moved',
      page: changedPage(now as PageInfo),
      parent: { ...(from ? { before: changedPage(from) } : {}), ...(to ? { after: changedPage(to) } : {}) },
    };
  }
  const attributes: Record<string, { before?: string; after?: string }> = {};
  const fields = change.fields ?? [];
  const pick = (name: 'title' | 'slug' | 'description' | 'emoji') => {
    const a = then?.page[name];
    const b = now?.page[name];
    attributes[name] = { ...(a !== undefined ? { before: String(a) } : {}), ...(b !== undefined ? { after: String(b) } : {}) };
  };
  for (const name of ['title', 'slug', 'description', 'emoji'] as const) if (fields.includes(name)) pick(name);
  if (fields.includes('markdown') || Object.keys(attributes).length === 0) attributes.document = {};
  return { type: 'page_edited', page: changedPage(now as PageInfo), attributes };
}

function changesOf(ctx: Ctx, space: SpaceRecord, cr: ChangeRequestRecord, limit: number) {
  // A merged change request: what its merge changed (its revision against the one it merged into).
  const base = cr.status === 'merged' && cr.revisionMerged !== undefined
    ? requireRevisionRecord(ctx.tx, space.id, (requireRevisionRecord(ctx.tx, space.id, cr.revisionMerged).parents ?? [])[0] ?? space.revision)
    : primaryRevision(ctx.tx, space);
  return semanticChanges(loadTree(ctx.tx, base), loadTree(ctx.tx, requireRevisionRecord(ctx.tx, space.id, cr.revision)), limit);
}

/** What `to` changes against `from`, the first `limit` changes as API `RevisionSemanticChange`s and how many more. */
function semanticChanges(from: ContentTree, to: ContentTree, limit: number) {
  const changes = diffTrees(from, to);
  const before = indexPages(from);
  const after = indexPages(to);
  const shown = changes.slice(0, limit).map((change) => semanticChange(change, before, after, from.files, to.files));
  return { changes: shown, ...(changes.length > limit ? { more: changes.length - limit } : {}) };
}

const EMPTY_TREE: ContentTree = { pages: [], files: [] };

// ─── Handlers ──────────────────────────────────────────────────────────────

export const reviewHandlers = {
  ...on('getChangeRequestChanges', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    return changesOf(ctx, space, cr, query.limit ?? 10);
  }),

  ...on('getContributorsByChangeRequestId', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const thread = threadOf(space.id, cr.id);
    const editors = cr.contributors.map((user) => ({ updatedAt: cr.updatedAt, count: 1, user: userRef(ctx.tx, ctx.origin, user), actionType: 'edit' as const }));
    const commenters = ctx.tx
      .scan<CommenterRecord>(ReviewTables.commenters, { prefix: `${thread}/` })
      .map(([key, value]) => ({ updatedAt: value.updatedAt, count: value.count, user: userRef(ctx.tx, ctx.origin, key.slice(thread.length + 1)), actionType: 'comment' as const }));
    return paginate(itemsOf([...editors, ...commenters]), query, (item) => item);
  }),

  ...on('getReviewsByChangeRequestId', (ctx, { params, query }) => {
    const { space, role, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const thread = threadOf(space.id, cr.id);
    const latest = currentReviews(ctx.tx, thread);
    return paginate(rowsOf<ReviewRecord>(ctx.tx, ReviewTables.reviews, `${thread}/`, { shared: true }), query, (review) => {
      const outdated = latest.get(review.reviewer)?.id !== review.id;
      if (query.outdated === false && outdated) return undefined;
      return reviewView(ctx, space, role, cr, review, query.format);
    });
  }),

  ...on('submitChangeRequestReview', (ctx, { params, body }) => {
    const { space, role, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    if (cr.status === 'merged' || cr.status === 'archived') throw conflict(`Change request #${cr.number} is ${cr.status}: it can no longer be reviewed`);
    const thread = threadOf(space.id, cr.id);
    const requested = ctx.tx.get<RequestedReviewerRecord>(ReviewTables.reviewers, `${thread}/${ctx.actor.userId}`);
    const id = ctx.ids();
    let comment: string | undefined;
    if (body.comment !== undefined && !('markdown' in body.comment && body.comment.markdown.trim() === '') && Object.keys(body.comment).length > 0) {
      comment = postReviewComment(ctx, space.id, cr.id, body.comment, id).comment.id;
    }
    const review = addReview(ctx.tx, thread, {
      id,
      reviewer: ctx.actor.userId,
      status: body.status,
      revision: cr.revision,
      createdAt: ctx.clock().toISOString(),
      ...(comment !== undefined ? { comment } : {}),
      ...(requested ? { requestedBy: requested.requestedBy } : {}),
    });
    const current = getChangeRequest(ctx.tx, space.id, cr.id) as ChangeRequestRecord;
    const view = reviewView(ctx, space, role, current, review);
    return new Reply(201, view, { Location: `${crLocation(ctx.origin, cr)}/reviews/${seg(review.id)}` });
  }),

  ...on('getRequestedReviewersByChangeRequestId', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const thread = threadOf(space.id, cr.id);
    const count = countRows(ctx.tx, ReviewTables.reviewers, `${thread}/`);
    return paginate(rowsOf<RequestedReviewerRecord>(ctx.tx, ReviewTables.reviewers, `${thread}/`, { shared: true }), query, (record) => requestedView(ctx, record), count);
  }),

  ...on('requestReviewersForChangeRequest', (ctx, { params, body }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    if (cr.status === 'merged' || cr.status === 'archived') throw conflict(`Change request #${cr.number} is ${cr.status}: reviews can no longer be requested`);
    const thread = threadOf(space.id, cr.id);
    const now = ctx.clock().toISOString();
    const users = [...new Set(body.users)];
    for (const user of users) {
      if (roleIn(ctx.tx, space.organization, user) === undefined) {
        throw badRequest(`Invalid users: ${user} is not a member of organization ${space.organization}`);
      }
    }
    const records = users.map((user) => {
      const record: RequestedReviewerRecord = { user, requestedBy: ctx.actor.userId, createdAt: now, revision: cr.revision };
      ctx.tx.put(ReviewTables.reviewers, `${thread}/${user}`, record);
      return record;
    });
    if (body.subject !== undefined || body.description !== undefined) {
      putChangeRequest(ctx.tx, {
        ...cr,
        ...(body.subject !== undefined ? { subject: body.subject } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        updatedAt: now,
      });
    }
    return { users: records.map((record) => requestedView(ctx, record)) };
  }),

  ...on('removeRequestedReviewerFromChangeRequest', (ctx, { params }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const key = `${threadOf(space.id, cr.id)}/${params.userId}`;
    if (!ctx.tx.has(ReviewTables.reviewers, key)) return nothingToDelete();
    ctx.tx.delete(ReviewTables.reviewers, key);
    return deleted();
  }),

  ...on('getRevisionSemanticChanges', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    const revision = revisionById(ctx.tx, space, params.revisionId);
    // Against its first parent (the space's content before it); the first revision of a space, against nothing.
    const parent = revision.parents[0];
    const from = parent === undefined ? EMPTY_TREE : loadTree(ctx.tx, requireRevisionRecord(ctx.tx, space.id, parent));
    const answer = semanticChanges(from, loadTree(ctx.tx, revision), query.limit ?? 10);
    const merged = revision.mergedFrom === undefined ? undefined : getChangeRequest(ctx.tx, space.id, revision.mergedFrom);
    return merged ? { mergedFrom: crView(ctx.tx, ctx, space, merged), ...answer } : answer;
  }),

  ...on('getChangeRequestReviewById', (ctx, { params, query }) => {
    const { space, role, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const review = reviewById(ctx.tx, threadOf(space.id, cr.id), params.reviewId);
    if (!review) throw notFound(`Review ${params.reviewId} not found in change request #${cr.number}: list its reviews with "docsctl cr review ${space.id} ${cr.number}"`);
    return reviewView(ctx, space, role, cr, review, query.format);
  }),

  ...on('listCommentersInChangeRequest', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    return commenters(ctx, space, ReviewTables.commenters, `${threadOf(space.id, cr.id)}/`, query);
  }),

  ...on('listCommentersInSpace', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return commenters(ctx, space, ReviewTables.spaceCommenters, `${space.id}/`, query);
  }),
};

/** The members of the space's organization among the commenters under `prefix` (one row each; those who left are skipped), in user id order. */
function commenters(ctx: HandlerContext, space: SpaceRecord, table: string, prefix: string, query: PageQuery) {
  return paginate(rowsOf<CommenterRecord>(ctx.tx, table, prefix), query, (_row, userId) => {
    const member = getMember(ctx.tx, space.organization, userId);
    return member ? memberView(ctx, space.organization, userId, member) : undefined;
  });
}
