/**
 * Validates domain responses against the real OpenAPI schemas of @gitbook/api
 * (components.schemas), so the unit tests catch a missing required member early.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const require = createRequire(import.meta.url);
const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as {
  components: Record<string, unknown>;
};

/** OpenAPI 3.0 `nullable: true` → JSON Schema (`type: [t, 'null']`, or anyOf with null). */
function denullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(denullable);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = denullable(value);
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

const ajv = new Ajv({ strict: false, allErrors: true });
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
addFormats(ajv);
ajv.addFormat('emoji', true);
ajv.addSchema({ $id: 'openapi', components: denullable(spec.components) });

const cache = new Map<string, ValidateFunction>();

/** The ajv errors of `value` against `components.schemas[name]` (empty when valid). */
export function schemaErrors(name: string, value: unknown): string[] {
  let validate = cache.get(name);
  if (!validate) {
    validate = ajv.getSchema(`openapi#/components/schemas/${name}`);
    if (!validate) throw new Error(`no schema ${name}`);
    cache.set(name, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
