/**
 * External links of a site (0.202 `SiteExternalLink`): a URL shown among the sections and
 * section groups, at the top level or in a group. One row per link (`siteExternalLinks`), its
 * place one entry of `siteStructure` (the ordered tree sections and groups share), so
 * the structure, a group's `children` and the published site list it where it stands.
 *
 * Rules decided here:
 * - Only a site with sections has a structure to put a link in (400 otherwise, as the
 *   real API answers for a "simple structure").
 * - The URL is stored, never fetched: an absolute http(s) URL without credentials,
 *   kept as the WHATWG parser serialises it (mcp-servers.ts `checkedServerUrl`).
 * - A draft link is listed to the site's editors and left out of what is published.
 * - Deleting a group puts its links back at the top level with its sections; deleting
 *   the site deletes them (structure.ts).
 */
import { badRequest, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/site-structure.js';
import type { StoreReader } from '../../store/types.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { apiUrl } from '../urls.js';
import { siteAccess } from './access.js';
import { parseHttpUrl } from '../http-url.js';
import { redactUrls } from '../../util/redact.js';
import { type ExternalLinkRecord, type SiteRecord, SiteTables, getExternalLink, requireGroup, structure, structureOwner } from './site-records.js';
import { childrenOf, reparent } from './structure.js';
import { externalLinkView } from './views.js';

const on = implementer<typeof routes>();

/** An absolute http(s) URL without credentials (every visitor sees it), as the WHATWG parser serialises it. */
function checkedLinkUrl(raw: string): string {
  const url = parseHttpUrl(raw);
  if (url.username !== '' || url.password !== '') throw badRequest(`Invalid URL ${redactUrls(raw)}: it holds credentials, which every visitor of the site would see`);
  return url.href;
}

function requireLink(tx: StoreReader, site: SiteRecord, id: string): ExternalLinkRecord {
  const link = getExternalLink(tx, id);
  if (!link || link.site !== site.id) throw notFound(`External link ${id} not found in site ${site.id}`);
  return link;
}

function location(origin: string, site: SiteRecord, id: string): string {
  const seg = encodeURIComponent;
  return apiUrl(origin, `orgs/${seg(site.organization)}/sites/${seg(site.id)}/external-links/${seg(id)}`);
}

/** The optional fields of a create or update, `null` removing one. */
function optionalFields(body: {
  description?: string | null | undefined;
  localizedDescription?: Record<string, string> | null | undefined;
  localizedTitle?: Record<string, string> | null | undefined;
  icon?: string | null | undefined;
  condition?: string | null | undefined;
}): { set: Partial<ExternalLinkRecord>; unset: Array<keyof ExternalLinkRecord> } {
  const set: Partial<ExternalLinkRecord> = {};
  const unset: Array<keyof ExternalLinkRecord> = [];
  for (const key of ['description', 'localizedDescription', 'localizedTitle', 'icon', 'condition'] as const) {
    const value = body[key];
    if (value === null) unset.push(key);
    else if (value !== undefined) (set as Record<string, unknown>)[key] = value;
  }
  return { set, unset };
}

export const externalLinkHandlers: Record<string, Handler> = {
  ...on('addExternalLinkToSite', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    if (childrenOf(ctx.tx, site.id).length === 0) {
      throw badRequest(`Site ${site.id} has a simple structure (site spaces, no sections): add a section first (docsctl site section add ${site.id} SPACE)`);
    }
    if (body.parent !== undefined) requireGroup(ctx.tx, site, body.parent);
    const { set } = optionalFields(body);
    const link: ExternalLinkRecord = {
      id: ctx.ids(),
      site: site.id,
      title: body.title,
      url: checkedLinkUrl(body.url),
      ...(body.parent !== undefined ? { group: body.parent } : {}),
      ...(body.draft === true ? { draft: true } : {}),
      ...set,
      createdAt: ctx.clock().toISOString(),
    };
    ctx.tx.put(SiteTables.externalLinks, link.id, link);
    structure.insert(ctx.tx, structureOwner(site.id, link.group), link.id, { type: 'site-external-link' });
    return new Reply(201, externalLinkView(link), { Location: location(ctx.origin, site, link.id) });
  }),

  ...on('updateSiteExternalLinkById', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const link = requireLink(ctx.tx, site, params.siteExternalLinkId);
    if (Object.values(body).every((value) => value === undefined)) {
      throw badRequest('Nothing to update: pass at least one of title, url, description, icon, condition, parent, draft, localizedTitle, localizedDescription');
    }
    if (body.parent !== undefined && body.parent !== null) requireGroup(ctx.tx, site, body.parent);
    const { set, unset } = optionalFields(body);
    const next: ExternalLinkRecord = {
      ...link,
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.url !== undefined ? { url: checkedLinkUrl(body.url) } : {}),
      ...set,
    };
    for (const key of unset) delete next[key];
    if (body.draft !== undefined) {
      if (body.draft) next.draft = true;
      else delete next.draft;
    }
    ctx.tx.put(SiteTables.externalLinks, link.id, next);
    const to = body.parent === undefined ? link.group : (body.parent ?? undefined);
    if (to !== link.group) reparent(ctx.tx, site, { type: 'site-external-link', id: link.id }, link.group, to);
    return externalLinkView(getExternalLink(ctx.tx, link.id) ?? next);
  }),

  ...on('deleteSiteExternalLinkById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const link = getExternalLink(ctx.tx, params.siteExternalLinkId);
    if (!link || link.site !== site.id) return nothingToDelete();
    structure.remove(ctx.tx, structureOwner(site.id, link.group), link.id);
    ctx.tx.delete(SiteTables.externalLinks, link.id);
    return deleted();
  }),
};
