import { describe, expect, it } from 'vitest';
import { columns } from '../../src/output/columns.js';
import { relativeTime } from '../../src/output/relative-time.js';
import { renderList, renderObject } from '../../src/output/render.js';
import { columnName, selectColumns } from '../../src/output/select-columns.js';

const NOW = Date.parse('2026-11-27T15:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('relativeTime', () => {
  it.each([
    [ago(20_000), 'just now'],
    [ago(MINUTE), '1 minute ago'],
    [ago(59 * MINUTE), '59 minutes ago'],
    [ago(3 * HOUR + 10 * MINUTE), '3 hours ago'],
    [ago(DAY), '1 day ago'],
    [ago(29 * DAY), '29 days ago'],
    [ago(45 * DAY), '1 month ago'],
    [ago(400 * DAY), '1 year ago'],
    [ago(-2 * DAY), 'in 2 days'],
    ['2026-11-27T12:00:00Z', '3 hours ago'],
    ['2026-11-27T17:00:00+02:00', 'just now'],
  ])('%s is "%s"', (value, expected) => {
    expect(relativeTime(value, NOW)).toBe(expected);
  });

  it('leaves anything that is not an ISO 8601 date-time as it is', () => {
    for (const value of ['yesterday', '2026-11-27', '1700000000000', '2026-13-45T99:99:00Z', '']) expect(relativeTime(value, NOW)).toBe(value);
  });
});

describe('tables with times', () => {
  const space = { id: 's1', title: 'Handbook', visibility: 'private', editMode: 'live', updatedAt: ago(3 * HOUR), deletedAt: 'not a date' };

  it('show times relative in a table, with the date-time beside it for one object', async () => {
    const table = await renderList([space], { format: 'table', columns: columns.space, color: false, width: undefined, now: NOW });
    expect(table.split('\n')[1]).toMatch(/^s1\s+Handbook\s+private\s+live\s+3 hours ago\s+not a date$/);
    const details = await renderObject(space, { format: 'table', columns: columns.space, color: false, width: undefined, now: NOW });
    expect(details).toContain(`UPDATED     3 hours ago (${space.updatedAt})\n`);
  });

  it('keep ISO 8601 in TSV, JSON and YAML', async () => {
    for (const format of ['tsv', 'json', 'yaml'] as const) {
      const text = await renderList([space], { format, columns: columns.space, color: false, width: undefined, now: NOW });
      expect(text).toContain(space.updatedAt);
      expect(text).not.toContain('ago');
    }
  });
});

describe('selectColumns (--columns)', () => {
  it('names a column by its header in lower case, words joined by "-"', () => {
    expect(columns.member?.map(columnName)).toContain('last-seen');
  });

  it('keeps the order asked for, whatever the case or separator, and shows wide columns', () => {
    const chosen = selectColumns(columns.space, 'Updated,TITLE, edit_mode');
    expect(chosen.map((c) => c.header)).toEqual(['UPDATED', 'TITLE', 'EDIT MODE']);
    expect(chosen.every((c) => !c.wide)).toBe(true);
  });

  it('refuses unknown or empty names, listing the columns there are', () => {
    expect(() => selectColumns(columns.space, 'titel,nope')).toThrow(/^Unknown columns "titel", "nope" for --columns$/);
    const refused = (() => {
      try {
        selectColumns(columns.space, 'titel');
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toMatchObject({ exitCode: 2, hint: "this command's columns: id, title, visibility, parent, edit-mode, updated, deleted" });
    expect(() => selectColumns(columns.space, 'id,,title')).toThrow(/expects column names separated by commas/);
  });
});
