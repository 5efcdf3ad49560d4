/**
 * Writing style guides (routes: src/api/routes/styleguides.ts; records:
 * sites/styleguide-records.ts; templates: styleguide-templates.ts).
 *
 * Rules decided here (0.202 gives the shapes):
 * - `createSiteStyleguideById` answers the site's style guide when it has a live one (200,
 *   whatever `template` says), else makes one: a space of type `styleguide` at the
 *   organization's root, titled after the site, whose first page is the template's Markdown
 *   (imported as the README.md of a Git Sync tree, before the transaction, as space templates
 *   are: content/template-space.ts), or empty without a template. Making a space needs the
 *   `create` role in the organization, as `createSpace` does.
 * - A site's soft-deleted style guide is hidden, not unlinked: asking again makes a new one
 *   (the deleted one, once restored, is listed with the sites still naming it: none).
 * - `listOrganizationStyleguides` lists the organization's live style guides in id order
 *   (creation order), each with the sites naming it; one no site names has `sites: []`.
 * - `listSiteStyleguideRuns` is always an empty page: runs are GitBook Agent's work
 *   (`createSiteStyleguideRun` answers 501), so no site has any.
 */
import type * as routes from '../api/routes/styleguides.js';
import { getSpace } from './core-records.js';
import { type Handler, type HandlerContext, implementer } from './handler.js';
import { ListedRoles, orgAccess, requireRole, roleIn, spaceAccess } from './permissions.js';
import { paginate, itemsOf } from './pagination.js';
import { siteAccess } from './sites/access.js';
import { type SiteRecord, getSite, putSite } from './sites/site-records.js';
import { orgStyleguides, styleguideSites, withStyleguide } from './sites/styleguide-records.js';
import { liveStyleguideOf, siteView } from './sites/views.js';
import { STYLEGUIDE_TEMPLATES, styleguideTemplate } from './styleguide-templates.js';
import { createSpaceIn } from './spaces.js';
import { spaceView } from './views.js';
import type { Prepared } from './content/import.js';

const on = implementer<typeof routes>();

/** Space titles are at most 50 characters (createSpace). */
const SPACE_TITLE_MAX = 50;

function styleguideTitle(site: SiteRecord): string {
  const title = `${site.title} style guide`;
  return title.length <= SPACE_TITLE_MAX ? title : 'Style guide';
}

/** The space as the caller sees it (their role on it: grants may differ from the organization role). */
function spaceAnswer(ctx: HandlerContext, spaceId: string) {
  const { space, role } = spaceAccess(ctx.tx, spaceId, ctx.actor.userId, ctx.clock);
  return spaceView(ctx, space, role);
}

export const styleguideHandlers: Record<string, Handler> = {
  ...on('listStyleguideTemplates', (ctx, { params }) => {
    orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return { templates: STYLEGUIDE_TEMPLATES.map((template) => ({ ...template })) };
  }),

  ...on('createSiteStyleguideById', {
    prepare: async (ctx, { body }): Promise<Prepared | undefined> => {
      if (body.template === undefined) return undefined;
      const { prepareSnapshotContent } = await import('./content/template-space.js');
      const { markdown } = styleguideTemplate(body.template);
      return prepareSnapshotContent(ctx, new Map([['README.md', { path: 'README.md', data: new TextEncoder().encode(markdown) }]]));
    },
    run: async (ctx, { params }, prepared) => {
      const { org, site } = siteAccess(ctx, params);
      const existing = liveStyleguideOf(ctx.tx, site);
      if (existing !== undefined) return spaceAnswer(ctx, existing);
      requireRole(roleIn(ctx.tx, org.id, ctx.actor.userId) ?? null, 'create', org.id, "make a site's style guide space");
      const title = styleguideTitle(site);
      const space =
        prepared === undefined
          ? createSpaceIn(ctx, org.id, { title, type: 'styleguide' })
          : (await import('./content/template-space.js')).commitTemplateSpace(ctx, org.id, title, prepared as Prepared, 'styleguide');
      orgStyleguides.put(ctx.tx, org.id, space.id, null);
      putSite(ctx.tx, { ...withStyleguide(ctx.tx, site, space.id), updatedAt: ctx.clock().toISOString() });
      return spaceAnswer(ctx, space.id);
    },
  }),

  ...on('listOrganizationStyleguides', (ctx, { params }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const roles = new ListedRoles(ctx.tx, org.id, ctx.actor.userId, role);
    const view = { tx: ctx.tx, origin: ctx.origin, role, roleOf: (site: SiteRecord) => roles.site(site) };
    const styleguides = [];
    for (const { id } of orgStyleguides.all(ctx.tx, org.id)) {
      const space = getSpace(ctx.tx, id);
      if (!space || space.deletedAt !== undefined) continue;
      const sites = [];
      for (const entry of styleguideSites.all(ctx.tx, id)) {
        const site = getSite(ctx.tx, entry.id);
        if (site?.styleguide === id) sites.push(siteView(view, site));
      }
      styleguides.push({ space: spaceView(ctx, space, roles.space(space)), sites });
    }
    return { styleguides };
  }),

  ...on('listSiteStyleguideRuns', (ctx, { params, query }) => {
    siteAccess(ctx, params);
    return paginate(itemsOf<never>([]), query, (run) => run);
  }),
};
