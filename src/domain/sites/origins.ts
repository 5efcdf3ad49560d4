/**
 * Where each site is published, indexed so a published URL finds its site in a few row
 * reads (published-urls.ts), never by scanning sites:
 *
 * | table              | key                              | value  |
 * |--------------------|----------------------------------|--------|
 * | siteHostnames      | custom hostname (lower case)     | siteId |
 * | siteProxyOrigins   | proxy origin `host/path` (host lower case) | siteId |
 * | siteBasenames      | `${orgId in lower case}/${basename}` | siteId (gitbook.io URLs lower-case the id) |
 *
 * `reindexSite` is called with the record before and after every write that may change
 * them (create, update, delete), so the rows follow the sites. Sites written before these
 * tables existed have no `siteBasenames` row: a lookup that misses reads that one
 * organization's sites (bounded by the organization).
 */
import { badRequest } from '../../api/errors.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { type SiteRecord, SiteTables, getSite, orgSites } from './site-records.js';

const PROXY_ORIGINS = 'siteProxyOrigins';
const BASENAMES = 'siteBasenames';

/** A proxy origin's key: its host in lower case, its path as given. */
export function proxyKey(origin: string): string {
  const slash = origin.indexOf('/');
  return slash < 0 ? origin.toLowerCase() : `${origin.slice(0, slash).toLowerCase()}${origin.slice(slash)}`;
}

export function reindexSite(tx: StoreWriter, before: SiteRecord | undefined, after: SiteRecord | undefined): void {
  const rows: Array<[table: string, key: (site: SiteRecord) => string | undefined]> = [
    [SiteTables.hostnames, (site) => site.hostname],
    [PROXY_ORIGINS, (site) => (site.proxy ? proxyKey(site.proxy.origin) : undefined)],
    [BASENAMES, (site) => `${site.organization.toLowerCase()}/${site.basename}`],
  ];
  for (const [table, keyOf] of rows) {
    const old = before && keyOf(before);
    const next = after && keyOf(after);
    if (old === next) continue;
    if (old !== undefined && tx.get<string>(table, old) === before?.id) tx.delete(table, old);
    if (next !== undefined && after) tx.put(table, next, after.id);
  }
}

export const siteByHostname = (tx: StoreReader, hostname: string): SiteRecord | undefined => {
  const id = tx.get<string>(SiteTables.hostnames, hostname.toLowerCase());
  return id === undefined ? undefined : getSite(tx, id);
};

export const siteByProxyOrigin = (tx: StoreReader, origin: string): SiteRecord | undefined => {
  const id = tx.get<string>(PROXY_ORIGINS, proxyKey(origin));
  return id === undefined ? undefined : getSite(tx, id);
};

/**
 * The site with this basename of the organization whose id is `orgKey` in any case (a gitbook.io
 * host label), from the index; when the organization is known by id (`orgId`, found through its
 * hostname), a site written before the index is found by reading that organization's sites.
 */
export function siteByBasename(tx: StoreReader, orgKey: string, basename: string, orgId?: string): SiteRecord | undefined {
  const id = tx.get<string>(BASENAMES, `${orgKey.toLowerCase()}/${basename}`);
  const indexed = id === undefined ? undefined : getSite(tx, id);
  if (indexed && indexed.basename === basename && indexed.organization.toLowerCase() === orgKey.toLowerCase()) return indexed;
  if (orgId === undefined) return undefined;
  for (const entry of orgSites.all(tx, orgId)) {
    const site = getSite(tx, entry.id);
    if (site?.basename === basename) return site;
  }
  return undefined;
}

/** Domains a customer's hostname may not be under: GitBook's own (docsctl's published URLs use them). */
const RESERVED = ['gitbook.io', 'gitbook.com', 'gitbook.site'];
const HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * A custom hostname as stored (lower case), or a 400: spec `SiteHostname` (three labels or
 * more, letters, digits and inner hyphens, ≤ 512 characters), a top-level label that is not
 * all digits (no IP address), not `localhost`, not under GitBook's own domains.
 */
export function checkedHostname(raw: string, field = 'hostname'): string {
  const hostname = raw.toLowerCase();
  if (hostname.length > 253 || !HOSTNAME.test(hostname)) {
    throw badRequest(`Invalid ${field} "${raw.slice(0, 100)}": use a DNS name of three labels or more, such as docs.acme.com (letters, digits, inner hyphens)`);
  }
  const labels = hostname.split('.');
  const top = labels[labels.length - 1] as string;
  if (/^[0-9]+$/.test(top)) throw badRequest(`Invalid ${field} "${raw.slice(0, 100)}": an IP address is not a hostname`);
  if (top === 'localhost' || top === 'local' || top === 'internal') throw badRequest(`Invalid ${field} "${raw.slice(0, 100)}": .${top} names are not reachable by visitors`);
  const reserved = RESERVED.find((domain) => hostname === domain || hostname.endsWith(`.${domain}`));
  if (reserved) throw badRequest(`Invalid ${field} "${raw.slice(0, 100)}": names under ${reserved} are GitBook's own; use a domain of yours`);
  return hostname;
}
