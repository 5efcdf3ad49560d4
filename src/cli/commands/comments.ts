/**
 * `docsctl comment …`: comments and replies on a space's content or, with `--cr`,
 * on a change request (API doc §4.10–4.11). `comment list` shows threads on a
 * terminal (each comment, its status and page, its replies indented), TSV when
 * piped, and the API objects with --json.
 */
import { UsageError } from '../../api/errors.js';
import type { RouteId } from '../../api/route-id.js';
import type { RawInput } from '../../api/validate.js';
import type { OperationCommandSpec } from '../operation.js';
import { readTextInput } from '../io.js';
import { resolvePage } from '../lookups.js';
import type { Session } from '../session.js';

const spaceArg = { name: 'spaceId', description: 'space id' };
const commentArg = { name: 'commentId', description: 'comment id' };
const crFlag = { flags: '--cr <changeRequest>', description: 'the comments of this change request (id or number) instead of the space', to: 'params.changeRequestId' };
const replyFlag = { flags: '--reply <replyId>', description: 'act on this reply of the comment instead of the comment', to: 'params.commentReplyId' };
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

export const commentCommands: OperationCommandSpec[] = [
  {
    command: 'comment list',
    route: pick('listCommentsInSpace', 'listCommentsInChangeRequest'),
    summary: 'List the comments of a space or change request, newest first (threads on a terminal)',
    aliases: ['ls'],
    args: [spaceArg],
    flags: [
      crFlag,
      { flags: '--page <page>', description: 'only the comments on this page (id or path)', to: 'query.targetPage' },
      { flags: '--status <status>', description: 'open, resolved or all (default all)', to: 'query.status', choices: ['open', 'resolved', 'all'] },
      { flags: '--author <userIds>', description: 'only comments by these users (comma-separated ids)', to: 'query.authors', type: 'list' },
      { flags: '--order <order>', description: 'desc (newest first, default) or asc', to: 'query.order', choices: ['asc', 'desc'] },
    ],
    build: async (options, input, session) => {
      markdownBodies(options, input, session);
      const query = input.query as Record<string, unknown>;
      if (typeof query.targetPage === 'string') query.targetPage = await resolvePage(await session.transport(), input.params as Record<string, unknown>, query.targetPage);
    },
    output: 'list',
    columns: 'comment',
    noun: 'comment',
    printItems: printThreads,
    examples: [
      'docsctl comment list sp4c3',
      'docsctl comment list sp4c3 --cr 12 --status open',
      'docsctl comment list sp4c3 --page p4g3 --all --json | jq length',
    ],
  },
  {
    command: 'comment get',
    route: pick('getCommentInSpace', 'getCommentInChangeRequest', 'getCommentReplyInSpace', 'getCommentReplyInChangeRequest'),
    summary: 'Show a comment (or, with --reply, one of its replies)',
    args: [spaceArg, commentArg],
    flags: [crFlag, replyFlag],
    build: markdownBodies,
    output: 'object',
    columns: 'comment',
    examples: ['docsctl comment get sp4c3 c0mm3nt', 'docsctl comment get sp4c3 c0mm3nt --cr 12 --json'],
  },
  {
    command: 'comment add',
    route: pick('postCommentInSpace', 'postCommentInChangeRequest'),
    summary: 'Post a comment on a space or change request, optionally on one page',
    args: [spaceArg],
    flags: [crFlag, ...textFlags, { flags: '--page <page>', description: 'anchor the comment to this page (id or path)' }],
    rawBody: false,
    build: async (options, input, session) => {
      await bodyText(options, input, session);
      const body = input.body as Record<string, unknown>;
      if (typeof options.page === 'string') body.page = await resolvePage(await session.transport(), input.params as Record<string, unknown>, options.page);
    },
    output: 'object',
    columns: 'comment',
    examples: [
      'docsctl comment add sp4c3 --text "Is this still true?" --page guides/setup',
      'docsctl comment add sp4c3 --cr 12 --text-file review.md --format ids',
      'echo "LGTM" | docsctl comment add sp4c3 --cr 12 --text-file -',
    ],
  },
  {
    command: 'comment reply',
    route: pick('postCommentReplyInSpace', 'postCommentReplyInChangeRequest'),
    summary: 'Reply to a comment',
    args: [spaceArg, commentArg],
    flags: [crFlag, ...textFlags],
    rawBody: false,
    build: bodyText,
    output: 'object',
    columns: 'commentReply',
    examples: ['docsctl comment reply sp4c3 c0mm3nt --text "Fixed in the last commit"'],
  },
  {
    command: 'comment edit',
    route: pick('updateCommentInSpace', 'updateCommentInChangeRequest', 'updateCommentReplyInSpace', 'updateCommentReplyInChangeRequest'),
    summary: 'Change the text of your comment (or, with --reply, of your reply); admins can edit any',
    args: [spaceArg, commentArg],
    flags: [crFlag, replyFlag, ...textFlags],
    rawBody: false,
    build: bodyText,
    output: 'object',
    columns: 'comment',
    examples: ['docsctl comment edit sp4c3 c0mm3nt --text "Corrected question"', 'docsctl comment edit sp4c3 c0mm3nt --reply r3ply --text-file fix.md'],
  },
  {
    command: 'comment delete',
    route: pick('deleteCommentInSpace', 'deleteCommentInChangeRequest', 'deleteCommentReplyInSpace', 'deleteCommentReplyInChangeRequest'),
    summary: 'Delete a comment with its replies (or, with --reply, one reply)',
    aliases: ['rm'],
    args: [spaceArg, commentArg],
    flags: [crFlag, replyFlag],
    confirm: (input) => {
      const params = input.params as Record<string, string>;
      return params.commentReplyId !== undefined ? `Delete reply ${params.commentReplyId}?` : `Delete comment ${params.commentId} and its replies?`;
    },
    output: 'delete',
    columns: 'comment',
    noun: 'comment',
    examples: ['docsctl comment delete sp4c3 c0mm3nt --yes', 'docsctl comment delete sp4c3 c0mm3nt --reply r3ply --yes'],
  },
  {
    command: 'comment resolve',
    route: pick('updateCommentInSpace', 'updateCommentInChangeRequest'),
    summary: 'Mark a comment resolved',
    args: [spaceArg, commentArg],
    flags: [crFlag],
    rawBody: false,
    build: (_options, input) => {
      input.body = { resolved: true };
    },
    unchanged: (comment) => comment.status === 'resolved' && `comment ${String(comment.id)} is already resolved`,
    output: 'object',
    columns: 'comment',
    examples: ['docsctl comment resolve sp4c3 c0mm3nt --cr 12'],
  },
  {
    command: 'comment reopen',
    route: pick('updateCommentInSpace', 'updateCommentInChangeRequest'),
    summary: 'Reopen a resolved comment',
    args: [spaceArg, commentArg],
    flags: [crFlag],
    rawBody: false,
    build: (_options, input) => {
      input.body = { resolved: false };
    },
    unchanged: (comment) => comment.status === 'open' && `comment ${String(comment.id)} is already open`,
    output: 'object',
    columns: 'comment',
    examples: ['docsctl comment reopen sp4c3 c0mm3nt'],
  },
  {
    command: 'comment react',
    route: pick('updateCommentInSpace', 'updateCommentInChangeRequest', 'updateCommentReplyInSpace', 'updateCommentReplyInChangeRequest'),
    summary: 'Add your reaction (an emoji) to a comment or reply; --remove takes it back',
    args: [spaceArg, commentArg, { name: 'emoji', param: '__emoji', description: 'the emoji, e.g. 👍' }],
    flags: [crFlag, replyFlag, { flags: '--remove', description: 'remove your reaction instead' }],
    rawBody: false,
    build: (options, input) => {
      const params = input.params as Record<string, string>;
      const emoji = (params.__emoji ?? '').trim();
      delete params.__emoji;
      if (emoji === '') throw new UsageError('Missing the emoji, e.g. docsctl comment react SPACE COMMENT 👍');
      input.body = options.remove ? { removedReactions: [emoji] } : { addedReactions: [emoji] };
    },
    output: 'object',
    columns: 'comment',
    examples: ['docsctl comment react sp4c3 c0mm3nt 👍', 'docsctl comment react sp4c3 c0mm3nt 👍 --remove'],
  },
];

