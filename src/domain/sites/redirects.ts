/**
 * Site redirects (real API, `site-redirects`): a path of a site that leads to one of
 * its sections, site spaces or pages. One row per redirect (`redirects`, a KeyedSet
 * per site, listed in creation order) and one index row per source
 * (`siteRedirectSources`, `${siteId}/${sha256(source)}` → id), so a create checks its
 * source and a lookup by source reads one row, however many redirects the site has.
 *
 * Rules decided here:
 * - A source is compared in its normal form (RFC 3986 §6.2.2): percent-encodings in
 *   upper case, encoded unreserved characters decoded (`/%7Euser` is `/~user`). The
 *   route refuses what the real API's pattern refuses (no trailing "/", no empty
 *   segment, no query or fragment, other characters percent-encoded, 512 characters).
 *   Here "." and ".." segments (browsers resolve them before asking, so such a
 *   redirect would never apply) and encoded control characters are refused too.
 * - Two redirects of a site never share a source: 409 naming the one that has it.
 * - The destination must exist in the site when the redirect is written (404 naming
 *   it); a page is looked up in the current content of the site space's space. A
 *   redirect that would lead to its own source is a 400.
 * - Resolving (`getSiteRedirectBySource`) answers the destination's published URL; a
 *   destination deleted since (or hidden: its space is in the trash) is a 404 saying
 *   so, and the redirect stays listed until it is changed or deleted.
 */
import { createHash } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/sites.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { openContent } from '../content/storage.js';
import { primaryRevision } from '../content/common.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { countRows, paginate, rowsOf } from '../pagination.js';
import { getSpace } from '../core-records.js';
import { siteAccess } from './access.js';
import {
  type RedirectDestination,
  type RedirectRecord,
  type SiteRecord,
  type SiteSpaceRecord,
  SiteTables,
  getSection,
  getSiteSpace,
  redirects,
  requireSection,
  requireSiteSpace,
} from './site-records.js';
import { checkShareKey } from './share-links.js';
import { type SiteViewContext, sectionUrl, siteBaseUrl, visibleSpace } from './views.js';

