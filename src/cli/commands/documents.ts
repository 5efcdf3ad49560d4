/**
 * `docsctl document …`, `docsctl page meta-links[-at]`, `docsctl url embed`: declared with the
 * routes (src/api/routes/documents.ts); what data cannot say is here: the twins (`--cr`,
 * `--space`), page lookups, and printers that make a table of rows out of one answer (a
 * document's blocks, a page's canonical and alternate links). JSON and YAML print the answer
 * as it is.
 */
import type { Hooks } from '../derive.js';
import type { Session } from '../session.js';
import { pageLookup } from '../lookups.js';

const asTable = (session: Session) => session.format === 'table' || session.format === 'tsv';

/** A document as one row per top-level block (TYPE, TEXT). */
async function printDocument(session: Session, body: unknown): Promise<void> {
  const { columns } = await import('../../output/columns.js');
  const nodes = (body as { nodes?: unknown[] } | null)?.nodes;
  if (asTable(session) && Array.isArray(nodes)) await session.printList(nodes, columns.documentBlock);
  else await session.printObject(body, columns.documentBlock);
}

/** Meta links as rows: the canonical link, then each alternate. */
async function printMetaLinks(session: Session, body: unknown): Promise<void> {
  const { columns } = await import('../../output/columns.js');
  const links = (body ?? {}) as { canonical?: object; alternates?: object[] };
  if (!asTable(session)) return session.printObject(body, columns.metaLink);
  const rows = [
    ...(links.canonical ? [{ rel: 'canonical', ...links.canonical }] : []),
    ...(links.alternates ?? []).map((target) => ({ rel: 'alternate', ...target })),
  ];
  if (rows.length === 0 && session.format === 'table') return session.info('No meta links (set them with front matter metaLinks: {canonical, alternates}).');
  return session.printList(rows, columns.metaLink);
}

export const hooks = {
  'document get': { after: printDocument },
  'document page': { after: printDocument },
  'document reusable': { after: printDocument },
  'document compute': { after: printDocument },
  // The answer is a revision's {pages, files, reusableContents}: printed as `page list` prints a tree.
  'page compute': { after: async (session, body) => (await import('./page-tree.js')).printPageTree(session, body) },
  'reusable get': { route: (options) => (options.cr !== undefined ? 'getReusableContentInChangeRequestById' : 'getReusableContentById') },
  'page meta-links': {
    route: (options) => (options.cr !== undefined ? 'listChangeRequestPageMetaLinks' : 'listSpacePageMetaLinks'),
    lookups: { pageId: pageLookup },
    after: printMetaLinks,
  },
  'page meta-links-at': { after: printMetaLinks },
  'url embed': { route: (options) => (options.space !== undefined ? 'getEmbedByUrlInSpace' : 'getEmbedByUrl') },
} satisfies Hooks;
