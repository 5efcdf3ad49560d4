/**
 * What the sites area keeps in the store. Every list that grows is one row per
 * item (OrderedList / KeyedSet, src/domain/ordered.ts):
 *
 * | table / list                 | owner → item                          | value                                  |
 * |------------------------------|---------------------------------------|----------------------------------------|
 * | sites                        | siteId                                | SiteRecord                             |
 * | orgSites (OrderedList)       | orgId → siteId (creation order)       | null                                   |
 * | siteStructure (OrderedList)  | siteId or groupId → section/group id  | StructureRef (the site's ordered tree) |
 * | siteSections                 | sectionId                             | SectionRecord                          |
 * | siteGroups                   | groupId                               | GroupRecord                            |
 * | siteSpaceOrder (OrderedList) | sectionId, or siteId at the root      | null (the variants, in order)          |
 * | siteSpaceRecords             | siteSpaceId                           | SiteSpaceRecord                        |
 * | siteSpacesOfSite (KeyedSet)  | siteId → siteSpaceId                  | null (`siteSpaces` counts the visible ones at read) |
 * | siteSpacesOfSpace (KeyedSet) | spaceId → siteSpaceId                 | siteId (integrity on space transfer/purge) |
 * | siteShareLinks (OrderedList) | siteId → linkId                       | ShareLinkRecord (key kept as SHA-256)  |
 * | siteShareKeys                | sha256(key)                           | `${siteId}/${linkId}`                  |
 * | siteAdaptiveSchemas          | siteId                                | AdaptiveSchemaRecord                   |
 * | siteRedirects (KeyedSet)     | siteId → redirectId                   | RedirectRecord (live)                  |
 * | siteDraftRedirects (KeyedSet)| siteId → redirectId                   | RedirectRecord (draft: true)           |
 * | siteRedirectSources          | `${siteId}/${sha256(source)}`, drafts `${siteId}/draft:${sha256(source)}` | redirectId (one source, one redirect of each kind) |
 * | siteMcpServers (KeyedSet)    | siteId → mcpServerId                  | McpServerRecord (headers as given)     |
 * | siteExternalLinks            | linkId                                | ExternalLinkRecord (its place: `siteStructure`) |
 * | sitePublishingAuth           | siteId                                | PublishingAuthRecord (absent: never set up) |
 * | siteHostnames                | hostname                              | siteId (a hostname serves one site)    |
 * | siteAdsByStatus (KeyedSet)   | ads status → siteId                   | null (the ad partner's lists, ads.ts)  |
 * | adsPartner                   | `key`                                 | sha256 hex of the ad partner's key     |
 * | siteAgentSettings            | site id                               | AI agent settings (absent: defaults)   |
 * | siteChannels (KeyedSet)      | siteId → channelId                    | SiteChannelRecord (channels.ts)        |
 */
import { createHash } from 'node:crypto';
import { notFound } from '../../api/errors.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { KeyedSet, OrderedList } from '../ordered.js';

export type SiteType = 'basic' | 'premium' | 'ultimate' | 'sponsored' | 'legacy-basic' | 'legacy-premium';
export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

export interface SiteRecord {
  id: string;
  organization: string;
  type: SiteType;
  title: string;
  visibility: SiteVisibility;
  published: boolean;
  createdAt: string;
  updatedAt: string;
  basename: string;
  agentsContext: 'excluded' | 'included';
  adaptiveContent?: { enabled: boolean };
  proxy?: { origin: string; target: string };
  /** A custom hostname serving the site (hostnames.ts; unique: `siteHostnames`). */
  hostname?: string;
  /** The default section (when the site has sections). */
  defaultSection?: string;
  /** The default site space at the root (when the site has no sections). */
  defaultSiteSpace?: string;
  /** 0.202: the role of members without a grant on the site (grants.ts `siteRole`; null: none; absent: `inherit`). Spelled out: core-records imports this module. */
  defaultLevel?: 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read' | 'inherit' | null;
  /** The ads program (ads.ts); absent: `pending`, never submitted. */
  ads?: SiteAdsRecord;
  /** 0.202: the id of its style guide space (styleguide-records.ts; indexed by `styleguideSites`). */
  styleguide?: string;
}

export type SiteAdsTopic = 'webdev' | 'crypto';

/** Where a site is in the ads program (0.202 `SiteAds`), past `pending`. */
export interface SiteAdsRecord {
  status: 'in-review' | 'live' | 'rejected' | 'disabled';
  /** Kept from the submission on (a rejected site is listed to the partner with it). */
  topic: SiteAdsTopic;
  /** Set by the partner when it goes live; kept while disabled. */
  zoneId?: string;
  reportingId?: string;
  /** The partner's reason for a rejection. */
  reason?: string;
  updatedAt: string;
}

