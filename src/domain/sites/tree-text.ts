/**
 * The text of a site tree: what `site tree` prints, one line per group, section,
 * variant and page, each page with its published URL (its variant's URL followed by
 * its path).
 *
 * Shared by the `getSiteTree` handler (`format=text`: the lines are drawn where the
 * tree is read, so a client receives the text instead of parsing ~40,000 page objects
 * and drawing them cold) and the CLI (the fallback for servers without the extension
 * draws its lines with `nodeLine` and `pageLine`), so every way prints the same bytes.
 * Pure: no store, no transport (the CLI bundles it).
 *
 * The text travels in parts (`TreeText`): a variant's page lines are the pieces between
 * its URL, and variants showing the same content share their pieces. So the URL, which
 * is most of a line, is sent once per variant, a shared page tree once, and the CLI
 * makes the text safe for a terminal part by part (each distinct piece once) before
 * joining it, instead of scanning megabytes of the same lines.
 */
import type { CompactPage, TreeNode, TreeText, TreeVariant } from './tree-shape.js';

/** The indent of a line at `level`. */
export const pad = (level: number): string => '  '.repeat(level);

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
 * `text`, made one flat string by V8 (reading a character of a rope flattens it in place;
 * the collector then drops the rope's cell and keeps the flat string alone).
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

/**
 * The page lines of a variant as the pieces between its URLs, drawn one page at a
 * time in tree order: the text is `pieces.join(url)` (each page with a path shows the
 * variant's URL followed by its path; without a published URL, `pieces.join('')` shows
 * the path alone, as `pageLine` does). Fed from compact pages (pagePieces) or straight
 * from a content's pages trie (tree.ts, `site tree` in one process), so both draw the
 * same bytes.
 */
export class PagePieces {
  private readonly pieces: string[] = [];
  // The text since the last URL. Each piece is made flat at once (`flat`): a template literal alone leaves a rope of
  // four strings kept to the end (the collector copied them: +5% instructions on 200 distinct spaces), and an array
  // and a join per piece cost more than the concatenation and one flattening (-1.3% instructions, callgrind).
  private run = '';
  /** Whether a page was drawn (a variant without pages shows no page lines). */
  drawn = false;

  /** One page's line: `indent` (pad of its level), its title, its path ('' for none: no URL). */
  page(indent: string, title: string, path: string): void {
    this.drawn = true;
    if (path === '') this.run = `${this.run}${pageLine(indent, title, '')}\n`;
    else {
      this.pieces.push(flat(`${this.run}${indent}${title}${title ? '  ' : ''}`));
      this.run = `${path}\n`;
    }
  }

  /** The pieces (once every page is drawn). */
  done(): string[] {
    this.pieces.push(flat(this.run));
    return this.pieces;
  }
}

/**
 * The page lines of a variant as one text, its URL in every line that has a path: what
 * `PagePieces` and `pieces.join(url)` make, drawn in one pass for a content only one
 * variant shows (`site tree` in one process: 200 spaces of distinct content drew 40,000
 * pieces, kept them all, then copied them twice more joining each variant's).
 */
export class PageLines {
  private text = '';
  /** Whether a page was drawn (a variant without pages shows no page lines). */
  drawn = false;
  constructor(private readonly url: string) {}

  /** One page's line, as PagePieces.page. */
  page(indent: string, title: string, path: string): void {
    this.drawn = true;
    this.text += path === '' ? `${pageLine(indent, title, '')}\n` : `${indent}${title}${title ? '  ' : ''}${this.url}${path}\n`;
  }

  /** The text (once every page is drawn), one flat string. */
  done(): string {
    return flat(this.text);
  }
}

/**
 * The pieces of compact pages (see PagePieces). Variants showing the same content share
 * one pages array (tree.ts reads each content once), so their pieces are drawn once and
 * each variant costs one join.
 */
function pagePieces(pages: readonly CompactPage[], level: number): string[] {
  const out = new PagePieces();
  const draw = (list: readonly CompactPage[], depth: number) => {
    const indent = pad(depth);
    for (const page of list) {
      out.page(indent, page.title, page.path ?? '');
      if (page.pages) draw(page.pages, depth + 1);
    }
  };
  draw(pages, level);
  return out.done();
}

/**
 * Where a variant's page lines are (an index in `pieces`, drawn by the callback or
 * shared with an earlier variant), or the lines themselves with the variant's URL in
 * them (a string: PageLines), undefined when it shows no page.
 */
export type VariantPieces<P> = (variant: TreeVariant<P>, level: number, pieces: string[][]) => number | string | undefined;

/**
 * The text of a tree in parts (see TreeText), each variant's page lines found by
 * `piecesOf` (at `level`, the depth of its pages): nothing for a site that shows no space.
 */
export function treeParts<P>(nodes: ReadonlyArray<TreeNode<P>>, piecesOf: VariantPieces<P>): TreeText {
  const parts: TreeText['parts'] = [];
  const pieces: string[][] = [];
  let lines = '';
  const walk = (items: ReadonlyArray<TreeNode<P>>, level: number) => {
    for (const item of items) {
      lines += `${nodeLine(item, level)}\n`;
      if (item.type === 'group') walk(item.children, level + 1);
      else if (item.type === 'section') walk(item.variants, level + 1);
      else {
        const index = piecesOf(item, level + 1, pieces);
        if (index !== undefined) {
          parts.push(lines, typeof index === 'string' ? index : [index, item.url ?? '']);
          lines = '';
        }
      }
    }
  };
  walk(nodes, 0);
  if (lines !== '') parts.push(lines);
  return { parts, pieces };
}

/** Calls `visit` with every variant of a tree and the level of its pages, in the order treeParts meets them. */
export function eachVariant<P>(nodes: ReadonlyArray<TreeNode<P>>, visit: (variant: TreeVariant<P>, level: number) => void, level = 0): void {
  for (const item of nodes) {
    if (item.type === 'group') eachVariant(item.children, visit, level + 1);
    else if (item.type === 'section') eachVariant(item.variants, visit, level + 1);
    else visit(item, level + 1);
  }
}

/** The text of a tree in parts (see TreeText): nothing for a site that shows no space. */
export function siteTreeParts(nodes: ReadonlyArray<TreeNode<CompactPage>>): TreeText {
  // Pieces by level, then by pages array: a variant's level depends on where it is (root, section, group).
  const drawn = new Map<number, Map<readonly CompactPage[], number>>();
  return treeParts(nodes, (variant, level, pieces) => {
    if (variant.pages.length === 0) return undefined;
    let atLevel = drawn.get(level);
    if (!atLevel) drawn.set(level, (atLevel = new Map()));
    let index = atLevel.get(variant.pages);
    if (index === undefined) {
      index = pieces.push(pagePieces(variant.pages, level)) - 1;
      atLevel.set(variant.pages, index);
    }
    return index;
  });
}

/**
 * The text of parts, each part passed through `clean` first (the CLI's sanitizer: it
 * maps character by character, so cleaning the parts cleans the text), each distinct
 * piece once. Untrusted parts (from a server) are checked: anything out of shape
 * throws rather than printing half a tree.
 */
export function treeText(text: TreeText, clean: (text: string) => string = (part) => part): string {
  return [...treeTextChunks(text, clean)].join('');
}

/**
 * The text of parts in chunks, in order: the lines before a variant's pages, then its
 * page lines in one string (`pieces.join(url)`), so a caller writes the text as it is
 * drawn instead of joining megabytes first (a site of 200 distinct spaces printed 4.2 MB,
 * copied three times on the way). Every part's shape is checked before the first chunk:
 * an answer out of shape throws before anything is printed. Cleaned as treeText says.
 */
export function* treeTextChunks({ parts, pieces }: TreeText, clean: (text: string) => string = (part) => part): Generator<string, void, undefined> {
  for (const part of parts) {
    if (typeof part === 'string') continue;
    const [index, url] = Array.isArray(part) ? part : [];
    if (!Number.isInteger(index) || !Array.isArray(pieces[index as number]) || typeof url !== 'string') {
      throw new Error(`site tree: the answer names pieces that are not there (${JSON.stringify(part)})`);
    }
  }
  // Per pieces: true once their text was found clean as it is, else the cleaned pieces.
  const cleaned: Array<string[] | true | undefined> = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      yield clean(part);
      continue;
    }
    const [index, url] = part;
    const raw = pieces[index] as readonly unknown[];
    const link = clean(url);
    const known = cleaned[index];
    if (known === true) yield (raw as string[]).join(link);
    else if (known !== undefined) yield known.join(link);
    else {
      const clear = cleanPieces(raw, clean);
      cleaned[index] = clear === raw ? true : clear;
      yield clear.join(link);
    }
  }
}

/**
 * Pieces passed through `clean`: in one call when it leaves their whole text as it is
 * (the usual case; it maps character by character, so then it leaves each piece as it
 * is, and `raw` itself is returned), else each on its own. One call per variant's pieces
 * instead of one per page line (the sanitizer's regular expression costs more to start
 * than to scan a line), over the pieces only: the URL between them, most of a line, is
 * cleaned once.
 */
function cleanPieces(raw: readonly unknown[], clean: (text: string) => string): string[] {
  if (raw.every((piece) => typeof piece === 'string')) {
    const whole = (raw as string[]).join('');
    if (clean(whole) === whole) return raw as string[];
  }
  return raw.map((piece) => clean(String(piece)));
}

/** The text of a tree, each line ending in a newline; empty for a site that shows no space. */
export function siteTreeText(nodes: ReadonlyArray<TreeNode<CompactPage>>): string {
  return treeText(siteTreeParts(nodes));
}
