/**
 * Search (real API): the pages of a space whose title or text contain the words
 * of the query, best first. Ranking: pages with more of the query's words first,
 * then a tf-idf score where a word in the title counts three times. Results are
 * read from the index (index.ts) and only the pages of the answer are opened, for
 * their title, path and the sections that match.
 */
import type * as routes from '../../api/routes/search.js';
import { badRequest } from '../../api/errors.js';
import type { StoreReader } from '../../store/types.js';
import { spaceFor } from '../content/common.js';
import { type RevisionContent, openContent } from '../content/storage.js';
import { implementer } from '../handler.js';
import { type PageQuery, itemsOf, paginate } from '../pagination.js';
import { orgAccess } from '../permissions.js';
import { type SpaceRecord, getRevision, getSpace, orgSpaceList } from '../core-records.js';
import { appUrl } from '../urls.js';
import { type PostingRow, eachPosting, eachWord, indexReadable, indexState, pagePostings, postingCount, postingRows, tokenize } from './index.js';
import { eachLine } from '../../content-model/markdown.js';

const on = implementer<typeof routes>();
const seg = (id: string) => encodeURIComponent(id);

interface Hit {
  pageId: string;
  matched: number;
  score: number;
}

export function queryWords(query: string): string[] {
  const words = [...new Set(tokenize(query))];
  if (words.length === 0) throw badRequest(`Invalid query "${query}": it has no searchable words (letters or digits, common words left out)`);
  return words.slice(0, 16);
}

/** The postings of each query word (rows of page id → posting), from the index, or (index missing or behind) from the pages themselves. */
function postings(tx: StoreReader, space: SpaceRecord, content: RevisionContent, words: string[]): { byWord: PostingRow[][]; pages: number } {
  const state = indexState(tx, space.id);
  if (indexReadable(state, space.revision)) {
    return { byWord: words.map((word) => postingRows(tx, space.id, word)), pages: state.pages };
  }
  const byWord = words.map(() => [] as Array<string | number>);
  const ids = [...content.allPageHashes().keys()];
  for (const id of ids) {
    const page = content.page(id);
    if (!page) continue;
    const counts = pagePostings(page.title ?? '', `${page.description ?? ''}\n${page.type === 'document' ? (content.markdown(page) ?? '') : ''}`);
    words.forEach((word, i) => {
      const posting = counts.get(word);
      if (posting) byWord[i]?.push(id, posting[0], posting[1]);
    });
  }
  return { byWord: byWord.map((row) => [row]), pages: ids.length };
}

function rank(byWord: PostingRow[][], pages: number): Hit[] {
  const hits = new Map<string, Hit>();
  for (const rows of byWord) {
    let found = 0;
    for (const row of rows) found += postingCount(row);
    const idf = Math.log(1 + Math.max(pages, 1) / Math.max(found, 1));
    for (const row of rows) {
      eachPosting(row, (pageId, text, title) => {
        let hit = hits.get(pageId);
        if (!hit) hits.set(pageId, (hit = { pageId, matched: 0, score: 0 }));
        hit.matched += 1;
        hit.score += idf * ((text > 0 ? 1 + Math.log(text) : 0) + 3 * (title > 0 ? 1 : 0));
      });
    }
  }
  return [...hits.values()].sort((a, b) => b.matched - a.matched || b.score - a.score || (a.pageId < b.pageId ? -1 : 1));
}

function slugify(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
}

/** The titles of a page's ancestors, top-level first (0.202 `SearchPageResult.ancestors`). */
function ancestorTitles(content: RevisionContent, parentId: string | undefined): Array<{ title: string }> {
  const titles: Array<{ title: string }> = [];
  const seen = new Set<string>();
  for (let current = parentId === undefined ? undefined : content.page(parentId); current && !seen.has(current.id); current = current.parent === undefined ? undefined : content.page(current.parent)) {
    seen.add(current.id);
    titles.push({ title: current.title || 'Untitled' });
  }
  return titles.reverse();
}

interface SectionResult {
  id: string;
  title: string;
  path: string;
  score: number;
  body: string;
  urls: { app: string };
}

/**
 * The page as a `SearchPageResult`, with up to three sections (heading + the matching lines) that contain a query word.
 * `score` is the hit's (higher is better), `rank` its one-based place in the whole ranking; a section's score counts
 * the query words its lines hold.
 */
