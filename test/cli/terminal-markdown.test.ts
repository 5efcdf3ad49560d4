/**
 * The terminal renderer reads a page as data: inline Markdown in one pass (a code
 * span is never read as a link), every piece of text sanitized, the styling added
 * after and never escaped itself.
 */
import { describe, expect, it } from 'vitest';
import { inlineMarkdown, renderMarkdownForTerminal } from '../../src/cli/terminal-markdown.js';
import { styler } from '../../src/output/styled.js';

const ESC = '\x1b';

describe('inline Markdown on a terminal', () => {
  it('renders inline code followed by a link as both', async () => {
    const s = await styler(true);
    expect(inlineMarkdown('with `code` and a [link](https://example.com/a "t").', s).text).toBe(
      `with ${ESC}[36mcode${ESC}[39m and a ${ESC}[4mlink${ESC}[24m (https://example.com/a).`,
    );
  });

  it('never reads a code span as a link or emphasis, and keeps code inside a link label', async () => {
    const s = await styler(false);
    expect(inlineMarkdown('`[x](y)` and `**a**`', s).text).toBe('[x](y) and **a**');
    expect(inlineMarkdown('see [the `cli` docs](https://x.test) **now** and *soon*', s).text).toBe('see the cli docs (https://x.test) now and soon');
    expect(inlineMarkdown('an ![logo](https://x.test/l.png) here', s).text).toBe('an [image: logo] here');
  });

  it('shows escape sequences and bidirectional overrides of the page as text, with colour on', async () => {
    const s = await styler(true);
    const out = renderMarkdownForTerminal(`# T${ESC}]0;x\x07\n\nA \`${ESC}[31m\` b \u202e c\n\n\`\`\`\n${ESC}[2J\n\`\`\`\n`, s);
    expect(out).toContain('T^[]0;x^G');
    expect(out).toContain(`A ${ESC}[36m^[[31m${ESC}[39m b \\u202e c`);
    expect(out).toContain(`${ESC}[32m^[[2J${ESC}[39m`);
    expect(out.replace(/\x1b\[\d+m/g, '')).not.toContain(ESC);
  });
});
