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
import { FAIL, checkRecord, isPlainObject } from '../api/light-body.js';
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

/**
 * The shape compiled into a tree of small checkers, one class a kind, once a process. A single
 * checker interpreting the shape (one function with a case a kind, calling itself) became one
 * function so large that V8's optimizing compiler spent ~70 ms of CPU on it (then again after each
 * deoptimization) while checking 1,000 spaces; small ones compile in a fraction of that, each
 * call site sees one kind of value, and patterns, enum values and field lists are ready made.
 */
interface Check {
  /** The checked value (zod's output), or FAIL. */
  check(value: unknown): unknown;
}

class StringCheck implements Check {
  private readonly patterns: RegExp[];
  constructor(private readonly min: number, private readonly max: number, patterns: Array<[source: string, flags: string]>) {
    this.patterns = patterns.map(([source, flags]) => new RegExp(source, flags));
  }
  check(value: unknown): unknown {
    if (typeof value !== 'string' || value.length < this.min || value.length > this.max) return FAIL;
    for (const re of this.patterns) {
      re.lastIndex = 0; // a global or sticky pattern starts from the beginning
      if (!re.test(value)) return FAIL;
    }
    return value;
  }
}

class NumberCheck implements Check {
  constructor(private readonly int: boolean, private readonly min: number, private readonly max: number) {}
  check(value: unknown): unknown {
    if (typeof value !== 'number' || !Number.isFinite(value) || (this.int && !Number.isSafeInteger(value))) return FAIL;
    return value < this.min || value > this.max ? FAIL : value;
  }
}

class BooleanCheck implements Check {
  check(value: unknown): unknown {
    return typeof value === 'boolean' ? value : FAIL;
  }
}

class EnumCheck implements Check {
  constructor(private readonly values: string[]) {}
  check(value: unknown): unknown {
    return typeof value === 'string' && this.values.includes(value) ? value : FAIL;
  }
}

class UnknownCheck implements Check {
  check(value: unknown): unknown {
    return value === undefined ? FAIL : value;
  }
}

/** A strict object: an unknown key (or one set to undefined) is zod's to report; keys in the schema's order, as zod writes them. */
class ObjectCheck implements Check {
  private readonly known: Set<string>;
  private readonly names: string[];
  private readonly checks: Check[];
  /** For a field that may be missing: its default (zod writes it), else NO_DEFAULT; a required field: REQUIRED. */
  private readonly missing: unknown[];
  constructor(fields: Record<string, FileShape>, compile: (shape: FileShape) => Check) {
    this.names = Object.keys(fields);
    this.known = new Set(this.names);
    this.checks = this.names.map((name) => compile(fields[name] as FileShape));
    this.missing = this.names.map((name) => {
      const field = fields[name] as FileShape;
      return field.t === 'default' ? field.value : field.optional ? NO_DEFAULT : REQUIRED;
    });
  }
  check(value: unknown): unknown {
    if (!isPlainObject(value)) return FAIL;
    for (const key of Object.keys(value)) if (!this.known.has(key) || value[key] === undefined) return FAIL;
    const out: Record<string, unknown> = {};
    const { names, checks, missing } = this;
    for (let i = 0; i < names.length; i += 1) {
      const name = names[i] as string;
      if (!Object.hasOwn(value, name)) {
        const instead = missing[i];
        if (instead === REQUIRED) return FAIL;
        if (instead !== NO_DEFAULT) out[name] = instead;
        continue;
      }
      const item = (checks[i] as Check).check(value[name]);
      if (item === FAIL) return FAIL;
      out[name] = item;
    }
    return out;
  }
}
const REQUIRED = Symbol('required');
const NO_DEFAULT = Symbol('no default');

class ArrayCheck implements Check {
  constructor(private readonly item: Check, private readonly min: number, private readonly max: number) {}
  check(value: unknown): unknown {
    if (!Array.isArray(value) || value.length < this.min || value.length > this.max) return FAIL;
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i += 1) {
      const item = this.item.check(value[i]);
      if (item === FAIL) return FAIL;
      out[i] = item;
    }
    return out;
  }
}

class RecordCheck implements Check {
  constructor(private readonly value: Check) {}
  check(value: unknown): unknown {
    return checkRecord(value, (item) => this.value.check(item));
  }
}

/** zod answers the first option that accepts the value. */
class UnionCheck implements Check {
  constructor(private readonly options: Check[]) {}
  check(value: unknown): unknown {
    for (const option of this.options) {
      const out = option.check(value);
      if (out !== FAIL) return out;
    }
    return FAIL;
  }
}

class NullableCheck implements Check {
  constructor(private readonly inner: Check) {}
  check(value: unknown): unknown {
    return value === null ? null : this.inner.check(value);
  }
}

class DefaultCheck implements Check {
  constructor(private readonly inner: Check, private readonly value: string) {}
  check(value: unknown): unknown {
    return value === undefined ? this.value : this.inner.check(value);
  }
}

/** A lazy (recursive) schema: compiled when first checked. */
class RefCheck implements Check {
  private target: Check | undefined;
  constructor(private readonly resolve: () => Check) {}
  check(value: unknown): unknown {
    this.target ??= this.resolve();
    return this.target.check(value);
  }
}

const FAILS: Check = { check: () => FAIL };

function compileShape({ root, defs }: OrgFileShape): Check {
  const named = new Map<string, Check>();
  const compile = (shape: FileShape): Check => {
    switch (shape.t) {
      case 'string':
        return new StringCheck(shape.min ?? 0, shape.max ?? Infinity, shape.patterns ?? []);
      case 'number':
        return new NumberCheck(shape.int === true, shape.min ?? -Infinity, shape.max ?? Infinity);
      case 'boolean':
        return new BooleanCheck();
      case 'enum':
        return new EnumCheck(shape.values);
      case 'object':
        return new ObjectCheck(shape.fields, compile);
      case 'array':
        return new ArrayCheck(compile(shape.item), shape.min ?? 0, shape.max ?? Infinity);
      case 'record':
        return new RecordCheck(compile(shape.value));
      case 'union':
        return new UnionCheck(shape.options.map(compile));
      case 'nullable':
        return new NullableCheck(compile(shape.inner));
      case 'default':
        return new DefaultCheck(compile(shape.inner), shape.value);
      case 'unknown':
        return new UnknownCheck();
      case 'ref': {
        const { name } = shape;
        return new RefCheck(() => {
          let target = named.get(name);
          if (target === undefined) {
            const def = defs[name];
            target = def === undefined ? FAILS : compile(def);
            named.set(name, target);
          }
          return target;
        });
      }
    }
  };
  return compile(root);
}

const compiled = new WeakMap<OrgFileShape, Check>();

/** The checked file (what zod would return), or undefined when zod must decide (see the file comment). */
export function checkOrgFile(value: unknown, shape = ORG_FILE_SHAPE as OrgFileShape): unknown {
  let check = compiled.get(shape);
  if (check === undefined) {
    check = compileShape(shape);
    compiled.set(shape, check);
  }
  const out = check.check(value);
  return out === FAIL ? undefined : out;
}
