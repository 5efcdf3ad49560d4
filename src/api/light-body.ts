/**
 * Request-body validation without zod, for the CLI's hot path (the counterpart of
 * light-query.ts for writes).
 *
 * Loading zod and a route module's schemas costs a local write like `comment add`
 * more than the write itself. Many bodies are an object of strings, booleans, enums
 * and small nested objects (and lists and maps of them), so the build (scripts/gen-manifest.mjs) describes each
 * such body in the manifest as `LightBody`, and `lightParseBody` checks a body
 * against it.
 *
 * The contract (as for light queries): when `lightParseBody` returns a value, it is
 * exactly what the route's zod schema returns for that body (test/api/light-body.test.ts
 * checks every described route against zod). Anything unusual (an unknown key, a
 * wrong type, a missing required field) returns undefined and zod decides, so a
 * wrong body always gets zod's error message.
 *
 * A union is described by its first option: zod returns the first option that
 * accepts a value, so a value the first option's description accepts gets that
 * option's output (a `{ markdown }` comment body is the first option of
 * `{ markdown } | { document } | {}`).
 */

import { isStringWithin } from './light-query.js';

/** How one value of a body is checked. */
export type LightValue =
  | { readonly t: 'string'; readonly minLength?: number; readonly maxLength?: number }
  | { readonly t: 'boolean' }
  | { readonly t: 'enum'; readonly values: readonly string[] }
  | { readonly t: 'object'; readonly fields: LightBody }
  /** An array (no length checks) of such values: the user lists of a team's batch update. */
  | { readonly t: 'array'; readonly item: LightValue }
  /** An object of any string keys (no key checks) and such values: its memberships by user. */
  | { readonly t: 'record'; readonly value: LightValue };

export type LightField = LightValue & {
  /** Not optional: a body without it goes to zod (for zod's message). */
  readonly required?: boolean;
};

/** Every field of a body object whose keys are all described. */
export type LightBody = Readonly<Record<string, LightField>>;

/** What a light check answers for a value zod must judge (also src/orgcode/file-check.ts's). */
export const FAIL = Symbol('fail');

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** A list checked item by item into a new list (zod's output), or FAIL when an item fails. */
export function checkItems(value: unknown, check: (item: unknown) => unknown): unknown[] | typeof FAIL {
  if (!Array.isArray(value)) return FAIL;
  const out = new Array<unknown>(value.length);
  for (let i = 0; i < value.length; i += 1) {
    const parsed = check(value[i]);
    if (parsed === FAIL) return FAIL;
    out[i] = parsed;
  }
  return out;
}

/** A plain record checked value by value into a new one, keys in order (zod's output), or FAIL. */
export function checkRecord(value: unknown, check: (item: unknown) => unknown): Record<string, unknown> | typeof FAIL {
  if (!isPlainObject(value)) return FAIL;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // zod drops a `__proto__` key; an undefined value is zod's to judge.
    if (key === '__proto__' || value[key] === undefined) return FAIL;
    const parsed = check(value[key]);
    if (parsed === FAIL) return FAIL;
    out[key] = parsed;
  }
  return out;
}

function field(spec: LightValue, value: unknown): unknown {
  switch (spec.t) {
    case 'string':
      return isStringWithin(spec, value) ? value : FAIL;
    case 'boolean':
      return typeof value === 'boolean' ? value : FAIL;
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? value : FAIL;
    case 'object':
      return object(spec.fields, value) ?? FAIL;
    case 'array':
      return checkItems(value, (item) => field(spec.item, item));
    case 'record':
      return checkRecord(value, (item) => field(spec.value, item));
  }
}

function object(spec: LightBody, input: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(input)) return undefined;
  // An unknown key is stripped by a plain zod object but refused by a strict one: zod decides.
  for (const key of Object.keys(input)) if (!Object.hasOwn(spec, key) || input[key] === undefined) return undefined;
  // Keys in the schema's order, as zod writes them.
  const out: Record<string, unknown> = {};
  for (const [key, fieldSpec] of Object.entries(spec)) {
    if (!Object.hasOwn(input, key)) {
      if (fieldSpec.required) return undefined;
      continue;
    }
    const parsed = field(fieldSpec, input[key]);
    if (parsed === FAIL) return undefined;
    out[key] = parsed;
  }
  return out;
}

/** The validated body, or undefined when the zod schema must decide (see the file comment). */
export function lightParseBody(spec: LightBody, body: unknown): Record<string, unknown> | undefined {
  return object(spec, body);
}
