/**
 * The preview of one site: what it reads (model.ts, through the transport), cached
 * for one version of the content, and the HTML of its pages, search results and
 * "not found". The server (server.ts) and the static copy (static.ts) both render
 * through it; only their URLs differ (urls.ts).
 */
import { randomBytes } from 'node:crypto';
import { extractLinks } from '../content-model/links.js';
import { escapeHtml } from './html.js';
import { renderShell } from './layout.js';
import { renderMarkdown } from './markdown.js';
import type { ChangeRequestTarget, FileEntry, PageNode, PreviewSource, SiteModel, SpaceContent, Variant } from './model.js';
import { type PreviewUrls, appLink, resolveContentUrl } from './urls.js';

export type Mode = 'served' | 'static';

/** What one version of the content holds: read once, shared by every request until the content changes. */
class Snapshot {
  readonly spaces = new Map<string, Promise<SpaceContent>>();
  readonly loaded = new Map<string, SpaceContent>();
  readonly markdown = new Map<string, Promise<string>>();
  /** Characters of the Markdown bodies held in `markdown`. */
  markdownSize = 0;
  constructor(
    readonly version: string,
    readonly model: Promise<SiteModel>,
  ) {}
}

/** Markdown kept per version, in characters (the oldest pages dropped first): bounds memory on a large site. */
const MARKDOWN_CACHE_CHARS = 32 * 1024 * 1024;

export interface RenderedPage {
  html: string;
  /** Files the page links to or shows (the static copy writes them). */
  files: Array<{ spaceId: string; file: FileEntry }>;
  /** The page's text (title and body, no markup), for the static copy's search index. */
  text: string;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The text of sanitized HTML (ours: no script or style to skip), whitespace collapsed, at most `max` characters. */
export function textOf(html: string, max = 3000): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] as string)
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);
}

export class Preview {
  private snapshot: Snapshot;

  constructor(
    readonly source: PreviewSource,
    version: string,
  ) {
    this.snapshot = this.fresh(version);
  }

  get changeRequest(): ChangeRequestTarget | undefined {
    return this.source.changeRequest;
  }

  get version(): string {
    return this.snapshot.version;
  }

  private fresh(version: string): Snapshot {
    const model = this.source.site();
    model.catch(() => undefined);
    return new Snapshot(version, model);
  }

  /** The content changed: later reads see the new version. */
  reset(version: string): void {
    this.snapshot = this.fresh(version);
  }

  model(): Promise<SiteModel> {
    return this.snapshot.model;
  }

  content(spaceId: string): Promise<SpaceContent> {
    const snapshot = this.snapshot;
    let read = snapshot.spaces.get(spaceId);
    if (!read) {
      read = this.source.space(spaceId).then((content) => {
        snapshot.loaded.set(spaceId, content);
        return content;
      });
      // A failed read is not kept: the next request tries again.
      read.catch(() => snapshot.spaces.delete(spaceId));
      snapshot.spaces.set(spaceId, read);
    }
    return read;
  }

  /** The page a variant's root shows, when its space has been read: its site space's home page (`pageId`), else its first page; undefined otherwise. */
  readonly firstPage = (variant: Variant): PageNode | undefined => {
    const content = this.snapshot.loaded.get(variant.spaceId);
    const home = variant.homePage === undefined ? undefined : content?.byId.get(variant.homePage);
    return home ?? content?.documents.find((page) => !page.hidden) ?? content?.documents[0];
  };

  private markdown(spaceId: string, pageId: string): Promise<string> {
    const snapshot = this.snapshot;
    const key = `${spaceId}/${pageId}`;
    let read = snapshot.markdown.get(key);
    if (!read) {
      read = this.source.markdown(spaceId, pageId);
      snapshot.markdown.set(key, read);
      read.then(
        (markdown) => {
          snapshot.markdownSize += markdown.length;
          for (const [oldest, held] of snapshot.markdown) {
            if (snapshot.markdownSize <= MARKDOWN_CACHE_CHARS || oldest === key) break;
            snapshot.markdown.delete(oldest);
            void held.then((text) => (snapshot.markdownSize -= text.length)).catch(() => undefined);
          }
        },
        () => snapshot.markdown.delete(key),
      );
    }
    return read;
  }

  /** The page of `variant` at `segments` (URL path below the variant); its first page for none. */
  async pageAt(variant: Variant, segments: readonly string[]): Promise<PageNode | undefined> {
    const content = await this.content(variant.spaceId);
    if (segments.length === 0) return this.firstPage(variant);
    return content.bySegments.get(segments.join('/'));
  }

