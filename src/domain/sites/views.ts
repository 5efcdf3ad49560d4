/**
 * Site records → API objects (`Site`, `SiteSection`, `SiteSectionGroup`,
 * `SiteSpace`, `ShareLink`, `SiteStructure` of @gitbook/api 0.143.2).
 *
 * Published URLs (`urls.published`, only while the site is published) are built
 * from the site's proxy origin, its custom hostname (`https://<hostname>`), or
 * `https://<org hostname or id>.gitbook.io/<basename>`,
 * then the section path (not for the default section) and the site-space path
 * (not for the default variant).
 *
 * A site space whose space is soft-deleted is hidden (it comes back when the
 * space is restored); a section whose every site space is hidden is hidden too.
 */
import type { Role, SpaceRecord } from '../core-records.js';
import { getOrg, getSpace } from '../core-records.js';
import { apiUrl, appUrl } from '../urls.js';
import { type SpaceView, spaceView } from '../views.js';
import type { StoreReader } from '../../store/types.js';
import { sitePermissions } from '../permissions.js';
import { siteAdsView } from './ads-view.js';
import { siteFeatures } from './features.js';
import {
  type ExternalLinkRecord,
  type GroupRecord,
  type LocalizedText,
  type SectionRecord,
  type ShareLinkRecord,
  type SiteRecord,
  type SiteSpaceRecord,
  getExternalLink,
  getGroup,
  getSection,
  getSiteSpace,
  isLive,
  siteSpacesOfSite,
} from './site-records.js';
import { childrenOf, siteSpaceIdsOf } from './structure.js';

export interface SiteViewContext {
  tx: StoreReader;
  origin: string;
  role: Role;
  /** In a listing of several sites: the caller's role on each (grants on a site differ from `role`, the organization's). */
  roleOf?: (site: SiteRecord) => Role;
}

const seg = encodeURIComponent;

export function siteLocation(origin: string, site: SiteRecord): string {
  return apiUrl(origin, `orgs/${seg(site.organization)}/sites/${seg(site.id)}`);
}

/** Base published URL of a site (without a trailing slash), whether or not it is published. */
export function siteBaseUrl(tx: StoreReader, site: SiteRecord): string {
  if (site.proxy) return `https://${site.proxy.origin}`;
  return site.hostname !== undefined ? `https://${site.hostname}` : gitbookUrl(tx, site);
}

/** Where the site lives without a proxy: `https://<org hostname or id>.gitbook.io/<basename>`. */
export function gitbookUrl(tx: StoreReader, site: SiteRecord): string {
  const org = getOrg(tx, site.organization);
  const host = (org?.hostname ?? site.organization).toLowerCase();
  return `https://${host}.gitbook.io/${seg(site.basename)}`;
}

const join = (base: string, ...paths: Array<string | undefined>) =>
  [base, ...paths.filter((p): p is string => p !== undefined).map(seg)].join('/');

export function siteView(ctx: SiteViewContext, site: SiteRecord) {
  const base = siteBaseUrl(ctx.tx, site);
  return {
    object: 'site' as const,
    id: site.id,
    type: site.type,
    // docsctl never freezes a site (the real API applies Basic to frozen ones): the type it has applies.
    appliedType: site.type,
    title: site.title,
    ...(site.hostname !== undefined ? { hostname: site.hostname } : {}),
    basename: site.basename,
    ...(site.proxy ? { proxy: site.proxy } : {}),
    visibility: site.visibility,
    // The role of members without a grant on the site; `inherit`: their organization role (src/domain/grants.ts).
    defaultLevel: site.defaultLevel === undefined ? ('inherit' as const) : site.defaultLevel,
    permissions: sitePermissions(ctx.roleOf ? ctx.roleOf(site) : ctx.role),
    published: site.published,
    siteSpaces: visibleSiteSpaceCount(ctx.tx, site.id),
    createdAt: site.createdAt,
    ...(site.adaptiveContent ? { adaptiveContent: site.adaptiveContent } : {}),
    agentsContext: site.agentsContext,
    features: siteFeatures(site.type),
    ads: siteAdsView(site),
    ...styleguideRef(ctx.tx, site),
    urls: {
      location: siteLocation(ctx.origin, site),
      app: appUrl(ctx.origin, `o/${seg(site.organization)}/sites/${seg(site.id)}`),
      // Where members see the site's current content, published or not (`site preview`).
      preview: appUrl(ctx.origin, `o/${seg(site.organization)}/sites/${seg(site.id)}/preview`),
      ...(site.published ? { published: `${base}/` } : {}),
    },
  };
}

export type SiteView = ReturnType<typeof siteView>;

