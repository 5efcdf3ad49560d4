/**
 * The permission operations of spaces, collections and sites (routes/permissions.ts):
 * grants to users and teams, and who has access. What a grant does to access is
 * src/domain/grants.ts.
 *
 * Rules:
 * - Users are given by id or e-mail and must be members of the object's organization
 *   (guests included: a grant is how a guest reaches content); teams must be teams
 *   of that organization. Anything else fails the whole request (404 listing what
 *   was not found) and nothing is written.
 * - Nobody grants, changes or removes a role above their own effective role on the
 *   object (403 naming both): a `create` member cannot make someone an `admin` of a
 *   space. Organization admins are admins everywhere, so no grant can lock the last
 *   of them out, and removing one's own grant only gives back what the organization
 *   role, teams and collections give.
 * - On a space or collection a role of `null` removes the grant (its lists show
 *   roles only); on a site it is stored and means "no access to this site".
 * - Listings read the object's grant rows, a page at a time; the aggregate reads the
 *   organization's members a page at a time and resolves each one's effective role.
 */
import { forbidden, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/permissions.js';
import type { StoreReader } from '../store/types.js';
import type { HandlerContext } from './handler.js';
import { deleted, implementer, nothingToDelete } from './handler.js';
import {
  type Effective,
  type GrantKind,
  GrantReader,
  type Origin,
  type Principal,
  contentGrants,
  contentRole,
  getGrant,
  grantOwner,
  putGrant,
  removeGrant,
  siteRole,
} from './grants.js';
import { activeSpaceAccess, collectionAccess, rank, roleIn } from './permissions.js';
import { type MemberListRow, type MemberRecord, type MemberRole, type Role, getMember, getUser, listedMember, orgMemberList, userIdByEmail } from './core-records.js';
import { type ListPage, type PageQuery, itemsOf, paginate, rowsOf } from './pagination.js';
import { resolveMembers } from './teams.js';
import { getTeam, memberTeams, memberTeamsOwner, teamView } from './teams-records.js';
import { shownUserView } from './views.js';
import { siteAccess } from './sites/access.js';

const on = implementer<typeof routes>();

/** The object a permission operation is about: its kind, id, organization and the caller's effective role on it. */
interface Target {
  kind: GrantKind;
  id: string;
  orgId: string;
  role: Role;
  /** How any member's role is resolved here. */
  resolve(grants: GrantReader, orgRole: Role): Effective;
}

function spaceTarget(ctx: HandlerContext, spaceId: string): Target {
  const { space, role } = activeSpaceAccess(ctx.tx, spaceId, ctx.actor.userId, ctx.clock());
  return { kind: 'space', id: space.id, orgId: space.organization, role, resolve: (grants, orgRole) => contentRole(ctx.tx, grants, orgRole, { kind: 'space', ...space }) };
}

function collectionTarget(ctx: HandlerContext, collectionId: string): Target {
  const { collection, role } = collectionAccess(ctx.tx, collectionId, ctx.actor.userId);
  return {
    kind: 'collection',
    id: collection.id,
    orgId: collection.organization,
    role,
    resolve: (grants, orgRole) => contentRole(ctx.tx, grants, orgRole, { kind: 'collection', ...collection }),
  };
}

function siteTarget(ctx: HandlerContext, params: { organizationId: string; siteId: string }): Target {
  const { org, site, role } = siteAccess(ctx, params);
  return { kind: 'site', id: site.id, orgId: org.id, role, resolve: (grants, orgRole) => siteRole(grants, orgRole, site) };
}

/** A DELETE by someone who cannot see the object is "nothing to delete" (204), as the real API answers. */
function visibleOrNothing(ctx: HandlerContext, target: () => Target): Target | undefined {
  if (ctx.access.organizationId === undefined) return undefined;
  return target();
}

const roleName = (role: Role) => role ?? 'none';

/** 403 unless the caller's role on the target is at least `role` (organization admins pass: they are admins everywhere). */
function requireAtMostOwn(target: Target, role: Role, what: string): void {
  if (role === null || rank(role) <= rank(target.role)) return;
  throw forbidden(
    `You cannot ${what} "${role}" on ${target.kind} ${target.id}: it is above your own role there ("${roleName(target.role)}"); ask someone with that role or an organization admin`,
  );
}

function requireTeamIn(tx: StoreReader, orgId: string, teamIds: readonly string[]): string[] {
  const unique = [...new Set(teamIds)];
  const unknown = unique.filter((id) => getTeam(tx, id)?.organization !== orgId);
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 20).join(', ') + (unknown.length > 20 ? `, … (${unknown.length} in all)` : '');
    throw notFound(`Not teams of organization ${orgId}: ${shown}; list them with docsctl team list`);
  }
  return unique;
}

