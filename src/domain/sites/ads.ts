/**
 * The site ads program (0.202 tag `site-ads`): a site's admin submits it with a topic
 * (`updateSiteAdsById`), the ad partner lists what waits for it and accepts, rejects or
 * sends it back (`adsListSites`, `adsUpdateSite`, authenticated by `X-GitBook-Partner-Key`
 * on top of the bearer token). A site's state is its record's `ads` (absent: `pending`),
 * shown as the Site's `ads` field (`siteAdsView`); `siteAdsByStatus` lists the sites of
 * each state for the partner (one row per site: no write rewrites a list).
 *
 * The spec gives the states, not the moves between them; docsctl decides (each refused move
 * is a 409 naming the state and the command that gets there):
 * - the site's admin: `in-review` (needs a topic, given or kept) from `pending` when the site
 *   is `submittable`, from `rejected` (resubmitting) or `disabled` (re-enabling goes back
 *   through review); a topic alone changes the topic of a site in review, live or disabled;
 *   `disabled` only from `live` (zone kept). Asking for the state the site is in changes nothing.
 * - `submittable` (the `pending` variant's field): the site is published, public (ads are for
 *   anonymous visitors: unlisted, share-link and visitor-auth sites have none to show them to)
 *   and its plan has the `sites-ads` feature (features.ts: every plan).
 * - the partner: `live` (zoneId, reportingId) from `in-review`, or from `live` (a new zone);
 *   `rejected` from `in-review` or `live`; `pending` from any state (the site starts over).
 * The partner's key is the store's (`setAdsPartnerKey`, kept as SHA-256, compared in constant
 * time); no key given: 401, a wrong key or none set: 403.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/sites.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { type Handler, type HandlerContext, implementer } from '../handler.js';
import { getUser, listedMember, orgMemberList } from '../core-records.js';
import { siteAccess } from './access.js';
import { notSubmittable, submittable } from './ads-view.js';
import { type SiteAdsRecord, type SiteAdsTopic, type SiteRecord, SiteTables, getSite, putSite, sitesByAdsStatus } from './site-records.js';
import { siteBaseUrl } from './views.js';

const on = implementer<typeof routes>();

const PARTNER_KEY_ROW = 'key';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** Admits the ad partner: the request's `X-GitBook-Partner-Key` must be the store's key. */
function requirePartner(ctx: HandlerContext): void {
  const given = ctx.actor.partnerKey;
  if (given === undefined || given === '') {
    throw new ApiError(401, 'Missing X-GitBook-Partner-Key header (the ad partner\'s key; docsctl sends DOCSCTL_ADS_PARTNER_KEY)');
  }
  const stored = ctx.tx.get<string>(SiteTables.adsPartner, PARTNER_KEY_ROW);
  if (stored === undefined) throw forbidden('This server has no ad partner key (its owner sets one: docsctl ads partner-key set)');
  // Digests of equal length, compared in constant time: the answer's timing tells nothing of the key.
  if (!timingSafeEqual(sha256(given), Buffer.from(stored, 'hex'))) throw forbidden('Invalid X-GitBook-Partner-Key');
}

/** Moves a site to a new ads state: its record and the partner's list of each state, one row each. */
function setAds(tx: StoreWriter, site: SiteRecord, ads: SiteAdsRecord | undefined): void {
  if (site.ads !== undefined) sitesByAdsStatus.remove(tx, site.ads.status, site.id);
  if (ads !== undefined) sitesByAdsStatus.put(tx, ads.status, site.id, null);
  const { ads: _old, ...rest } = site;
  putSite(tx, ads === undefined ? rest : { ...rest, ads });
}

/** Deleting a site takes it out of the partner's lists. */
export function removeSiteAds(tx: StoreWriter, site: SiteRecord): void {
  if (site.ads !== undefined) sitesByAdsStatus.remove(tx, site.ads.status, site.id);
}

/**
 * The contact of a site for the ad partner: its organization's first admin in join order (the
 * member who created it, unless they left), else its first member. Reads a bounded head of the
 * member list, never the whole of it.
 */
function contactEmail(tx: StoreReader, orgId: string, cache: Map<string, string>): string {
  const known = cache.get(orgId);
  if (known !== undefined) return known;
  const head = orgMemberList.head(tx, orgId, 64);
  const admin = head.find((row) => listedMember(tx, orgId, row)?.role === 'admin') ?? head[0];
  const email = admin === undefined ? '' : (admin.value?.user.email ?? getUser(tx, admin.id)?.email ?? '');
  cache.set(orgId, email);
  return email;
}

