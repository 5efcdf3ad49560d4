/**
 * The shape of a site tree: groups → sections → variants (site spaces) → pages.
 *
 * Two readers build it: the `getSiteTree` extension route (docsctl only, computed
 * from the store in one pass, `tree.ts`) and the CLI's fallback for servers without
 * that route (the real API: `getSiteStructure` plus one `listPages` per variant,
 * src/cli/commands/site-tree.ts). Both start from the spec-shaped `SiteStructure`
 * with `skeletonOf`, so the two cannot disagree on which sections and variants
 * show, their order, defaults and URLs.
 *
 * Pure: no store, no transport (the CLI bundles it).
 */

/** The parts of the spec's `SiteStructure` (getSiteStructure) a tree needs. */
export interface ApiSiteSpace {
  id: string;
  path: string;
  title: string;
  default?: boolean;
  space: { id: string };
  /** 0.202: the page it opens on, when not the space's first page. */
  pageId?: string | null;
  urls: { published?: string };
}
export interface ApiSection {
  object: 'site-section';
  id: string;
  title: string;
  path: string;
  default?: boolean;
  siteSpaces: ApiSiteSpace[];
  urls: { published?: string };
}
export interface ApiGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  children: Array<ApiSection | ApiGroup>;
}
export interface ApiStructure {
  type: 'sections' | 'siteSpaces';
  structure: Array<ApiSection | ApiGroup | ApiSiteSpace>;
}

/**
 * A page of the extension's answer: ~60 bytes of JSON, against ~390 for a spec
 * `RevisionPageDocument`. What is usual is left out: `type` for a document (the
 * common kind; groups and links say theirs), `path` for a link (it has none),
 * `pages` when the page has no child pages. A page's published URL is its variant's
 * `url` followed by its `path` (not sent: the client adds it).
 */
export interface CompactPage {
  id: string;
  title: string;
  type?: 'group' | 'link';
  path?: string;
  pages?: CompactPage[];
}

export interface TreeVariant<P> {
  type: 'variant';
  id: string;
  title: string;
  path: string;
  default: boolean;
  spaceId: string;
  /** The page its root shows, when not the space's first page. */
  homePage?: string;
  url?: string;
  pages: P[];
}
export interface TreeSection<P> {
  type: 'section';
  id: string;
  title: string;
  path: string;
  default: boolean;
  url?: string;
  variants: Array<TreeVariant<P>>;
}
export interface TreeGroup<P> {
  type: 'group';
  id: string;
  title: string;
  children: Array<TreeSection<P> | TreeGroup<P>>;
}
export type TreeNode<P> = TreeGroup<P> | TreeSection<P> | TreeVariant<P>;

/** The answer of `getSiteTree` (GET /v1/orgs/{organizationId}/sites/{siteId}/x-docsctl/tree). */
export interface SiteTreeAnswer {
  object: 'x-docsctl-site-tree';
  /** The site's id. */
  site: string;
  tree: Array<TreeNode<CompactPage>>;
}

/**
 * The text `site tree` prints, in parts (tree-text.ts): a string part is text as it
 * is; `[n, url]` is `pieces[n]` joined with `url`, the page lines of a variant (each
 * page with a path shows the URL, then its path). Variants showing the same content
 * share their pieces.
 */
export interface TreeText {
  parts: Array<string | [pieces: number, url: string]>;
  pieces: string[][];
}

/** The answer of `getSiteTree?format=text`: the tree as `site tree` prints it, for a client that only prints it. No parts: the site shows no space. */
export interface SiteTreeTextAnswer extends TreeText {
  object: 'x-docsctl-site-tree-text';
  /** The site's id. */
  site: string;
}

/** The tree of a structure; every variant's `pages` is empty until filled. */
export function skeletonOf<P>(structure: ApiStructure): Array<TreeNode<P>> {
  const variant = (ss: ApiSiteSpace): TreeVariant<P> => ({
    type: 'variant',
    id: ss.id,
    title: ss.title,
    path: ss.path,
    default: Boolean(ss.default),
    spaceId: ss.space.id,
    ...(typeof ss.pageId === 'string' ? { homePage: ss.pageId } : {}),
    ...(ss.urls.published !== undefined ? { url: ss.urls.published } : {}),
    pages: [],
  });
  const node = (item: ApiSection | ApiGroup): TreeSection<P> | TreeGroup<P> =>
    item.object === 'site-section-group'
      ? { type: 'group', id: item.id, title: item.title, children: own(item.children).map(node) }
      : {
          type: 'section',
          id: item.id,
          title: item.title,
          path: item.path,
          default: Boolean(item.default),
          ...(item.urls.published !== undefined ? { url: item.urls.published } : {}),
          variants: item.siteSpaces.map(variant),
        };
  // External links (0.202) lead out of the site: the tree shows what the site itself publishes.
  const own = (items: ReadonlyArray<ApiSection | ApiGroup>) => items.filter((item) => (item as { object: string }).object !== 'site-external-link');
  return structure.type === 'sections'
    ? own(structure.structure as Array<ApiSection | ApiGroup>).map(node)
    : (structure.structure as ApiSiteSpace[]).map(variant);
}
