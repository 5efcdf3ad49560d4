import { describe, expect, it } from 'vitest';
import { classifyTarget, extractLinks, resolveRelative } from '../../src/content-model/links.js';

describe('extractLinks', () => {
  const markdown = [
    'A [link](page.md) and ![img](<.gitbook/assets/image (8).png>) and [anchor](#x).',
    '[ext](https://example.com/a_(b)) [app](https://app.gitbook.com/s/abc/page) [file](files/report.pdf "Report")',
    '`[code](not-a-link.md)` and ``[also `x`](code.md)``',
    '```js',
    '[fenced](nope.md) {% content-ref url="nope.md" %} <img src="nope.png">',
    '```',
    '{% content-ref url="guide/" %}',
    '[guide](guide/)',
    '{% endcontent-ref %}',
    '{% embed url="https://youtu.be/x" %}',
    '<img src=".gitbook/assets/CleanShot 2023.gif" alt=""> <a href="other.md">x</a>',
    '[![badge](badge.svg)](https://ci.example.com)',
    '[ref]: refs/target.md "Title"',
    '<https://auto.example.com>',
    '[escaped \\](not.md) and \\[not](either.md)',
    '{% file src="../.gitbook/assets/guide.pdf" %}',
    '~~~',
    '[tilde fence](nope.md)',
    '~~~',
    '{% hint style="info" %} unbalanced [inside](hint.md)',
  ].join('\n');

  it('finds every kind of link, with lines and offsets, skipping code', () => {
    const links = extractLinks(markdown);
    expect(links.map(({ target, kind, via, line }) => [target, kind, via, line])).toEqual([
      ['page.md', 'relative', 'link', 1],
      ['.gitbook/assets/image (8).png', 'file', 'image', 1],
      ['#x', 'anchor', 'link', 1],
      ['https://example.com/a_(b)', 'url', 'link', 2],
      ['https://app.gitbook.com/s/abc/page', 'app', 'link', 2],
      ['files/report.pdf', 'file', 'link', 2],
      ['guide/', 'relative', 'content-ref', 7],
      ['guide/', 'relative', 'link', 8],
      ['https://youtu.be/x', 'url', 'embed', 10],
      ['.gitbook/assets/CleanShot 2023.gif', 'file', 'html', 11],
      ['other.md', 'relative', 'html', 11],
      ['badge.svg', 'file', 'image', 12],
      ['https://ci.example.com', 'url', 'link', 12],
      ['refs/target.md', 'relative', 'link', 13],
      ['https://auto.example.com', 'url', 'link', 14],
      // `[escaped \](not.md) and \[not]` is one link text (escaped brackets are literal), as in CommonMark.
      ['either.md', 'relative', 'link', 15],
      ['../.gitbook/assets/guide.pdf', 'file', 'embed', 16],
      ['hint.md', 'relative', 'link', 20],
    ]);
    for (const link of links) expect(markdown.slice(link.start, link.end)).toBe(link.raw);
    expect(links[1]?.raw).toBe('<.gitbook/assets/image (8).png>');
  });

  it('reads escaped destinations and CRLF documents', () => {
    const links = extractLinks('[a](x\\(1\\).md)\r\n\r\n![b](y%20z.png)\r\n');
    expect(links.map((l) => [l.target, l.line])).toEqual([
      ['x(1).md', 1],
      ['y%20z.png', 3],
    ]);
  });

  it('classifies targets', () => {
    expect(classifyTarget('mailto:a@b.c')).toBe('url');
    expect(classifyTarget('//cdn.example.com/x.png')).toBe('url');
    expect(classifyTarget('broken-reference')).toBe('relative');
    expect(classifyTarget('dir/')).toBe('relative');
    expect(classifyTarget('a.MD#x')).toBe('relative');
    expect(classifyTarget('a.png?raw=1')).toBe('file');
  });
});

describe('resolveRelative', () => {
  it('joins, strips anchors, decodes, refuses escapes', () => {
    expect(resolveRelative('a/b/c.md', '../d.md')).toBe('a/d.md');
    expect(resolveRelative('a/b.md', './x%20y.png#frag')).toBe('a/x y.png');
    expect(resolveRelative('a.md', '../x.md')).toBeNull();
    expect(resolveRelative('a/b.md', '/root.md')).toBe('root.md');
    expect(resolveRelative('a/b.md', 'sub/')).toBe('a/sub/');
    expect(resolveRelative('a/b.md', '#x')).toBe('a/b.md');
    expect(resolveRelative('a.md', 'https://example.com')).toBeNull();
    expect(resolveRelative('a/b.md', 'x.md?raw=1')).toBe('a/x.md');
  });
});