export interface SectionRecord {
  id: string;
  /** 0.202: a draft is being prepared and is not published (absent: false). */
  draft?: boolean;
  site: string;
  title: string;
  path: string;
  /** The group the section sits in (absent: top level). */
  group?: string;
  defaultSiteSpace?: string;
  condition?: string;
  icon?: string;
  description?: string;
  /** 0.202: titles and descriptions per language (views show them; absent: none). */
  localizedTitle?: LocalizedText;
  localizedDescription?: LocalizedText;
}

/** 0.202 `LocalizedString128/256`: language → text, for languages other than the site's own. */
export type LocalizedText = Partial<Record<string, string>>;

export interface GroupRecord {
  id: string;
  /** 0.202: a draft is being prepared and is not published (absent: false). */
  draft?: boolean;
  site: string;
  title: string;
  /** 0.202: titles per language (absent: none). */
  localizedTitle?: LocalizedText;
  icon?: string;
  /** The parent group (absent: top level). */
  parent?: string;
}

export interface SiteSpaceRecord {
  id: string;
  /** 0.202: a draft is being prepared and is not published (absent: false). */
  draft?: boolean;
  /** 0.202: left out of the site's navigation (still published at its URL; absent: false). */
  hidden?: boolean;
  site: string;
  space: string;
  /** The section it is a variant of (absent: at the site's root). */
  section?: string;
  path: string;
  condition?: string;
  /** 0.202: the variant's title on the site (absent: the space's title). */
  title?: string;
  /** 0.202: the page it opens on, instead of the space's first page (absent: that first page). */
  pageId?: string;
}

export interface ShareLinkRecord {
  id: string;
  name?: string;
  active: boolean;
  createdAt: string;
  /** SHA-256 of the secret key: the key itself is shown once, in the create answer. */
  keyHash: string;
}

export interface AdaptiveSchemaRecord {
  jsonSchema: Record<string, unknown>;
  updatedAt: string;
}

/** Where a redirect leads (spec `SiteRedirectDestination`); the ids were checked when it was written. */
export type RedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string };

