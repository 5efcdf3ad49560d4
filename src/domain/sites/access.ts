/**
 * Who may do what with a site. Reading a site and its parts needs membership
 * (`read`); administering it (create, change, publish, delete, share links,
 * structure) needs `admin`, as in the real API. An actor outside the
 * organization, or a site of another organization, is a 404.
 */
import { notFound } from '../../api/errors.js';
import type { HandlerContext } from '../handler.js';
import { orgAccess, requireRole } from '../permissions.js';
import type { MemberRole, OrgRecord, Role, SpaceRecord } from '../core-records.js';
import { getSpace } from '../core-records.js';
import { type SiteRecord, requireSiteIn } from './site-records.js';
import type { SiteViewContext } from './views.js';

export interface SiteAccess {
  org: OrgRecord;
  role: Role;
  site: SiteRecord;
  view: SiteViewContext;
}

export function siteAccess(
  ctx: HandlerContext,
  params: { organizationId: string; siteId: string },
  min: MemberRole,
  action: string,
): SiteAccess {
  const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
  requireRole(role, min, org.id, action);
  const site = requireSiteIn(ctx.tx, org.id, params.siteId);
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
