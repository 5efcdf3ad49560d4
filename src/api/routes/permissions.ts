/**
 * Permissions of users and teams on spaces, collections and sites (0.202's
 * space-permissions, collection-permissions, site-permissions and site-users tags):
 * eight operations of one shape per kind of object, declared once here by
 * `permissionRoutes` and exported under their operation ids. What a grant does to
 * access is src/domain/grants.ts; the handlers are src/domain/object-permissions.ts.
 *
 * Who may call them: listing grants and who has access needs `read` on the object;
 * granting, changing and removing needs what manages the object (`create` on a space
 * or collection, whose `permissions.admin` it is; `admin` on a site, as every site
 * setting), always the caller's effective role there.
 */
import * as z from 'zod';
import { type MemberRoleName, defineRoute } from '../route.js';
import { MemberRole, MemberRoleOrGuest, paginationQuery, pathParams } from '../schemas/common.js';

const Principals = z.array(z.string().min(1)).min(1);

/** InviteUsersAndTeams / InviteSiteUsersAndTeams: a role for some users and/or teams (at least one of the two lists). */
const invite = z
  .object({
    role: MemberRoleOrGuest.describe('role to grant'),
    users: Principals.optional().describe('user ids or e-mails'),
    teams: Principals.optional().describe('team ids'),
  })
  .refine((body) => body.users !== undefined || body.teams !== undefined, { message: 'give users or teams (or both)', path: ['users'] });

const listQuery = z.object(paginationQuery);
const aggregateQuery = z.object({ ...paginationQuery, role: MemberRole.optional() });
const siteAggregateQuery = z.object({
  ...paginationQuery,
  role: z.union([MemberRole, z.literal('guest')]).optional(),
  search: z.string().optional(),
  team: z.string().optional(),
  order: z.enum(['asc', 'desc']).optional(),
  sort: z.enum(['joinedAt', 'lastSeenAt', 'name']).optional(),
});

interface Kind<K extends string, N extends string, Q extends z.ZodType, B extends z.ZodType> {
  /** `space`: the command group and the word in messages. */
  kind: K;
  /** `Space`: the word in operation ids. */
  noun: N;
  /** The permissions path, e.g. `/v1/spaces/{spaceId}/permissions`. */
  base: string;
  manage: MemberRoleName;
  aggregate: Q;
  /** The PATCH body: a role, nullable on spaces and collections (null removes the grant). */
  role: B;
  /** An id in the examples. */
  example: string;
}

/** What the declarations of one kind of object share. */
function kindOf<K extends string, N extends string, const P extends string, Q extends z.ZodType, B extends z.ZodType>(
  k: Kind<K, N, Q, B> & { /** Its path parameters, the object's last. */ params: readonly P[] },
) {
  const { kind, example } = k;
  return {
    ...k,
    object: k.params[k.params.length - 1] as string,
    of: `a ${kind}`,
    // Typed by hand: inferred inside this generic function, zod would widen the keys to `string`.
    params: <X extends string = never>(...more: X[]) => pathParams<string>(...k.params, ...more) as unknown as z.ZodObject<{ [Key in P | X]: z.ZodString }>,
    declare: <Id extends string>(id: Id) => ({ id, source: 'real-api' as const }),
    // A null role removes a space or collection grant; on a site it means "no access here".
    roleFlag: { description: 'role to grant', required: true as const, ...(kind === 'site' ? {} : { nullAs: 'none' }) },
    nullNote: kind === 'site' ? '' : ' (none: remove the grant)',
    cmd: (verb: string) => `${kind} permission ${verb}`,
    ex: (rest: string) => `docsctl ${kind} permission ${rest.replace('OBJ', example)}`,
  };
}

type KindOf<K extends string, N extends string, P extends string, Q extends z.ZodType, B extends z.ZodType> = ReturnType<typeof kindOf<K, N, P, Q, B>>;

