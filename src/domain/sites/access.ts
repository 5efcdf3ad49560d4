/**
 * A site and the caller's role, for the handlers of the sites area. Who may do what
 * (reading needs `read`; administering, i.e. creating, changing, publishing,
 * deleting, share links and structure, needs `admin`, as in the real API) is
 * declared with each route and checked before the handler runs; a site of another
 * organization is a 404 here.
 */
import { badRequest, notFound } from '../../api/errors.js';
import type { HandlerContext } from '../handler.js';
import { orgAccess, siteRoleOf } from '../permissions.js';
import type { OrgRecord, Role, SpaceRecord } from '../core-records.js';
import { getSpace } from '../core-records.js';
import { type SiteRecord, requireSiteIn } from './site-records.js';
import type { SiteViewContext } from './views.js';

export interface SiteAccess {
  org: OrgRecord;
  role: Role;
  site: SiteRecord;
  view: SiteViewContext;
}

export function siteAccess(ctx: HandlerContext, params: { organizationId: string; siteId: string }): SiteAccess {
  const { org, role: orgRole } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
  const site = requireSiteIn(ctx.tx, org.id, params.siteId);
  // Grants on the site (src/domain/grants.ts) may raise or lower the organization role here.
  const role = orgRole === 'admin' ? orgRole : (siteRoleOf(ctx.tx, org.id, site, ctx.actor.userId) ?? orgRole);
  return { org, role, site, view: { tx: ctx.tx, origin: ctx.origin, role } };
}

/** A live space of the site's organization (a space of another organization is not found). */
export function requireSiteSpaceSource(ctx: HandlerContext, site: SiteRecord, spaceId: string): SpaceRecord {
  const space = getSpace(ctx.tx, spaceId);
  if (!space || space.organization !== site.organization) {
    throw notFound(`Space ${spaceId} not found in organization ${site.organization}`);
  }
  if (space.deletedAt !== undefined) {
    throw notFound(`Space ${spaceId} was deleted on ${space.deletedAt}; restore it first (docsctl space restore ${spaceId})`);
  }
  return space;
}

/** A live style guide space of the site's organization, to attach to the site (`updateSiteById`'s `styleguide`). */
export function requireStyleguideIn(ctx: HandlerContext, site: SiteRecord, spaceId: string): SpaceRecord {
  const space = requireSiteSpaceSource(ctx, site, spaceId);
  if (space.type !== 'styleguide') {
    throw badRequest(`Invalid styleguide: space ${spaceId} is not a style guide (docsctl styleguide list lists them; docsctl site styleguide create SITE makes one)`);
  }
  return space;
}
