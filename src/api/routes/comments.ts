/**
 * API doc §4.10 Change request comments and §4.11 Space comments, plus the real
 * API's `deleteCommentReplyInChangeRequest` (gaps.md §1.2).
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import {
  CommentStatusFilter,
  DocumentBody,
  DocumentFormat,
  ListOrder,
  noQuery,
  paginationQuery,
  pathParams,
  qArray,
} from '../schemas/common.js';

// ─── Helper schemas ────────────────────────────────────────────────────────

/** Comment/reply body: `{markdown}`, `{document}`, or (real API `Document`) the empty document `{}`. */
const CommentBody = z.union([DocumentBody, z.object({}).strict()]);

/** Query of comment lists. */
const commentListQuery = () =>
  z.object({
    ...paginationQuery,
    /** Default `desc` (applied by the handler). */
    order: ListOrder.optional(),
    format: DocumentFormat.optional(),
    /** Default `all` (applied by the handler). */
    status: CommentStatusFilter.optional(),
    targetPage: z.string().optional(),
    /** Real API: only comments by these user ids. */
    authors: qArray(z.string().min(1)).optional(),
  });

const formatQuery = () => z.object({ format: DocumentFormat.optional() });
const replyListQuery = () => z.object({ ...paginationQuery, format: DocumentFormat.optional() });

const PostComment = z.object({
  node: z.string().min(1).optional(),
  page: z.string().min(1).optional(),
  body: CommentBody,
  /** Real API: a cell of a table block. */
  tableCell: z.object({ record: z.string().min(1), definition: z.string().min(1) }).optional(),
});
const UpdateComment = z.object({
  resolved: z.boolean().optional(),
  body: CommentBody.optional(),
  addedReactions: z.array(z.string().min(1)).optional(),
  removedReactions: z.array(z.string().min(1)).optional(),
});
/** Space replies cannot be resolved (no `resolved`). */
const UpdateCommentReply = UpdateComment.omit({ resolved: true });
const PostCommentReply = z.object({ body: CommentBody });

const crBase = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments';
const cr = ['spaceId', 'changeRequestId'] as const;
const spaceBase = '/v1/spaces/{spaceId}/comments';

// ─── §4.10 Change request comments ─────────────────────────────────────────

export const listCommentsInChangeRequest = defineRoute({
  id: 'listCommentsInChangeRequest',
  method: 'GET',
  path: crBase,
  summary: 'List the comments of a change request',
  source: 'doc 4.10',
  access: 'read',
  params: pathParams(...cr),
  query: commentListQuery(),
  paginated: true,
});

export const postCommentInChangeRequest = defineRoute({
  id: 'postCommentInChangeRequest',
  method: 'POST',
  path: crBase,
  summary: 'Post a comment in a change request',
  source: 'doc 4.10',
  access: 'comment',
  params: pathParams(...cr),
  query: noQuery(),
  body: PostComment,
  bodyRequired: true,
});

export const getCommentInChangeRequest = defineRoute({
  id: 'getCommentInChangeRequest',
  method: 'GET',
  path: `${crBase}/{commentId}`,
  summary: 'Get a comment of a change request',
  source: 'doc 4.10',
  access: 'read',
  params: pathParams(...cr, 'commentId'),
  query: formatQuery(),
});

export const updateCommentInChangeRequest = defineRoute({
  id: 'updateCommentInChangeRequest',
  method: 'PUT',
  path: `${crBase}/{commentId}`,
  summary: 'Update, resolve or react to a comment of a change request',
  source: 'doc 4.10',
  access: 'comment',
  params: pathParams(...cr, 'commentId'),
  query: noQuery(),
  body: UpdateComment,
  bodyRequired: true,
});

export const deleteCommentInChangeRequest = defineRoute({
  id: 'deleteCommentInChangeRequest',
  method: 'DELETE',
  path: `${crBase}/{commentId}`,
  summary: 'Delete a comment of a change request',
  source: 'doc 4.10',
  access: 'comment',
  params: pathParams(...cr, 'commentId'),
  query: noQuery(),
});

export const listCommentRepliesInChangeRequest = defineRoute({
  id: 'listCommentRepliesInChangeRequest',
  method: 'GET',
  path: `${crBase}/{commentId}/replies`,
  summary: 'List the replies to a comment of a change request',
  source: 'doc 4.10',
  access: 'read',
  params: pathParams(...cr, 'commentId'),
  query: replyListQuery(),
  paginated: true,
});

export const postCommentReplyInChangeRequest = defineRoute({
  id: 'postCommentReplyInChangeRequest',
  method: 'POST',
  path: `${crBase}/{commentId}/replies`,
  summary: 'Reply to a comment of a change request',
  source: 'doc 4.10',
  access: 'comment',
  params: pathParams(...cr, 'commentId'),
  query: formatQuery(),
  body: PostCommentReply,
  bodyRequired: true,
});

