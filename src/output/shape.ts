/**
 * What to print of an answer: `--json id,title` keeps only those fields (as `gh`
 * does), `--query EXPR` evaluates a JMESPath expression on it (as the AWS CLI and
 * `az` do). A list is shaped as the array of its items. Both are checked before a
 * command runs (`parseShape`), so a typo never follows a write.
 */
import { UsageError } from '../api/errors.js';

export interface OutputShape {
  /** Top-level fields to keep, in this order. */
  fields?: readonly string[];
  /** A JMESPath expression (already compiled once, so known to be valid). */
  query?: string;
}

const FIELD = /^[A-Za-z_$][\w$-]*$/;

/** True when `word` reads as a `--json` field list (`id` or `id,title`). */
export function isFieldList(word: string): boolean {
  const fields = word.split(',').map((f) => f.trim()).filter((f) => f !== '');
  return fields.length > 0 && fields.every((f) => FIELD.test(f));
}

type JmesPath = typeof import('@jmespath-community/jmespath');

async function jmespath(): Promise<JmesPath> {
  return import('@jmespath-community/jmespath');
}

/** Validates `--json FIELDS` and `--query EXPR`; a UsageError (exit 2) names what is wrong. */
export async function parseShape(json: unknown, query: unknown): Promise<OutputShape | undefined> {
  const shape: OutputShape = {};
  if (typeof json === 'string') {
    const fields = json.split(',').map((f) => f.trim()).filter((f) => f !== '');
    const bad = fields.find((f) => !FIELD.test(f));
    if (fields.length === 0 || bad !== undefined) {
      throw new UsageError(`--json takes a comma-separated list of field names${bad ? `, not "${bad}"` : ''}`, {
        hint: 'e.g. --json id,title; use --query for nested values',
      });
    }
    shape.fields = fields;
  }
  if (typeof query === 'string') {
    try {
      (await jmespath()).compile(query);
    } catch (error) {
      throw new UsageError(`--query "${query}" is not a JMESPath expression: ${(error as Error).message}`, {
        hint: 'see https://jmespath.site; e.g. --query "[].title" or --query "items[?visibility==\'public\'].id"',
      });
    }
    shape.query = query;
  }
  return shape.fields || shape.query !== undefined ? shape : undefined;
}

/** The fields of `item` asked for, in order; one it does not have is null (as `gh --json` prints it). */
function pick(item: unknown, fields: readonly string[]): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  const record = item as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = Object.hasOwn(record, field) ? record[field] : null;
  return out;
}

/** The fields `--json` may name: those of the answer's type (its route's response schema) and any the answer has. */
function validFields(value: unknown, typeFields: readonly string[] | undefined): Set<string> {
  const valid = new Set(typeFields ?? []);
  for (const record of Array.isArray(value) ? value : [value]) {
    if (typeof record === 'object' && record !== null && !Array.isArray(record)) for (const key of Object.keys(record)) valid.add(key);
  }
  return valid;
}

/**
 * Applies the shape: fields first, then the query. A field is valid when the answer's
 * type has it (`typeFields`, from the route's response schema: absent from this object,
 * it prints null) or the answer has it; another is a UsageError listing the valid
 * ones, or, when `onUnknownFields` is given (the command already changed something),
 * reported to it and left out. Without items to tell (an empty list of an unknown type), nothing is refused.
 */
export async function applyShape(
  value: unknown,
  shape: OutputShape,
  onUnknownFields?: (error: UsageError) => void,
  typeFields?: readonly string[],
): Promise<unknown> {
  let out = value;
  if (shape.fields) {
    let fields = shape.fields;
    const valid = validFields(out, typeFields);
    const missing = valid.size === 0 ? [] : fields.filter((field) => !valid.has(field));
    if (missing.length > 0) {
      const error = new UsageError(`Unknown JSON field${missing.length > 1 ? 's' : ''} ${missing.map((f) => `"${f}"`).join(', ')}`, {
        hint: `available: ${[...valid].sort().join(', ')}`,
      });
      if (!onUnknownFields) throw error;
      onUnknownFields(error);
      fields = fields.filter((field) => valid.has(field));
    }
    out = Array.isArray(out) ? out.map((item) => pick(item, fields)) : pick(out, fields);
  }
  if (shape.query !== undefined) {
    out = (await jmespath()).search(out as Parameters<JmesPath['search']>[0], shape.query);
  }
  return out;
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value).replace(/[\t\r\n]+/g, ' ');
}

function line(value: unknown): string {
  if (Array.isArray(value)) return value.map(scalar).join('\t');
  if (typeof value === 'object' && value !== null) return Object.values(value).map(scalar).join('\t');
  return scalar(value);
}

/**
 * A shaped value as text lines (tsv, ids, table): a scalar on one line; a list one
 * line per element; arrays and objects as tab-separated values (as `az -o tsv`).
 */
export function shapedLines(value: unknown): string {
  if (value === null || value === undefined) return '';
  const rows = Array.isArray(value) ? value : [value];
  return rows.map((row) => `${line(row)}\n`).join('');
}
