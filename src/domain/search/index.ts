/**
 * The search index of a space's primary content, kept up to date by the commits
 * that change it (a merge, an import, a Git Sync import), so that a search reads
 * the postings of its words and the pages it shows, never every page.
 *
 * | table              | key                              | value                                          |
 * |--------------------|----------------------------------|------------------------------------------------|
 * | searchIndex        | `${spaceId}/${word}/${group}`    | `[pageId, count in text, count in title, …]`   |
 * | searchIndex.state  | spaceId                          | `{revision, pages, format}` it reflects        |
 *
 * A word's postings are split into up to GROUPS rows by a hash of the page id: a
 * search reads a few dozen rows per word, not one per page (a word of every page of
 * a 5,000-page space was 5,000 rows), and a page edit rewrites one small row per word
 * of the page, whatever the size of the space. An index of an older format (one row
 * per page and word) counts as missing: the next commit rebuilds it.
 *
 * A row is a flat array, not an object keyed by page id: parsing thousands of objects
 * with distinct keys makes V8 build a hidden class per key set, and a cold search of a
 * word found in every page of a 5,000-page space spent most of its time there (a flat
 * array parses 2–4× faster). Rows written before are objects `{[pageId]: [text, title]}`:
 * readers take both (`eachPosting`), and a commit rewrites a row it touches as an array.
 *
 * A commit updates the postings of the pages that changed between the indexed
 * revision and the new one (a diff of the page tries: the cost follows the change,
 * not the space). A space whose index is missing or behind is indexed in full by
 * its next commit; until then its search reads the pages (see handlers.ts).
 */
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { hamtDiff } from '../../store/hamt.js';
import { openContent, type RevisionContent, type StoredPage } from '../content/storage.js';
import type { RevisionRecord } from '../core-records.js';

export const SearchTables = {
  postings: 'searchIndex',
  state: 'searchIndex.state',
} as const;

export interface IndexState {
  revision: string;
  pages: number;
  /** INDEX_FORMAT; absent in the first format (one row per page and word). */
  format?: number;
}

export const INDEX_FORMAT = 2;

/** Rows per word: each holds about 1/GROUPS of the pages that contain it. */
const GROUPS = 64;

/** The row group of a page: FNV-1a of its id (ids of imported pages need not be random). */
function groupOf(pageId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < pageId.length; i += 1) hash = Math.imul(hash ^ pageId.charCodeAt(i), 0x01000193);
  return ((hash >>> 0) % GROUPS).toString(36).padStart(2, '0');
}

/** `[occurrences in the text, occurrences in the title]`. */
export type Posting = [number, number];

/** One row of a word's postings: `[pageId, text, title, pageId, text, title, …]`, or an object of the first rows written (see the file comment). */
export type PostingRow = ReadonlyArray<string | number> | Readonly<Record<string, Posting>>;

/** Calls `visit` with each posting of `row`, whichever its shape. */
export function eachPosting(row: PostingRow, visit: (pageId: string, text: number, title: number) => void): void {
  if (Array.isArray(row)) {
    for (let i = 0; i + 2 < row.length; i += 3) visit(row[i] as string, row[i + 1] as number, row[i + 2] as number);
    return;
  }
  const byPage = row as Readonly<Record<string, Posting>>;
  for (const pageId in byPage) {
    const [text, title] = byPage[pageId] as Posting;
    visit(pageId, text, title);
  }
}

/** How many pages a row lists. */
export function postingCount(row: PostingRow): number {
  return Array.isArray(row) ? Math.floor(row.length / 3) : Object.keys(row).length;
}

const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have if in into is it its of on or that the their then there these this to was were will with'.split(' '),
);

/** The words of a text: lower case, accents removed, 2–40 letters or digits, common English words left out. */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  eachWord(text, (word) => words.push(word));
  return words;
}

/** Characters read at a time by `eachWord`. */
const PIECE = 64 * 1024;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** Whether the character just before `at` can be part of a word (a surrogate pair is read whole). */
function wordCharBefore(text: string, at: number): boolean {
  const code = text.charCodeAt(at - 1);
  if (code >= 0xd800 && code <= 0xdbff) return true; // never cut a pair
  if (code >= 0xdc00 && code <= 0xdfff && at >= 2) return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(at - 2) as number));
  return WORD_CHAR.test(text[at - 1] as string);
}

