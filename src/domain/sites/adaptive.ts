/**
 * Adaptive content schemas: a draft-07 JSON Schema describing the claims a
 * site's visitors carry. Checked with ajv twice: the document must be a valid
 * draft-07 schema (ajv's meta-schema), and it must have the shape the real API
 * accepts (`SiteAdaptiveJSONSchema`: an object of boolean / string / number /
 * enum / array / nested object claims, each with a description, and
 * `additionalProperties: false`). The first problem found is a 400 naming its place.
 */
import type { Ajv, ErrorObject } from 'ajv';
import { badRequest } from '../../api/errors.js';
import { loadAjv } from '../../util/load-ajv.js';

const described = (type: string, extra: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  properties: { type: { const: type }, description: { type: 'string' }, ...extra },
  required: ['type', 'description', ...required],
  additionalProperties: false,
});

/** The spec's SiteAdaptiveJSONSchema, written as one draft-07 schema. */
const ADAPTIVE_SHAPE = {
  $id: 'docsctl:adaptive-shape',
  definitions: {
    primitive: {
      oneOf: [
        described('boolean'),
        described('string', { enum: { type: 'array', items: { type: 'string' } } }, []),
        described('number'),
      ],
    },
    claim: {
      oneOf: [
        { $ref: '#/definitions/primitive' },
        described('array', { items: { $ref: '#/definitions/primitive' } }, ['items']),
        described(
          'object',
          { properties: { type: 'object', additionalProperties: { $ref: '#/definitions/claim' } }, additionalProperties: { const: false } },
          ['properties', 'additionalProperties'],
        ),
      ],
    },
  },
  type: 'object',
  properties: {
    $schema: { const: 'http://json-schema.org/draft-07/schema#' },
    type: { const: 'object' },
    properties: { type: 'object', additionalProperties: { $ref: '#/definitions/claim' } },
    additionalProperties: { const: false },
  },
  required: ['type', 'properties', 'additionalProperties'],
  additionalProperties: false,
};

let ajv: Ajv | undefined;
/**
 * ajv, loaded on first use: it is ~250 KB of code that only a schema update needs, and
 * the sites handlers are loaded by every site command (`site tree`, `site published`).
 */
async function validator(): Promise<Ajv> {
  if (!ajv) {
    const AjvClass = await loadAjv();
    ajv ??= new AjvClass({ allErrors: false, strict: false });
  }
  return ajv;
}

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'it is not a valid schema';
  const where = error.instancePath === '' ? 'the schema' : `jsonSchema${error.instancePath.replace(/\//g, '.')}`;
  const extra =
    error.keyword === 'additionalProperties'
      ? ` ("${String((error.params as { additionalProperty?: string }).additionalProperty)}")`
      : error.keyword === 'const'
        ? ` (expected ${JSON.stringify((error.params as { allowedValue?: unknown }).allowedValue)})`
        : '';
  return `${where} ${error.message ?? 'is invalid'}${extra}`;
}

/** The check of adaptive schemas (ajv loaded): it throws 400 naming the first problem unless `schema` is acceptable. */
export async function adaptiveSchemaCheck(): Promise<(schema: unknown) => void> {
  const checker = await validator();
  return (schema) => checkAdaptiveSchema(checker, schema);
}

function checkAdaptiveSchema(ajv: Ajv, schema: unknown): void {
  if (!ajv.validateSchema(schema as object)) {
    throw badRequest(`Invalid adaptive schema: not a valid JSON Schema (draft-07): ${describe(ajv.errors?.[0])}`);
  }
  const shape = ajv.getSchema(ADAPTIVE_SHAPE.$id) ?? ajv.compile(ADAPTIVE_SHAPE);
  if (!shape(schema)) {
    throw badRequest(`Invalid adaptive schema: ${describe(shape.errors?.[0])}`);
  }
  try {
    ajv.compile(schema as object);
  } catch (error) {
    throw badRequest(`Invalid adaptive schema: ${(error as Error).message}`);
  } finally {
    ajv.removeSchema(schema as object);
  }
}

/** The schema of a site that has none yet: no claims. */
export const EMPTY_ADAPTIVE_SCHEMA = {
  type: 'object',
  properties: {},
  additionalProperties: false,
} as const;