/** `styleguide` (0.202 ContentRefSpace) when the site has a style guide whose space is live. */
function styleguideRef(tx: StoreReader, site: SiteRecord): { styleguide?: { kind: 'space'; space: string } } {
  const space = liveStyleguideOf(tx, site);
  return space === undefined ? {} : { styleguide: { kind: 'space', space } };
}

/**
 * The `siteSpaces` counter: the site spaces a visitor can see. The site spaces of a
 * soft-deleted space stay stored (they come back on restore) but do not count. It is
 * counted at read from the site's own rows (bounded by the site, not the
 * organization), so deleting or restoring a space rewrites no site.
 */
export function visibleSiteSpaceCount(tx: StoreReader, siteId: string): number {
  let count = 0;
  for (const { id } of siteSpacesOfSite.all(tx, siteId)) {
    const siteSpace = getSiteSpace(tx, id);
    if (siteSpace && visibleSpace(tx, siteSpace)) count += 1;
  }
  return count;
}

/** The site's style guide space id, when it has one whose space is live (a soft-deleted one is hidden, as a site space's). */
export function liveStyleguideOf(tx: StoreReader, site: SiteRecord): string | undefined {
  if (site.styleguide === undefined) return undefined;
  const space = getSpace(tx, site.styleguide);
  return space && space.deletedAt === undefined ? space.id : undefined;
}

/** The live space of a site space, or undefined when it is hidden (soft-deleted) or gone. */
export function visibleSpace(tx: StoreReader, siteSpace: SiteSpaceRecord): SpaceRecord | undefined {
  const space = getSpace(tx, siteSpace.space);
  return space && space.deletedAt === undefined ? space : undefined;
}

export interface SiteSpaceView {
  object: 'site-space';
  id: string;
  path: string;
  section?: string;
  space: SpaceView;
  title: string;
  default: boolean;
  draft: boolean;
  /** Not shown in the site's navigation; still published at its URL. */
  hidden: boolean;
  condition?: string;
  /** The page it opens on, when not the space's first page. */
  pageId?: string;
  urls: { published?: string };
}

/** `sectionUrl`: the published URL of the section (or of the site for root site spaces). */
export function siteSpaceView(
  ctx: SiteViewContext,
  site: SiteRecord,
  siteSpace: SiteSpaceRecord,
  space: SpaceRecord,
  isDefault: boolean,
  sectionUrl: string,
): SiteSpaceView {
  const url = isDefault ? sectionUrl : join(sectionUrl, siteSpace.path);
  return {
    object: 'site-space',
    id: siteSpace.id,
    path: siteSpace.path,
    ...(siteSpace.section !== undefined ? { section: siteSpace.section } : {}),
    space: spaceView(ctx, space, ctx.role),
    title: siteSpace.title ?? space.title,
    default: isDefault,
    draft: siteSpace.draft === true,
    hidden: siteSpace.hidden === true,
    ...(siteSpace.condition !== undefined ? { condition: siteSpace.condition } : {}),
    ...(siteSpace.pageId !== undefined ? { pageId: siteSpace.pageId } : {}),
    // A draft (or a variant of a draft section) is not live: it has no published URL yet.
    urls: site.published && isLive(ctx.tx, siteSpace) ? { published: `${url}/` } : {},
  };
}

/** The visible site spaces of a section (or of the root when `owner` is the site), in order; `published`: drafts left out. */
export function siteSpaceViewsOf(
  ctx: SiteViewContext,
  site: SiteRecord,
  owner: string,
  defaultId: string | undefined,
  sectionUrl: string,
  published = false,
): SiteSpaceView[] {
  const out: SiteSpaceView[] = [];
  for (const id of siteSpaceIdsOf(ctx.tx, owner)) {
    const siteSpace = getSiteSpace(ctx.tx, id);
    const space = siteSpace && visibleSpace(ctx.tx, siteSpace);
    if (siteSpace && space && !(published && siteSpace.draft === true)) out.push(siteSpaceView(ctx, site, siteSpace, space, id === defaultId, sectionUrl));
  }
  return out;
}

export function sectionUrl(ctx: SiteViewContext, site: SiteRecord, section: SectionRecord): string {
  const base = siteBaseUrl(ctx.tx, site);
  return site.defaultSection === section.id ? base : join(base, section.path);
}

