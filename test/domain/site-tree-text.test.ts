/**
 * siteTreeText draws the lines `site tree` prints. Variants that show the same content
 * share one pages array (tree.ts reads each content once), and their lines are drawn
 * once and joined with each variant's URL: the text must be what drawing each variant
 * on its own gives, at whatever level the variant sits, published or not.
 */
import { describe, expect, it } from 'vitest';
import type { CompactPage, TreeNode, TreeVariant } from '../../src/domain/sites/tree-shape.js';
import { siteTreeParts, siteTreeText, treeText } from '../../src/domain/sites/tree-text.js';

const page = (id: string, title: string, path?: string, pages?: CompactPage[]): CompactPage => ({
  id,
  title,
  ...(path !== undefined ? { path } : {}),
  ...(pages ? { pages } : {}),
});

/** A page, a group with a child and an untitled child, a link (no path), a page at the variant's root (empty path). */
const PAGES: CompactPage[] = [
  page('a', 'Intro', 'intro'),
  { ...page('b', 'Basics', 'basics', [page('c', 'Setup', 'basics/setup'), page('d', '', 'basics/untitled')]), type: 'group' },
  { ...page('e', 'Elsewhere'), type: 'link' },
  page('f', 'Home', ''),
];

const variant = (id: string, pages: CompactPage[], url?: string): TreeVariant<CompactPage> => ({
  type: 'variant',
  id,
  title: id.toUpperCase(),
  path: id,
  default: false,
  spaceId: `space-${id}`,
  ...(url !== undefined ? { url } : {}),
  pages,
});

const copy = (pages: CompactPage[]): CompactPage[] => JSON.parse(JSON.stringify(pages)) as CompactPage[];

/** A section with two variants and a group holding a section with one, all showing `pages` (or copies of it). */
function site(pages: () => CompactPage[], url?: (id: string) => string): Array<TreeNode<CompactPage>> {
  return [
    { type: 'section', id: 's1', title: 'One', path: 'one', default: true, variants: [variant('v1', pages(), url?.('v1')), variant('v2', pages(), url?.('v2'))] },
    {
      type: 'group',
      id: 'g',
      title: 'More',
      children: [{ type: 'section', id: 's2', title: 'Two', path: 'two', default: false, variants: [variant('v3', pages(), url?.('v3'))] }],
    },
  ];
}

describe('siteTreeText', () => {
  it('draws each page with its variant’s URL followed by its path', () => {
    expect(siteTreeText([variant('v', PAGES, 'https://x.test/docs/')])).toBe(
      [
        '* V  variant v  /v  https://x.test/docs/',
        '  Intro  https://x.test/docs/intro',
        '  Basics  https://x.test/docs/basics',
        '    Setup  https://x.test/docs/basics/setup',
        '    https://x.test/docs/basics/untitled',
        '  Elsewhere',
        '  Home',
        '',
      ].join('\n'),
    );
  });

  it('draws shared pages as it draws copies, at every level, with and without URLs', () => {
    const url = (id: string) => `https://x.test/${id}/`;
    const shared = site(() => PAGES, url);
    expect(siteTreeText(shared)).toBe(siteTreeText(site(() => copy(PAGES), url)));
    expect(siteTreeText(shared)).toContain('\n        Setup  https://x.test/v3/basics/setup\n');
    expect(siteTreeText(site(() => PAGES))).toBe(siteTreeText(site(() => copy(PAGES))));
    expect(siteTreeText(site(() => PAGES))).toContain('\n        Setup  basics/setup\n');
  });

  it('is empty for a site that shows no space', () => {
    expect(siteTreeText([])).toBe('');
    expect(siteTreeParts([])).toEqual({ parts: [], pieces: [] });
  });

  it('sends a shared page tree once, and each variant’s URL once', () => {
    const { parts, pieces } = siteTreeParts(site(() => PAGES, (id) => `https://x.test/${id}/`));
    expect(pieces).toHaveLength(2); // the pages at the level of a section's variants, and at the level of a grouped section's
    expect(parts.filter((part) => typeof part !== 'string')).toEqual([
      [0, 'https://x.test/v1/'],
      [0, 'https://x.test/v2/'],
      [1, 'https://x.test/v3/'],
    ]);
  });

  it('made safe part by part is the text made safe', () => {
    const hostile = [{ ...page('x', 'Evil \u001b]0;pwned\u0007', 'evil'), pages: [page('y', 'C1 \u009b', 'evil/c1')] }];
    const url = (id: string) => `https://x.test/\u001b[31m${id}/`;
    const caret = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');
    const tree = site(() => hostile, url);
    expect(treeText(siteTreeParts(tree), caret)).toBe(caret(siteTreeText(tree)));
    expect(treeText(siteTreeParts(tree), caret)).not.toMatch(/[\u001b\u0007\u009b]/);
    // Pieces left as they are by the cleaner beside pieces it changes, and a piece that is not text (an untrusted answer).
    const mixed = [variant('a', PAGES, 'https://x.test/a/'), variant('b', hostile, 'https://x.test/b/')];
    expect(treeText(siteTreeParts(mixed), caret)).toBe(caret(siteTreeText(mixed)));
    expect(treeText(siteTreeParts(mixed), caret)).toContain('\n  Evil ?]0;pwned?  https://x.test/b/evil\n');
    expect(treeText({ parts: [[0, '/u/']], pieces: [['a\u0007', 5 as never]] }, caret)).toBe('a?/u/5');
  });

  it('refuses parts that name pieces that are not there', () => {
    expect(() => treeText({ parts: [[3, 'https://x.test/']], pieces: [] })).toThrow(/names pieces that are not there \(\[3,/);
    for (const part of [{}, 7, null, ['__proto__', 'u'], [0, 5]]) {
      expect(() => treeText({ parts: [part as never], pieces: [['a', 'b']] })).toThrow(/names pieces that are not there/);
    }
  });
});
