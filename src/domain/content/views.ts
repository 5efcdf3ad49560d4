/**
 * Stored content → API objects, shaped after the real OpenAPI schemas
 * (`RevisionPage*`, `RevisionFile`, `Revision*`, `ChangeRequest`, `ContentLocation`
 * of @gitbook/api 0.202.0).
 *
 * Notes on the schema:
 * - `RevisionPageDocument` is `allOf` with the `Document` oneOf (`{markdown}` |
 *   `{document}` | empty-with-no-properties), whose empty branch no page can match:
 *   every document page must carry `markdown` or `document`. Page listings carry
 *   `markdown`; a single page read carries `document` with `format=document`.
 *   A listing with `bodies=false` (docsctl only) carries neither: the spec's
 *   answer minus the body, gaps.md §4's "nothing" variant.
 * - `layout` of document pages has all thirteen members required: the stored layout
 *   completes the defaults below. `tags` (0.202, required): docsctl keeps no page tags
 *   yet, so every page answers an empty list.
 * - `metadata=false` leaves out `git` (the mutable Git Sync metadata).
 */
import type { ContentRef, PageLayout } from '../../content-model/model.js';
import { eachFencedBlock, eachLine, lineAt } from '../../content-model/markdown.js';
import { ApiError } from '../../api/errors.js';
import type { ChangeRequestRecord } from './change-request-records.js';
import type { RevisionRecord, UserRecord } from '../core-records.js';
import { apiUrl, appUrl, downloadUrl } from '../urls.js';
import { userView, type UserView } from '../views.js';
import type { RevisionContent, StoredFile, StoredPage } from './storage.js';

const seg = (id: string) => encodeURIComponent(id);

/** Where a revision's content is shown: the primary content of a space, or a change request. */
export interface ContentScope {
  origin: string;
  organization: string;
  space: string;
  /** Set when the content is a change request's. */
  changeRequest?: string;
}

/** App URL of the content root of a scope (pages append their path). */
export function scopeAppUrl(scope: ContentScope): string {
  const base = `o/${seg(scope.organization)}/s/${seg(scope.space)}`;
  return appUrl(scope.origin, scope.changeRequest === undefined ? base : `${base}/~/changes/${seg(scope.changeRequest)}`);
}

export const DEFAULT_LAYOUT: Required<PageLayout> = {
  width: 'default',
  cover: true,
  coverSize: 'full',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

// ─── Documents ─────────────────────────────────────────────────────────────

interface DocText {
  object: 'text';
  leaves: Array<{ object: 'leaf'; text: string; marks: [] }>;
}
type DocBlock =
  | { object: 'block'; type: 'paragraph'; nodes: DocText[] }
  | { object: 'block'; type: 'heading-1' | 'heading-2' | 'heading-3'; nodes: DocText[]; data: Record<string, never> }
  | { object: 'block'; type: 'divider'; isVoid: true; data: Record<string, never> }
  | {
      object: 'block';
      type: 'code';
      data: { syntax?: string };
      nodes: Array<{ object: 'block'; type: 'code-line'; nodes: DocText[]; data: Record<string, never> }>;
    };

export interface JsonDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: DocBlock[];
}

const text = (value: string): DocText => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });

/**
 * Nodes (blocks and code lines) a document answer may hold: the JSON document
 * costs a few hundred bytes per node, so a page of millions of one-letter
 * paragraphs would cost gigabytes. Beyond it the page is answered only as
 * Markdown (413, naming the page).
 */
export const MAX_DOCUMENT_NODES = 250_000;

/**
 * A JSON document made from Markdown: headings (`#`, `##`, `###` and deeper),
 * fenced code blocks, thematic breaks and paragraphs (the text of other
 * constructs is kept as paragraph text). Read line by line; undefined past
 * MAX_DOCUMENT_NODES nodes.
 */
