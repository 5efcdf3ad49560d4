/**
 * Contract-test harness: validates what docsctl produces (and sends) against the
 * real API's OpenAPI document, `@gitbook/api@0.202.0` `spec/openapi.json`
 * (paths without the `/v1` prefix), allowing only the documented differences of
 * `allowed-differences.ts` (each with its gaps.md reference).
 *
 * How the document is prepared for Ajv:
 * - OpenAPI 3.0.x → Ajv draft-07; 3.1.x → Ajv 2020-12 (checked from `openapi`).
 * - 3.0 `nullable: true` → `type: [T, "null"]` (and `null` added to an `enum`), or
 *   `anyOf: [schema, {type: "null"}]` when there is no `type` (e.g. a `$ref`).
 * - `discriminator` → stripped: validity is decided by the plain `oneOf`, exactly as
 *   the document states it. Only to *explain* a failure, a second Ajv instance uses a
 *   copy where each discriminated `oneOf` becomes `if type=X then branch X`, so the
 *   messages name the fields of the branch the body claims to be, not of every branch.
 * - The whole document is registered once as `openapi.json`; each operation's schema
 *   is compiled lazily by reference to its JSON pointer and cached.
 * - GitBook's custom formats `emoji` and `icon` have no checkable definition: accepted
 *   (their `maxLength` still applies). Other formats come from ajv-formats.
 * - Unknown keywords (`example`, `deprecated`, `x-*`) → `strict: false`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import AjvDraft07Module from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { type AllowedDifference, type Direction, differencesFor } from './allowed-differences.js';

// ajv and ajv-formats are CommonJS: the default import is `module.exports`, whose `.default` is the export.
const AjvDraft07 = AjvDraft07Module.default;
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
type AjvInstance = InstanceType<typeof AjvDraft07> | InstanceType<typeof Ajv2020>;

export const SPEC_PACKAGE = '@gitbook/api';
export const SPEC_KEY = 'openapi.json';

export interface ValidationResult {
  ok: boolean;
  /** Human-readable, e.g. `/items/0/permissions must have required property 'view'`. */
  errors: string[];
  /** What was validated and which allowances applied (e.g. "no schema", "allowed difference …"). */
  notes: string[];
}

export interface BodyValidator {
  (body: unknown): ValidationResult;
  readonly operationId: string;
  /** What the body is checked against, e.g. `getSpaceById 200 → #/components/schemas/Space`. */
  readonly target: string;
  /** False when there is nothing to validate against (operation absent from the spec). */
  readonly hasSchema: boolean;
  /** Ids of the allowed differences applied. */
  readonly allowances: readonly string[];
}

type SchemaObject = Record<string, unknown>;

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

export interface SpecOperation {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** Path as in the spec (no `/v1`). */
  path: string;
  /** Path as docsctl's route table writes it (`/v1` + path). */
  v1Path: string;
  operation: SchemaObject;
  /** JSON pointer of the operation in the document. */
  pointer: string;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// ─── Loading and preparing the document ────────────────────────────────────────

let rawDocument: OpenApiDocument | undefined;

/** The spec as published (parsed once; do not mutate). */
export function specDocument(): OpenApiDocument {
  if (!rawDocument) {
    const require = createRequire(import.meta.url);
    const file = require.resolve(`${SPEC_PACKAGE}/spec/openapi.json`);
    rawDocument = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  }
  return rawDocument;
}

export function specVersion(): { openapi: string; dialect: 'draft-07' | '2020-12' } {
  const openapi = String(specDocument().openapi);
  if (/^3\.0\./.test(openapi)) return { openapi, dialect: 'draft-07' };
  if (/^3\.1\./.test(openapi)) return { openapi, dialect: '2020-12' };
  throw new Error(`unsupported OpenAPI version ${openapi}`);
}

let operationIndex: Map<string, SpecOperation> | undefined;

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON pointer as a URI fragment (each segment escaped, then percent-encoded). */
function pointerRef(segments: readonly string[]): string {
  return `${SPEC_KEY}#/${segments.map((s) => encodeURIComponent(escapePointer(s))).join('/')}`;
}

export function specOperations(): ReadonlyMap<string, SpecOperation> {
  if (!operationIndex) {
    operationIndex = new Map();
    for (const [path, item] of Object.entries(specDocument().paths)) {
      for (const method of HTTP_METHODS) {
        const operation = item[method] as SchemaObject | undefined;
        if (!operation || typeof operation.operationId !== 'string') continue;
        operationIndex.set(operation.operationId, {
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path,
          v1Path: `/v1${path === '/' ? '/' : path}`,
          operation,
          pointer: `/paths/${escapePointer(path)}/${method}`,
        });
      }
    }
  }
  return operationIndex;
}

export function findOperation(operationId: string): SpecOperation | undefined {
  return specOperations().get(operationId);
}

/** The response statuses an operation declares (`"200"`, `"404"`, `"default"`, …). */
export function declaredStatuses(operationId: string): string[] {
  const op = findOperation(operationId);
  if (!op) return [];
  return Object.keys((op.operation.responses as SchemaObject | undefined) ?? {});
}

function isObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves a local `#/...` pointer in a document. */
function resolveLocal(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Rewrites OpenAPI 3.0 `nullable` into JSON Schema (in place). */
function convertNullable(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) convertNullable(item);
    return;
  }
  if (!isObject(node)) return;
  for (const value of Object.values(node)) convertNullable(value);
  if (!('nullable' in node)) return;
  const nullable = node.nullable === true;
  delete node.nullable;
  if (!nullable) return;
  if (typeof node.type === 'string' || Array.isArray(node.type)) {
    const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
    if (!types.includes('null')) node.type = [...types, 'null'];
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
    return;
  }
  // No `type` (typically `{$ref, nullable}`): the schema, or null.
  const inner: SchemaObject = {};
  for (const key of Object.keys(node)) {
    if (key === 'description' || key === 'deprecated' || key === 'example' || key === 'default') continue;
    inner[key] = node[key];
    delete node[key];
  }
  node.anyOf = [inner, { type: 'null' }];
}

