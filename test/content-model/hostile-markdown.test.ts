/**
 * Every reader of a page is linear in it, whatever its shape (issue 19 §6).
 * Each shape below once cost quadratic time or a stack overflow: `](` repeated
 * (each closing bracket walked back over the whole paragraph: a 1 MiB page took
 * minutes), `[](` repeated (each destination scanned to the end), backtick runs
 * of distinct lengths (each searched to the paragraph's end), a line of `[`
 * (the reference-definition pattern overflowed the regular expression's stack),
 * unclosed link titles, and millions of lines (an object per line at once).
 * Each must finish well within the test's timeout at several MiB, and give the
 * answers the simple definitions give on small inputs. Merges too: a region of
 * a few hundred thousand lines (or siblings) once overflowed the stack, and a
 * line merge of millions of lines cost a minute and gigabytes.
 */
import { describe, expect, it } from 'vitest';
import { merge3 } from '../../src/content-model/diff3.js';
import { extractLinks, scanLinks } from '../../src/content-model/links.js';
import type { ContentTree } from '../../src/content-model/model.js';
import { mergeTrees } from '../../src/content-model/tree-merge.js';
import { MAX_MERGE_LINES } from '../../src/content-model/tree-merge-pages.js';
import { eachLine, maskCode, splitLeadingHeading } from '../../src/content-model/markdown.js';
import { MAX_DOCUMENT_NODES, markdownToDocument } from '../../src/domain/content/views.js';
import { pagePostings, tokenize } from '../../src/domain/search/index.js';
import { importRepository } from '../../src/gitsync/import.js';
import { MAX_WARNINGS } from '../../src/gitsync/warnings.js';

const MIB = 1024 * 1024;
const repeat = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

const SHAPES: Record<string, string> = {
  'closing brackets': repeat('](', 4 * MIB),
  'empty links': repeat('[](', 4 * MIB),
  'unclosed titles': repeat('[a](b "', 4 * MIB),
  'backtick runs of every length': Array.from({ length: 2800 }, (_, i) => '`'.repeat(i + 1)).join(' '),
  'a line of brackets': repeat('[', 8 * MIB),
  'blank lines': repeat('\n', 8 * MIB),
  'tiny blocks': repeat('a\n\n', 8 * MIB),
  'one-line code blocks': repeat('```\n```\n', 4 * MIB),
  'an unclosed fence': `\`\`\`\n${repeat('x\n', 4 * MIB)}`,
  'html attributes': repeat('<a href="x.png">', 4 * MIB),
};

function importPage(markdown: string) {
  let n = 0;
  const snapshot = new Map([['page.md', { path: 'page.md', data: new TextEncoder().encode(markdown) }]]);
  return importRepository(snapshot, { ids: () => `id${n++}` });
}

describe('hostile Markdown costs time in proportion to its size', { timeout: 60_000 }, () => {
  it.each(Object.keys(SHAPES))('imports a page of %s', (shape) => {
    const result = importPage(SHAPES[shape] as string);
    expect(result.stats.pages).toBe(1);
    expect(result.warnings.length).toBeLessThanOrEqual(MAX_WARNINGS + 1);
  });

  it.each(Object.keys(SHAPES))('reads the links, words and document of a page of %s', (shape) => {
    const text = SHAPES[shape] as string;
    let links = 0;
    scanLinks(text, () => {
      links += 1;
    });
    expect(links).toBeGreaterThanOrEqual(0);
    expect(pagePostings('Title', text).size).toBeLessThanOrEqual(400);
    markdownToDocument(text);
  });
});