export function markdownToDocument(markdown: string): JsonDocument | undefined {
  const nodes: DocBlock[] = [];
  let count = 0;
  const source = markdown.replace(/\r\n?/g, '\n');
  // Fenced code is found by the one fence scanner of src/content-model/markdown.ts, by where it starts.
  const fences = eachFencedBlock(source);
  let fence = fences.next().value;
  let paragraph: string[] = [];
  const push = (node: DocBlock, size = 1): boolean => {
    count += size;
    nodes.push(node);
    return count <= MAX_DOCUMENT_NODES;
  };
  const flush = (): boolean => {
    const ok = paragraph.length === 0 || push({ object: 'block', type: 'paragraph', nodes: [text(paragraph.join('\n'))] });
    paragraph = [];
    return ok;
  };
  for (let line = lineAt(source, 0, 1); line; line = lineAt(source, line.end, line.number + 1)) {
    if (fence && fence.start === line.start) {
      if (!flush()) return undefined;
      const content = source.slice(fence.contentStart, fence.contentEnd).replace(/\n$/, '');
      const syntax = fence.info.split(/\s/, 1)[0] as string;
      const codeLines: Array<{ object: 'block'; type: 'code-line'; nodes: DocText[]; data: Record<string, never> }> = [];
      for (const { text: value } of eachLine(content)) {
        codeLines.push({ object: 'block', type: 'code-line', nodes: [text(value)], data: {} });
        if (count + codeLines.length > MAX_DOCUMENT_NODES) return undefined;
      }
      // `split` gave an empty code block one empty line; and a content ending in an empty line keeps it.
      if (content === '' || content.endsWith('\n')) codeLines.push({ object: 'block', type: 'code-line', nodes: [text('')], data: {} });
      if (!push({ object: 'block', type: 'code', data: syntax ? { syntax } : {}, nodes: codeLines }, 1 + codeLines.length)) return undefined;
      // Continue after the closing fence.
      while (line && line.end < fence.end) line = lineAt(source, line.end, line.number + 1);
      if (!line) break;
      fence = fences.next().value;
      continue;
    }
    const heading = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line.text);
    if (heading) {
      if (!flush()) return undefined;
      const level = Math.min((heading[1] as string).length, 3) as 1 | 2 | 3;
      if (!push({ object: 'block', type: `heading-${level}`, nodes: [text(heading[2] as string)], data: {} })) return undefined;
      continue;
    }
    if (/^ {0,3}([-*_])(\s*\1){2,}\s*$/.test(line.text)) {
      if (!flush() || !push({ object: 'block', type: 'divider', isVoid: true, data: {} })) return undefined;
      continue;
    }
    if (line.text.trim() === '') {
      if (!flush()) return undefined;
    } else paragraph.push(line.text);
  }
  if (!flush()) return undefined;
  return { object: 'document', data: {}, nodes };
}

// ─── Pages ─────────────────────────────────────────────────────────────────

export type BodyFormat = 'markdown' | 'document';

export interface PageViewOptions {
  scope: ContentScope;
  /** False leaves out `git`. */
  metadata: boolean;
  /** Body of the page itself; its descendants always carry `markdown`. */
  format?: BodyFormat | undefined;
  /** `subtree` (default) renders the descendants in `pages`; `self` gives `pages: []` (references). */
  depth?: 'subtree' | 'self';
  /** Markdown already at hand (e.g. loaded for link extraction), by page id. */
  bodies?: ReadonlyMap<string, string>;
  /** True leaves the body out of every page (the listings' `bodies=false`): no body object is read. */
  omitBodies?: boolean;
}

type CoverRef = { kind: 'file'; file: string } | { kind: 'url'; url: string };
const coverRef = (ref: ContentRef | undefined): CoverRef | undefined =>
  ref?.kind === 'file' ? { kind: 'file', file: ref.file } : ref?.kind === 'url' ? { kind: 'url', url: ref.url } : undefined;