/** Who is granted what, and who has access. */
function listRoutes<K extends string, N extends string, P extends string, Q extends z.ZodType, B extends z.ZodType>(k: KindOf<K, N, P, Q, B>) {
  const { declare, noun, base, of, params, cmd, ex } = k;
  return {
    users: defineRoute({
      ...declare(`listUserPermissionsIn${noun}`),
      method: 'GET',
      path: `${base}/users`,
      summary: `List the users granted a role on ${of}`,
      access: 'read',
      params: params(),
      query: listQuery,
      paginated: true,
      cli: {
        command: cmd('list'),
        summary: `List the users granted a role on ${of} (their grants, not everyone who has access: see \`${cmd('who')}\`)`,
        aliases: ['ls'],
        columns: 'userPermission',
        noun: 'user permission',
        examples: [ex('list OBJ'), ex('list OBJ --json')],
      },
    }),
    teams: defineRoute({
      ...declare(`listTeamPermissionsIn${noun}`),
      method: 'GET',
      path: `${base}/teams`,
      summary: `List the teams granted a role on ${of}`,
      access: 'read',
      params: params(),
      query: listQuery,
      paginated: true,
      cli: { command: cmd('teams'), columns: 'teamPermission', noun: 'team permission', examples: [ex('teams OBJ')] },
    }),
    aggregate: defineRoute({
      ...declare(`listPermissionsAggregateIn${noun}`),
      method: 'GET',
      path: `${base}/aggregate`,
      summary: `List everyone who has access to ${of}, with their role and where it comes from`,
      access: 'read',
      params: params(),
      query: k.aggregate,
      paginated: true,
      cli: {
        command: cmd('who'),
        summary: `List everyone who has access to ${of}: their effective role and where it comes from (organization role, a grant to them or their team, a collection, general access)`,
        flags: { role: { description: 'only people with this effective role' } },
        columns: 'accessAggregate',
        noun: 'user',
        examples: [ex('who OBJ'), ex('who OBJ --role edit --format ids')],
      },
    }),
  };
}

/** Granting and changing roles. */
function grantRoutes<K extends string, N extends string, P extends string, Q extends z.ZodType, B extends z.ZodType>(k: KindOf<K, N, P, Q, B>) {
  const { declare, noun, base, manage, object, of, params, roleFlag, nullNote, cmd, ex } = k;
  return {
    invite: defineRoute({
      ...declare(`inviteTo${noun}`),
      method: 'POST',
      path: base,
      summary: `Invite users or teams to ${of}`,
      access: manage,
      params: params(),
      query: z.object({}),
      body: invite,
      bodyRequired: true,
      success: 204,
      cli: {
        command: cmd('add'),
        summary: `Grant a role on ${of} to users (ids or e-mails) and teams`,
        args: [object, { name: 'users', variadic: { to: 'body.users', optional: true }, description: 'user ids or e-mails' }],
        flags: { role: { ...roleFlag, nullAs: 'none' }, teams: { flag: '--teams <teams>', description: 'comma-separated team ids' } },
        columns: 'userPermission',
        examples: [ex('add OBJ ada@acme.io --role edit'), ex('add OBJ --teams t3am1d --role review')],
      },
    }),
    updateUser: defineRoute({
      ...declare(`updateUserPermissionIn${noun}`),
      method: 'PATCH',
      path: `${base}/users/{userId}`,
      summary: `Change a user's role on ${of}`,
      access: manage,
      params: params('userId'),
      query: z.object({}),
      body: k.role,
      bodyRequired: true,
      success: 204,
      cli: {
        command: cmd('update'),
        summary: `Change a user's granted role on ${of}${nullNote}`,
        flags: { role: roleFlag },
        columns: 'userPermission',
        examples: [ex('update OBJ ada@acme.io --role comment')],
      },
    }),
    updateTeam: defineRoute({
      ...declare(`updateTeamPermissionIn${noun}`),
      method: 'PATCH',
      path: `${base}/teams/{teamId}`,
      summary: `Change a team's role on ${of}`,
      access: manage,
      params: params('teamId'),
      query: z.object({}),
      body: k.role,
      bodyRequired: true,
      success: 204,
      cli: {
        command: cmd('update-team'),
        summary: `Change a team's granted role on ${of}${nullNote}`,
        flags: { role: roleFlag },
        columns: 'teamPermission',
        examples: [ex('update-team OBJ t3am1d --role edit')],
      },
    }),
  };
}

