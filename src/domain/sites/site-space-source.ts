/**
 * What a new section or site space shows (0.202 `addSectionToSite`, `addSpaceToSite`):
 * an existing space of the organization (`spaceId`), or, with `spaceId: null`, a new space
 * made for it: from a built-in `template` (its pages prepared before the transaction, as
 * `applyTemplateToSite` and `createChangeRequest` do: content/template-space.ts), else empty
 * and titled `title`. Making a space needs the `create` role in the organization, as
 * `createSpace` does. And the page it opens on (`pageId`, also `updateSiteSpaceById`): a
 * page of that space, shown at the site space's root instead of its first page.
 *
 * Checked before anything is prepared or written: a `template` with an existing space, a
 * `pageId` with a new one (it has no pages to name), a new space with neither a title nor a
 * template: 400 each, naming the field.
 */
import { badRequest } from '../../api/errors.js';
import type { StoreReader } from '../../store/types.js';
import { type SpaceRecord } from '../core-records.js';
import type { HandlerContext, PrepareContext } from '../handler.js';
import { requireRole, roleIn } from '../permissions.js';
import { createSpaceIn } from '../spaces.js';
import { primaryRevision } from '../content/common.js';
import type { Prepared } from '../content/import.js';
import { openContent } from '../content/storage.js';
import type { TemplateChoice } from '../content/template-space.js';
import { requireSiteSpaceSource } from './access.js';
import type { SiteRecord } from './site-records.js';

export interface SpaceSource {
  spaceId: string | null;
  template?: TemplateChoice | undefined;
  title?: string | null | undefined;
  pageId?: string | null | undefined;
}

/** Space titles are 1 to 50 characters (createSpace): a longer section or site title is cut. */
const SPACE_TITLE_MAX = 50;

function checkSource(source: SpaceSource): void {
  if (source.spaceId !== null) {
    if (source.template !== undefined) {
      throw badRequest('Invalid template: a template makes a new space; pass spaceId null (no SPACE argument) to use it, or leave template out');
    }
    return;
  }
  if (source.pageId != null) {
    throw badRequest('Invalid pageId: a new space has no pages yet; add the space first, then set its page (site space edit --page)');
  }
  if (source.template === undefined && (source.title == null || source.title.trim() === '')) {
    throw badRequest('Invalid title: a new space (spaceId null) needs a title, or a template to make it from');
  }
}

/** The template content of a new space, prepared outside the store lock (undefined when none is made from one). */
export async function prepareSource(ctx: PrepareContext, orgId: string, source: SpaceSource): Promise<Prepared | undefined> {
  checkSource(source);
  if (source.spaceId !== null || source.template === undefined) return undefined;
  const { prepareTemplateContent } = await import('../content/template-space.js');
  return prepareTemplateContent(ctx, ctx.reader, orgId, source.template);
}

/** The space the new section or site space shows: the one named, or one made now. */
export async function sourceSpace(ctx: HandlerContext, site: SiteRecord, source: SpaceSource, prepared: Prepared | undefined): Promise<SpaceRecord> {
  checkSource(source);
  if (source.spaceId !== null) {
    const space = requireSiteSpaceSource(ctx, site, source.spaceId);
    if (source.pageId != null) requireHomePage(ctx.tx, space, source.pageId);
    return space;
  }
  requireRole(roleIn(ctx.tx, site.organization, ctx.actor.userId) ?? null, 'create', site.organization, 'make a new space for a site');
  if (prepared !== undefined && source.template !== undefined) {
    const [{ commitTemplateSpace }, { templateTitle }] = await Promise.all([import('../content/template-space.js'), import('../content/templates.js')]);
    const title = source.title ?? templateTitle(source.template.id);
    return commitTemplateSpace(ctx, site.organization, title.slice(0, SPACE_TITLE_MAX), prepared);
  }
  return createSpaceIn(ctx, site.organization, { title: (source.title as string).trim().slice(0, SPACE_TITLE_MAX) });
}

/** `pageId` as a site space's home page: a document page of the space's current content (400 otherwise). */
export function requireHomePage(tx: StoreReader, space: SpaceRecord, pageId: string): string {
  const page = openContent(tx, primaryRevision(tx, space)).page(pageId);
  if (!page) throw badRequest(`Invalid pageId: space ${space.id} has no page ${pageId} (docsctl page list ${space.id} lists them)`);
  if (page.type !== 'document') {
    throw badRequest(`Invalid pageId: page ${pageId} of space ${space.id} is a ${page.type}, not a document: a site space opens on a page with content`);
  }
  return page.id;
}
