/**
 * What the preview shows, read through the transport with real-API operations only
 * (so it works against GitBook's API, `docsctl serve` and the local store alike):
 * the site (`getSiteById`), its sections and variants (`getSiteStructure`, drawn with
 * the same `skeletonOf` as `site tree`), and per space its page tree and files
 * (`listPages`/`listFiles`, or their change-request twins for `--change-request`).
 * docsctl's `getSiteTree` extension is not used: its compact pages carry neither the
 * Git paths that relative links are written against, nor link targets or files.
 *
 * URL segments: every section, variant and page path segment becomes a `safeSegment`
 * (itself when it is a plain name, else `~` and a hash), so no title or path from the
 * content can climb out of the preview's URL space or the `--out` directory.
 */
import { createHash } from 'node:crypto';
import type { RouteId } from '../api/route-id.js';
import { type ApiStructure, type TreeNode, skeletonOf } from '../domain/sites/tree-shape.js';
import type { Transport } from '../transport/types.js';

/** A plain path segment stays as it is; anything else (`..`, `/`, control characters, long) becomes `~hash`. */
export function safeSegment(segment: string): string {
  if (/^[\p{L}\p{N}][\p{L}\p{N}._~-]{0,99}$/u.test(segment) && !segment.includes('..')) return segment;
  return `~${createHash('sha256').update(segment).digest('hex').slice(0, 12)}`;
}

const segmentsOf = (path: string): string[] => path.split('/').filter((part) => part !== '').map(safeSegment);

export interface Variant {
  /** URL segments of the variant's root: [section, variant] or [variant] on a site without sections. */
  segments: string[];
  key: string;
  id: string;
  title: string;
  default: boolean;
  spaceId: string;
  /** The page its root shows (the site space's `pageId`), when not the space's first page. */
  homePage?: string | undefined;
  section: Section | undefined;
}

export interface Section {
  id: string;
  title: string;
  default: boolean;
  segment: string;
  variants: Variant[];
  /** Titles of the groups it is in, outermost first. */
  groups: string[];
}

export interface SiteModel {
  id: string;
  title: string;
  /** Sections in navigation order (empty for a site whose spaces sit at its root). */
  sections: Section[];
  /** Every variant in navigation order. */
  variants: Variant[];
  defaultVariant: Variant | undefined;
  variantByKey: Map<string, Variant>;
}

export type PageType = 'document' | 'group' | 'link' | 'computed';

export interface PageNode {
  id: string;
  title: string;
  type: PageType;
  /** The page path (`guide/install`), '' for a link. */
  path: string;
  segments: string[];
  description?: string;
  emoji?: string;
  hidden: boolean;
  /** The page's file in Git Sync layout, when the API says (`git.path`). */
  gitPath?: string;
  /** A link page's URL. */
  href?: string;
  children: PageNode[];
  parent: PageNode | undefined;
}

export interface FileEntry {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  gitPath?: string;
  /** The name as written in the preview's URLs. */
  segment: string;
}

export interface SpaceContent {
  spaceId: string;
  /** What the content is: the space's current revision, or a change request's. */
  revision: string | undefined;
  roots: PageNode[];
  /** Document pages in reading order (sidebar order): previous / next. */
  documents: PageNode[];
  byId: Map<string, PageNode>;
  bySegments: Map<string, PageNode>;
  /** Git path → page, and inferred file paths for pages without one. */
  byFile: Map<string, PageNode>;
  files: FileEntry[];
  filesById: Map<string, FileEntry>;
  filesByPath: Map<string, FileEntry>;
  filesByName: Map<string, FileEntry>;
}

/** The content the preview reads: the spaces' own, or one change request's in its space. */
export interface ChangeRequestTarget {
  spaceId: string;
  id: string;
  number: number;
  subject: string;
  status: string;
  revision: string | undefined;
}

interface ApiPage {
  id: string;
  title?: string;
  type?: string;
  path?: string;
  slug?: string;
  description?: string;
  emoji?: string;
  hidden?: boolean;
  href?: string;
  git?: { path?: string };
  pages?: ApiPage[];
}
interface ApiFile {
  id: string;
  name?: string;
  contentType?: string;
  downloadURL?: string;
  size?: number;
  git?: { path?: string };
}