/** Sets (or, with null on a space or collection, removes) one grant, refusing to touch a grant above the caller's role. */
function setGrant(ctx: HandlerContext, target: Target, principal: Principal, id: string, role: Role): void {
  const existing = getGrant(ctx.tx, target.kind, target.id, principal, id);
  if (existing) requireAtMostOwn(target, existing.role, 'change a grant of');
  if (role === null && target.kind !== 'site') {
    removeGrant(ctx.tx, target.orgId, target.kind, target.id, principal, id);
    return;
  }
  if (existing?.role === role) return; // re-running changes nothing
  putGrant(ctx.tx, target.orgId, target.kind, target.id, principal, id, { role, grantedAt: ctx.clock().toISOString(), grantedBy: ctx.actor.userId });
}

function invite(ctx: HandlerContext, target: Target, body: { role: Role; users?: string[] | undefined; teams?: string[] | undefined }): void {
  requireAtMostOwn(target, body.role, 'grant');
  // Everything is checked before anything is written.
  const users = [...new Set(resolveMembers(ctx.tx, target.orgId, body.users ?? []).values())];
  const teams = requireTeamIn(ctx.tx, target.orgId, body.teams ?? []);
  for (const userId of users) setGrant(ctx, target, 'user', userId, body.role);
  for (const teamId of teams) setGrant(ctx, target, 'team', teamId, body.role);
}

/** A user id, or the id of the user with this e-mail (as the commands take either). */
const userRef = (tx: StoreReader, ref: string) => (ref.includes('@') ? (userIdByEmail(tx, ref) ?? ref) : ref);

function updateUser(ctx: HandlerContext, target: Target, ref: string, role: Role): void {
  requireAtMostOwn(target, role, 'grant');
  const userId = userRef(ctx.tx, ref);
  if (getMember(ctx.tx, target.orgId, userId) === undefined) {
    throw notFound(`User ${userId} is not a member of organization ${target.orgId}; invite them first (docsctl org invite)`);
  }
  setGrant(ctx, target, 'user', userId, role);
}

function updateTeam(ctx: HandlerContext, target: Target, teamId: string, role: Role): void {
  requireAtMostOwn(target, role, 'grant');
  requireTeamIn(ctx.tx, target.orgId, [teamId]);
  setGrant(ctx, target, 'team', teamId, role);
}

function remove(ctx: HandlerContext, target: Target | undefined, principal: Principal, ref: string) {
  if (!target) return nothingToDelete();
  const id = principal === 'user' ? userRef(ctx.tx, ref) : ref;
  const existing = getGrant(ctx.tx, target.kind, target.id, principal, id);
  if (!existing) return nothingToDelete();
  requireAtMostOwn(target, existing.role, 'remove a grant of');
  removeGrant(ctx.tx, target.orgId, target.kind, target.id, principal, id);
  return deleted();
}

function listUsers(ctx: HandlerContext, target: Target, query: PageQuery) {
  const owner = grantOwner(target.kind, target.id, 'user');
  return contentGrants.page(ctx.tx, owner, query, ({ id, value }) => {
    const user = getUser(ctx.tx, id);
    return user ? { permission: value.role, user: shownUserView(ctx, id, user) } : undefined;
  });
}

