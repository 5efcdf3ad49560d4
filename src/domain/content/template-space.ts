/**
 * A new space filled from a built-in template (templates.ts), for the operations that make
 * one: `applyTemplateToSite`, and `addSpaceToSite`/`addSectionToSite` or `createChangeRequest`
 * given a `template`; a site's style guide from a style guide template (styleguides.ts). The
 * template's pages are converted and saved before the transaction (`prepareTemplateContent`,
 * `prepareSnapshotContent`, over an empty tree) and committed inside it as the space's
 * first edit (`commitTemplateSpace`), so the space is searchable and its pages have ids at once.
 */
import type { ContentTree } from '../../content-model/model.js';
import type { RepoSnapshot } from '../../gitsync/types.js';
import type { StoreReader } from '../../store/types.js';
import { createSpaceIn } from '../spaces.js';
import type { SpaceRecord } from '../core-records.js';
import type { HandlerContext, PrepareContext } from '../handler.js';
import { commitToSpace } from './change-requests.js';
import type { Prepared } from './import.js';
import { commitSave } from './storage.js';
import type { TemplateRef } from './templates.js';

export interface TemplateChoice {
  id: string;
  params?: { contentRefs?: Record<string, { kind: string }> | undefined } | undefined;
}

/** The template's pages, converted and saved ahead of the transaction (400/404 for an unknown template or reference). */
export async function prepareTemplateContent(ctx: PrepareContext, reader: StoreReader, orgId: string, template: TemplateChoice, previous?: { tree: ContentTree; revision: string }): Promise<Prepared> {
  const { templateSnapshot } = await import('./templates.js');
  // A page reference without its space names a page of the space being made: there is none yet (404 naming it).
  const snapshot = templateSnapshot(reader, orgId, '', template.id, template.params?.contentRefs as Record<string, TemplateRef> | undefined);
  return prepareSnapshotContent(ctx, snapshot, previous);
}

/** Files in the Git Sync layout (a README.md, SUMMARY.md…) converted and saved ahead of the transaction, over `previous` or nothing. */
export async function prepareSnapshotContent(ctx: PrepareContext, snapshot: RepoSnapshot, previous?: { tree: ContentTree; revision: string }): Promise<Prepared> {
  const { mergeSnapshot, prepareMerged } = await import('./import.js');
  const base = previous ?? { tree: { pages: [], files: [] }, revision: '' };
  return prepareMerged(ctx, await mergeSnapshot(ctx, snapshot, base.tree, undefined), base);
}

/** A new space of the organization (a style guide with `type`) whose first edit is the prepared content. */
export function commitTemplateSpace(ctx: HandlerContext, orgId: string, title: string, prepared: Prepared, type?: SpaceRecord['type']): SpaceRecord {
  const space = createSpaceIn(ctx, orgId, { title, type });
  const revision = commitToSpace(ctx, ctx.tx, space, commitSave(ctx.tx, prepared.saved));
  return { ...space, revision: revision.id, updatedAt: revision.createdAt };
}
