/**
 * The catalog (`src/api/manifest.ts`, generated) is the light copy of the route
 * table the CLI uses at start-up: it must match the table exactly.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asRouteId, loadRoute, matchRouteInfo, routeInfo } from '../../src/api/catalog.js';
import type { RouteId } from '../../src/api/route-id.js';
import { manifest } from '../../src/api/manifest.js';
import { routes } from '../../src/api/table.js';
import { areaLoaders } from '../../src/domain/handler-registry.js';
// @ts-expect-error: a plain .mjs build script without types
import { renderManifest } from '../../scripts/gen-manifest.mjs';

describe('route catalog', () => {
  it('is up to date with src/api/routes (run "npm run build" to regenerate)', async () => {
    const committed = readFileSync(new URL('../../src/api/manifest.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await (renderManifest as () => Promise<string>)());
  });

  it('lists every route of the table with the same method, path, success and pagination', () => {
    expect(manifest.map((r) => r.id).sort()).toEqual(routes.map((r) => r.id).sort());
    for (const route of routes) {
      const info = routeInfo(route.id);
      expect({ method: info.method, path: info.path, success: info.success, paginated: info.paginated }).toEqual({
        method: route.method,
        path: route.path,
        success: route.success,
        paginated: route.paginated,
      });
    }
  });

  it('loads the same route object as the table, from its module alone', async () => {
    for (const route of routes) expect(await loadRoute(route.id)).toBe(route);
  });

  it('matches paths like the table does', () => {
    expect(matchRouteInfo('GET', '/v1/spaces/abc')).toMatchObject({ item: { id: 'getSpaceById' }, params: { spaceId: 'abc' } });
    expect(matchRouteInfo('POST', '/v1/spaces/abc/move')?.item.id).toBe('moveSpace');
    expect(matchRouteInfo('GET', '/v1/nothing')).toBeUndefined();
  });
});

describe('handler registry', () => {
  it('finds every handler of an area through the route module its routes belong to', async () => {
    for (const [module, load] of Object.entries(areaLoaders)) {
      const handlers = await (load as () => Promise<Record<string, unknown>>)();
      for (const id of Object.keys(handlers)) {
        const routeId = asRouteId(id);
        expect(routeId, `handler ${id} of area ${module} names a route`).toBeDefined();
        const info = routeInfo(routeId as RouteId);
        // A handler is only reachable when its route's module maps to this same loader.
        expect(areaLoaders[info.module], `${id} (module ${info.module}) from area ${module}`).toBe(load);
      }
    }
  });
});

describe('route modules', () => {
  it('export each route under its id (domain modules refer to routes by these names)', async () => {
    const { routeModules } = await import('../../src/api/table.js');
    for (const [module, exports] of Object.entries(routeModules)) {
      for (const [name, value] of Object.entries(exports as Record<string, unknown>)) {
        if (typeof value === 'object' && value !== null && 'id' in value) expect((value as { id: string }).id, `${module}.${name}`).toBe(name);
      }
    }
  });

  it('mark as plain only GETs whose validation of an empty query and non-empty params changes nothing', () => {
    for (const route of routes) {
      if (!routeInfo(route.id).plainGet) continue;
      expect(route.method).toBe('GET');
      const params = Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1] as string, 'some id']));
      expect(route.params.parse(params)).toEqual(params);
      expect(route.query.parse({})).toEqual({});
    }
  });
});
