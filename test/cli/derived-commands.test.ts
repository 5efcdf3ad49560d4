/**
 * Commands derived from the route table (src/api/route.ts `cli`, scripts/gen-commands.mjs):
 * what the CLI offers cannot drift from what the route takes. Every command's flags fill
 * fields its route has, its `choices` are exactly the field's enum (derived or not), its
 * columns exist; the generated files are current; and a declaration that names a field the
 * route does not have, or no columns, fails the build with a message naming the route.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { loadRoute } from '../../src/api/catalog.js';
import { defineRoute } from '../../src/api/route.js';
import type { RouteId } from '../../src/api/route-id.js';
import { lightQueryParams, listQuery, noQuery, pathParams } from '../../src/api/schemas/common.js';
import { loadCommandModules } from '../../src/cli/commands/index.js';
import { columns } from '../../src/output/columns.js';
// @ts-expect-error: a plain .mjs build script without types
import { deriveCommand, renderCommands } from '../../scripts/gen-commands.mjs';

type Def = { type: string; innerType?: z.ZodType; entries?: Record<string, unknown>; values?: unknown[]; options?: z.ZodType[]; shape?: Record<string, z.ZodType>; in?: z.ZodType };
const def = (schema: z.ZodType | undefined) => (schema as unknown as { _zod?: { def: Def } } | undefined)?._zod?.def;

function unwrap(schema: z.ZodType): z.ZodType {
  const d = def(schema);
  return d?.innerType && ['optional', 'nullable', 'default', 'prefault', 'readonly'].includes(d.type) ? unwrap(d.innerType) : schema;
}

/** The string values a field accepts when it is an enum (or literals, or a union of them); undefined otherwise. */
function enumOf(schema: z.ZodType): string[] | undefined {
  const d = def(unwrap(schema));
  if (d?.type === 'enum') return Object.values(d.entries ?? {}) as string[];
  if (d?.type === 'literal') return d.values as string[];
  if (d?.type === 'union') {
    const parts = (d.options ?? []).map(enumOf);
    return parts.every(Boolean) ? [...new Set(parts.flat() as string[])] : undefined;
  }
  return undefined;
}

const shape = (schema: z.ZodType | undefined) => def(schema && unwrap(schema))?.shape ?? {};

const specs = (await loadCommandModules()).flatMap((module) => module.specs);

/**
 * Hand-written commands not yet derived whose choices differ from their route's field
 * (found by this test): each goes when its area is derived. Nothing may join this list.
 */
const NOT_YET_DERIVED = new Set([
  'space links --broken',
  'site list --published <bool>',
  'site edit --agents-context <mode>',
  'site space list --default <bool>',
  'integration list --category <category>',
  'integration list --scope <scope>',
  'integration list --target <target>',
]);

describe('every data-declared command', () => {
  it('has columns that exist', () => {
    expect(specs.length).toBeGreaterThan(150);
    expect(specs.filter((spec) => !(spec.columns in columns)).map((spec) => spec.command)).toEqual([]);
  });

  it("fills only fields its route has, and offers exactly the field's enum as choices", async () => {
    const wrong: string[] = [];
    for (const spec of specs) {
      const routeIds: RouteId[] = typeof spec.route === 'string' ? [spec.route] : [];
      for (const id of routeIds) {
        const route = await loadRoute(id);
        const paths = new Set(route.path.match(/\{\w+\}/g)?.map((p) => p.slice(1, -1)));
        for (const flag of spec.flags ?? []) {
          if (!flag.to) continue;
          const [area, name = ''] = flag.to.split('.');
          if (area === 'params') {
            if (!paths.has(name)) wrong.push(`${spec.command} ${flag.flags}: ${route.id} has no path parameter ${name}`);
            continue;
          }
          const field = shape(area === 'query' ? route.query : route.body)[name];
          if (!field) {
            wrong.push(`${spec.command} ${flag.flags}: ${route.id} has no ${flag.to}`);
            continue;
          }
          if (flag.type === 'list' || flag.type === 'json' || flag.to.split('.').length > 2) continue;
          if (NOT_YET_DERIVED.has(`${spec.command} ${flag.flags}`)) continue;
          const values = enumOf(field);
          // A nullable field's null has a name on the command line (`--role guest`).
          const expected = values && flag.nullAs ? [...values, flag.nullAs] : values;
          if (JSON.stringify(flag.choices) !== JSON.stringify(expected)) {
            wrong.push(`${spec.command} ${flag.flags}: choices ${JSON.stringify(flag.choices)}, ${route.id} ${flag.to} takes ${JSON.stringify(expected)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the derivation (scripts/gen-commands.mjs)', () => {
  it('wrote src/cli/generated/ from the current route table (run "npm run build" to regenerate)', async () => {
    const files = (await (renderCommands as () => Promise<Map<string, string>>)()) as Map<string, string>;
    for (const [name, text] of files) expect(readFileSync(new URL(`../../src/cli/generated/${name}`, import.meta.url), 'utf8'), name).toBe(text);
  });

  const route = defineRoute({
    id: 'listThings',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/things/{thingId}/parts',
    summary: 'List the parts of a thing',
    source: 'real-api',
    access: 'read',
    params: pathParams('organizationId', 'thingId'),
    query: z.object({ ...listQuery().shape, kind: z.enum(['a', 'b']).optional(), deep: z.boolean().optional(), note: z.string().describe('a note').optional() }),
    paginated: true,
  });
  const derive = (decl: object) => (deriveCommand as (r: unknown, d: object, registry: unknown) => Record<string, unknown>)(route, decl, lightQueryParams);

  it('gives arguments from path parameters, --org, flags from fields with their enums and descriptions, the output from the route', () => {
    expect(derive({ command: 'thing parts', columns: 'page' })).toEqual({
      command: 'thing parts',
      route: 'listThings',
      summary: 'List the parts of a thing',
      args: [{ name: 'thingId', description: 'thing id' }],
      org: true,
      flags: [
        { flags: '--kind <kind>', description: 'kind', to: 'query.kind', choices: ['a', 'b'] },
        { flags: '--deep', description: 'deep', to: 'query.deep', type: 'boolean' },
        { flags: '--note <note>', description: 'a note', to: 'query.note' },
      ],
      output: 'list',
      columns: 'page',
    });
  });

  it('applies what the declaration says differs: order, names, descriptions, hidden fields', () => {
    const spec = derive({ command: 'thing parts', columns: 'page', flags: { note: false, deep: { flag: '--no-deep', description: 'shallow' }, kind: { required: true } } });
    expect(spec.flags).toEqual([
      { flags: '--no-deep', description: 'shallow', to: 'query.deep', type: 'boolean' },
      { flags: '--kind <kind>', description: 'kind', to: 'query.kind', choices: ['a', 'b'], required: true },
    ]);
  });

  it('refuses a declaration naming a field the route does not have, or an unknown argument, naming the route', () => {
    expect(() => derive({ command: 'thing parts', columns: 'page', flags: { colour: 'x' } })).toThrow(/listThings \(thing parts\): flags names "colour"/);
    expect(() => derive({ command: 'thing parts', columns: 'page', args: ['partId'] })).toThrow(/listThings \(thing parts\): argument partId/);
    const noQueryRoute = { ...route, query: noQuery() };
    expect(() => (deriveCommand as (r: unknown, d: object, g: unknown) => unknown)(noQueryRoute, { command: 'x y', columns: 'page', args: [] }, lightQueryParams)).toThrow(/path parameter thingId is neither/);
  });
});