function stripDiscriminators(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) stripDiscriminators(item);
    return;
  }
  if (!isObject(node)) return;
  if (isObject(node.discriminator) && typeof node.discriminator.propertyName === 'string') delete node.discriminator;
  for (const value of Object.values(node)) stripDiscriminators(value);
}

/** The discriminator values a `oneOf` branch accepts (through `$ref` and `allOf`), if it states them. */
function branchValues(doc: unknown, branch: unknown, property: string, depth = 0): unknown[] | undefined {
  if (!isObject(branch) || depth > 20) return undefined;
  if (typeof branch.$ref === 'string') return branchValues(doc, resolveLocal(doc, branch.$ref), property, depth + 1);
  const properties = branch.properties;
  if (isObject(properties) && property in properties) {
    let schema = properties[property];
    if (isObject(schema) && typeof schema.$ref === 'string') schema = resolveLocal(doc, schema.$ref);
    if (isObject(schema)) {
      if ('const' in schema) return [schema.const];
      if (Array.isArray(schema.enum)) return schema.enum.filter((v) => v !== null);
    }
  }
  if (Array.isArray(branch.allOf)) {
    for (const part of branch.allOf) {
      const values = branchValues(doc, part, property, depth + 1);
      if (values) return values;
    }
  }
  return undefined;
}

/**
 * For the explaining copy only: each discriminated `oneOf` becomes a required,
 * enumerated discriminator plus `if <prop> = v then <branch of v>`.
 */
function explainDiscriminators(doc: unknown, node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) explainDiscriminators(doc, item);
    return;
  }
  if (!isObject(node)) return;
  for (const value of Object.values(node)) explainDiscriminators(doc, value);
  const discriminator = node.discriminator;
  if (!isObject(discriminator) || typeof discriminator.propertyName !== 'string') return;
  delete node.discriminator;
  const property = discriminator.propertyName;
  const branches = node.oneOf;
  if (!Array.isArray(branches)) return;
  const byValue = new Map<string, unknown[]>();
  const mapping = isObject(discriminator.mapping) ? (discriminator.mapping as Record<string, string>) : {};
  for (const branch of branches) {
    const mapped = isObject(branch) ? Object.keys(mapping).filter((v) => mapping[v] === branch.$ref) : [];
    const values = mapped.length > 0 ? mapped : branchValues(doc, branch, property);
    if (!values || values.length === 0) return; // cannot tell the branches apart: keep the plain oneOf
    for (const value of values) {
      if (typeof value !== 'string') return;
      byValue.set(value, [...(byValue.get(value) ?? []), branch]);
    }
  }
  delete node.oneOf;
  const allOf = Array.isArray(node.allOf) ? [...(node.allOf as unknown[])] : [];
  allOf.push({ type: 'object', required: [property], properties: { [property]: { enum: [...byValue.keys()] } } });
  for (const [value, list] of byValue) {
    allOf.push({
      if: { type: 'object', required: [property], properties: { [property]: { const: value } } },
      then: list.length === 1 ? list[0] : { oneOf: list },
    });
  }
  node.allOf = allOf;
}

