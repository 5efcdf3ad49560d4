/**
 * The whole tree of a site in one read (the `getSiteTree` extension, docsctl only):
 * its groups, sections and visible variants as `getSiteStructure` shows them, and
 * each variant's page tree with the pages' ids, titles, kinds and paths.
 *
 * Why: the real API has no such read, so a client draws a site tree from
 * `getSiteStructure` and one `listPages` per variant, whose spec-shaped page documents
 * cost ~390 bytes of JSON a page (app URLs, a 9-member layout). Here each page is
 * read from its stored object only (the pages trie, then the page object; never its
 * body) and projected to ~70 bytes, with no spec-shaped document in between.
 */
import { getSpace } from '../core-records.js';
import { primaryRevision } from '../content/common.js';
import type { PageOutline } from '../content/page-slot.js';
import { RevisionContent, contentOf } from '../content/storage.js';
import type { SiteRecord } from './site-records.js';
import { type ApiStructure, type CompactPage, type SiteTreeAnswer, type TreeNode, skeletonOf } from './tree-shape.js';
import { type SiteViewContext, siteStructureView } from './views.js';
import type { AnswerCache } from '../handler.js';

/**
 * The site tree answer: the structure's skeleton, each variant filled with its space's
 * pages. Spaces whose revisions have the same content (a duplicated space, a variant
 * not yet edited) share one page tree: content is addressed by its hash, so the same
 * root hash is the same tree, read once.
 */
export function siteTree(view: SiteViewContext, site: SiteRecord, answers?: AnswerCache): SiteTreeAnswer {
  const tree = skeletonOf<CompactPage>(siteStructureView(view, site) as ApiStructure);
  const byContent = new Map<string | undefined, CompactPage[]>();
  const fill = (nodes: Array<TreeNode<CompactPage>>) => {
    for (const node of nodes) {
      if (node.type === 'group') fill(node.children);
      else if (node.type === 'section') fill(node.variants);
      else {
        // The structure shows only variants whose space is live, in this same snapshot.
        const space = getSpace(view.tx, node.spaceId);
        if (!space) continue;
        const content = contentOf(primaryRevision(view.tx, space));
        let pages = byContent.get(content);
        if (!pages) {
          const read = () => spacePages(new RevisionContent(view.tx, content));
          // serve keeps a content's pages across commits: after one, only changed spaces are read again.
          pages = answers && content !== undefined ? answers.lasting(`site tree pages ${content}`, read, pageCount) : read();
          byContent.set(content, pages);
        }
        node.pages = pages;
      }
    }
  };
  fill(tree);
  return { object: 'x-docsctl-site-tree', site: site.id, tree };
}

/** How many pages a page tree holds (the size of what serve keeps). */
function pageCount(pages: readonly CompactPage[]): number {
  let count = pages.length;
  for (const page of pages) if (page.pages) count += pageCount(page.pages);
  return count;
}

/**
 * Every page of a content as compact pages, in tree order (paths as listPages gives
 * them), from the pages' outlines in the trie (page-slot.ts): no page object is read
 * unless it was written before outlines.
 */
export function spacePages(content: RevisionContent): CompactPage[] {
  return compactPages(content, content.root.rootPages, '', new Set());
}

/**
 * The pages `ids` under a parent at `path`. A page's path is its parent's plus its own
 * slug (a page without a slug keeps its parent's path); a link has no path and its
 * children are not shown, as in the spec's listing. A page met twice (damage) is shown once.
 */
function compactPages(content: RevisionContent, ids: readonly string[], path: string, seen: Set<string>): CompactPage[] {
  const out: CompactPage[] = [];
  for (const id of ids) {
    if (seen.has(id)) continue;
    const outline = content.outline(id);
    if (!outline) continue;
    seen.add(id);
    out.push(compactPage(content, id, outline, path, seen));
  }
  return out;
}

function compactPage(content: RevisionContent, id: string, outline: PageOutline, parentPath: string, seen: Set<string>): CompactPage {
  const title = outline.t || 'Untitled';
  if (outline.k === 'link') return { id, title, type: 'link' };
  const path = outline.s ? (parentPath ? `${parentPath}/${outline.s}` : outline.s) : parentPath;
  const compact: CompactPage = outline.k === 'group' ? { id, title, type: 'group', path } : { id, title, path };
  if (outline.c && outline.c.length > 0) {
    const children = compactPages(content, outline.c, path, seen);
    if (children.length > 0) compact.pages = children;
  }
  return compact;
}
