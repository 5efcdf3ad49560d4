/**
 * The translation glossary of an organization (0.202 `GlossaryEntry`: a term in each
 * language) and what a translation run does with it.
 *
 * Storage: `orgGlossary`, a KeyedSet per organization (one row per entry, id order). An
 * organization keeps at most MAX_GLOSSARY_ENTRIES entries (an insert past it is a 400), so
 * the listing sorted by one language's term (`orderBy`), which must rank every entry, and a
 * run, which reads them all, stay bounded.
 *
 * `updateGlossaryEntries` applies its operations in order, all or nothing (one
 * transaction): `insert` makes an entry, `update` replaces an entry's terms, `delete`
 * removes one; an unknown id is a 404 naming the operation, and nothing is written.
 *
 * A run (`translateTree`) is deterministic: no machine translation. Every term the glossary
 * gives in both the source and the target language is replaced by its target term, as a
 * whole word (letters and digits around it do not match), longest terms first, case as
 * written, in page titles, descriptions and Markdown bodies, never inside fenced code blocks.
 */
import { badRequest, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/translations.js';
import { type ContentPage, type ContentTree } from '../content-model/model.js';
import { closesFence, openingFence } from '../content-model/markdown.js';
import type { StoreReader } from '../store/types.js';
import { type Handler, type HandlerContext, Reply, implementer } from './handler.js';
import { orgAccess } from './permissions.js';
import { KeyedSet, isKeyedId } from './ordered.js';
import { itemsOf, paginate } from './pagination.js';
import { apiUrl } from './urls.js';

/** How many entries an organization's glossary holds at most. */
export const MAX_GLOSSARY_ENTRIES = 10_000;

export interface GlossaryEntryRecord {
  id: string;
  translations: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export const orgGlossary = new KeyedSet<GlossaryEntryRecord>('orgGlossary');

function entryView(origin: string, org: string, entry: GlossaryEntryRecord) {
  return {
    object: 'glossary-entry' as const,
    id: entry.id,
    translations: entry.translations,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    urls: { location: apiUrl(origin, `orgs/${encodeURIComponent(org)}/translations-glossary/${encodeURIComponent(entry.id)}`) },
  };
}

function requireEntry(tx: StoreReader, org: string, id: string, what: string): GlossaryEntryRecord {
  const entry = isKeyedId(id) ? orgGlossary.get(tx, org, id) : undefined;
  if (!entry) throw notFound(`Glossary entry ${id} not found in organization ${org}${what} (see docsctl translation glossary list)`);
  return entry;
}

// ─── A run: the glossary applied to content ─────────────────────────────────

/** What a run changed: pages it rewrote and the words of their translated text. */
export interface TranslationCount {
  pages: number;
  words: number;
}

const LETTER = '[\\p{L}\\p{N}_]';
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** source term → target term, of the entries that give both languages (and differ). */
export function glossaryPairs(tx: StoreReader, org: string, from: string, to: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const { value } of orgGlossary.all(tx, org)) {
    const source = value.translations[from];
    const target = value.translations[to];
    if (source !== undefined && target !== undefined && source !== target) pairs.set(source, target);
  }
  return pairs;
}

/** A replacer of whole-word terms, longest first; undefined when there is nothing to replace. */
function replacer(pairs: ReadonlyMap<string, string>): ((text: string) => string) | undefined {
  if (pairs.size === 0) return undefined;
  const terms = [...pairs.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const pattern = new RegExp(`(?<!${LETTER})(?:${terms.map(escape).join('|')})(?!${LETTER})`, 'gu');
  return (text) => text.replace(pattern, (term) => pairs.get(term) ?? term);
}

/** Markdown with `replace` applied outside fenced code blocks. */
function translateMarkdown(markdown: string, replace: (text: string) => string): string {
  const lines = markdown.split('\n');
  let fence: ReturnType<typeof openingFence>;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (fence) {
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    fence = openingFence(line, 3);
    if (!fence) lines[i] = replace(line);
  }
  return lines.join('\n');
}

const wordsOf = (text: string | undefined) => (text ? (text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) : 0);

/** `tree` with the glossary applied to every page (a copy; `tree` is not changed), and what it counted. */
export function translateTree(tree: ContentTree, pairs: ReadonlyMap<string, string>): { tree: ContentTree; count: TranslationCount } {
  const replace = replacer(pairs) ?? ((text: string) => text);
  const count: TranslationCount = { pages: 0, words: 0 };
  const page = (source: ContentPage): ContentPage => {
    const translated: ContentPage = { ...source, title: replace(source.title), pages: source.pages.map(page) };
    if (source.description !== undefined) translated.description = replace(source.description);
    if (source.markdown !== undefined) translated.markdown = translateMarkdown(source.markdown, replace);
    count.pages += 1;
    count.words += wordsOf(translated.title) + wordsOf(translated.description) + wordsOf(translated.markdown);
    return translated;
  };
  return { tree: { ...tree, pages: tree.pages.map(page) }, count };
}

// ─── Handlers ──────────────────────────────────────────────────────────────

/** The organization named (404 when unknown or not the caller's). */
const orgOf = (ctx: HandlerContext, id: string) => orgAccess(ctx.tx, id, ctx.actor.userId).org.id;

const on = implementer<typeof routes>();

export const glossaryHandlers: Record<string, Handler> = {
  ...on('listGlossaryEntries', (ctx, { params, query }) => {
    const org = orgOf(ctx, params.organizationId);
    const view = (entry: GlossaryEntryRecord) => entryView(ctx.origin, org, entry);
    const language = query.orderBy;
    if (language === undefined) return orgGlossary.page(ctx.tx, org, query, ({ value }) => view(value));
    // Ranking needs every entry: bounded by MAX_GLOSSARY_ENTRIES.
    const sorted = orgGlossary.all(ctx.tx, org).map(({ value }) => value);
    const term = (entry: GlossaryEntryRecord) => entry.translations[language];
    sorted.sort((a, b) => {
      const x = term(a);
      const y = term(b);
      if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
      return x.localeCompare(y, language) || (a.id < b.id ? -1 : 1);
    });
    return paginate(itemsOf(sorted), query, view);
  }),

  ...on('getGlossaryEntry', (ctx, { params }) => {
    const org = orgOf(ctx, params.organizationId);
    return entryView(ctx.origin, org, requireEntry(ctx.tx, org, params.glossaryEntryId, ''));
  }),

  ...on('updateGlossaryEntries', (ctx, { params, body }) => {
    const org = orgOf(ctx, params.organizationId);
    const at = ctx.clock().toISOString();
    body.operations.forEach((operation, index) => {
      const where = ` (operation ${index + 1}, ${operation.type})`;
      if (operation.type === 'insert') {
        if (orgGlossary.count(ctx.tx, org) >= MAX_GLOSSARY_ENTRIES) {
          throw badRequest(`The glossary of organization ${org} holds ${MAX_GLOSSARY_ENTRIES} entries, its limit${where}: delete some first`);
        }
        const id = ctx.ids();
        orgGlossary.put(ctx.tx, org, id, { id, translations: { ...operation.translations }, createdAt: at, updatedAt: at });
      } else if (operation.type === 'update') {
        const entry = requireEntry(ctx.tx, org, operation.id, where);
        orgGlossary.put(ctx.tx, org, entry.id, { ...entry, translations: { ...operation.translations }, updatedAt: at });
      } else {
        orgGlossary.remove(ctx.tx, org, requireEntry(ctx.tx, org, operation.id, where).id);
      }
    });
    return new Reply(204);
  }),
};
