/**
 * Documents, page meta links and embeds (routes: src/api/routes/documents.ts).
 *
 * - A page's `documentId` is `<pageId>.<hash of its body object>`: it changes exactly when
 *   the body does (as GitBook's document ids do) and names where to look, so
 *   getDocumentById reads one page entry per revision it tries: the space's primary
 *   revision first, then its revisions newest first (change requests' included), at most
 *   MAX_DOCUMENT_REVISIONS of them. A body hash alone would be global to the store: the
 *   page id and the space's own revisions are what keep one space from reading another's
 *   document by its hash.
 * - Reusable contents are the tree's files with `rc_` ids (Git Sync's `.gitbook/includes/*.md`,
 *   content-model/model.ts): title from their front matter, body after it, documentId
 *   `<id>.<hash of the file's data>`. `dereferenced` page documents expand the page's
 *   `{% include %}` tags with those bodies (one level, at most MAX_EXPANDED_INCLUDES).
 * - Meta links are the page's front matter `metaLinks` (Git Sync keeps it verbatim):
 *   `canonical` (one target) and `alternates` (a list); a target is an absolute http(s)
 *   URL (`{kind: url}`) or a path to another page's file relative to this one
 *   (`{kind: page}`, found among the revision's pages by Git path; one walk of page
 *   objects, bodies not read, and only when such a path is there).
 * - Embeds never fetch anything: in a space, a URL one of its installed integrations'
 *   blocks unfurls (`urlUnfurl`: a URL prefix, `*` any characters) embeds as that block;
 *   a URL of content docsctl serves (an app URL of a space, change request, page or
 *   collection the caller may read) as that content's title and site; any other http(s)
 *   URL as GitBook's generic link embed, from the URL alone.
 */
