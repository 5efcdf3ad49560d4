/**
 * Who may call each operation: the role declared with its route (`access` in
 * src/api/routes/*.ts, carried by the generated catalog), checked by
 * `executeOperation` for every route before its input is validated or its handler
 * runs (so a denied call changes nothing and learns nothing from validation errors).
 *
 * - The object a route acts on is found from its path parameters, most specific
 *   first (`scopes`): a space, a collection, else the organization (and its site,
 *   `{siteId}`). The caller's role is their effective role on that object: grants on
 *   it and its parent collections, its `defaultLevel`, else their organization role
 *   (src/domain/grants.ts).
 * - A caller who is not an (enabled) member of that organization gets 404 for the
 *   object, as if it did not exist (ids of other organizations do not leak); a
 *   DELETE is left to its handler, which answers 204 "nothing to delete".
 * - A member whose role is below the route's gets 403 naming the role needed.
 * - `owner` (the store's owner: `meta.store.owner`) is about no organization: anyone else
 *   gets 403, or with `or: 'self'` passes when the `{userId}` the path names is the caller.
 * - When the object does not exist, the handler answers its own 404.
 *
 * The handler receives what was resolved (`ctx.access`: caller, organization, role)
 * and does not check the declared role again; it keeps the checks that depend on
 * data (the author or an admin, the last admin, a transfer's target organization),
 * named as such.
 *
 * A route acting on a new kind of object reachable without `{organizationId}` in its
 * path adds a line to `scopes`.
 */
import { forbidden, notFound } from '../api/errors.js';
import type { RouteAccess } from '../api/route.js';
import type { StoreReader } from '../store/types.js';
import { atLeast, collectionRoleOf, requireRole, roleIn, siteRoleOf, spaceRoleOf } from './permissions.js';
import { type DefaultLevel, type MemberRole, type Role, getCollection, getMeta, getOrg, getSpace, userIdByEmail } from './core-records.js';
import { getTeam, teamMembers } from './teams-records.js';

/**
 * `none`: not about an organization (the caller's own user and organizations).
 * `guest`: any member of the object's organization, guests included.
 * A role: that role or higher (admin > create > edit > review > comment > read).
 */
export type Need = 'none' | 'guest' | 'owner' | MemberRole;

export interface Access {
  role: Need;
  /** Also allowed below `role`: the team's owner (`{teamId}`), or the user named by `{userId}` themselves. */
  or?: 'teamOwner' | 'self';
}

/** A route's declared access as `{ role, or? }`. */
export function accessOf(declared: RouteAccess): Access {
  return typeof declared === 'string' ? { role: declared } : { role: declared.role, or: declared.or };
}

/** What the access check found, handed to the handler as `ctx.access`. */
export interface ResolvedAccess {
  /** The caller. */
  readonly userId: string;
  /** The organization of the object the path names, when the route is about one and it exists. */
  readonly organizationId?: string;
  /** The caller's role there (null: a guest); set with `organizationId`. */
  readonly role?: Role;
}

/** Path parameter → the organization of the object it names (undefined when there is none), most specific first. */
export const scopes: ReadonlyArray<{ param: string; noun: string; organizationOf: (reader: StoreReader, id: string) => string | undefined }> = [
  { param: 'spaceId', noun: 'Space', organizationOf: (reader, id) => getSpace(reader, id)?.organization },
  { param: 'collectionId', noun: 'Collection', organizationOf: (reader, id) => getCollection(reader, id)?.organization },
  // Git Sync installations (`/git/installations/{installationId}`): their organization is on their row (domain/git/installations.ts).
  {
    param: 'installationId',
    noun: 'Git Sync installation',
    organizationOf: (reader, id) => (id.includes('/') ? undefined : reader.get<{ organization: string }>('gitInstallations', id)?.organization),
  },
  // Custom hostnames (`/custom-hostnames/{hostname}`): the organization of the site that has it (domain/sites/origins.ts).
  {
    param: 'hostname',
    noun: 'Custom hostname',
    organizationOf: (reader, id) => {
      const siteId = reader.get<string>('siteHostnames', id.toLowerCase());
      return siteId === undefined ? undefined : reader.get<{ organization: string }>('sites', siteId)?.organization;
    },
  },
  { param: 'organizationId', noun: 'Organization', organizationOf: (reader, id) => (getOrg(reader, id) ? id : undefined) },
];

