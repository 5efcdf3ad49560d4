/**
 * What `cr merge`/`cr update` report on conflicts, what `cr conflicts` shows (each
 * conflicting page with its base, change request and space versions), and what
 * `cr diff` shows: the three revisions are read through the API and compared
 * locally, so the same listing works in every mode and against any /v1 server.
 */
import { UsageError } from '../../api/errors.js';
import { type ContentTree, walkPages } from '../../content-model/model.js';
import { fetchTree } from '../content-fetch.js';
import type { Session } from '../session.js';
import { conflictSummary } from '../../content-model/tree-types.js';

interface ChangeRequestRevisions {
  revisionInitial: string;
  revisionMergedAncestor?: string;
}

/** A change request's base, the space's current content and the change request's. */
export interface ThreeTrees {
  base: ContentTree;
  primary: ContentTree;
  change: ContentTree;
}

async function threeTrees(session: Session, spaceId: string, changeRequestId: string): Promise<ThreeTrees> {
  const transport = await session.transport();
  const cr = (await transport.request('getChangeRequestById', { params: { spaceId, changeRequestId } })).body as ChangeRequestRevisions;
  const baseRevision = cr.revisionMergedAncestor ?? cr.revisionInitial;
  const [base, primary, change] = await Promise.all([
    fetchTree(transport, spaceId, { kind: 'revision', revisionId: baseRevision }),
    fetchTree(transport, spaceId, { kind: 'primary' }),
    fetchTree(transport, spaceId, { kind: 'change-request', changeRequestId }),
  ]);
  return { base, primary, change };
}

export async function listConflicts(session: Session, spaceId: string, changeRequestId: string, kind: 'merge' | 'update') {
  const { base, primary, change } = await threeTrees(session, spaceId, changeRequestId);
  const { mergeTrees } = await import('../../content-model/tree-merge.js');
  const labels = { primary: 'the space', change: 'the change request' };
  const result =
    kind === 'merge'
      ? mergeTrees(base, primary, change, { oursLabel: labels.primary, theirsLabel: labels.change })
      : mergeTrees(base, change, primary, { oursLabel: labels.change, theirsLabel: labels.primary });
  return result.clean ? [] : result.conflicts;
}

function documents(tree: ContentTree): Map<string, { title: string; markdown: string; path: string }> {
  const out = new Map<string, { title: string; markdown: string; path: string }>();
  const visit = (pages: ContentTree['pages'], prefix: string) => {
    for (const page of pages) {
      const path = page.slug ? (prefix ? `${prefix}/${page.slug}` : page.slug) : prefix;
      if (page.type === 'document') out.set(page.id, { title: page.title, markdown: page.markdown ?? '', path });
      visit(page.pages, path);
    }
  };
  visit(tree.pages, '');
  return out;
}

/** `cr diff`: a page-level summary, then a unified diff of each changed page body (primary → change request). */
export async function renderDiff(session: Session, spaceId: string, changeRequestId: string): Promise<{ text: string; changes: unknown[] }> {
  const transport = await session.transport();
  const [primary, change] = await Promise.all([
    fetchTree(transport, spaceId, { kind: 'primary' }),
    fetchTree(transport, spaceId, { kind: 'change-request', changeRequestId }),
  ]);
  const [{ diffTrees }, { unifiedDiff }] = await Promise.all([import('../../content-model/tree-merge.js'), import('../../content-model/diff3.js')]);
  const changes = diffTrees(primary, change);
  const summary = changes.map((c) => `${c.kind.padEnd(8)} ${c.path || c.title}`).join('\n');
  const before = documents(primary);
  const after = documents(change);
  const patches: string[] = [];
  for (const [id, page] of after) {
    const old = before.get(id);
    const patch = unifiedDiff(old?.markdown ?? '', page.markdown, {
      fromLabel: old ? `a/${old.path || old.title}.md` : '/dev/null',
      toLabel: `b/${page.path || page.title}.md`,
    });
    if (patch) patches.push(patch);
  }
  for (const [id, page] of before) {
    if (after.has(id)) continue;
    const patch = unifiedDiff(page.markdown, '', { fromLabel: `a/${page.path || page.title}.md`, toLabel: '/dev/null' });
    if (patch) patches.push(patch);
  }
  const text = [summary, ...patches.map((patch) => patch.replace(/\n+$/, ''))].filter(Boolean).join('\n\n');
  return { text: text ? `${text.replace(/\n+$/, '')}\n` : '', changes };
}

