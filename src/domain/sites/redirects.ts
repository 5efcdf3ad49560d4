/**
 * Site redirects (real API, `site-redirects`): a path of a site that leads to one of
 * its sections, site spaces or pages. One row per redirect (`redirects` for the live
 * ones, `draftRedirects` for drafts: KeyedSets per site) and one index row per source
 * (`siteRedirectSources`, `${siteId}/${sha256(source)}` → id, drafts under
 * `${siteId}/draft:${sha256(source)}`), so a create checks its source and a lookup by
 * source reads one row, however many redirects the site has.
 *
 * Rules decided here:
 * - A source is compared in its normal form (RFC 3986 §6.2.2): percent-encodings in
 *   upper case, encoded unreserved characters decoded (`/%7Euser` is `/~user`). The
 *   route refuses what the real API's pattern refuses (no trailing "/", no empty
 *   segment, no query or fragment, other characters percent-encoded, 512 characters).
 *   Here "." and ".." segments (browsers resolve them before asking, so such a
 *   redirect would never apply) and encoded control characters are refused too.
 * - Two live redirects of a site never share a source, nor two drafts: 409 naming the
 *   one that has it. A draft may prepare a change of a live redirect's source (0.202's
 *   "source + intent"): making it live (`draft: false`) needs the live one gone first.
 * - Drafts are not live: listed only with `draft=true`, never resolved.
 * - A source ending in `*` (`/old/*`, `/old*`; 0.202's pattern) matches every path it
 *   is a prefix of (`/old/*` also matches `/old` itself); an exact source wins, then the
 *   longest prefix. With `captureWildcard` the part the `*` matched is appended to the
 *   destination's URL (`/old/*` → section API: `/old/a/b` → `…/api/a/b`).
 * - `permanent` is stored and answered: whoever serves the site's traffic answers 308
 *   for a permanent live redirect and 307 otherwise (0.202's SiteRedirect.permanent:
 *   "308 for public live traffic and 307 in non-public contexts"; GitBook's renderer
 *   uses 307 for temporary ones). `redirectStatus` says which.
 * - Listing order (0.202 `orderBy`): `createdAt` (the default) newest first, read in
 *   reverse key order; `updatedAt` (newest first) and `source` (alphabetical) sort the
 *   site's redirects of the asked kind in memory (bounded by what the site holds).
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
import type * as structureRoutes from '../../api/routes/site-structure.js';
import { ApiError } from '../../api/errors.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { openContent } from '../content/storage.js';
import { primaryRevision } from '../content/common.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { type PageQuery, countRows, itemsOf, paginate, rowsOf } from '../pagination.js';
import { getSpace } from '../core-records.js';
import { siteAccess } from './access.js';
import {
  type RedirectDestination,
  type RedirectRecord,
  type SiteRecord,
  type SiteSpaceRecord,
  SiteTables,
  draftRedirects,
  getSection,
  getSiteSpace,
  isLive,
  redirects,
  requireSection,
  requireSiteSpace,
} from './site-records.js';
import { checkShareKey } from './share-links.js';
import { type SiteViewContext, sectionUrl, siteBaseUrl, visibleSpace } from './views.js';

const on = implementer<typeof routes>();
const onStructure = implementer<typeof structureRoutes>();

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

const sourceKey = (siteId: string, source: string, draft = false) =>
  `${siteId}/${draft ? 'draft:' : ''}${createHash('sha256').update(source).digest('hex')}`;

/** The set a redirect's row lives in. */
const setOf = (draft: boolean | undefined) => (draft === true ? draftRedirects : redirects);

/** The HTTP status a redirect is served with (see the rules above): 308 when permanent and live, else 307. */
export function redirectStatus(redirect: Pick<RedirectRecord, 'permanent' | 'draft'>, publicLive: boolean): 307 | 308 {
  return redirect.permanent === true && redirect.draft !== true && publicLive ? 308 : 307;
}

/** The destination URL with what a wildcard matched appended (`suffix` empty: the URL as it is). */
function withSuffix(target: string, suffix: string): string {
  const rest = suffix.replace(/^\/+/, '');
  return rest === '' ? target : `${target.replace(/\/+$/, '')}/${rest}`;
}

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
    return section && section.site === site.id && isLive(view.tx, section) ? `${sectionUrl(view, site, section)}/` : undefined;
  }
  const siteSpace = getSiteSpace(view.tx, destination.siteSpaceId);
  if (!siteSpace || siteSpace.site !== site.id || !visibleSpace(view.tx, siteSpace) || !isLive(view.tx, siteSpace)) return undefined;
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

