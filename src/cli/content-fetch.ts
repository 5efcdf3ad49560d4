/**
 * Reads a whole revision's content through the API (pages with their Markdown),
 * so `cr diff` and the conflict listing of `cr merge`/`cr update` work the same
 * in local mode, against `serve`, and against any /v1 server.
 */
import type { RouteId } from '../api/route-id.js';
import type { ContentPage, ContentTree, PageType } from '../content-model/model.js';
import type { Transport } from '../transport/types.js';

interface ApiPage {
  id: string;
  type: PageType | 'computed';
  title: string;
  slug?: string;
  path?: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  pages?: ApiPage[];
  href?: string;
  markdown?: string;
}

export type RevisionRef = { kind: 'primary' } | { kind: 'change-request'; changeRequestId: string } | { kind: 'revision'; revisionId: string };

function pagesRoute(ref: RevisionRef): [RouteId, Record<string, string>] {
  if (ref.kind === 'primary') return ['listPages', {}];
  if (ref.kind === 'change-request') return ['listPagesInChangeRequest', { changeRequestId: ref.changeRequestId }];
  return ['listPagesInRevisionById', { revisionId: ref.revisionId }];
}

function pageRoute(ref: RevisionRef): [RouteId, Record<string, string>] {
  if (ref.kind === 'primary') return ['getPageById', {}];
  if (ref.kind === 'change-request') return ['getPageInChangeRequestById', { changeRequestId: ref.changeRequestId }];
  return ['getPageInRevisionById', { revisionId: ref.revisionId }];
}

/** Runs `work` over `items` with at most `limit` in flight (remote mode: a few requests at once). */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function fetchTree(transport: Transport, spaceId: string, ref: RevisionRef): Promise<ContentTree> {
  const [listId, listParams] = pagesRoute(ref);
  const { body } = await transport.request(listId, { params: { spaceId, ...listParams } });
  const roots = ((body as { pages?: ApiPage[] }).pages ?? []) as ApiPage[];
  const documents: ApiPage[] = [];
  const collect = (pages: ApiPage[]) => {
    for (const page of pages) {
      if (page.type === 'document') documents.push(page);
      collect(page.pages ?? []);
    }
  };
  collect(roots);
  const [pageId, pageParams] = pageRoute(ref);
  const bodies = new Map<string, string>();
  await mapLimited(documents, transport.mode === 'remote' ? 8 : 1, async (page) => {
    const answer = await transport.request(pageId, {
      params: { spaceId, ...pageParams, pageId: page.id },
      query: { format: 'markdown' },
    });
    bodies.set(page.id, String((answer.body as { markdown?: unknown }).markdown ?? ''));
  });
  const convert = (page: ApiPage): ContentPage => ({
    id: page.id,
    type: page.type === 'computed' ? 'link' : page.type,
    title: page.title,
    ...(page.slug !== undefined ? { slug: page.slug } : {}),
    ...(page.description !== undefined ? { description: page.description } : {}),
    ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
    ...(page.icon !== undefined ? { icon: page.icon } : {}),
    ...(page.hidden !== undefined ? { hidden: page.hidden } : {}),
    ...(page.href !== undefined ? { href: page.href } : {}),
    ...(page.type === 'document' ? { markdown: bodies.get(page.id) ?? '' } : {}),
    pages: (page.pages ?? []).map(convert),
  });
  return { pages: roots.map(convert), files: [] };
}
