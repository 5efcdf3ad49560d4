/**
 * Reads of a space's content (its primary revision, or any revision by id: the
 * revision, its page tree, a page) and of a change request's content: revision,
 * page tree, a page by id or path, files.
 *
 * Only what a read needs is loaded: a page by id reads its object and its
 * ancestors' (for the path) plus its subtree's objects; a path walks down the
 * matching branch; a file listing reads the files trie and the listed page of
 * file objects. A whole revision (getCurrentRevision…) reads every page.
 */
import { ApiError, notFound } from '../../api/errors.js';
import { REUSABLE_ID_PREFIX } from '../../content-model/model.js';
import type * as routes from '../../api/routes/content.js';
import type { StoreReader } from '../../store/types.js';
import { type Handler, type HandlerContext, implementer } from '../handler.js';
import { itemsOf, paginate } from '../pagination.js';
import { type RevisionRecord, type SpaceRecord, getRevision, getUser } from '../core-records.js';
import { changeRequestFor, metadataOf, primaryRevision, scopeOf, spaceFor } from './common.js';
import { type ChangeRequestRecord, getChangeRequest, requireRevisionRecord } from './change-request-records.js';
import { expandIncludes } from './includes.js';
import { type RevisionContent, type StoredPage, openContent } from './storage.js';
import { type BodyFormat, type ChangeRequestView, type ContentScope, type PageViewOptions, changeRequestView, fileView, pageView, pagesView, revisionView } from './views.js';

type Ctx = Pick<HandlerContext, 'origin'>;

/** The API view of a change request (for `mergedFrom` and references). */
export function crView(tx: StoreReader, ctx: Ctx, space: SpaceRecord, cr: ChangeRequestRecord): ChangeRequestView {
  return changeRequestView(ctx.origin, space.organization, cr, getUser(tx, cr.createdBy), space.revision);
}

export function mergedFromView(tx: StoreReader, ctx: Ctx, space: SpaceRecord, revision: RevisionRecord): ChangeRequestView | undefined {
  if (revision.type !== 'merge' || typeof revision.mergedFrom !== 'string') return undefined;
  const cr = getChangeRequest(tx, space.id, revision.mergedFrom);
  return cr ? crView(tx, ctx, space, cr) : undefined;
}

interface ContentQuery {
  metadata?: boolean | undefined;
}
interface PageQuery extends ContentQuery {
  format?: BodyFormat | undefined;
  dereferenced?: boolean | 'reusable-contents' | undefined;
  'format.markdown.refs'?: 'relative' | 'stable' | undefined;
}

/** A page read's options beyond the view's: `dereferenced` expands includes; refs other than `relative` are not done. */
function pageReadOptions(content: RevisionContent, scope: ContentScope, page: StoredPage, query: PageQuery): PageViewOptions {
  // The spec: ignored unless the answer is Markdown (docsctl's default; `format=document` is not).
  if (query['format.markdown.refs'] === 'stable' && query.format !== 'document') {
    throw new ApiError(501, 'format.markdown.refs=stable is not implemented yet: docsctl answers links as the page writes them (relative)');
  }
  const options: PageViewOptions = { scope, metadata: metadataOf(query), format: query.format };
  const markdown = query.dereferenced ? content.markdown(page) : undefined;
  if (markdown !== undefined) options.bodies = new Map([[page.id, expandIncludes(content, scope.space, page, markdown)]]);
  return options;
}
interface PageListQuery extends ContentQuery {
  /** False (docsctl only): the tree without the pages' Markdown. */
  bodies?: boolean | undefined;
}

function revisionAnswer(tx: StoreReader, ctx: Ctx, space: SpaceRecord, revision: RevisionRecord, scope: ContentScope, query: ContentQuery) {
  return revisionView(openContent(tx, revision), revision, {
    scope,
    metadata: metadataOf(query),
    mergedFrom: mergedFromView(tx, ctx, space, revision),
  });
}

function pagesAnswer(tx: StoreReader, revision: RevisionRecord, scope: ContentScope, query: PageListQuery) {
  return { pages: pagesView(openContent(tx, revision), { scope, metadata: metadataOf(query), omitBodies: query.bodies === false }) };
}

function pageByIdAnswer(tx: StoreReader, revision: RevisionRecord, scope: ContentScope, pageId: string, query: PageQuery) {
  const content = openContent(tx, revision);
  const page = content.page(pageId);
  if (!page) throw notFound(`Page ${pageId} not found in this ${scope.changeRequest ? 'change request' : 'space'}`);
  return pageView(content, page, content.pathOf(page.id), pageReadOptions(content, scope, page, query));
}

export function pageByPathAnswer(tx: StoreReader, revision: RevisionRecord, scope: ContentScope, pagePath: string, query: PageQuery) {
  const content = openContent(tx, revision);
  const found = content.findByPath(pagePath);
  if (!found || found.page.type === 'link') {
    throw notFound(`No page at path "${pagePath}" in this ${scope.changeRequest ? 'change request' : 'space'}`);
  }
  return pageView(content, found.page, found.path, pageReadOptions(content, scope, found.page, query));
}