/** Where a piece may end: just after white space (lower case does not look past it, unlike `.` or `'`: a final Σ does). */
function whiteSpaceCut(text: string, from: number, to: number): number {
  for (let cut = to; cut > from; cut -= 1) {
    const code = text.charCodeAt(cut - 1);
    if (code === 32 || code === 10 || code === 9 || code === 13) return cut;
  }
  return -1;
}

/**
 * Calls `visit` with each word of `text`, as `tokenize` lists them, reading the
 * text a piece at a time: a page of 16 MiB costs a 64 KiB piece and its words,
 * not three copies of the text and an array of every word. A piece ends just
 * after white space, so no word (and no final-sigma context) is cut. A text
 * without white space in 4 KiB is cut after a character that cannot be part of
 * a word, or, in a run of word characters longer than any kept word, anywhere
 * (both ends of that run are dropped).
 */
export function eachWord(text: string, visit: (word: string) => void): void {
  let from = 0;
  let dropFirst = false;
  while (from < text.length) {
    let to = Math.min(text.length, from + PIECE);
    let dropLast = false;
    if (to < text.length) {
      const spaced = whiteSpaceCut(text, Math.max(from, to - 4096), to);
      if (spaced > from) to = spaced;
      else {
        const floor = Math.max(from + 1, to - 64);
        let cut = to;
        while (cut > floor && wordCharBefore(text, cut)) cut -= 1;
        if (wordCharBefore(text, cut)) dropLast = true;
        else to = cut;
      }
    }
    const words = text.slice(from, to).toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '').split(/[^\p{L}\p{N}]+/u);
    for (let i = 0; i < words.length; i += 1) {
      if ((i === 0 && dropFirst) || (i === words.length - 1 && dropLast)) continue;
      const word = words[i] as string;
      if (word.length >= 2 && word.length <= 40 && !STOP_WORDS.has(word)) visit(word);
    }
    dropFirst = dropLast;
    from = to;
  }
}

/** Words kept per page: the most frequent ones (and every word of the title), so one huge page stays bounded. */
const MAX_WORDS_PER_PAGE = 400;
/**
 * Distinct words counted at once: past it the rarest are forgotten (a page of a
 * million distinct words must not cost a map of a million entries). Real pages
 * stay far below it, so their counts are exact.
 */
const MAX_COUNTED_WORDS = 50_000;

/** Drops the least frequent words until at most 3/4 of MAX_COUNTED_WORDS are left. */
function forgetRarest(counts: Map<string, Posting>): void {
  const byCount = new Map<number, number>();
  for (const [text] of counts.values()) byCount.set(text, (byCount.get(text) ?? 0) + 1);
  let dropped = 0;
  let threshold = 0;
  for (const count of [...byCount.keys()].sort((a, b) => a - b)) {
    threshold = count;
    dropped += byCount.get(count) as number;
    if (counts.size - dropped <= (MAX_COUNTED_WORDS * 3) / 4) break;
  }
  for (const [word, [text]] of counts) if (text <= threshold) counts.delete(word);
}

export function pagePostings(title: string, text: string): Map<string, Posting> {
  const counts = new Map<string, Posting>();
  eachWord(text, (word) => {
    const entry = counts.get(word);
    if (entry) {
      entry[0] += 1;
      return;
    }
    if (counts.size >= MAX_COUNTED_WORDS) forgetRarest(counts);
    counts.set(word, [1, 0]);
  });
  eachWord(title, (word) => {
    const entry = counts.get(word) ?? [0, 0];
    entry[1] += 1;
    counts.set(word, entry);
  });
  if (counts.size <= MAX_WORDS_PER_PAGE) return counts;
  const ranked = [...counts].sort((a, b) => b[1][1] - a[1][1] || b[1][0] - a[1][0] || (a[0] < b[0] ? -1 : 1));
  return new Map(ranked.slice(0, MAX_WORDS_PER_PAGE));
}

