/**
 * A loopback server that answers as GitBook's API of today may: every GET of
 * @gitbook/api 0.202's OpenAPI document (its reads, trimmed into
 * test/fixtures/openapi-0.202-reads.json by trim-openapi.mjs) answers a value
 * generated from its success schema, in one of three shapes:
 *
 * - `full`: every property, optional ones included, plus a property docsctl does
 *   not know on every object (`xFuture…`);
 * - `unknown-enums`: the same with every enum value replaced by one no version of the
 *   API has (a reader must show it, not choke on it);
 * - `minimal`: only the required properties.
 *
 * A path the document does not have answers 404 `Not found`, as a server without the
 * operation does. `override(operationId, body)` pins an answer for value assertions.
 */
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Shape = 'full' | 'unknown-enums' | 'minimal';
type Schema = Record<string, unknown>;

interface Operation {
  id: string;
  method: string;
  pattern: RegExp;
  success: Schema | undefined;
}

function loadDocument(): { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } } {
  return JSON.parse(readFileSync(new URL('../fixtures/openapi-0.202-reads.json', import.meta.url), 'utf8'));
}

/** Values generated from a schema; `$ref`, allOf/oneOf/anyOf, nullable and recursion handled. */
export class Sampler {
  constructor(
    private readonly schemas: Record<string, Schema>,
    private readonly shape: Shape,
  ) {}

  sample(schema: Schema | undefined, depth = 0, name = 'value'): unknown {
    if (schema === undefined) return {};
    if (typeof schema.$ref === 'string') {
      const target = this.schemas[schema.$ref.replace('#/components/schemas/', '')];
      return this.sample(target, depth + 1, name);
    }
    if (depth > 14) return schema.type === 'array' ? [] : schema.type === 'object' || schema.properties ? {} : this.scalar(schema, name);
    if (Array.isArray(schema.allOf)) {
      const parts = schema.allOf.map((part) => this.sample(part as Schema, depth + 1, name));
      return parts.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0];
    }
    const options = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (Array.isArray(options)) {
      const own = schema.properties ? (this.object({ ...schema, oneOf: undefined, anyOf: undefined }, depth, name) as object) : {};
      const chosen = options.find((option) => option.type !== 'null') ?? options[0];
      const value = this.sample(chosen, depth + 1, name);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...own, ...value } : value;
    }
    if (schema.type === 'array') return depth > 10 ? [] : [this.sample(schema.items as Schema, depth + 1, name)];
    if (schema.type === 'object' || schema.properties || schema.additionalProperties) return this.object(schema, depth, name);
    return this.scalar(schema, name);
  }

  private object(schema: Schema, depth: number, name: string): Record<string, unknown> {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set((schema.required ?? []) as string[]);
    const out: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(properties)) {
      if (this.shape === 'minimal' && !required.has(key)) continue;
      out[key] = this.sample(property, depth + 1, key);
    }
    if (this.shape !== 'minimal') out[`xFuture${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`] = { note: 'a property this docsctl does not know' };
    return out;
  }

  private scalar(schema: Schema, name: string): unknown {
    if (Array.isArray(schema.enum)) return this.shape === 'unknown-enums' ? `future-${name}` : schema.enum[0];
    if (schema.const !== undefined) return this.shape === 'unknown-enums' ? `future-${name}` : schema.const;
    const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') as string) : (schema.type as string | undefined);
    if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
    if (type === 'boolean') return true;
    if (schema.format === 'date-time') return '2026-01-02T03:04:05.000Z';
    if (schema.format === 'uri' || /url$/i.test(name)) return `https://example.com/${name}`;
    if (schema.format === 'email' || /email/i.test(name)) return 'ada@example.com';
    return `${name}-1`;
  }
}

export interface TodaysApi {
  url: string;
  /** The shape generated answers take from now on. */
  use(shape: Shape): void;
  /** A fixed answer for an operation (until `reset`). */
  override(operationId: string, body: unknown): void;
  /** Paths that answer 404 `not found` as a missing object would (e.g. `/v1/spaces/missing`). */
  missing: Set<string>;
  reset(): void;
  /** Answers the server generated, by operation id (the last one). */
  answered: Map<string, unknown>;
  close(): Promise<void>;
}

export async function startTodaysApi(): Promise<TodaysApi> {
  const document = loadDocument();
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (typeof operation !== 'object' || operation === null || typeof operation.operationId !== 'string') continue;
      const responses = (operation.responses ?? {}) as Record<string, Schema>;
      const ok = responses['200'] ?? responses['201'];
      const content = ok?.content as Record<string, { schema?: Schema }> | undefined;
      const pattern = new RegExp(`^/v1${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      operations.push({ id: operation.operationId, method: method.toUpperCase(), pattern, success: content?.['application/json']?.schema });
    }
  }
  // Literal segments before parameters: /sites/{siteId}/published must not be read as /sites/{siteId}/{x}.
  operations.sort((a, b) => b.pattern.source.replace(/\[\^\/\]\+/g, '').length - a.pattern.source.replace(/\[\^\/\]\+/g, '').length);
  let shape: Shape = 'full';
  const overrides = new Map<string, unknown>();
  const answered = new Map<string, unknown>();
  const missing = new Set<string>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const send = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    request.resume();
    request.on('end', () => {
      const operation = operations.find((op) => op.method === request.method && op.pattern.test(url.pathname));
      if (!operation) return send(404, { error: { code: 404, message: 'Not found' } });
      if (missing.has(url.pathname)) return send(404, { error: { code: 404, message: 'Not found' } });
      if (request.method !== 'GET') return send(405, { error: { code: 405, message: 'Method not allowed in this test server' } });
      let body = overrides.has(operation.id) ? overrides.get(operation.id) : new Sampler(document.components.schemas, shape).sample(operation.success);
      // One page: a list answers without a next page, so --all ends.
      if (typeof body === 'object' && body !== null && 'next' in body) body = { ...(body as object), next: undefined };
      answered.set(operation.id, body);
      send(200, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    use: (next) => {
      shape = next;
    },
    override: (id, body) => overrides.set(id, body),
    missing,
    reset: () => {
      overrides.clear();
      missing.clear();
      shape = 'full';
    },
    answered,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
