/**
 * The preview's URLs, and links of page content resolved to them.
 *
 * Served (`site preview`): absolute paths on the preview's origin. Static (`--out`):
 * paths relative to the page being written, ending in `index.html`, so the copy
 * works from any directory and from `file://`. Both are built from safe segments
 * (model.ts), never from raw titles or paths.
 *
 *   /<section>/<variant>[/<page path>]      a page (the variant's root shows its first page)
 *   /_docsctl/files/<space>/<file id>/<name> a file of a space
 *   /_docsctl/assets/<name>                  the stylesheet and the script
 *   /_docsctl/search?v=<variant>&q=…         search results (served only)
 *   /_docsctl/events                         live reload (served only)
 */
import { normalizePath } from '../util/posix-path.js';
import { type FileEntry, type PageNode, type SiteModel, type SpaceContent, type Variant, safeSegment } from './model.js';
import type { ResolvedUrl, UrlContext } from './sanitize.js';

export const PREFIX = '_docsctl';

export interface PreviewUrls {
  /** A page of a variant (its first page: the variant's root). */
  page(variant: Variant, page: PageNode | undefined, fragment?: string): string;
  file(spaceId: string, file: FileEntry): string;
  asset(name: string): string;
  home(): string;
  /** The directory (segments) a page is written to. */
  pageDir(variant: Variant, page: PageNode | undefined): string[];
}

const enc = (segments: readonly string[]) => segments.map(encodeURIComponent).join('/');

function isRoot(page: PageNode | undefined, first: PageNode | undefined): boolean {
  return page === undefined || (first !== undefined && page.id === first.id);
}

/** URLs of the served preview (absolute paths). `firstPage` tells which page is a variant's root. */
export function servedUrls(firstPage: (variant: Variant) => PageNode | undefined): PreviewUrls {
  const pageDir = (variant: Variant, page: PageNode | undefined) =>
    isRoot(page, firstPage(variant)) ? variant.segments : [...variant.segments, ...(page as PageNode).segments];
  return {
    pageDir,
    page: (variant, page, fragment) => `/${enc(pageDir(variant, page))}${fragment ? `#${encodeURIComponent(fragment)}` : ''}`,
    file: (spaceId, file) => `/${PREFIX}/files/${enc([safeSegment(spaceId), safeSegment(file.id), file.segment])}`,
    asset: (name) => `/${PREFIX}/assets/${name}`,
    home: () => '/',
  };
}

/** A relative path from directory `from` to `to` (segments). */
function relative(from: readonly string[], to: readonly string[]): string {
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  const up = from.slice(common).map(() => '..');
  return [...up, ...to.slice(common).map(encodeURIComponent)].join('/');
}

/** URLs of the static copy, relative to the page written in directory `from`. */
export function staticUrls(firstPage: (variant: Variant) => PageNode | undefined, from: readonly string[]): PreviewUrls {
  const pageDir = (variant: Variant, page: PageNode | undefined) =>
    isRoot(page, firstPage(variant)) ? variant.segments : [...variant.segments, ...(page as PageNode).segments];
  const to = (segments: readonly string[], name: string) => {
    const path = relative(from, segments);
    return path === '' ? name : `${path}/${name}`;
  };
  return {
    pageDir,
    page: (variant, page, fragment) => `${to(pageDir(variant, page), 'index.html')}${fragment ? `#${encodeURIComponent(fragment)}` : ''}`,
    file: (spaceId, file) => to([PREFIX, 'files', safeSegment(spaceId), safeSegment(file.id)], encodeURIComponent(file.segment)),
    asset: (name) => to([PREFIX, 'assets'], name),
    home: () => to([], 'index.html'),
  };
}