/** Builds the navigation model of a site from its structure. */
export function siteModel(site: { id: string; title: string }, structure: ApiStructure): SiteModel {
  const sections: Section[] = [];
  const variants: Variant[] = [];
  const variantOf = (node: TreeNode<never> & { type: 'variant' }, section: Section | undefined): Variant => {
    const segments = [...(section ? [section.segment] : []), safeSegment(node.path || node.id)];
    const variant: Variant = { segments, key: segments.join('/'), id: node.id, title: node.title, default: node.default, spaceId: node.spaceId, homePage: node.homePage, section };
    variants.push(variant);
    return variant;
  };
  const walk = (nodes: Array<TreeNode<never>>, groups: string[]) => {
    for (const node of nodes) {
      if (node.type === 'group') walk(node.children, [...groups, node.title]);
      else if (node.type === 'section') {
        const section: Section = { id: node.id, title: node.title, default: node.default, segment: safeSegment(node.path || node.id), variants: [], groups };
        sections.push(section);
        for (const variant of node.variants) section.variants.push(variantOf(variant, section));
      } else variantOf(node, undefined);
    }
  };
  walk(skeletonOf<never>(structure), []);
  const defaultSection = sections.find((s) => s.default) ?? sections[0];
  const defaultVariant = defaultSection
    ? (defaultSection.variants.find((v) => v.default) ?? defaultSection.variants[0])
    : (variants.find((v) => v.default) ?? variants[0]);
  return { id: site.id, title: site.title, sections, variants, defaultVariant, variantByKey: new Map(variants.map((v) => [v.key, v])) };
}

/** The file a page is written in, in Git Sync layout, when the API does not say: `a/b.md`, or `a/b/README.md` for a page with children. */
function inferredFile(page: PageNode, first: boolean): string {
  if (first && page.parent === undefined) return 'README.md';
  return page.children.length > 0 ? `${page.path}/README.md` : `${page.path}.md`;
}

/** A space's pages and files as the preview uses them. */
export function spaceContent(spaceId: string, revision: string | undefined, pages: readonly ApiPage[], files: readonly ApiFile[]): SpaceContent {
  const content: SpaceContent = {
    spaceId,
    revision,
    roots: [],
    documents: [],
    byId: new Map(),
    bySegments: new Map(),
    byFile: new Map(),
    files: [],
    filesById: new Map(),
    filesByPath: new Map(),
    filesByName: new Map(),
  };
  const build = (page: ApiPage, parent: PageNode | undefined): PageNode => {
    const type: PageType = page.type === 'group' || page.type === 'link' || page.type === 'computed' ? page.type : 'document';
    const path = type === 'link' ? '' : (page.path ?? page.slug ?? page.id);
    const node: PageNode = {
      id: page.id,
      title: page.title ?? '(untitled)',
      type,
      path,
      segments: segmentsOf(path),
      hidden: page.hidden === true,
      children: [],
      parent,
      ...(page.description ? { description: page.description } : {}),
      ...(page.emoji ? { emoji: page.emoji } : {}),
      ...(page.git?.path ? { gitPath: page.git.path } : {}),
      ...(page.href ? { href: page.href } : {}),
    };
    content.byId.set(node.id, node);
    if (type === 'document') {
      content.documents.push(node);
      if (node.segments.length > 0 && !content.bySegments.has(node.segments.join('/'))) content.bySegments.set(node.segments.join('/'), node);
    }
    node.children = (page.pages ?? []).map((child) => build(child, node));
    return node;
  };
  content.roots = pages.map((page) => build(page, undefined));
  content.documents.forEach((page, index) => {
    if (page.gitPath) content.byFile.set(page.gitPath, page);
    const inferred = inferredFile(page, index === 0);
    if (!content.byFile.has(inferred)) content.byFile.set(inferred, page);
  });
  for (const file of files) {
    const name = file.name ?? file.id;
    const entry: FileEntry = {
      id: file.id,
      name,
      contentType: file.contentType ?? 'application/octet-stream',
      downloadURL: file.downloadURL ?? '',
      size: file.size ?? 0,
      segment: safeSegment(name),
      ...(file.git?.path ? { gitPath: file.git.path } : {}),
    };
    content.files.push(entry);
    content.filesById.set(entry.id, entry);
    if (entry.gitPath) content.filesByPath.set(entry.gitPath, entry);
    if (!content.filesByName.has(name)) content.filesByName.set(name, entry);
  }
  return content;
}

/** What is previewed: a site, or one space on its own (`--web` on a space, page or change request in local mode). */
export type PreviewTarget = { kind: 'site'; organizationId: string; siteId: string } | { kind: 'space'; spaceId: string };

/** A space on its own, shaped as a site without sections that shows it. */
function spaceAsStructure(space: { id: string; title?: string }): ApiStructure {
  const path = (space.title ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '') || 'space';
  return { type: 'siteSpaces', structure: [{ id: space.id, path, title: space.title ?? space.id, default: true, space: { id: space.id }, urls: {} }] };
}

/** The reads the preview makes, through the session's transport. */
export class PreviewSource {
  constructor(
    readonly transport: Transport,
    readonly target: PreviewTarget,
    readonly changeRequest: ChangeRequestTarget | undefined,
  ) {}

  private async get<T>(route: RouteId, params: Record<string, string>, query: Record<string, unknown> = {}): Promise<T> {
    return (await this.transport.request(route, { params, query })).body as T;
  }