describe('the linear readers give the simple answers', () => {
  it('matches brackets as looking back from each `](` does, across lines but not a blank line', () => {
    expect(extractLinks('[a [b](x.md) c](y.md)').map((l) => l.target)).toEqual(['x.md', 'y.md']);
    expect(extractLinks('[a\nb](x.md)').map((l) => [l.target, l.line])).toEqual([['x.md', 2]]);
    expect(extractLinks('[a\n\nb](x.md)')).toEqual([]);
    expect(extractLinks('\\[a](x.md) [b\\](y.md) [c](z.md)').map((l) => l.target)).toEqual(['z.md']);
    expect(extractLinks('] [a](x.md)').map((l) => l.target)).toEqual(['x.md']);
  });

  it('escapes a `[` outside brackets by an odd run of backslashes only, as pairing each backslash with the next character does', () => {
    expect(extractLinks('\\\\[a](x.md)').map((l) => l.target)).toEqual(['x.md']);
    expect(extractLinks('\\\\\\[a](x.md) [b](y.md)').map((l) => l.target)).toEqual(['y.md']);
    expect(extractLinks('a\\\n[b](x.md)').map((l) => l.target)).toEqual(['x.md']);
    expect(extractLinks('[a](x.md)\\[b](y.md)').map((l) => l.target)).toEqual(['x.md']);
  });

  it('finds reference definitions, autolinks, Liquid blocks and HTML only in a text holding what each needs', () => {
    expect(extractLinks('[r] : a.md\n<b>no</b>\n{% embed %}').map((l) => l.target)).toEqual([]);
    expect(extractLinks('[r]: a.md\n{% file src="f.pdf" %}\n{% embed url="https://e.example" %}').map((l) => [l.target, l.via])).toEqual([
      ['a.md', 'link'],
      ['f.pdf', 'embed'],
      ['https://e.example', 'embed'],
    ]);
  });

  it('gives up on a destination past 32 nested parentheses, and finds a title closed further on', () => {
    expect(extractLinks(`[a](${'('.repeat(33)}x${')'.repeat(33)})`)).toEqual([]);
    expect(extractLinks(`[a](${'('.repeat(32)}x${')'.repeat(32)})`).map((l) => l.target)).toEqual([`${'('.repeat(32)}x${')'.repeat(32)}`]);
    expect(extractLinks('[a](x "t") [b](y "u")').map((l) => l.target)).toEqual(['x', 'y']);
    // The first title ends at the next quote, not followed by `)`: not a link; the second one is.
    expect(extractLinks('[a](x "t [b](y "u")').map((l) => l.target)).toEqual(['y']);
  });

  it('numbers the lines of links found by different rules in text order', () => {
    const links = extractLinks('<img src="a.png">\n[r]: b.md\n[c](c.md) <https://d.example>\n');
    expect(links.map((l) => [l.target, l.line, l.via])).toEqual([
      ['a.png', 1, 'html'],
      ['b.md', 2, 'link'],
      ['c.md', 3, 'link'],
      ['https://d.example', 3, 'link'],
    ]);
  });

  it('masks code spans whose backtick runs recur, and leaves an unmatched run alone', () => {
    expect(maskCode('a ``` b ` c ` d ```')).toBe('a                  ');
    expect(maskCode('`` x ` y')).toBe('`` x ` y');
    expect(maskCode('\\`a` `b`')).toBe('\\`a   b`');
    // Runs of code keep their line breaks (CRLF too) and offsets, in ASCII and in UTF-16 text.
    expect(maskCode('x ``a\r\nb`` y `c` z')).toBe('x    \r\n    y     z');
    expect(maskCode('é `ü\nö` z\n```\n💥\n```\nñ')).toBe('é   \n   z\n   \n  \n   \nñ');
  });

  it('reads lines one at a time, CRLF and a last line without a break included', () => {
    expect([...eachLine('a\r\nb\n\nc')].map((l) => [l.text, l.number])).toEqual([
      ['a', 1],
      ['b', 2],
      ['', 3],
      ['c', 4],
    ]);
    expect(splitLeadingHeading(`${repeat('\n', MIB)}# Title\n\nBody`)).toMatchObject({ text: 'Title', rest: 'Body' });
  });

  const simple = (text: string) =>
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 2 && w.length <= 40 && !['the', 'and', 'of'].includes(w));

  it('splits words across its 64 KiB pieces as one split of the whole text does', () => {
    const text = repeat('ΟΔΟΣ́.éthe Straße ﬁne word-words 漢字 𝐀𝐁 ', 300_000) + ` ${'x'.repeat(70_000)} tail`;
    expect(tokenize(text)).toEqual(simple(text));
  });

  it('finds the same words in pieces of plain ASCII (read without normalizing) as in the others', () => {
    // Pieces of ASCII only, beside pieces with a letter that lower case makes ASCII (the Kelvin sign: k) or not.
    const ascii = repeat('Install_the SERVER2 over node-7, later run `docsctl init`; (x) A1b2 ~ok~ ', 200_000);
    const text = `${ascii}\n${repeat('\u212Aelvin Café RÉSUMÉ plain words ', 100_000)}\n${ascii}\n${repeat('\u212Aelvin ONLY ', 80_000)}`;
    const words = tokenize(text);
    expect(words).toEqual(simple(text));
    expect(words.slice(0, 9)).toEqual(['install', 'server2', 'over', 'node', 'later', 'run', 'docsctl', 'init', 'a1b2']);
    expect(words).toContain('kelvin');
    expect(words).toContain('resume');
  });

  it('keeps the counts of a page of a million distinct words bounded, and its title words', () => {
    const words = Array.from({ length: 1_000_000 }, (_, i) => `w${i.toString(36)}`);
    const postings = pagePostings('Unique title', `${words.join(' ')} ${'common '.repeat(50)}`);
    expect(postings.size).toBe(400);
    expect(postings.get('common')).toEqual([50, 0]);
    expect(postings.get('unique')).toEqual([0, 1]);
  });

  it('answers a document up to MAX_DOCUMENT_NODES nodes, and undefined beyond', () => {
    expect(markdownToDocument(repeat('a\n\n', 3 * MAX_DOCUMENT_NODES))?.nodes).toHaveLength(MAX_DOCUMENT_NODES);
    expect(markdownToDocument(repeat('a\n\n', 3 * MAX_DOCUMENT_NODES + 3))).toBeUndefined();
    expect(markdownToDocument(`\`\`\`\n${repeat('x\n', 2 * MAX_DOCUMENT_NODES)}\`\`\`\n`)).toBeUndefined();
  });

  it('keeps the first warnings of an import and counts the others', () => {
    const result = importPage(repeat('![i](missing.png)\n', 1000 * 18));
    expect(result.warnings).toHaveLength(MAX_WARNINGS + 1);
    expect(result.warnings[0]).toBe('page.md: line 1: file "missing.png" not found');
    expect(result.warnings[MAX_WARNINGS - 1]).toBe(`page.md: line ${MAX_WARNINGS}: file "missing.png" not found`);
    expect(result.warnings[MAX_WARNINGS]).toBe('… and 900 more warnings');
  });
});

