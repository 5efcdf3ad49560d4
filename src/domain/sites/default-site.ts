/**
 * The default documentation site of a new organization (`createOrganization` with
 * `withDefaultSite`): a basic public site titled like the organization, unpublished and
 * empty, as `createSite` makes one without spaces. Loaded only when asked for.
 */
import { slugify } from '../../gitsync/slug.js';
import type { StoreWriter } from '../../store/types.js';
import type { OrgRecord } from '../core-records.js';
import { reindexSite } from './origins.js';
import { type SiteRecord, orgSites, putSite } from './site-records.js';

export function createDefaultSite(tx: StoreWriter, org: OrgRecord, id: string, now: string): SiteRecord {
  const site: SiteRecord = {
    id,
    organization: org.id,
    type: 'basic',
    title: org.title.slice(0, 128),
    visibility: 'public',
    published: false,
    createdAt: now,
    updatedAt: now,
    // A new organization has no other site: the basename is free.
    basename: slugify(org.title) || 'site',
    agentsContext: 'included',
  };
  putSite(tx, site);
  reindexSite(tx, undefined, site);
  orgSites.insert(tx, org.id, site.id, null);
  return site;
}
