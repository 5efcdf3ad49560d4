/** Valid sample values for light body descriptions (src/api/light-body.ts), for the light-body and light-query tests. */
import type { LightBody, LightValue } from '../../src/api/light-body.js';

/** A valid value for `spec` (lists and maps with two items). */
export function sampleFor(spec: LightValue): unknown {
  switch (spec.t) {
    case 'string':
      return 'x'.repeat(Math.max(spec.minLength ?? 0, 1));
    case 'boolean':
      return true;
    case 'enum':
      return spec.values[0];
    case 'object':
      return Object.fromEntries(Object.entries(spec.fields).map(([key, field]) => [key, sampleFor(field)]));
    case 'array':
      return [sampleFor(spec.item), sampleFor(spec.item)];
    case 'record':
      return { k1: sampleFor(spec.value), k2: sampleFor(spec.value) };
  }
}

/** A body with every required field of `spec` set to a valid value, and nothing else. */
export function requiredOnly(spec: LightBody): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(spec)) if (field.required) out[key] = sampleFor(field);
  return out;
}