function listTeams(ctx: HandlerContext, target: Target, query: PageQuery) {
  const owner = grantOwner(target.kind, target.id, 'team');
  const callerRole = roleIn(ctx.tx, target.orgId, ctx.actor.userId) ?? null;
  return contentGrants.page(ctx.tx, owner, query, ({ id, value }) => {
    const team = getTeam(ctx.tx, id);
    return team ? { permission: value.role, team: teamView(ctx, team, callerRole, ctx.actor.userId) } : undefined;
  });
}

/** A content origin in the shape of 0.202's site origins (`UserSitePermissionOrigin`), which content lists lack. */
function originView(origin: Origin): Record<string, unknown> {
  if (origin.type === 'organization') return origin;
  return { type: origin.type, [origin.type]: origin.id, reason: origin.reason, ...(origin.team !== undefined ? { team: origin.team } : {}) };
}

interface AggregateQuery extends PageQuery {
  role?: MemberRole | 'guest' | undefined;
  search?: string | undefined;
  team?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
  sort?: 'joinedAt' | 'lastSeenAt' | 'name' | undefined;
}

/**
 * Everyone with access to the target, with their effective role and its origin:
 * the organization's members in join order (newest first unless `order=asc`), each
 * resolved, those without access left out (a site's `role=guest` lists them).
 */
function aggregate(ctx: HandlerContext, target: Target, query: AggregateQuery): ListPage<unknown> {
  const needle = query.search?.toLowerCase();
  const teamOwner = query.team;
  const item = (userId: string, member: MemberRecord | undefined) => {
    if (!member || member.disabled) return undefined;
    const user = getUser(ctx.tx, userId);
    if (!user) return undefined;
    if (needle !== undefined && !user.displayName.toLowerCase().includes(needle) && !(user.email ?? '').toLowerCase().includes(needle)) return undefined;
    if (teamOwner !== undefined && !memberTeams.has(ctx.tx, memberTeamsOwner(target.orgId, userId), teamOwner)) return undefined;
    const effective = target.resolve(new GrantReader(ctx.tx, target.orgId, userId), member.role);
    if (query.role === 'guest' ? effective.role !== null : effective.role === null || (query.role !== undefined && effective.role !== query.role)) return undefined;
    const base = { permission: effective.role, user: shownUserView(ctx, userId, user), origin: originView(effective.origin) };
    if (target.kind !== 'site') return base;
    return { ...base, origin: siteOrigin(target.id, effective.origin), disabled: false, ...(member.lastSeenAt !== undefined ? { lastSeenAt: member.lastSeenAt } : {}) };
  };
  const desc = (query.order ?? 'desc') === 'desc';
  if (query.sort === 'name' || query.sort === 'lastSeenAt') {
    // Sorted by a member's field: the organization's members are read once (members list does the same).
    const rows = orgMemberList.all(ctx.tx, target.orgId).map((row) => ({ id: row.id, member: listedMember(ctx.tx, target.orgId, row) }));
    const key = (row: { id: string; member: MemberRecord | undefined }) =>
      query.sort === 'name' ? (getUser(ctx.tx, row.id)?.displayName ?? '').toLowerCase() : (row.member?.lastSeenAt ?? '');
    rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (desc ? -1 : 1));
    return paginate(itemsOf(rows), query, (row) => item(row.id, row.member));
  }
  type Row = { id: string; value: MemberListRow | null };
  return paginate(rowsOf<Row>(ctx.tx, orgMemberList.table, `${target.orgId}/`, { reverse: desc }), query, (row) => item(row.id, listedMember(ctx.tx, target.orgId, row)));
}

/** 0.202's UserSitePermissionOrigin: the organization, or the site with why. */
function siteOrigin(siteId: string, origin: Origin): Record<string, unknown> {
  if (origin.type === 'organization') return origin;
  return { type: 'site', site: siteId, reason: origin.reason, ...(origin.team !== undefined ? { team: origin.team } : {}) };
}

