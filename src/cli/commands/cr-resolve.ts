/**
 * `docsctl cr resolve SPACE CR --page P --ours|--theirs|--file F …`: settles a change
 * request's conflicts with the space, so that `cr update` and `cr merge` succeed.
 *
 * Resolved means: the change request's base is the space's current revision, and
 * each conflicting page holds the version chosen for it — the change request's
 * (`--ours`), the space's (`--theirs`), or the given Markdown on the change request's
 * page (`--file`). The next merge then has nothing to reconcile: the space did not
 * change since the base. It is built from three real-API operations, so it works
 * locally, against `serve` and against any /v1 server that has them:
 *
 * 1. `updateChangeRequestContent` with `revert_page` to the space's revision for each
 *    conflicting page: the change request now agrees with the space there;
 * 2. `updateChangeRequest`: the space's content comes in, cleanly, and the base moves;
 * 3. `updateChangeRequestContent` again: `revert_page` to the change request's revision
 *    from before step 1 for the pages that keep its version, then `update_page` with
 *    the file's Markdown for `--file` pages.
 *
 * Every conflicting page needs a side in the same command (a side given without
 * --page applies to the pages not named): a page left unresolved could not stay in
 * conflict once the base has moved. When step 2 meets new conflicts (the space moved
 * meanwhile), step 1 is undone and nothing is resolved.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ApiError, UsageError } from '../../api/errors.js';
import type { Session } from '../session.js';
import { type ConflictView, conflictAbout, conflictViews } from './cr-conflicts.js';

export type Take = 'ours' | 'theirs' | 'file';

/** What the command line asked for: a side per page, in the order given, and a side for the others. */
export interface ResolvePlan {
  pages: Array<{ page: string; take?: Take; file?: string }>;
  rest?: 'ours' | 'theirs';
}

/** Changes per `updateChangeRequestContent` call (the API's limit). */
const BATCH = 50;

interface ChangeRequestView {
  id: string;
  number: number;
  revision: string;
}

async function applyChanges(session: Session, spaceId: string, changeRequestId: string, changes: Array<Record<string, unknown>>): Promise<void> {
  const transport = await session.transport();
  for (let i = 0; i < changes.length; i += BATCH) {
    await transport.request('updateChangeRequestContent', { params: { spaceId, changeRequestId }, body: { changes: changes.slice(i, i + BATCH) } });
  }
}

const revert = (page: string, revision: string) => ({ operation: 'revert_page', page, revision });

