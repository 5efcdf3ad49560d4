/**
 * API doc §4.7: share links of a `share-link` site. The secret key is generated
 * here, shown once in the create answer (inside `urls.published`) and kept only
 * as its SHA-256, so no later answer, listing or store file carries it.
 *
 * Rules decided here:
 * - Creating a share link needs the `sites-share-links` feature and a site whose
 *   visibility is `share-link` (409 otherwise, naming the command that fixes it).
 * - An inactive link stays listed; its key no longer opens the site (`shareKey`).
 */
import { badRequest, conflict } from '../../api/errors.js';
import type * as routes from '../../api/routes/sites.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { notFound } from '../../api/errors.js';
import { siteAccess } from './access.js';
import { requireFeature } from './features.js';
import type { StoreReader } from '../../store/types.js';
import { type ShareLinkRecord, type SiteRecord, SiteTables, hashShareKey, shareLinks } from './site-records.js';
import { shareLinkView, siteBaseUrl } from './views.js';

const on = implementer<typeof routes>();

/** The site of an active share key, or undefined. */
export function shareKeySite(tx: StoreReader, key: string): string | undefined {
  const ref = tx.get<string>(SiteTables.shareKeys, hashShareKey(key));
  if (ref === undefined) return undefined;
  const [siteId, linkId] = ref.split('/') as [string, string];
  return shareLinks.get(tx, siteId, linkId)?.active ? siteId : undefined;
}

/** 400 unless `key` (when given) is an active share link of the site. */
export function checkShareKey(tx: StoreReader, site: SiteRecord, key: string | undefined): void {
  if (key !== undefined && shareKeySite(tx, key) !== site.id) {
    throw badRequest(`Invalid shareKey: it is not an active share link of site ${site.id}`);
  }
}

export const shareLinkHandlers: Record<string, Handler> = {
  ...on('listSiteShareLinks', (ctx, { params, query }) => {
    const { site } = siteAccess(ctx, params);
    if (query.search === undefined) return shareLinks.page(ctx.tx, site.id, query, (entry) => shareLinkView(entry.value));
    // A site has a handful of share links: the filtered count reads them all, a page only its own.
    const text = query.search.toLowerCase();
    const keyHash = hashShareKey(query.search);
    const matches = (link: ShareLinkRecord) => link.keyHash === keyHash || (link.name ?? '').toLowerCase().includes(text);
    const count = shareLinks.all(ctx.tx, site.id).filter((entry) => matches(entry.value)).length;
    return shareLinks.page(ctx.tx, site.id, query, (entry) => (matches(entry.value) ? shareLinkView(entry.value) : undefined), count);
  }),

  ...on('createSiteShareLink', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    requireFeature(site, 'sites-share-links', 'have share links');
    if (site.visibility !== 'share-link') {
      throw conflict(
        `Site ${site.id} has ${site.visibility} visibility; share links work only with share-link visibility ` +
          `(docsctl site edit ${site.id} --visibility share-link)`,
      );
    }
    // Two ids (≈ 240 random bits in production); handlers take randomness from ctx.ids only.
    const key = `${ctx.ids()}${ctx.ids()}`;
    const link: ShareLinkRecord = {
      id: ctx.ids(),
      ...(body.name !== '' ? { name: body.name } : {}),
      active: true,
      createdAt: ctx.clock().toISOString(),
      keyHash: hashShareKey(key),
    };
    shareLinks.insert(ctx.tx, site.id, link.id, link);
    ctx.tx.put(SiteTables.shareKeys, link.keyHash, `${site.id}/${link.id}`);
    return new Reply(201, shareLinkView(link, `${siteBaseUrl(ctx.tx, site)}/?share=${key}`));
  }),

  ...on('updateSiteShareLinkById', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const link = shareLinks.get(ctx.tx, site.id, params.shareLinkId);
    if (!link) throw notFound(`Share link ${params.shareLinkId} not found in site ${site.id}`);
    if (body.active === undefined && body.name === undefined) throw badRequest('Nothing to update: pass active and/or name');
    const { name: _name, ...rest } = link;
    const name = body.name === undefined ? link.name : body.name === '' ? undefined : body.name;
    const next: ShareLinkRecord = { ...rest, ...(name !== undefined ? { name } : {}), active: body.active ?? link.active };
    shareLinks.update(ctx.tx, site.id, link.id, next);
    return shareLinkView(next);
  }),

  ...on('deleteSiteShareLinkById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const link = shareLinks.get(ctx.tx, site.id, params.shareLinkId);
    if (!link) return nothingToDelete();
    shareLinks.remove(ctx.tx, site.id, link.id);
    ctx.tx.delete(SiteTables.shareKeys, link.keyHash);
    return deleted();
  }),
};
