import { describe, expect, it } from 'vitest';
import { parseSummary, writeSummary, type SummaryEntry } from '../../src/gitsync/summary.js';

const strip = (entries: SummaryEntry[]): unknown =>
  entries.map((entry) => {
    const { line: _line, ...rest } = entry;
    return { ...rest, children: strip(entry.children as SummaryEntry[]) };
  });

describe('parseSummary', () => {
  it('reads nesting from list offsets, whatever the bullets and indentation', () => {
    const text = [
      '# Summary',
      '',
      '- [A](a.md)',
      '    - [B](b.md)',
      '',
      '        + [C](c.md)',
      '\t- [D](d.md)',
      '1. [E](e.md)',
      '   1. [F](f.md)',
      ' * [G](g.md)',
    ].join('\r\n');
    const { entries, warnings } = parseSummary(text);
    expect(warnings).toEqual([]);
    expect(strip(entries)).toEqual([
      {
        kind: 'link',
        title: 'A',
        href: 'a.md',
        children: [
          { kind: 'link', title: 'B', href: 'b.md', children: [{ kind: 'link', title: 'C', href: 'c.md', children: [] }] },
          { kind: 'link', title: 'D', href: 'd.md', children: [] },
        ],
      },
      { kind: 'link', title: 'E', href: 'e.md', children: [{ kind: 'link', title: 'F', href: 'f.md', children: [] }] },
      { kind: 'link', title: 'G', href: 'g.md', children: [] },
    ]);
  });

  it('reads groups, anchors (both styles), *** and titles', () => {
    const text = [
      '# Table of contents',
      '* [Home](README.md)',
      '## Get Started <a href="#getting-started" id="getting-started"></a>',
      '* [FAQ \\[updated for 2026\\]](faq.md "Frequently \\"asked\\"")',
      '* [`when()` and \\(x\\)](<path with spaces (1).md>)',
      '## Old style <a id="legacy"></a>',
      '## C\\# & more',
      '***',
      '* [After](after.md#part)',
      '### Ignored',
      '* Not a link',
      '  * [Hoisted](hoisted.md)',
    ].join('\n');
    const { entries, warnings } = parseSummary(text);
    expect(strip(entries)).toEqual([
      { kind: 'link', title: 'Home', href: 'README.md', children: [] },
      {
        kind: 'group',
        title: 'Get Started',
        slug: 'getting-started',
        children: [
          { kind: 'link', title: 'FAQ [updated for 2026]', href: 'faq.md', linkTitle: 'Frequently "asked"', children: [] },
          { kind: 'link', title: 'when() and (x)', href: 'path with spaces (1).md', children: [] },
        ],
      },
      { kind: 'group', title: 'Old style', slug: 'legacy', children: [] },
      { kind: 'group', title: 'C# & more', slug: 'c-and-more', children: [] },
      { kind: 'link', title: 'After', href: 'after.md#part', children: [] },
      { kind: 'link', title: 'Hoisted', href: 'hoisted.md', children: [] },
    ]);
    expect(warnings).toEqual([
      'SUMMARY.md: line 10: only "##" headings make page groups; "### Ignored" ignored',
      'SUMMARY.md: line 11: item "Not a link" is not a link; ignored',
    ]);
  });

  it('reads computed items (a fenced YAML block)', () => {
    const text = '## API\n\n* ```yaml\n  type: builtin:openapi\n  props: {models: false}\n  ```\n* [Next](next.md)\n';
    const { entries } = parseSummary(text);
    expect(strip(entries)).toEqual([
      {
        kind: 'group',
        title: 'API',
        slug: 'api',
        children: [
          { kind: 'computed', yaml: 'type: builtin:openapi\nprops: {models: false}\n', info: 'yaml', children: [] },
          { kind: 'link', title: 'Next', href: 'next.md', children: [] },
        ],
      },
    ]);
  });
});

describe('writeSummary', () => {
  it('writes GitBook style and reads back the same entries', () => {
    const entries: SummaryEntry[] = [
      { kind: 'link', title: 'Home', href: 'README.md', line: 0, children: [] },
      {
        kind: 'group',
        title: 'Get Started',
        slug: 'getting-started',
        line: 0,
        children: [
          {
            kind: 'link',
            title: 'A [b] *c*',
            href: 'getting-started/a b.md',
            linkTitle: 'Say "hi"',
            line: 0,
            children: [{ kind: 'computed', yaml: 'type: builtin:openapi\n', info: 'yaml', line: 0, children: [] }],
          },
        ],
      },
      { kind: 'group', title: 'Guides', slug: 'guides', line: 0, children: [] },
      { kind: 'link', title: 'After', href: 'https://example.com', line: 0, children: [] },
    ];
    const text = writeSummary(entries);
    expect(text).toBe(
      [
        '# Table of contents',
        '',
        '* [Home](README.md)',
        '',
        '## Get Started <a href="#getting-started" id="getting-started"></a>',
        '',
        '* [A \\[b\\] \\*c\\*](<getting-started/a b.md> "Say \\"hi\\"")',
        '  * ```yaml',
        '    type: builtin:openapi',
        '    ```',
        '',
        '## Guides',
        '',
        '***',
        '',
        '* [After](https://example.com)',
        '',
      ].join('\n'),
    );
    expect(strip(parseSummary(text).entries)).toEqual(strip(entries));
  });
});
