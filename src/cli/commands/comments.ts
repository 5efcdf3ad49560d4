/**
 * `docsctl comment …`: comments and replies on a space's content or, with `--cr`,
 * on a change request (API doc §4.10–4.11). `comment list` shows threads on a
 * terminal (each comment, its status and page, its replies indented), TSV when
 * piped, and the API objects with --json. Declared with the routes (src/api/routes/comments.ts)
 * on the change request's reply variant (--cr and --reply fill its parameters); the hooks pick
 * the space's or the comment's route without them, and read the text.
 */
import { UsageError } from '../../api/errors.js';
import type { RouteId } from '../../api/route-id.js';
import type { RawInput } from '../../api/validate.js';
import type { Hooks } from '../derive.js';
import { readTextInput } from '../io.js';
import { resolvePage } from '../lookups.js';
import type { Session } from '../session.js';

const textFlags = [
  { flags: '--text <markdown>', description: 'the text (Markdown)', aliases: ['--body'] },
  { flags: '--text-file <file>', description: 'read the text from a file ("-" for stdin)', aliases: ['--body-file'] },
];

type Options = Record<string, unknown>;

/** The route for the space or change-request variant, of a comment or (with --reply) of a reply. */
function pick(space: RouteId, cr: RouteId, spaceReply?: RouteId, crReply?: RouteId) {
  return (options: Options): RouteId => {
    const reply = options.reply !== undefined;
    if (reply && !spaceReply) throw new UsageError('--reply is not supported here');
    if (options.cr !== undefined) return reply ? (crReply as RouteId) : cr;
    return reply ? (spaceReply as RouteId) : space;
  };
}

/** `--text MARKDOWN` or `--text-file FILE|-` → `body.body.markdown`; exactly one, not blank. */
async function bodyText(options: Options, input: RawInput, session: Session): Promise<void> {
  const text = typeof options.text === 'string' ? options.text : undefined;
  const file = typeof options.textFile === 'string' ? options.textFile : undefined;
  if (text !== undefined && file !== undefined) throw new UsageError('Pass either --text or --text-file, not both');
  if (text === undefined && file === undefined) throw new UsageError('Missing the text: pass --text MARKDOWN or --text-file FILE ("-" reads stdin)');
  const markdown = text ?? (await readTextInput(session.ctx.io.in, file as string, '--text-file'));
  if (markdown.trim() === '') throw new UsageError(`The text is empty: pass some Markdown with ${text !== undefined ? '--text' : '--text-file'}`);
  input.body = { ...((input.body as object | undefined) ?? {}), body: { markdown } };
}

/** Display bodies as Markdown unless the API objects are asked for. */
function markdownBodies(_options: Options, input: RawInput, session: Session): void {
  if (session.format !== 'json' && session.format !== 'yaml') (input.query as Record<string, unknown>).format = 'markdown';
}

interface CommentItem {
  id: string;
  status?: string;
  replies?: number;
  postedAt?: string;
  postedBy?: { displayName?: string };
  body?: { markdown?: string };
  target?: { page?: { path?: string; title?: string; outdated?: boolean } };
}

function pageLabel(comment: CommentItem): string {
  const page = comment.target?.page;
  if (!page) return '';
  return `${page.path || page.title || ''}${page.outdated ? ' (outdated)' : ''}`;
}

/** On a terminal: each comment as a thread with its replies indented; otherwise the usual table/TSV. */
async function printThreads(session: Session, items: unknown[], input: RawInput): Promise<void> {
  if (session.format !== 'table') {
    const { columns } = await import('../../output/columns.js');
    await session.printList(items, columns.comment);
    return;
  }
  const transport = await session.transport();
  const params = input.params as Record<string, string>;
  const replyRoute = params.changeRequestId !== undefined ? 'listCommentRepliesInChangeRequest' : 'listCommentRepliesInSpace';
  const indent = (text: string, prefix: string) => text.trimEnd().split('\n').map((line) => `${prefix}${line}`).join('\n');
  const blocks: string[] = [];
  for (const item of items as CommentItem[]) {
    const page = pageLabel(item);
    const lines = [
      `${item.status === 'resolved' ? '✓' : '●'} ${item.id}  ${item.status ?? ''}  ${item.postedBy?.displayName ?? ''}  ${item.postedAt ?? ''}${page ? `  on ${page}` : ''}`,
      indent(item.body?.markdown ?? '', '  '),
    ];
    if ((item.replies ?? 0) > 0) {
      const { body } = await transport.request(replyRoute, { params: { ...params, commentId: item.id }, query: { format: 'markdown', limit: 100 } });
      const replies = ((body as { items?: CommentItem[] }).items ?? []);
      for (const reply of replies) {
        lines.push(`    ↳ ${reply.id}  ${reply.postedBy?.displayName ?? ''}  ${reply.postedAt ?? ''}`, indent(reply.body?.markdown ?? '', '      '));
      }
      if ((item.replies ?? 0) > replies.length) lines.push(`    … ${(item.replies ?? 0) - replies.length} more repl${(item.replies ?? 0) - replies.length === 1 ? 'y' : 'ies'}`);
    }
    blocks.push(lines.join('\n'));
  }
  if (blocks.length > 0) await session.printText(blocks.join('\n\n'));
}