function newAjv(): AjvInstance {
  const options = {
    strict: false,
    allErrors: true,
    verbose: true,
    validateSchema: false,
    logger: false as const,
    // Responses are never coerced or modified.
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
  };
  const ajv = specVersion().dialect === '2020-12' ? new Ajv2020(options) : new AjvDraft07(options);
  addFormats(ajv);
  // GitBook's own formats: no checkable definition (gaps.md §4 "Emoji/Icon = string ≤50").
  ajv.addFormat('emoji', true);
  ajv.addFormat('icon', true);
  return ajv;
}

function prepared(explain: boolean): unknown {
  const doc = structuredClone(specDocument()) as unknown;
  if (specVersion().dialect === 'draft-07') convertNullable(doc);
  if (explain) explainDiscriminators(doc, doc);
  stripDiscriminators(doc);
  return doc;
}

let strictAjv: AjvInstance | undefined;
let explainAjv: AjvInstance | undefined;

function ajvFor(explain: boolean): AjvInstance {
  if (explain) {
    if (!explainAjv) {
      explainAjv = newAjv();
      explainAjv.addSchema(prepared(true) as SchemaObject, SPEC_KEY);
    }
    return explainAjv;
  }
  if (!strictAjv) {
    strictAjv = newAjv();
    strictAjv.addSchema(prepared(false) as SchemaObject, SPEC_KEY);
  }
  return strictAjv;
}

// ─── Compiling and running schemas ─────────────────────────────────────────────

interface CompiledPair {
  strict: ValidateFunction;
  explain: () => ValidateFunction;
}

const compiled = new Map<string, CompiledPair>();

/**
 * A schema validator. `schema` is either a pointer ref (`openapi.json#/…`) or a
 * standalone schema that may `$ref` `openapi.json#/components/schemas/X`.
 */
function compile(cacheKey: string, schema: string | object): CompiledPair {
  let pair = compiled.get(cacheKey);
  if (!pair) {
    const asSchema = (): SchemaObject =>
      typeof schema === 'string' ? { $ref: schema } : (structuredClone(schema) as SchemaObject);
    const strict = ajvFor(false).compile(asSchema());
    let explained: ValidateFunction | undefined;
    pair = {
      strict,
      explain: () => (explained ??= ajvFor(true).compile(asSchema())),
    };
    compiled.set(cacheKey, pair);
  }
  return pair;
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** One Ajv error as a line: `<instance path or "/"> <message>[ details]`. */
export function formatAjvError(error: ErrorObject): string {
  const where = error.instancePath === '' ? '/' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? `fails ${error.keyword}`;
  switch (error.keyword) {
    case 'additionalProperties':
      message += `: '${String(params.additionalProperty)}'`;
      break;
    case 'enum':
      message += `: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')} (got ${preview(error.data)})`;
      break;
    case 'const':
      message = `must be ${JSON.stringify(params.allowedValue)} (got ${preview(error.data)})`;
      break;
    case 'type':
    case 'format':
    case 'pattern':
    case 'maxLength':
    case 'minLength':
    case 'minimum':
    case 'maximum':
      message += ` (got ${preview(error.data)})`;
      break;
    default:
      break;
  }
  return `${where} ${message}`;
}

/** Formats a list of Ajv errors (deduplicated, in order). */
export function formatAjvErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  const lines: string[] = [];
  for (const error of errors ?? []) {
    // `if` failures only say "must match "then" schema": the `then` errors say why.
    if (error.keyword === 'if') continue;
    const line = formatAjvError(error);
    if (!lines.includes(line)) lines.push(line);
  }
  return lines;
}

function runSchema(pair: CompiledPair, body: unknown): string[] {
  if (pair.strict(body)) return [];
  const strictErrors = formatAjvErrors(pair.strict.errors);
  const explain = pair.explain();
  if (explain(body)) return strictErrors; // only the plain oneOf tells (e.g. a body matching two branches)
  const explained = formatAjvErrors(explain.errors);
  return explained.length > 0 ? explained : strictErrors;
}

