/**
 * `site published` and `site tree`: the structure of a site read through the API
 * (so they work the same against any /v1 server), flattened into rows or drawn
 * as an indented tree with each space's page tree and published URLs.
 */
import { ApiError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type * as Shape from '../../domain/sites/tree-shape.js';
import { type ApiSiteSpace, type ApiStructure, type CompactPage, type SiteTreeAnswer, type SiteTreeTextAnswer, skeletonOf } from '../../domain/sites/tree-shape.js';
import { nodeLine, pageLine, siteTreeText, treeTextChunks } from '../../domain/sites/tree-text.js';
import { sanitizeText } from '../../output/sanitize.js';
import { columns } from '../../output/columns.js';
import type { Session } from '../session.js';
import type { ApiResponse, Transport } from '../../transport/types.js';

export type { ApiStructure };

interface ApiPage {
  id: string;
  type?: string;
  title: string;
  path?: string;
  pages?: ApiPage[];
}

/** A page as `site tree --json` prints it. */
export interface TreePage {
  type: 'page';
  id: string;
  title: string;
  path: string;
  url?: string;
  pages: TreePage[];
}
export type TreeNode = Shape.TreeNode<TreePage>;
type TreeVariant = Shape.TreeVariant<TreePage>;
type CompactNode = Shape.TreeNode<CompactPage>;

/** The published rows of a structure: one per variant, with its section's title. */
export function publishedRows(structure: ApiStructure) {
  const rows: Array<{ section: string; variant: string; default: boolean; url: string }> = [];
  const walk = (items: ApiStructure['structure'], prefix: string) => {
    for (const item of items) {
      if ('object' in item && item.object === 'site-section-group') {
        walk(item.children, `${prefix}${item.title} / `);
      } else if ('object' in item && item.object === 'site-section') {
        for (const ss of item.siteSpaces) {
          rows.push({ section: `${prefix}${item.title}`, variant: ss.title, default: Boolean(item.default && ss.default), url: ss.urls?.published ?? '' });
        }
      } else if ('object' in item && (item as { object: string }).object === 'site-external-link') {
        // Today's API: a link to another site among the sections.
        const link = item as unknown as { title?: string; url?: string };
        rows.push({ section: `${prefix}${link.title ?? ''}`, variant: '', default: false, url: link.url ?? '' });
      } else {
        // A variant outside sections; today's API names its section by id (`section`).
        const ss = item as ApiSiteSpace & { section?: string };
        rows.push({ section: ss.section ?? '', variant: ss.title, default: Boolean(ss.default), url: ss.urls?.published ?? '' });
      }
    }
  };
  walk(structure.structure, '');
  return rows;
}

/** `site published`: the table's rows (section, variant, default, URL); `--json`/`--yaml` print the API answer, or the rows with `--rows`. */
export async function printPublished(session: Session, body: unknown, _input?: unknown, options: Record<string, unknown> = {}): Promise<void> {
  if ((session.format === 'json' || session.format === 'yaml') && options.rows !== true) {
    await session.printObject(body, []);
    return;
  }
  const answer = body as { site: { title: string; published: boolean }; structure: ApiStructure };
  const rows = publishedRows(answer.structure);
  await session.printList(rows, columns.publishedItem);
  if (!answer.site.published) await session.hint(`Site "${answer.site.title}" is not published: URLs appear once it is (docsctl site publish).`);
  else if (rows.length === 0) await session.hint('The site shows no space yet.');
}

/** Pages (of a listing or of the extension's answer) as `--json` prints them, each with its URL when the site is published. */
function toPages(pages: ReadonlyArray<ApiPage | CompactPage> | undefined, base: string | undefined): TreePage[] {
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
      else if (!('object' in item) || (item as { object: string }).object === 'site-space') variants.push(item as ApiSiteSpace);
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
  const tree = skeletonOf<TreePage>(structure);
  await eachVariant(tree, async (variant) => {
    variant.pages = await next();
  });
  return tree;
}

/** The indented text of a tree: one line per group, section, variant and page (added to `lines`), as siteTreeText draws it. */
export function treeLines(nodes: TreeNode[], depth = 0, lines: string[] = []): string[] {
  const pagesOf = (pages: TreePage[], level: number) => {
    const indent = '  '.repeat(level);
    for (const page of pages) {
      lines.push(pageLine(indent, page.title, page.url ?? page.path));
      pagesOf(page.pages, level + 1);
    }
  };
  const walk = (items: TreeNode[], level: number) => {
    for (const item of items) {
      lines.push(nodeLine(item, level));
      if (item.type === 'group') walk(item.children, level + 1);
      else if (item.type === 'section') walk(item.variants, level + 1);
      else pagesOf(item.pages, level + 1);
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

/** An extension answer as the tree `--json` prints (the fallback's shape, member for member). */
export function treeOfAnswer(nodes: readonly CompactNode[]): TreeNode[] {
  const variant = (item: Shape.TreeVariant<CompactPage>): TreeVariant => ({
    type: 'variant',
    id: item.id,
    title: item.title,
    path: item.path,
    default: item.default,
    spaceId: item.spaceId,
    ...(item.url !== undefined ? { url: item.url } : {}),
    pages: toPages(item.pages, item.url),
  });
  const node = (item: Shape.TreeSection<CompactPage> | Shape.TreeGroup<CompactPage>): Shape.TreeSection<TreePage> | Shape.TreeGroup<TreePage> =>
    item.type === 'group'
      ? { type: 'group', id: item.id, title: item.title, children: item.children.map(node) }
      : {
          type: 'section',
          id: item.id,
          title: item.title,
          path: item.path,
          default: item.default,
          ...(item.url !== undefined ? { url: item.url } : {}),
          variants: item.variants.map(variant),
        };
  return nodes.map((item) => (item.type === 'variant' ? variant(item) : node(item)));
}

/** Statuses with which a server says it has no `getSiteTree` (a server that is not docsctl, such as GitBook's). */
const NO_TREE_ROUTE = new Set([404, 405, 501]);

/** Prints the answer as JSON or YAML (the tree), rather than as text. */
const printsObject = (session: Session) => session.format === 'json' || session.format === 'yaml';

/**
 * The query of the extension read: the text as it is printed, unless the tree is
 * printed as JSON or YAML. A server that does not know `format` (an older docsctl)
 * answers the tree, which printSiteTree draws itself.
 */
export function siteTreeQuery(session: Session): { format?: 'text' } {
  return printsObject(session) ? {} : { format: 'text' };
}

/**
 * The answer `site tree` draws: the `getSiteTree` extension (one read, computed where
 * the data is), or, when a remote server does not have it, the site's structure,
 * whose variants' page trees `printSiteTree` then reads with listPages. A site that
 * does not exist is a 404 from the structure read too, so its message is the one shown.
 */
export async function readSiteTree(transport: Transport, input: RawInput): Promise<ApiResponse> {
  try {
    return await transport.request('getSiteTree', input);
  } catch (error) {
    if (transport.mode === 'local' || !(error instanceof ApiError) || !NO_TREE_ROUTE.has(error.status)) throw error;
    return transport.request('getSiteStructure', { params: input.params });
  }
}

const answerIs = (body: unknown, object: string) => typeof body === 'object' && body !== null && (body as { object?: unknown }).object === object;
const isTreeAnswer = (body: unknown): body is SiteTreeAnswer => answerIs(body, 'x-docsctl-site-tree');
const isTextAnswer = (body: unknown): body is SiteTreeTextAnswer =>
  answerIs(body, 'x-docsctl-site-tree-text') && Array.isArray((body as SiteTreeTextAnswer).parts) && Array.isArray((body as SiteTreeTextAnswer).pieces);

const EMPTY_SITE = 'The site shows no space yet (docsctl site space add SITE SPACE).';

/** Prints `site tree` from either answer of readSiteTree. */
export async function printSiteTree(session: Session, body: unknown, _input?: RawInput): Promise<void> {
  if (isTextAnswer(body)) {
    // Written as it is drawn (a variant at a time); an answer out of shape throws before the first line.
    if ((await session.printSanitizedChunks(treeTextChunks(body, sanitizeText))) === 0) await session.hint(EMPTY_SITE);
    return;
  }
  if (isTreeAnswer(body)) {
    if (printsObject(session)) await session.printObject(treeOfAnswer(body.tree), []);
    else if (body.tree.length === 0) await session.hint(EMPTY_SITE);
    else await session.printText(siteTreeText(body.tree));
    return;
  }
  const structure = body as ApiStructure;
  if (printsObject(session)) {
    await session.printObject(await buildSiteTree(session, structure), []);
    return;
  }
  const tree = skeletonOf<TreePage>(structure);
  if (tree.length === 0) {
    await session.hint(EMPTY_SITE);
    return;
  }
  await streamSiteTree(session, structure, tree);
}
