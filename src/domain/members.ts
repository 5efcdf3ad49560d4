/**
 * Organization members (API doc §4.17): list with the real filters and sort,
 * get, change role, remove, last-seen ping, SSO flag, a member's spaces and teams.
 *
 * Rules:
 * - Reading members needs a role (guests cannot list members: 403); changing
 *   or removing one needs `admin`; a member may remove themselves (leave).
 * - The organization keeps at least one enabled admin: removing or demoting the
 *   last one is a 409 and changes nothing.
 * - Leaving an organization takes the member out of its teams in the same commit.
 * - A member's `spaces` counts the spaces their role opens (all the organization's
 *   active spaces for a role, none for a guest: there are no per-space grants yet).
 */
import { dropPrincipalGrants } from './grants.js';
import { conflict, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/members.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import { ExactJson, type HandlerContext, deleted, implementer } from './handler.js';
import { type ListEnvelope, type PageQuery, countRows, itemsOf, paginate, rowsOf } from './pagination.js';
import { orgAccess } from './permissions.js';
import {
  type MemberListRow,
  type MemberRecord,
  type Role,
  Tables,
  getMember,
  getSpace,
  getUser,
  listedMember,
  memberKey,
  orgMemberList,
  orgSpaceList,
  userOrgList,
} from './core-records.js';
import { getTeam, leaveAllTeams, memberTeams, memberTeamsOwner, refreshTeamRows, teamMembers, teamView } from './teams-records.js';
import { orgSites } from './sites/site-records.js';
import { type UserView, type ViewContext, shownUserView, spaceView } from './views.js';

const on = implementer<typeof routes>();

export interface MemberView {
  object: 'member';
  id: string;
  role: Role;
  user: UserView;
  disabled: boolean;
  joinedAt: string;
  lastSeenAt?: string;
  sso: boolean;
  spaces: number;
  teams: number;
  /** 0.202: the sites the member sees (members see every site of the organization; guests none). */
  sites: number;
}

/** The numbers of an organization's spaces and sites a member view shows: read once per listing. */
type OrgCounts = { orgSpaces: number; orgSites: number };
const orgCounts = (tx: StoreReader, orgId: string): OrgCounts => ({ orgSpaces: orgSpaceList.count(tx, orgId), orgSites: orgSites.count(tx, orgId) });

export function memberView(ctx: ViewContext & { tx: StoreReader }, orgId: string, userId: string, member: MemberRecord, counts: OrgCounts = orgCounts(ctx.tx, orgId)): MemberView {
  const user = getUser(ctx.tx, userId);
  if (!user) throw notFound(`User ${userId} not found`);
  return shownMemberView(userId, member, shownUserView(ctx, userId, user), { ...counts, teams: memberTeams.count(ctx.tx, memberTeamsOwner(orgId, userId)) });
}

/**
 * A member view from what is at hand: the member record, the user's view, the number
 * of the organization's spaces and sites (read once per listing, not once per member) and of the
 * member's teams (a team row keeps a copy: teams-records.ts).
 */
export function shownMemberView(userId: string, member: MemberRecord, user: UserView, counts: { orgSpaces: number; orgSites: number; teams: number }): MemberView {
  return {
    object: 'member',
    id: userId,
    role: member.role,
    user,
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    ...(member.lastSeenAt !== undefined ? { lastSeenAt: member.lastSeenAt } : {}),
    sso: member.sso,
    spaces: member.role === null ? 0 : counts.orgSpaces,
    teams: counts.teams,
    sites: member.role === null ? 0 : counts.orgSites,
  };
}

/** The member record of `userId` in `orgId`; 404 naming them when they are not a member. */
export function requireMember(tx: StoreReader, orgId: string, userId: string): MemberRecord {
  const member = getMember(tx, orgId, userId);
  if (!member) throw notFound(`User ${userId} is not a member of organization ${orgId}`);
  return member;
}

/** True when another enabled admin than `userId` exists (stops at the first one found). */
function hasOtherAdmin(tx: StoreReader, orgId: string, userId: string): boolean {
  // Rare (only when an admin is demoted or removed), so a scan of the org's member rows is fine.
  for (const [key, member] of tx.scan<MemberRecord>(Tables.members, { prefix: `${orgId}/` })) {
    if (member.role === 'admin' && !member.disabled && key !== memberKey(orgId, userId)) return true;
  }
  return false;
}

function keepAnAdmin(tx: StoreReader, orgId: string, userId: string, member: MemberRecord, action: string): void {
  if (member.role === 'admin' && !member.disabled && !hasOtherAdmin(tx, orgId, userId)) {
    throw conflict(`Cannot ${action} ${userId}: they are the last admin of organization ${orgId}; make another member admin first`);
  }
}

/** Replaces an existing member's record, and the copies their member list row and team rows keep of it. */
export function putMember(tx: StoreWriter, orgId: string, userId: string, member: MemberRecord): void {
  tx.put(Tables.members, memberKey(orgId, userId), member);
  refreshTeamRows(tx, orgId, userId); // their member list row and team rows copy the record
}

/** Removes a member from the organization, its indexes and its teams. */
export function removeMember(tx: StoreWriter, orgId: string, userId: string): void {
  leaveAllTeams(tx, orgId, userId);
  dropPrincipalGrants(tx, orgId, 'user', userId); // their grants on spaces, collections and sites
  tx.delete(Tables.members, memberKey(orgId, userId));
  orgMemberList.remove(tx, orgId, userId);
  userOrgList.remove(tx, userId, orgId);
}

// ─── Listing ──────────────────────────────────────────────────────────────

interface MemberFilter {
  role?: string | undefined;
  search?: string | undefined;
}

function matches(tx: StoreReader, orgId: string, userId: string, filter: MemberFilter, member: MemberRecord | undefined): MemberRecord | undefined {
  if (!member) return undefined;
  if (filter.role !== undefined && (member.role ?? 'guest') !== filter.role) return undefined;
  if (filter.search !== undefined) {
    const user = getUser(tx, userId);
    const needle = filter.search.toLowerCase();
    if (!user || !(user.displayName.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle))) return undefined;
  }
  return member;
}

