/**
 * Request-body validation without zod, for the CLI's hot path (the counterpart of
 * light-query.ts for writes).
 *
 * Loading zod and a route module's schemas costs a local write like `comment add`
 * more than the write itself. Many bodies are an object of strings, booleans, enums
 * and small nested objects, so the build (scripts/gen-manifest.mjs) describes each
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

export type LightField = (
  | { readonly t: 'string'; readonly minLength?: number; readonly maxLength?: number }
  | { readonly t: 'boolean' }
  | { readonly t: 'enum'; readonly values: readonly string[] }
  | { readonly t: 'object'; readonly fields: LightBody }
) & {
  /** Not optional: a body without it goes to zod (for zod's message). */
  readonly required?: boolean;
};

/** Every field of a body object whose keys are all described. */
export type LightBody = Readonly<Record<string, LightField>>;

const FAIL = Symbol('fail');

function field(spec: LightField, value: unknown): unknown {
  switch (spec.t) {
    case 'string':
      return isStringWithin(spec, value) ? value : FAIL;
    case 'boolean':
      return typeof value === 'boolean' ? value : FAIL;
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? value : FAIL;
    case 'object':
      return object(spec.fields, value) ?? FAIL;
  }
}

function object(spec: LightBody, value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const input = value as Record<string, unknown>;
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