function filesAnswer(
  tx: StoreReader,
  ctx: Ctx,
  revision: RevisionRecord,
  query: ContentQuery & { page?: string | undefined; limit?: number | undefined },
) {
  const content = openContent(tx, revision);
  const metadata = metadataOf(query);
  return paginate(itemsOf(content.assetIds()), query, (id) => {
    const file = content.file(id);
    if (!file) throw new Error(`store inconsistency: file ${id} listed but missing`);
    return fileView(ctx.origin, file, metadata);
  });
}

function fileAnswer(tx: StoreReader, ctx: Ctx, revision: RevisionRecord, scope: ContentScope, fileId: string, query: ContentQuery) {
  // A reusable content travels as a file of the tree, but the API has it apart (getReusableContent…).
  const file = fileId.startsWith(REUSABLE_ID_PREFIX) ? undefined : openContent(tx, revision).file(fileId);
  if (!file) throw notFound(`File ${fileId} not found in this ${scope.changeRequest ? 'change request' : 'space'}`);
  return fileView(ctx.origin, file, metadataOf(query));
}

/** Any revision of the space (primary, past, or a change request's). */
export function revisionById(tx: StoreReader, space: SpaceRecord, revisionId: string): RevisionRecord {
  const revision = getRevision(tx, space.id, revisionId);
  if (!revision) throw notFound(`Revision ${revisionId} not found in space ${space.id}`);
  return revision;
}

const on = implementer<typeof routes>();

export const revisionHandlers: Record<string, Handler> = {
  // ─── Space content ───────────────────────────────────────────────────────
  ...on('getCurrentRevision', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return revisionAnswer(ctx.tx, ctx, space, primaryRevision(ctx.tx, space), scopeOf(ctx, space), query);
  }),
  ...on('getRevisionById', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return revisionAnswer(ctx.tx, ctx, space, revisionById(ctx.tx, space, params.revisionId), scopeOf(ctx, space), query);
  }),
  ...on('listPagesInRevisionById', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return pagesAnswer(ctx.tx, revisionById(ctx.tx, space, params.revisionId), scopeOf(ctx, space), query);
  }),
  ...on('getPageInRevisionById', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return pageByIdAnswer(ctx.tx, revisionById(ctx.tx, space, params.revisionId), scopeOf(ctx, space), params.pageId, query);
  }),
  ...on('getPageInRevisionByPath', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return pageByPathAnswer(ctx.tx, revisionById(ctx.tx, space, params.revisionId), scopeOf(ctx, space), params.pagePath, query);
  }),
  ...on('listFilesInRevisionById', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return filesAnswer(ctx.tx, ctx, revisionById(ctx.tx, space, params.revisionId), query);
  }),
  ...on('getFileInRevisionById', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return fileAnswer(ctx.tx, ctx, revisionById(ctx.tx, space, params.revisionId), scopeOf(ctx, space), params.fileId, query);
  }),
  ...on('listPages', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return pagesAnswer(ctx.tx, primaryRevision(ctx.tx, space), scopeOf(ctx, space), query);
  }),
  ...on('getPageById', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return pageByIdAnswer(ctx.tx, primaryRevision(ctx.tx, space), scopeOf(ctx, space), params.pageId, query);
  }),
  ...on('getPageByPath', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return pageByPathAnswer(ctx.tx, primaryRevision(ctx.tx, space), scopeOf(ctx, space), params.pagePath, query);
  }),
  ...on('listFiles', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return filesAnswer(ctx.tx, ctx, primaryRevision(ctx.tx, space), query);
  }),
  ...on('getFileById', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return fileAnswer(ctx.tx, ctx, primaryRevision(ctx.tx, space), scopeOf(ctx, space), params.fileId, query);
  }),

  // ─── Change request content ──────────────────────────────────────────────
  ...on('getRevisionOfChangeRequestById', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const revision = requireRevisionRecord(ctx.tx, space.id, cr.revision);
    return revisionAnswer(ctx.tx, ctx, space, revision, scopeOf(ctx, space, cr), query);
  }),
  ...on('listPagesInChangeRequest', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    return pagesAnswer(ctx.tx, requireRevisionRecord(ctx.tx, space.id, cr.revision), scopeOf(ctx, space, cr), query);
  }),
  ...on('getPageInChangeRequestById', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const revision = requireRevisionRecord(ctx.tx, space.id, cr.revision);
    return pageByIdAnswer(ctx.tx, revision, scopeOf(ctx, space, cr), params.pageId, query);
  }),
  ...on('getPageInChangeRequestByPath', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const revision = requireRevisionRecord(ctx.tx, space.id, cr.revision);
    return pageByPathAnswer(ctx.tx, revision, scopeOf(ctx, space, cr), params.pagePath, query);
  }),
  ...on('listFilesInChangeRequestById', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    return filesAnswer(ctx.tx, ctx, requireRevisionRecord(ctx.tx, space.id, cr.revision), query);
  }),
  ...on('getFileInChangeRequestById', (ctx, { params, query }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    const revision = requireRevisionRecord(ctx.tx, space.id, cr.revision);
    return fileAnswer(ctx.tx, ctx, revision, scopeOf(ctx, space, cr), params.fileId, query);
  }),
};