interface MembersQuery extends PageQuery, MemberFilter {
  order?: 'asc' | 'desc' | undefined;
  sort?: 'joinedAt' | 'lastSeenAt' | undefined;
}

/** A member list row's view: from its copies (no read), or from the records for a row without them. */
function listedView(ctx: HandlerContext, orgId: string, row: ListRow, member: MemberRecord, counts: OrgCounts): MemberView {
  const copies = row.value;
  if (!copies) return memberView(ctx, orgId, row.id, member, counts);
  return shownMemberView(row.id, member, shownUserView(ctx, row.id, copies.user), { ...counts, teams: copies.teams });
}

type ListRow = { id: string; value: MemberListRow | null };

function listMembers(ctx: HandlerContext, orgId: string, query: MembersQuery): ListEnvelope<MemberView> {
  const desc = (query.order ?? 'desc') === 'desc';
  const filter: MemberFilter = { role: query.role, search: query.search };
  // Each list row holds copies of what the view shows (MemberListRow), and the organization's counts are read once.
  const counts = orgCounts(ctx.tx, orgId);
  const matching = (row: ListRow) => matches(ctx.tx, orgId, row.id, filter, listedMember(ctx.tx, orgId, row));
  if (query.sort === 'lastSeenAt') {
    // Active members only, by last activity: every member row is read to sort them.
    const active: Array<{ row: ListRow; member: MemberRecord }> = [];
    for (const row of orgMemberList.all(ctx.tx, orgId)) {
      const member = matching(row);
      if (member?.lastSeenAt !== undefined) active.push({ row, member });
    }
    active.sort((a, b) => (a.member.lastSeenAt as string).localeCompare(b.member.lastSeenAt as string) || a.row.id.localeCompare(b.row.id));
    if (desc) active.reverse();
    return paginate(itemsOf(active), query, ({ row, member }) => listedView(ctx, orgId, row, member, counts));
  }
  const prefix = `${orgId}/`;
  const rows = rowsOf<ListRow>(ctx.tx, orgMemberList.table, prefix, { reverse: desc });
  if (filter.role === undefined && filter.search === undefined) {
    const member = (row: ListRow) => listedMember(ctx.tx, orgId, row) ?? requireMember(ctx.tx, orgId, row.id);
    return paginate(rows, query, (row) => listedView(ctx, orgId, row, member(row), counts), orgMemberList.count(ctx.tx, orgId));
  }
  // No index holds roles or names: the count of matches reads every member row once.
  const count = countRows<ListRow>(ctx.tx, orgMemberList.table, prefix, (row) => matching(row) !== undefined);
  return paginate(
    rows,
    query,
    (row) => {
      const member = matching(row);
      return member ? listedView(ctx, orgId, row, member, counts) : undefined;
    },
    count,
  );
}

