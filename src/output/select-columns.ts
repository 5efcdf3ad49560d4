/**
 * `--columns a,b,c`: the table and TSV columns a user picks, in the order given (as
 * kubectl's custom columns). A column is named by its header in lower case, words
 * joined by "-" (`LAST SEEN` → `last-seen`); case, "_" and spaces do not matter.
 */
import { UsageError } from '../api/errors.js';
import { sanitizeLine } from './sanitize.js';
import type { Column } from './columns.js';

/** The name `--columns` takes for `column`. */
export const columnName = (column: Column): string => column.header.trim().toLowerCase().replace(/[\s_]+/g, '-');

const normalName = (name: string): string => name.trim().toLowerCase().replace(/[\s_]+/g, '-');

/**
 * The columns `requested` names, in its order, shown whatever the terminal's width;
 * a usage error naming every unknown one and the command's columns.
 */
export function selectColumns(columns: readonly Column[], requested: string): Column[] {
  const names = requested.split(',').map(normalName);
  if (names.some((name) => name === '')) throw new UsageError(`--columns expects column names separated by commas, got "${sanitizeLine(requested)}"`);
  const byName = new Map<string, Column>();
  for (const column of columns) if (!byName.has(columnName(column))) byName.set(columnName(column), column);
  const unknown = names.filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    const choices = [...byName.keys()];
    throw new UsageError(`Unknown column${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `"${sanitizeLine(name)}"`).join(', ')} for --columns`, {
      hint: choices.length > 0 ? `this command's columns: ${choices.join(', ')}` : 'this command prints no table columns',
    });
  }
  return names.map((name) => ({ ...(byName.get(name) as Column), wide: false }));
}
