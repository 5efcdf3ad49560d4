/**
 * What a command's object is now, read through the API before or instead of a
 * change: to tell that a change would change nothing (as `kubectl apply` says
 * "unchanged"), to print the object a re-run command would have printed, and to
 * name it (its title) in a confirmation.
 *
 * The read is derived from the route table: the GET route with the command's
 * route path (`PATCH /v1/spaces/{spaceId}` → `GET /v1/spaces/{spaceId}`), or, for an
 * action on an object (`POST …/{spaceId}/move`, `…/{groupId}/sections`), the GET of
 * the object's path. No read route: nothing is read, the change is sent as it is.
 */
import { manifest } from '../api/manifest.js';
import type { RouteInfo } from '../api/manifest.js';
import { routeInfo } from '../api/catalog.js';
import { pathParamNames } from '../api/route.js';
import type { RouteId } from '../api/route-id.js';
import type { RawInput } from '../api/validate.js';
import type { Transport } from '../transport/types.js';

let gets: Map<string, RouteInfo> | undefined;

/** The GET route that reads the object `routeId` acts on, if the table has one. */
export function readRouteOf(routeId: RouteId): RouteInfo | undefined {
  gets ??= new Map(manifest.filter((info) => info.method === 'GET').map((info) => [info.path, info]));
  const route = routeInfo(routeId);
  if (route.method === 'GET') return route;
  const same = gets.get(route.path);
  // A write to a list's path adds to the list (a create, an install): it acts on no existing object,
  // and its parent's read (the next rule) would answer a different object.
  if (same) return same.paginated ? undefined : same;
  // An action on an object: the path of the object is the route's path up to its last parameter.
  const object = /^(.*\})\/[^{}]+$/.exec(route.path)?.[1];
  const read = object === undefined ? undefined : gets.get(object);
  return read && !read.paginated ? read : undefined;
}

/**
 * The object `routeId` would act on, as its read route answers it now; undefined when
 * there is no read route or the read fails (the change then runs and reports what it
 * finds, e.g. 404).
 */
export async function readCurrent(transport: Transport, routeId: RouteId, input: RawInput): Promise<unknown> {
  const read = readRouteOf(routeId);
  if (!read) return undefined;
  const given = (input.params ?? {}) as Record<string, unknown>;
  const params: Record<string, string> = {};
  for (const name of pathParamNames(read.path)) {
    if (typeof given[name] !== 'string') return undefined;
    params[name] = given[name] as string;
  }
  try {
    return (await transport.request(read.id, { params, query: {} })).body;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
  }
  return false;
}

/**
 * A partial update (PATCH) `body` would leave `current` as it is: every field it sets
 * already has that value (objects compared field by field, as a merge patch applies
 * them; `null` matches an absent field). A field the object does not show counts as a
 * change, so in doubt the change is sent.
 */
export function patchChangesNothing(current: unknown, body: unknown): boolean {
  if (!isRecord(current) || !isRecord(body) || Object.keys(body).length === 0) return false;
  return Object.entries(body).every(([key, value]) => {
    const now = current[key];
    if (value === null) return now === undefined || now === null;
    if (isRecord(value) && isRecord(now)) return patchChangesNothing(now, value);
    return now !== undefined && deepEqual(now, value);
  });
}
