/**
 * Teams and team members (API doc §4.18, gaps.md: created with PUT, batch
 * updates with add/remove lists).
 *
 * Rules:
 * - Members (not guests) see teams and their members; creating and deleting a
 *   team needs `admin`; renaming it and changing its members needs `admin` or
 *   the team's `owner` role.
 * - A team holds members of its organization only. Users are given by id or
 *   e-mail; any that is not a member fails the whole request (404 listing them)
 *   and nothing changes.
 * - The batch update applies `remove`, `add` and `memberships` in one commit; a
 *   user in both `add` and `remove` is removed (API doc §4.18).
 *
 * Members and teams
 *
 * Members are rows `members/${orgId}/${userId}` plus the `orgMembers` ordered list (join order: the
 * default `desc` listing walks it backwards with key cursors); `role`/`search` filters and the
 * `lastSeenAt` sort read the organization's member rows once. Teams (`src/domain/teams-records.ts`):
 * `teams/${teamId}`, the `orgTeams` ordered list, `teamMembers` (KeyedSet per team: `{role}` plus
 * copies of what a listing shows: the member record, the user's shown fields and the member's team
 * count) and `memberTeams` (KeyedSet per `${orgId}:${userId}`), whose count rows are the `members`
 * and `teams` counters. With the copies, listing a team reads the team's rows only (for 2,000
 * members of an organization of 10,000: ~250 B-tree leaves instead of ~1,600); `refreshTeamRows`
 * rewrites them in the member's few teams in the commit that changes a member record (`putMember`),
 * a user, or the member's teams (`test/domain/members-teams.test.ts` lists the code that writes
 * member and user records, so a new write path is noticed). `team members sync` (`src/cli/commands/team-sync*.ts`) lists the team (pages of 1000),
 * diffs in the client (`team-sync-plan.ts`, pure) and sends one `updateMembersInOrganizationTeam`.
 */
import { badRequest, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/teams.js';
import type { StoreReader } from '../store/types.js';
import { dropPrincipalGrants } from './grants.js';
import { ExactJson, deleted, implementer, nothingToDelete } from './handler.js';
import { type MemberView, requireMember, shownMemberView } from './members.js';
import { orgAccess } from './permissions.js';
import { type OrgRecord, getMember, getUser, orgSpaceList, userIdByEmail } from './core-records.js';
import { countRows, paginate, rowsOf } from './pagination.js';
import { orgSites } from './sites/site-records.js';
import { shownUserView } from './views.js';
import {
  TEAMS,
  type TeamRecord,
  type TeamRole,
  canManageTeam,
  getTeam,
  memberTeams,
  memberTeamsOwner,
  orgTeams,
  putTeamMember,
  removeTeamMember,
  teamMembers,
  teamView,
} from './teams-records.js';

const on = implementer<typeof routes>();

/** The team of this organization; 404 when absent or in another organization. */
function requireTeam(tx: StoreReader, org: OrgRecord, teamId: string): TeamRecord {
  const team = getTeam(tx, teamId);
  if (!team || team.organization !== org.id) throw notFound(`Team ${teamId} not found in organization ${org.id}`);
  return team;
}


/**
 * User ids of `refs` (ids or e-mails), in order, without duplicates; 404 listing
 * every ref that is not a member of the organization. A member row implies its user,
 * and a row of `team` its member (leaving the organization leaves its teams): people
 * already in the team cost no read of their records.
 */
export function resolveMembers(tx: StoreReader, orgId: string, refs: readonly string[], team?: TeamRecord): Map<string, string> {
  const ids = new Map<string, string>();
  const unknown: string[] = [];
  for (const ref of refs) {
    const userId = ref.includes('@') ? userIdByEmail(tx, ref) : ref;
    // (An id with a "/" is no user, and no key of a set: KeyedSet refuses it.)
    const inTeam = team !== undefined && userId !== undefined && !userId.includes('/') && teamMembers.has(tx, team.id, userId);
    const member = inTeam || (userId !== undefined && getMember(tx, orgId, userId) !== undefined);
    if (member) ids.set(ref, userId);
    else unknown.push(ref);
  }
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 20).join(', ') + (unknown.length > 20 ? `, … (${unknown.length} in all)` : '');
    throw notFound(`Not members of organization ${orgId}: ${shown}; invite them first`);
  }
  return ids;
}

function checkTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length === 0) throw badRequest('Invalid team title: it must be 1 to 64 characters long');
  return trimmed;
}

