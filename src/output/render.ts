/**
 * The output layer: every result a command prints goes through here.
 *
 * - table (default on a terminal): aligned columns, headers, colour when enabled, times
 *   relative ("3 hours ago"; a single object's with the date-time beside it);
 * - tsv (default when piped): tab-separated rows, no header, no colour;
 * - json: the full API objects (lists as an array of items), nothing else on stdout;
 * - yaml: the same as YAML;
 * - ids: one id per line.
 * Messages, progress and hints go to stderr, never stdout.
 */
import { UsageError } from '../api/errors.js';
import type { Column } from './columns.js';
import { relativeTime } from './relative-time.js';
import { sanitizeLine, sanitizeText } from './sanitize.js';

export type OutputFormat = 'table' | 'tsv' | 'json' | 'yaml' | 'ids' | 'markdown';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'tsv', 'json', 'yaml', 'ids', 'markdown'];

export interface RenderOptions {
  format: OutputFormat;
  columns: Column[];
  color: boolean;
  width: number | undefined;
  /** What "now" is for relative times in tables (ms since the epoch); Date.now() when absent. */
  now?: number;
}

/** A table cell: its text with control characters made visible (a value from the store or the API is hostile). */
function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return sanitizeLine(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return sanitizeLine(JSON.stringify(value));
}

/** A table cell of `column`: a date-time relative to `now` ("3 hours ago"), with the date-time beside it when `exact`. */
function tableCell(column: Column, item: Record<string, unknown>, now: number, exact = false): string {
  const value = column.get(item);
  if (!column.time || typeof value !== 'string') return cell(value);
  const relative = relativeTime(value, now);
  if (relative === value) return cell(value);
  return exact ? `${relative} (${cell(value)})` : relative;
}

/** TSV cells cannot hold tabs or newlines: a run of them becomes one space, other controls visible. */
const tsvCell = (value: unknown) => cell(typeof value === 'string' ? value.replace(/[\t\r\n]+/g, ' ') : value);

/** What `--format ids` prints of an item: the value other commands take to name it (a handle column), else its id. */
function idOf(item: unknown, columns: Column[]): string {
  const handle = columns.find((column) => column.handle);
  if (handle && typeof item === 'object' && item !== null) {
    const value = handle.get(item as Record<string, unknown>);
    if (typeof value === 'string') return sanitizeLine(value);
  }
  if (typeof item === 'object' && item !== null) {
    const record = item as Record<string, unknown>;
    for (const key of ['id', 'name', 'slug', 'url', 'revision']) if (typeof record[key] === 'string') return sanitizeLine(record[key]);
  }
  return cell(item);
}

/** YAML escapes C0 controls in strings itself; C1 controls pass through it, so they are made visible here. */
export async function toYaml(value: unknown): Promise<string> {
  // The bundle loads yaml's CommonJS build, whose namespace has only `default`; vitest loads its ESM build.
  const yaml = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  const { stringify } = typeof yaml.stringify === 'function' ? yaml : (yaml.default as typeof import('yaml'));
  return sanitizeText(stringify(value));
}

function visibleColumns(columns: Column[], width: number | undefined): Column[] {
  return width !== undefined && width < 100 ? columns.filter((c) => !c.wide) : columns;
}

async function table(rows: Record<string, unknown>[], columns: Column[], color: boolean, width: number | undefined, now: number) {
  const { default: Table } = await import('cli-table3');
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: color ? 1 : 0 });
  const shown = visibleColumns(columns, width);
  const t = new Table({
    head: shown.map((c) => chalk.bold(c.header)),
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 2 },
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '',
      'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '',
    },
  });
  for (const row of rows) t.push(shown.map((c) => tableCell(c, row, now)));
  return `${t.toString().split('\n').map((line) => line.trimEnd()).join('\n')}\n`;
}

/** A single object on a terminal: one `FIELD  value` line per column. */
async function details(item: Record<string, unknown>, columns: Column[], color: boolean, now: number): Promise<string> {
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: color ? 1 : 0 });
  const width = Math.max(...columns.map((c) => c.header.length));
  return columns
    .map((c) => `${chalk.bold(c.header.padEnd(width))}  ${tableCell(c, item, now, true)}`.trimEnd())
    .join('\n')
    .concat('\n');
}

/** Renders a list of items. */
export async function renderList(items: unknown[], options: RenderOptions): Promise<string> {
  switch (options.format) {
    case 'json':
      return `${JSON.stringify(items, null, 2)}\n`;
    case 'yaml':
      return toYaml(items);
    case 'ids':
      return items.map((item) => `${idOf(item, options.columns)}\n`).join('');
    case 'markdown':
      throw new UsageError('--format markdown prints a page body: use it with "docsctl page get"');
    case 'tsv':
      return items
        .map((item) => `${options.columns.map((c) => tsvCell(c.get(item as Record<string, unknown>))).join('\t')}\n`)
        .join('');
    case 'table':
      if (items.length === 0) return '';
      return table(items as Record<string, unknown>[], options.columns, options.color, options.width, options.now ?? Date.now());
  }
}

/** Renders one object. */
export async function renderObject(item: unknown, options: RenderOptions): Promise<string> {
  switch (options.format) {
    case 'json':
      return `${JSON.stringify(item, null, 2)}\n`;
    case 'yaml':
      return toYaml(item);
    case 'ids':
      return `${idOf(item, options.columns)}\n`;
    case 'markdown': {
      const markdown = (item as { markdown?: unknown } | null)?.markdown;
      if (typeof markdown !== 'string') throw new UsageError('--format markdown prints a page body: use it with "docsctl page get" on a document page');
      return sanitizeText(markdown);
    }
    case 'tsv': {
      const labelled = options.columns.length > 0 && options.columns.every((c) => c.label !== undefined);
      const cells = options.columns.map((c) => {
        const value = tsvCell(c.get(item as Record<string, unknown>));
        return labelled ? `${c.label}=${value}` : value;
      });
      return `${cells.join('\t')}\n`;
    }
    case 'table':
      return details(item as Record<string, unknown>, options.columns, options.color, options.now ?? Date.now());
  }
}