/**
 * Throws 404/403 when `userId` may not call the route with these path params; else
 * returns what it resolved. A route without `access` (declared, answering 501) and a
 * route needing `none` resolve the caller only.
 */
export function checkAccess(
  reader: StoreReader,
  route: { id: string; method: string; access?: RouteAccess | undefined },
  params: Readonly<Record<string, unknown>>,
  userId: string,
): ResolvedAccess {
  const routeId = route.id;
  if (route.access === undefined) return { userId };
  const access = accessOf(route.access);
  if (access.role === 'none') return { userId };
  if (access.role === 'owner') {
    if (getMeta(reader)?.owner === userId || (access.or === 'self' && namesCaller(reader, params.userId, userId))) return { userId };
    throw forbidden(
      `Only the store's owner may call ${routeId}${access.or === 'self' ? ' for another user' : ''} (the user "docsctl init" created, or a token of theirs)`,
    );
  }
  for (const scope of scopes) {
    const id = params[scope.param];
    if (typeof id !== 'string') continue;
    const orgId = scope.organizationOf(reader, id);
    if (orgId === undefined) return { userId }; // unknown object: the handler's 404
    const role = effectiveRole(reader, scope.param, id, orgId, params, userId);
    if (role === undefined) {
      // Deleting what one cannot see is "nothing to delete" (204), as the real API answers: the handler says so.
      if (route.method === 'DELETE') return { userId };
      throw notFound(`${scope.noun} ${id} not found`);
    }
    const resolved = { userId, organizationId: orgId, role };
    if (access.role === 'guest' || atLeast(role, access.role) || allowedBelow(reader, access, params, userId, role)) return resolved;
    if (access.or === 'teamOwner') {
      throw forbidden(
        `You need the "${access.role}" role or higher in organization ${orgId}, or the "owner" role in team ${String(params.teamId)}, to call ${routeId} (your role: ${role ?? 'guest'})`,
      );
    }
    if (scope.param !== 'organizationId' || typeof params.siteId === 'string') {
      // The role on the object itself (grants, general access): say where it was read.
      const where = scope.param === 'organizationId' ? `site ${String(params.siteId)}` : `${scope.noun.toLowerCase()} ${id}`;
      if (!atLeast(role, access.role)) throw forbidden(`You need the "${access.role}" role or higher on ${where} to call ${routeId} (your role there: ${role ?? 'none'})`);
    }
    requireRole(role, access.role, orgId, `call ${routeId}${access.or === 'self' ? ' for another member' : ''}`);
    return resolved;
  }
  return { userId };
}

/** The `{userId}` of a path names the caller: their id, or (docsctl's account routes take one) their e-mail. */
function namesCaller(reader: StoreReader, named: unknown, userId: string): boolean {
  if (typeof named !== 'string') return false;
  return named === userId || (named.includes('@') && userIdByEmail(reader, named) === userId);
}

/** The caller's role on the object the scope names: effective on a space, collection or site, else their organization role. */
function effectiveRole(reader: StoreReader, param: string, id: string, orgId: string, params: Readonly<Record<string, unknown>>, userId: string): Role | undefined {
  if (param === 'spaceId') {
    const space = getSpace(reader, id);
    return space ? spaceRoleOf(reader, space, userId) : undefined;
  }
  if (param === 'collectionId') {
    const collection = getCollection(reader, id);
    return collection ? collectionRoleOf(reader, collection, userId) : undefined;
  }
  const siteId = params.siteId;
  const site = param === 'organizationId' && typeof siteId === 'string' ? reader.get<{ id: string; organization: string; defaultLevel?: DefaultLevel }>('sites', siteId) : undefined;
  if (site?.organization === orgId) return siteRoleOf(reader, orgId, site, userId);
  return roleIn(reader, orgId, userId);
}

/** Allowed below the declared role: the user named by `{userId}` themselves, or an owner of the team `{teamId}` who is not a guest. */
function allowedBelow(reader: StoreReader, access: Access, params: Readonly<Record<string, unknown>>, userId: string, role: Role): boolean {
  if (access.or === 'self') return namesCaller(reader, params.userId, userId);
  if (access.or === 'teamOwner' && typeof params.teamId === 'string' && role !== null) {
    const team = getTeam(reader, params.teamId);
    return team !== undefined && teamMembers.get(reader, team.id, userId)?.role === 'owner';
  }
  return false;
}