export function sectionView(ctx: SiteViewContext, site: SiteRecord, section: SectionRecord, published = false) {
  const url = sectionUrl(ctx, site, section);
  return {
    object: 'site-section' as const,
    id: section.id,
    title: section.title,
    ...(section.localizedTitle !== undefined ? { localizedTitle: section.localizedTitle } : {}),
    ...(section.description !== undefined ? { description: section.description } : {}),
    ...(section.localizedDescription !== undefined ? { localizedDescription: section.localizedDescription } : {}),
    default: site.defaultSection === section.id,
    draft: section.draft === true,
    path: section.path,
    ...(section.condition !== undefined ? { condition: section.condition } : {}),
    ...(section.group !== undefined ? { sectionGroup: section.group } : {}),
    siteSpaces: siteSpaceViewsOf(ctx, site, section.id, section.defaultSiteSpace, url, published),
    urls: site.published && isLive(ctx.tx, section) ? { published: `${url}/` } : {},
    ...(section.icon !== undefined ? { icon: section.icon } : {}),
  };
}

export type SectionView = ReturnType<typeof sectionView>;

/** `SiteExternalLink` (0.202): a URL shown among the sections. */
export function externalLinkView(link: ExternalLinkRecord) {
  return {
    object: 'site-external-link' as const,
    id: link.id,
    title: link.title,
    ...(link.localizedTitle !== undefined ? { localizedTitle: link.localizedTitle } : {}),
    ...(link.description !== undefined ? { description: link.description } : {}),
    ...(link.localizedDescription !== undefined ? { localizedDescription: link.localizedDescription } : {}),
    ...(link.icon !== undefined ? { icon: link.icon } : {}),
    url: link.url,
    ...(link.group !== undefined ? { sectionGroup: link.group } : {}),
    draft: link.draft === true,
    ...(link.condition !== undefined ? { condition: link.condition } : {}),
  };
}

export type ExternalLinkView = ReturnType<typeof externalLinkView>;

export interface GroupView {
  object: 'site-section-group';
  id: string;
  title: string;
  localizedTitle?: LocalizedText;
  draft: boolean;
  sections: SectionView[];
  children: Array<SectionView | GroupView | ExternalLinkView>;
  sectionGroup?: string;
  icon?: string;
}

/** A section is shown when at least one of its site spaces is visible. */
const shown = (section: SectionView) => section.siteSpaces.length > 0;

export function groupView(ctx: SiteViewContext, site: SiteRecord, group: GroupRecord, published = false): GroupView {
  const children = structureViews(ctx, site, group.id, published);
  return {
    object: 'site-section-group',
    id: group.id,
    title: group.title,
    ...(group.localizedTitle !== undefined ? { localizedTitle: group.localizedTitle } : {}),
    draft: group.draft === true,
    sections: children.filter((child): child is SectionView => child.object === 'site-section'),
    children,
    ...(group.parent !== undefined ? { sectionGroup: group.parent } : {}),
    ...(group.icon !== undefined ? { icon: group.icon } : {}),
  };
}

/** The visible children of the site root or of a group; `published`: draft sections and groups (and what they hold) left out. */
export function structureViews(ctx: SiteViewContext, site: SiteRecord, owner: string, published = false): Array<SectionView | GroupView | ExternalLinkView> {
  const out: Array<SectionView | GroupView | ExternalLinkView> = [];
  for (const node of childrenOf(ctx.tx, owner)) {
    if (node.type === 'site-section') {
      const section = getSection(ctx.tx, node.id);
      if (!section || (published && section.draft === true)) continue;
      const view = sectionView(ctx, site, section, published);
      if (shown(view)) out.push(view);
    } else if (node.type === 'site-external-link') {
      const link = getExternalLink(ctx.tx, node.id);
      if (link && !(published && link.draft === true)) out.push(externalLinkView(link));
    } else {
      const group = getGroup(ctx.tx, node.id);
      if (group && !(published && group.draft === true)) out.push(groupView(ctx, site, group, published));
    }
  }
  return out;
}

/**
 * `SiteStructure`: sections and groups when the site has sections, else its root site spaces.
 * `published` (what visitors get, `getPublishedContentSite`): drafts are not published (0.202).
 */
export function siteStructureView(ctx: SiteViewContext, site: SiteRecord, options: { published?: boolean } = {}) {
  const published = options.published === true;
  if (childrenOf(ctx.tx, site.id).length > 0) {
    return { type: 'sections' as const, structure: structureViews(ctx, site, site.id, published) };
  }
  return {
    type: 'siteSpaces' as const,
    structure: siteSpaceViewsOf(ctx, site, site.id, site.defaultSiteSpace, siteBaseUrl(ctx.tx, site), published),
  };
}

export function shareLinkView(link: ShareLinkRecord, publishedUrl?: string) {
  return {
    object: 'share-link' as const,
    id: link.id,
    createdAt: link.createdAt,
    ...(link.name !== undefined ? { name: link.name } : {}),
    active: link.active,
    // The URL carries the secret key: only the create answer has it.
    urls: publishedUrl === undefined ? {} : { published: publishedUrl },
  };
}
