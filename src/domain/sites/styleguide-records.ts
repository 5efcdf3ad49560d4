/**
 * What the store keeps of writing style guides (handlers: src/domain/styleguides.ts):
 *
 * | where                            | owner → item             | value |
 * |----------------------------------|--------------------------|-------|
 * | SpaceRecord `type: 'styleguide'` | the space                |       |
 * | orgStyleguides (KeyedSet)        | orgId → spaceId          | null  |
 * | SiteRecord `styleguide`          | the site → its spaceId   |       |
 * | styleguideSites (KeyedSet)       | spaceId → siteId         | null  |
 *
 * One row per item: making a style guide writes a few rows whatever the organization holds.
 * Integrity: a soft-deleted style guide stays linked but hidden (the site's view and the
 * organization's list leave it out) until it is restored, as a site's site spaces do; a purged
 * one, or one transferred to another organization, leaves its sites (`dropStyleguide`); a deleted
 * site leaves the index (`withStyleguide(…, undefined)`), its style guide space staying in the organization.
 */
import type { StoreWriter } from '../../store/types.js';
import { KeyedSet } from '../ordered.js';
import { type SiteRecord, getSite, putSite } from './site-records.js';

export const orgStyleguides = new KeyedSet<null>('orgStyleguides');
export const styleguideSites = new KeyedSet<null>('styleguideSites');

/**
 * `site` naming `spaceId` as its style guide (undefined: none), the index kept in step (the
 * previous style guide, if any, loses the site); the caller writes the record it returns.
 */
export function withStyleguide(tx: StoreWriter, site: SiteRecord, spaceId: string | undefined): SiteRecord {
  if (site.styleguide === spaceId) return site;
  if (site.styleguide !== undefined) styleguideSites.remove(tx, site.styleguide, site.id);
  const { styleguide: _previous, ...rest } = site;
  if (spaceId === undefined) return rest;
  styleguideSites.put(tx, spaceId, site.id, null);
  return { ...rest, styleguide: spaceId };
}

/**
 * A style guide space leaving its organization (purged, or transferred away): no site names it
 * any more. It takes the fields it reads, not a SpaceRecord: core-records imports this module.
 */
export function dropStyleguide(tx: StoreWriter, space: { id: string; organization: string; type?: string | undefined }): void {
  if (space.type !== 'styleguide') return;
  for (const { id } of styleguideSites.all(tx, space.id)) {
    const site = getSite(tx, id);
    if (site?.styleguide === space.id) putSite(tx, withStyleguide(tx, site, undefined));
    else styleguideSites.remove(tx, space.id, id);
  }
  orgStyleguides.remove(tx, space.organization, space.id);
}
