/**
 * The text of a site tree: what `site tree` prints, one line per group, section,
 * variant and page, each page with its published URL (its variant's URL followed by
 * its path).
 *
 * Shared by the `getSiteTree` handler (`format=text`: the lines are drawn where the
 * tree is read, so a remote client receives one string instead of parsing ~40,000
 * page objects and drawing them cold) and the CLI (the fallback for servers without
 * the extension draws its lines with `nodeLine` and `pageLine`), so every way prints
 * the same bytes. Pure: no store, no transport (the CLI bundles it). The text is not
 * made safe for a terminal here: the CLI does that to whatever it prints.
 */
import type { CompactPage, TreeNode } from './tree-shape.js';

const pad = (level: number) => '  '.repeat(level);

/** The line of a group, section or variant at `level` (its pages or children follow). */
export function nodeLine(item: TreeNode<unknown>, level: number): string {
  if (item.type === 'group') return `${pad(level)}[${item.title}]  group ${item.id}`;
  const kind = item.type === 'section' ? '#' : '*';
  const parts = [item.title, `${item.type} ${item.id}`, `/${item.path}`, item.default ? 'default' : undefined, item.url];
  return `${pad(level)}${kind} ${parts.filter(Boolean).join('  ')}`;
}

/** The line of a page at `level`: its title, then its URL (or its path when the site has no published URL). */
export function pageLine(indent: string, title: string, where: string): string {
  return title && where ? `${indent}${title}  ${where}` : `${indent}${title || where}`;
}

/**
 * The page lines of a variant as the pieces between its URLs: the text is
 * `pieces.join(url)` (each page with a path shows the variant's URL followed by its
 * path; without a published URL, `pieces.join('')` shows the path alone, as `pageLine`
 * does). Variants showing the same content share one pages array (tree.ts reads each
 * content once), so their pieces are drawn once and each variant costs one join.
 * The pieces are joined, not appended to one string: on a site of 40,000 pages,
 * appending (a rope, flattened when written) took twice as long.
 */
function pagePieces(pages: readonly CompactPage[], level: number): string[] {
  const pieces: string[] = [];
  let run = ''; // the text since the last URL: a few short strings
  const draw = (list: readonly CompactPage[], depth: number) => {
    const indent = pad(depth);
    for (const page of list) {
      const path = page.path ?? '';
      if (path === '') run += `${pageLine(indent, page.title, '')}\n`;
      else {
        pieces.push(run + (page.title ? `${indent}${page.title}  ` : indent));
        run = `${path}\n`;
      }
      if (page.pages) draw(page.pages, depth + 1);
    }
  };
  draw(pages, level);
  pieces.push(run);
  return pieces;
}

/** The text of a tree, each line ending in a newline; empty for a site that shows no space. */
export function siteTreeText(nodes: ReadonlyArray<TreeNode<CompactPage>>): string {
  const out: string[] = [];
  // Pieces by level, then by pages array: a variant's level depends on where it is (root, section, group).
  const drawn = new Map<number, Map<readonly CompactPage[], string[]>>();
  const piecesOf = (pages: readonly CompactPage[], level: number) => {
    let atLevel = drawn.get(level);
    if (!atLevel) drawn.set(level, (atLevel = new Map()));
    let pieces = atLevel.get(pages);
    if (!pieces) atLevel.set(pages, (pieces = pagePieces(pages, level)));
    return pieces;
  };
  const walk = (items: ReadonlyArray<TreeNode<CompactPage>>, level: number) => {
    for (const item of items) {
      out.push(nodeLine(item, level), '\n');
      if (item.type === 'group') walk(item.children, level + 1);
      else if (item.type === 'section') walk(item.variants, level + 1);
      else if (item.pages.length > 0) {
        // The pieces and the URL go to `out` as they are: one join makes the text (a join per variant would copy it twice).
        const pieces = piecesOf(item.pages, level + 1);
        const url = item.url ?? '';
        out.push(pieces[0] as string);
        for (let i = 1; i < pieces.length; i++) out.push(url, pieces[i] as string);
      }
    }
  };
  walk(nodes, 0);
  return out.join('');
}