import { ApiError, badRequest, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/documents.js';
import type { StoreReader } from '../../store/types.js';
import { parseFrontMatter } from '../../gitsync/frontmatter.js';
import { dirname, joinPath, normalizePath } from '../../gitsync/paths.js';
import { type Handler, type HandlerContext, implementer } from '../handler.js';
import { type RevisionRecord, type SpaceRecord, Tables, getOrg } from '../core-records.js';
import { coveringInstallations } from '../integration-records.js';
import { getIntegration } from '../integrations.js';
import { collectionAccess } from '../permissions.js';
import { changeRequestFor, metadataOf, primaryRevision, spaceFor } from './common.js';
import { requireRevisionRecord } from './change-request-records.js';
import { parseAppUrl } from './by-url.js';
import { expandIncludes, reusableText } from './includes.js';
import { revisionById } from './revisions.js';
import { type RevisionContent, type StoredFile, type StoredPage, openContent } from './storage.js';
import { type JsonDocument, MAX_DOCUMENT_NODES, markdownToDocument, reusableContentView } from './views.js';
import { REUSABLE_ID_PREFIX } from '../../content-model/model.js';

const on = implementer<typeof routes>();

// ─── Documents ─────────────────────────────────────────────────────────────

/** Revisions getDocumentById looks through (newest first) before answering 404: a bounded cost per request. */
export const MAX_DOCUMENT_REVISIONS = 1000;

const DOCUMENT_ID = /^([^./]{1,200})\.([0-9a-f]{64})$/;

/** A page's body as a JSON document; 413 past MAX_DOCUMENT_NODES (the Markdown read stays possible). */
export function documentOfMarkdown(markdown: string, what: string): JsonDocument {
  const document = markdownToDocument(markdown);
  if (!document) throw new ApiError(413, `${what} is too large to answer as a document (more than ${MAX_DOCUMENT_NODES} blocks and code lines): read it as Markdown`);
  return document;
}

/** The Markdown of the page (or reusable content) `id` of `revision` whose body (data) object is `hash`, or undefined. */
function bodyWithHash(tx: StoreReader, revision: Pick<RevisionRecord, 'content'>, id: string, hash: string): string | undefined {
  const content = openContent(tx, revision);
  if (id.startsWith(REUSABLE_ID_PREFIX)) {
    const file = content.file(id);
    return file?.data === hash ? reusableText(content, file).body : undefined;
  }
  const page = content.page(id);
  return page?.body === hash ? (content.markdown(page) ?? '') : undefined;
}

function documentById(tx: StoreReader, space: SpaceRecord, documentId: string): JsonDocument {
  const missing = () =>
    new ApiError(404, `Document ${documentId} not found in space ${space.id}`, { hint: 'a document id is the documentId of a page: docsctl page get SPACE PAGE --json documentId' });
  const match = DOCUMENT_ID.exec(documentId);
  if (!match) throw missing();
  const [, id, hash] = match as unknown as [string, string, string];
  let found = bodyWithHash(tx, primaryRevision(tx, space), id, hash);
  if (found === undefined) {
    for (const [, revision] of tx.scan<RevisionRecord>(Tables.revisions, { prefix: `${space.id}/`, reverse: true, limit: MAX_DOCUMENT_REVISIONS })) {
      found = bodyWithHash(tx, revision, id, hash);
      if (found !== undefined) break;
    }
  }
  if (found === undefined) throw missing();
  return documentOfMarkdown(found, `Document ${documentId}`);
}

// ─── Reusable contents ─────────────────────────────────────────────────────

/** A reusable content's title and body (after its front matter). */
const textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

function reusableFile(content: RevisionContent, id: string, where: string): StoredFile {
  const file = id.startsWith(REUSABLE_ID_PREFIX) ? content.file(id) : undefined;
  if (!file) throw notFound(`Reusable content ${id} not found in this ${where}`);
  return file;
}

function reusableAnswer(tx: StoreReader, revision: RevisionRecord, id: string, where: string, query: { metadata?: boolean | undefined }) {
  const content = openContent(tx, revision);
  const file = reusableFile(content, id, where);
  return reusableContentView(file, textDecoder.decode(content.fileData(file)), metadataOf(query));
}

/** `dereferenced`: true and `reusable-contents` both expand includes (the only references docsctl's documents hold). */
type Dereferenced = boolean | 'reusable-contents' | undefined;

function pageDocument(tx: StoreReader, space: SpaceRecord, revision: RevisionRecord, pageId: string, dereferenced: Dereferenced): JsonDocument {
  const content = openContent(tx, revision);
  const page = content.page(pageId);
  if (!page) throw notFound(`Page ${pageId} not found in revision ${revision.id}`);
  if (page.type !== 'document') throw notFound(`Page ${pageId} is a ${page.type === 'group' ? 'page group' : 'link'}: it has no document`);
  const markdown = content.markdown(page) ?? '';
  return documentOfMarkdown(dereferenced ? expandIncludes(content, space.id, page, markdown) : markdown, `Page "${page.title}" (${page.id})`);
}

// ─── Meta links ────────────────────────────────────────────────────────────

type MetaLinkTarget = { kind: 'url'; url: string } | { kind: 'page'; page: string };
interface MetaLinks {
  canonical?: MetaLinkTarget;
  alternates?: MetaLinkTarget[];
}

/** Alternates read from one page's front matter. */
const MAX_ALTERNATES = 100;

/** The id of the page whose Git file is `path` (one walk of the page objects, no bodies). */
function pageAtGitPath(content: RevisionContent, path: string): string | undefined {
  const stack = content.children();
  while (stack.length > 0) {
    const page = stack.pop() as StoredPage;
    if (page.git?.path === path) return page.id;
    stack.push(...content.children(page));
  }
  return undefined;
}

function metaLinksOf(content: RevisionContent, page: StoredPage): MetaLinks {
  const raw = page.extra?.frontMatter;
  if (typeof raw !== 'string') return {};
  const yaml = raw.replace(/^---[ \t]*\r?\n/, '').replace(/(?:---|\.\.\.)[ \t]*(?:\r?\n)?$/, '');
  const meta = parseFrontMatter(yaml).data.metaLinks;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return {};
  const target = (value: unknown): MetaLinkTarget | undefined => {
    if (typeof value !== 'string' || value.trim() === '') return undefined;
    if (/^https?:\/\//i.test(value)) return { kind: 'url', url: value };
    if (!page.git || /^[a-z][a-z0-9+.-]*:/i.test(value)) return undefined;
    const path = value.startsWith('/') ? null : normalizePath(joinPath(dirname(page.git.path), value.split('#')[0] as string));
    const found = path ? pageAtGitPath(content, path) : undefined;
    return found ? { kind: 'page', page: found } : undefined;
  };
  const { canonical, alternates } = meta as { canonical?: unknown; alternates?: unknown };
  const links: MetaLinks = {};
  const canonicalTarget = target(canonical);
  if (canonicalTarget) links.canonical = canonicalTarget;
  if (Array.isArray(alternates)) {
    links.alternates = alternates.slice(0, MAX_ALTERNATES).map(target).filter((t): t is MetaLinkTarget => t !== undefined);
  }
  return links;
}

function metaLinksAnswer(tx: StoreReader, revision: RevisionRecord, pageId: string, where: string): MetaLinks {
  const content = openContent(tx, revision);
  const page = content.page(pageId);
  if (!page) throw notFound(`Page ${pageId} not found in this ${where}`);
  return metaLinksOf(content, page);
}

// ─── Embeds ────────────────────────────────────────────────────────────────

type Embed =
  | { type: 'link'; title: string; site: string; icon?: string }
  | { type: 'integration'; title: string; site: string; icon?: string; integration: string; block: IntegrationBlock };

interface IntegrationBlock {
  id: string;
  title: string;
  icon?: string;
  urlUnfurl?: string[];
}

/**
 * True when `url` starts with one of the block's `urlUnfurl` patterns, `*` matching any run of
 * characters. Each part after the first is found leftmost with indexOf (enough for a prefix
 * match, and linear: no regular expression a hostile manifest could make backtrack).
 */
function unfurls(block: IntegrationBlock, url: string): boolean {
  return (block.urlUnfurl ?? []).some((pattern) => {
    const [first, ...rest] = pattern.split('*');
    if (!url.startsWith(first as string)) return false;
    let at = (first as string).length;
    for (const part of rest) {
      const found = url.indexOf(part, at);
      if (found < 0) return false;
      at = found + part.length;
    }
    return true;
  });
}

/** The embed of the first block of an integration installed on the space that unfurls `url` (integrations in name order). */
function integrationEmbed(tx: StoreReader, space: SpaceRecord, url: string): Embed | undefined {
  for (const { integration: name } of coveringInstallations(tx, space)) {
    const integration = getIntegration(tx, name);
    const block = (integration?.blocks as IntegrationBlock[] | undefined)?.find((candidate) => unfurls(candidate, url));
    if (integration && block) {
      return { type: 'integration', title: block.title, site: integration.title, ...(block.icon ? { icon: block.icon } : {}), integration: name, block };
    }
  }
  return undefined;
}

function checkedUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`Invalid query field "url": "${raw.slice(0, 100)}" is not an absolute URL; pass one such as https://example.com/page`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`Invalid query field "url": only http and https URLs embed, not ${url.protocol}`);
  return url;
}

