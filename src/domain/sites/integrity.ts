/**
 * Keeps sites whole when a space leaves: a space transferred to another
 * organization or purged for good is removed from every site that showed it
 * (its site spaces go; a section left empty goes too, handing on the defaults),
 * so a later site read shows the change instead of a dangling link. A
 * soft-deleted space only hides its site spaces (views.ts) until it is restored.
 */
import type { StoreWriter } from '../../store/types.js';
import { getSiteSpace, siteSpacesOfSpace } from './site-records.js';
import { removeSiteSpace } from './structure.js';

/** Removes a space from every site. Reads one row when the space is in no site. */
export function detachSpaceFromSites(tx: StoreWriter, spaceId: string): void {
  for (const entry of siteSpacesOfSpace.all(tx, spaceId)) {
    const siteSpace = getSiteSpace(tx, entry.id);
    if (siteSpace) removeSiteSpace(tx, siteSpace);
    else siteSpacesOfSpace.remove(tx, spaceId, entry.id);
  }
}
