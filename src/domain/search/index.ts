/**
 * The search index of a space's primary content, kept up to date by the commits
 * that change it (a merge, an import, a Git Sync import), so that a search reads
 * the postings of its words and the pages it shows, never every page.
 *
 * | table              | key                              | value                                          |
 * |--------------------|----------------------------------|------------------------------------------------|
 * | searchIndex        | `${spaceId}/${word}/${from}`     | `[pageId, count in text, count in title, …]`   |
 * | searchIndex.state  | spaceId                          | `{revision, pages, format}` it reflects        |
 *
 * A word's postings are rows by a hash of the page id (32-bit FNV-1a): the row keyed
 * `from` (eight hex digits) holds the pages whose hash is at least `from` and below the
 * next row's. A word of a few pages is one row (`00000000`); a row that grows past
 * ROW_MAX postings is cut into rows of about ROW_TARGET. So a search reads a few dozen
 * rows for a word of every page of a 5,000-page space, and a page edit rewrites one
 * small row per word of the page (found with one reverse scan), whatever the size of
 * the space; a rare word is one row, not one per page (format 2 split every word into
 * 64 rows by page: 195,000 rows for a 4,000-page manual whose 25,000 words need 33,000).
 * An index of format 2 is read as it is (the same rows under the word's prefix); the
 * next commit rebuilds it. An older one (one row per page and word) counts as missing.
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
import { slotHash } from '../content/page-slot.js';
import { type ContentTree, walkPages } from '../../content-model/model.js';
import { openContent, type RevisionContent, savedPages, type StoredPage } from '../content/storage.js';
import type { RevisionRecord } from '../core-records.js';
import { BULK_ITEMS, runInSlices, runSteps, yieldIfDue } from '../../util/slices.js';
import { relieveHeap } from '../../util/heap-relief.js';

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

export const INDEX_FORMAT = 3;

/** Index formats a search reads as they are (their rows differ only in how postings are cut). */
const READABLE_FORMATS: ReadonlySet<number | undefined> = new Set([2, INDEX_FORMAT]);

/** Whether a search can read `state`'s index of `revision` (else it reads the pages). */
export function indexReadable(state: IndexState | undefined, revision: string): state is IndexState {
  return state !== undefined && state.revision === revision && READABLE_FORMATS.has(state.format);
}

/** A row cut into rows of about ROW_TARGET postings when it holds more than ROW_MAX. */
const ROW_MAX = 128;
const ROW_TARGET = 64;

