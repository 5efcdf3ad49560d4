import { describe, expect, it } from 'vitest';
import {
  detectEol,
  escapeInline,
  findFencedBlocks,
  firstHeading,
  headingLine,
  inlineToText,
  maskCode,
  replaceLeadingHeading,
  splitLeadingHeading,
} from '../../src/content-model/markdown.js';

describe('markdown helpers', () => {
  it('masks fenced blocks (also unclosed ones) and inline code, keeping offsets', () => {
    const text = 'a `x` b\n```\n{% if %}\n```\nc ``y ` z`` d\n~~~~\nunclosed';
    const masked = maskCode(text);
    expect(masked.length).toBe(text.length);
    expect(masked).toBe('a     b\n   \n        \n   \nc           d\n    \n        ');
    expect(findFencedBlocks(text).map((b) => [b.info, b.closed])).toEqual([
      ['', true],
      ['', false],
    ]);
  });

  it('does not close a backtick span across a blank line', () => {
    expect(maskCode('a `b\n\nc` d')).toBe('a `b\n\nc` d');
  });

  it('finds the first H1 outside code', () => {
    expect(firstHeading('```\n# not\n```\n## two\n# One <a href="#x" id="x"></a>\n')).toMatchObject({ text: 'One', line: 5 });
    expect(firstHeading('no heading')).toBeNull();
  });

  it('splits a leading heading with the blank lines around it', () => {
    expect(splitLeadingHeading('\n# Title #\n\n\nBody\n')).toEqual({ raw: '\n# Title #\n\n\n', text: 'Title', rest: 'Body\n' });
    expect(splitLeadingHeading('# Only')).toEqual({ raw: '# Only', text: 'Only', rest: '' });
    expect(splitLeadingHeading('Title\r\n===\r\n\r\nx')).toEqual({ raw: 'Title\r\n===\r\n\r\n', text: 'Title', rest: 'x' });
    expect(splitLeadingHeading('Intro\n\n# Later\n')).toBeNull();
    expect(splitLeadingHeading('## Two\n')).toBeNull();
    expect(splitLeadingHeading('#NoSpace\n')).toBeNull();
    expect(splitLeadingHeading('# Install `when()` \\[x\\]\n')?.text).toBe('Install when() [x]');
  });

  it('replaces a heading, keeping blank lines and line breaks', () => {
    expect(replaceLeadingHeading('\r\n# Old\r\n\r\n', 'New [1]')).toBe('\r\n# New \\[1\\]\r\n\r\n');
    expect(replaceLeadingHeading('Old\n===\n\n', 'New')).toBe('# New\n\n');
    expect(headingLine('C#')).toBe('# C\\#');
  });

  it('escapes and unescapes inline text symmetrically', () => {
    for (const title of ['a [b] *c* _d_', 'x\\y `z`', 'Q&amp;A & co', '<tag>', 'when()', '~~s~~', 'ok']) {
      expect(inlineToText(escapeInline(title))).toBe(title);
    }
    expect(inlineToText('\\[updated\\] `a_b` &amp; &#x41;')).toBe('[updated] a_b & A');
  });

  it('detects line endings', () => {
    expect(detectEol('a\r\nb')).toBe('\r\n');
    expect(detectEol('a\nb')).toBe('\n');
    expect(detectEol('a')).toBe('\n');
  });
});
