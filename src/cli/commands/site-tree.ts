/**
 * `site published` and `site tree`: the structure of a site read through the API
 * (so they work the same against any /v1 server), flattened into rows or drawn
 * as an indented tree with each space's page tree and published URLs.
 */
import type { RawInput } from '../../api/validate.js';
import { columns } from '../../output/columns.js';
import type { Session } from '../session.js';
import type { Transport } from '../../transport/types.js';

interface ApiPage {
  id: string;
  type?: string;
  title: string;
  path?: string;
  pages?: ApiPage[];
}
interface ApiSiteSpace {
  id: string;
  path: string;
  title: string;
  default?: boolean;
  space: { id: string };
  urls: { published?: string };
}
interface ApiSection {
  object: 'site-section';
  id: string;
  title: string;
  path: string;
  default?: boolean;
  siteSpaces: ApiSiteSpace[];
  urls: { published?: string };
}
interface ApiGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  children: Array<ApiSection | ApiGroup>;
}
export interface ApiStructure {
  type: 'sections' | 'siteSpaces';
  structure: Array<ApiSection | ApiGroup | ApiSiteSpace>;
}

export interface TreePage {
  type: 'page';
  id: string;
  title: string;
  path: string;
  url?: string;
  pages: TreePage[];
}
export interface TreeVariant {
  type: 'variant';
  id: string;
  title: string;
  path: string;
  default: boolean;
  spaceId: string;
  url?: string;
  pages: TreePage[];
}
export interface TreeSection {
  type: 'section';
  id: string;
  title: string;
  path: string;
  default: boolean;
  url?: string;
  variants: TreeVariant[];
}
export interface TreeGroup {
  type: 'group';
  id: string;
  title: string;
  children: Array<TreeSection | TreeGroup>;
}
export type TreeNode = TreeGroup | TreeSection | TreeVariant;

/** The published rows of a structure: one per variant, with its section's title. */
export function publishedRows(structure: ApiStructure) {
  const rows: Array<{ section: string; variant: string; default: boolean; url: string }> = [];
  const walk = (items: ApiStructure['structure'], prefix: string) => {
    for (const item of items) {
      if ('object' in item && item.object === 'site-section-group') {
        walk(item.children, `${prefix}${item.title} / `);
      } else if ('object' in item && item.object === 'site-section') {
        for (const ss of item.siteSpaces) {
          rows.push({ section: `${prefix}${item.title}`, variant: ss.title, default: Boolean(item.default && ss.default), url: ss.urls.published ?? '' });
        }
      } else {
        const ss = item as ApiSiteSpace;
        rows.push({ section: '', variant: ss.title, default: Boolean(ss.default), url: ss.urls.published ?? '' });
      }
    }
  };
  walk(structure.structure, '');
  return rows;
}

export async function printPublished(session: Session, body: unknown): Promise<void> {
  if (session.format === 'json' || session.format === 'yaml') {
    await session.printObject(body, []);
    return;
  }
  const answer = body as { site: { title: string; published: boolean }; structure: ApiStructure };
  const rows = publishedRows(answer.structure);
  await session.printList(rows, columns.publishedItem);
  if (!answer.site.published) await session.hint(`Site "${answer.site.title}" is not published: URLs appear once it is (docsctl site publish).`);
  else if (rows.length === 0) await session.hint('The site shows no space yet.');
}

function toPages(pages: ApiPage[] | undefined, base: string | undefined): TreePage[] {
  return (pages ?? []).map((page) => {
    const path = page.path ?? '';
    return {
      type: 'page' as const,
      id: page.id,
      title: page.title,
      path,
      ...(base !== undefined && path !== '' ? { url: `${base}${path}` } : {}),
      pages: toPages(page.pages, base),
    };
  });
}

/**
 * The page tree query of a variant: titles and paths only. `bodies=false` leaves the
 * Markdown out (docsctl); `metadata=false` leaves out the Git Sync metadata
 * (the real API's own option for a lighter lookup). A server that does not know
 * `bodies` ignores it: the tree read from its answer is the same.
 */
export const PAGE_TREE_QUERY = { bodies: 'false', metadata: 'false' } as const;

/** The variants of a structure, in the order the tree shows them. */
function variantsOf(structure: ApiStructure): ApiSiteSpace[] {
  const variants: ApiSiteSpace[] = [];
  const collect = (items: ApiStructure['structure']) => {
    for (const item of items) {
      if ('object' in item && item.object === 'site-section-group') collect(item.children);
      else if ('object' in item && item.object === 'site-section') variants.push(...item.siteSpaces);
      else variants.push(item as ApiSiteSpace);
    }
  };
  collect(structure.structure);
  return variants;
}

/**
 * Reads each variant's page tree with listPages, in the order of `variants`: `next()`
 * gives the next one. Against a remote endpoint up to 8 reads are in flight ahead of
 * the caller; locally one. Each answer becomes its small tree at once, so the parsed
 * answer (URLs, layouts) dies young, and a caller that prints as it goes keeps only a
 * few variants' pages in memory (on a site of 40,000 pages, GC was a third of the time).
 */
