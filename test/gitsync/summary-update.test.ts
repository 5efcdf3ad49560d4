/**
 * SUMMARY.md written as an edit of the file it replaces (summary-update.ts): the
 * lines of unchanged items stay byte for byte, new lines take the file's style, and
 * a layout the edit cannot express is written whole in GitBook's style.
 */
import { describe, expect, it } from 'vitest';
import { type SummaryEntry, type SummaryItem, parseSummary, writeSummary } from '../../src/gitsync/summary.js';
import { updateSummary } from '../../src/gitsync/summary-update.js';

const link = (title: string, href: string, children: SummaryItem[] = [], linkTitle?: string): SummaryItem => ({
  kind: 'link',
  title,
  href,
  line: 0,
  children,
  ...(linkTitle !== undefined ? { linkTitle } : {}),
});
const group = (title: string, slug: string, children: SummaryItem[]): SummaryEntry => ({ kind: 'group', title, slug, line: 0, children });

/** A hand-written file: `-` bullets, 4-space indents, escapes, a link title, a folder link, a comment, CRLF. */
const HAND_WRITTEN = [
  '# Summary',
  '',
  '<!-- keep this list short -->',
  '- [Home](README.md)',
  '- [Install \\[beta\\]](install.md "Installing")',
  '    - [On Linux](install/linux.md)',
  '- [Guides](guides/)',
  '',
  '## Reference <a id="ref"></a>',
  '',
  '- [API](ref/api.md)',
  '',
].join('\r\n');

/** The entries of the hand-written file, as the exporter builds them (plain titles, paths relative to the root). */
function entries(): SummaryEntry[] {
  return [
    link('Home', 'README.md'),
    link('Install [beta]', 'install.md', [link('On Linux', 'install/linux.md')], 'Installing'),
    link('Guides', 'guides/README.md'),
    group('Reference', 'ref', [link('API', 'ref/api.md')]),
  ];
}

describe('updateSummary', () => {
  it('keeps the file as it is when nothing changed, whatever its style', () => {
    expect(updateSummary(HAND_WRITTEN, entries())).toBe(HAND_WRITTEN);
  });

  it('adds a page as one new line in the file style (bullet, indentation, line ending) and keeps every other line', () => {
    const wanted = entries();
    (wanted[1] as SummaryItem).children.push(link('On macOS', 'install/macos.md'));
    const out = updateSummary(HAND_WRITTEN, wanted);
    expect(out).toBe(HAND_WRITTEN.replace('    - [On Linux](install/linux.md)\r\n', '    - [On Linux](install/linux.md)\r\n    - [On macOS](install/macos.md)\r\n'));
  });

  it('replaces only the line of a renamed page', () => {
    const wanted = entries();
    (wanted[0] as SummaryItem & { title: string }).title = 'Welcome';
    expect(updateSummary(HAND_WRITTEN, wanted)).toBe(HAND_WRITTEN.replace('- [Home](README.md)', '- [Welcome](README.md)'));
  });

  it('removes the lines of a removed page and of its children, and the blank lines they leave', () => {
    const wanted = entries().filter((entry) => entry.kind !== 'group');
    const out = updateSummary(HAND_WRITTEN, wanted);
    expect(out).toBe(['# Summary', '', '<!-- keep this list short -->', '- [Home](README.md)', '- [Install \\[beta\\]](install.md "Installing")', '    - [On Linux](install/linux.md)', '- [Guides](guides/)', ''].join('\r\n'));
  });

  it('adds a group after the last one, apart from the list as GitBook writes it', () => {
    const base = writeSummary([link('Home', 'README.md'), group('Guides', 'guides', [link('One', 'guides/one.md')])]);
    const wanted = [link('Home', 'README.md'), group('Guides', 'guides', [link('One', 'guides/one.md')]), group('API', 'api', [link('Two', 'api/two.md')])];
    expect(updateSummary(base, wanted)).toBe(`${base}\n## API\n\n* [Two](api/two.md)\n`);
    expect(updateSummary(base, wanted)).toBe(writeSummary(wanted));
  });

  it('writes the whole file in GitBook style when the edit cannot express the layout', () => {
    // A root page after the groups needs a *** the base does not have.
    const base = writeSummary([link('Home', 'README.md'), group('Guides', 'guides', [link('One', 'guides/one.md')])]);
    const wanted = [link('Home', 'README.md'), group('Guides', 'guides', [link('One', 'guides/one.md')]), link('After', 'after.md')];
    const out = updateSummary(base, wanted);
    expect(out).toBe(writeSummary(wanted));
    expect(parseSummary(out).entries.at(-1)).toMatchObject({ kind: 'link', title: 'After' });
  });

  it('keeps a computed block whole, and writes GitBook style without a base', () => {
    const base = ['# Table of contents', '', '* [Home](README.md)', '* ```yaml', '  type: builtin:openapi', '  ```', '* [Old](old.md)', ''].join('\n');
    const computed: SummaryItem = { kind: 'computed', yaml: 'type: builtin:openapi\n', info: 'yaml', line: 0, children: [] };
    expect(updateSummary(base, [link('Home', 'README.md'), computed])).toBe(base.replace('* [Old](old.md)\n', ''));
    expect(updateSummary(undefined, [link('Home', 'README.md')])).toBe(writeSummary([link('Home', 'README.md')]));
  });
});
