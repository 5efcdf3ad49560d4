/**
 * `docsctl cr …`, `docsctl page …`, `docsctl file …`, `docsctl space links`:
 * change requests and the content of spaces (API doc §4.8–4.9 and the real API's
 * space content reads). `cr merge`, `cr update` and `cr diff` show conflicts and
 * changes computed from the three revisions (see content-fetch.ts).
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import { pageLookup, resolvePage } from '../lookups.js';
import type { OperationCommandSpec } from '../operation.js';
import type { Session } from '../session.js';
import type { RouteId } from '../../api/route-id.js';
import { webChangeRequest, webPage } from './web-targets.js';

const spaceArg = { name: 'spaceId', description: 'space id' };
const crArg = { name: 'changeRequest', param: 'changeRequestId', description: 'change request id or number' };
const crFlag = { flags: '--cr <changeRequest>', description: 'read the content of this change request (id or number) instead of the space', to: 'params.changeRequestId' };
const inCr = (withCr: RouteId, without: RouteId) => (options: Record<string, unknown>) => (options.cr !== undefined ? withCr : without);

interface MergeResult {
  revision: string;
  result: 'merge' | 'update' | 'conflicts';
  /** docsctl's own servers list the conflicts; other servers do not, and the CLI computes them. */
  conflicts?: Array<{ title: string; path: string; reason: string }>;
}

/** After a merge or update: print the result; on conflicts, list the conflicting pages and exit 5. */
function afterMerge(kind: 'merge' | 'update') {
  return async (session: Session, body: unknown, input: RawInput): Promise<void> => {
    const result = body as MergeResult;
    await session.printObject(result, (await import('../../output/columns.js')).columns.mergeResult);
    if (result.result !== 'conflicts') return;
    const params = input.params as { spaceId: string; changeRequestId: string };
    const conflicts = Array.isArray(result.conflicts)
      ? result.conflicts
      : await (await import('./cr-conflicts.js')).listConflicts(session, params.spaceId, params.changeRequestId, kind);
    for (const conflict of conflicts) await session.info(`conflict: ${conflict.path || conflict.title} — ${conflict.reason}`);
    const { ApiError } = await import('../../api/errors.js');
    const cr = `${params.spaceId} ${params.changeRequestId}`;
    throw new ApiError(409, `${kind === 'merge' ? 'Merge' : 'Update'} has conflicts in ${conflicts.length || 'some'} page(s): nothing was changed`, {
      hint: `see them with "docsctl cr conflicts ${cr}", then pick a side for each page: "docsctl cr resolve ${cr} --page PAGE --ours|--theirs|--file FILE"`,
    });
  };
}

/** `docsctl cr import SPACE CR ./docs` → a file:// URL; the source from the name (.zip → zip, else markdown). */
function buildImport(options: Record<string, unknown>, input: RawInput): void {
  const from = (input.body as { url?: string } | undefined)?.url;
  if (!from) throw new UsageError('cr import needs the content to import: a path, a file:// or an http(s):// URL');
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(from) ? from : pathToFileURL(resolve(from)).href;
  const source = (options.source as string | undefined) ?? (/\.zip$/i.test(url) ? 'zip' : 'markdown');
  input.body = { url, source };
}