export const objectPermissionHandlers = {
  // ─── Spaces ───
  ...on('inviteToSpace', (ctx, { params, body }) => invite(ctx, spaceTarget(ctx, params.spaceId), body)),
  ...on('listUserPermissionsInSpace', (ctx, { params, query }) => listUsers(ctx, spaceTarget(ctx, params.spaceId), query)),
  ...on('listTeamPermissionsInSpace', (ctx, { params, query }) => listTeams(ctx, spaceTarget(ctx, params.spaceId), query)),
  ...on('listPermissionsAggregateInSpace', (ctx, { params, query }) => aggregate(ctx, spaceTarget(ctx, params.spaceId), query)),
  ...on('updateUserPermissionInSpace', (ctx, { params, body }) => updateUser(ctx, spaceTarget(ctx, params.spaceId), params.userId, body.role ?? null)),
  ...on('updateTeamPermissionInSpace', (ctx, { params, body }) => updateTeam(ctx, spaceTarget(ctx, params.spaceId), params.teamId, body.role ?? null)),
  ...on('removeUserFromSpace', (ctx, { params }) => remove(ctx, visibleOrNothing(ctx, () => spaceTarget(ctx, params.spaceId)), 'user', params.userId)),
  ...on('removeTeamFromSpace', (ctx, { params }) => remove(ctx, visibleOrNothing(ctx, () => spaceTarget(ctx, params.spaceId)), 'team', params.teamId)),

  // ─── Collections ───
  ...on('inviteToCollection', (ctx, { params, body }) => invite(ctx, collectionTarget(ctx, params.collectionId), body)),
  ...on('listUserPermissionsInCollection', (ctx, { params, query }) => listUsers(ctx, collectionTarget(ctx, params.collectionId), query)),
  ...on('listTeamPermissionsInCollection', (ctx, { params, query }) => listTeams(ctx, collectionTarget(ctx, params.collectionId), query)),
  ...on('listPermissionsAggregateInCollection', (ctx, { params, query }) => aggregate(ctx, collectionTarget(ctx, params.collectionId), query)),
  ...on('updateUserPermissionInCollection', (ctx, { params, body }) =>
    updateUser(ctx, collectionTarget(ctx, params.collectionId), params.userId, body.role ?? null),
  ),
  ...on('updateTeamPermissionInCollection', (ctx, { params, body }) =>
    updateTeam(ctx, collectionTarget(ctx, params.collectionId), params.teamId, body.role ?? null),
  ),
  ...on('removeUserFromCollection', (ctx, { params }) => remove(ctx, visibleOrNothing(ctx, () => collectionTarget(ctx, params.collectionId)), 'user', params.userId)),
  ...on('removeTeamFromCollection', (ctx, { params }) => remove(ctx, visibleOrNothing(ctx, () => collectionTarget(ctx, params.collectionId)), 'team', params.teamId)),

  // ─── Sites ───
  ...on('inviteToSite', (ctx, { params, body }) => invite(ctx, siteTarget(ctx, params), body)),
  ...on('listUserPermissionsInSite', (ctx, { params, query }) => listUsers(ctx, siteTarget(ctx, params), query)),
  ...on('listTeamPermissionsInSite', (ctx, { params, query }) => listTeams(ctx, siteTarget(ctx, params), query)),
  ...on('listPermissionsAggregateInSite', (ctx, { params, query }) => aggregate(ctx, siteTarget(ctx, params), query)),
  ...on('updateUserPermissionInSite', (ctx, { params, body }) => updateUser(ctx, siteTarget(ctx, params), params.userId, body.role)),
  ...on('updateTeamPermissionInSite', (ctx, { params, body }) => updateTeam(ctx, siteTarget(ctx, params), params.teamId, body.role)),
  ...on('removeUserFromSite', (ctx, { params }) => remove(ctx, visibleOrNothing(ctx, () => siteTarget(ctx, params)), 'user', params.userId)),
  ...on('removeTeamFromSite', (ctx, { params }) => remove(ctx, visibleOrNothing(ctx, () => siteTarget(ctx, params)), 'team', params.teamId)),
};