/** GitBook's generic link embed, from the URL alone. */
function linkEmbed(url: URL): Embed {
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return { type: 'link', title: `${host}${path}`, site: host };
}

type Ctx = Pick<HandlerContext, 'tx' | 'actor' | 'clock' | 'origin'>;

/** The embed of content docsctl holds at `raw`, or undefined when the URL names nothing the caller may read. */
function contentEmbed(ctx: Ctx, raw: string): Embed | undefined {
  let where: ReturnType<typeof parseAppUrl>;
  try {
    where = parseAppUrl(raw);
  } catch {
    return undefined;
  }
  try {
    if (where.collection !== undefined) {
      const { collection } = collectionAccess(ctx.tx, where.collection, ctx.actor.userId);
      if (where.organization !== undefined && where.organization !== collection.organization) return undefined;
      return { type: 'link', title: collection.title, site: getOrg(ctx.tx, collection.organization)?.title ?? collection.organization };
    }
    const { space } = spaceFor(ctx.tx, ctx, where.space as string);
    if (where.organization !== undefined && where.organization !== space.organization) return undefined;
    let revision = primaryRevision(ctx.tx, space);
    let title: string | undefined;
    if (where.changeRequest !== undefined) {
      const { cr } = changeRequestFor(ctx.tx, ctx, space.id, where.changeRequest);
      revision = requireRevisionRecord(ctx.tx, space.id, cr.revision);
      title = cr.subject || `#${cr.number}`;
    } else if (where.revision !== undefined) revision = revisionById(ctx.tx, space, where.revision);
    if (where.pagePath !== '') {
      const found = openContent(ctx.tx, revision).findByPath(where.pagePath);
      if (!found) return undefined;
      return { type: 'link', title: found.page.title || 'Untitled', site: space.title, ...(found.page.emoji ? { icon: found.page.emoji } : {}) };
    }
    const site = getOrg(ctx.tx, space.organization)?.title ?? space.organization;
    return { type: 'link', title: title ?? space.title, site, ...(space.emoji ? { icon: space.emoji } : {}) };
  } catch (error) {
    // Not found, or not the caller's to read: the URL embeds as any other link.
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return undefined;
    throw error;
  }
}