const on = implementer<typeof routes>();

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** The normal form of a source path the route accepted (percent-encodings upper case, unreserved ones decoded). */
export function normaliseSource(source: string): string {
  return source.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** The normal form of a source to store, or a 400 for what can never be requested. */
function checkedSource(raw: string): string {
  const source = normaliseSource(raw);
  if (source.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw badRequest(`Invalid source "${raw}": browsers resolve "." and ".." segments before they ask, so a redirect from it would never apply`);
  }
  if (/%(?:[01][0-9A-F]|7F)/.test(source)) {
    throw badRequest(`Invalid source "${raw}": it encodes a control character`);
  }
  return source;
}

const sourceKey = (siteId: string, source: string) => `${siteId}/${createHash('sha256').update(source).digest('hex')}`;

export function redirectView(redirect: RedirectRecord) {
  return {
    object: 'site-redirect' as const,
    id: redirect.id,
    source: redirect.source,
    draft: redirect.draft === true,
    captureWildcard: redirect.captureWildcard === true,
    permanent: redirect.permanent === true,
    destination: redirect.destination,
    createdAt: redirect.createdAt,
    // Absent until the redirect is changed (0.202: "absent if never updated since creation").
    ...(redirect.updatedAt !== redirect.createdAt ? { updatedAt: redirect.updatedAt } : {}),
  };
}

/** The published URL of a site space: its section's (or the site's) URL, then its path unless it is the default. */
function siteSpaceUrl(view: SiteViewContext, site: SiteRecord, siteSpace: SiteSpaceRecord): string | undefined {
  if (siteSpace.section === undefined) {
    const base = siteBaseUrl(view.tx, site);
    return site.defaultSiteSpace === siteSpace.id ? base : `${base}/${encodeURIComponent(siteSpace.path)}`;
  }
  const section = getSection(view.tx, siteSpace.section);
  if (!section) return undefined;
  const base = sectionUrl(view, site, section);
  return section.defaultSiteSpace === siteSpace.id ? base : `${base}/${encodeURIComponent(siteSpace.path)}`;
}

/** A page's path in the current content of a site space's space, or undefined when it has no such page. */
function pagePath(tx: StoreReader, siteSpace: SiteSpaceRecord, pageId: string): string | undefined {
  const space = getSpace(tx, siteSpace.space);
  if (!space) return undefined;
  const content = openContent(tx, primaryRevision(tx, space));
  return content.page(pageId) ? content.pathOf(pageId) : undefined;
}

/** What a destination names, described for messages. */
function describe(destination: RedirectDestination): string {
  if (destination.kind === 'site-section') return `site section ${destination.siteSectionId}`;
  if (destination.kind === 'site-space') return `site space ${destination.siteSpaceId}`;
  return `page ${destination.pageId} of site space ${destination.siteSpaceId}`;
}

/** The published URL a destination leads to, or undefined when it no longer exists or is hidden. */
function targetOf(view: SiteViewContext, site: SiteRecord, destination: RedirectDestination): string | undefined {
  if (destination.kind === 'site-section') {
    const section = getSection(view.tx, destination.siteSectionId);
    return section && section.site === site.id ? `${sectionUrl(view, site, section)}/` : undefined;
  }
  const siteSpace = getSiteSpace(view.tx, destination.siteSpaceId);
  if (!siteSpace || siteSpace.site !== site.id || !visibleSpace(view.tx, siteSpace)) return undefined;
  const url = siteSpaceUrl(view, site, siteSpace);
  if (url === undefined || destination.kind === 'site-space') return url === undefined ? undefined : `${url}/`;
  const path = pagePath(view.tx, siteSpace, destination.pageId);
  if (path === undefined) return undefined;
  return path === '' ? `${url}/` : `${url}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** Checks that the destination exists in the site (404 naming what is missing) and that it does not lead back to `source`. */
function checkedDestination(view: SiteViewContext, site: SiteRecord, destination: RedirectDestination, source: string): RedirectDestination {
  if (destination.kind === 'site-section') {
    requireSection(view.tx, site, destination.siteSectionId);
  } else {
    const siteSpace = requireSiteSpace(view.tx, site, destination.siteSpaceId);
    if (destination.kind === 'site-page' && pagePath(view.tx, siteSpace, destination.pageId) === undefined) {
      throw notFound(`Page ${destination.pageId} not found in space ${siteSpace.space} (site space ${siteSpace.id})`);
    }
  }
  const target = targetOf(view, site, destination);
  const base = siteBaseUrl(view.tx, site);
  if (target !== undefined && target.startsWith(`${base}/`) && normaliseSource(target.slice(base.length).replace(/\/$/, '')) === source) {
    throw badRequest(`Invalid destination: ${describe(destination)} is at ${source} itself, so the redirect would lead to its own source`);
  }
  return destination;
}

function requireRedirect(tx: StoreReader, site: SiteRecord, id: string): RedirectRecord {
  const redirect = redirects.get(tx, site.id, id);
  if (!redirect) throw notFound(`Site redirect ${id} not found in site ${site.id}`);
  return redirect;
}

/** 409 when another redirect of the site has this source. */
function claimSource(tx: StoreWriter, site: SiteRecord, source: string, id: string): void {
  const holder = tx.get<string>(SiteTables.redirectSources, sourceKey(site.id, source));
  if (holder !== undefined && holder !== id) {
    throw conflict(`Site ${site.id} already has a redirect from ${source} (${holder}); change or delete that one`);
  }
  tx.put(SiteTables.redirectSources, sourceKey(site.id, source), id);
}

/** Deletes every redirect of a site (the site is being deleted). */
export function removeSiteRedirects(tx: StoreWriter, siteId: string): void {
  for (const { id, value } of redirects.all(tx, siteId)) {
    tx.delete(SiteTables.redirectSources, sourceKey(siteId, value.source));
    redirects.remove(tx, siteId, id);
  }
}

export const redirectHandlers: Record<string, Handler> = {
  ...on('listSiteRedirects', (ctx, { params, query }) => {
    const { site } = siteAccess(ctx, params);
    if (query.search === undefined) return redirects.page(ctx.tx, site.id, query, ({ value }) => redirectView(value));
    // A search counts its matches (`count` is the list's, filtered), then pages through the same rows.
    const search = query.search.toLowerCase();
    const matches = (redirect: RedirectRecord) => redirect.source.toLowerCase().includes(search);
    const prefix = `${site.id}/`;
    const count = countRows<RedirectRecord>(ctx.tx, redirects.table, prefix, matches);
    return paginate(rowsOf<RedirectRecord>(ctx.tx, redirects.table, prefix), query, (value) => (matches(value) ? redirectView(value) : undefined), count);
  }),

  ...on('createSiteRedirect', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const source = checkedSource(body.source);
    const destination = checkedDestination(view, site, body.destination, source);
    const now = ctx.clock().toISOString();
    const redirect: RedirectRecord = { id: ctx.ids(), source, destination, createdAt: now, updatedAt: now };
    claimSource(ctx.tx, site, source, redirect.id);
    redirects.put(ctx.tx, site.id, redirect.id, redirect);
    return new Reply(201, redirectView(redirect));
  }),

  ...on('getSiteRedirectBySource', (ctx, { params, query }) => {
    const { site, view } = siteAccess(ctx, params);
    checkShareKey(ctx.tx, site, query.shareKey);
    const source = normaliseSource(query.source);
    const id = ctx.tx.get<string>(SiteTables.redirectSources, sourceKey(site.id, source));
    const redirect = id === undefined ? undefined : redirects.get(ctx.tx, site.id, id);
    if (!redirect) throw notFound(`No redirect from ${source} in site ${site.id}`);
    const target = targetOf(view, site, redirect.destination);
    if (target === undefined) {
      throw notFound(
        `Redirect ${redirect.id} from ${source} leads to ${describe(redirect.destination)}, which no longer exists or is hidden; ` +
          `point it elsewhere (docsctl site redirect edit ${site.id} ${redirect.id}) or delete it`,
      );
    }
    return { redirect: redirectView(redirect), target };
  }),

  ...on('updateSiteRedirectById', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const redirect = requireRedirect(ctx.tx, site, params.siteRedirectId);
    if (body.source === undefined && body.destination === undefined) throw badRequest('Nothing to update: pass source and/or destination');
    const source = body.source === undefined ? redirect.source : checkedSource(body.source);
    const destination = checkedDestination(view, site, body.destination ?? redirect.destination, source);
    if (source !== redirect.source) {
      claimSource(ctx.tx, site, source, redirect.id);
      ctx.tx.delete(SiteTables.redirectSources, sourceKey(site.id, redirect.source));
    }
    const next: RedirectRecord = { ...redirect, source, destination, updatedAt: ctx.clock().toISOString() };
    redirects.put(ctx.tx, site.id, redirect.id, next);
    return redirectView(next);
  }),

  ...on('deleteSiteRedirectById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const redirect = redirects.get(ctx.tx, site.id, params.siteRedirectId);
    if (!redirect) return nothingToDelete();
    ctx.tx.delete(SiteTables.redirectSources, sourceKey(site.id, redirect.source));
    redirects.remove(ctx.tx, site.id, redirect.id);
    return deleted();
  }),
};