  /** The site and its structure (a space: itself as the one variant). */
  private async read(): Promise<{ site: { id: string; title: string }; structure: ApiStructure }> {
    if (this.target.kind === 'space') {
      const space = await this.get<{ id: string; title?: string }>('getSpaceById', { spaceId: this.target.spaceId });
      return { site: { id: space.id, title: space.title ?? space.id }, structure: spaceAsStructure(space) };
    }
    const params = { organizationId: this.target.organizationId, siteId: this.target.siteId };
    const [site, structure] = await Promise.all([this.get<{ id: string; title: string }>('getSiteById', params), this.get<ApiStructure>('getSiteStructure', params)]);
    return { site, structure };
  }

  async site(): Promise<SiteModel> {
    const { site, structure } = await this.read();
    return siteModel(site, structure);
  }

  private crOf(spaceId: string): ChangeRequestTarget | undefined {
    return this.changeRequest?.spaceId === spaceId ? this.changeRequest : undefined;
  }

  /** A space's page tree (no bodies: `bodies=false`, docsctl's, is ignored by other servers) and its files. */
  async space(spaceId: string): Promise<SpaceContent> {
    const cr = this.crOf(spaceId);
    const params: Record<string, string> = cr ? { spaceId, changeRequestId: cr.id } : { spaceId };
    const [pages, files, revision] = await Promise.all([
      this.get<{ pages?: ApiPage[] }>(cr ? 'listPagesInChangeRequest' : 'listPages', params, { bodies: 'false' }),
      this.allFiles(cr ? 'listFilesInChangeRequestById' : 'listFiles', params),
      this.revision(spaceId),
    ]);
    return spaceContent(spaceId, revision, pages.pages ?? [], files);
  }

  private async allFiles(route: RouteId, params: Record<string, string>): Promise<ApiFile[]> {
    const files: ApiFile[] = [];
    let page: string | undefined;
    // Bounded: 20 pages of 1,000 files.
    for (let i = 0; i < 20; i++) {
      const body = await this.get<{ items?: ApiFile[]; next?: { page?: string } | null }>(route, params, { limit: 1000, ...(page ? { page } : {}) });
      files.push(...(body.items ?? []));
      page = body.next?.page;
      if (!page) break;
    }
    return files;
  }

  /** The revision the preview shows for a space: the change request's, else the space's. */
  async revision(spaceId: string): Promise<string | undefined> {
    const cr = this.crOf(spaceId);
    if (cr) {
      const body = await this.get<{ revision?: string }>('getChangeRequestById', { spaceId, changeRequestId: cr.id });
      return body.revision;
    }
    return (await this.get<{ revision?: string }>('getSpaceById', { spaceId })).revision;
  }

  /** A page's Markdown (`format=markdown`). */
  async markdown(spaceId: string, pageId: string): Promise<string> {
    const cr = this.crOf(spaceId);
    const body = cr
      ? await this.get<{ markdown?: string }>('getPageInChangeRequestById', { spaceId, changeRequestId: cr.id, pageId }, { format: 'markdown' })
      : await this.get<{ markdown?: string }>('getPageById', { spaceId, pageId }, { format: 'markdown' });
    return typeof body.markdown === 'string' ? body.markdown : '';
  }

  /** docsctl's search of a space (the space's own content: the API searches no change request). */
  async search(spaceId: string, query: string): Promise<Array<{ id: string; title: string; path?: string; body?: string }>> {
    const body = await this.get<{ items?: Array<{ id: string; title: string; path?: string; sections?: Array<{ body?: string }> }> }>(
      'searchSpaceContent',
      { spaceId },
      { query, limit: 20 },
    );
    return (body.items ?? []).map((item) => ({ id: item.id, title: item.title, ...(item.path ? { path: item.path } : {}), ...(item.sections?.[0]?.body ? { body: item.sections[0].body } : {}) }));
  }

  /**
   * What the preview shows, in one string that changes when it does: the site, its
   * structure and each space's revision (1 + spaces requests).
   */
  async fingerprint(): Promise<string> {
    const { site, structure } = await this.read();
    const spaces = [...new Set(siteModel(site, structure).variants.map((v) => v.spaceId))];
    const revisions = await Promise.all(spaces.map((spaceId) => this.revision(spaceId).catch(() => 'error')));
    return createHash('sha256').update(JSON.stringify([site.title, structure, spaces, revisions])).digest('hex').slice(0, 32);
  }
}

/** Finds a change request (id or number) among the site's spaces. */
export async function findChangeRequest(transport: Transport, spaceIds: readonly string[], changeRequest: string): Promise<ChangeRequestTarget[]> {
  const found: ChangeRequestTarget[] = [];
  for (const spaceId of new Set(spaceIds)) {
    try {
      const { body } = await transport.request('getChangeRequestById', { params: { spaceId, changeRequestId: changeRequest }, query: {} });
      const cr = body as { id: string; number: number; subject?: string; status?: string; revision?: string };
      found.push({ spaceId, id: cr.id, number: cr.number, subject: cr.subject ?? '', status: cr.status ?? 'open', revision: cr.revision });
    } catch (error) {
      if ((error as { status?: number }).status !== 404) throw error;
    }
  }
  return found;
}
