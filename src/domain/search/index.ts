/**
 * The search index of a space's primary content, kept up to date by the commits
 * that change it (a merge, an import, a Git Sync import), so that a search reads
 * the postings of its words and the pages it shows, never every page.
 *
 * | table              | key                              | value                               |
 * |--------------------|----------------------------------|-------------------------------------|
 * | searchIndex        | `${spaceId}/${word}/${pageId}`   | `[count in text, count in title]`   |
 * | searchIndex.state  | spaceId                          | `{revision, pages}` it reflects     |
 *
 * A commit updates the postings of the pages that changed between the indexed
 * revision and the new one (a diff of the page tries: the cost follows the change,
 * not the space). A space whose index is missing or behind is indexed in full by
 * its next commit; until then its search reads the pages (see handlers.ts).
 */
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { hamtDiff } from '../../store/hamt.js';
import { openContent, type RevisionContent, type StoredPage } from '../content/storage.js';
import type { RevisionRecord } from '../records.js';

export const SearchTables = {
  postings: 'searchIndex',
  state: 'searchIndex.state',
} as const;

export interface IndexState {
  revision: string;
  pages: number;
}

/** `[occurrences in the text, occurrences in the title]`. */
export type Posting = [number, number];

const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have if in into is it its of on or that the their then there these this to was were will with'.split(' '),
);

/** The words of a text: lower case, accents removed, 2–40 letters or digits, common English words left out. */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 2 && word.length <= 40 && !STOP_WORDS.has(word));
}

/** Words kept per page: the most frequent ones (and every word of the title), so one huge page stays bounded. */
const MAX_WORDS_PER_PAGE = 400;

export function pagePostings(title: string, text: string): Map<string, Posting> {
  const counts = new Map<string, Posting>();
  for (const word of tokenize(text)) {
    const entry = counts.get(word) ?? [0, 0];
    entry[0] += 1;
    counts.set(word, entry);
  }
  for (const word of tokenize(title)) {
    const entry = counts.get(word) ?? [0, 0];
    entry[1] += 1;
    counts.set(word, entry);
  }
  if (counts.size <= MAX_WORDS_PER_PAGE) return counts;
  const ranked = [...counts].sort((a, b) => b[1][1] - a[1][1] || b[1][0] - a[1][0] || (a[0] < b[0] ? -1 : 1));
  return new Map(ranked.slice(0, MAX_WORDS_PER_PAGE));
}

/** The indexed text of a page: its title, description and Markdown. */
function postingsOf(content: RevisionContent, page: StoredPage): Map<string, Posting> {
  const body = page.type === 'document' ? (content.markdown(page) ?? '') : '';
  return pagePostings(page.title ?? '', `${page.description ?? ''}\n${body}`);
}

const key = (spaceId: string, word: string, pageId: string) => `${spaceId}/${word}/${pageId}`;

function removePage(tx: StoreWriter, spaceId: string, content: RevisionContent, page: StoredPage): void {
  for (const word of postingsOf(content, page).keys()) tx.delete(SearchTables.postings, key(spaceId, word, page.id));
}

function addPage(tx: StoreWriter, spaceId: string, content: RevisionContent, page: StoredPage): void {
  for (const [word, posting] of postingsOf(content, page)) tx.put(SearchTables.postings, key(spaceId, word, page.id), posting);
}

/**
 * Brings the index of `spaceId` to `to` (its new primary revision), from `from`
 * (the revision it replaces). Called by the commits that move a space's primary
 * revision, in their transaction.
 */
export function indexCommit(tx: StoreWriter, spaceId: string, from: RevisionRecord | undefined, to: RevisionRecord): void {
  const state = tx.get<IndexState>(SearchTables.state, spaceId);
  const after = openContent(tx, to);
  const incremental = state !== undefined && from !== undefined && state.revision === from.id;
  if (!incremental && state !== undefined) {
    // Behind (a commit that did not pass here): start over.
    for (const [row] of tx.scan(SearchTables.postings, { prefix: `${spaceId}/` })) tx.delete(SearchTables.postings, row);
  }
  const before = incremental ? openContent(tx, from) : undefined;
  let pages = incremental ? state.pages : 0;
  // Content-addressed: any revision's reader reads the nodes of both tries.
  const changed = hamtDiff(after, before?.root.pages ?? undefined, after.root.pages ?? undefined);
  for (const [pageId, [oldHash, newHash]] of changed) {
    if (oldHash !== undefined && before) {
      const old = tx.getObject<StoredPage>(oldHash as string);
      removePage(tx, spaceId, before, old);
      pages -= 1;
    }
    if (newHash !== undefined) {
      const page = after.page(pageId);
      if (page) {
        addPage(tx, spaceId, after, page);
        pages += 1;
      }
    }
  }
  tx.put(SearchTables.state, spaceId, { revision: to.id, pages } satisfies IndexState);
}

export function indexState(tx: StoreReader, spaceId: string): IndexState | undefined {
  return tx.get<IndexState>(SearchTables.state, spaceId);
}

/** The postings of one word in a space: page id → posting. */
export function postingsFor(tx: StoreReader, spaceId: string, word: string): Map<string, Posting> {
  const prefix = `${spaceId}/${word}/`;
  return new Map(tx.scan<Posting>(SearchTables.postings, { prefix }).map(([row, posting]) => [row.slice(prefix.length), posting]));
}
