/**
 * Reviews and requested reviewers of change requests, one row per item.
 *
 * | table              | key                          | value                                  |
 * |--------------------|------------------------------|----------------------------------------|
 * | crReviews          | `${thread}/${seqKey}`        | ReviewRecord (newest first)            |
 * | crReviews.latest   | `${thread}/${userId}`        | the reviewer's current review (Latest) |
 * | crReviews.seq      | thread                       | last sequence number                   |
 * | crReviews.byId     | `${thread}/${reviewId}`      | the review's sequence number           |
 * | crReviewers        | `${thread}/${userId}`        | RequestedReviewerRecord                |
 * | crCommenters       | `${thread}/${userId}`        | `{count, updatedAt}` (comments posted) |
 * | spaceCommenters    | `${spaceId}/${userId}`       | the same, for the space and its CRs    |
 *
 * `thread` is the change request's comment thread key (comments/comment-records.ts), so
 * everything about one change request shares a prefix.
 */
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { seqKey } from '../comments/comment-records.js';

export const ReviewTables = {
  reviews: 'crReviews',
  latest: 'crReviews.latest',
  seq: 'crReviews.seq',
  reviewers: 'crReviewers',
  commenters: 'crCommenters',
  /** Commenters of a space, its change requests included: `<space>/<user>` → CommenterRecord. */
  spaceCommenters: 'spaceCommenters',
  /** A review's sequence number by its id: `<thread>/<review id>` → seq (getChangeRequestReviewById). */
  byId: 'crReviews.byId',
} as const;

export type ReviewStatus = 'approved' | 'changes-requested';

export interface ReviewRecord {
  id: string;
  seq: number;
  reviewer: string;
  status: ReviewStatus;
  /** The change request's revision the review was made against. */
  revision: string;
  createdAt: string;
  /** The review's comment (in the change request's thread). */
  comment?: string;
  /** Who had asked this reviewer, when they had been asked. */
  requestedBy?: string;
}

/** A reviewer's current review: the last one they submitted. */
export interface LatestReview {
  id: string;
  status: ReviewStatus;
  createdAt: string;
}

export interface RequestedReviewerRecord {
  user: string;
  requestedBy: string;
  createdAt: string;
  revision: string;
}

export interface CommenterRecord {
  count: number;
  updatedAt: string;
}

export function addReview(tx: StoreWriter, thread: string, review: Omit<ReviewRecord, 'seq'>): ReviewRecord {
  const seq = (tx.get<number>(ReviewTables.seq, thread) ?? 0) + 1;
  tx.put(ReviewTables.seq, thread, seq);
  const record = { ...review, seq };
  tx.put(ReviewTables.reviews, `${thread}/${seqKey(seq)}`, record);
  tx.put(ReviewTables.byId, `${thread}/${review.id}`, seq);
  tx.put(ReviewTables.latest, `${thread}/${review.reviewer}`, { id: review.id, status: review.status, createdAt: review.createdAt } satisfies LatestReview);
  return record;
}

/**
 * A review by its id. Reviews submitted before the id index existed are found by reading the
 * change request's reviews (one change request's, never a growing list of the store's).
 */
export function reviewById(tx: StoreReader, thread: string, id: string): ReviewRecord | undefined {
  const seq = tx.get<number>(ReviewTables.byId, `${thread}/${id}`);
  if (seq !== undefined) return tx.get<ReviewRecord>(ReviewTables.reviews, `${thread}/${seqKey(seq)}`);
  return tx.scan<ReviewRecord>(ReviewTables.reviews, { prefix: `${thread}/` }).find(([, review]) => review.id === id)?.[1];
}

/** Each reviewer's current review (the last one they submitted). */
export function currentReviews(tx: StoreReader, thread: string): Map<string, LatestReview> {
  return new Map(tx.scan<LatestReview>(ReviewTables.latest, { prefix: `${thread}/` }).map(([key, latest]) => [key.slice(thread.length + 1), latest]));
}

export function requestedReviewers(tx: StoreReader, thread: string): RequestedReviewerRecord[] {
  return tx.scan<RequestedReviewerRecord>(ReviewTables.reviewers, { prefix: `${thread}/` }).map(([, value]) => value);
}

/**
 * Counts a comment or reply by `user`: in its space (`listCommentersInSpace`) and, when it is in a
 * change request (`crThread`), in that change request (contributors, `listCommentersInChangeRequest`).
 * One row per commenter and place, so a list of commenters never reads the comments.
 */
export function countCommenter(tx: StoreWriter, spaceId: string, crThread: string | undefined, user: string, now: string): void {
  const keys: Array<[string, string]> = [[ReviewTables.spaceCommenters, `${spaceId}/${user}`]];
  if (crThread !== undefined) keys.push([ReviewTables.commenters, `${crThread}/${user}`]);
  for (const [table, key] of keys) {
    const current = tx.get<CommenterRecord>(table, key);
    tx.put(table, key, { count: (current?.count ?? 0) + 1, updatedAt: now });
  }
}