/** A redirect of the site, live or draft. */
function findRedirect(tx: StoreReader, siteId: string, id: string): RedirectRecord | undefined {
  return redirects.get(tx, siteId, id) ?? draftRedirects.get(tx, siteId, id);
}

function requireRedirect(tx: StoreReader, site: SiteRecord, id: string): RedirectRecord {
  const redirect = findRedirect(tx, site.id, id);
  if (!redirect) throw notFound(`Site redirect ${id} not found in site ${site.id}`);
  return redirect;
}

/** 409 when another redirect of the site (live, or draft for a draft) has this source. */
function claimSource(tx: StoreWriter, site: SiteRecord, source: string, id: string, draft: boolean): void {
  const key = sourceKey(site.id, source, draft);
  const holder = tx.get<string>(SiteTables.redirectSources, key);
  if (holder !== undefined && holder !== id) {
    const what = draft ? 'a draft redirect' : 'a redirect';
    throw conflict(`Site ${site.id} already has ${what} from ${source} (${holder}); change or delete that one`);
  }
  tx.put(SiteTables.redirectSources, key, id);
}

function removeRedirect(tx: StoreWriter, siteId: string, redirect: RedirectRecord): void {
  tx.delete(SiteTables.redirectSources, sourceKey(siteId, redirect.source, redirect.draft === true));
  setOf(redirect.draft).remove(tx, siteId, redirect.id);
}

/** Deletes every redirect of a site (the site is being deleted). */
export function removeSiteRedirects(tx: StoreWriter, siteId: string): void {
  for (const set of [redirects, draftRedirects]) {
    for (const { value } of set.all(tx, siteId)) removeRedirect(tx, siteId, value);
  }
}

/**
 * The live redirect a request path leads through: the one of that exact source, else the
 * wildcard source that is its longest prefix (`/a/b/c` tries `/a/b/c/*`, `/a/b/c*`, `/a/b/*`,
 * `/a/b*`, … : one indexed read each, at most 2 per character of a 512-character path),
 * with what its `*` matched.
 */
function liveRedirectFor(tx: StoreReader, siteId: string, source: string): { redirect: RedirectRecord; suffix: string } | undefined {
  const lookup = (candidate: string) => {
    const id = tx.get<string>(SiteTables.redirectSources, sourceKey(siteId, candidate));
    return id === undefined ? undefined : redirects.get(tx, siteId, id);
  };
  const exact = lookup(source);
  if (exact) return { redirect: exact, suffix: '' };
  if (source.endsWith('*')) return undefined;
  const under = lookup(`${source}/*`);
  if (under) return { redirect: under, suffix: '' };
  for (let end = source.length; end > 1; end -= 1) {
    const found = lookup(`${source.slice(0, end)}*`);
    if (found) return { redirect: found, suffix: source.slice(end) };
  }
  return undefined;
}

/** Where a request path of the site leads through its live redirects (undefined: no redirect, or its destination is gone). */
export function redirectTargetFor(ctx: { tx: StoreReader; origin: string }, site: SiteRecord, path: string, view: SiteViewContext = { tx: ctx.tx, origin: ctx.origin, role: null }): string | undefined {
  let source: string;
  try {
    source = normaliseSource(path);
  } catch {
    return undefined;
  }
  const found = liveRedirectFor(ctx.tx, site.id, source);
  const target = found && targetOf(view, site, found.redirect.destination);
  if (!found || target === undefined) return undefined;
  return found.redirect.captureWildcard === true ? withSuffix(target, found.suffix) : target;
}

type RedirectOrder = 'createdAt' | 'updatedAt' | 'source';

