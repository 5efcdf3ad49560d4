/**
 * The review flow of change requests (real API, gaps.md §2.2): requested
 * reviewers, reviews, contributors and the semantic changes of a change request.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { DocumentBody, DocumentFormat, JSONDocument, paginationQuery, pathParams, qBool } from '../schemas/common.js';

const base = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}';
const cr = ['spaceId', 'changeRequestId'] as const;

export const ReviewStatus = z.enum(['approved', 'changes-requested']);

/** `limit` of the two semantic-change lists (cr changes, space changes): default 10, applied by the handler. */
const changesLimitFlag = { flag: '--limit <n>', description: 'at most this many changes (default 10)' };

export const getChangeRequestChanges = defineRoute({
  id: 'getChangeRequestChanges',
  method: 'GET',
  path: `${base}/changes`,
  summary: 'List the changes of a change request (pages and files added, edited, moved, deleted)',
  source: 'real-api',
  access: 'read',
  params: pathParams(...cr),
  query: z.object({ limit: paginationQuery.limit }),
  cli: {
    command: 'cr changes',
    summary: 'List what a change request changes: pages and files added, edited, moved, removed',
    flags: { limit: changesLimitFlag },
    columns: 'review',
    examples: ['docsctl cr changes sp4c3 12', 'docsctl cr changes sp4c3 12 --limit 100 --json | jq ".changes[].type"'],
  },
});

export const getContributorsByChangeRequestId = defineRoute({
  id: 'getContributorsByChangeRequestId',
  method: 'GET',
  path: `${base}/contributors`,
  summary: 'List the users who edited or commented on a change request',
  source: 'real-api',
  access: 'read',
  params: pathParams(...cr),
  query: z.object({ ...paginationQuery }),
  paginated: true,
});

export const getReviewsByChangeRequestId = defineRoute({
  id: 'getReviewsByChangeRequestId',
  method: 'GET',
  path: `${base}/reviews`,
  summary: 'List the reviews of a change request, newest first',
  source: 'real-api',
  access: 'read',
  params: pathParams(...cr),
  query: z.object({ ...paginationQuery, format: DocumentFormat.optional(), outdated: qBool().optional() }),
  paginated: true,
});

export const submitChangeRequestReview = defineRoute({
  id: 'submitChangeRequestReview',
  method: 'POST',
  path: `${base}/reviews`,
  summary: 'Approve a change request or request changes, with an optional comment',
  source: 'real-api',
  access: 'review',
  params: pathParams(...cr),
  query: z.object({}),
  body: z.object({ status: ReviewStatus, comment: z.union([DocumentBody, z.object({}).strict()]).optional() }),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'cr review',
    summary: 'Approve a change request or request changes (with --text as a comment); without a flag, list its reviews',
    // The flags are the hook's: with --approve or --request-changes it submits a review, without them it lists the reviews.
    onlyNamedFlags: true,
    rawBody: false,
    columns: 'review',
    examples: [
      'docsctl cr review sp4c3 12 --approve',
      'docsctl cr review sp4c3 12 --request-changes --text "Please add an example"',
      'docsctl cr review sp4c3 12 --format tsv',
    ],
  },
});

export const getRequestedReviewersByChangeRequestId = defineRoute({
  id: 'getRequestedReviewersByChangeRequestId',
  method: 'GET',
  path: `${base}/requested-reviewers`,
  summary: 'List the users asked to review a change request',
  source: 'real-api',
  access: 'read',
  params: pathParams(...cr),
  query: z.object({ ...paginationQuery }),
  paginated: true,
  cli: {
    command: 'cr reviewers',
    summary: 'Ask users to review a change request (--add), withdraw the request (--remove), and list the requested reviewers',
    columns: 'requestedReviewer',
    noun: 'requested reviewer',
    examples: [
      'docsctl cr reviewers sp4c3 12 --add u53r1 u53r2',
      'docsctl cr reviewers sp4c3 12 --remove u53r2',
      'docsctl cr reviewers sp4c3 12',
    ],
  },
});

