/**
 * `format=document` bodies (markdownToDocument) find fenced code with the fence
 * scanner the content modules use (findFencedBlocks), so a page's code blocks
 * are the same whichever view reads them.
 */
import { describe, expect, it } from 'vitest';
import { findFencedBlocks } from '../../../src/content-model/markdown.js';
import { markdownToDocument } from '../../../src/domain/content/views.js';

type Node = { type: string; data?: { syntax?: string }; nodes?: Array<{ nodes?: Array<{ leaves?: Array<{ text: string }> }>; leaves?: Array<{ text: string }> }> };

function blocks(markdown: string): Array<{ type: string; syntax?: string; text: string }> {
  return ((markdownToDocument(markdown)?.nodes ?? []) as unknown as Node[]).map((node) => ({
    type: node.type,
    ...(node.data?.syntax ? { syntax: node.data.syntax } : {}),
    text:
      node.type === 'code'
        ? (node.nodes ?? []).map((line) => line.nodes?.[0]?.leaves?.[0]?.text ?? '').join('\n')
        : (node.nodes?.[0]?.leaves?.[0]?.text ?? ''),
  }));
}

describe('markdownToDocument: fenced code', () => {
  it('turns headings, code (with its syntax), dividers and paragraphs into blocks', () => {
    expect(blocks('# Title\n\nSome text\nmore\n\n```js title="a.js"\nconst a = 1;\n\n  indented\n```\n\n---\n## Next\n')).toEqual([
      { type: 'heading-1', text: 'Title' },
      { type: 'paragraph', text: 'Some text\nmore' },
      { type: 'code', syntax: 'js', text: 'const a = 1;\n\n  indented' },
      { type: 'divider', text: '' },
      { type: 'heading-2', text: 'Next' },
    ]);
  });

  it('a fence closes only on the same character, at least as long, with nothing after it', () => {
    const markdown = '````md\n```js\n# not a heading\n```\n~~~\n````\nafter\n';
    expect(blocks(markdown)).toEqual([
      { type: 'code', syntax: 'md', text: '```js\n# not a heading\n```\n~~~' },
      { type: 'paragraph', text: 'after' },
    ]);
    // A line with an info string never closes a fence (it used to end this block at "```js").
    expect(blocks('```\n```js\nx\n```\n')).toEqual([{ type: 'code', text: '```js\nx' }]);
  });

  it('an unclosed fence runs to the end; CRLF is read as LF; an empty block has one empty line', () => {
    expect(blocks('text\r\n~~~\r\ncode\r\n# still code\r\n')).toEqual([
      { type: 'paragraph', text: 'text' },
      { type: 'code', text: 'code\n# still code' },
    ]);
    expect(blocks('```\n```\n')).toEqual([{ type: 'code', text: '' }]);
  });

  it.each([
    'a\n```\nx\n```\nb\n```py\ny\n```\n',
    '````\n```\n````\n',
    '- item\n\n  ```sh\n  npm test\n  ```\n',
    '```\nunclosed\n',
    '``` `inline` not a fence\ntext\n',
  ])('finds the same code blocks as findFencedBlocks in %j', (markdown) => {
    const expected = findFencedBlocks(markdown).map((block) => ({
      type: 'code',
      ...(block.info.split(/\s/)[0] ? { syntax: block.info.split(/\s/)[0] } : {}),
      text: markdown.slice(block.contentStart, block.contentEnd).replace(/\n$/, ''),
    }));
    expect(blocks(markdown).filter((block) => block.type === 'code')).toEqual(expected);
  });
});
