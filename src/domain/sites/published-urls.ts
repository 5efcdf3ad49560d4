/**
 * A published URL back to what it shows (0.202 `getPublishedContentByUrl`, and its POST twin
 * `resolvePublishedContentByUrl`): the site, section, site space, space and page path, in the
 * spec's `PublishedSiteContentLookup` shape, or a redirect.
 *
 * The site is found through origins.ts's index, never by scanning sites: the URL's host as a
 * custom hostname; else `host/first segments` as a proxy origin (longest first, up to 8
 * segments); else `<org hostname or lower-case org id>.gitbook.io/<basename>`; docsctl's preview
 * URLs (`…/o/ORG/sites/SITE/preview`, getSitePublishingPreviewById) name the site directly.
 * Below the site's base: a section path (else the default section), a variant path (else the
 * section's default variant), then the page path, looked up in the space's primary content. A
 * path with no page follows the site's live redirects (`{target: 'content', redirect}`), else 404.
 *
 * Who may resolve: the URL is the caller's input, parsed (content/by-url.ts `parseUrlPath`) and never fetched. A member of the
 * site's organization resolves any site (previews and drafts included); anyone else only a
 * published site, and only live sections and variants: `share-link` sites with an active
 * `?share=KEY` of the site, `visitor-auth` sites with a visitor token (`visitorAuthToken`, or
 * `visitor.jwtToken`) signed HS256 with the site's private key (publishing.ts) and not expired
 * (with `redirectOnError`, a missing or bad token answers a redirect to the fallback URL).
 * Everything else is a 404, as for an unknown URL.
 *
 * `apiToken`: a bearer token that reads the resolved space's published content for an hour
 * (read-only, that space only, signed with the store's secret: src/domain/published-tokens.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/site-publishing.js';
import type { StoreReader } from '../../store/types.js';
import { type SpaceRecord, Tables, getOrg } from '../core-records.js';
import { openContent } from '../content/storage.js';
import { parseUrlPath } from '../content/by-url.js';
import { primaryRevision } from '../content/common.js';
import { type Handler, type HandlerContext, implementer } from '../handler.js';
import { roleIn } from '../permissions.js';
import { mintPublishedToken } from '../published-tokens.js';
import { siteByBasename, siteByHostname, siteByProxyOrigin } from './origins.js';
import type { PublishingAuthRecord } from './publishing.js';
import { redirectTargetFor } from './redirects.js';
import { type SiteRecord, type SiteSpaceRecord, SiteTables, getSection, getSite, getSiteSpace, isLive } from './site-records.js';
import { shareKeySite } from './share-links.js';
import { sectionIdsInOrder, siteSpaceIdsOf } from './structure.js';
import { siteBaseUrl, visibleSpace } from './views.js';

const on = implementer<typeof routes>();

interface Located {
  site: SiteRecord;
  /** The path segments of the site's base (a proxy's path, or the basename), and the rest. */
  base: string[];
  rest: string[];
  preview: boolean;
}

/** The site a URL is published under, from the index (a few row reads). */
function locate(tx: StoreReader, url: URL, segments: string[]): Located | undefined {
  const host = url.hostname.toLowerCase();
  // docsctl's preview URL: …/o/ORG/sites/SITE/preview (any host: the app's origin is the server's).
  const at = segments.findIndex((s, i) => s === 'o' && segments[i + 2] === 'sites' && segments[i + 4] === 'preview');
  if (at >= 0) {
    const site = getSite(tx, segments[at + 3] as string);
    if (site && site.organization === segments[at + 1]) return { site, base: segments.slice(0, at + 5), rest: segments.slice(at + 5), preview: true };
  }
  const byHost = siteByHostname(tx, host);
  if (byHost) return { site: byHost, base: [], rest: segments, preview: false };
  for (let n = Math.min(segments.length, 8); n >= 1; n -= 1) {
    const site = siteByProxyOrigin(tx, `${host}/${segments.slice(0, n).join('/')}`);
    if (site) return { site, base: segments.slice(0, n), rest: segments.slice(n), preview: false };
  }
  if (host.endsWith('.gitbook.io') && segments.length > 0) {
    const label = host.slice(0, -'.gitbook.io'.length);
    const orgId = tx.get<string>(Tables.orgsByHostname, label);
    const site = siteByBasename(tx, orgId ?? label, segments[0] as string, orgId);
    if (site) return { site, base: segments.slice(0, 1), rest: segments.slice(1), preview: false };
  }
  return undefined;
}

/** Verifies an HS256 JWT with `key`: its claims when the signature holds and it has not expired, else undefined. */
function verifiedVisitorToken(token: string, key: string, now: Date): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > 8192) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  try {
    const alg = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
    if (alg !== 'HS256') return undefined;
    const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= now.getTime()) return undefined;
    return claims;
  } catch {
    return undefined;
  }
}