function userMove(site: SiteRecord, status: 'in-review' | 'disabled' | undefined, topic: SiteAdsTopic | undefined, now: string): SiteAdsRecord | undefined {
  const ads = site.ads;
  const current = ads?.status ?? 'pending';
  if (status === 'disabled') {
    if (current === 'disabled') return topic === undefined ? undefined : { ...(ads as SiteAdsRecord), topic, updatedAt: now };
    if (current !== 'live') throw conflict(`Ads of site ${site.id} are ${current}; only live ads can be disabled`);
    return { ...(ads as SiteAdsRecord), status: 'disabled', ...(topic !== undefined ? { topic } : {}), updatedAt: now };
  }
  if (status === 'in-review') {
    if (current === 'live') throw conflict(`Ads of site ${site.id} are live; disable them first (--status disabled), or change the topic alone (--topic)`);
    if (current === 'pending' && !submittable(site)) throw conflict(`Site ${site.id} cannot be submitted to the ads program: ${notSubmittable(site)}`);
    const chosen = topic ?? (current === 'pending' ? undefined : ads?.topic);
    if (chosen === undefined) throw badRequest('Submitting a site to the ads program needs a topic (--topic webdev|crypto)');
    if (current === 'in-review' && chosen === ads?.topic) return undefined;
    return { status: 'in-review', topic: chosen, updatedAt: now };
  }
  // A topic alone.
  if (topic === undefined) throw badRequest('Nothing to change: give status and/or topic');
  if (current === 'pending' || current === 'rejected') {
    throw conflict(`Ads of site ${site.id} are ${current}: a topic alone does not submit it (add --status in-review)`);
  }
  return topic === ads?.topic ? undefined : { ...(ads as SiteAdsRecord), topic, updatedAt: now };
}

type PartnerBody = { status: 'live' | 'rejected' | 'pending'; zoneId?: string | undefined; reportingId?: string | undefined; reason?: string | undefined };

function partnerMove(site: SiteRecord, body: PartnerBody, now: string): SiteAdsRecord | undefined {
  const ads = site.ads;
  const current = ads?.status ?? 'pending';
  if (body.status === 'pending') return undefined;
  if (ads === undefined || (current !== 'in-review' && current !== 'live')) {
    throw conflict(`Site ${site.id} is not in review (its ads are ${current}); only a site in review (or live) can be made ${body.status}`);
  }
  if (body.status === 'live') {
    return { status: 'live', topic: ads.topic, zoneId: body.zoneId as string, reportingId: body.reportingId as string, updatedAt: now };
  }
  return { status: 'rejected', topic: ads.topic, ...(body.reason !== undefined && body.reason !== '' ? { reason: body.reason } : {}), updatedAt: now };
}

export const adsHandlers: Record<string, Handler> = {
  ...on('updateSiteAdsById', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    if (body.status === undefined && body.topic === undefined) throw badRequest('Nothing to change: give status and/or topic');
    const next = userMove(site, body.status, body.topic, ctx.clock().toISOString());
    if (next !== undefined) setAds(ctx.tx, site, next);
    return undefined;
  }),

  ...on('adsListSites', (ctx, { query }) => {
    requirePartner(ctx);
    const emails = new Map<string, string>();
    return sitesByAdsStatus.page(ctx.tx, query.status, query, ({ id }) => {
      const site = getSite(ctx.tx, id);
      if (site?.ads === undefined) return undefined;
      const { ads } = site;
      const item = { id: site.id, url: `${siteBaseUrl(ctx.tx, site)}/`, email: contactEmail(ctx.tx, site.organization, emails), topic: ads.topic };
      if (ads.status === 'live') return { ...item, status: ads.status, zoneId: ads.zoneId ?? '' };
      if (ads.status === 'rejected') return { ...item, status: ads.status, ...(ads.reason !== undefined ? { reason: ads.reason } : {}) };
      return { ...item, status: ads.status };
    });
  }),

  ...on('adsUpdateSite', (ctx, { params, body }) => {
    requirePartner(ctx);
    const site = getSite(ctx.tx, params.siteId);
    if (!site) throw notFound(`Site ${params.siteId} not found`);
    const next = partnerMove(site, body, ctx.clock().toISOString());
    if (next !== undefined || site.ads !== undefined) setAds(ctx.tx, site, next);
    return undefined;
  }),

  ...on('setAdsPartnerKey', (ctx, { body }) => {
    ctx.tx.put(SiteTables.adsPartner, PARTNER_KEY_ROW, sha256(body.key).toString('hex'));
    return undefined;
  }),
};
