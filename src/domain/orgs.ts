/**
 * Organizations, the authenticated user and invites (gaps.md §2.1).
 *
 * `listChangeRequestsForOrganization` is left to the change-request module (it
 * needs that module's storage); until then it answers 501.
 *
 * Invites have local semantics: there is no e-mail to send, so inviting an
 * address makes its user (created when unknown) a member at once.
 */
import { ApiError, badRequest, conflict, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/orgs.js';
import type { StoreWriter } from '../store/types.js';
import { type Handler, Reply, implementer } from './handler.js';
import type { Prepared } from './content/import.js';
import { itemsOf, paginate } from './pagination.js';
import { orgAccess, roleIn } from './permissions.js';
import {
  type OrgRecord,
  type Role,
  Tables,
  addMember,
  ensureUser,
  getOrg,
  getUser,
  orgIdsForEmailDomain,
  putOrg,
  requireUser,
  userOrgList,
} from './core-records.js';
import { organizationView, userView } from './views.js';
import { agentInstructionsHandlers } from './agent-instructions.js';

const on = implementer<typeof routes>();

/** getOrganizationsForEmailDomain answers one page, unpaginated in the spec: a bound on what one domain may list. */
const MAX_ORGS_PER_DOMAIN = 100;

export const orgHandlers: Record<string, Handler> = {
  ...agentInstructionsHandlers,
  ...on('getAuthenticatedUser', (ctx) => userView(ctx, requireUser(ctx.tx, ctx.actor.userId))),

  ...on('listOrganizationsForAuthenticatedUser', (ctx, { query }) => {
    // A user belongs to few organizations: filtering out disabled memberships reads one row each.
    const orgIds = userOrgList
      .all(ctx.tx, ctx.actor.userId)
      .map((entry) => entry.id)
      .filter(
      (orgId) => getOrg(ctx.tx, orgId) !== undefined && roleIn(ctx.tx, orgId, ctx.actor.userId) !== undefined,
    );
    return paginate(itemsOf(orgIds), query, (orgId) => {
      const { org, role } = orgAccess(ctx.tx, orgId, ctx.actor.userId);
      return organizationView(ctx, org, role);
    });
  }),

  // Anyone may create one (its route's access): the caller becomes its admin.
  ...on('createOrganization', {
    // With `withDefaultSite` and onboarding preferences whose source is `template`: the template's pages, prepared outside the lock.
    prepare: async (ctx, { query, body }) => {
      if (query.openapiUrl !== undefined) {
        throw new ApiError(501, 'openapiUrl is not supported yet', { hint: 'create the organization, then publish the specification with "docsctl openapi publish"' });
      }
      if (query.withDefaultSite !== true || body.onboardingPreferences?.source !== 'template') return undefined;
      return (await import('./sites/default-site.js')).prepareDefaultSiteContent(ctx);
    },
    run: async (ctx, { query, body }, prepared) => {
      const now = ctx.clock().toISOString();
      const admin = requireUser(ctx.tx, ctx.actor.userId).id;
      const org = newOrganization(ctx.tx, { id: ctx.ids(), title: body.title, emailDomains: body.emailDomains ?? [], admin, now });
      if (query.withDefaultSite === true) {
        (await import('./sites/default-site.js')).createDefaultSite(ctx, org, now, body.onboardingPreferences, prepared as Prepared | undefined);
      }
      const view = organizationView(ctx, org, 'admin');
      return new Reply(201, view, { Location: view.urls.location });
    },
  }),

  // The caller is not a member yet (the route needs no role): their e-mail's domain must be one of the organization's.
  ...on('joinOrganization', (ctx, { params }) => {
    const org = getOrg(ctx.tx, params.organizationId);
    if (!org) throw notFound(`Organization ${params.organizationId} not found`);
    if (roleIn(ctx.tx, org.id, ctx.actor.userId) !== undefined) return new Reply(204); // already a member: nothing to do
    const email = getUser(ctx.tx, ctx.actor.userId)?.email ?? '';
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (!org.emailDomains.includes(domain)) {
      throw badRequest(`Your e-mail domain "${domain}" is not one of organization ${org.id}'s e-mail domains: ask one of its admins for an invite`);
    }
    const role: Role = org.defaultRole !== undefined ? org.defaultRole : 'read';
    addMember(ctx.tx, org.id, ctx.actor.userId, { role, joinedAt: ctx.clock().toISOString(), sso: false, disabled: false });
    return new Reply(204);
  }),

  // The organizations that name the domain among their e-mail domains (an index kept by putOrg), for the caller's own domain only:
  // which organizations a domain may join is not for anyone to enumerate.
  ...on('getOrganizationsForEmailDomain', (ctx, { params }) => {
    const domain = params.emailDomain.trim().toLowerCase();
    const email = requireUser(ctx.tx, ctx.actor.userId).email;
    const own = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (domain !== own) throw new ApiError(403, `You may look up only your own e-mail domain (${own}), not "${domain}"`);
    const organizations = orgIdsForEmailDomain(ctx.tx, domain, MAX_ORGS_PER_DOMAIN).flatMap((orgId) => {
      const org = getOrg(ctx.tx, orgId);
      return org ? [organizationView(ctx, org, roleIn(ctx.tx, orgId, ctx.actor.userId) ?? null)] : [];
    });
    return { organizations };
  }),

  ...on('getOrganizationById', (ctx, { params }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return organizationView(ctx, org, role);
  }),

  ...on('inviteUsersToOrganization', (ctx, { params, body }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const now = ctx.clock().toISOString();
    const fallback: Role = body.role !== undefined ? body.role : org.defaultRole !== undefined ? org.defaultRole : 'read';
    const users: string[] = [];
    for (const entry of body.emails) {
      const email = typeof entry === 'string' ? entry : entry.email;
      const memberRole: Role = typeof entry === 'string' ? fallback : entry.role;
      const { user } = ensureUser(ctx.tx, { email }, ctx.ids, now);
      // Already a member (or listed twice in this request): left alone and not counted.
      const added = addMember(ctx.tx, org.id, user.id, {
        role: memberRole,
        joinedAt: now,
        sso: body.sso ?? false,
        disabled: false,
      });
      if (added) users.push(user.id);
    }
    return { users, invited: users.length };
  }),

  ...on('updateOrganizationById', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    if (Object.values(body).every((value) => value === undefined)) {
      throw badRequest(
        'Nothing to update: pass at least one of title, emailDomains, hostname, defaultRole, defaultContent, logo, sso, ai, inviteLinks, mergeRules',
      );
    }
    const updated: OrgRecord = { ...org, updatedAt: ctx.clock().toISOString() };
    if (body.title !== undefined) updated.title = body.title.trim();
    if (updated.title.length < 2) throw badRequest('Invalid title: it must be 2 to 255 characters long');
    if (body.emailDomains !== undefined) {
      updated.emailDomains = emailDomainsOf(body.emailDomains);
    }
    if (body.hostname !== undefined && body.hostname !== org.hostname) {
      const hostname = body.hostname.toLowerCase();
      if (!/^[a-z0-9][a-z0-9-]*[a-z0-9]$/.test(hostname)) {
        throw badRequest(`Invalid hostname "${body.hostname}": use lowercase letters, digits and inner hyphens`);
      }
      const owner = ctx.tx.get<string>(Tables.orgsByHostname, hostname);
      if (owner !== undefined && owner !== org.id) {
        throw conflict(`The hostname "${hostname}" is already used by another organization`);
      }
      if (org.hostname !== undefined) ctx.tx.delete(Tables.orgsByHostname, org.hostname);
      ctx.tx.put(Tables.orgsByHostname, hostname, org.id);
      updated.hostname = hostname;
    }
    if (body.defaultRole !== undefined) updated.defaultRole = body.defaultRole;
    if (body.defaultContent !== undefined) {
      if (body.defaultContent === null) delete updated.defaultContent;
      else updated.defaultContent = body.defaultContent;
    }
    if (body.logo !== undefined) {
      if (body.logo === null) delete updated.logo;
      else updated.logo = body.logo;
    }
    if (body.sso !== undefined) updated.sso = body.sso;
    if (body.ai !== undefined) updated.ai = body.ai;
    if (body.inviteLinks !== undefined) updated.inviteLinks = body.inviteLinks;
    if (body.mergeRules !== undefined) updated.mergeRules = body.mergeRules;
    putOrg(ctx.tx, updated);
    return organizationView(ctx, updated, role);
  }),
};

/** E-mail domains as stored: trimmed, lowercase, each once. */
function emailDomainsOf(domains: readonly string[]): string[] {
  return [...new Set(domains.map((domain) => domain.trim().toLowerCase()).filter(Boolean))];
}

/** An organization's title as stored (trimmed), or 400 naming the rule. */
export function checkOrganizationTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length < 2 || trimmed.length > 255) throw badRequest('Invalid organization title: it must be 2 to 255 characters long');
  return trimmed;
}

/** Writes a new organization (a free business plan, nothing shared yet) with `admin` as its admin; the title is checked. */
export function newOrganization(
  tx: StoreWriter,
  input: { id: string; title: string; emailDomains: readonly string[]; admin: string; now: string },
): OrgRecord {
  const org: OrgRecord = {
    id: input.id,
    title: checkOrganizationTitle(input.title),
    createdAt: input.now,
    type: 'business',
    plan: 'free',
    emailDomains: emailDomainsOf(input.emailDomains),
    inviteLinks: false,
    mergeRules: { type: 'none' },
  };
  putOrg(tx, org);
  addMember(tx, org.id, input.admin, { role: 'admin', joinedAt: input.now, sso: false, disabled: false });
  return org;
}