export const teamHandlers = {
  ...on('listTeamsInOrganizationById', (ctx, { params, query }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const needle = query.title?.toLowerCase();
    // `owner`: the teams that member can manage (all of them for an admin).
    const ownerRole = query.owner === undefined ? undefined : getMember(ctx.tx, org.id, query.owner)?.role;
    if (query.owner !== undefined && ownerRole === undefined) requireMember(ctx.tx, org.id, query.owner);
    const listed = (teamId: string) => {
      const team = getTeam(ctx.tx, teamId);
      if (!team) return undefined;
      if (needle !== undefined && !team.title.toLowerCase().includes(needle)) return undefined;
      if (query.owner !== undefined && !canManageTeam(ctx.tx, team, ownerRole ?? null, query.owner)) return undefined;
      return team;
    };
    const view = (teamId: string) => {
      const team = listed(teamId);
      return team && teamView(ctx, team, role, ctx.actor.userId);
    };
    if (needle === undefined && query.owner === undefined) return orgTeams.page(ctx.tx, org.id, query, ({ id }) => view(id));
    // Titles and managers have no index: the count of matches reads the team rows once.
    type Row = { id: string };
    const count = countRows<Row>(ctx.tx, orgTeams.table, `${org.id}/`, (row) => listed(row.id) !== undefined);
    return paginate(rowsOf<Row>(ctx.tx, orgTeams.table, `${org.id}/`), query, (row) => view(row.id), count);
  }),

  ...on('createOrganizationTeam', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const members = resolveMembers(ctx.tx, org.id, body.members ?? []);
    const team: TeamRecord = { id: ctx.ids(), organization: org.id, title: checkTitle(body.title), createdAt: ctx.clock().toISOString() };
    ctx.tx.put(TEAMS, team.id, team);
    orgTeams.insert(ctx.tx, org.id, team.id, null);
    for (const userId of members.values()) putTeamMember(ctx.tx, team, userId, 'member');
    return teamView(ctx, team, role, ctx.actor.userId);
  }),

  ...on('getTeamInOrganizationById', (ctx, { params }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return teamView(ctx, requireTeam(ctx.tx, org, params.teamId), role, ctx.actor.userId);
  }),

  ...on('updateTeamInOrganizationById', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const team = requireTeam(ctx.tx, org, params.teamId);
    const updated: TeamRecord = { ...team, title: checkTitle(body.title) };
    ctx.tx.put(TEAMS, team.id, updated);
    return teamView(ctx, updated, role, ctx.actor.userId);
  }),

  ...on('removeTeamFromOrganizationById', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const team = getTeam(ctx.tx, params.teamId);
    if (!team || team.organization !== org.id) return nothingToDelete();
    for (const { id } of teamMembers.all(ctx.tx, team.id)) removeTeamMember(ctx.tx, team, id);
    dropPrincipalGrants(ctx.tx, org.id, 'team', team.id); // its grants on spaces, collections and sites
    orgTeams.remove(ctx.tx, org.id, team.id);
    ctx.tx.delete(TEAMS, team.id);
    return deleted();
  }),

  ...on('listTeamMembersInOrganizationById', (ctx, { params, query }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const team = requireTeam(ctx.tx, org, params.teamId);
    // Built fresh and JSON-exact (no undefined members, nothing shared): local mode takes it without
    // a JSON round trip (a sync lists a team of thousands; test/domain/members-teams.test.ts).
    // The rows carry copies of the member's records and team count (teams-records.ts); rows
    // written before the copies existed read them.
    const orgSpaces = orgSpaceList.count(ctx.tx, org.id);
    const orgSiteCount = orgSites.count(ctx.tx, org.id);
    return new ExactJson(teamMembers.page(ctx.tx, team.id, query, ({ id, value }) => {
      const member = value.member ?? getMember(ctx.tx, org.id, id);
      if (!member) return undefined;
      const user = value.user ?? getUser(ctx.tx, id);
      if (!user) throw notFound(`User ${id} not found`);
      const teams = value.teams ?? memberTeams.count(ctx.tx, memberTeamsOwner(org.id, id));
      const item: { organization: MemberView; team: { role: TeamRole }; permissions: { view: boolean } } = {
        organization: shownMemberView(id, member, shownUserView(ctx, id, user), { orgSpaces, orgSites: orgSiteCount, teams }),
        team: { role: value.role },
        permissions: { view: true },
      };
      return item;
    }, { shared: true })); // the rows are only read: the items are built fresh
  }),

  // docsctl extension: the organization's memberships in one pass over its members' team sets
  // (apply plans 100 teams with one listing); a row written before the set kept the role reads
  // it from the team's member row.
  ...on('listTeamMembershipsInOrganization', (ctx, { params, query }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return paginate(rowsOf<TeamRole | null>(ctx.tx, memberTeams.table, `${org.id}:`, { shared: true }), query, (role, key) => {
      const [user, team] = key.split('/') as [string, string];
      const teamRole = role ?? teamMembers.get(ctx.tx, team, user)?.role;
      return teamRole === undefined ? undefined : { team, user, role: teamRole };
    });
  }),

  ...on('updateMembersInOrganizationTeam', (ctx, { params, body }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const team = requireTeam(ctx.tx, org, params.teamId);
    const memberships = body.memberships ?? {};
    // Every user is resolved before anything is written: one unknown fails the whole update.
    const added = resolveMembers(ctx.tx, org.id, body.add ?? [], team);
    const removed = resolveMembers(ctx.tx, org.id, body.remove ?? [], team);
    const roles = resolveMembers(ctx.tx, org.id, Object.keys(memberships), team);
    const removedIds = new Set(removed.values());
    for (const userId of removedIds) removeTeamMember(ctx.tx, team, userId);
    for (const userId of added.values()) {
      if (!removedIds.has(userId) && !teamMembers.has(ctx.tx, team.id, userId)) putTeamMember(ctx.tx, team, userId, 'member');
    }
    for (const [ref, userId] of roles) {
      if (removedIds.has(userId)) continue;
      putTeamMember(ctx.tx, team, userId, (memberships[ref] as { role: TeamRole }).role);
    }
    return undefined;
  }),

  ...on('addMemberToOrganizationTeamById', (ctx, { params, body }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const team = requireTeam(ctx.tx, org, params.teamId);
    const userId = resolveMembers(ctx.tx, org.id, [params.userId]).get(params.userId) as string;
    const current = teamMembers.get(ctx.tx, team.id, userId);
    const next: TeamRole = body?.role ?? current?.role ?? 'member';
    if (current?.role !== next) putTeamMember(ctx.tx, team, userId, next);
    return undefined;
  }),

  ...on('deleteMemberFromOrganizationTeamById', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const team = requireTeam(ctx.tx, org, params.teamId);
    return removeTeamMember(ctx.tx, team, params.userId) ? deleted() : nothingToDelete();
  }),
};
