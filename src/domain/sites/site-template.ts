/**
 * `applyTemplateToSite`: GitBook populates an empty site with its default documentation
 * structure. docsctl's default is its built-in `product-docs` template (content/templates.ts):
 * a new space titled like the site, holding the template's pages (Overview, Getting started ›
 * Quickstart and Installation, Guides › Your first guide), shown at the site's root. The site
 * must be empty (no site space, section, group or link: 409 otherwise, so nothing a user
 * arranged is mixed with it); the site stays unpublished and its customization untouched.
 */
import { conflict } from '../../api/errors.js';
import type * as routes from '../../api/routes/sites.js';
import type { StoreReader } from '../../store/types.js';
import type { Prepared } from '../content/import.js';
import { commitTemplateSpace, prepareTemplateContent } from '../content/template-space.js';
import { type Handler, Reply, type TwoPhaseHandler } from '../handler.js';
import { siteAccess } from './access.js';
import { type SiteRecord, requireSiteIn, siteSpaceOrder } from './site-records.js';
import { attachSiteSpace, freePath, hasSections, siteSpacePathTaken } from './structure.js';

/** docsctl's stand-in for GitBook's default documentation template. */
export const DEFAULT_SITE_TEMPLATE = 'product-docs';

function requireEmpty(tx: StoreReader, site: SiteRecord): void {
  if (siteSpaceOrder.count(tx, site.id) > 0 || hasSections(tx, site.id)) {
    throw conflict(`Site ${site.id} already has content: the template is for an empty site (docsctl site tree ${site.id} shows what it has)`);
  }
}

const applyTemplateToSite: TwoPhaseHandler<typeof routes.applyTemplateToSite, Prepared> = {
  async prepare(ctx, { params }) {
    requireEmpty(ctx.reader, requireSiteIn(ctx.reader, params.organizationId, params.siteId));
    return prepareTemplateContent(ctx, ctx.reader, params.organizationId, { id: DEFAULT_SITE_TEMPLATE });
  },
  run(ctx, { params }, prepared) {
    const { org, site } = siteAccess(ctx, params);
    requireEmpty(ctx.tx, site);
    const space = commitTemplateSpace(ctx, org.id, site.title.slice(0, 50), prepared);
    attachSiteSpace(ctx.tx, { id: ctx.ids(), site: site.id, space: space.id, path: freePath(space.title, (p) => siteSpacePathTaken(ctx.tx, site.id, p)) });
    return new Reply(200);
  },
};

export const siteTemplateHandlers: Record<string, Handler> = { applyTemplateToSite };
