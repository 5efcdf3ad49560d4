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
import { type ApiStructure, type CompactPage, type SiteTreeAnswer, type TreeNode, type TreeText, type TreeVariant, skeletonOf } from './tree-shape.js';
import { PageLines, PagePieces, eachVariant, pad, treeParts } from './tree-text.js';
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
  const root: CompactPage[] = [];
  // The last page met at each depth: the parent of the next page one level deeper.
  const parents: CompactPage[] = [];
  eachPage(content, (id, title, kind, path, depth) => {
    const compact: CompactPage = kind === 'link' ? { id, title, type: 'link' } : kind === 'group' ? { id, title, type: 'group', path: path as string } : { id, title, path: path as string };
    if (depth === 0) root.push(compact);
    else ((parents[depth - 1] as CompactPage).pages ??= []).push(compact);
    parents[depth] = compact;
  });
  return root;
}

/**
 * The text `site tree` prints, in parts (tree-text.ts), each variant's page lines drawn
 * straight from its content's pages trie: no compact page per page in between (a
 * one-shot `site tree` of 200 spaces of distinct content built and kept 40,000 of them
 * only to draw them once). A content that one variant alone shows (at its level) is
 * drawn as its final text, URL included (PageLines); one that several show, as pieces
 * drawn once and joined with each variant's URL by the printer. The same text as
 * `siteTreeParts(siteTree(…).tree)`, which serve uses (it keeps each content's compact
 * pages across commits).
 */
export function siteTreeTextParts(view: SiteViewContext, site: SiteRecord): TreeText {
  const tree = skeletonOf<CompactPage>(siteStructureView(view, site) as ApiStructure);
  // Each variant's content (null: its space is not live, in this same snapshot), and how many variants show each content and level.
  const contents = new Map<TreeVariant<CompactPage>, { content: string | undefined } | null>();
  const shown = new Map<string, number>();
  eachVariant(tree, (variant, level) => {
    const space = getSpace(view.tx, variant.spaceId);
    const content = space ? contentOf(primaryRevision(view.tx, space)) : undefined;
    contents.set(variant, space ? { content } : null);
    if (space) {
      const key = `${level} ${content ?? ''}`;
      shown.set(key, (shown.get(key) ?? 0) + 1);
    }
  });
  // Content (the same root hash is the same tree) and level → its pieces (undefined: no page).
  const drawn = new Map<string, number | undefined>();
  return treeParts(tree, (variant, level, pieces) => {
    const shows = contents.get(variant);
    if (!shows) return undefined;
    const key = `${level} ${shows.content ?? ''}`;
    if (drawn.has(key)) return drawn.get(key);
    const indents: string[] = [];
    if (shown.get(key) === 1) {
      const lines = new PageLines(variant.url ?? '');
      eachPage(new RevisionContent(view.tx, shows.content), (_id, title, _kind, path, depth) => {
        lines.page((indents[depth] ??= pad(level + depth)), title, path ?? '');
      });
      return lines.drawn ? lines.done() : undefined;
    }
    const out = new PagePieces();
    eachPage(new RevisionContent(view.tx, shows.content), (_id, title, _kind, path, depth) => {
      out.page((indents[depth] ??= pad(level + depth)), title, path ?? '');
    });
    const index = out.drawn ? pieces.push(out.done()) - 1 : undefined;
    drawn.set(key, index);
    return index;
  });
}

/** A page as a whole-space read shows it: its title ('Untitled' when empty), kind, path (undefined for a link), depth (0 at the root). */
type PageVisit = (id: string, title: string, kind: PageOutline['k'], path: string | undefined, depth: number) => void;

/**
 * Every page of a content shown by a page tree, in tree order, each before its children.
 * A page's path is its parent's plus its own slug (a page without a slug keeps its
 * parent's path); a link has no path and its children are not shown, as in the spec's
 * listing. A page met twice (damage) is shown once.
 */
function eachPage(content: RevisionContent, visit: PageVisit): void {
  const seen = new Set<string>();
  // One outline filled page after page: its fields are read before the next page fills it.
  const outline: PageOutline = { t: '', k: undefined, s: undefined, c: undefined };
  const walk = (ids: readonly string[], parentPath: string, depth: number): void => {
    for (const id of ids) {
      if (seen.has(id)) continue;
      if (!content.outlineInto(id, outline)) continue;
      seen.add(id);
      const title = outline.t || 'Untitled';
      const kind = outline.k;
      if (kind === 'link') {
        visit(id, title, 'link', undefined, depth);
        continue;
      }
      const slug = outline.s;
      const children = outline.c;
      const path = slug ? (parentPath ? `${parentPath}/${slug}` : slug) : parentPath;
      visit(id, title, kind, path, depth);
      if (children && children.length > 0) walk(children, path, depth + 1);
    }
  };
  walk(content.root.rootPages, '', 0);
}