// ─── Handlers ─────────────────────────────────────────────────────────────

export const memberHandlers = {
  ...on('listMembersInOrganizationById', (ctx, { params, query }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    // Fresh views of copies (no undefined member): local mode takes the page as it is (handler.ts ExactJson).
    return new ExactJson(listMembers(ctx, org.id, query));
  }),

  ...on('getMemberInOrganizationById', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return memberView(ctx, org.id, params.userId, requireMember(ctx.tx, org.id, params.userId));
  }),

  ...on('updateMemberInOrganizationById', (ctx, { params, body }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const member = requireMember(ctx.tx, org.id, params.userId);
    if (body.role !== undefined && body.role !== member.role) {
      if (body.role !== 'admin') keepAnAdmin(ctx.tx, org.id, params.userId, member, 'demote');
      const updated: MemberRecord = { ...member, role: body.role };
      putMember(ctx.tx, org.id, params.userId, updated);
      return memberView(ctx, org.id, params.userId, updated);
    }
    return memberView(ctx, org.id, params.userId, member);
  }),

  ...on('removeMemberFromOrganizationById', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    // Leaving is allowed to anyone; removing someone else needs admin.
    const member = requireMember(ctx.tx, org.id, params.userId);
    keepAnAdmin(ctx.tx, org.id, params.userId, member, 'remove');
    removeMember(ctx.tx, org.id, params.userId);
    return deleted();
  }),

  ...on('updateOrganizationMemberLastSeenAt', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const member = requireMember(ctx.tx, org.id, ctx.actor.userId);
    putMember(ctx.tx, org.id, ctx.actor.userId, { ...member, lastSeenAt: ctx.clock().toISOString() });
    return {};
  }),

  ...on('setUserAsSSOMemberForOrganization', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const member = requireMember(ctx.tx, org.id, params.userId);
    const updated: MemberRecord = { ...member, sso: true };
    if (!member.sso) putMember(ctx.tx, org.id, params.userId, updated);
    return memberView(ctx, org.id, params.userId, updated);
  }),

  ...on('listSpacesForOrganizationMember', (ctx, { params, query }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const member = requireMember(ctx.tx, org.id, params.userId);
    const permission = member.role;
    if (permission === null || member.disabled) return { count: 0, items: [] };
    const desc = (query.order ?? 'desc') === 'desc';
    return paginate(
      rowsOf<{ id: string }>(ctx.tx, orgSpaceList.table, `${org.id}/`, { reverse: desc }),
      query,
      (row) => {
        const space = getSpace(ctx.tx, row.id);
        return space ? { permission, space: spaceView(ctx, space, permission) } : undefined;
      },
      orgSpaceList.count(ctx.tx, org.id),
    );
  }),

  ...on('listTeamsForOrganizationMember', (ctx, { params, query }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    requireMember(ctx.tx, org.id, params.userId);
    const owner = memberTeamsOwner(org.id, params.userId);
    const needle = query.title?.toLowerCase();
    const listed = (teamId: string) => {
      const team = getTeam(ctx.tx, teamId);
      const row = teamMembers.get(ctx.tx, teamId, params.userId);
      if (!team || !row) return undefined;
      if (needle !== undefined && !team.title.toLowerCase().includes(needle)) return undefined;
      return { team, row };
    };
    const item = (teamId: string) => {
      const found = listed(teamId);
      return found && { team: teamView(ctx, found.team, role, ctx.actor.userId), member: { role: found.row.role } };
    };
    if (needle === undefined) return memberTeams.page(ctx.tx, owner, query, ({ id }) => item(id));
    // Titles have no index: the count of matches reads the member's team rows once.
    const count = countRows(ctx.tx, memberTeams.table, `${owner}/`, (_row, teamId) => listed(teamId) !== undefined);
    return paginate(rowsOf(ctx.tx, memberTeams.table, `${owner}/`), query, (_row, teamId) => item(teamId), count);
  }),
};
