/**
 * Route ids are checked by the compiler: a misspelt id in a command, a handler
 * map or a transport call is a type error (the `@ts-expect-error` lines below
 * fail `npm run typecheck` the day `RouteId` widens to `string`).
 */
import { describe, expect, it } from 'vitest';
import { asRouteId, routeInfo } from '../../src/api/catalog.js';
import type { RouteId } from '../../src/api/route-id.js';
import { getRoute, routes } from '../../src/api/table.js';
import type { Transport } from '../../src/transport/types.js';

describe('RouteId', () => {
  it('accepts every id of the table and rejects misspelt ones at compile time', () => {
    const good: RouteId = 'getSpaceById';
    // @ts-expect-error a misspelt id is not a RouteId
    const misspelt: RouteId = 'getSpaceByID';
    expect(getRoute(good).path).toBe('/v1/spaces/{spaceId}');
    expect(() => routeInfo(misspelt)).toThrow(/unknown route id getSpaceByID/);
  });

  it('types the transport, so a call with a misspelt id does not compile', () => {
    const send = (transport: Transport) => {
      // @ts-expect-error unknown route
      void transport.request('listSpaceses', {});
      return transport.request('listSpacesInOrganizationById', { params: { organizationId: 'o' } });
    };
    expect(typeof send).toBe('function');
  });

  it('turns run-time strings into ids only when the table has them', () => {
    for (const route of routes) expect(asRouteId(route.id)).toBe(route.id);
    expect(asRouteId('nope')).toBeUndefined();
    expect(asRouteId('toString')).toBeUndefined();
  });
});