/** `id`, `title`, `emoji`, `icon`: the members every page kind starts with. */
function baseView(page: StoredPage): Record<string, unknown> {
  const view: Record<string, unknown> = { id: page.id, title: page.title || 'Untitled' };
  // GitBook's page link title: the quoted title of its SUMMARY.md link (`[Title](page.md "Short")`), kept by Git Sync.
  if (typeof page.extra?.linkTitle === 'string' && page.type !== 'group') view.linkTitle = page.extra.linkTitle;
  if (page.emoji) view.emoji = page.emoji;
  if (page.icon) view.icon = page.icon;
  return view;
}

/** The app URLs of a scope's pages start the same: computed once per scope object. */
const appBases = new WeakMap<ContentScope, string>();
function appBaseOf(scope: ContentScope): string {
  let base = appBases.get(scope);
  if (base === undefined) {
    base = scopeAppUrl(scope);
    appBases.set(scope, base);
  }
  return base;
}

const encodePath = (path: string) => path.split('/').map(seg).join('/');

/** The API shape (RevisionPageDocument / Group / Link) of a stored page at `path`. */
export function pageView(content: RevisionContent, page: StoredPage, path: string, options: PageViewOptions): Record<string, unknown> {
  return renderPage(content, page, path, path ? encodePath(path) : '', options);
}

/**
 * pageView with the page's path already URL-encoded. A listing renders every page
 * of a revision, so this builds each object member by member (the order is the
 * API's) and hands the encoded path and the descendants' options down instead of
 * recomputing them per page.
 */
function renderPage(content: RevisionContent, page: StoredPage, path: string, encoded: string, options: PageViewOptions): Record<string, unknown> {
  const view = baseView(page);
  if (page.type === 'link') {
    view.kind = 'link';
    view.type = 'link';
    view.target = page.target ?? ({ kind: 'url', url: page.href ?? '' } satisfies ContentRef);
    if (page.href !== undefined) view.href = page.href;
    if (page.hidden) view.hidden = true;
    return view;
  }
  const childViews = (): Record<string, unknown>[] => {
    if (options.depth === 'self') return [];
    const childOptions = options.format === 'markdown' ? options : { ...options, format: 'markdown' as const };
    return content.children(page).map((child) => {
      if (!child.slug) return renderPage(content, child, path, encoded, childOptions);
      const childPath = path ? `${path}/${child.slug}` : child.slug;
      const own = child.slug.includes('/') ? encodePath(child.slug) : seg(child.slug);
      return renderPage(content, child, childPath, encoded ? `${encoded}/${own}` : own, childOptions);
    });
  };
  if (page.type === 'group') {
    view.kind = 'group';
    view.type = 'group';
    view.slug = page.slug ?? '';
    view.path = path;
    view.pages = childViews();
    addFlags(view, page);
    return view;
  }
  const appBase = appBaseOf(options.scope);
  view.kind = 'sheet';
  view.type = 'document';
  view.urls = { app: encoded ? `${appBase}/${encoded}` : appBase };
  view.slug = page.slug ?? '';
  view.path = path;
  if (page.description !== undefined) view.description = page.description;
  view.pages = childViews();
  if (options.metadata && page.git) view.git = { oid: page.git.oid, path: page.git.path };
  view.layout = page.layout ? { ...DEFAULT_LAYOUT, ...definedLayout(page.layout) } : { ...DEFAULT_LAYOUT };
  view.tags = [];
  if (page.cover) {
    const ref = coverRef(page.cover.ref);
    const refDark = coverRef(page.cover.refDark);
    view.cover = { ...(ref ? { ref } : {}), ...(refDark ? { refDark } : {}), yPos: page.cover.yPos ?? 0 };
  }
  addFlags(view, page);
  const documentId = documentIdOf(page);
  if (documentId !== undefined) view.documentId = documentId;
  if (!options.omitBodies) Object.assign(view, bodyOf(content, page, options));
  return view;
}

/**
 * The documentId of a page with a body (undefined for groups and links): `<pageId>.<hash of
 * its body object>`, so it changes exactly when the body does; getDocumentById reads it back
 * (documents.ts).
 */