export interface RedirectRecord {
  id: string;
  /** The normalised source path (redirects.ts `normaliseSource`). */
  source: string;
  destination: RedirectDestination;
  /** 0.202: a draft redirect is not live (absent: false). */
  draft?: boolean;
  /** 0.202: the source matches as a prefix, the rest appended to the destination (absent: false). */
  captureWildcard?: boolean;
  /** 0.202: served as a permanent redirect (absent: false, temporary). */
  permanent?: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface SiteChannelRecord {
  id: string;
  type: 'builtin:slack' | 'builtin:linear' | 'builtin:github' | 'builtin:discord';
  /** The one list of patterns its type takes (allowedChannels, allowedTeams or allowedRepositories). */
  setupSettings: Record<string, string[]>;
  role: 'collaborator' | 'support';
  createdAt: string;
  updatedAt: string;
}

export interface McpServerRecord {
  id: string;
  name: string;
  /** The URL as the WHATWG parser serialises it (http or https, no credentials). */
  url: string;
  /** Sent to the server by the site's assistant: they may hold secrets, so listings hide the values. */
  headers: Record<string, string>;
  /** 0.202 `transport` (absent: `sse`, the real API's default). */
  transport?: 'sse' | 'http';
  /** 0.202 `condition`: for which visitors the site's assistant may use it (absent: all). */
  condition?: string;
  createdAt: string;
  updatedAt: string;
}

export interface ExternalLinkRecord {
  id: string;
  site: string;
  title: string;
  /** The URL as the WHATWG parser serialises it (http or https, no credentials). */
  url: string;
  /** The section group it sits in (absent: the top level). */
  group?: string;
  /** A draft link is not published (absent: false). */
  draft?: boolean;
  description?: string;
  icon?: string;
  condition?: string;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
  createdAt: string;
}

export type StructureRef = { type: 'site-section' | 'site-section-group' | 'site-external-link' };

export const SiteTables = {
  sites: 'sites',
  sections: 'siteSections',
  groups: 'siteGroups',
  siteSpaces: 'siteSpaceRecords',
  shareKeys: 'siteShareKeys',
  adaptiveSchemas: 'siteAdaptiveSchemas',
  /** Site id → its SiteCustomizationSettings (absent: the defaults). */
  customizations: 'siteCustomizations',
  /** Site space id → its overrides of the site's settings (absent: none). */
  siteSpaceCustomizations: 'siteSpaceCustomizations',
  redirectSources: 'siteRedirectSources',
  externalLinks: 'siteExternalLinks',
  publishingAuth: 'sitePublishingAuth',
  hostnames: 'siteHostnames',
  adsPartner: 'adsPartner',
  /** Site id → its AI agent settings (absent: the defaults of agent-settings.ts). */
  agentSettings: 'siteAgentSettings',
} as const;

export const orgSites = new OrderedList<null>('orgSites');
export const structure = new OrderedList<StructureRef>('siteStructure');
export const siteSpaceOrder = new OrderedList<null>('siteSpaceOrder');
export const siteSpacesOfSite = new KeyedSet<null>('siteSpacesOfSite');
export const siteSpacesOfSpace = new KeyedSet<string>('siteSpacesOfSpace');
export const shareLinks = new OrderedList<ShareLinkRecord>('siteShareLinks');
export const redirects = new KeyedSet<RedirectRecord>('siteRedirects');
export const draftRedirects = new KeyedSet<RedirectRecord>('siteDraftRedirects');
export const mcpServers = new KeyedSet<McpServerRecord>('siteMcpServers');
export const sitesByAdsStatus = new KeyedSet<null>('siteAdsByStatus');
export const siteChannels = new KeyedSet<SiteChannelRecord>('siteChannels');

export const hashShareKey = (key: string) => createHash('sha256').update(key).digest('hex');

export const getSite = (tx: StoreReader, id: string) => tx.get<SiteRecord>(SiteTables.sites, id);
export const getSection = (tx: StoreReader, id: string) => tx.get<SectionRecord>(SiteTables.sections, id);
export const getGroup = (tx: StoreReader, id: string) => tx.get<GroupRecord>(SiteTables.groups, id);
export const getExternalLink = (tx: StoreReader, id: string) => tx.get<ExternalLinkRecord>(SiteTables.externalLinks, id);
export const getSiteSpace = (tx: StoreReader, id: string) => tx.get<SiteSpaceRecord>(SiteTables.siteSpaces, id);

/**
 * Whether a section, group or site space is live (0.202 `draft`): neither it nor what holds
 * it (a site space's section, a section's group, a group's parents) is a draft. Drafts are
 * listed to the site's editors and left out of what is published.
 */
export function isLive(tx: StoreReader, item: SectionRecord | GroupRecord | SiteSpaceRecord): boolean {
  let current: SectionRecord | GroupRecord | SiteSpaceRecord | undefined = item;
  for (let depth = 0; current && depth < 64; depth += 1) {
    if (current.draft === true) return false;
    if ('space' in current) current = current.section === undefined ? undefined : getSection(tx, current.section);
    else if ('path' in current) current = current.group === undefined ? undefined : getGroup(tx, current.group);
    else current = current.parent === undefined ? undefined : getGroup(tx, current.parent);
  }
  return true;
}

export const putSite = (tx: StoreWriter, site: SiteRecord) => tx.put(SiteTables.sites, site.id, site);
export const putSection = (tx: StoreWriter, section: SectionRecord) => tx.put(SiteTables.sections, section.id, section);
export const putGroup = (tx: StoreWriter, group: GroupRecord) => tx.put(SiteTables.groups, group.id, group);
export const putSiteSpace = (tx: StoreWriter, siteSpace: SiteSpaceRecord) =>
  tx.put(SiteTables.siteSpaces, siteSpace.id, siteSpace);

/** A site of the organization (another organization's site is not found here). */
export function requireSiteIn(tx: StoreReader, orgId: string, siteId: string): SiteRecord {
  const site = getSite(tx, siteId);
  if (!site || site.organization !== orgId) throw notFound(`Site ${siteId} not found in organization ${orgId}`);
  return site;
}

export function requireSection(tx: StoreReader, site: SiteRecord, id: string): SectionRecord {
  const section = getSection(tx, id);
  if (!section || section.site !== site.id) throw notFound(`Site section ${id} not found in site ${site.id}`);
  return section;
}

export function requireGroup(tx: StoreReader, site: SiteRecord, id: string): GroupRecord {
  const group = getGroup(tx, id);
  if (!group || group.site !== site.id) throw notFound(`Site section group ${id} not found in site ${site.id}`);
  return group;
}

export function requireSiteSpace(tx: StoreReader, site: SiteRecord, id: string): SiteSpaceRecord {
  const siteSpace = getSiteSpace(tx, id);
  if (!siteSpace || siteSpace.site !== site.id) throw notFound(`Site space ${id} not found in site ${site.id}`);
  return siteSpace;
}

/** The owner of a site space's place in `siteSpaceOrder`: its section, or the site at the root. */
export const siteSpaceOwner = (siteSpace: { site: string; section?: string | undefined }) =>
  siteSpace.section ?? siteSpace.site;

/** The owner of a section's or group's place in `structure`: its group, or the site at the top level. */
export const structureOwner = (site: string, group: string | undefined) => group ?? site;
