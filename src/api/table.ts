/**
 * The route table: every operation docsctl knows, gathered from `routes/*.ts`.
 *
 * Adding a route: declare it with `defineRoute` in the module of its area, and
 * it is picked up here (every exported RouteDef of the modules route-modules.ts lists).
 */
import { PathMatcher } from './match.js';
import type { AnyRoute, HttpMethod } from './route.js';
import type { RouteId } from './route-id.js';
import { declaredRouteModule, withoutReplaced } from './routes/declared.js';
import { handWrittenModules } from './route-modules.js';

export { handWrittenModules } from './route-modules.js';

function isRoute(value: unknown): value is AnyRoute {
  return typeof value === 'object' && value !== null && 'id' in value && 'method' in value && 'path' in value;
}

const handWrittenRoutes = Object.values(handWrittenModules).flatMap((mod) => Object.values(mod).filter(isRoute));

/**
 * Every route module by name. The name is what the catalog (`manifest.ts`) records
 * so a command can load only the module of the route it calls. `declared` holds the
 * real API's other operations (501 until implemented), minus those a hand-written
 * module now declares.
 */
export const routeModules = {
  ...handWrittenModules,
  declared: withoutReplaced(declaredRouteModule, handWrittenRoutes),
} as const;

/**
 * A route of the table. Hand-written routes have one of the compile-time `RouteId`s; the
 * declared ones (data, 501 until implemented) are never called by id from code.
 */
export type TableRoute = AnyRoute & { readonly id: RouteId };

export const routes: readonly TableRoute[] = Object.values(routeModules).flatMap((mod) =>
  Object.values(mod).filter((value): value is TableRoute => isRoute(value)),
);

export const routesById: ReadonlyMap<string, TableRoute> = new Map(routes.map((route) => [route.id, route]));

export function getRoute(id: RouteId): TableRoute {
  const route = routesById.get(id);
  if (!route) throw new Error(`unknown route id ${id}`);
  return route;
}

let matcher: PathMatcher<TableRoute> | undefined;

export interface RouteMatch {
  route: TableRoute;
  params: Record<string, string>;
}

/** The route for a method and a path (without query string), or undefined. */
export function matchRoute(method: string, pathname: string): RouteMatch | undefined {
  matcher ??= new PathMatcher(routes);
  const found = matcher.match(method, pathname);
  return found ? { route: found.item, params: found.params } : undefined;
}

/** The methods any route accepts for a path (for 405 answers). */
export function methodsForPath(pathname: string): HttpMethod[] {
  matcher ??= new PathMatcher(routes);
  return matcher.methodsFor(pathname);
}
