/**
 * Site features by plan (the site's `type`). The real API lists a site's premium
 * features (`features`, SiteFeatureKey) and refuses what its plan lacks; neither the
 * API doc nor the spec documents the status, so docsctl answers **403** (exit 3)
 * naming the feature and the lowest plan that has it (README "Site plans").
 */
import { forbidden } from '../../api/errors.js';
import type { SiteType } from './site-records.js';

export type Plan = 'basic' | 'premium' | 'ultimate';

const BASIC = [
  'sites-basic-customization',
  'sites-public-visibility',
  'sites-unlisted-visibility',
  'sites-full-text-search',
  'sites-page-feedback',
  'sites-pdf-export',
  // The ads program earns the site's owner money: docsctl offers it on every plan (the real API's
  // plan table is not published; `sites-ads` is in its SiteFeatureKey). ads.ts: who may submit.
  'sites-ads',
] as const;
const PREMIUM = [
  'sites-ai-search',
  'sites-custom-domain',
  'sites-multivariant-site',
  'sites-redirects',
  'sites-sections',
  'sites-seo',
  'sites-share-links',
] as const;
const ULTIMATE = [
  'sites-adaptive-content',
  'sites-advanced-customization',
  'sites-custom-fonts',
  'sites-custom-subdirectory',
  'sites-visitor-authentication',
] as const;

export type FeatureKey = (typeof BASIC)[number] | (typeof PREMIUM)[number] | (typeof ULTIMATE)[number];

/** The plan a site type buys (legacy and sponsored sites map onto the current plans). */
export function planOf(type: SiteType): Plan {
  if (type === 'ultimate') return 'ultimate';
  if (type === 'premium' || type === 'legacy-premium' || type === 'sponsored') return 'premium';
  return 'basic';
}

const FEATURES: Record<Plan, ReadonlyArray<readonly [FeatureKey, Plan]>> = {
  basic: BASIC.map((id) => [id, 'basic'] as const),
  premium: [...BASIC.map((id) => [id, 'basic'] as const), ...PREMIUM.map((id) => [id, 'premium'] as const)],
  ultimate: [
    ...BASIC.map((id) => [id, 'basic'] as const),
    ...PREMIUM.map((id) => [id, 'premium'] as const),
    ...ULTIMATE.map((id) => [id, 'ultimate'] as const),
  ],
};

/** The `features` member of a Site: every feature of its plan, with the plan it comes from. */
export function siteFeatures(type: SiteType): Array<{ id: FeatureKey; plan: SiteType; frozen: boolean }> {
  return FEATURES[planOf(type)].map(([id, plan]) => ({ id, plan, frozen: false }));
}

export function hasFeature(type: SiteType, feature: FeatureKey): boolean {
  return FEATURES[planOf(type)].some(([id]) => id === feature);
}

function lowestPlanWith(feature: FeatureKey): Plan {
  return (['basic', 'premium', 'ultimate'] as const).find((plan) => FEATURES[plan].some(([id]) => id === feature)) ?? 'ultimate';
}

/** 403 unless the site's plan has `feature`; `action` completes "to …". */
export function requireFeature(site: { id: string; type: SiteType }, feature: FeatureKey, action: string): void {
  if (hasFeature(site.type, feature)) return;
  throw forbidden(
    `Site ${site.id} is on the ${planOf(site.type)} plan, which cannot ${action} (feature ${feature}); ` +
      `it needs a ${lowestPlanWith(feature)} site (create one with type "${lowestPlanWith(feature)}")`,
  );
}

/** The feature a visibility needs. */
export function visibilityFeature(visibility: string): FeatureKey {
  switch (visibility) {
    case 'share-link':
      return 'sites-share-links';
    case 'visitor-auth':
      return 'sites-visitor-authentication';
    case 'unlisted':
      return 'sites-unlisted-visibility';
    default:
      return 'sites-public-visibility';
  }
}