/** Errors when `body` is not a plain JSON value (what `JSON.stringify` would not round-trip). */
function jsonErrors(body: unknown, path = ''): string[] {
  const where = path === '' ? '/' : path;
  if (body === null || typeof body === 'string' || typeof body === 'boolean') return [];
  if (typeof body === 'number') return Number.isFinite(body) ? [] : [`${where} is not a finite number`];
  if (Array.isArray(body)) return body.flatMap((item, i) => jsonErrors(item, `${path}/${i}`));
  if (typeof body === 'object') {
    const proto = Object.getPrototypeOf(body) as unknown;
    if (proto !== Object.prototype && proto !== null) return [`${where} is not a plain JSON object`];
    return Object.entries(body as Record<string, unknown>).flatMap(([key, value]) =>
      value === undefined ? [] : jsonErrors(value, `${path}/${escapePointer(key)}`),
    );
  }
  return [`${where} is not a JSON value (${typeof body})`];
}

function renameKeys(value: unknown, keys: Readonly<Record<string, string>>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, keys));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const target = Object.hasOwn(keys, key) ? (keys[key] as string) : key;
    // The real name, when also present, wins (the API doc name is then just an extra key).
    if (target !== key && Object.hasOwn(value, target)) {
      out[key] = renameKeys(item, keys);
      continue;
    }
    out[target] = renameKeys(item, keys);
  }
  return out;
}

function makeValidator(
  operationId: string,
  target: string,
  hasSchema: boolean,
  allowances: readonly string[],
  check: (body: unknown) => ValidationResult,
): BodyValidator {
  return Object.assign((body: unknown) => check(body), { operationId, target, hasSchema, allowances });
}

function describeEntry(entry: AllowedDifference): string {
  return `allowed difference ${entry.id} (${entry.gaps})`;
}

/** Validates the JSON body against a compiled schema, after the `rename` allowances. */
function schemaCheck(
  operationId: string,
  direction: Direction,
  status: number | undefined,
  cacheKey: string,
  schema: string | object,
  baseNotes: string[],
  extra?: (body: unknown) => string[],
): (body: unknown) => ValidationResult {
  const renames = differencesFor('rename', direction, operationId, status);
  return (body: unknown) => {
    const notes = [...baseNotes];
    const notJson = jsonErrors(body);
    if (notJson.length > 0) return { ok: false, errors: notJson, notes };
    let value = body;
    for (const entry of renames) {
      const renamed = renameKeys(value, entry.keys);
      if (JSON.stringify(renamed) !== JSON.stringify(value)) notes.push(describeEntry(entry));
      value = renamed;
    }
    const errors = [...runSchema(compile(cacheKey, schema), value), ...(extra ? extra(value) : [])];
    return { ok: errors.length === 0, errors, notes };
  };
}

function noSchemaValidator(operationId: string, direction: Direction, entries: readonly AllowedDifference[]): BodyValidator {
  const notes = [`no schema: ${operationId} is absent from ${SPEC_PACKAGE} ${specVersion().openapi} document`, ...entries.map(describeEntry)];
  return makeValidator(operationId, `${operationId} ${direction}: no schema`, false, entries.map((e) => e.id), (body) => {
    const errors = body === undefined ? [] : jsonErrors(body);
    return { ok: errors.length === 0, errors, notes: [...notes] };
  });
}

function alwaysFails(operationId: string, target: string, message: string): BodyValidator {
  return makeValidator(operationId, target, false, [], () => ({ ok: false, errors: [message], notes: [] }));
}

function emptyBodyCheck(what: string): (body: unknown) => ValidationResult {
  return (body) => {
    const empty = body === undefined || body === null || body === '';
    return { ok: empty, errors: empty ? [] : [`/ must be empty: ${what} has no body (got ${preview(body)})`], notes: [] };
  };
}

function codeCheck(status: number): (body: unknown) => string[] {
  return (body) => {
    const code = isObject(body) && isObject(body.error) ? body.error.code : undefined;
    return code === undefined || code === status ? [] : [`/error/code must be ${status}, the response status (got ${preview(code)})`];
  };
}

/** `#/components/schemas/X` for a named schema, else the (readable, unencoded) pointer of the inline one. */
function schemaName(schema: unknown, segments: readonly string[]): string {
  if (isObject(schema) && typeof schema.$ref === 'string') return schema.$ref;
  return `#/${segments.map(escapePointer).join('/')}`;
}

const ERROR_SCHEMA_REF = `${SPEC_KEY}#/components/schemas/Error`;

// ─── Public API ────────────────────────────────────────────────────────────────

const responseCache = new Map<string, BodyValidator>();

