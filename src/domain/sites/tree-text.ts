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
 * The page lines of a variant, added to `lines`. Lines are joined once at the end:
 * on a site of 40,000 pages, appending to one string (a rope, flattened when
 * written) took twice as long.
 */
function compactPageLines(pages: readonly CompactPage[], level: number, base: string | undefined, lines: string[]): void {
  const indent = pad(level);
  for (const page of pages) {
    const path = page.path ?? '';
    lines.push(pageLine(indent, page.title, base !== undefined && path !== '' ? `${base}${path}` : path));
    if (page.pages) compactPageLines(page.pages, level + 1, base, lines);
  }
}

/** The text of a tree, each line ending in a newline; empty for a site that shows no space. */
export function siteTreeText(nodes: ReadonlyArray<TreeNode<CompactPage>>): string {
  if (nodes.length === 0) return '';
  const lines: string[] = [];
  const walk = (items: ReadonlyArray<TreeNode<CompactPage>>, level: number) => {
    for (const item of items) {
      lines.push(nodeLine(item, level));
      if (item.type === 'group') walk(item.children, level + 1);
      else if (item.type === 'section') walk(item.variants, level + 1);
      else compactPageLines(item.pages, level + 1, item.url, lines);
    }
  };
  walk(nodes, 0);
  lines.push(''); // the last newline, in the one copy join makes (4 MB on a big site)
  return lines.join('\n');
}