export const requestReviewersForChangeRequest = defineRoute({
  id: 'requestReviewersForChangeRequest',
  method: 'POST',
  path: `${base}/requested-reviewers`,
  summary: 'Ask users to review a change request',
  source: 'real-api',
  access: 'edit',
  params: pathParams(...cr),
  query: z.object({}),
  body: z.object({
    users: z.array(z.string().min(1)).min(1).max(100),
    subject: z.string().max(100).optional(),
    description: JSONDocument.optional(),
  }),
  bodyRequired: true,
});

export const removeRequestedReviewerFromChangeRequest = defineRoute({
  id: 'removeRequestedReviewerFromChangeRequest',
  method: 'DELETE',
  path: `${base}/requested-reviewers/{userId}`,
  summary: 'Withdraw the review request of a user',
  source: 'real-api',
  access: 'edit',
  params: pathParams(...cr, 'userId'),
  query: z.object({}),
});

export const getChangeRequestReviewById = defineRoute({
  id: 'getChangeRequestReviewById',
  method: 'GET',
  path: `${base}/reviews/{reviewId}`,
  summary: 'Get a review of a change request by its id',
  source: 'real-api',
  access: 'read',
  params: pathParams(...cr, 'reviewId'),
  query: z.object({ format: DocumentFormat.optional() }),
  cli: {
    command: 'cr review-show',
    summary: "Show one review of a change request (its id is in `cr review`'s list and in the answer to a submitted review)",
    flags: { format: false },
    columns: 'review',
    examples: ['docsctl cr review-show sp4c3 12 r3v13w', 'docsctl cr review-show sp4c3 12 r3v13w --json status,outdated'],
  },
});

export const listCommentersInChangeRequest = defineRoute({
  id: 'listCommentersInChangeRequest',
  method: 'GET',
  path: `${base}/commenters`,
  summary: 'List the members who commented in a change request',
  source: 'real-api',
  access: 'read',
  params: pathParams(...cr),
  query: z.object({ ...paginationQuery }),
  paginated: true,
  cli: {
    command: 'comment commenters',
    summary: 'List the members who commented in a space (or, with --cr, in a change request)',
    flags: {
      'params.changeRequestId': { flag: '--cr <changeRequest>', description: 'the commenters of this change request (id or number) instead of the space' },
    },
    columns: 'member',
    noun: 'commenter',
    examples: ['docsctl comment commenters sp4c3', 'docsctl comment commenters sp4c3 --cr 12 --json id,role'],
  },
});

export const listCommentersInSpace = defineRoute({
  id: 'listCommentersInSpace',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/commenters',
  summary: 'List the members who commented in a space (in its change requests too)',
  source: 'real-api',
  access: 'read',
  params: pathParams('spaceId'),
  query: z.object({ ...paginationQuery }),
  paginated: true,
});

export const getRevisionSemanticChanges = defineRoute({
  id: 'getRevisionSemanticChanges',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}/changes',
  summary: 'List what a revision changed against the revision before it (and the change request a merge came from)',
  source: 'real-api',
  access: 'read',
  params: pathParams('spaceId', 'revisionId'),
  /** `metadata` and `computed` change nothing in a change list. */
  query: z.object({ limit: paginationQuery.limit, metadata: qBool().optional(), computed: qBool().optional() }),
  cli: {
    command: 'space changes',
    summary: 'List what a revision of a space changed against the one before it: pages and files added, edited, moved, removed (a merge names its change request)',
    flags: { limit: changesLimitFlag, metadata: false, computed: false },
    columns: 'review',
    examples: ['docsctl space changes sp4c3 "$(docsctl space get sp4c3 --json revision --query revision)"', 'docsctl space changes sp4c3 r3v1s10n --limit 100 --json'],
  },
});