export const getCommentReplyInChangeRequest = defineRoute({
  id: 'getCommentReplyInChangeRequest',
  method: 'GET',
  path: `${crBase}/{commentId}/replies/{commentReplyId}`,
  summary: 'Get a reply to a comment of a change request',
  source: 'doc 4.10',
  access: 'read',
  params: pathParams(...cr, 'commentId', 'commentReplyId'),
  query: formatQuery(),
});

export const updateCommentReplyInChangeRequest = defineRoute({
  id: 'updateCommentReplyInChangeRequest',
  method: 'PUT',
  path: `${crBase}/{commentId}/replies/{commentReplyId}`,
  summary: 'Update or react to a reply in a change request',
  source: 'doc 4.10',
  access: 'comment',
  params: pathParams(...cr, 'commentId', 'commentReplyId'),
  query: noQuery(),
  body: UpdateComment,
  bodyRequired: true,
});

export const deleteCommentReplyInChangeRequest = defineRoute({
  id: 'deleteCommentReplyInChangeRequest',
  method: 'DELETE',
  path: `${crBase}/{commentId}/replies/{commentReplyId}`,
  summary: 'Delete a reply to a comment of a change request',
  source: 'real-api',
  access: 'comment',
  params: pathParams(...cr, 'commentId', 'commentReplyId'),
  query: noQuery(),
});

// ─── §4.11 Space comments ──────────────────────────────────────────────────

export const listCommentsInSpace = defineRoute({
  id: 'listCommentsInSpace',
  method: 'GET',
  path: spaceBase,
  summary: 'List the comments of a space',
  source: 'doc 4.11',
  access: 'read',
  params: pathParams('spaceId'),
  query: commentListQuery(),
  paginated: true,
});

export const postCommentInSpace = defineRoute({
  id: 'postCommentInSpace',
  method: 'POST',
  path: spaceBase,
  summary: 'Post a comment in a space',
  source: 'doc 4.11',
  access: 'comment',
  params: pathParams('spaceId'),
  query: noQuery(),
  body: PostComment,
  bodyRequired: true,
});

export const getCommentInSpace = defineRoute({
  id: 'getCommentInSpace',
  method: 'GET',
  path: `${spaceBase}/{commentId}`,
  summary: 'Get a comment of a space',
  source: 'doc 4.11',
  access: 'read',
  params: pathParams('spaceId', 'commentId'),
  query: formatQuery(),
});

export const updateCommentInSpace = defineRoute({
  id: 'updateCommentInSpace',
  method: 'PUT',
  path: `${spaceBase}/{commentId}`,
  summary: 'Update, resolve or react to a comment of a space',
  source: 'doc 4.11',
  access: 'comment',
  params: pathParams('spaceId', 'commentId'),
  query: noQuery(),
  body: UpdateComment,
  bodyRequired: true,
});

export const deleteCommentInSpace = defineRoute({
  id: 'deleteCommentInSpace',
  method: 'DELETE',
  path: `${spaceBase}/{commentId}`,
  summary: 'Delete a comment of a space',
  source: 'doc 4.11',
  access: 'comment',
  params: pathParams('spaceId', 'commentId'),
  query: noQuery(),
});

export const listCommentRepliesInSpace = defineRoute({
  id: 'listCommentRepliesInSpace',
  method: 'GET',
  path: `${spaceBase}/{commentId}/replies`,
  summary: 'List the replies to a comment of a space',
  source: 'doc 4.11',
  access: 'read',
  params: pathParams('spaceId', 'commentId'),
  query: replyListQuery(),
  paginated: true,
});

export const postCommentReplyInSpace = defineRoute({
  id: 'postCommentReplyInSpace',
  method: 'POST',
  path: `${spaceBase}/{commentId}/replies`,
  summary: 'Reply to a comment of a space',
  source: 'doc 4.11',
  access: 'comment',
  params: pathParams('spaceId', 'commentId'),
  query: noQuery(),
  body: PostCommentReply,
  bodyRequired: true,
});

export const getCommentReplyInSpace = defineRoute({
  id: 'getCommentReplyInSpace',
  method: 'GET',
  path: `${spaceBase}/{commentId}/replies/{commentReplyId}`,
  summary: 'Get a reply to a comment of a space',
  source: 'doc 4.11',
  access: 'read',
  params: pathParams('spaceId', 'commentId', 'commentReplyId'),
  query: formatQuery(),
});

export const updateCommentReplyInSpace = defineRoute({
  id: 'updateCommentReplyInSpace',
  method: 'PUT',
  path: `${spaceBase}/{commentId}/replies/{commentReplyId}`,
  summary: 'Update or react to a reply in a space',
  source: 'doc 4.11',
  access: 'comment',
  params: pathParams('spaceId', 'commentId', 'commentReplyId'),
  query: noQuery(),
  body: UpdateCommentReply,
  bodyRequired: true,
});

export const deleteCommentReplyInSpace = defineRoute({
  id: 'deleteCommentReplyInSpace',
  method: 'DELETE',
  path: `${spaceBase}/{commentId}/replies/{commentReplyId}`,
  summary: 'Delete a reply to a comment of a space',
  source: 'doc 4.11',
  access: 'comment',
  params: pathParams('spaceId', 'commentId', 'commentReplyId'),
  query: noQuery(),
});