// ─── cr conflicts ────────────────────────────────────────────────────────

/** One side of a conflicting page, as `cr conflicts --json` shows it (null: the page is not on that side). */
export interface ConflictSide {
  title: string;
  path: string;
  markdown?: string;
  fields: Record<string, unknown>;
}

/** A conflicting page (or file) of a change request, with the three versions. */
export interface ConflictView {
  kind: string;
  page?: string;
  file?: string;
  title: string;
  path: string;
  reason: string;
  base: ConflictSide | null;
  changeRequest: ConflictSide | null;
  space: ConflictSide | null;
}

const SIDE_FIELDS = ['type', 'slug', 'description', 'emoji', 'icon', 'hidden', 'href'] as const;

function sideOf(tree: ContentTree, id: string): ConflictSide | null {
  for (const { page, path } of walkPages(tree.pages)) {
    if (page.id !== id) continue;
    const fields: Record<string, unknown> = {};
    for (const key of SIDE_FIELDS) if (page[key] !== undefined) fields[key] = page[key];
    return { title: page.title, path, ...(page.markdown !== undefined ? { markdown: page.markdown } : {}), fields };
  }
  return null;
}

/**
 * The change request's conflicts with the space, each with its base, change request
 * and space versions: what an update (pull the space into the change request) meets,
 * which `cr resolve` settles. Read through the API, so it works against any server.
 */
export async function conflictViews(session: Session, spaceId: string, changeRequestId: string): Promise<{ conflicts: ConflictView[]; trees: ThreeTrees }> {
  const trees = await threeTrees(session, spaceId, changeRequestId);
  const { mergeTrees } = await import('../../content-model/tree-merge.js');
  const result = mergeTrees(trees.base, trees.change, trees.primary, { oursLabel: 'the change request', theirsLabel: 'the space' });
  if (result.clean) return { conflicts: [], trees };
  const conflicts = result.conflicts.map((c): ConflictView => ({
    ...conflictSummary(c),
    base: c.pageId !== undefined ? sideOf(trees.base, c.pageId) : null,
    changeRequest: c.pageId !== undefined ? sideOf(trees.change, c.pageId) : null,
    space: c.pageId !== undefined ? sideOf(trees.primary, c.pageId) : null,
  }));
  return { conflicts, trees };
}

const label = (side: ConflictSide | null, prefix: string) => (side ? `${prefix}/${side.path || side.title}.md` : '/dev/null');

/** A conflict as text: its line, what differs in the fields, then the diffs base → change request and base → space. */
export async function renderConflict(conflict: ConflictView): Promise<string> {
  const { unifiedDiff } = await import('../../content-model/diff3.js');
  const lines = [`conflict: ${conflict.path || conflict.title} — ${conflict.reason}`];
  const { base, changeRequest, space } = conflict;
  const shown = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value));
  for (const key of ['title', ...SIDE_FIELDS] as const) {
    const get = (side: ConflictSide | null) => (side === null ? undefined : key === 'title' ? side.title : side.fields[key]);
    const [b, c, s] = [get(base), get(changeRequest), get(space)];
    if (JSON.stringify(c) === JSON.stringify(b) && JSON.stringify(s) === JSON.stringify(b)) continue;
    if (changeRequest === null || space === null) continue;
    lines.push(`  ${key}: base ${shown(b)}, change request ${shown(c)}, space ${shown(s)}`);
  }
  for (const [side, prefix] of [
    [changeRequest, 'change-request'],
    [space, 'space'],
  ] as const) {
    const patch = unifiedDiff(base?.markdown ?? '', side?.markdown ?? '', { fromLabel: label(base, 'base'), toLabel: label(side, prefix) });
    if (patch) lines.push(patch.replace(/\n+$/, ''));
    else if (base !== null && side === null) lines.push(`(removed in the ${prefix === 'space' ? 'space' : 'change request'})`);
  }
  return `${lines.join('\n')}\n`;
}

