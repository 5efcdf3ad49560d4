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
 * Stores written before the outline hold the hash alone (a string); both are read, and
 * a page gets its outline the next time it is written.
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

/** A pages-trie value: the page object's hash, alone (older stores) or with the page's outline. */
export type PageSlot = string | [hash: string, outline: PageOutline];

/** The trie value (a `PageSlot`) for a page stored under `hash`. */
export function slotOf(hash: string, page: OutlinedPage): Json {
  return [hash, outlineOf(page) as unknown as Json];
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
  return Array.isArray(slot) && typeof slot[1] === 'object' && slot[1] !== null ? (slot[1] as PageOutline) : undefined;
}
