/**
 * The organization file checked without zod: the fast path of parse.ts.
 *
 * Loading zod, building the file's schemas and a cold zod parse of a 1,000-space file cost
 * `diff -f` ~45 ms, more than a third of the `space list` it is measured against. The build
 * describes the zod schema (src/orgcode/schema.ts) as data (`ORG_FILE_SHAPE`, written by
 * scripts/gen-orgfile-shape.mjs), and `checkOrgFile` checks a value against it.
 *
 * The contract (as src/api/light-body.ts has for request bodies): when `checkOrgFile` returns a
 * value, it is exactly what `OrgFileSchema.safeParse` returns as data (the same fields, defaults
 * and key order; test/orgcode/file-check.test.ts holds it to zod over a battery of mutated
 * files). Anything it does not accept returns undefined, and zod decides, so a wrong file always
 * gets zod's error (and parse.ts its line and "did you mean").
 */
import { FAIL, checkItems, checkRecord, isPlainObject } from '../api/light-body.js';
import { ORG_FILE_SHAPE } from './file-shape.js';

export type FileShape = (
  | { t: 'string'; min?: number; max?: number; patterns?: Array<[source: string, flags: string]> }
  | { t: 'number'; int?: boolean; min?: number; max?: number }
  | { t: 'boolean' }
  | { t: 'enum'; values: string[] }
  | { t: 'object'; fields: Record<string, FileShape> }
  | { t: 'array'; item: FileShape; min?: number; max?: number }
  | { t: 'record'; value: FileShape }
  | { t: 'union'; options: FileShape[] }
  | { t: 'nullable'; inner: FileShape }
  | { t: 'default'; inner: FileShape; value: string }
  | { t: 'unknown' }
  | { t: 'ref'; name: string }
) & { optional?: boolean };

export interface OrgFileShape {
  root: FileShape;
  /** The lazy (recursive) schemas, by name. */
  defs: Record<string, FileShape>;
}

/** Each pattern of the shape compiled once (keyed by its tuple: 4,000 e-mails share one). */
const compiled = new WeakMap<[string, string], RegExp>();

function regex(pattern: [source: string, flags: string]): RegExp {
  let re = compiled.get(pattern);
  if (re === undefined) {
    re = new RegExp(pattern[0], pattern[1]);
    compiled.set(pattern, re);
  }
  re.lastIndex = 0;
  return re;
}

class Checker {
  constructor(private readonly defs: Record<string, FileShape>) {}

  value(shape: FileShape, value: unknown): unknown {
    switch (shape.t) {
      case 'string': {
        if (typeof value !== 'string') return FAIL;
        if ((shape.min !== undefined && value.length < shape.min) || (shape.max !== undefined && value.length > shape.max)) return FAIL;
        if (shape.patterns) for (const pattern of shape.patterns) if (!regex(pattern).test(value)) return FAIL;
        return value;
      }
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) return FAIL;
        if (shape.int && !Number.isSafeInteger(value)) return FAIL;
        if ((shape.min !== undefined && value < shape.min) || (shape.max !== undefined && value > shape.max)) return FAIL;
        return value;
      case 'boolean':
        return typeof value === 'boolean' ? value : FAIL;
      case 'enum':
        return typeof value === 'string' && shape.values.includes(value) ? value : FAIL;
      case 'object':
        return this.object(shape.fields, value);
      case 'array':
        if (Array.isArray(value) && ((shape.min !== undefined && value.length < shape.min) || (shape.max !== undefined && value.length > shape.max))) return FAIL;
        return checkItems(value, (item) => this.value(shape.item, item));
      case 'record':
        return checkRecord(value, (item) => this.value(shape.value, item));
      case 'union':
        // zod answers the first option that accepts the value.
        for (const option of shape.options) {
          const out = this.value(option, value);
          if (out !== FAIL) return out;
        }
        return FAIL;
      case 'nullable':
        return value === null ? null : this.value(shape.inner, value);
      case 'default':
        return value === undefined ? shape.value : this.value(shape.inner, value);
      case 'unknown':
        return value === undefined ? FAIL : value;
      case 'ref': {
        const target = this.defs[shape.name];
        return target === undefined ? FAIL : this.value(target, value);
      }
    }
  }

  private object(fields: Record<string, FileShape>, value: unknown): unknown {
    if (!isPlainObject(value)) return FAIL;
    // A strict object: an unknown key (or one set to undefined) is zod's to report.
    for (const key of Object.keys(value)) if (!Object.hasOwn(fields, key) || value[key] === undefined) return FAIL;
    // Keys in the schema's order, as zod writes them.
    const out: Record<string, unknown> = {};
    for (const key in fields) {
      const field = fields[key] as FileShape;
      if (!Object.hasOwn(value, key)) {
        if (field.t === 'default') out[key] = field.value;
        else if (!field.optional) return FAIL;
        continue;
      }
      const item = this.value(field, value[key]);
      if (item === FAIL) return FAIL;
      out[key] = item;
    }
    return out;
  }
}

/** The checked file (what zod would return), or undefined when zod must decide (see the file comment). */
export function checkOrgFile(value: unknown, shape = ORG_FILE_SHAPE as OrgFileShape): unknown {
  const out = new Checker(shape.defs).value(shape.root, value);
  return out === FAIL ? undefined : out;
}