/** The indexed text of a page: its title, description and Markdown. */
function postingsOf(content: RevisionContent, page: StoredPage): Map<string, Posting> {
  const body = page.type === 'document' ? (content.markdown(page) ?? '') : '';
  return pagePostings(page.title ?? '', `${page.description ?? ''}\n${body}`);
}

const rowKey = (spaceId: string, word: string, pageId: string) => `${spaceId}/${word}/${groupOf(pageId)}`;

/**
 * The changes of one commit, grouped by row and written once per row at the end:
 * indexing a whole space touches each row many times.
 */
class RowChanges {
  private readonly rows = new Map<string, Map<string, Posting | null>>();

  set(spaceId: string, word: string, pageId: string, posting: Posting | null): void {
    const key = rowKey(spaceId, word, pageId);
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = new Map()));
    row.set(pageId, posting);
  }

  /** Writes each changed row: the stored row with the changes applied (`fresh`: every row starts empty), as a flat array. */
  apply(tx: StoreWriter, fresh: boolean): void {
    for (const [key, changes] of this.rows) {
      const stored = fresh ? undefined : tx.get<PostingRow>(SearchTables.postings, key);
      const row = new Map<string, Posting>();
      if (stored !== undefined) eachPosting(stored, (pageId, text, title) => row.set(pageId, [text, title]));
      for (const [pageId, posting] of changes) {
        if (posting === null) row.delete(pageId);
        else row.set(pageId, posting);
      }
      if (row.size === 0) {
        tx.delete(SearchTables.postings, key);
        continue;
      }
      const flat: Array<string | number> = [];
      for (const [pageId, [text, title]] of row) flat.push(pageId, text, title);
      tx.put(SearchTables.postings, key, flat);
    }
  }
}

/**
 * Brings the index of `spaceId` to `to` (its new primary revision), from `from`
 * (the revision it replaces). Called by the commits that move a space's primary
 * revision, in their transaction.
 */
export function indexCommit(tx: StoreWriter, spaceId: string, from: RevisionRecord | undefined, to: RevisionRecord): void {
  const state = tx.get<IndexState>(SearchTables.state, spaceId);
  const after = openContent(tx, to);
  const incremental = state !== undefined && state.format === INDEX_FORMAT && from !== undefined && state.revision === from.id;
  if (!incremental && state !== undefined) {
    // Behind (a commit that did not pass here) or of an older format: start over.
    for (const [row] of tx.scan(SearchTables.postings, { prefix: `${spaceId}/` })) tx.delete(SearchTables.postings, row);
  }
  const before = incremental ? openContent(tx, from) : undefined;
  let pages = incremental ? state.pages : 0;
  const changes = new RowChanges();
  // Content-addressed: any revision's reader reads the nodes of both tries.
  const changed = hamtDiff(after, before?.root.pages ?? undefined, after.root.pages ?? undefined);
  for (const [pageId, [oldHash, newHash]] of changed) {
    if (oldHash !== undefined && before) {
      const old = tx.getObject<StoredPage>(oldHash as string);
      for (const word of postingsOf(before, old).keys()) changes.set(spaceId, word, old.id, null);
      pages -= 1;
    }
    if (newHash !== undefined) {
      const page = after.page(pageId);
      if (page) {
        for (const [word, posting] of postingsOf(after, page)) changes.set(spaceId, word, page.id, posting);
        pages += 1;
      }
    }
  }
  changes.apply(tx, !incremental);
  tx.put(SearchTables.state, spaceId, { revision: to.id, pages, format: INDEX_FORMAT } satisfies IndexState);
}

export function indexState(tx: StoreReader, spaceId: string): IndexState | undefined {
  return tx.get<IndexState>(SearchTables.state, spaceId);
}

/** The postings of one word in a space, as stored: rows of page id → posting (shared with the store: read-only). */
export function postingRows(tx: StoreReader, spaceId: string, word: string): PostingRow[] {
  return tx.scan<PostingRow>(SearchTables.postings, { prefix: `${spaceId}/${word}/`, shared: true }).map(([, row]) => row);
}
