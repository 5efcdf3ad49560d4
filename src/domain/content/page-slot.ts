/**
 * What a revision's pages trie holds per page: the hash of the page object and, beside
 * it, the page's outline (title, kind, slug, children): what whole-space reads show
 * (`site tree`, the page tree of every variant of a site).
 *
 * Why in the trie: a whole-space read used to open, verify and parse one page object per
 * page (40,000 for a site of 200 spaces of 200 pages). With the outline in the trie's
 * leaves it reads the leaves only (about one per 20 pages). A page's outline changes
 * only when its object does, and a page write already rewrites the leaf above it, so the
 * outline costs a few dozen bytes per page in that leaf and no extra object: no write
 * rewrites an outline of the whole space.
 *
 * The outline is flat in the slot, `[hash, title, kind, slug, children?]` (kind "" for a
 * document, slug null when the page has none): an object per page, `[hash, {t, s, c}]` as
 * first written, cost a whole-site read about a third of its parse. Stores written before
 * the outline hold the hash alone (a string); all three are read, and a page gets the
 * current form the next time it is written. A leaf whose slots all start with their hash
 * stores them apart (src/store/hamt.ts): a whole-space read parses the outlines (`rowOutline`)
 * and never the hashes.
 */
import type { Json } from '../../store/types.js';

/** A page's outline: `t` title, `k` kind when not a document, `s` slug, `c` children ids. */
export interface PageOutline {
  t: string;
  k?: 'group' | 'link';
  s?: string;
  c?: string[];
}

/** What an outline is made of: the fields of a stored page (storage.ts's StoredPage) it shows. */
interface OutlinedPage {
  title: string;
  type: string;
  slug?: string | undefined;
  children: string[];
}

/** A pages-trie value: the page object's hash, alone (older stores) or with the page's outline (flat; an object in older stores). */
export type PageSlot =
  | string
  | [hash: string, outline: PageOutline]
  | [hash: string, title: string, kind: '' | 'group' | 'link', slug: string | null, children?: string[]];

/** The trie value (a `PageSlot`) for a page stored under `hash`. */
export function slotOf(hash: string, page: OutlinedPage): Json {
  const kind = page.type === 'group' || page.type === 'link' ? page.type : '';
  const slot: Json[] = [hash, page.title, kind, page.slug ?? null];
  if (page.children.length > 0) slot.push(page.children);
  return slot;
}

/** The outline of a stored page (what `slotOf` puts beside its hash). */
export function outlineOf(page: OutlinedPage): PageOutline {
  const outline: PageOutline = { t: page.title };
  if (page.type === 'group' || page.type === 'link') outline.k = page.type;
  if (page.slug !== undefined) outline.s = page.slug;
  if (page.children.length > 0) outline.c = page.children;
  return outline;
}

/** The page object's hash in a trie value (undefined for no value). */
export function slotHash(slot: Json | undefined | unknown): string | undefined {
  if (typeof slot === 'string') return slot;
  if (Array.isArray(slot) && typeof slot[0] === 'string') return slot[0];
  return undefined;
}

/** The outline a trie value carries (undefined for a bare hash: read the page object). */
export function slotOutline(slot: Json | undefined | unknown): PageOutline | undefined {
  return Array.isArray(slot) ? outlineFrom(slot, 1) : undefined;
}

/**
 * The outline a slot without its hash carries: what a leaf that keeps its hashes apart
 * holds per page (`[title, kind, slug, children?]`, or `[{t, s, c}]` for a slot first
 * written as an object; src/store/hamt.ts). Undefined when it carries none.
 */
export function rowOutline(row: readonly unknown[]): PageOutline | undefined {
  return outlineFrom(row, 0);
}

/** The outline in `slot` from position `at` (where the title or the outline object is). */
function outlineFrom(slot: readonly unknown[], at: number): PageOutline | undefined {
  const first: unknown = slot[at];
  if (typeof first === 'string') {
    const outline: PageOutline = { t: first };
    const kind: unknown = slot[at + 1];
    if (kind === 'group' || kind === 'link') outline.k = kind;
    const slug: unknown = slot[at + 2];
    if (typeof slug === 'string') outline.s = slug;
    const children: unknown = slot[at + 3];
    if (Array.isArray(children) && children.length > 0) outline.c = children as string[];
    return outline;
  }
  return typeof first === 'object' && first !== null && !Array.isArray(first) ? (first as PageOutline) : undefined;
}