export const contentCommands: OperationCommandSpec[] = [
  {
    command: 'cr list',
    route: 'listChangeRequestsForSpace',
    summary: 'List the change requests of a space (open ones unless --status)',
    aliases: ['ls'],
    args: [spaceArg],
    flags: [
      { flags: '--status <status>', description: 'draft, open, archived or merged', to: 'query.status', choices: ['draft', 'open', 'archived', 'merged'] },
      { flags: '--creator <userId>', description: 'only those created by this user', to: 'query.creator' },
      { flags: '--contributor <userId>', description: 'only those this user contributed to', to: 'query.contributor' },
    ],
    output: 'list',
    columns: 'changeRequest',
    noun: 'change request',
    emptyHint: (input) => {
      const status = (input.query as { status?: string } | undefined)?.status;
      return status === undefined
        ? 'No open change requests (cr list shows the open ones): see the others with --status merged, draft or archived.'
        : `No ${status} change requests.`;
    },
    examples: ['docsctl cr list sp4c3', 'docsctl cr list sp4c3 --status merged --all --json'],
  },
  {
    command: 'cr get',
    route: 'getChangeRequestById',
    summary: 'Show a change request (by id or number)',
    args: [spaceArg, crArg],
    output: 'object',
    columns: 'changeRequest',
    web: webChangeRequest,
    examples: ['docsctl cr get sp4c3 12', 'docsctl cr get sp4c3 12 --json | jq .outdated'],
  },
  {
    command: 'cr create',
    route: 'createChangeRequest',
    summary: 'Open a change request on a space',
    args: [spaceArg],
    flags: [{ flags: '--subject <subject>', description: 'subject (max 100 characters)', to: 'body.subject' }],
    build: (_options, input) => {
      input.body ??= {};
    },
    output: 'object',
    columns: 'changeRequest',
    examples: ['docsctl cr create sp4c3 --subject "Update install guide"', 'cr=$(docsctl cr create sp4c3 --subject Fix --format ids)'],
  },
  {
    command: 'cr edit',
    route: 'updateChangeRequestById',
    summary: 'Change the subject or status (draft, open, archived) of a change request',
    args: [spaceArg, crArg],
    flags: [
      { flags: '--subject <subject>', description: 'new subject', to: 'body.subject' },
      { flags: '--status <status>', description: 'draft, open or archived', to: 'body.status', choices: ['draft', 'open', 'archived'] },
    ],
    nonEmptyBody: 'Nothing to change: pass --subject or --status',
    output: 'object',
    columns: 'changeRequest',
    examples: ['docsctl cr edit sp4c3 12 --status archived'],
  },
  {
    command: 'cr merge',
    route: 'mergeChangeRequest',
    summary: 'Merge a change request into the space (exit 5 and the conflicting pages on conflicts)',
    args: [spaceArg, crArg],
    output: 'object',
    columns: 'mergeResult',
    after: afterMerge('merge'),
    examples: ['docsctl cr merge sp4c3 12', 'docsctl cr merge sp4c3 12 || docsctl cr conflicts sp4c3 12'],
  },
  {
    command: 'cr update',
    route: 'updateChangeRequest',
    summary: "Bring the space's current content into a change request",
    args: [spaceArg, crArg],
    output: 'object',
    columns: 'mergeResult',
    after: afterMerge('update'),
    examples: ['docsctl cr update sp4c3 12'],
  },
  {
    command: 'cr import',
    route: (options) => (options.parent !== undefined ? 'importContentInChangeRequestPageById' : 'importContentInChangeRequest'),
    summary:
      'Import Markdown (a file, a Git Sync directory, or a .zip) into a change request: pages at the same path are updated, others added (at the end, or under --parent); nothing is deleted. To mirror a directory exactly (removing pages it does not have), use "docsctl git import SPACE DIR"',
    args: [spaceArg, crArg, { name: 'path', param: '__from', description: 'local file or directory (Markdown, Git Sync layout or .zip), file:// or http(s):// URL' }],
    flags: [
      { flags: '--source <source>', description: 'markdown or zip (default: from the name)', choices: ['markdown', 'zip'] },
      { flags: '--parent <pageId>', description: 'add the new pages under this page' },
    ],
    build: (options, input) => {
      const params = input.params as Record<string, string>;
      input.body = { url: params.__from };
      delete params.__from;
      if (options.parent !== undefined) params.pageId = String(options.parent);
      buildImport(options, input);
    },
    output: 'object',
    columns: 'importResult',
    examples: [
      'docsctl cr import sp4c3 12 ./docs',
      'docsctl cr import sp4c3 12 install.md --parent pg123      # one page, under another',
      'docsctl cr import sp4c3 12 docs.zip',
      'docsctl cr import sp4c3 12 https://example.com/guide.md',
      'docsctl git import sp4c3 ./docs                            # mirror: also removes pages',
    ],
  },
  {
    command: 'cr pdf',
    route: 'getChangeRequestPDF',
    summary: 'Render a change request (or one page) as PDF and print its URL',
    args: [spaceArg, crArg],
    flags: [{ flags: '--page <page>', description: 'only this page (id or path)', to: 'query.page' }],
    build: async (options, input, session) => {
      const query = input.query as Record<string, unknown>;
      if (typeof query.page !== 'string') return;
      query.page = await resolvePage(await session.transport(), input.params as Record<string, unknown>, query.page);
      query.only = true;
    },
    output: 'object',
    columns: 'url',
    examples: ['docsctl cr pdf sp4c3 12', 'docsctl cr pdf sp4c3 12 --page guides/setup --format ids'],
  },
  {
    command: 'page list',
    route: inCr('listPagesInChangeRequest', 'listPages'),
    summary: 'Show the pages of a space (or of a change request) as a tree',
    aliases: ['ls'],
    args: [spaceArg],
    flags: [crFlag],
    output: 'object',
    columns: 'page',
    after: async (session, body) => {
      const { printPageTree } = await import('./page-tree.js');
      await printPageTree(session, body);
    },
    examples: ['docsctl page list sp4c3', 'docsctl page list sp4c3 --cr 12 --json'],
  },
  {
    command: 'page get',
    route: inCr('getPageInChangeRequestById', 'getPageById'),
    summary: 'Show a page; --format markdown prints its body',
    args: [spaceArg, { name: 'pageId', description: 'page id or path (guides/setup)', lookup: pageLookup }],
    flags: [crFlag],
    build: (_options, input) => {
      (input.query as Record<string, unknown>).format = 'markdown';
    },
    output: 'object',
    columns: 'page',
    web: webPage,
    examples: ['docsctl page get sp4c3 p4g3', 'docsctl page get sp4c3 guides/setup --format markdown > setup.md', 'docsctl page get sp4c3 p4g3 --web'],
  },
  {
    command: 'page edit',
    route: 'updateChangeRequestContent',
    summary: 'Change the title, link title or description of a page in a change request (merge it to publish)',
    args: [spaceArg, { name: 'pageId', description: 'page id or path (guides/setup)', lookup: pageLookup }],
    flags: [
      { ...crFlag, description: 'the change request to edit (id or number); create one with "docsctl cr create"', required: true },
      { flags: '--title <title>', description: 'new page title' },
      { flags: '--link-title <title>', description: 'new link title: the short label of the SUMMARY.md link in Git Sync ("" or none removes it)' },
      { flags: '--description <text>', description: 'new description ("" or none removes it)' },
    ],
    build: (options, input) => {
      const params = input.params as Record<string, string>;
      const clearable = (value: unknown) => (value === '' || value === 'none' ? null : value);
      const change: Record<string, unknown> = { operation: 'update_page', page: params.pageId };
      if (options.title !== undefined) change.title = options.title;
      if (options.linkTitle !== undefined) change.linkTitle = clearable(options.linkTitle);
      if (options.description !== undefined) change.description = clearable(options.description);
      if (Object.keys(change).length === 2) throw new UsageError('Nothing to change: pass --title, --link-title or --description');
      delete params.pageId;
      input.body = { changes: [change] };
    },
    output: 'object',
    columns: 'changeRequest',
    examples: [
      'docsctl page edit sp4c3 p4g3 --cr 12 --link-title "Install"',
      'docsctl page edit sp4c3 p4g3 --cr 12 --link-title none      # remove it',
      'docsctl cr merge sp4c3 12 && docsctl git export sp4c3 https://github.com/acme/docs.git -m "Link titles"',
    ],
  },
  {
    command: 'file list',
    route: inCr('listFilesInChangeRequestById', 'listFiles'),
    summary: 'List the files of a space (or of a change request)',
    aliases: ['ls'],
    args: [spaceArg],
    flags: [crFlag],
    output: 'list',
    columns: 'file',
    noun: 'file',
    examples: ['docsctl file list sp4c3 --all'],
  },
  {
    command: 'file get',
    route: inCr('getFileInChangeRequestById', 'getFileById'),
    summary: 'Show a file of a space (or of a change request)',
    args: [spaceArg, { name: 'fileId', description: 'file id' }],
    flags: [crFlag],
    output: 'object',
    columns: 'file',
    examples: ['docsctl file get sp4c3 f1l3 --json | jq -r .downloadURL'],
  },
  {
    command: 'space links',
    route: 'listSpaceLinks',
    summary: 'List the links in a space; with --broken, only broken ones, and exit 1 when there are any (for CI)',
    args: [spaceArg],
    flags: [{ flags: '--broken', description: 'only broken links; exit 1 when any', to: 'query.status', type: 'boolean' }],
    build: (_options, input) => {
      const query = input.query as Record<string, unknown>;
      if (query.status === true) query.status = 'broken';
      else delete query.status;
    },
    output: 'list',
    columns: 'link',
    noun: 'link',
    // Only --broken makes broken links a failed check (exit 1); a plain listing exits 0.
    failWhen: (items, options) =>
      options.broken && items.some((item) => (item as { status?: string }).status === 'broken')
        ? `${items.filter((item) => (item as { status?: string }).status === 'broken').length} broken link(s)`
        : undefined,
    examples: ['docsctl space links sp4c3 --all', 'docsctl space links sp4c3 --broken --all || echo "fix the broken links"'],
  },
];

/** `docsctl cr diff SPACE CR`: the pages a change request changes, then a unified diff of their Markdown. */
export function registerCrDiff(group: import('commander').Command, getSession: (command: import('commander').Command) => Session): void {
  group
    .command('diff')
    .description('Show what a change request changes: pages added, removed, moved, edited, and a unified diff')
    .argument('<spaceId>', 'space id')
    .argument('<changeRequest>', 'change request id or number')
    .addHelpText('after', '\nExamples:\n  $ docsctl cr diff sp4c3 12\n  $ docsctl cr diff sp4c3 12 --json | jq ".[].kind"\n')
    .action(async (spaceId: string, changeRequest: string, _options: unknown, command: import('commander').Command) => {
      const session = getSession(command);
      const { renderDiff } = await import('./cr-conflicts.js');
      const { text, changes } = await renderDiff(session, spaceId, changeRequest);
      if (session.format === 'json' || session.format === 'yaml') await session.printObject(changes, []);
      else if (text) await session.printText(text);
      else await session.hint('No changes.');
    });
}