/** A page of the site's live or draft redirects in the asked order, filtered by `search` (a part of the source, any case). */
function listRedirects(tx: StoreReader, siteId: string, query: PageQuery & { search?: string | undefined; draft?: boolean | undefined; orderBy?: RedirectOrder | undefined }) {
  const set = setOf(query.draft);
  const search = query.search?.toLowerCase();
  const matches = (redirect: RedirectRecord) => search === undefined || redirect.source.toLowerCase().includes(search);
  const order = query.orderBy ?? 'createdAt';
  if (order === 'createdAt') {
    const prefix = `${siteId}/`;
    const count = search === undefined ? set.count(tx, siteId) : countRows<RedirectRecord>(tx, set.table, prefix, matches);
    return paginate(rowsOf<RedirectRecord>(tx, set.table, prefix, { reverse: true }), query, (value) => (matches(value) ? redirectView(value) : undefined), count);
  }
  const sorted = set.all(tx, siteId).map((entry) => entry.value).filter(matches);
  if (order === 'source') sorted.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  else sorted.sort((a, b) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : a.updatedAt < b.updatedAt ? 1 : -1));
  return paginate(itemsOf(sorted), query, (value) => redirectView(value));
}

export const redirectHandlers: Record<string, Handler> = {
  ...on('listSiteRedirects', (ctx, { params, query }) => {
    const { site } = siteAccess(ctx, params);
    return listRedirects(ctx.tx, site.id, query);
  }),

  ...on('createSiteRedirect', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const source = checkedSource(body.source);
    const destination = checkedDestination(view, site, body.destination, source);
    const now = ctx.clock().toISOString();
    const redirect: RedirectRecord = {
      id: ctx.ids(),
      source,
      destination,
      ...(body.draft === true ? { draft: true } : {}),
      ...(body.captureWildcard === true ? { captureWildcard: true } : {}),
      ...(body.permanent === true ? { permanent: true } : {}),
      createdAt: now,
      updatedAt: now,
    };
    claimSource(ctx.tx, site, source, redirect.id, redirect.draft === true);
    setOf(redirect.draft).put(ctx.tx, site.id, redirect.id, redirect);
    return new Reply(201, redirectView(redirect));
  }),

  ...on('getSiteRedirectBySource', (ctx, { params, query }) => {
    const { site, view } = siteAccess(ctx, params);
    checkShareKey(ctx.tx, site, query.shareKey);
    const source = normaliseSource(query.source);
    const found = liveRedirectFor(ctx.tx, site.id, source);
    if (!found) throw notFound(`No redirect from ${source} in site ${site.id}`);
    const { redirect } = found;
    const target = targetOf(view, site, redirect.destination);
    if (target === undefined) {
      throw notFound(
        `Redirect ${redirect.id} from ${redirect.source} leads to ${describe(redirect.destination)}, which no longer exists, is hidden or is a draft; ` +
          `point it elsewhere (docsctl site redirect edit ${site.id} ${redirect.id}) or delete it`,
      );
    }
    return { redirect: redirectView(redirect), target: redirect.captureWildcard === true ? withSuffix(target, found.suffix) : target };
  }),

  ...on('updateSiteRedirectById', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const redirect = requireRedirect(ctx.tx, site, params.siteRedirectId);
    if (Object.values(body).every((value) => value === undefined)) {
      throw badRequest('Nothing to update: pass source, destination, draft, captureWildcard and/or permanent');
    }
    const source = body.source === undefined ? redirect.source : checkedSource(body.source);
    const destination = checkedDestination(view, site, body.destination ?? redirect.destination, source);
    const wasDraft = redirect.draft === true;
    const draft = body.draft ?? wasDraft;
    if (source !== redirect.source || draft !== wasDraft) {
      // Made live (or draft) or renamed: the source moves to the other index, or to its new key.
      claimSource(ctx.tx, site, source, redirect.id, draft);
      ctx.tx.delete(SiteTables.redirectSources, sourceKey(site.id, redirect.source, wasDraft));
    }
    const flag = (value: boolean | undefined, was: boolean | undefined) => ((value ?? was) === true ? true : undefined);
    const next: RedirectRecord = {
      id: redirect.id,
      source,
      destination,
      ...(draft ? { draft: true } : {}),
      ...(flag(body.captureWildcard, redirect.captureWildcard) ? { captureWildcard: true } : {}),
      ...(flag(body.permanent, redirect.permanent) ? { permanent: true } : {}),
      createdAt: redirect.createdAt,
      updatedAt: ctx.clock().toISOString(),
    };
    if (draft !== wasDraft) setOf(wasDraft).remove(ctx.tx, site.id, redirect.id);
    setOf(draft).put(ctx.tx, site.id, redirect.id, next);
    return redirectView(next);
  }),

  ...on('deleteSiteRedirectById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const redirect = findRedirect(ctx.tx, site.id, params.siteRedirectId);
    if (!redirect) return nothingToDelete();
    removeRedirect(ctx.tx, site.id, redirect);
    return deleted();
  }),
};

