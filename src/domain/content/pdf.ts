/**
 * PDF export (`getChangeRequestPDF`, `getSpacePDF`): renders the pages of the
 * content (depth first; groups as section titles; link pages skipped) with
 * `renderPdf`, saves the file through `ctx.artifacts` and answers `{url}`.
 * `page=ID` prints that page and its descendants; with `only=true`, that page
 * alone (`only` needs `page`: 400 without it).
 *
 * The rendering and the save happen in `prepare` (outside any store lock);
 * `run` only answers the URL.
 */
import { badRequest, notFound } from '../../api/errors.js';
import type * as crRoutes from '../../api/routes/change-requests.js';
import type * as contentRoutes from '../../api/routes/content.js';
import type { StoreReader } from '../../store/types.js';
import { type Handler, type PrepareContext, type TwoPhaseHandler, implementer } from '../handler.js';
import type { RevisionRecord } from '../core-records.js';
import { changeRequestFor, primaryRevision, spaceFor } from './common.js';
import { requireRevisionRecord } from './change-request-records.js';
import { type RevisionContent, type StoredPage, openContent } from './storage.js';

interface PdfQuery {
  only?: boolean | undefined;
  page?: string | undefined;
}

interface PdfPage {
  title: string;
  markdown: string;
}

function collect(content: RevisionContent, query: PdfQuery, where: string): PdfPage[] {
  if (query.only && query.page === undefined) throw badRequest('"only" needs "page": the id of the page to print');
  const out: PdfPage[] = [];
  const add = (page: StoredPage, deep: boolean) => {
    if (page.type !== 'link') out.push({ title: page.title || 'Untitled', markdown: content.markdown(page) ?? '' });
    if (deep) for (const child of content.children(page)) add(child, true);
  };
  if (query.page !== undefined) {
    const page = content.page(query.page);
    if (!page) throw notFound(`Page ${query.page} not found in this ${where}`);
    add(page, !query.only);
  } else {
    for (const page of content.children()) add(page, true);
  }
  return out;
}

async function render(
  ctx: PrepareContext,
  reader: StoreReader,
  revision: RevisionRecord,
  title: string,
  name: string,
  query: PdfQuery,
  where: string,
): Promise<{ url: string }> {
  const pages = collect(openContent(reader, revision), query, where);
  const { renderPdf } = await import('../../content-model/pdf.js');
  const data = renderPdf({ title, pages });
  const url = await ctx.artifacts.save(`${name.replace(/[^A-Za-z0-9._-]+/g, '-')}-${ctx.ids()}.pdf`, data, 'application/pdf');
  return { url };
}

const crPdf: TwoPhaseHandler<typeof crRoutes.getChangeRequestPDF, { url: string }> = {
  async prepare(ctx, { params, query }) {
    const { space, cr } = changeRequestFor(ctx.reader, ctx, params.spaceId, params.changeRequestId);
    const revision = requireRevisionRecord(ctx.reader, space.id, cr.revision);
    const title = cr.subject ? `${space.title}: ${cr.subject}` : `${space.title} (change request #${cr.number})`;
    return render(ctx, ctx.reader, revision, title, `${space.id}-cr${cr.number}`, query, 'change request');
  },
  run: (_ctx, _input, prepared) => prepared,
};

const spacePdf: TwoPhaseHandler<typeof contentRoutes.getSpacePDF, { url: string }> = {
  async prepare(ctx, { params, query }) {
    const { space } = spaceFor(ctx.reader, ctx, params.spaceId);
    return render(ctx, ctx.reader, primaryRevision(ctx.reader, space), space.title, space.id, query, 'space');
  },
  run: (_ctx, _input, prepared) => prepared,
};

const crOn = implementer<typeof crRoutes>();
const contentOn = implementer<typeof contentRoutes>();

export const pdfHandlers: Record<string, Handler> = {
  ...crOn('getChangeRequestPDF', crPdf),
  ...contentOn('getSpacePDF', spacePdf),
};