/** Each conflicting page with the side it takes; a usage error naming what is missing or unknown. */
async function decide(conflicts: ConflictView[], plan: ResolvePlan): Promise<Array<{ conflict: ConflictView; take: Take; markdown?: string }>> {
  const files = conflicts.filter((c) => c.page === undefined);
  if (files.length > 0) {
    throw new UsageError(`${files.length} file conflict(s) cannot be resolved by page: ${files.map((c) => c.title).join(', ')}`, {
      hint: 'change or restore the file in the change request so that both sides agree',
    });
  }
  const chosen = new Map<string, { conflict: ConflictView; take: Take; markdown?: string }>();
  for (const wanted of plan.pages) {
    if (wanted.take === undefined) throw new UsageError(`--page ${wanted.page} needs a side: --ours, --theirs or --file FILE after it`);
    const conflict = conflictAbout(conflicts, wanted.page);
    if (!conflict) {
      throw new UsageError(`Page "${wanted.page}" is not in conflict`, { hint: `the conflicting pages: ${conflicts.map((c) => c.path || c.title).join(', ')}` });
    }
    const id = conflict.page as string;
    if (chosen.has(id)) throw new UsageError(`Page "${wanted.page}" is given twice`);
    if (wanted.take === 'file') {
      if (conflict.changeRequest === null) {
        throw new UsageError(`Page "${wanted.page}" was removed in the change request: --file needs its page (take --theirs to keep the space's, or --ours to remove it)`);
      }
      let markdown: string;
      try {
        markdown = await readFile(wanted.file as string, 'utf8');
      } catch (error) {
        throw new UsageError(`Cannot read ${wanted.file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
      }
      if (/^(<{7}|\|{7}|={7}|>{7})( |$)/m.test(markdown)) {
        throw new UsageError(`${wanted.file} still holds conflict markers (<<<<<<<, =======, >>>>>>>): edit them out first`);
      }
      chosen.set(id, { conflict, take: 'file', markdown });
    } else chosen.set(id, { conflict, take: wanted.take });
  }
  const missing = conflicts.filter((c) => !chosen.has(c.page as string));
  if (missing.length > 0 && plan.rest === undefined) {
    throw new UsageError(`${missing.length} conflicting page(s) have no side: ${missing.map((c) => c.path || c.title).join(', ')}`, {
      hint: 'give each one --page PAGE --ours|--theirs|--file FILE; a side without --page applies to the pages not named',
    });
  }
  for (const conflict of missing) chosen.set(conflict.page as string, { conflict, take: plan.rest as Take });
  return [...chosen.values()];
}

export async function resolveConflicts(session: Session, spaceId: string, changeRequest: string, plan: ResolvePlan): Promise<void> {
  const transport = await session.transport();
  const cr = (await transport.request('getChangeRequestById', { params: { spaceId, changeRequestId: changeRequest } })).body as ChangeRequestView;
  const space = (await transport.request('getSpaceById', { params: { spaceId } })).body as { revision?: string };
  const { conflicts } = await conflictViews(session, spaceId, cr.id);
  if (conflicts.length === 0) {
    await session.info(`Nothing to resolve: change request #${cr.number} has no conflicts with the space`);
    return;
  }
  const decisions = await decide(conflicts, plan);
  const before = cr.revision;
  const primary = space.revision;
  if (primary === undefined) throw new ApiError(500, `The server did not say which revision space ${spaceId} is at`);

  // 1. Agree with the space on every conflicting page.
  await applyChanges(session, spaceId, cr.id, decisions.map(({ conflict }) => revert(conflict.page as string, primary)));
  // 2. Take the space's content in: the base moves to the space's revision.
  const updated = (await transport.request('updateChangeRequest', { params: { spaceId, changeRequestId: cr.id } })).body as { result: string };
  if (updated.result !== 'update') {
    await applyChanges(session, spaceId, cr.id, decisions.map(({ conflict }) => revert(conflict.page as string, before)));
    throw new ApiError(409, `Change request #${cr.number} still conflicts with the space (it changed meanwhile): nothing was resolved`, {
      hint: `look again with "docsctl cr conflicts ${spaceId} ${cr.number}"`,
    });
  }
  // 3. Put back the change request's versions, and the given files.
  const changes: Array<Record<string, unknown>> = [];
  for (const { conflict, take, markdown } of decisions) {
    if (take === 'theirs') continue;
    changes.push(revert(conflict.page as string, before));
    if (take === 'file') changes.push({ operation: 'update_page', page: conflict.page, document: { markdown } });
  }
  await applyChanges(session, spaceId, cr.id, changes);

  const resolved = decisions.map(({ conflict, take }) => ({ page: conflict.page, path: conflict.path, title: conflict.title, take }));
  const after = (await transport.request('getChangeRequestById', { params: { spaceId, changeRequestId: cr.id } })).body as ChangeRequestView;
  if (session.format === 'json' || session.format === 'yaml') {
    await session.printObject({ changeRequest: cr.id, number: cr.number, revision: after.revision, resolved }, []);
    return;
  }
  const words: Record<Take, string> = { ours: "the change request's version", theirs: "the space's version", file: 'the given file' };
  await session.printText(resolved.map((r) => `resolved: ${r.path || r.title} — ${words[r.take]}`).join('\n'));
  await session.info(`Change request #${cr.number} is up to date with the space: merge it with "docsctl cr merge ${spaceId} ${cr.number}"`);
}

/** `docsctl cr resolve`: sides are read in command-line order (`--page a --ours --page b --file b.md`). */
export function registerCrResolve(group: Command, getSession: (command: Command) => Session): void {
  const plan: ResolvePlan = { pages: [] };
  const side = (take: Take, file?: string) => {
    const last = plan.pages[plan.pages.length - 1];
    if (last && last.take === undefined) {
      last.take = take;
      if (file !== undefined) last.file = file;
      return;
    }
    if (take === 'file') throw new UsageError('--file needs a --page before it: the page the file resolves');
    if (plan.rest !== undefined && plan.rest !== take) throw new UsageError('--ours and --theirs without --page contradict each other');
    plan.rest = take;
  };
  group
    .command('resolve')
    .description("Resolve a change request's conflicts with the space, page by page: keep the change request's version, take the space's, or give the merged Markdown; then \"cr merge\" succeeds")
    .argument('<spaceId>', 'space id, title or collection path (Collection/Space)')
    .argument('<changeRequest>', 'change request id or number')
    .option('--page <page>', 'a conflicting page (id or path, as "cr conflicts" prints it); the side after it applies to it (repeatable)')
    .option('--ours', "keep the change request's version (of the --page before, or of every page not named)")
    .option('--theirs', "take the space's version (of the --page before, or of every page not named)")
    .option('--file <file>', 'the merged Markdown of the --page before (as "cr conflicts --page PAGE --merged" starts it)')
    .on('option:page', (page: string) => plan.pages.push({ page }))
    .on('option:ours', () => side('ours'))
    .on('option:theirs', () => side('theirs'))
    .on('option:file', (file: string) => side('file', file))
    .addHelpText(
      'after',
      [
        '',
        'Every conflicting page needs a side in the same command. Afterwards the change request',
        "is up to date with the space (its base is the space's revision), so \"cr merge\" takes it as it is.",
        '',
        'Examples:',
        '  $ docsctl cr resolve sp4c3 12 --page guides/install --ours',
        '  $ docsctl cr resolve sp4c3 12 --page guides/install --file install.md --page faq --theirs',
        '  $ docsctl cr resolve sp4c3 12 --theirs          # the space wins everywhere',
        '',
      ].join('\n'),
    )
    .action(async (spaceId: string, changeRequest: string, _options: unknown, command: Command) => {
      const session = getSession(command);
      if (plan.pages.length === 0 && plan.rest === undefined) {
        throw new UsageError('Say how to resolve: --page PAGE --ours|--theirs|--file FILE (repeatable), or --ours/--theirs for every page');
      }
      await resolveConflicts(session, await (await import('../operation.js')).idOf(session, 'spaceId', spaceId), changeRequest, plan);
    });
}
