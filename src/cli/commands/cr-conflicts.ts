/**
 * What `cr merge`/`cr update` report on conflicts, and what `cr diff` shows: the
 * three revisions are read through the API and compared locally, so the same
 * listing works in every mode.
 */
import type { ContentTree } from '../../content-model/model.js';
import { fetchTree } from '../content-fetch.js';
import type { Session } from '../session.js';

interface ChangeRequestRevisions {
  revisionInitial: string;
  revisionMergedAncestor?: string;
}

async function threeTrees(session: Session, spaceId: string, changeRequestId: string) {
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