export const hooks = {
  'comment list': {
    route: pick('listCommentsInSpace', 'listCommentsInChangeRequest'),
    build: async (options, input, session) => {
      markdownBodies(options, input, session);
      const query = input.query as Record<string, unknown>;
      if (typeof query.targetPage === 'string') query.targetPage = await resolvePage(await session.transport(), input.params as Record<string, unknown>, query.targetPage);
    },
    printItems: printThreads,
  },
  'comment commenters': { route: pick('listCommentersInSpace', 'listCommentersInChangeRequest') },
  'comment get': {
    route: pick('getCommentInSpace', 'getCommentInChangeRequest', 'getCommentReplyInSpace', 'getCommentReplyInChangeRequest'),
    build: markdownBodies,
  },
  'comment add': {
    route: pick('postCommentInSpace', 'postCommentInChangeRequest'),
    flags: [...textFlags, { flags: '--page <page>', description: 'anchor the comment to this page (id or path)' }],
    build: async (options, input, session) => {
      await bodyText(options, input, session);
      const body = input.body as Record<string, unknown>;
      if (typeof options.page === 'string') body.page = await resolvePage(await session.transport(), input.params as Record<string, unknown>, options.page);
    },
  },
  'comment reply': { route: pick('postCommentReplyInSpace', 'postCommentReplyInChangeRequest'), flags: textFlags, build: bodyText },
  'comment edit': {
    route: pick('updateCommentInSpace', 'updateCommentInChangeRequest', 'updateCommentReplyInSpace', 'updateCommentReplyInChangeRequest'),
    flags: textFlags,
    build: bodyText,
  },
  'comment delete': {
    route: pick('deleteCommentInSpace', 'deleteCommentInChangeRequest', 'deleteCommentReplyInSpace', 'deleteCommentReplyInChangeRequest'),
    confirm: (input) => {
      const params = input.params as Record<string, string>;
      return params.commentReplyId !== undefined ? `Delete reply ${params.commentReplyId}?` : `Delete comment ${params.commentId} and its replies?`;
    },
  },
  'comment resolve': {
    route: pick('updateCommentInSpace', 'updateCommentInChangeRequest'),
    build: (_options, input) => {
      input.body = { resolved: true };
    },
    unchanged: (comment) => comment.status === 'resolved' && `comment ${String(comment.id)} is already resolved`,
  },
  'comment reopen': {
    route: pick('updateCommentInSpace', 'updateCommentInChangeRequest'),
    build: (_options, input) => {
      input.body = { resolved: false };
    },
    unchanged: (comment) => comment.status === 'open' && `comment ${String(comment.id)} is already open`,
  },
  'comment react': {
    route: pick('updateCommentInSpace', 'updateCommentInChangeRequest', 'updateCommentReplyInSpace', 'updateCommentReplyInChangeRequest'),
    flags: [{ flags: '--remove', description: 'remove your reaction instead' }],
    build: (options, input) => {
      const params = input.params as Record<string, string>;
      const emoji = (params.emoji ?? '').trim();
      delete params.emoji;
      if (emoji === '') throw new UsageError('Missing the emoji, e.g. docsctl comment react SPACE COMMENT 👍');
      input.body = options.remove ? { removedReactions: [emoji] } : { addedReactions: [emoji] };
    },
  },
} satisfies Hooks;