const embedOf = (ctx: Ctx, raw: string): Embed => {
  const url = checkedUrl(raw);
  return contentEmbed(ctx, raw) ?? linkEmbed(url);
};

export const documentHandlers: Record<string, Handler> = {
  ...on('getDocumentById', (ctx, { params }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return documentById(ctx.tx, space, params.documentId);
  }),
  ...on('getPageDocumentInRevisionById', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return pageDocument(ctx.tx, space, revisionById(ctx.tx, space, params.revisionId), params.pageId, query.dereferenced);
  }),
  ...on('getReusableContentById', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return reusableAnswer(ctx.tx, primaryRevision(ctx.tx, space), params.reusableContentId, 'space', query);
  }),
  ...on('getReusableContentInRevisionById', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return reusableAnswer(ctx.tx, revisionById(ctx.tx, space, params.revisionId), params.reusableContentId, 'revision', query);
  }),
  ...on('getReusableContentInChangeRequestById', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    return reusableAnswer(ctx.tx, requireRevisionRecord(ctx.tx, space.id, cr.revision), params.reusableContentId, 'change request', query);
  }),
  ...on('getReusableContentDocumentInRevisionById', (ctx, { params }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    const content = openContent(ctx.tx, revisionById(ctx.tx, space, params.revisionId));
    const file = reusableFile(content, params.reusableContentId, 'revision');
    return documentOfMarkdown(reusableText(content, file).body, `Reusable content ${file.id}`);
  }),
  ...on('listSpacePageMetaLinks', (ctx, { params }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return metaLinksAnswer(ctx.tx, primaryRevision(ctx.tx, space), params.pageId, 'space');
  }),
  ...on('listRevisionPageMetaLinks', (ctx, { params }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return metaLinksAnswer(ctx.tx, revisionById(ctx.tx, space, params.revisionId), params.pageId, 'revision');
  }),
  ...on('listChangeRequestPageMetaLinks', (ctx, { params }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    return metaLinksAnswer(ctx.tx, requireRevisionRecord(ctx.tx, space.id, cr.revision), params.pageId, 'change request');
  }),
  ...on('getEmbedByUrl', (ctx, { query }) => embedOf(ctx, query.url)),
  // In a space, an integration installed there may unfurl the URL as one of its blocks.
  ...on('getEmbedByUrlInSpace', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    const url = checkedUrl(query.url);
    return integrationEmbed(ctx.tx, space, url.href) ?? contentEmbed(ctx, query.url) ?? linkEmbed(url);
  }),
};
