/**
 * `docsctl cr review|reviewers|changes`: the review flow of a change request
 * (real API): approve or request changes (with a comment), ask for or withdraw
 * reviewers, and list what the change request changes. Declared with the routes
 * (src/api/routes/reviews.ts); the review and reviewer flags and the printers here.
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { Hooks } from '../derive.js';
import type { Session } from '../session.js';

/** `--add`/`--remove` first (one request each), then the command lists the requested reviewers. */
async function changeReviewers(options: Record<string, unknown>, input: RawInput, session: Session): Promise<void> {
  const params = input.params as { spaceId: string; changeRequestId: string };
  const add = (options.add as string[] | undefined) ?? [];
  const remove = (options.remove as string[] | undefined) ?? [];
  const transport = await session.transport();
  if (add.length > 0) await transport.request('requestReviewersForChangeRequest', { params, body: { users: add } });
  for (const userId of remove) {
    const { status } = await transport.request('removeRequestedReviewerFromChangeRequest', { params: { ...params, userId } });
    if (status === 204) await session.info(`note: ${userId} was not a requested reviewer`);
  }
}

interface SemanticChange {
  type: string;
  page?: { title?: string; path?: string };
  file?: { name?: string };
}

/** One line per change: `edited  guides/setup`. */
async function printChanges(session: Session, body: unknown): Promise<void> {
  if (session.format === 'json' || session.format === 'yaml') {
    await session.printObject(body, []);
    return;
  }
  const { changes = [], more, mergedFrom } = body as { changes?: SemanticChange[]; more?: number; mergedFrom?: { number?: number; subject?: string } };
  if (mergedFrom) await session.info(`merge of change request #${mergedFrom.number ?? '?'}${mergedFrom.subject ? `: ${mergedFrom.subject}` : ''}`);
  const words: Record<string, string> = {
    page_created: 'added', page_edited: 'edited', page_deleted: 'removed', page_moved: 'moved',
    file_created: 'added', file_edited: 'changed', file_deleted: 'removed',
  };
  const lines = changes.map((c) => {
    const what = c.page ? c.page.path || c.page.title || '' : c.file ? `file ${c.file.name ?? ''}` : '';
    return `${(words[c.type] ?? c.type).padEnd(8)} ${what}`;
  });
  if (lines.length > 0) await session.printText(lines.join('\n'));
  else await session.hint('No changes.');
  if (more) await session.info(`note: ${more} more change(s); pass --limit to see them`);
}

export const hooks = {
  'cr review': {
    route: (options) => (options.approve || options.requestChanges ? 'submitChangeRequestReview' : 'getReviewsByChangeRequestId'),
    flags: [
      { flags: '--approve', description: 'approve the change request' },
      { flags: '--request-changes', description: 'ask for changes before it is merged' },
      { flags: '--text <markdown>', description: 'a comment to go with the review (Markdown)', aliases: ['--body'] },
    ],
    build: (options, input) => {
      if (options.approve && options.requestChanges) throw new UsageError('Pass either --approve or --request-changes, not both');
      if (!options.approve && !options.requestChanges) {
        if (options.text !== undefined) throw new UsageError('--text goes with --approve or --request-changes');
        return;
      }
      const text = typeof options.text === 'string' ? options.text : undefined;
      if (text !== undefined && text.trim() === '') throw new UsageError('The review comment is empty: pass some Markdown with --text, or leave --text out');
      input.body = { status: options.approve ? 'approved' : 'changes-requested', ...(text !== undefined ? { comment: { markdown: text } } : {}) };
    },
    after: async (session, body) => {
      const { columns } = await import('../../output/columns.js');
      const items = (body as { items?: unknown[] }).items;
      if (Array.isArray(items)) await session.printList(items, columns.review);
      else await session.printObject(body, columns.review);
    },
  },
  'cr reviewers': {
    flags: [
      { flags: '--add <userIds...>', description: 'ask these users (ids) to review' },
      { flags: '--remove <userIds...>', description: 'withdraw the request of these users' },
    ],
    build: changeReviewers,
  },
  'cr changes': { after: printChanges },
  'space changes': { after: printChanges },
} satisfies Hooks;