/** One row of `bulkUpsertSiteRedirects`' body. */
type BulkRow =
  | { source: string; intent: 'publish' }
  | { source: string; intent?: 'live' | 'draft' | undefined; captureWildcard?: boolean | undefined; permanent?: boolean | undefined; destination: RedirectDestination | null };

type BulkResult =
  | { status: 'created' | 'updated' | 'published'; source: string; draft: boolean; id: string }
  | { status: 'deleted'; source: string; draft: boolean }
  | { status: 'error'; source: string; draft: boolean; error: string };

/** The redirect of the site from `source` (normalised), live or draft. */
function redirectFrom(tx: StoreReader, siteId: string, source: string, draft: boolean): RedirectRecord | undefined {
  const id = tx.get<string>(SiteTables.redirectSources, sourceKey(siteId, source, draft));
  return id === undefined ? undefined : setOf(draft).get(tx, siteId, id);
}

/** Makes the draft redirect from `source` live, replacing a live one from the same source. */
function publishDraft(tx: StoreWriter, site: SiteRecord, source: string, now: string): BulkResult {
  const draft = redirectFrom(tx, site.id, source, true);
  if (!draft) return { status: 'error', source, draft: true, error: `No draft redirect from ${source} to publish` };
  const live = redirectFrom(tx, site.id, source, false);
  if (live) removeRedirect(tx, site.id, live);
  removeRedirect(tx, site.id, draft);
  const { draft: _draft, ...rest } = draft;
  const published: RedirectRecord = { ...rest, updatedAt: now };
  claimSource(tx, site, source, published.id, false);
  redirects.put(tx, site.id, published.id, published);
  return { status: 'published', source, draft: false, id: published.id };
}

/** One row: created, updated, deleted (destination null) or published; nothing is written for a row that fails. */
function upsertRow(ctx: { tx: StoreWriter; ids: () => string }, view: SiteViewContext, site: SiteRecord, row: BulkRow, now: string): BulkResult {
  const source = checkedSource(row.source);
  if (row.intent === 'publish') return publishDraft(ctx.tx, site, source, now);
  const draft = row.intent === 'draft';
  const existing = redirectFrom(ctx.tx, site.id, source, draft);
  if (row.destination === null) {
    if (!existing) return { status: 'error', source, draft, error: `No ${draft ? 'draft ' : ''}redirect from ${source} to delete` };
    removeRedirect(ctx.tx, site.id, existing);
    return { status: 'deleted', source, draft };
  }
  const destination = checkedDestination(view, site, row.destination, source);
  const flags = {
    ...(draft ? { draft: true as const } : {}),
    ...((row.captureWildcard ?? existing?.captureWildcard) === true ? { captureWildcard: true as const } : {}),
    ...((row.permanent ?? existing?.permanent) === true ? { permanent: true as const } : {}),
  };
  if (existing) {
    const next: RedirectRecord = { id: existing.id, source, destination, ...flags, createdAt: existing.createdAt, updatedAt: now };
    setOf(draft).put(ctx.tx, site.id, existing.id, next);
    return { status: 'updated', source, draft, id: existing.id };
  }
  const created: RedirectRecord = { id: ctx.ids(), source, destination, ...flags, createdAt: now, updatedAt: now };
  claimSource(ctx.tx, site, source, created.id, draft);
  setOf(draft).put(ctx.tx, site.id, created.id, created);
  return { status: 'created', source, draft, id: created.id };
}

export const bulkRedirectHandlers: Record<string, Handler> = {
  /**
   * Up to 500 rows (the route's bound) in one transaction, in order (a later row of the same
   * source sees the earlier one). A row that fails (a missing destination, a bad source) is
   * reported as `error` with nothing of it written; the others apply.
   */
  ...onStructure('bulkUpsertSiteRedirects', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const now = ctx.clock().toISOString();
    const results = body.redirects.map((row): BulkResult => {
      try {
        return upsertRow(ctx, view, site, row, now);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return { status: 'error', source: row.source, draft: row.intent === 'draft', error: error.message };
      }
    });
    return { results };
  }),
};
