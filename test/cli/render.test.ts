import { describe, expect, it } from 'vitest';
import { columns } from '../../src/output/columns.js';
import { type OutputFormat, renderList, renderObject } from '../../src/output/render.js';

const spaces = [
  { id: 's1', title: 'Handbook', visibility: 'private', editMode: 'live' },
  { id: 's2', title: 'Tabs\tand\nlines', visibility: 'in-collection', parent: 'c1' },
];
const options = (format: OutputFormat, width?: number) => ({ format, columns: columns.space, color: false, width });

describe('output formats', () => {
  it('prints TSV rows without a header, tabs and newlines flattened', async () => {
    expect(await renderList(spaces, options('tsv'))).toBe('s1\tHandbook\tprivate\t\tlive\t\t\ns2\tTabs and lines\tin-collection\tc1\t\t\t\n');
  });

  it('prints JSON arrays of the full objects', async () => {
    expect(JSON.parse(await renderList(spaces, options('json')))).toEqual(spaces);
  });

  it('prints one id per line', async () => {
    expect(await renderList(spaces, options('ids'))).toBe('s1\ns2\n');
  });

  it('prints YAML', async () => {
    expect(await renderObject(spaces[0], options('yaml'))).toBe('id: s1\ntitle: Handbook\nvisibility: private\neditMode: live\n');
  });

  it('prints a table with headers, dropping wide columns on a narrow terminal', async () => {
    const wide = await renderList(spaces, options('table', 160));
    expect(wide.split('\n')[0]).toMatch(/^ID\s+TITLE\s+VISIBILITY\s+PARENT\s+EDIT MODE\s+UPDATED\s+DELETED$/);
    const narrow = await renderList(spaces, options('table', 80));
    expect(narrow.split('\n')[0]).toMatch(/^ID\s+TITLE\s+VISIBILITY\s+PARENT$/);
    expect(narrow).toContain('Handbook');
  });

  it('prints nothing for an empty table', async () => {
    expect(await renderList([], options('table', 120))).toBe('');
  });

  it('prints one object as field lines on a terminal', async () => {
    const text = await renderObject(spaces[0], options('table', 120));
    expect(text).toMatch(/^ID\s+s1$/m);
    expect(text).toMatch(/^TITLE\s+Handbook$/m);
  });
});
