/**
 * How comments and replies are stored: one row per item, so that posting, listing
 * a page, resolving or reacting costs the same on a thread of 10 or 10,000 comments
 * (../shared/notes/hardening.md §1: every list grows).
 *
 * A thread is the set of comments of a space's primary content or of one change
 * request (`threadOf`). Each comment gets the next sequence number of its thread;
 * its rows are keyed by the *inverted* number (`seqKey`), so a forward scan gives
 * the newest first (the API's default order) and a reverse scan the oldest first.
 *
 * | table                 | key                            | value                                |
 * |-----------------------|--------------------------------|--------------------------------------|
 * | comments              | `${thread}/${seqKey}`          | CommentRecord                        |
 * | comments.id           | `${spaceId}/${commentId}`      | `{thread, key}`                      |
 * | comments.open         | `${thread}/${seqKey}`          | commentId (index of open comments)   |
 * | comments.resolved     | `${thread}/${seqKey}`          | commentId                            |
 * | comments.page         | `${thread}~${pageId}/${seqKey}`| commentId (comments on one page)     |
 * | comments.n            | thread (and `${thread}~open`)  | counts                               |
 * | comments.seq          | thread                         | last sequence number                 |
 * | commentReplies        | `${commentId}/${seqKey}`       | ReplyRecord                          |
 * | commentReplies.id     | replyId                        | `{comment, key}`                     |
 * | commentReplies.seq    | commentId                      | last sequence number                 |
 *
 * The change request's `comments` counter and the space's `counters.comments` (open
 * comments) live on their records and are kept here in the same transaction.
 */
import type { StoreReader, StoreWriter } from '../../store/types.js';

export const CommentTables = {
  comments: 'comments',
  byId: 'comments.id',
  open: 'comments.open',
  resolved: 'comments.resolved',
  byPage: 'comments.page',
  counts: 'comments.n',
  seq: 'comments.seq',
  replies: 'commentReplies',
  replyById: 'commentReplies.id',
  replySeq: 'commentReplies.seq',
} as const;

/** A comment or reply body as posted: `{markdown}`, `{document}` or the empty document `{}`. */
export type StoredBody = { markdown: string } | { document: unknown } | Record<string, never>;

export interface ReactionRecord {
  emoji: string;
  users: Array<{ user: string; reactedAt: string }>;
}

/** The page a comment is anchored to, as it was when the comment was posted (shown once the page is gone). */
export interface PageAnchor {
  id: string;
  title: string;
  path: string;
  emoji?: string;
  icon?: string;
}

export interface CommentRecord {
  id: string;
  space: string;
  /** Set for a comment in a change request. */
  changeRequest?: string;
  seq: number;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  body: StoredBody;
  /** The revision the comment was posted against. */
  revision: string;
  node?: string;
  page?: PageAnchor;
  tableCell?: { record: string; definition: string };
  /** Set for the comment a review carries. */
  review?: string;
  status: 'open' | 'resolved';
  resolvedAt?: string;
  resolvedBy?: string;
  reactions: ReactionRecord[];
  replies: number;
  /**
   * Who replied (0.202 `Comment.repliers`): one entry per user with their count of
   * replies and when they last replied, most recent first. Kept up to date by posting and
   * deleting replies; absent on comments written before (views count the reply rows).
   */
  repliers?: ReplierRecord[];
}

export interface ReplierRecord {
  user: string;
  count: number;
  updatedAt: string;
}

/** The repliers of a comment: as stored, or for a comment written before they were kept, counted from its reply rows (newest first). */
export function storedRepliers(tx: StoreReader, comment: CommentRecord): ReplierRecord[] {
  if (comment.repliers) return comment.repliers;
  const repliers: ReplierRecord[] = [];
  if (comment.replies === 0) return repliers;
  const byUser = new Map<string, ReplierRecord>();
  for (const [, reply] of tx.scan<ReplyRecord>(CommentTables.replies, { prefix: `${comment.id}/` })) {
    const entry = byUser.get(reply.postedBy);
    if (entry) entry.count += 1;
    else {
      const fresh = { user: reply.postedBy, count: 1, updatedAt: reply.postedAt };
      byUser.set(reply.postedBy, fresh);
      repliers.push(fresh);
    }
  }
  return repliers;
}

/** `repliers` after `user` replied at `at` (+1) or one of their replies went (-1). */
export function withReplier(repliers: readonly ReplierRecord[], user: string, delta: 1 | -1, at?: string): ReplierRecord[] {
  const current = repliers.find((entry) => entry.user === user);
  const others = repliers.filter((entry) => entry.user !== user);
  if (delta === 1) return [{ user, count: (current?.count ?? 0) + 1, updatedAt: at ?? current?.updatedAt ?? '' }, ...others];
  if (!current || current.count <= 1) return others;
  return repliers.map((entry) => (entry.user === user ? { ...entry, count: entry.count - 1 } : entry));
}

export interface ReplyRecord {
  id: string;
  comment: string;
  seq: number;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  body: StoredBody;
  reactions: ReactionRecord[];
}

/** The thread of a space's primary content or of one of its change requests (ids never contain `~` or `/`). */
export const threadOf = (spaceId: string, changeRequestId?: string) =>
  changeRequestId === undefined ? `s~${spaceId}` : `c~${spaceId}~${changeRequestId}`;

