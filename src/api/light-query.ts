/**
 * Query validation without zod, for the CLI's hot path.
 *
 * Loading zod and a route module's schemas costs a local command more than the
 * operation itself (`comment list --limit 100`, `search QUERY`). Most GET queries
 * are a handful of optional scalars, so the build (scripts/gen-manifest.mjs)
 * describes each such query in the manifest as `LightQuery`, and `lightParse`
 * checks a query against it.
 *
 * The contract: when `lightParse` returns a value, it is exactly what the route's
 * zod schema returns for that input (test/api/light-query.test.ts checks every
 * described route against zod over a battery of inputs). When anything is unusual
 * it returns undefined and the caller validates with zod, which also writes the
 * error message: a wrong value never gets a different error on the fast path.
 */

/** How one optional query parameter is checked and converted (see schemas/common.ts). */
export type LightParam = (
  | { readonly t: 'string'; readonly minLength?: number; readonly maxLength?: number }
  | { readonly t: 'enum'; readonly values: readonly string[] }
  /** `qBool()`: true/1/'' and false/0. */
  | { readonly t: 'bool' }
  /** `qNumber()`, with the integer and range checks of the schema it is piped into. */
  | { readonly t: 'number'; readonly int?: boolean; readonly min?: number; readonly max?: number }
  /** `qArray(item)`: repeated or comma-separated values, each checked as `item`. */
  | { readonly t: 'list'; readonly item: LightItem }
) & {
  /** Not optional: a query without it goes to zod (for zod's message). */
  readonly required?: boolean;
};

export type LightItem = { readonly t: 'string' } | { readonly t: 'enum'; readonly values: readonly string[] };

/** Every parameter of a query object whose keys are all described. */
export type LightQuery = Readonly<Record<string, LightParam>>;

const FAIL = Symbol('fail');

function item(spec: LightItem, value: string): string | typeof FAIL {
  if (spec.t === 'enum' && !spec.values.includes(value)) return FAIL;
  return value;
}

/** A string within the length bounds of a light string description (light-body.ts uses it too). */
export function isStringWithin(spec: { readonly minLength?: number; readonly maxLength?: number }, value: unknown): value is string {
  return typeof value === 'string' && !(spec.minLength !== undefined && value.length < spec.minLength) && !(spec.maxLength !== undefined && value.length > spec.maxLength);
}

function param(spec: LightParam, value: unknown): unknown {
  switch (spec.t) {
    case 'string':
      return isStringWithin(spec, value) ? value : FAIL;
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? value : FAIL;
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === '1' || value === '') return true;
      if (value === 'false' || value === '0') return false;
      return FAIL;
    case 'number': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(number)) return FAIL;
      if (spec.int && !Number.isSafeInteger(number)) return FAIL;
      if ((spec.min !== undefined && number < spec.min) || (spec.max !== undefined && number > spec.max)) return FAIL;
      return number;
    }
    case 'list': {
      const list = Array.isArray(value) ? value : [value];
      const out: string[] = [];
      for (const entry of list) {
        if (typeof entry !== 'string') return FAIL;
        for (const part of entry.split(',')) {
          if (part === '') continue;
          const checked = item(spec.item, part);
          if (checked === FAIL) return FAIL;
          out.push(checked);
        }
      }
      return out;
    }
  }
}

/**
 * The validated query, or undefined when the zod schema must decide (a value of
 * the wrong shape or out of range, so that its error message is zod's).
 * Unknown parameters are dropped, as the zod object schemas do.
 */
export function lightParse(spec: LightQuery, query: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || !Object.hasOwn(spec, key)) continue;
    const parsed = param(spec[key] as LightParam, value);
    if (parsed === FAIL) return undefined;
    out[key] = parsed;
  }
  for (const key of Object.keys(spec)) if (spec[key]?.required && !Object.hasOwn(out, key)) return undefined;
  return out;
}
