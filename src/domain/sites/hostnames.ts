/**
 * Custom hostnames (0.202 `CustomHostname`): a site takes one with `updateSiteById`'s
 * `hostname` (docsctl's field: GitBook sets it in its app), kept unique in `siteHostnames`
 * (origins.ts); the site is then published at `https://<hostname>/` unless a proxy serves it.
 * docsctl contacts no DNS: a hostname is checked when set (origins.ts `checkedHostname`) and
 * again on revalidation; it is active (status `live`) while its site is published. The
 * `/custom-hostnames/{hostname}` routes find the site, hence the organization whose role is
 * checked (access.ts `scopes`), through that row: a hostname of another organization is a 404.
 */
import { badRequest, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/site-publishing.js';
import { type Handler, type HandlerContext, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { apiUrl } from '../urls.js';
import { checkedHostname, reindexSite, siteByHostname } from './origins.js';
import { type SiteRecord, putSite } from './site-records.js';

const on = implementer<typeof routes>();

export function customHostnameView(origin: string, site: SiteRecord, hostname: string) {
  return {
    object: 'custom-hostname' as const,
    hostname,
    target: { type: 'site' as const, site: site.id },
    isActive: site.published,
    ...(site.published ? { status: 'live' as const } : {}),
    urls: { location: apiUrl(origin, `custom-hostnames/${encodeURIComponent(hostname)}`) },
  };
}

/** The site a hostname serves, when the caller's organization has it (access.ts resolved the organization). */
function siteOf(ctx: HandlerContext, raw: string): SiteRecord | undefined {
  const site = siteByHostname(ctx.tx, raw);
  return site && site.hostname === raw.toLowerCase() && site.organization === ctx.access.organizationId ? site : undefined;
}

export const hostnameHandlers: Record<string, Handler> = {
  ...on('getCustomHostname', (ctx, { params }) => {
    const site = siteOf(ctx, params.hostname);
    if (!site) throw notFound(`Custom hostname ${params.hostname} not found: a site takes one with "docsctl site edit SITE --hostname ${params.hostname}"`);
    return customHostnameView(ctx.origin, site, site.hostname as string);
  }),

  ...on('removeCustomHostname', (ctx, { params }) => {
    const site = siteOf(ctx, params.hostname);
    if (!site) return nothingToDelete();
    const { hostname: _old, ...rest } = site;
    const next: SiteRecord = { ...rest, updatedAt: ctx.clock().toISOString() };
    putSite(ctx.tx, next);
    reindexSite(ctx.tx, site, next);
    return deleted();
  }),

  ...on('dnsRevalidateCustomHostname', (ctx, { params }) => {
    const site = siteOf(ctx, params.hostname);
    if (!site) throw notFound(`Custom hostname ${params.hostname} not found`);
    if (!site.published) throw badRequest(`Custom hostname ${site.hostname} is inactive: its site ${site.id} is not published (docsctl site publish ${site.id})`);
    checkedHostname(site.hostname as string);
    return new Reply(204);
  }),
};
