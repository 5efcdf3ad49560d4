/**
 * The API shapes of comments and replies (`Comment`, `CommentReply`) built from
 * their records: users, reactions, the body in the requested format, the target
 * (with the page as it is now, or as it was when the comment was posted and
 * `outdated: true` once the page is gone) and the caller's permissions.
 */
import type { StoreReader } from '../../store/types.js';
import { type RevisionContent, openContent } from '../content/storage.js';
import { type BodyFormat, markdownToDocument } from '../content/views.js';
import { atLeast } from '../permissions.js';
import { type Role, getRevision, getUser } from '../core-records.js';
import { apiUrl } from '../urls.js';
import { type UserView, userView } from '../views.js';
import { type CommentRecord, type ReactionRecord, type ReplyRecord, type StoredBody, storedRepliers } from './comment-records.js';

const seg = (id: string) => encodeURIComponent(id);

/** What the views of one request share: who asks, caches of users and of the live content. */
export interface CommentViewContext {
  origin: string;
  actor: string;
  role: Role;
  /** The revision whose pages the comments' pages are checked against (see liveRevision). */
  live: RevisionContent | undefined;
  users: Map<string, UserView>;
  /** Page targets by page id: a list shows many comments on few pages. */
  pages: Map<string, ReturnType<typeof livePageTarget>>;
  tx: StoreReader;
}

export function commentViewContext(
  tx: StoreReader,
  ctx: { origin: string; actor: { userId: string } },
  role: Role,
  spaceId: string,
  liveRevision: string | undefined,
): CommentViewContext {
  const revision = liveRevision === undefined ? undefined : getRevision(tx, spaceId, liveRevision);
  return { origin: ctx.origin, actor: ctx.actor.userId, role, live: revision ? openContent(tx, revision) : undefined, users: new Map(), pages: new Map(), tx };
}

function user(view: CommentViewContext, id: string): UserView {
  let found = view.users.get(id);
  if (!found) {
    const record = getUser(view.tx, id);
    found = record
      ? userView(view, record)
      : { object: 'user', id, displayName: id, email: '', urls: { location: apiUrl(view.origin, `users/${seg(id)}`) } };
    view.users.set(id, found);
  }
  return found;
}

// ─── Bodies ────────────────────────────────────────────────────────────────

interface DocNode {
  object?: string;
  type?: string;
  text?: string;
  leaves?: Array<{ text?: string }>;
  nodes?: DocNode[];
}

function nodeText(node: DocNode): string {
  if (typeof node.text === 'string') return node.text;
  if (Array.isArray(node.leaves)) return node.leaves.map((leaf) => leaf.text ?? '').join('');
  return (node.nodes ?? []).map(nodeText).join('');
}

/** The Markdown of a JSON document: headings, code blocks and the text of every other block. */
export function documentToMarkdown(document: unknown): string {
  const nodes = ((document as DocNode | undefined)?.nodes ?? []) as DocNode[];
  return nodes
    .map((block) => {
      const heading = /^heading-(\d)$/.exec(block.type ?? '');
      if (heading) return `${'#'.repeat(Number(heading[1]))} ${nodeText(block)}`;
      if (block.type === 'code') return `\`\`\`\n${(block.nodes ?? []).map(nodeText).join('\n')}\n\`\`\``;
      if (block.type === 'divider') return '---';
      return nodeText(block);
    })
    .join('\n\n');
}

/** The Markdown of a stored body (for display and search). */
export function bodyMarkdown(body: StoredBody): string {
  if ('markdown' in body) return body.markdown;
  if ('document' in body) return documentToMarkdown(body.document);
  return '';
}

/** A stored body in the requested format (as posted when no format is asked). */
export function bodyView(body: StoredBody, format: BodyFormat | undefined): StoredBody {
  if (format === undefined) return body;
  if (format === 'markdown') return 'markdown' in body ? body : { markdown: bodyMarkdown(body) };
  if ('document' in body) return body;
  return { document: markdownToDocument(bodyMarkdown(body)) };
}