  /** The HTML of a page (the variant's first page for undefined). */
  async renderPage(variant: Variant, requested: PageNode | undefined, urls: PreviewUrls, mode: Mode, nonce: string): Promise<RenderedPage> {
    const [site, content] = await Promise.all([this.model(), this.content(variant.spaceId)]);
    const page = requested ?? this.firstPage(variant);
    const version = this.snapshot.version;
    if (!page) {
      const body = '<p>This space has no pages yet.</p>';
      const html = renderShell({ site, variant, content, page: undefined, title: variant.title, body, urls, nonce, mode, firstPage: this.firstPage, changeRequest: this.changeRequest, version });
      return { html, files: [], text: '' };
    }
    const markdown = await this.markdown(variant.spaceId, page.id);
    // Links into other spaces of the site need those spaces' pages.
    const others = new Map<string, SpaceContent>();
    const linked = new Set<string>();
    for (const link of extractLinks(markdown)) {
      const app = link.kind === 'app' || link.kind === 'url' ? appLink(link.target) : undefined;
      if (app && app.spaceId !== variant.spaceId && site.variants.some((v) => v.spaceId === app.spaceId)) linked.add(app.spaceId);
    }
    await Promise.all([...linked].slice(0, 16).map(async (spaceId) => others.set(spaceId, await this.content(spaceId))));
    const files: RenderedPage['files'] = [];
    const recording: PreviewUrls = {
      ...urls,
      file: (spaceId, file) => {
        files.push({ spaceId, file });
        return urls.file(spaceId, file);
      },
    };
    const body = renderMarkdown(markdown, {
      resolveUrl: (url, context) => resolveContentUrl(url, context, { site, variant, page, content, others, urls: recording, firstPage: this.firstPage }),
    });
    const html = renderShell({
      site,
      variant,
      content,
      page,
      title: page.title,
      description: page.description,
      body,
      urls,
      nonce,
      mode,
      firstPage: this.firstPage,
      changeRequest: this.changeRequest,
      version,
    });
    return { html, files, text: textOf(`${page.title} ${page.description ?? ''} ${body}`) };
  }

  /** A page that says what was not found, with the site's navigation. */
  async renderNotFound(variant: Variant | undefined, urls: PreviewUrls, nonce: string, what: string): Promise<string> {
    const site = await this.model();
    const content = variant ? await this.content(variant.spaceId).catch(() => undefined) : undefined;
    const body = `<p>Nothing in the preview at <code>${escapeHtml(what)}</code>.</p><p><a href="${escapeHtml(urls.home())}">Back to the start</a></p>`;
    return renderShell({ site, variant, content, page: undefined, title: 'Not found', body, urls, nonce, mode: 'served', firstPage: this.firstPage, changeRequest: this.changeRequest, version: this.version });
  }

  /** Search results of a variant's space (docsctl's search operation). */
  async renderSearch(variant: Variant, query: string, urls: PreviewUrls, nonce: string): Promise<string> {
    const [site, content] = await Promise.all([this.model(), this.content(variant.spaceId)]);
    const trimmed = query.trim().slice(0, 200);
    let body: string;
    if (trimmed === '') body = '<p>Type words to search for.</p>';
    else {
      const results = await this.source.search(variant.spaceId, trimmed);
      const first = this.firstPage(variant);
      const items = results.map((result) => {
        const page = content.byId.get(result.id);
        const href = page ? urls.page(variant, page.id === first?.id ? undefined : page) : undefined;
        const excerpt = result.body ? `<p>${escapeHtml(result.body.slice(0, 240))}</p>` : '';
        return `<li>${href ? `<a href="${escapeHtml(href)}">${escapeHtml(result.title)}</a>` : escapeHtml(result.title)}${excerpt}</li>`;
      });
      const note = this.changeRequest?.spaceId === variant.spaceId ? '<p class="pv-dim">Search reads the space’s own content: the change request’s edits are not searched.</p>' : '';
      body = items.length === 0 ? `<p>No results for “${escapeHtml(trimmed)}”.</p>${note}` : `${note}<ol class="pv-results">${items.join('')}</ol>`;
    }
    return renderShell({
      site,
      variant,
      content,
      page: undefined,
      title: trimmed ? `Search: ${trimmed}` : 'Search',
      body,
      urls,
      nonce,
      mode: 'served',
      firstPage: this.firstPage,
      changeRequest: this.changeRequest,
      version: this.version,
      query: trimmed,
    });
  }
}

/** A nonce for one response (or one static copy): 128 random bits. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}
