/**
 * `RouteId`: the union of every operation id in the route table, derived from the
 * route modules' types, so a misspelt id in a command, a handler map or a
 * `transport.request(...)` call fails at compile time. Adding a route stays a
 * one-place edit: the exported constant (named after its id, which
 * test/api/routes.test.ts checks) is the new member of the union.
 *
 * Type-only: importing this never loads the route table.
 */
import type { AnyRoute } from './route.js';
import type { DeclaredRouteId } from './routes/declared-ops.js';
import type { handWrittenModules } from './route-modules.js';

type Modules = typeof handWrittenModules;

/** The names of a module's exports that are routes. */
type RouteExports<M> = { [K in keyof M]: M[K] extends AnyRoute ? K : never }[keyof M];

/** The hand-written routes' ids, plus the real API's other operations (declared, answering 501). */
export type RouteId = ({ [N in keyof Modules]: RouteExports<Modules[N]> }[keyof Modules] & string) | DeclaredRouteId;