/** True when a body says nothing (blank Markdown, an empty document, `{}`). */
export function isEmptyBody(body: StoredBody): boolean {
  return bodyMarkdown(body).trim() === '';
}

// ─── Views ─────────────────────────────────────────────────────────────────

function reactionsView(view: CommentViewContext, reactions: readonly ReactionRecord[]) {
  return reactions.map((reaction) => ({
    emoji: reaction.emoji,
    count: reaction.users.length,
    users: reaction.users.map((entry) => ({ user: user(view, entry.user), reactedAt: entry.reactedAt })),
  }));
}

function permissions(view: CommentViewContext, author: string) {
  const mine = author === view.actor || atLeast(view.role, 'admin');
  return { view: true, edit: mine, reply: atLeast(view.role, 'comment'), delete: mine };
}

export function commentLocation(origin: string, comment: Pick<CommentRecord, 'id' | 'space' | 'changeRequest'>): string {
  const base = comment.changeRequest === undefined
    ? `spaces/${seg(comment.space)}`
    : `spaces/${seg(comment.space)}/change-requests/${seg(comment.changeRequest)}`;
  return apiUrl(origin, `${base}/comments/${seg(comment.id)}`);
}

/** The page as it is now in the live revision, or undefined when it is gone. */
function livePageTarget(live: RevisionContent | undefined, pageId: string) {
  const page = live?.page(pageId);
  if (!live || !page) return undefined;
  return {
    id: page.id,
    title: page.title || 'Untitled',
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    path: live.pathOf(page.id),
    outdated: false,
  };
}

function pageTarget(view: CommentViewContext, anchor: NonNullable<CommentRecord['page']>) {
  let live = view.pages.get(anchor.id);
  if (!view.pages.has(anchor.id)) view.pages.set(anchor.id, (live = livePageTarget(view.live, anchor.id)));
  return live ?? { ...anchor, title: anchor.title || 'Untitled', outdated: true };
}

export function commentView(view: CommentViewContext, comment: CommentRecord, format?: BodyFormat) {
  return {
    object: 'comment' as const,
    id: comment.id,
    postedBy: user(view, comment.postedBy),
    postedAt: comment.postedAt,
    ...(comment.editedAt !== undefined ? { editedAt: comment.editedAt } : {}),
    reactions: reactionsView(view, comment.reactions),
    replies: comment.replies,
    repliers: storedRepliers(view.tx, comment).map((entry) => ({ updatedAt: entry.updatedAt, count: entry.count, user: user(view, entry.user) })),
    body: bodyView(comment.body, format),
    target: {
      space: comment.space,
      revision: comment.revision,
      ...(comment.node !== undefined ? { node: { id: comment.node } } : {}),
      ...(comment.tableCell !== undefined ? { tableCell: comment.tableCell } : {}),
      ...(comment.changeRequest !== undefined ? { changeRequest: comment.changeRequest } : {}),
      ...(comment.review !== undefined ? { review: comment.review } : {}),
      ...(comment.page !== undefined ? { page: pageTarget(view, comment.page) } : {}),
    },
    urls: { location: commentLocation(view.origin, comment) },
    permissions: permissions(view, comment.postedBy),
    ...(comment.status === 'resolved'
      ? { status: 'resolved' as const, resolvedAt: comment.resolvedAt as string, resolvedBy: user(view, comment.resolvedBy as string) }
      : { status: 'open' as const }),
  };
}

export type CommentView = ReturnType<typeof commentView>;

export function replyView(view: CommentViewContext, comment: CommentRecord, reply: ReplyRecord, format?: BodyFormat) {
  return {
    object: 'comment-reply' as const,
    id: reply.id,
    postedBy: user(view, reply.postedBy),
    postedAt: reply.postedAt,
    ...(reply.editedAt !== undefined ? { editedAt: reply.editedAt } : {}),
    reactions: reactionsView(view, reply.reactions),
    body: bodyView(reply.body, format),
    urls: { location: `${commentLocation(view.origin, comment)}/replies/${seg(reply.id)}` },
    permissions: permissions(view, reply.postedBy),
  };
}