function pageTreeReader(transport: Transport, variants: readonly ApiSiteSpace[]): () => Promise<TreePage[]> {
  const ahead = transport.mode === 'remote' ? 8 : 1;
  const reads: Array<Promise<TreePage[]> | undefined> = [];
  const start = (index: number) => {
    const ss = variants[index];
    if (!ss || reads[index]) return;
    const read = transport
      .request('listPages', { params: { spaceId: ss.space.id }, query: { ...PAGE_TREE_QUERY } })
      .then(({ body }) => toPages((body as { pages?: ApiPage[] }).pages, ss.urls.published));
    read.catch(() => undefined); // a failure is thrown to the caller when it reaches this variant
    reads[index] = read;
  };
  let position = 0;
  return async () => {
    const index = position++;
    for (let i = index; i < index + ahead; i++) start(i);
    const read = reads[index];
    if (!read) throw new Error(`site tree: no variant at position ${index}`);
    reads[index] = undefined;
    return read;
  };
}

/** The tree of a structure; every variant's `pages` is empty until filled. */
function skeletonOf(structure: ApiStructure): TreeNode[] {
  const variant = (ss: ApiSiteSpace): TreeVariant => ({
    type: 'variant',
    id: ss.id,
    title: ss.title,
    path: ss.path,
    default: Boolean(ss.default),
    spaceId: ss.space.id,
    ...(ss.urls.published !== undefined ? { url: ss.urls.published } : {}),
    pages: [],
  });
  const node = (item: ApiSection | ApiGroup): TreeSection | TreeGroup =>
    item.object === 'site-section-group'
      ? { type: 'group', id: item.id, title: item.title, children: item.children.map(node) }
      : {
          type: 'section',
          id: item.id,
          title: item.title,
          path: item.path,
          default: Boolean(item.default),
          ...(item.urls.published !== undefined ? { url: item.urls.published } : {}),
          variants: item.siteSpaces.map(variant),
        };
  return structure.type === 'sections'
    ? (structure.structure as Array<ApiSection | ApiGroup>).map(node)
    : (structure.structure as ApiSiteSpace[]).map(variant);
}

/** Calls `visit` on every variant of a tree, in the order the tree shows them. */
async function eachVariant(nodes: TreeNode[], visit: (variant: TreeVariant) => Promise<void>): Promise<void> {
  for (const item of nodes) {
    if (item.type === 'group') await eachVariant(item.children, visit);
    else if (item.type === 'section') await eachVariant(item.variants, visit);
    else await visit(item);
  }
}

/** The site's structure with each variant's page tree (read with listPages, a few at a time). */
export async function buildSiteTree(session: Session, structure: ApiStructure): Promise<TreeNode[]> {
  const next = pageTreeReader(await session.transport(), variantsOf(structure));
  const tree = skeletonOf(structure);
  await eachVariant(tree, async (variant) => {
    variant.pages = await next();
  });
  return tree;
}

/** The indented text of a tree: one line per group, section, variant and page (added to `lines`). */
export function treeLines(nodes: TreeNode[], depth = 0, lines: string[] = []): string[] {
  const pad = (level: number) => '  '.repeat(level);
  const tail = (parts: Array<string | undefined>) => parts.filter(Boolean).join('  ');
  const pagesOf = (pages: TreePage[], level: number) => {
    for (const page of pages) {
      lines.push(`${pad(level)}${tail([page.title, page.url ?? page.path])}`);
      pagesOf(page.pages, level + 1);
    }
  };
  const walk = (items: TreeNode[], level: number) => {
    for (const item of items) {
      if (item.type === 'group') {
        lines.push(`${pad(level)}[${item.title}]  group ${item.id}`);
        walk(item.children, level + 1);
      } else if (item.type === 'section') {
        lines.push(`${pad(level)}# ${tail([item.title, `section ${item.id}`, `/${item.path}`, item.default ? 'default' : undefined, item.url])}`);
        walk(item.variants, level + 1);
      } else {
        lines.push(`${pad(level)}* ${tail([item.title, `variant ${item.id}`, `/${item.path}`, item.default ? 'default' : undefined, item.url])}`);
        pagesOf(item.pages, level + 1);
      }
    }
  };
  walk(nodes, depth);
  return lines;
}

/**
 * The text tree, printed as it is read: each variant's lines go out once its pages
 * arrive (in chunks), and its pages are dropped, so memory stays a few variants deep.
 */
async function streamSiteTree(session: Session, structure: ApiStructure, tree: TreeNode[]): Promise<void> {
  const next = pageTreeReader(await session.transport(), variantsOf(structure));
  let lines: string[] = [];
  const flush = async () => {
    if (lines.length > 0) await session.printText(lines.join('\n'));
    lines = [];
  };
  const walk = async (items: TreeNode[], depth: number) => {
    for (const item of items) {
      if (item.type === 'group') {
        treeLines([{ ...item, children: [] }], depth, lines);
        await walk(item.children, depth + 1);
      } else if (item.type === 'section') {
        treeLines([{ ...item, variants: [] }], depth, lines);
        await walk(item.variants, depth + 1);
      } else {
        treeLines([{ ...item, pages: await next() }], depth, lines);
        if (lines.length >= 4096) await flush();
      }
    }
  };
  await walk(tree, 0);
  await flush();
}

export async function printSiteTree(session: Session, body: unknown, _input?: RawInput): Promise<void> {
  const structure = body as ApiStructure;
  if (session.format === 'json' || session.format === 'yaml') {
    await session.printObject(await buildSiteTree(session, structure), []);
    return;
  }
  const tree = skeletonOf(structure);
  if (tree.length === 0) {
    await session.hint('The site shows no space yet (docsctl site space add SITE SPACE).');
    return;
  }
  await streamSiteTree(session, structure, tree);
}