const SEQ_SPAN = 1e12;
/** Inverted, fixed-width sequence number: later items sort first. */
export const seqKey = (seq: number) => String(SEQ_SPAN - seq).padStart(12, '0');

const pagePrefix = (thread: string, pageId: string) => `${thread}~${pageId}/`;

interface CommentPointer {
  thread: string;
  key: string;
}

export function findComment(tx: StoreReader, spaceId: string, commentId: string): CommentRecord | undefined {
  const pointer = tx.get<CommentPointer>(CommentTables.byId, `${spaceId}/${commentId}`);
  return pointer ? tx.get<CommentRecord>(CommentTables.comments, `${pointer.thread}/${pointer.key}`) : undefined;
}

export function threadCount(tx: StoreReader, thread: string, which: 'all' | 'open' = 'all'): number {
  return tx.get<number>(CommentTables.counts, which === 'all' ? thread : `${thread}~open`) ?? 0;
}

function setCount(tx: StoreWriter, key: string, value: number): void {
  if (value > 0) tx.put(CommentTables.counts, key, value);
  else tx.delete(CommentTables.counts, key);
}

/** The next sequence number of a thread (or of a comment's replies). */
function nextSeq(tx: StoreWriter, table: string, owner: string): number {
  const seq = (tx.get<number>(table, owner) ?? 0) + 1;
  tx.put(table, owner, seq);
  return seq;
}

export function newCommentSeq(tx: StoreWriter, thread: string): number {
  return nextSeq(tx, CommentTables.seq, thread);
}

/** Writes a new comment and its index rows. */
export function insertComment(tx: StoreWriter, thread: string, comment: CommentRecord): void {
  const key = seqKey(comment.seq);
  tx.put(CommentTables.comments, `${thread}/${key}`, comment);
  tx.put(CommentTables.byId, `${comment.space}/${comment.id}`, { thread, key } satisfies CommentPointer);
  tx.put(comment.status === 'open' ? CommentTables.open : CommentTables.resolved, `${thread}/${key}`, comment.id);
  if (comment.page) tx.put(CommentTables.byPage, `${pagePrefix(thread, comment.page.id)}${key}`, comment.id);
  setCount(tx, thread, threadCount(tx, thread) + 1);
  if (comment.status === 'open') setCount(tx, `${thread}~open`, threadCount(tx, thread, 'open') + 1);
}

/** Rewrites a comment (same id and sequence), moving it between the open and resolved indexes when its status changed. */
export function replaceComment(tx: StoreWriter, thread: string, before: CommentRecord, after: CommentRecord): void {
  const key = seqKey(after.seq);
  tx.put(CommentTables.comments, `${thread}/${key}`, after);
  if (before.status !== after.status) {
    tx.delete(before.status === 'open' ? CommentTables.open : CommentTables.resolved, `${thread}/${key}`);
    tx.put(after.status === 'open' ? CommentTables.open : CommentTables.resolved, `${thread}/${key}`, after.id);
    setCount(tx, `${thread}~open`, threadCount(tx, thread, 'open') + (after.status === 'open' ? 1 : -1));
  }
}

/** Deletes a comment, its index rows and its replies (one row each: the replies go with it). */
export function removeComment(tx: StoreWriter, thread: string, comment: CommentRecord): void {
  const key = seqKey(comment.seq);
  tx.delete(CommentTables.comments, `${thread}/${key}`);
  tx.delete(CommentTables.byId, `${comment.space}/${comment.id}`);
  tx.delete(comment.status === 'open' ? CommentTables.open : CommentTables.resolved, `${thread}/${key}`);
  if (comment.page) tx.delete(CommentTables.byPage, `${pagePrefix(thread, comment.page.id)}${key}`);
  setCount(tx, thread, threadCount(tx, thread) - 1);
  if (comment.status === 'open') setCount(tx, `${thread}~open`, threadCount(tx, thread, 'open') - 1);
  for (const [replyKey, reply] of tx.scan<ReplyRecord>(CommentTables.replies, { prefix: `${comment.id}/` })) {
    tx.delete(CommentTables.replies, replyKey);
    tx.delete(CommentTables.replyById, reply.id);
  }
  tx.delete(CommentTables.replySeq, comment.id);
}

// ─── Replies ───────────────────────────────────────────────────────────────

interface ReplyPointer {
  comment: string;
  key: string;
}

export function findReply(tx: StoreReader, replyId: string): ReplyRecord | undefined {
  const pointer = tx.get<ReplyPointer>(CommentTables.replyById, replyId);
  return pointer ? tx.get<ReplyRecord>(CommentTables.replies, `${pointer.comment}/${pointer.key}`) : undefined;
}

export function newReplySeq(tx: StoreWriter, commentId: string): number {
  return nextSeq(tx, CommentTables.replySeq, commentId);
}

export function putReply(tx: StoreWriter, reply: ReplyRecord): void {
  const key = seqKey(reply.seq);
  tx.put(CommentTables.replies, `${reply.comment}/${key}`, reply);
  tx.put(CommentTables.replyById, reply.id, { comment: reply.comment, key } satisfies ReplyPointer);
}

export function removeReply(tx: StoreWriter, reply: ReplyRecord): void {
  tx.delete(CommentTables.replies, `${reply.comment}/${seqKey(reply.seq)}`);
  tx.delete(CommentTables.replyById, reply.id);
}

// ─── Listing ───────────────────────────────────────────────────────────────

export { pagePrefix };
