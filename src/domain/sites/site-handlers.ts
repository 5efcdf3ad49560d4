/**
 * API doc §4.3 (sites, adaptive schema, published view) and the real API's
 * publish/unpublish and structure read.
 *
 * Rules decided here:
 * - `type` is chosen at creation (default `basic`) and decides the features
 *   (features.ts): a visibility, adaptive content or a proxy the plan lacks is a 403.
 * - `basename` defaults to the title's slug and is unique among the
 *   organization's sites (409 on update); it is the last part of the published URL.
 * - `spaces` at creation adds each space at the site's root; the API doc's
 *   `sample`/`empty` variants (gone from v0.143.2) are refused with a 400.
 * - Publishing a site with no site space is a 409 (there would be nothing to show).
 * - Deleting a site deletes its sections, groups, site spaces, share links,
 *   redirects, MCP servers and adaptive schema, and clears the organization's
 *   default content when it was this site; its style guide space stays (no longer naming it).
 */
import { removeSiteAgentSettings } from './agent-settings.js';
import { removeSiteChannels } from './channels.js';
import { removeSiteContext } from './context.js';
import { removeSiteInsights } from './insights-tables.js';
import { badRequest, conflict } from '../../api/errors.js';
import type * as routes from '../../api/routes/sites.js';
import { slugify, uniqueName } from '../../gitsync/slug.js';
import { ExactJson, type Handler, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { itemsOf, paginate } from '../pagination.js';
import { ListedRoles, orgAccess, roleIn } from '../permissions.js';
import { getOrg, putOrg } from '../core-records.js';
import { siteAccess, requireSiteSpaceSource, requireStyleguideIn } from './access.js';
import { EMPTY_ADAPTIVE_SCHEMA, adaptiveSchemaCheck } from './adaptive.js';
import { requireFeature, visibilityFeature } from './features.js';
import { publishedCustomizations } from './customization.js';
import { removeSiteMcpServers } from './mcp-servers.js';
import { removeSiteAds } from './ads.js';
import { checkedHostname, reindexSite, siteByHostname, siteByProxyOrigin } from './origins.js';
import { siteIntegrationScripts } from './publishing.js';
import { removeSiteRedirects } from './redirects.js';
import { withStyleguide } from './styleguide-records.js';
import { checkShareKey, shareKeySite } from './share-links.js';
import {
  type AdaptiveSchemaRecord,
  type SiteRecord,
  SiteTables,
  getSite,
  orgSites,
  putSite,
  requireSection,
  requireSiteSpace,
  shareLinks,
  siteSpacesOfSpace,
} from './site-records.js';
import { attachSiteSpace, freePath, removeAllStructure, siteSpacePathTaken } from './structure.js';
import { siteTree, siteTreeTextParts } from './tree.js';
import type { SiteTreeTextAnswer } from './tree-shape.js';
import { siteTreeParts } from './tree-text.js';
import { gitbookUrl, siteStructureView, siteView, visibleSiteSpaceCount } from './views.js';

const on = implementer<typeof routes>();

/** The site with a custom hostname (`null`: none); a hostname serves one site (409). */
function withHostname(tx: Parameters<typeof putSite>[0], site: SiteRecord, raw: string | null): SiteRecord {
  if (raw === null) {
    const { hostname: _old, ...rest } = site;
    return rest;
  }
  const hostname = checkedHostname(raw);
  requireFeature(site, 'sites-custom-domain', 'use a custom hostname');
  const owner = siteByHostname(tx, hostname);
  if (owner && owner.id !== site.id) throw conflict(`The hostname "${hostname}" already serves site ${owner.id}; remove it there first (docsctl site hostname remove ${hostname})`);
  return { ...site, hostname };
}

/** The organization's sites whose basename is `basename` (other than `except`). */
function basenameTaken(tx: Parameters<typeof orgSites.all>[0], orgId: string, basename: string, except?: string): boolean {
  return orgSites.all(tx, orgId).some((entry) => entry.id !== except && getSite(tx, entry.id)?.basename === basename);
}

export const siteHandlers: Record<string, Handler> = {
  ...on('createSite', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    if (typeof body.spaces === 'string') {
      throw badRequest(
        `Invalid spaces: "${body.spaces}" (create a new space) is not supported; create the space first and pass its id`,
      );
    }
    const now = ctx.clock().toISOString();
    const title = body.title ?? 'Untitled site';
    const site: SiteRecord = {
      id: ctx.ids(),
      organization: org.id,
      type: body.type ?? 'basic',
      title,
      visibility: body.visibility ?? 'public',
      published: false,
      createdAt: now,
      updatedAt: now,
      basename: uniqueName(slugify(title) || 'site', (candidate) => basenameTaken(ctx.tx, org.id, candidate)),
      agentsContext: 'included',
    };
    requireFeature(site, visibilityFeature(site.visibility), `have ${site.visibility} visibility`);
    putSite(ctx.tx, site);
    reindexSite(ctx.tx, undefined, site);
    orgSites.insert(ctx.tx, org.id, site.id, null);
    const spaceIds = body.spaces ?? [];
    if (new Set(spaceIds).size !== spaceIds.length) throw badRequest('Invalid spaces: a space is listed twice');
    if (spaceIds.length > 1) requireFeature(site, 'sites-multivariant-site', 'have several site spaces at its root');
    for (const spaceId of spaceIds) {
      const space = requireSiteSpaceSource(ctx, site, spaceId);
      attachSiteSpace(ctx.tx, {
        id: ctx.ids(),
        site: site.id,
        space: space.id,
        path: freePath(space.title, (p) => siteSpacePathTaken(ctx.tx, site.id, p)),
      });
    }
    const view = siteView({ tx: ctx.tx, origin: ctx.origin, role }, getSite(ctx.tx, site.id) ?? site);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...on('listSites', (ctx, { params, query }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const roles = new ListedRoles(ctx.tx, org.id, ctx.actor.userId, role);
    // Each site's `permissions` say the caller's role there (grants on the site may differ from the organization role).
    const view = { tx: ctx.tx, origin: ctx.origin, role, roleOf: (site: SiteRecord) => roles.site(site) };
    const filtered =
      query.space !== undefined ||
      query.title !== undefined ||
      query.published !== undefined ||
      query.type !== undefined ||
      query.shareKey !== undefined;
    if (!filtered) {
      return orgSites.page(ctx.tx, org.id, query, (entry) => {
        const site = getSite(ctx.tx, entry.id);
        return site && siteView(view, site);
      });
    }
    const withSpace =
      query.space === undefined
        ? undefined
        : new Set(siteSpacesOfSpace.all(ctx.tx, query.space).map((entry) => entry.value));
    const sharedSite = query.shareKey === undefined ? undefined : shareKeySite(ctx.tx, query.shareKey);
    const title = query.title?.toLowerCase();
    const sites = orgSites
      .all(ctx.tx, org.id)
      .map((entry) => getSite(ctx.tx, entry.id))
      .filter((site): site is SiteRecord => site !== undefined)
      .filter(
        (site) =>
          (withSpace === undefined || withSpace.has(site.id)) &&
          (query.shareKey === undefined || sharedSite === site.id) &&
          (title === undefined || site.title.toLowerCase().includes(title)) &&
          (query.published === undefined || site.published === query.published) &&
          (query.type === undefined || query.type.includes(site.type)),
      );
    return paginate(itemsOf(sites), query, (site) => siteView(view, site));
  }),

  ...on('getSiteById', (ctx, { params }) => {
    const { site, view } = siteAccess(ctx, params);
    return siteView(view, site);
  }),

  ...on('updateSiteById', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    if (Object.values(body).every((value) => value === undefined)) {
      throw badRequest(
        'Nothing to update: pass at least one of title, visibility, basename, adaptiveContent, agentsContext, defaultSiteSpace, defaultSiteSection, proxy, hostname, defaultLevel, styleguide',
      );
    }
    let next: SiteRecord = { ...site, updatedAt: ctx.clock().toISOString() };
    if (body.title !== undefined) next.title = body.title;
    if (body.visibility !== undefined) {
      requireFeature(site, visibilityFeature(body.visibility), `have ${body.visibility} visibility`);
      next.visibility = body.visibility;
    }
    if (body.basename !== undefined) {
      if (basenameTaken(ctx.tx, site.organization, body.basename, site.id)) {
        throw conflict(`Basename "${body.basename}" is already used by another site of organization ${site.organization}`);
      }
      next.basename = body.basename;
    }
    if (body.adaptiveContent !== undefined) {
      if (body.adaptiveContent.enabled) requireFeature(site, 'sites-adaptive-content', 'use adaptive content');
      next.adaptiveContent = { enabled: body.adaptiveContent.enabled };
    }
    if (body.agentsContext !== undefined) next.agentsContext = body.agentsContext;
    if (body.defaultLevel === 'inherit') delete next.defaultLevel;
    else if (body.defaultLevel !== undefined) next.defaultLevel = body.defaultLevel;
    if (body.defaultSiteSection !== undefined) {
      next.defaultSection = requireSection(ctx.tx, site, body.defaultSiteSection).id;
    }
    if (body.proxy !== undefined) {
      if (body.proxy === null) {
        const { proxy: _old, ...rest } = next;
        next = rest;
      } else {
        requireFeature(site, 'sites-custom-subdirectory', 'be served under a proxy');
        next.proxy = { origin: body.proxy, target: gitbookUrl(ctx.tx, site) };
      }
      const owner = next.proxy ? siteByProxyOrigin(ctx.tx, next.proxy.origin) : undefined;
      if (owner && owner.id !== site.id) throw conflict(`The proxy origin "${body.proxy}" already serves site ${owner.id}`);
    }
    if (body.hostname !== undefined) next = withHostname(ctx.tx, next, body.hostname);
    if (body.styleguide !== undefined) {
      next = withStyleguide(ctx.tx, next, body.styleguide === null ? undefined : requireStyleguideIn(ctx, site, body.styleguide).id);
    }
    putSite(ctx.tx, next);
    reindexSite(ctx.tx, site, next);
    if (body.defaultSiteSpace !== undefined) {
      // At the root (no sections) or in the default section, as the API doc says.
      const siteSpace = requireSiteSpace(ctx.tx, site, body.defaultSiteSpace);
      if (siteSpace.section === undefined) {
        putSite(ctx.tx, { ...next, defaultSiteSpace: siteSpace.id });
      } else if (siteSpace.section === next.defaultSection) {
        const section = requireSection(ctx.tx, site, siteSpace.section);
        ctx.tx.put(SiteTables.sections, section.id, { ...section, defaultSiteSpace: siteSpace.id });
      } else {
        throw badRequest(
          `Invalid defaultSiteSpace: site space ${siteSpace.id} is in section ${siteSpace.section}, not in the default section; ` +
            'set the default of that section instead (PATCH the section with defaultSiteSpace)',
        );
      }
    }
    return siteView(view, getSite(ctx.tx, site.id) ?? next);
  }),

  ...on('deleteSiteById', (ctx, { params }) => {
    const site = getSite(ctx.tx, params.siteId);
    const role = site ? roleIn(ctx.tx, site.organization, ctx.actor.userId) : undefined;
    if (!site || site.organization !== params.organizationId || role === undefined) return nothingToDelete();
    removeAllStructure(ctx.tx, site);
    for (const link of shareLinks.all(ctx.tx, site.id)) {
      ctx.tx.delete(SiteTables.shareKeys, link.value.keyHash);
      shareLinks.remove(ctx.tx, site.id, link.id);
    }
    ctx.tx.delete(SiteTables.adaptiveSchemas, site.id);
    ctx.tx.delete(SiteTables.customizations, site.id);
    ctx.tx.delete(SiteTables.publishingAuth, site.id);
    reindexSite(ctx.tx, site, undefined);
    removeSiteRedirects(ctx.tx, site.id);
    removeSiteMcpServers(ctx.tx, site.id);
    removeSiteAds(ctx.tx, site);
    removeSiteAgentSettings(ctx.tx, site.id);
    removeSiteChannels(ctx.tx, site.id);
    removeSiteContext(ctx.tx, site.id);
    removeSiteInsights(ctx.tx, site.id);
    withStyleguide(ctx.tx, site, undefined); // its index row (the record goes below)
    orgSites.remove(ctx.tx, site.organization, site.id);
    ctx.tx.delete(SiteTables.sites, site.id);
    const org = getOrg(ctx.tx, site.organization);
    if (org?.defaultContent?.site === site.id) {
      const { defaultContent: _old, ...rest } = org;
      putOrg(ctx.tx, rest);
    }
    return deleted();
  }),

  ...on('publishSite', (ctx, { params }) => {
    const { site, view } = siteAccess(ctx, params);
    if (visibleSiteSpaceCount(ctx.tx, site.id) === 0) {
      throw conflict(`Site ${site.id} has no content to publish: add a space first, or restore a deleted one (docsctl site space add ${site.id} SPACE)`);
    }
    const next = { ...site, published: true, updatedAt: ctx.clock().toISOString() };
    putSite(ctx.tx, next);
    return siteView(view, next);
  }),

  ...on('unpublishSite', (ctx, { params }) => {
    const { site, view } = siteAccess(ctx, params);
    const next = { ...site, published: false, updatedAt: ctx.clock().toISOString() };
    putSite(ctx.tx, next);
    return siteView(view, next);
  }),

  ...on('getSiteStructure', (ctx, { params, query }) => {
    const { site, view } = siteAccess(ctx, params);
    checkShareKey(ctx.tx, site, query.shareKey);
    return siteStructureView(view, site);
  }),

  // docsctl extension: the structure and every variant's page tree in one read (tree.ts),
  // or the text `site tree` prints of it (tree-text.ts). Built of fresh plain values
  // (shared page trees are only read), so it is handed over as is. The same for every
  // reader of the site (no role-dependent member), so serve keeps it for the generation.
  ...on('getSiteTree', (ctx, { params, query }) => {
    const { site, view } = siteAccess(ctx, params);
    const format = query.format === 'text' ? 'text' : 'tree';
    const answer = () => {
      // Without kept answers (one process, one read) the text is drawn straight from the tries.
      if (format === 'text' && !ctx.answers) return new ExactJson({ object: 'x-docsctl-site-tree-text', site: site.id, ...siteTreeTextParts(view, site) } satisfies SiteTreeTextAnswer);
      const tree = siteTree(view, site, ctx.answers);
      if (format === 'tree') return new ExactJson(tree);
      return new ExactJson({ object: 'x-docsctl-site-tree-text', site: tree.site, ...siteTreeParts(tree.tree) } satisfies SiteTreeTextAnswer);
    };
    return ctx.answers ? ctx.answers.get(`getSiteTree ${site.id} ${format}`, answer) : answer();
  }),

  ...on('getSiteAdaptiveSchema', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const stored = ctx.tx.get<AdaptiveSchemaRecord>(SiteTables.adaptiveSchemas, site.id);
    return {
      object: 'site-adaptive-schema',
      jsonSchema: stored?.jsonSchema ?? EMPTY_ADAPTIVE_SCHEMA,
      updatedAt: stored?.updatedAt ?? site.createdAt,
    };
  }),

  // Two phases only to load ajv (adaptive.ts) outside the writer lock; the checks run in order in `run`.
  ...on('updateSiteAdaptiveSchema', {
    prepare: () => adaptiveSchemaCheck(),
    run: (ctx, { params, body }, checkAdaptiveSchema: (schema: unknown) => void) => {
      const { site } = siteAccess(ctx, params);
      requireFeature(site, 'sites-adaptive-content', 'use adaptive content');
      checkAdaptiveSchema(body.jsonSchema);
      const record: AdaptiveSchemaRecord = { jsonSchema: body.jsonSchema, updatedAt: ctx.clock().toISOString() };
      ctx.tx.put(SiteTables.adaptiveSchemas, site.id, record);
      return { object: 'site-adaptive-schema', ...record };
    },
  }),

  ...on('getPublishedContentSite', (ctx, { params, query }) => {
    const { site, view } = siteAccess(ctx, params);
    checkShareKey(ctx.tx, site, query.shareKey);
    const structure = siteStructureView(view, site, { published: true });
    return {
      object: 'published-content-site',
      site: siteView(view, site),
      structure,
      customizations: publishedCustomizations(ctx.tx, site),
      scripts: siteIntegrationScripts(ctx.tx, ctx.origin, site),
    };
  }),
};

