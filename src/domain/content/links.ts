/**
 * Links and backlinks of a revision's content: `listSpaceLinks`,
 * `listChangeRequestLinks`, `listPageLinksInSpace`, `listPageLinksInChangeRequest`,
 * `listSpacePageBacklinks`, `listSpaceFileBacklinks`, `listChangeRequestFileBacklinks`.
 *
 * Every document page's Markdown is read with `extractLinks`, then each link is
 * resolved:
 * - relative links and `{% content-ref %}` resolve against the page's source file
 *   (its `git.path`, else `<path>.md`, or `<path>/README.md` for a page with
 *   children) to a page whose source file or path matches (`x.md`, `x/README.md`,
 *   `x/`, `x`); assets and images (`.gitbook/assets/…`, any non-Markdown file) to
 *   a file by `git.path`, else by name;
 * - app links (app.gitbook.com, or this server's `/app/` URLs) are `in-app`;
 * - other URLs are `ok`; anchors within the page are not references.
 * A relative target with no page or file behind it is `broken`.
 *
 * One item per distinct target (`ContentReferenceUsage`): `targetReference` is the
 * page or file (a `url` location for URLs and broken targets), `locationReferences`
 * the pages where it is linked (with `pages: []`: a location names a page, not its
 * subtree). `stats` counts the items before the `status` filter. For a change
 * request, `stats.broken.changeRequest` counts the broken targets the primary
 * content does not have broken, and `brokenContext=change-request` keeps only those
 * among the broken items.
 */
import { notFound } from '../../api/errors.js';
import type * as contentRoutes from '../../api/routes/content.js';
import type * as spaceRoutes from '../../api/routes/spaces.js';
import type { StoreReader } from '../../store/types.js';
import { type Handler, type HandlerContext, implementer } from '../handler.js';
import { itemsOf, paginate } from '../pagination.js';
import { type RevisionRecord, type Role, type SpaceRecord, getOrg } from '../core-records.js';
import { organizationView, spaceView } from '../views.js';
import { changeRequestFor, primaryRevision, scopeOf, spaceFor } from './common.js';
import { type ChangeRequestRecord, requireRevisionRecord } from './change-request-records.js';
import { crView } from './revisions.js';
import { type RevisionContent, type StoredFile, type StoredPage, openContent } from './storage.js';
import { type ContentScope, fileView, pageView } from './views.js';

type LinkStatus = 'ok' | 'broken' | 'in-app';

type Target =
  | { kind: 'page'; page: PageInfo }
  | { kind: 'file'; file: StoredFile }
  | { kind: 'url'; url: string; status: 'ok' | 'in-app' }
  | { kind: 'broken'; target: string };

interface PageInfo {
  page: StoredPage;
  path: string;
  markdown: string | undefined;
}

interface Usage {
  key: string;
  status: LinkStatus;
  target: Target;
  /** Pages linking to the target, in page order, once each. */
  locations: PageInfo[];
}

/** The pages and files of a revision, indexed for resolving links. */
class LinkIndex {
  readonly pages: PageInfo[] = [];
  private readonly byId = new Map<string, PageInfo>();
  private readonly bySource = new Map<string, PageInfo>();
  private readonly files: StoredFile[] = [];
  private readonly filesByPath = new Map<string, StoredFile>();
  private readonly filesByName = new Map<string, StoredFile>();

  constructor(readonly content: RevisionContent) {
    content.allPageHashes();
    const visit = (pages: StoredPage[], prefix: string) => {
      for (const page of pages) {
        const path = page.slug ? (prefix ? `${prefix}/${page.slug}` : page.slug) : prefix;
        const info: PageInfo = { page, path, markdown: page.type === 'document' ? content.markdown(page) : undefined };
        this.pages.push(info);
        this.byId.set(page.id, info);
        if (page.type !== 'link') {
          const keys = page.git ? [page.git.path] : [];
          if (path) keys.push(`${path}.md`, `${path}/README.md`, path);
          else keys.push('README.md');
          for (const key of keys) if (!this.bySource.has(key)) this.bySource.set(key, info);
        }
        visit(content.children(page), path);
      }
    };
    visit(content.children(), '');
    for (const id of content.fileIds()) {
      const file = content.file(id);
      if (!file) continue;
      this.files.push(file);
      if (file.git && !this.filesByPath.has(file.git.path)) this.filesByPath.set(file.git.path, file);
      if (!this.filesByName.has(file.name)) this.filesByName.set(file.name, file);
    }
  }