describe('merges of huge pages and lists stay bounded', { timeout: 60_000 }, () => {
  const lines = (n: number, tag = '') => Array.from({ length: n }, (_, i) => `line ${i}${tag}\n`).join('');

  it('merges edits of a 300,000-line text line by line (a region was once spread as arguments: stack overflow)', () => {
    const base = lines(300_000);
    const ours = `first\n${base}`;
    const theirs = `${base}last\n`;
    expect(merge3(base, ours, theirs)).toEqual({ clean: true, text: `first\n${base}last\n` });
  });

  it('makes a page both sides changed beyond MAX_MERGE_LINES lines one conflict, without diffing it', () => {
    const page = (markdown: string): ContentTree => ({ pages: [{ id: 'p', type: 'document', title: 'P', slug: 'p', markdown, pages: [] }], files: [] });
    const base = lines(MAX_MERGE_LINES + 1);
    const started = performance.now();
    const result = mergeTrees(page(base), page(`a\n${base}`), page(`${base}b\n`));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.clean).toBe(false);
    expect(result.clean ? [] : result.conflicts.map((c) => [c.kind, c.reason])).toEqual([
      ['content', `body changed in both ours and theirs, and too long to merge line by line (${MAX_MERGE_LINES + 2} lines, more than ${MAX_MERGE_LINES})`],
    ]);
  });
});
