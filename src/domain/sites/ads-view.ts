/** The Site's `ads` field (0.202 `SiteAds`) and who may submit a site; the moves are in ads.ts. */
import { hasFeature } from './features.js';
import type { SiteRecord } from './site-records.js';

/** The Site's `ads` field (0.202 `SiteAds`). */
export function siteAdsView(site: SiteRecord) {
  const ads = site.ads;
  if (ads === undefined) return { status: 'pending' as const, submittable: submittable(site) };
  switch (ads.status) {
    case 'in-review':
      return { status: ads.status, topic: ads.topic };
    case 'rejected':
      return { status: ads.status, ...(ads.reason !== undefined ? { reason: ads.reason } : {}) };
    default:
      return { status: ads.status, topic: ads.topic, zoneId: ads.zoneId ?? '' };
  }
}

export function submittable(site: SiteRecord): boolean {
  return site.published && site.visibility === 'public' && hasFeature(site.type, 'sites-ads');
}

/** Why a pending site cannot be submitted, for the 409. */
export function notSubmittable(site: SiteRecord): string {
  if (!site.published) return `it is not published (docsctl site publish ${site.id})`;
  if (site.visibility !== 'public') return `its visibility is ${site.visibility}; ads need a public site (docsctl site edit ${site.id} --visibility public)`;
  return `its plan lacks the sites-ads feature`;
}