/** The row hash of a page: FNV-1a of its id (ids of imported pages need not be random). */
function pageHash(pageId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < pageId.length; i += 1) hash = Math.imul(hash ^ pageId.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The last part of a row's key: the smallest page hash it holds, as eight hex digits. */
function rowName(from: number): string {
  return from.toString(16).padStart(8, '0');
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
const ASCII_ONLY = /^[\x00-\x7f]*$/;
/** What separates words in lower-case ASCII: anything but a letter or a digit (what `\p{L}` and `\p{N}` are there). */
const ASCII_NON_WORD = /[^a-z0-9]+/;

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
    const lower = text.slice(from, to).toLowerCase();
    // ASCII (most Markdown) has no accents to take off and no letters but a-z once lower case: the same
    // words without the normalized and stripped copies (a third of the import's word counting).
    const words = ASCII_ONLY.test(lower) ? lower.split(ASCII_NON_WORD) : lower.normalize('NFKD').replace(/\p{M}+/gu, '').split(/[^\p{L}\p{N}]+/u);
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
  return pageText(page, body);
}

function pageText(page: StoredPage, markdown: string | undefined): Map<string, Posting> {
  return pagePostings(page.title ?? '', `${page.description ?? ''}\n${page.type === 'document' ? (markdown ?? '') : ''}`);
}

/** Numbers per change in `RowChanges.changes`: word number, page number, text count (-1: removed), title count. */
const FIELDS = 4;

/** The stored row of a word (its key prefix) that holds the pages of `hash`, if any. */
type RowLocator = (prefix: string, hash: number) => [string, PostingRow] | undefined;

/** Finds rows in `reader`: the row with the greatest start at or below the hash (one reverse scan). */
function locateIn(reader: StoreReader): RowLocator {
  return (prefix, hash) =>
    reader.scan<PostingRow>(SearchTables.postings, { prefix, after: `${prefix}${rowName(hash)}~`, reverse: true, limit: 1, shared: true })[0];
}

/**
 * The changes of one commit, grouped by row and written once per row at the end:
 * indexing a whole space touches each row many times. A change is four numbers in
 * one flat list (a word and a page are numbered the first time they come: the word
 * strings are already hashed by the page's postings map, so a word costs one lookup),
 * sorted by word once, when applied. A key string and a map entry per posting, as
 * before, were a quarter of the CPU of importing a 4,000-page manual (500,000
 * postings), more than the store's own work.
 */
class RowChanges {
  private spaceId = '';
  private readonly wordNumbers = new Map<string, number>();
  private readonly words: string[] = [];
  private readonly pages: string[] = [];
  private readonly pageHashes: number[] = [];
  /** The changes, FIELDS numbers each (a JS array of 2,000,000 numbers was 16 MB, copied as it grew). */
  private readonly changes = new Int32Chunks();

  /** Records a page's postings (`words`), or the removal of those it had (`removed`). */
  page(spaceId: string, pageId: string, words: Map<string, Posting>, removed: boolean): void {
    this.spaceId = spaceId;
    const page = this.pages.push(pageId) - 1;
    this.pageHashes.push(pageHash(pageId));
    for (const [word, [text, title]] of words) {
      let number = this.wordNumbers.get(word);
      if (number === undefined) {
        number = this.words.push(word) - 1;
        this.wordNumbers.set(word, number);
      }
      this.changes.push(number, page, removed ? -1 : text, removed ? 0 : title);
    }
  }

  /** Changes recorded (postings set or removed). */
  get size(): number {
    return this.changes.length / FIELDS;
  }

  /**
   * Writes each changed row: the stored row with the changes applied in the order they
   * came (`fresh`: every row starts empty), as a flat array. A row without a stored
   * version or a removal is its changes as they are (a page sets a word once).
   */
  apply(tx: StoreWriter, fresh: boolean): void {
    if (fresh) {
      runSteps(this.rowSteps(undefined, (key, flat) => writeRow(tx, key, flat)));
      return;
    }
    // Every row found before any is written: a transaction's scan of a table it has
    // written overlays all its buffered rows and reads as many more committed ones, so
    // locating after each write made a 10-page merge's ~1,000 lookups quadratic.
    // Words are disjoint key ranges: a word's rows never depend on another word's writes.
    const rows: Array<[string, Array<string | number>]> = [];
    runSteps(this.rowSteps(locateIn(tx), (key, flat) => rows.push([key, flat])));
    for (const [key, flat] of rows) writeRow(tx, key, flat);
  }

  /**
   * The rows `apply` would write, computed a word at a time with the event loop running
   * between slices, from the stored rows `locate` finds (a plan's snapshot: the plan is
   * applied only while the index is where it was then, so its rows are those; undefined:
   * every row starts empty).
   */
  async rowWrites(locate: RowLocator | undefined): Promise<RowWrite[]> {
    const writes: RowWrite[] = [];
    // Kept as the JSON the store keeps (no array per row lives until the commit), under a key of
    // one piece: a key built by concatenation is kept as a chain of its parts (a heap snapshot of
    // a 4,000-page import's plan: 5 MB of such chains for 29,000 rows, beside 15 MB of row text).
    await runInSlices(this.rowSteps(locate, (key, flat) => writes.push([flatString(key), flat.length === 0 ? null : JSON.stringify(flat)])), this.pages.length >= BULK_ITEMS);
    return writes;
  }

  /** Each changed row's new flat value (empty: the row goes), a step per word. */
  private *rowSteps(locate: RowLocator | undefined, emit: (key: string, flat: Array<string | number>) => void): Generator<void, void> {
    const { words, pageHashes, changes } = this;
    // Counting sort of the changes by word: stable, so a page's removal stays before its new posting.
    const byWord = countingSort(changes.length, words.length, (i) => changes.at(i));
    for (let word = 0; word < words.length; word += 1) {
      const offsets = byWord.order.subarray(byWord.start[word] as number, byWord.start[word + 1] as number);
      const prefix = `${this.spaceId}/${words[word] as string}/`;
      if (locate === undefined) this.emitRows(prefix, 0, undefined, offsets, emit);
      else {
        // The changes by the stored row that holds their page (no row yet: the word's first row).
        const byRow = new Map<string, { from: number; row: PostingRow | undefined; offsets: number[] }>();
        // A changed page's word is usually a removal and a new posting: one lookup for both.
        const byHash = new Map<number, [string, PostingRow] | undefined>();
        for (const i of offsets) {
          const hash = pageHashes[changes.at(i + 1)] as number;
          let found = byHash.get(hash);
          if (found === undefined && !byHash.has(hash)) byHash.set(hash, (found = locate(prefix, hash)));
          const key = found?.[0] ?? `${prefix}${rowName(0)}`;
          let target = byRow.get(key);
          if (target === undefined) {
            const from = found === undefined ? 0 : Number.parseInt(key.slice(prefix.length), 16);
            byRow.set(key, (target = { from: Number.isNaN(from) ? 0 : from, row: found?.[1], offsets: [] }));
          }
          target.offsets.push(i);
        }
        for (const target of byRow.values()) this.emitRows(prefix, target.from, target.row, Int32Array.from(target.offsets), emit);
      }
      yield;
    }
  }

  /**
   * Emits the row starting at `from` with the changes at `offsets` applied; one past
   * ROW_MAX postings is cut by page hash into rows of about ROW_TARGET (the first keeps
   * `from`, each other starts at the smallest hash it holds), postings keeping their order.
   */
  private emitRows(prefix: string, from: number, stored: PostingRow | undefined, offsets: Int32Array, emit: (key: string, flat: Array<string | number>) => void): void {
    const flat = this.rowOf(stored, offsets);
    const count = flat.length / 3;
    if (count <= ROW_MAX) {
      emit(`${prefix}${rowName(from)}`, flat);
      return;
    }
    const hashes = new Uint32Array(count);
    for (let p = 0; p < count; p += 1) hashes[p] = pageHash(flat[p * 3] as string);
    const sorted = Uint32Array.from(hashes).sort();
    const pieces = Math.ceil(count / ROW_TARGET);
    const cuts: number[] = [];
    for (let piece = 1; piece < pieces; piece += 1) {
      const at = sorted[Math.round((piece * count) / pieces)] as number;
      if (at > (cuts.length === 0 ? (sorted[0] as number) : (cuts[cuts.length - 1] as number))) cuts.push(at);
    }
    const rows: Array<Array<string | number>> = Array.from({ length: cuts.length + 1 }, () => []);
    for (let p = 0; p < count; p += 1) {
      const hash = hashes[p] as number;
      let piece = 0;
      while (piece < cuts.length && (cuts[piece] as number) <= hash) piece += 1;
      (rows[piece] as Array<string | number>).push(flat[p * 3] as string, flat[p * 3 + 1] as number, flat[p * 3 + 2] as number);
    }
    rows.forEach((row, piece) => emit(`${prefix}${rowName(piece === 0 ? from : (cuts[piece - 1] as number))}`, row));
  }

  /** One row: `stored` (if any) with the changes at `offsets` (in this.changes, in order) applied. */
  private rowOf(stored: PostingRow | undefined, offsets: Int32Array): Array<string | number> {
    const { pages, changes } = this;
    const flat: Array<string | number> = [];
    if (stored === undefined && offsets.every((i) => changes.at(i + 2) >= 0)) {
      for (const i of offsets) flat.push(pages[changes.at(i + 1)] as string, changes.at(i + 2), changes.at(i + 3));
    } else {
      // As if the stored row were a Map by page with the changes applied in order (a set
      // updates in place, a removal then a set moves the page to the end), without a Map
      // entry per stored posting: a common word's row holds most pages of its group, and
      // a merge of 10 pages re-reads a thousand such rows.
      const changed = new Set<string>();
      for (const i of offsets) changed.add(pages[changes.at(i + 1)] as string);
      const inPlace = new Map<string, number>(); // a stored page still where it was → its change (-1: none yet)
      if (stored !== undefined) eachPosting(stored, (pageId) => {
        if (changed.has(pageId)) inPlace.set(pageId, -1);
      });
      const moved = new Map<string, number>(); // pages (re)added after the stored ones, in order → their change
      for (const i of offsets) {
        const pageId = pages[changes.at(i + 1)] as string;
        if (changes.at(i + 2) < 0) {
          inPlace.delete(pageId);
          moved.delete(pageId);
        } else if (inPlace.has(pageId)) inPlace.set(pageId, i);
        else moved.set(pageId, i);
      }
      if (stored !== undefined) eachPosting(stored, (pageId, text, title) => {
        if (!changed.has(pageId)) flat.push(pageId, text, title);
        else {
          const i = inPlace.get(pageId);
          if (i === undefined) return;
          if (i < 0) flat.push(pageId, text, title);
          else flat.push(pageId, changes.at(i + 2), changes.at(i + 3));
        }
      });
      for (const [pageId, i] of moved) flat.push(pageId, changes.at(i + 2), changes.at(i + 3));
    }
    return flat;
  }
}

/** `text` as one sequential string (a concatenation is kept as a chain of its parts until something flattens it). */
function flatString(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** A row's key and its new flat value as JSON (null: the row is deleted). */
type RowWrite = [string, string | null];

/** What a written row of a plan becomes (a plan is applied once). */
const DONE: RowWrite = ['', null];

/** Writes a planned row (its JSON as the store keeps it, where the store takes it so). */
function writePlannedRow(tx: StoreWriter, key: string, json: string | null): void {
  if (json === null) tx.delete(SearchTables.postings, key);
  else if (tx.putJson) tx.putJson(SearchTables.postings, key, json);
  else tx.put(SearchTables.postings, key, JSON.parse(json));
}

function writeRow(tx: StoreWriter, key: string, flat: Array<string | number>): void {
  if (flat.length === 0) tx.delete(SearchTables.postings, key);
  else tx.put(SearchTables.postings, key, flat);
}

function increment(counts: Int32Array, at: number): void {
  counts[at] = (counts[at] as number) + 1;
}

/** A stable counting sort of the changes (offsets 0, FIELDS, 2 × FIELDS… of a flat list of `length` numbers) by `keyOf`, a number below `keys`. */
function countingSort(length: number, keys: number, keyOf: (offset: number) => number): { start: Int32Array; order: Int32Array } {
  const start = new Int32Array(keys + 1);
  for (let i = 0; i < length; i += FIELDS) increment(start, keyOf(i) + 1);
  for (let key = 0; key < keys; key += 1) start[key + 1] = (start[key + 1] as number) + (start[key] as number);
  const next = start.slice(0, keys);
  const order = new Int32Array(length / FIELDS);
  for (let i = 0; i < length; i += FIELDS) order[(next[keyOf(i)] as number)++] = i;
  return { start, order };
}

/** Numbers per chunk of `Int32Chunks` (a multiple of FIELDS: a change never straddles two chunks). */
const CHUNK_SHIFT = 16;
const CHUNK_NUMBERS = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK_NUMBERS - 1;

/**
 * A list of 32-bit numbers in chunks of 256 KiB: it grows without copying what it holds.
 * One typed array grown by doubling held the old and the new array at once when it grew
 * (a 4,000-page import's 500,000 postings: 8 MiB copied into 16 MiB, 24 MiB at that moment).
 */
class Int32Chunks {
  private readonly chunks: Int32Array[] = [];
  length = 0;

  push(a: number, b: number, c: number, d: number): void {
    const at = this.length & CHUNK_MASK;
    if (at === 0) this.chunks.push(new Int32Array(CHUNK_NUMBERS));
    const chunk = this.chunks[this.chunks.length - 1] as Int32Array;
    chunk[at] = a;
    chunk[at + 1] = b;
    chunk[at + 2] = c;
    chunk[at + 3] = d;
    this.length += FIELDS;
  }

  at(i: number): number {
    return (this.chunks[i >>> CHUNK_SHIFT] as Int32Array)[i & CHUNK_MASK] as number;
  }
}

/**
 * An index update computed ahead of its commit (`planIndex`, in an import's `prepare`,
 * outside the store's lock): the commit applies it as long as the index is still where
 * the plan started from.
 */
export interface IndexPlan {
  /** The revision the index reflected when planned (undefined: the plan rebuilds it from nothing). */
  from: string | undefined;
  /** The content the plan indexes. */
  content: string | undefined;
  /** The rows to write, computed outside the lock: the commit only puts them. */
  writes: RowWrite[];
  pages: number;
}

/**
 * Plans the index update of a commit that moves `spaceId`'s primary revision from
 * `previous` (revision id and its tree) to `next` (a tree saved here, whose content
 * hash is `content`): the pages whose stored object changed lose their old postings
 * and get new ones, from the Markdown the trees hold (no page is read from the store).
 * Undefined when the trees were not saved or loaded here.
 */
export async function planIndex(
  reader: StoreReader,
  spaceId: string,
  previous: { revision: string; tree: ContentTree },
  next: ContentTree,
  content: string | undefined,
  /**
   * `next` is not used after the plan (its pages are saved): each page's Markdown is let go
   * once its words are counted, so a 4,000-page import does not hold its ~23 MB of text
   * beside the rows it plans. `next` keeps its pages' ids and metadata, not their bodies.
   */
  options: { consume?: boolean } = {},
): Promise<IndexPlan | undefined> {
  const after = savedPages(next);
  if (after !== undefined && options.consume === true) {
    for (const { page } of walkPages(next.pages)) delete page.markdown;
  }
  const stored = savedPages(previous.tree);
  if (after === undefined || stored === undefined) return undefined;
  const state = reader.get<IndexState>(SearchTables.state, spaceId);
  const incremental = state !== undefined && state.format === INDEX_FORMAT && state.revision === previous.revision;
  const before = incremental ? stored : undefined;
  const rows = new RowChanges();
  let pages = incremental ? state.pages : 0;
  const bulk = after.size >= BULK_ITEMS;
  let slice = performance.now();
  for (const [id, page] of before ?? []) {
    if (after.get(id)?.hash === page.hash) continue;
    rows.page(spaceId, id, pageText(page.page, page.markdown), true);
    pages -= 1;
    slice = await yieldIfDue(slice, bulk);
  }
  for (const [id, page] of after) {
    if (before?.get(id)?.hash === page.hash) continue;
    rows.page(spaceId, id, pageText(page.page, page.markdown), false);
    if (options.consume === true) page.markdown = undefined;
    pages += 1;
    slice = await yieldIfDue(slice, bulk);
  }
  // Every page's text is garbage now (a 4,376-page import: ~23 MB, with the counting's own), and V8 had let
  // the heap grow to 1.6x what was live before the conversion: collected here, the rows below grow from
  // what is live instead (server shape, 6 pairs: peak median 152 vs 159 MiB, max 159 vs 171; import CPU 1.01x).
  if (bulk && options.consume === true) relieveHeap(true);
  const writes = await rows.rowWrites(incremental ? locateIn(reader) : undefined);
  return { from: incremental ? previous.revision : undefined, content, writes, pages };
}

/**
 * Brings the index of `spaceId` to `to` (its new primary revision), from `from`
 * (the revision it replaces). Called by the commits that move a space's primary
 * revision, in their transaction. With a `plan` made for this content from the
 * index as it still is, applies it; otherwise reads the changed pages.
 */
export function indexCommit(tx: StoreWriter, spaceId: string, from: RevisionRecord | undefined, to: RevisionRecord, plan?: IndexPlan): void {
  const state = tx.get<IndexState>(SearchTables.state, spaceId);
  const incremental = state !== undefined && state.format === INDEX_FORMAT && from !== undefined && state.revision === from.id;
  const planned = plan !== undefined && plan.content === to.content && (plan.from === undefined || (incremental && plan.from === from?.id));
  if ((!incremental || (planned && plan.from === undefined)) && state !== undefined) {
    // Behind (a commit that did not pass here) or of an older format: start over.
    for (const [row] of tx.scan(SearchTables.postings, { prefix: `${spaceId}/` })) tx.delete(SearchTables.postings, row);
  }
  if (planned) {
    // Each row let go once written: the store holds its JSON from then on (a 4,000-page import has 170,000 rows).
    const { writes } = plan;
    for (let i = 0; i < writes.length; i += 1) {
      const [key, json] = writes[i] as RowWrite;
      writes[i] = DONE;
      writePlannedRow(tx, key, json);
    }
    tx.put(SearchTables.state, spaceId, { revision: to.id, pages: plan.pages, format: INDEX_FORMAT } satisfies IndexState);
    return;
  }
  const after = openContent(tx, to);
  const before = incremental ? openContent(tx, from) : undefined;
  let pages = incremental ? state.pages : 0;
  const changes = new RowChanges();
  // Content-addressed: any revision's reader reads the nodes of both tries.
  const changed = hamtDiff(after, before?.root.pages ?? undefined, after.root.pages ?? undefined);
  for (const [pageId, [oldSlot, newSlot]] of changed) {
    const oldHash = slotHash(oldSlot);
    if (oldHash !== undefined && before) {
      const old = tx.getObject<StoredPage>(oldHash);
      changes.page(spaceId, old.id, postingsOf(before, old), true);
      pages -= 1;
    }
    if (newSlot !== undefined) {
      const page = after.page(pageId);
      if (page) {
        changes.page(spaceId, page.id, postingsOf(after, page), false);
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