/** The page's body merged, with diff3 conflict markers where the change request and the space differ. */
export async function mergedWithMarkers(conflict: ConflictView): Promise<string> {
  const { merge3 } = await import('../../content-model/diff3.js');
  const result = merge3(conflict.base?.markdown ?? '', conflict.changeRequest?.markdown ?? '', conflict.space?.markdown ?? '', {
    oursLabel: 'change request',
    theirsLabel: 'space',
    baseLabel: 'base',
  });
  return result.clean ? result.text : result.withMarkers;
}

/** The conflict about `page` (an id, or a path as `cr conflicts` prints it), or undefined. */
export function conflictAbout(conflicts: readonly ConflictView[], page: string): ConflictView | undefined {
  const wanted = page.replace(/^\/+|\/+$/g, '').replace(/\.md$/i, '');
  return conflicts.find((c) => c.page === page) ?? conflicts.find((c) => c.page !== undefined && (c.path === wanted || (c.path === '' && c.title === page)));
}

/** `docsctl cr conflicts SPACE CR`: each conflicting page, with the diffs of both sides from the base. */
export function registerCrConflicts(group: import('commander').Command, getSession: (command: import('commander').Command) => Session): void {
  group
    .command('conflicts')
    .description("Show the pages where a change request and the space changed the same thing: each with its base, change request and space versions, as diffs")
    .argument('<spaceId>', 'space id, title or collection path (Collection/Space)')
    .argument('<changeRequest>', 'change request id or number')
    .option('--page <page>', 'only this page (id or path)')
    .option('--merged', "with --page: print the page's Markdown merged, with conflict markers where the sides differ (edit it, then \"cr resolve --page PAGE --file FILE\")")
    .addHelpText(
      'after',
      '\nExamples:\n  $ docsctl cr conflicts sp4c3 12\n  $ docsctl cr conflicts sp4c3 12 --json | jq -r ".[].path"\n  $ docsctl cr conflicts sp4c3 12 --page guides/install --merged > install.md\n',
    )
    .action(async (spaceId: string, changeRequest: string, options: { page?: string; merged?: boolean }, command: import('commander').Command) => {
      const session = getSession(command);
      if (options.merged && options.page === undefined) throw new UsageError('--merged needs --page: the page whose merged Markdown to print');
      const { conflicts } = await conflictViews(session, await (await import('../operation.js')).idOf(session, 'spaceId', spaceId), changeRequest);
      let shown = conflicts;
      if (options.page !== undefined) {
        const found = conflictAbout(conflicts, options.page);
        if (!found) {
          throw new UsageError(`Page "${options.page}" is not in conflict`, {
            hint: conflicts.length > 0 ? `the conflicting pages: ${conflicts.map((c) => c.path || c.title).join(', ')}` : 'the change request has no conflicts',
          });
        }
        shown = [found];
      }
      if (options.merged) {
        const text = await mergedWithMarkers(shown[0] as ConflictView);
        // Written as it is when redirected to a file (to be edited and sent back); made safe on a terminal.
        if (session.ctx.io.isStdoutTTY) await session.printText(text);
        else await session.printSanitizedText(text);
        return;
      }
      if (session.format === 'json' || session.format === 'yaml') {
        await session.printObject(shown, []);
        return;
      }
      if (shown.length === 0) {
        await session.info('No conflicts: the change request merges cleanly');
        return;
      }
      const parts = await Promise.all(shown.map((conflict) => renderConflict(conflict)));
      await session.printText(parts.join('\n'));
    });
}