/** Taking grants away. */
function removeRoutes<K extends string, N extends string, P extends string, Q extends z.ZodType, B extends z.ZodType>(k: KindOf<K, N, P, Q, B>) {
  const { declare, kind, noun, base, manage, object, of, params, cmd, ex } = k;
  return {
    removeUser: defineRoute({
      ...declare(`removeUserFrom${noun}`),
      method: 'DELETE',
      path: `${base}/users/{userId}`,
      summary: `Remove a user's grant on ${of}`,
      access: manage,
      params: params('userId'),
      query: z.object({}),
      cli: {
        command: cmd('remove'),
        summary: `Remove a user's grant on ${of} (they keep what their organization role, teams and collections give)`,
        aliases: ['rm'],
        confirm: `Remove the grant of user {userId} on ${kind} {${object}}?`,
        columns: 'userPermission',
        noun: 'user permission',
        examples: [ex('remove OBJ ada@acme.io --yes')],
      },
    }),
    removeTeam: defineRoute({
      ...declare(`removeTeamFrom${noun}`),
      method: 'DELETE',
      path: `${base}/teams/{teamId}`,
      summary: `Remove a team's grant on ${of}`,
      access: manage,
      params: params('teamId'),
      query: z.object({}),
      cli: {
        command: cmd('remove-team'),
        confirm: `Remove the grant of team {teamId} on ${kind} {${object}}?`,
        columns: 'teamPermission',
        noun: 'team permission',
        examples: [ex('remove-team OBJ t3am1d --yes')],
      },
    }),
  };
}

/** The eight operations of one kind of object. */
function permissionRoutes<K extends string, N extends string, const P extends string, Q extends z.ZodType, B extends z.ZodType>(
  k: Kind<K, N, Q, B> & { params: readonly P[] },
) {
  const shared = kindOf(k);
  return { ...listRoutes<K, N, P, Q, B>(shared), ...grantRoutes<K, N, P, Q, B>(shared), ...removeRoutes<K, N, P, Q, B>(shared) };
}

const contentRole = z.object({ role: MemberRoleOrGuest });

const space = permissionRoutes({
  kind: 'space',
  noun: 'Space',
  base: '/v1/spaces/{spaceId}/permissions',
  params: ['spaceId'],
  manage: 'create',
  aggregate: aggregateQuery,
  role: contentRole,
  example: 'sp4c3',
});

const collection = permissionRoutes({
  kind: 'collection',
  noun: 'Collection',
  base: '/v1/collections/{collectionId}/permissions',
  params: ['collectionId'],
  manage: 'create',
  aggregate: aggregateQuery,
  role: contentRole,
  example: 'c0ll3ct10n',
});

const site = permissionRoutes({
  kind: 'site',
  noun: 'Site',
  base: '/v1/orgs/{organizationId}/sites/{siteId}/permissions',
  params: ['organizationId', 'siteId'],
  manage: 'admin',
  aggregate: siteAggregateQuery,
  role: z.object({ role: MemberRole }),
  example: 's1t3',
});

export const inviteToSpace = space.invite;
export const listUserPermissionsInSpace = space.users;
export const listTeamPermissionsInSpace = space.teams;
export const listPermissionsAggregateInSpace = space.aggregate;
export const updateUserPermissionInSpace = space.updateUser;
export const updateTeamPermissionInSpace = space.updateTeam;
export const removeUserFromSpace = space.removeUser;
export const removeTeamFromSpace = space.removeTeam;

export const inviteToCollection = collection.invite;
export const listUserPermissionsInCollection = collection.users;
export const listTeamPermissionsInCollection = collection.teams;
export const listPermissionsAggregateInCollection = collection.aggregate;
export const updateUserPermissionInCollection = collection.updateUser;
export const updateTeamPermissionInCollection = collection.updateTeam;
export const removeUserFromCollection = collection.removeUser;
export const removeTeamFromCollection = collection.removeTeam;

export const inviteToSite = site.invite;
export const listUserPermissionsInSite = site.users;
export const listTeamPermissionsInSite = site.teams;
export const listPermissionsAggregateInSite = site.aggregate;
export const updateUserPermissionInSite = site.updateUser;
export const updateTeamPermissionInSite = site.updateTeam;
export const removeUserFromSite = site.removeUser;
export const removeTeamFromSite = site.removeTeam;