function pageResult(space: SpaceRecord, origin: string, content: RevisionContent, hit: Hit, rankOf: number, words: string[]) {
  const page = content.page(hit.pageId);
  if (!page) return undefined;
  const path = content.pathOf(page.id);
  const url = (anchor?: string) => appUrl(origin, `o/${seg(space.organization)}/s/${seg(space.id)}/${path}${anchor ? `#${anchor}` : ''}`);
  const sections: SectionResult[] = [];
  const markdown = page.type === 'document' ? (content.markdown(page) ?? '') : '';
  let heading = page.title || 'Untitled';
  let anchor = '';
  const wanted = new Set(words);
  const mentions = (line: string): number => {
    let found = 0;
    eachWord(line, (word) => {
      if (wanted.has(word)) found += 1;
    });
    return found;
  };
  // Line by line (not split: a page of millions of lines), until three sections are found.
  for (const { text: line } of eachLine(markdown)) {
    if (sections.length >= 3) break;
    const match = /^#{1,6}\s+(.*)$/.exec(line);
    if (match) {
      heading = (match[1] as string).trim();
      anchor = slugify(heading);
      continue;
    }
    const found = line.trim() === '' ? 0 : mentions(line);
    if (found === 0) continue;
    const id = `${page.id}${anchor ? `#${anchor}` : ''}`;
    const existing = sections.find((s) => s.id === id);
    if (existing) {
      existing.score += found;
      if (existing.body.length < 300) existing.body = `${existing.body} ${line.trim()}`.slice(0, 300);
      continue;
    }
    sections.push({ id, title: heading, path: anchor ? `${path}#${anchor}` : path, score: found, body: line.trim().slice(0, 300), urls: { app: url(anchor) } });
  }
  return {
    id: page.id,
    title: page.title || 'Untitled',
    description: page.description ?? '',
    path,
    score: hit.score,
    rank: rankOf,
    ...(sections.length > 0 ? { sections } : {}),
    ancestors: ancestorTitles(content, page.parent),
    urls: { app: url() },
  };
}

/** The ranked hits of a space for the query words. */
function searchSpace(tx: StoreReader, space: SpaceRecord, words: string[]): { hits: Hit[]; content: RevisionContent } | undefined {
  const revision = getRevision(tx, space.id, space.revision);
  if (!revision) return undefined;
  const content = openContent(tx, revision);
  const { byWord, pages } = postings(tx, space, content, words);
  return { hits: rank(byWord, pages), content };
}

export const searchHandlers = {
  ...on('searchSpaceContent', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    const words = queryWords(query.query);
    const found = searchSpace(ctx.tx, space, words);
    if (!found) return { items: [], count: 0 };
    const rankOf = new Map(found.hits.map((hit, i) => [hit, i + 1]));
    return paginate(itemsOf(found.hits), query, (hit) => {
      const rankOfHit = rankOf.get(hit) ?? 1;
      return pageResult(space, ctx.origin, found.content, hit, rankOfHit, words) ??
        { id: hit.pageId, title: 'Untitled', description: '', path: '', score: hit.score, rank: rankOfHit, ancestors: [], urls: { app: appUrl(ctx.origin, `o/${seg(space.organization)}/s/${seg(space.id)}`) } };
    });
  }),

  ...on('searchOrganizationContent', (ctx, { params, query }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const spaces = function* () {
      for (const { id: spaceId } of orgSpaceList.all(ctx.tx, org.id)) {
        const space = getSpace(ctx.tx, spaceId);
        if (space && space.deletedAt === undefined) yield space;
      }
    };
    return rankedSpaces(ctx.tx, ctx.origin, spaces(), queryWords(query.query), query);
  }),
};

/**
 * `SearchSpaceResult`s of the spaces with a match, the spaces ranked by their best page, each
 * with its five best pages (a page's rank is its place in its space's ranking), paged:
 * searchOrganizationContent and searchSiteContent (sites/site-search.ts).
 */
export function rankedSpaces(tx: StoreReader, origin: string, spaces: Iterable<SpaceRecord>, words: string[], query: PageQuery) {
  const results: Array<{ space: SpaceRecord; best: Hit; hits: Hit[]; content: RevisionContent }> = [];
  for (const space of spaces) {
    const found = searchSpace(tx, space, words);
    if (found && found.hits.length > 0) results.push({ space, best: found.hits[0] as Hit, hits: found.hits, content: found.content });
  }
  results.sort((a, b) => b.best.matched - a.best.matched || b.best.score - a.best.score || (a.space.id < b.space.id ? -1 : 1));
  return paginate(itemsOf(results), query, ({ space, best, hits, content }) => ({
    type: 'space' as const,
    id: space.id,
    title: space.title,
    score: best.score,
    pages: hits.slice(0, 5).flatMap((hit, i) => pageResult(space, origin, content, hit, i + 1, words) ?? []),
  }));
}