const decode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** `https://app.gitbook.com/[o/<org>/]s/<space>/<path>` (and docsctl's `…/app/o/<org>/s/<space>/<path>`): the space and page path. */
export function appLink(url: string): { spaceId: string; path: string; fragment: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const m = /^\/(?:app\/)?(?:o\/[^/]+\/)?s\/([^/]+)(?:\/(.*))?$/.exec(parsed.pathname);
  if (!m) return undefined;
  return { spaceId: decode(m[1] as string), path: decode((m[2] ?? '').replace(/\/+$/, '').replace(/^~\/revisions\/[^/]+\//, '')), fragment: decode(parsed.hash.slice(1)) };
}

/** The file a page is written in (Git Sync layout): its Git path, else the inferred one the content index holds. */
function fileOfPage(content: SpaceContent, page: PageNode): string {
  if (page.gitPath) return page.gitPath;
  for (const [file, node] of content.byFile) if (node === page) return file;
  return `${page.path}.md`;
}

export interface LinkContext {
  site: SiteModel;
  variant: Variant;
  page: PageNode;
  content: SpaceContent;
  /** Contents of other spaces of the site already read (for links between spaces). */
  others: ReadonlyMap<string, SpaceContent>;
  urls: PreviewUrls;
  firstPage(variant: Variant): PageNode | undefined;
}

/** The page a path names in a space: by file (`a/b.md`, `a/README.md`), then by page path (`a/b`). */
function pageAt(content: SpaceContent, path: string): PageNode | undefined {
  const clean = path.replace(/^\/+/, '');
  const byFile =
    content.byFile.get(clean) ??
    content.byFile.get(`${clean}.md`) ??
    content.byFile.get(`${clean.replace(/\/+$/, '')}/README.md`) ??
    content.byFile.get(clean.replace(/\/README\.md$/i, '/README.md'));
  if (byFile) return byFile;
  const pagePath = clean.replace(/(?:^|\/)README\.md$/i, '').replace(/\.md$/i, '').replace(/\/+$/, '');
  if (pagePath === '') return undefined;
  return content.bySegments.get(pagePath.split('/').map(safeSegment).join('/'));
}

/**
 * Resolves a link or image of page content (already past the sanitizer's scheme
 * check): pages → preview URLs with their titles, files → the space's file URLs,
 * links into another space of the site → that variant's page, other absolute URLs
 * as they are. Undefined: nothing it could point at (the sanitizer marks the link broken).
 */
export function resolveContentUrl(url: string, context: UrlContext, link: LinkContext): ResolvedUrl | undefined {
  const { content, urls, variant } = link;
  if (url.startsWith('#')) return { url };
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    if (context === 'link') {
      const app = appLink(url);
      if (app) {
        const target = link.site.variants.find((v) => v.spaceId === app.spaceId);
        const other = target && (target.spaceId === content.spaceId ? content : link.others.get(target.spaceId));
        if (target && other) {
          const page = app.path === '' ? link.firstPage(target) : pageAt(other, app.path);
          if (page) return { url: urls.page(target, page, app.fragment || undefined), title: page.title };
        }
      }
    }
    return { url };
  }
  const hash = url.indexOf('#');
  const fragment = hash === -1 ? '' : decode(url.slice(hash + 1));
  const target = decode((hash === -1 ? url : url.slice(0, hash)).replace(/\?.*$/, ''));
  if (target === '') return { url: fragment ? `#${encodeURIComponent(fragment)}` : '#' };
  const base = fileOfPage(content, link.page);
  const dir = base.includes('/') ? base.slice(0, base.lastIndexOf('/') + 1) : '';
  const joined = target.startsWith('/') ? target.slice(1) : `${dir}${target}`;
  const path = normalizePath(joined);
  if (path === null || path.startsWith('../')) return undefined;
  const file = content.filesByPath.get(path) ?? content.filesByName.get(path.slice(path.lastIndexOf('/') + 1));
  if (context === 'image' || (file && !/\.md$/i.test(path))) {
    return file ? { url: urls.file(content.spaceId, file) } : undefined;
  }
  const page = pageAt(content, path);
  if (!page) return undefined;
  const first = link.firstPage(variant);
  return { url: urls.page(variant, first?.id === page.id ? undefined : page, fragment || undefined), title: page.title };
}
