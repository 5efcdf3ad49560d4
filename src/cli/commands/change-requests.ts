/**
 * `docsctl cr …`, `docsctl page …`, `docsctl file …`, `docsctl space links`:
 * change requests and the content of spaces (API doc §4.8–4.9 and the real API's
 * space content reads). `cr merge`, `cr update` and `cr diff` show conflicts and
 * changes computed from the three revisions (see content-fetch.ts). Declared with the
 * routes (src/api/routes/change-requests.ts, content.ts, spaces.ts); what data cannot
 * say is here: the `--cr` twins, printers, page lookups, the import source.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import { pageLookup, resolvePage } from '../lookups.js';
import type { Hooks } from '../derive.js';
import type { Session } from '../session.js';
import type { RouteId } from '../../api/route-id.js';
import { webChangeRequest, webPage } from './web-targets.js';

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

const inCr = (withCr: RouteId, without: RouteId) => (options: Record<string, unknown>) => (options.cr !== undefined ? withCr : without);

export const hooks = {
  'cr list': {
    emptyHint: (input) => {
      const status = (input.query as { status?: string } | undefined)?.status;
      return status === undefined
        ? 'No open change requests (cr list shows the open ones): see the others with --status merged, draft or archived.'
        : `No ${status} change requests.`;
    },
  },
  'cr get': { web: webChangeRequest },
  'cr edit': {
    flags: [{ flags: '--link <[title=]url...>', description: 'the external links, as a whole list (repeat it; "none" removes them all)' }],
    build: (options, input) => {
      const given = options.link as string[] | undefined;
      if (given === undefined) return;
      const body = (input.body ?? {}) as Record<string, unknown>;
      body.links =
        given.length === 1 && given[0] === 'none'
          ? []
          : given.map((value) => {
              // "Title=https://…": a title before the first "=" that is not part of the URL.
              const at = value.indexOf('=');
              const titled = at > 0 && !value.slice(0, at).includes('://') && /^https?:\/\//i.test(value.slice(at + 1));
              return titled ? { ref: { kind: 'url', url: value.slice(at + 1) }, title: value.slice(0, at) } : { ref: { kind: 'url', url: value } };
            });
      input.body = body;
    },
  },
  'cr create': {
    build: (_options, input) => {
      input.body ??= {};
    },
  },
  'cr merge': { after: afterMerge('merge') },
  'cr update': { after: afterMerge('update') },
  'cr import': {
    route: (options) => (options.parent !== undefined ? 'importContentInChangeRequestPageById' : 'importContentInChangeRequest'),
    flags: [{ flags: '--source <source>', description: 'markdown or zip (default: from the name)', choices: ['markdown', 'zip'] }],
    build: buildImport,
  },
  'cr pdf': {
    build: async (options, input, session) => {
      const query = input.query as Record<string, unknown>;
      if (typeof query.page !== 'string') return;
      query.page = await resolvePage(await session.transport(), input.params as Record<string, unknown>, query.page);
      query.only = true;
    },
  },
  'page list': {
    route: inCr('listPagesInChangeRequest', 'listPages'),
    after: async (session, body) => {
      const { printPageTree } = await import('./page-tree.js');
      await printPageTree(session, body);
    },
  },
  'page get': {
    route: inCr('getPageInChangeRequestById', 'getPageById'),
    lookups: { pageId: pageLookup },
    build: (_options, input) => {
      (input.query as Record<string, unknown>).format = 'markdown';
    },
    web: webPage,
  },
  'page edit': {
    lookups: { pageId: pageLookup },
    flags: [
      { flags: '--title <title>', description: 'new page title' },
      { flags: '--slug <slug>', description: "new slug: the page's part of its path (unique among its siblings)" },
      { flags: '--emoji <emoji>', description: 'new emoji ("" or none removes it)' },
      { flags: '--icon <name>', description: 'new icon name ("" or none removes it)' },
      { flags: '--link-title <title>', description: 'new link title: the short label of the SUMMARY.md link in Git Sync ("" or none removes it)' },
      { flags: '--description <text>', description: 'new description ("" or none removes it)' },
      { flags: '--parent <page>', description: 'move the page under this page (id or path), or "root" for the top level' },
      { flags: '--position <n>', description: 'move the page to this zero-based position among its siblings (default with --parent: the end)' },
    ],
    build: async (options, input, session) => {
      const params = input.params as Record<string, string>;
      const clearable = (value: unknown) => (value === '' || value === 'none' ? null : value);
      const change: Record<string, unknown> = { operation: 'update_page', page: params.pageId };
      if (options.title !== undefined) change.title = options.title;
      if (options.slug !== undefined) change.slug = options.slug;
      for (const key of ['emoji', 'icon'] as const) if (options[key] !== undefined) change[key] = clearable(options[key]) ?? '';
      if (options.linkTitle !== undefined) change.linkTitle = clearable(options.linkTitle);
      if (options.description !== undefined) change.description = clearable(options.description);
      if (typeof options.parent === 'string') {
        change.into = options.parent === 'root' ? null : await resolvePage(await session.transport(), params, options.parent);
      }
      if (options.position !== undefined) {
        const position = Number(options.position);
        if (!/^\d+$/.test(String(options.position)) || !Number.isSafeInteger(position)) throw new UsageError(`--position: expected a zero-based position (0, 1, 2…), not "${String(options.position)}"`);
        change.at = position;
      }
      if (Object.keys(change).length === 2) throw new UsageError('Nothing to change: pass --title, --slug, --emoji, --icon, --link-title, --description, --parent or --position');
      delete params.pageId;
      input.body = { changes: [change] };
    },
  },
  'file list': { route: inCr('listFilesInChangeRequestById', 'listFiles') },
  'file get': { route: inCr('getFileInChangeRequestById', 'getFileById') },
  'space links': {
    flags: [{ flags: '--broken', description: 'only broken links; exit 1 when any' }],
    build: (options, input) => {
      if (options.broken) (input.query as Record<string, unknown>).status = 'broken';
    },
    // Only --broken makes broken links a failed check (exit 1); a plain listing exits 0.
    failWhen: (items, options) =>
      options.broken && items.some((item) => (item as { status?: string }).status === 'broken')
        ? `${items.filter((item) => (item as { status?: string }).status === 'broken').length} broken link(s)`
        : undefined,
  },
} satisfies Hooks;

/** `docsctl cr diff SPACE CR`: the pages a change request changes, then a unified diff of their Markdown. */
export function registerCrDiff(group: import('commander').Command, getSession: (command: import('commander').Command) => Session): void {
  group
    .command('diff')
    .description('Show what a change request changes: pages added, removed, moved, edited, and a unified diff')
    .argument('<spaceId>', 'space id, title or collection path (Collection/Space)')
    .argument('<changeRequest>', 'change request id or number')
    .addHelpText('after', '\nExamples:\n  $ docsctl cr diff sp4c3 12\n  $ docsctl cr diff sp4c3 12 --json | jq ".[].kind"\n')
    .action(async (spaceId: string, changeRequest: string, _options: unknown, command: import('commander').Command) => {
      const session = getSession(command);
      const { renderDiff } = await import('./cr-conflicts.js');
      const { text, changes } = await renderDiff(session, await (await import('../operation.js')).idOf(session, 'spaceId', spaceId), changeRequest);
      if (session.format === 'json' || session.format === 'yaml') await session.printObject(changes, []);
      else if (text) await session.printText(text);
      else await session.hint('No changes.');
    });
}