/**
 * A validator for the body docsctl answers `operationId` with, at `status`.
 *
 * The schema is the `application/json` content of the declared response for that
 * status (else `default`). Statuses without content (204/205) require an empty body.
 * An error status the operation does not declare is checked against `Error`
 * (allowance `undeclared-error-status`, gaps.md §6.1); an undeclared success status
 * always fails. Operations absent from the spec (custom fields) get a "no schema"
 * validator that only checks the body is JSON.
 */
export function responseValidator(operationId: string, status: number): BodyValidator {
  const key = `${operationId} ${status}`;
  let validator = responseCache.get(key);
  if (!validator) {
    validator = buildResponseValidator(operationId, status);
    responseCache.set(key, validator);
  }
  return validator;
}

function buildResponseValidator(operationId: string, status: number): BodyValidator {
  const replacements = differencesFor('replace-schema', 'response', operationId, status);
  const replacement = replacements.find((entry) => entry.schemas[operationId]);
  if (replacement) {
    const notes = [describeEntry(replacement)];
    return makeValidator(
      operationId,
      `${operationId} ${status} → allowed difference ${replacement.id}`,
      true,
      [replacement.id],
      schemaCheck(operationId, 'response', status, `replace:${replacement.id}:${operationId}`, replacement.schemas[operationId] as object, notes),
    );
  }

  const op = findOperation(operationId);
  const errorFallback = status >= 400 ? differencesFor('error-fallback', 'response', operationId, status)[0] : undefined;
  if (!op && errorFallback) {
    // An operation the document no longer has (REMOVED_IN_0_202) still errs with the generic Error (gaps.md §6.1).
    return makeValidator(
      operationId,
      `${operationId} ${status} → #/components/schemas/Error (${errorFallback.id})`,
      true,
      [errorFallback.id],
      schemaCheck(operationId, 'response', status, 'error', ERROR_SCHEMA_REF, [describeEntry(errorFallback)], codeCheck(status)),
    );
  }
  if (!op) {
    const noSchema = differencesFor('no-schema', 'response', operationId, status);
    if (noSchema.length > 0) return noSchemaValidator(operationId, 'response', noSchema);
    throw new Error(`operation ${operationId} is not in the ${SPEC_PACKAGE} document and no allowed difference covers it`);
  }

  const responses = (op.operation.responses as SchemaObject | undefined) ?? {};
  const declared = Object.keys(responses);
  const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
  if (statusKey === undefined) {
    if (status >= 400) {
      const fallback = differencesFor('error-fallback', 'response', operationId, status);
      const entry = fallback[0];
      if (entry) {
        return makeValidator(
          operationId,
          `${operationId} ${status} → #/components/schemas/Error (${entry.id})`,
          true,
          [entry.id],
          schemaCheck(operationId, 'response', status, 'error', ERROR_SCHEMA_REF, [describeEntry(entry)], codeCheck(status)),
        );
      }
    }
    return alwaysFails(
      operationId,
      `${operationId} ${status}: not declared`,
      `status ${status} is not declared for ${operationId} (declared: ${declared.join(', ')})`,
    );
  }

  // Follow a `$ref` to components/responses, keeping the pointer of where the schema lives.
  let segments = [...op.pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')), 'responses', statusKey];
  let response = responses[statusKey];
  for (let hops = 0; isObject(response) && typeof response.$ref === 'string' && hops < 5; hops++) {
    const ref = response.$ref;
    segments = ref.slice(2).split('/').map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
    response = resolveLocal(specDocument(), ref);
  }
  const content = isObject(response) && isObject(response.content) ? response.content : undefined;
  const json = content?.['application/json'];
  if (!isObject(json) || json.schema === undefined) {
    if (content && Object.keys(content).length > 0) {
      return alwaysFails(
        operationId,
        `${operationId} ${status}: ${Object.keys(content).join(', ')}`,
        `${operationId} ${status} declares no application/json body (${Object.keys(content).join(', ')})`,
      );
    }
    return makeValidator(operationId, `${operationId} ${status}: no body`, true, [], emptyBodyCheck(`${operationId} ${status}`));
  }
  const ref = pointerRef([...segments, 'content', 'application/json', 'schema']);
  const named = schemaName(json.schema, [...segments, 'content', 'application/json', 'schema']);
  const extra = status >= 400 ? codeCheck(status) : undefined;
  return makeValidator(
    operationId,
    `${operationId} ${statusKey === String(status) ? status : `${status} (as ${statusKey})`} → ${named}`,
    true,
    [],
    schemaCheck(operationId, 'response', status, ref, ref, [], extra),
  );
}

const requestCache = new Map<string, BodyValidator>();

/**
 * A validator for the request body docsctl sends for `operationId` (remote mode).
 * An operation without a request body accepts only `undefined`; an optional body may be omitted.
 */
export function requestBodyValidator(operationId: string): BodyValidator {
  let validator = requestCache.get(operationId);
  if (!validator) {
    validator = buildRequestValidator(operationId);
    requestCache.set(operationId, validator);
  }
  return validator;
}

function buildRequestValidator(operationId: string): BodyValidator {
  const replacement = differencesFor('replace-schema', 'request', operationId).find((e) => e.schemas[operationId]);
  if (replacement) {
    return makeValidator(
      operationId,
      `${operationId} request → allowed difference ${replacement.id}`,
      true,
      [replacement.id],
      schemaCheck(operationId, 'request', undefined, `replace:${replacement.id}:${operationId}`, replacement.schemas[operationId] as object, [
        describeEntry(replacement),
      ]),
    );
  }
  const op = findOperation(operationId);
  if (!op) {
    const noSchema = differencesFor('no-schema', 'request', operationId);
    if (noSchema.length > 0) return noSchemaValidator(operationId, 'request', noSchema);
    throw new Error(`operation ${operationId} is not in the ${SPEC_PACKAGE} document and no allowed difference covers it`);
  }
  let segments = [...op.pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')), 'requestBody'];
  let requestBody = op.operation.requestBody;
  for (let hops = 0; isObject(requestBody) && typeof requestBody.$ref === 'string' && hops < 5; hops++) {
    const ref = requestBody.$ref;
    segments = ref.slice(2).split('/').map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
    requestBody = resolveLocal(specDocument(), ref);
  }
  if (!isObject(requestBody)) {
    return makeValidator(operationId, `${operationId} request: no body`, true, [], (body) => ({
      ok: body === undefined,
      errors: body === undefined ? [] : [`/ must be absent: ${operationId} takes no request body (got ${preview(body)})`],
      notes: [],
    }));
  }
  const required = requestBody.required === true;
  const content = isObject(requestBody.content) ? requestBody.content : {};
  const json = content['application/json'];
  if (!isObject(json) || json.schema === undefined) {
    return alwaysFails(operationId, `${operationId} request`, `${operationId} takes no application/json request body (${Object.keys(content).join(', ')})`);
  }
  const ref = pointerRef([...segments, 'content', 'application/json', 'schema']);
  const check = schemaCheck(operationId, 'request', undefined, ref, ref, []);
  const named = schemaName(json.schema, [...segments, 'content', 'application/json', 'schema']);
  return makeValidator(operationId, `${operationId} request → ${named}`, true, [], (body) => {
    if (body === undefined) {
      return required
        ? { ok: false, errors: [`/ is required: ${operationId} needs a JSON request body`], notes: [] }
        : { ok: true, errors: [], notes: ['request body omitted (optional)'] };
    }
    return check(body);
  });
}

/**
 * The API error body `{error: {code: int, message: string}}` (spec `Error`; every error,
 * gaps.md §6.1). With `status`, `error.code` must also equal it.
 */
export function errorBodyValidator(status?: number): BodyValidator {
  return makeValidator(
    'error',
    `error ${status ?? 'any'} → #/components/schemas/Error`,
    true,
    [],
    schemaCheck('error', 'response', status, 'error', ERROR_SCHEMA_REF, [], status === undefined ? undefined : codeCheck(status)),
  );
}

/** A validator for a named component schema, e.g. `componentValidator('Space')`. */
export function componentValidator(name: string): BodyValidator {
  const schemas = specDocument().components.schemas ?? {};
  if (!(name in schemas)) throw new Error(`no component schema ${name} in the ${SPEC_PACKAGE} document`);
  const ref = pointerRef(['components', 'schemas', name]);
  return makeValidator(name, `#/components/schemas/${name}`, true, [], schemaCheck(name, 'response', undefined, ref, ref, []));
}

/** A validator for any JSON schema, which may `$ref` `openapi.json#/components/schemas/X`. */
export function schemaValidator(schema: object, label = 'schema'): BodyValidator {
  return makeValidator(label, label, true, [], schemaCheck(label, 'response', undefined, `inline:${JSON.stringify(schema)}`, schema, []));
}

/** Throws with every error (and the notes) when the result is not ok: for `expect`-free assertions. */
export function assertValid(result: ValidationResult, what = 'body'): void {
  if (!result.ok) throw new Error(`${what} does not match the schema:\n  ${result.errors.join('\n  ')}`);
}