  page(id: string): PageInfo | undefined {
    return this.byId.get(id);
  }

  file(id: string): StoredFile | undefined {
    return this.files.find((file) => file.id === id);
  }

  /** The source file a page's relative links are written from. */
  static sourceOf(info: PageInfo): string {
    if (info.page.git) return info.page.git.path;
    if (!info.path) return 'README.md';
    return info.page.children.length > 0 ? `${info.path}/README.md` : `${info.path}.md`;
  }

  pageAt(resolved: string): PageInfo | undefined {
    const path = resolved.replace(/\/+$/, '');
    const candidates = [resolved, path, `${path}.md`, `${path}/README.md`, path.replace(/\.md$/i, ''), path.replace(/(^|\/)README\.md$/i, '')];
    for (const candidate of candidates) {
      const found = this.bySource.get(candidate);
      if (found) return found;
    }
    return undefined;
  }

  fileAt(resolved: string): StoredFile | undefined {
    const byPath = this.filesByPath.get(resolved);
    if (byPath) return byPath;
    const name = resolved.slice(resolved.lastIndexOf('/') + 1);
    return this.filesByName.get(name);
  }
}

function isInAppUrl(url: string, origin: string): boolean {
  const base = origin.replace(/\/+$/, '');
  return url.startsWith(`${base}/app/`) || /^(?:https?:)?\/\/app\.gitbook\.com(?:[/?#:]|$)/i.test(url);
}

type LinksModule = typeof import('../../content-model/links.js');

/** The usages (one per target) of the links in `from` (every page when undefined). */
function usages(links: LinksModule, index: LinkIndex, origin: string, from?: PageInfo): Usage[] {
  const out = new Map<string, Usage>();
  const add = (key: string, status: LinkStatus, target: Target, location: PageInfo) => {
    let usage = out.get(key);
    if (!usage) out.set(key, (usage = { key, status, target, locations: [] }));
    if (!usage.locations.includes(location)) usage.locations.push(location);
  };
  for (const info of from ? [from] : index.pages) {
    if (info.markdown === undefined) continue;
    const source = LinkIndex.sourceOf(info);
    for (const link of links.extractLinks(info.markdown)) {
      if (link.kind === 'anchor') continue;
      if (link.kind === 'url' || link.kind === 'app') {
        const inApp = link.kind === 'app' || isInAppUrl(link.target, origin);
        add(`url:${link.target}`, inApp ? 'in-app' : 'ok', { kind: 'url', url: link.target, status: inApp ? 'in-app' : 'ok' }, info);
        continue;
      }
      const resolved = links.resolveRelative(source, link.target);
      if (resolved === null) {
        add(`broken:${link.target}`, 'broken', { kind: 'broken', target: link.target }, info);
        continue;
      }
      if (link.kind === 'relative') {
        const page = index.pageAt(resolved);
        if (page) {
          add(`page:${page.page.id}`, 'ok', { kind: 'page', page }, info);
          continue;
        }
      }
      const file = index.fileAt(resolved);
      if (file && (link.kind === 'file' || /(^|\/)\.gitbook\/assets\//.test(resolved))) {
        add(`file:${file.id}`, 'ok', { kind: 'file', file }, info);
        continue;
      }
      if (link.kind === 'file') {
        // A non-Markdown file may still be a page's source (e.g. `x.mdx`): try pages last.
        const page = index.pageAt(resolved);
        if (page) {
          add(`page:${page.page.id}`, 'ok', { kind: 'page', page }, info);
          continue;
        }
      }
      add(`broken:${resolved}`, 'broken', { kind: 'broken', target: link.target }, info);
    }
  }
  return [...out.values()];
}

// ─── Views ─────────────────────────────────────────────────────────────────

interface LocationContext {
  organization: Record<string, unknown>;
  space: Record<string, unknown>;
  versionContext?: Record<string, unknown>;
  scope: ContentScope;
  content: RevisionContent;
}

function locationContext(
  tx: StoreReader,
  ctx: Pick<HandlerContext, 'origin'>,
  space: SpaceRecord,
  role: Role,
  content: RevisionContent,
  cr?: ChangeRequestRecord,
): LocationContext {
  const org = getOrg(tx, space.organization);
  if (!org) throw new Error(`store inconsistency: organization ${space.organization} of space ${space.id} is missing`);
  return {
    organization: organizationView(ctx, org, role) as unknown as Record<string, unknown>,
    space: spaceView(ctx, space, role) as unknown as Record<string, unknown>,
    ...(cr ? { versionContext: { type: 'changeRequest', changeRequest: crView(tx, ctx, space, cr) } } : {}),
    scope: scopeOf(ctx, space, cr),
    content,
  };
}

function pageLocation(lc: LocationContext, info: PageInfo) {
  const bodies = new Map<string, string>();
  if (info.markdown !== undefined) bodies.set(info.page.id, info.markdown);
  return {
    kind: 'page',
    organization: lc.organization,
    space: lc.space,
    page: pageView(lc.content, info.page, info.path, { scope: lc.scope, metadata: true, depth: 'self', bodies }),
    ...(lc.versionContext ? { versionContext: lc.versionContext } : {}),
  };
}

function fileLocation(lc: LocationContext, file: StoredFile) {
  return {
    kind: 'file',
    organization: lc.organization,
    space: lc.space,
    file: fileView(lc.scope.origin, file, true),
    ...(lc.versionContext ? { versionContext: lc.versionContext } : {}),
  };
}

function targetLocation(lc: LocationContext, target: Target) {
  switch (target.kind) {
    case 'page':
      return pageLocation(lc, target.page);
    case 'file':
      return fileLocation(lc, target.file);
    case 'url':
      return { kind: 'url', url: target.url };
    case 'broken':
      return { kind: 'url', url: target.target };
  }
}

function usageView(lc: LocationContext, usage: Usage) {
  return {
    status: usage.status,
    relation: 'reference',
    targetReference: targetLocation(lc, usage.target),
    locationReferences: usage.locations.map((info) => pageLocation(lc, info)),
  };
}

interface LinkQuery {
  page?: string | undefined;
  limit?: number | undefined;
  status?: LinkStatus | undefined;
}

function linksAnswer(lc: LocationContext, all: Usage[], query: LinkQuery, extra?: { newlyBroken: Set<string>; onlyNew: boolean }) {
  const broken = all.filter((usage) => usage.status === 'broken');
  let items = query.status === undefined ? all : all.filter((usage) => usage.status === query.status);
  if (extra?.onlyNew) items = items.filter((usage) => usage.status !== 'broken' || extra.newlyBroken.has(usage.key));
  const page = paginate(itemsOf(items), query, (usage) => usageView(lc, usage));
  const stats = {
    total: all.length,
    broken: { total: broken.length, ...(extra ? { changeRequest: broken.filter((u) => extra.newlyBroken.has(u.key)).length } : {}) },
  };
  return { ...(page.next ? { next: page.next } : {}), count: page.count, stats, items: page.items };
}

// ─── Handlers ──────────────────────────────────────────────────────────────

const loadLinks = (): Promise<LinksModule> => import('../../content-model/links.js');

interface Opened {
  space: SpaceRecord;
  role: Role;
  cr?: ChangeRequestRecord;
  revision: RevisionRecord;
}

function openSpace(ctx: HandlerContext, spaceId: string): Opened {
  const { space, role } = spaceFor(ctx.tx, ctx, spaceId);
  return { space, role, revision: primaryRevision(ctx.tx, space) };
}

function openChangeRequest(ctx: HandlerContext, spaceId: string, crParam: string): Opened {
  const { space, role, cr } = changeRequestFor(ctx.tx, ctx, spaceId, crParam);
  return { space, role, cr, revision: requireRevisionRecord(ctx.tx, space.id, cr.revision) };
}

function analyse(ctx: HandlerContext, opened: Opened): { index: LinkIndex; lc: LocationContext } {
  const content = openContent(ctx.tx, opened.revision);
  const index = new LinkIndex(content);
  return { index, lc: locationContext(ctx.tx, ctx, opened.space, opened.role, content, opened.cr) };
}

async function allLinks(ctx: HandlerContext, opened: Opened, query: LinkQuery & { brokenContext?: 'change-request' | 'space' | undefined }) {
  const links = await loadLinks();
  const { index, lc } = analyse(ctx, opened);
  const all = usages(links, index, ctx.origin);
  if (!opened.cr) return linksAnswer(lc, all, query);
  const primaryIndex = new LinkIndex(openContent(ctx.tx, primaryRevision(ctx.tx, opened.space)));
  const brokenInPrimary = new Set(usages(links, primaryIndex, ctx.origin).filter((u) => u.status === 'broken').map((u) => u.key));
  const newlyBroken = new Set(all.filter((u) => u.status === 'broken' && !brokenInPrimary.has(u.key)).map((u) => u.key));
  return linksAnswer(lc, all, query, { newlyBroken, onlyNew: query.brokenContext === 'change-request' });
}

async function pageLinks(ctx: HandlerContext, opened: Opened, pageId: string, query: LinkQuery) {
  const links = await loadLinks();
  const { index, lc } = analyse(ctx, opened);
  const info = index.page(pageId);
  if (!info) throw notFound(`Page ${pageId} not found in this ${opened.cr ? 'change request' : 'space'}`);
  return linksAnswer(lc, usages(links, index, ctx.origin, info), query);
}

async function backlinks(ctx: HandlerContext, opened: Opened, target: { page: string } | { file: string }, query: LinkQuery) {
  const links = await loadLinks();
  const { index, lc } = analyse(ctx, opened);
  const where = opened.cr ? 'change request' : 'space';
  let key: string;
  if ('page' in target) {
    if (!index.page(target.page)) throw notFound(`Page ${target.page} not found in this ${where}`);
    key = `page:${target.page}`;
  } else {
    if (!index.file(target.file)) throw notFound(`File ${target.file} not found in this ${where}`);
    key = `file:${target.file}`;
  }
  const usage = usages(links, index, ctx.origin).find((u) => u.key === key);
  return paginate(itemsOf(usage?.locations ?? []), query, (info) => pageLocation(lc, info));
}

const contentOn = implementer<typeof contentRoutes>();
const spaceOn = implementer<typeof spaceRoutes>();

export const linkHandlers: Record<string, Handler> = {
  ...spaceOn('listSpaceLinks', (ctx, { params, query }) => allLinks(ctx, openSpace(ctx, params.spaceId), query)),
  ...contentOn('listChangeRequestLinks', (ctx, { params, query }) =>
    allLinks(ctx, openChangeRequest(ctx, params.spaceId, params.changeRequestId), query),
  ),
  ...contentOn('listPageLinksInSpace', (ctx, { params, query }) => pageLinks(ctx, openSpace(ctx, params.spaceId), params.pageId, query)),
  ...contentOn('listPageLinksInChangeRequest', (ctx, { params, query }) =>
    pageLinks(ctx, openChangeRequest(ctx, params.spaceId, params.changeRequestId), params.pageId, query),
  ),
  ...contentOn('listSpacePageBacklinks', (ctx, { params, query }) =>
    backlinks(ctx, openSpace(ctx, params.spaceId), { page: params.pageId }, query),
  ),
  ...contentOn('listSpaceFileBacklinks', (ctx, { params, query }) =>
    backlinks(ctx, openSpace(ctx, params.spaceId), { file: params.fileId }, query),
  ),
  ...contentOn('listChangeRequestFileBacklinks', (ctx, { params, query }) =>
    backlinks(ctx, openChangeRequest(ctx, params.spaceId, params.changeRequestId), { file: params.fileId }, query),
  ),
};
