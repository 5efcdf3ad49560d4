// Writes src/api/routes/declared-ops.ts: every operation of the real API
// (`@gitbook/api`'s OpenAPI document) that no hand-written route module declares,
// as compact data. `routes/declared.ts` turns it into routes that answer 501 with
// their operation id, so a client calling them never gets "No operation matches".
// A hand-written route with the same id (or method and path) replaces its declared
// twin at load time (table.ts, gen-manifest.mjs), so the data may lag behind: run
// `node scripts/gen-declared.mjs` after adding routes to shrink it, or when the
// @gitbook/api version changes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const normalise = (path) => path.replace(/\{[^}]+\}/g, '{}');

async function handWrittenRoutes() {
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-declared-'));
  try {
    const outfile = join(dir, 'table.mjs');
    await build({ entryPoints: [join(root, 'src/api/table.ts')], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'error' });
    const { routeModules } = await import(pathToFileURL(outfile).href);
    return Object.entries(routeModules)
      .filter(([name]) => name !== 'declared')
      .flatMap(([, mod]) => Object.values(mod).filter((r) => r && typeof r === 'object' && 'id' in r && 'path' in r));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function declaredOperations(spec, known) {
  const resolve = (node) => {
    let current = node;
    for (let guard = 0; current && typeof current.$ref === 'string' && guard < 20; guard++) {
      current = current.$ref.replace(/^#\//, '').split('/').reduce((acc, key) => acc[key], spec);
    }
    return current ?? {};
  };
  const required = (node) => {
    const schema = resolve(node);
    if (Array.isArray(schema.allOf)) return [...new Set(schema.allOf.flatMap(required))];
    const variants = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(variants)) {
      const sets = variants.map(required);
      return (sets[0] ?? []).filter((name) => sets.every((set) => set.includes(name)));
    }
    return Array.isArray(schema.required) ? schema.required : [];
  };
  const properties = (node) => {
    const schema = resolve(node);
    const parts = [schema.allOf, schema.oneOf, schema.anyOf].flatMap((list) => (Array.isArray(list) ? list : []));
    return [...new Set([...Object.keys(schema.properties ?? {}), ...parts.flatMap(properties)])];
  };
  const isList = (operation) => {
    const ok = operation.responses['200'];
    const schema = ok && resolve(ok).content?.['application/json']?.schema;
    if (!schema || !Array.isArray(schema.allOf)) return false;
    return (
      schema.allOf.some((part) => part.$ref === '#/components/schemas/List') &&
      schema.allOf.some((part) => resolve(part).properties?.items?.type === 'array')
    );
  };
  const successOf = (operation) => {
    const codes = Object.keys(operation.responses).filter((code) => code.startsWith('2')).sort().join(',');
    // '200,204' / '201,204': 204 only when the client sends `Prefer: return=minimal`.
    // '202,204,205': 202 when the removal waits for an administrator, else a delete.
    const kind = { 200: 200, 201: 201, 202: 202, 204: 204, 205: 205, '204,205': 'delete', '200,201': 'upsert', '200,204': 200, '201,204': 201, '202,204,205': 'delete' }[codes];
    if (kind === undefined) throw new Error(`${operation.operationId}: no success kind for ${codes}`);
    return kind;
  };
  const summaryOf = (operation) => {
    const text = (operation.summary ?? operation.operationId).split('\n')[0].trim().replace(/\.+$/, '');
    return text.charAt(0).toUpperCase() + text.slice(1);
  };

  const knownIds = new Set(known.map((route) => route.id));
  const knownKeys = new Set(known.map((route) => `${route.method} ${normalise(route.path)}`));
  const rows = [];
  for (const [specPath, pathItem] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      const path = `/v1${specPath}`;
      const verb = method.toUpperCase();
      if (knownIds.has(operation.operationId) || knownKeys.has(`${verb} ${normalise(path)}`)) continue;
      const params = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map(resolve);
      const query = [...new Set(params.filter((p) => p.in === 'query').map((p) => p.name))];
      let body = null;
      if (operation.requestBody) {
        const requestBody = resolve(operation.requestBody);
        const schema = requestBody.content?.['application/json']?.schema;
        if (schema) {
          const fields = required(schema);
          body = { required: requestBody.required === true || fields.length > 0, fields: properties(schema), requiredFields: fields };
        }
      }
      rows.push({ id: operation.operationId, method: verb, path, summary: summaryOf(operation), success: successOf(operation), paginated: isList(operation), query, body });
    }
  }
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}

export async function writeDeclared() {
  const spec = JSON.parse(readFileSync(join(root, 'node_modules/@gitbook/api/spec/openapi.json'), 'utf8'));
  const rows = declaredOperations(spec, await handWrittenRoutes());
  const version = JSON.parse(readFileSync(join(root, 'node_modules/@gitbook/api/package.json'), 'utf8')).version;
  const text = `// AUTO-GENERATED by scripts/gen-declared.mjs from @gitbook/api@${version}'s OpenAPI document. Do not edit.
// The real API's operations that no hand-written route module declares (see routes/declared.ts).
import type { DeclaredOperation } from '../route.js';

/** Their ids: part of \`RouteId\`, so code may name them (they answer 501) but not misspell them. */
export type DeclaredRouteId =
${rows.map((row) => `  | ${JSON.stringify(row.id)}`).join('\n')};

export const declaredOperations: readonly DeclaredOperation[] = [
${rows.map((row) => `  ${JSON.stringify(row)},`).join('\n')}
];
`;
  writeFileSync(join(root, 'src/api/routes/declared-ops.ts'), text);
  return rows.length;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) console.log(`${await writeDeclared()} declared operations`);
