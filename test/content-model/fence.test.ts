/**
 * One set of code-fence rules (src/content-model/markdown.ts) for every Markdown reader:
 * the masking scanner, the PDF block parser, SUMMARY.md's computed items and the
 * terminal renderer. The edge cases: ``` vs ~~~, a longer closing fence, info
 * after a closing run, indented fences, an unclosed fence.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdownForTerminal } from '../../src/cli/terminal-markdown.js';
import { closesFence, fenceContentLine, findFencedBlocks, openingFence } from '../../src/content-model/markdown.js';
import { parseBlocks } from '../../src/content-model/pdf/blocks.js';
import { parseSummary } from '../../src/gitsync/summary.js';
import { styler } from '../../src/output/styled.js';

const codeBlocks = (markdown: string) =>
  parseBlocks(markdown.split('\n'))
    .filter((block) => block.kind === 'code')
    .map((block) => (block as { lines: string[] }).lines);

describe('openingFence / closesFence', () => {
  it('opens with three or more backticks or tildes, and reads the info string', () => {
    expect(openingFence('```yaml')).toEqual({ indent: 0, marker: '```', info: 'yaml' });
    expect(openingFence('~~~~ js title="a.js" ')).toEqual({ indent: 0, marker: '~~~~', info: 'js title="a.js"' });
    expect(openingFence('``')).toBeUndefined();
    expect(openingFence('``` a`b')).toBeUndefined(); // a code span, not a fence
    expect(openingFence('~~~ a`b')?.info).toBe('a`b');
  });

  it('takes any indentation unless the caller limits it', () => {
    expect(openingFence('      ```')?.indent).toBe(6);
    expect(openingFence('   ```', 3)?.indent).toBe(3);
    expect(openingFence('    ```', 3)).toBeUndefined();
  });

  it('closes only with the same character, at least as long, and nothing after it', () => {
    const backticks = openingFence('```') as NonNullable<ReturnType<typeof openingFence>>;
    expect(closesFence('~~~', backticks)).toBe(false);
    expect(closesFence('`````', backticks)).toBe(true);
    expect(closesFence('```  ', backticks)).toBe(true);
    expect(closesFence('``` js', backticks)).toBe(false);
    const long = openingFence('````') as NonNullable<ReturnType<typeof openingFence>>;
    expect(closesFence('```', long)).toBe(false);
  });

  it('closes indented at most three more than the opening, and strips the opening indentation from content', () => {
    const nested = openingFence('  ```') as NonNullable<ReturnType<typeof openingFence>>;
    expect(closesFence('     ```', nested)).toBe(true);
    expect(closesFence('      ```', nested)).toBe(false);
    expect(fenceContentLine('    code', nested)).toBe('  code');
    expect(fenceContentLine(' x', nested)).toBe('x');
  });
});

describe('findFencedBlocks', () => {
  it('keeps a shorter or other-character fence inside as content, and runs an unclosed fence to the end', () => {
    const text = '````md\n```\n~~~\n````\ntext\n~~~\nopen';
    const blocks = findFencedBlocks(text);
    expect(blocks.map((b) => [text.slice(b.contentStart, b.contentEnd), b.closed])).toEqual([
      ['```\n~~~\n', true],
      ['open', false],
    ]);
  });
});

describe('the PDF block parser', () => {
  it('reads ``` and ~~~ blocks, a longer closing fence, and keeps other fences inside as code', () => {
    expect(codeBlocks('~~~\n```\nx\n```\n~~~~~\nafter')).toEqual([['```', 'x', '```']]);
    expect(codeBlocks('````\n```\n`````\ntext')).toEqual([['```']]);
  });

  it('dedents an indented fence by its indentation; four spaces is indented code, not a fence', () => {
    expect(codeBlocks('  ```\n    two\n  one\n  ```')).toEqual([['  two', 'one']]);
    expect(codeBlocks('para\n\n    ```\n    x')).toEqual([['```', 'x']]);
  });

  it('runs an unclosed fence to the end', () => {
    expect(codeBlocks('```\na\n\nb')).toEqual([['a', '', 'b']]);
  });

  it('does not split liquid tags inside fences, in quotes too', () => {
    const blocks = parseBlocks(['> ```', '> a {% hint %}', '> ```']);
    expect(JSON.stringify(blocks)).toContain('a {% hint %}');
  });
});

describe('SUMMARY.md computed items', () => {
  it('reads a ~~~ item holding ```, closed by a longer fence, dedented to the item', () => {
    const parsed = parseSummary('# Table of contents\n\n* ~~~yaml\n  type: x\n  doc: |\n    ```\n  ~~~~\n* [A](a.md)\n');
    expect(parsed.warnings).toEqual([]);
    expect(parsed.entries[0]).toMatchObject({ kind: 'computed', info: 'yaml', yaml: 'type: x\ndoc: |\n  ```\n' });
    expect(parsed.entries[1]).toMatchObject({ kind: 'link', href: 'a.md' });
  });

  it('keeps a run of backticks indented deeper than the item as YAML, not as the end of the item', () => {
    const parsed = parseSummary('# Table of contents\n\n* ```yaml\n  doc: |\n        ```\n  ```\n');
    expect(parsed.warnings).toEqual([]);
    expect(parsed.entries[0]).toMatchObject({ kind: 'computed', yaml: 'doc: |\n      ```\n' });
  });

  it('warns about an unclosed fence and keeps what it read', () => {
    const parsed = parseSummary('# Table of contents\n\n* ```yaml\n  type: x\n');
    expect(parsed.entries[0]).toMatchObject({ kind: 'computed', yaml: 'type: x\n' });
    expect(parsed.warnings).toEqual(['SUMMARY.md: line 3: unclosed code fence']);
  });
});

describe('the terminal renderer', () => {
  it('keeps a ~~~ line inside a ``` block as code, and ends the block at its closing fence', async () => {
    const out = renderMarkdownForTerminal('```sh title="x"\n~~~\n```\n# After', await styler(false));
    expect(out).toContain('── sh ──');
    expect(out).toContain('    ~~~');
    expect(out).toContain('After');
    expect(out).not.toContain('    # After');
  });

  it('does not end a block at a fence line with an info string', async () => {
    const out = renderMarkdownForTerminal('```\n```js\n```\n# After', await styler(false));
    expect(out).toContain('    ```js');
    expect(out).not.toContain('    # After');
  });
});