export const documentIdOf = (page: Pick<StoredPage, 'id' | 'body'>): string | undefined =>
  page.body === undefined ? undefined : `${page.id}.${page.body}`;

function addFlags(view: Record<string, unknown>, page: StoredPage): void {
  if (page.hidden) view.hidden = true;
  if (page.noIndex) view.noIndex = true;
  if (page.noRobotsIndex) view.noRobotsIndex = true;
}

function bodyOf(content: RevisionContent, page: StoredPage, options: PageViewOptions): { markdown: string } | { document: JsonDocument } {
  const markdown = options.bodies?.get(page.id) ?? content.markdown(page) ?? '';
  if (options.format !== 'document') return { markdown };
  const document = markdownToDocument(markdown);
  if (!document) {
    throw new ApiError(413, `Page "${page.title}" (${page.id}) is too large to answer as a document (more than ${MAX_DOCUMENT_NODES} blocks and code lines): read it with format=markdown`);
  }
  return { document };
}

function definedLayout(layout: PageLayout | undefined): PageLayout {
  const out: PageLayout = {};
  if (!layout) return out;
  for (const [key, value] of Object.entries(layout)) if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  return out;
}

/** Every root page of a content, rendered with its subtree. */
export function pagesView(content: RevisionContent, options: PageViewOptions): Record<string, unknown>[] {
  content.allPageHashes(); // every page is visited: one walk of the pages trie instead of a lookup per page
  const rootOptions = { ...options, format: 'markdown' as const };
  return content.children().map((page) => pageView(content, page, page.slug ?? '', rootOptions));
}

// ─── Files ─────────────────────────────────────────────────────────────────

export interface FileView {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
  git?: { oid: string; path: string };
}

/**
 * `downloadURL` points at `${origin}/files/<data hash>/<name>`, which `docsctl serve`
 * answers with the bytes (content-addressed: the URL never goes stale).
 */
export function fileView(origin: string, file: StoredFile, metadata: boolean): FileView {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: downloadUrl(origin, file.data, file.name),
    size: file.size,
    ...(file.dimensions ? { dimensions: { width: file.dimensions.width, height: file.dimensions.height } } : {}),
    ...(metadata && file.git ? { git: { oid: file.git.oid, path: file.git.path } } : {}),
  };
}

// ─── Reusable contents ─────────────────────────────────────────────────────

/**
 * A reusable content's file (`.gitbook/includes/x.md`) split: its front matter `title:` (the
 * file name without `.md` when it has none) and its body after the front matter. Read with a
 * line scan, not the YAML parser (GitBook writes `title: Text`; quoted forms are read too).
 */
export function reusableParts(name: string, text: string): { title: string; body: string } {
  const fallback = name.replace(/\.md$/i, '');
  const front = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  if (!front) return { title: fallback, body: text };
  const line = /^title:[ \t]*(.*?)[ \t]*$/m.exec(front[1] as string)?.[1] ?? '';
  let title = line;
  if (/^".*"$/.test(line)) {
    try {
      title = JSON.parse(line) as string;
    } catch {
      title = line.slice(1, -1);
    }
  } else if (/^'.*'$/.test(line)) title = line.slice(1, -1).replace(/''/g, "'");
  return { title: title || fallback, body: text.slice(front[0].length) };
}

/** The API's RevisionReusableContent of a reusable content's file; `text` is its bytes decoded. */
export function reusableContentView(file: StoredFile, text: string, metadata: boolean): Record<string, unknown> {
  return {
    id: file.id,
    title: reusableParts(file.name, text).title,
    ...(metadata && file.git ? { git: { oid: file.git.oid, path: file.git.path } } : {}),
    document: `${file.id}.${file.data}`,
  };
}

/** Every reusable content of a revision (one file object and its bytes read each). */
export function reusableContentsView(content: RevisionContent, metadata: boolean): Record<string, unknown>[] {
  return content.reusableIds().flatMap((id) => {
    const file = content.file(id);
    return file ? [reusableContentView(file, textDecoder.decode(content.fileData(file)), metadata)] : [];
  });
}

const textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

// ─── Change requests ───────────────────────────────────────────────────────

export interface ChangeRequestView {
  object: 'change-request';
  id: string;
  number: number;
  status: ChangeRequestRecord['status'];
  subject: string;
  description?: unknown;
  createdBy: UserView;
  createdAt: string;
  updatedAt: string;
  space: string;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  comments: number;
  outdated: boolean;
  urls: { app: string; location: string };
}

/** True when the primary content moved on since the change request last took it in. */
export function isOutdated(cr: ChangeRequestRecord, primaryRevision: string): boolean {
  if (cr.status === 'merged') return false;
  return primaryRevision !== (cr.revisionMergedAncestor ?? cr.revisionInitial);
}

export function changeRequestView(
  origin: string,
  organization: string,
  cr: ChangeRequestRecord,
  creator: UserRecord | undefined,
  primaryRevision: string,
): ChangeRequestView {
  return {
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    ...(cr.description !== undefined ? { description: cr.description } : {}),
    createdBy: creator
      ? userView({ origin }, creator)
      : { object: 'user', id: cr.createdBy, displayName: cr.createdBy, email: '', urls: { location: apiUrl(origin, `users/${seg(cr.createdBy)}`) } },
    createdAt: cr.createdAt,
    updatedAt: cr.updatedAt,
    space: cr.space,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor !== undefined ? { revisionMergedAncestor: cr.revisionMergedAncestor } : {}),
    ...(cr.revisionMerged !== undefined ? { revisionMerged: cr.revisionMerged } : {}),
    comments: cr.comments,
    ...(cr.links !== undefined && cr.links.length > 0 ? { links: cr.links } : {}),
    outdated: isOutdated(cr, primaryRevision),
    urls: {
      app: appUrl(origin, `o/${seg(organization)}/s/${seg(cr.space)}/~/changes/${seg(cr.id)}`),
      location: apiUrl(origin, `spaces/${seg(cr.space)}/change-requests/${seg(cr.id)}`),
    },
  };
}

// ─── Revisions ─────────────────────────────────────────────────────────────

export function revisionAppUrl(origin: string, organization: string, revision: Pick<RevisionRecord, 'id' | 'space'>): string {
  return appUrl(origin, `o/${seg(organization)}/s/${seg(revision.space)}/~/revisions/${seg(revision.id)}`);
}

/**
 * A Revision: its pages (with Markdown), files, and for a merge revision the
 * change request it merged (`mergedFrom`, required by the schema).
 */
export function revisionView(
  content: RevisionContent,
  revision: RevisionRecord,
  options: { scope: ContentScope; metadata: boolean; mergedFrom?: ChangeRequestView | undefined },
): Record<string, unknown> {
  const { scope, metadata } = options;
  const git = revision.git;
  return {
    object: 'revision',
    id: revision.id,
    parents: [...revision.parents],
    pages: pagesView(content, { scope, metadata }),
    files: content.assetIds().flatMap((id) => {
      const file = content.file(id);
      return file ? [fileView(scope.origin, file, metadata)] : [];
    }),
    reusableContents: reusableContentsView(content, metadata),
    // 0.202: the tags a revision defines; docsctl's content has none yet (pages answer `tags: []` too).
    tags: [],
    urls: { app: revisionAppUrl(scope.origin, scope.organization, revision) },
    createdAt: revision.createdAt,
    type: revision.type,
    ...(metadata && git && typeof git.oid === 'string' && typeof git.message === 'string'
      ? {
          git: {
            oid: git.oid,
            message: git.message,
            createdByGitBook: git.createdByGitBook ?? false,
            ...(git.url !== undefined ? { url: git.url } : {}),
            ...(git.ref !== undefined ? { ref: git.ref } : {}),
          },
        }
      : {}),
    ...(revision.type === 'merge' && options.mergedFrom ? { mergedFrom: options.mergedFrom } : {}),
  };
}