/** A live-or-preview site space of `owner` (a section, or the site's root) named by `segment`, else its default. */
function variantOf(tx: StoreReader, owner: string, defaultId: string | undefined, segment: string | undefined, drafts: boolean) {
  const usable = (siteSpace: SiteSpaceRecord | undefined): siteSpace is SiteSpaceRecord => !!siteSpace && (drafts || isLive(tx, siteSpace)) && visibleSpace(tx, siteSpace) !== undefined;
  const ids = siteSpaceIdsOf(tx, owner);
  if (segment !== undefined) {
    for (const id of ids) {
      const siteSpace = getSiteSpace(tx, id);
      if (usable(siteSpace) && siteSpace.path === segment && id !== defaultId) return { siteSpace, consumed: 1 };
    }
  }
  const fallback = [defaultId, ...ids].map((id) => (id === undefined ? undefined : getSiteSpace(tx, id))).find(usable);
  return fallback ? { siteSpace: fallback, consumed: 0 } : undefined;
}

function resolve(ctx: HandlerContext, raw: string, visitor: { token?: string | undefined; redirectOnError?: boolean | undefined }) {
  const { url, segments } = parseUrlPath(raw, 'a published URL such as https://docs.acme.com/guide/install');
  const found = locate(ctx.tx, url, segments);
  const gone = () => notFound(`No published content at ${url.origin}${url.pathname.slice(0, 200)}`);
  if (!found) throw gone();
  const { site } = found;
  const member = roleIn(ctx.tx, site.organization, ctx.actor.userId) !== undefined;
  const drafts = member && found.preview;
  let shareKey: string | undefined;
  if (!member) {
    if (!site.published || found.preview) throw gone();
    if (site.visibility === 'share-link') {
      shareKey = url.searchParams.get('share') ?? undefined;
      if (shareKey === undefined || shareKeySite(ctx.tx, shareKey) !== site.id) throw gone();
    } else if (site.visibility === 'visitor-auth') {
      const auth = ctx.tx.get<PublishingAuthRecord>(SiteTables.publishingAuth, site.id);
      const ok = auth !== undefined && visitor.token !== undefined && verifiedVisitorToken(visitor.token, auth.privateKey, ctx.clock()) !== undefined;
      if (!ok) {
        if (visitor.redirectOnError === true && auth?.fallbackURL !== undefined) return { target: 'application' as const, redirect: auth.fallbackURL };
        throw new ApiError(401, `Site ${site.id} needs a visitor token signed with its private key (visitorAuthToken): none was given, or it is invalid or expired`);
      }
    }
  }
  const rest = [...found.rest];
  // The section: a non-default one named by the next segment, else the default.
  const sections = sectionIdsInOrder(ctx.tx, site.id).map((id) => getSection(ctx.tx, id)).filter((s) => s !== undefined && (drafts || isLive(ctx.tx, s)));
  let section = sections.find((s) => s?.id !== site.defaultSection && s?.path === rest[0]);
  if (section) rest.shift();
  else section = sections.find((s) => s?.id === site.defaultSection) ?? sections[0];
  const variant = section ? variantOf(ctx.tx, section.id, section.defaultSiteSpace, rest[0], drafts) : variantOf(ctx.tx, site.id, site.defaultSiteSpace, rest[0], drafts);
  if (!variant) throw gone();
  const consumed = rest.splice(0, variant.consumed);
  const space = visibleSpace(ctx.tx, variant.siteSpace) as SpaceRecord;
  const pathname = rest.join('/');
  const revision = primaryRevision(ctx.tx, space);
  if (pathname !== '') {
    const page = openContent(ctx.tx, revision).findByPath(pathname);
    if (!page || page.page.type === 'link') {
      const target = redirectTargetFor(ctx, site, `/${[...found.rest].join('/')}`);
      if (target !== undefined) return { target: 'content' as const, redirect: target };
      throw notFound(`No page at path "${pathname}" in site space ${variant.siteSpace.id} (space ${space.id}) of site ${site.id}`);
    }
  }
  const join = (parts: string[]) => (parts.length === 0 ? '/' : `/${parts.map(encodeURIComponent).join('/')}/`);
  const siteBase = found.base;
  const basePath = [...siteBase, ...(section && section.id !== (sections.find((s) => s?.id === site.defaultSection) ?? sections[0])?.id ? [section.path] : []), ...consumed];
  const published = siteBaseUrl(ctx.tx, site);
  const sitePart = basePath.slice(siteBase.length);
  const canonicalUrl = `${published}${join(sitePart)}${pathname === '' ? '' : pathname.split('/').map(encodeURIComponent).join('/')}`;
  const org = getOrg(ctx.tx, site.organization);
  const apiToken = mintPublishedToken(ctx.tx, { site: site.id, space: space.id, organization: site.organization }, ctx.clock()) ?? '';
  return {
    site: site.id,
    ...(section ? { siteSection: section.id } : {}),
    siteSpace: variant.siteSpace.id,
    space: space.id,
    ...(found.preview ? { revision: revision.id, preview: true } : {}),
    pathname,
    basePath: join(basePath),
    siteBasePath: join(siteBase),
    apiToken,
    organization: org?.id ?? site.organization,
    ...(shareKey !== undefined ? { shareKey } : {}),
    complete: true,
    canonicalUrl,
  };
}

export const publishedUrlHandlers: Record<string, Handler> = {
  ...on('getPublishedContentByUrl', (ctx, { query }) => resolve(ctx, query.url, { token: query.visitorAuthToken, redirectOnError: query.redirectOnError })),
  ...on('resolvePublishedContentByUrl', (ctx, { body }) => resolve(ctx, body.url, { token: body.visitor?.jwtToken, redirectOnError: body.redirectOnError })),
};
