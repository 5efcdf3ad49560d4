/**
 * Teams and their members, stored one row per item (src/domain/ordered.ts):
 *
 * | table        | shape                                     | value                          |
 * |--------------|-------------------------------------------|--------------------------------|
 * | teams        | teamId                                    | TeamRecord                     |
 * | orgTeams     | OrderedList, owner orgId                  | the org's teams (creation order) |
 * | teamMembers  | KeyedSet, owner teamId, id userId         | `{ role, member, user }` (TeamMemberRow) |
 * | memberTeams  | KeyedSet, owner `${orgId}:${userId}`, id teamId | their team role (the member's teams; null in older rows) |
 *
 * Counts (a team's `members`, a member's `teams`) are the sets' count rows,
 * updated in the same commit as the change.
 *
 * A team member row carries copies of what a listing shows of the member (their
 * member record, the user's shown fields and their team count), so listing a team of thousands reads
 * the team's rows, not three rows per member scattered over the `members`, `users`
 * and `memberTeams.n` tables (~1,350 more B-tree leaves for 2,000 members of an
 * organization of 10,000). The copies change with what they copy: `putTeamMember`
 * takes them, and `refreshTeamRows` rewrites them in each of the member's teams (a
 * handful of rows) whenever their member record, their user or their teams change.
 */
import type { StoreReader, StoreWriter } from '../store/types.js';
import { KeyedSet, OrderedList } from './ordered.js';
import { teamSpaceCount } from './grants.js';
import { memberTeams, memberTeamsOwner } from './team-sets.js';

export { memberTeams, memberTeamsOwner };
import { atLeast } from './permissions.js';
import { type MemberListRow, type MemberRecord, type Role, type ShownUser, getMember, getUser, orgMemberList, shownUser } from './core-records.js';
import type { ViewContext } from './views.js';

export type TeamRole = 'owner' | 'member';

export interface TeamRecord {
  id: string;
  organization: string;
  title: string;
  createdAt: string;
}

export interface TeamMemberRow {
  role: TeamRole;
  /** Copy of the member record (this and the other copies are absent in rows written before them: a listing then reads the records). */
  member?: MemberRecord;
  /** Copy of the user's shown fields. */
  user?: ShownUser;
  /** Copy of the number of teams of the organization the member is in. */
  teams?: number;
}

export const TEAMS = 'teams';
export const orgTeams = new OrderedList<null>('orgTeams');
export const teamMembers = new KeyedSet<TeamMemberRow>('teamMembers');


export const getTeam = (tx: StoreReader, id: string) => tx.get<TeamRecord>(TEAMS, id);

/** Fresh copies of what member and team listings show of a member (undefined when they are not one). */
function memberCopies(tx: StoreReader, orgId: string, userId: string): MemberListRow | undefined {
  const member = getMember(tx, orgId, userId);
  const user = getUser(tx, userId);
  if (!member || !user) return undefined;
  return { member, user: shownUser(user), teams: memberTeams.count(tx, memberTeamsOwner(orgId, userId)) };
}

/** A team row with fresh copies of the member's records (the role alone when they are not a member: callers check first). */
function teamRow(tx: StoreReader, orgId: string, userId: string, role: TeamRole): TeamMemberRow {
  return { role, ...memberCopies(tx, orgId, userId) };
}

/** Adds a member to a team or changes their role. True when they were new to it. */
export function putTeamMember(tx: StoreWriter, team: TeamRecord, userId: string, role: TeamRole): boolean {
  // The role here too: the organization's memberships read in one pass (listTeamMembershipsInOrganization).
  const isNew = memberTeams.put(tx, memberTeamsOwner(team.organization, userId), team.id, role);
  const current = isNew ? undefined : teamMembers.get(tx, team.id, userId);
  // A role change keeps the row's copies (always fresh) rather than reading what they copy.
  const row = current?.member && current.user && current.teams !== undefined ? { ...current, role } : teamRow(tx, team.organization, userId, role);
  teamMembers.put(tx, team.id, userId, row);
  // Their rows in other teams copy their team count.
  if (isNew) refreshTeamRows(tx, team.organization, userId, team.id);
  return isNew;
}

/** Removes a member from a team. False when they were not in it. */
export function removeTeamMember(tx: StoreWriter, team: TeamRecord, userId: string): boolean {
  if (!teamMembers.remove(tx, team.id, userId)) return false;
  memberTeams.remove(tx, memberTeamsOwner(team.organization, userId), team.id);
  refreshTeamRows(tx, team.organization, userId); // their team count changed
  return true;
}

/**
 * Rewrites the copies in the member's row of the organization's member list and in each of
 * their team rows (but `except`'s): call it in the commit that changes their member record,
 * their user (once per organization they belong to) or their teams.
 */
export function refreshTeamRows(tx: StoreWriter, orgId: string, userId: string, except?: string): void {
  const copies = memberCopies(tx, orgId, userId);
  if (copies) orgMemberList.update(tx, orgId, userId, copies);
  for (const { id: teamId } of memberTeams.all(tx, memberTeamsOwner(orgId, userId))) {
    const row = teamId === except ? undefined : teamMembers.get(tx, teamId, userId);
    if (row) teamMembers.put(tx, teamId, userId, { role: row.role, ...copies });
  }
}

/** Takes a member out of every team of the organization (when they leave it: no row is left to refresh). */
export function leaveAllTeams(tx: StoreWriter, orgId: string, userId: string): void {
  const owner = memberTeamsOwner(orgId, userId);
  for (const { id } of memberTeams.all(tx, owner)) {
    teamMembers.remove(tx, id, userId);
    memberTeams.remove(tx, owner, id);
  }
}

export interface TeamView {
  object: 'team';
  id: string;
  title: string;
  members: number;
  spaces: number;
  createdAt: string;
  permissions: { admin: boolean; view: boolean };
}

/** True when `userId` may manage the team: an organization admin or one of its owners. */
export function canManageTeam(tx: StoreReader, team: TeamRecord, role: Role, userId: string): boolean {
  return atLeast(role, 'admin') || teamMembers.get(tx, team.id, userId)?.role === 'owner';
}

export function teamView(ctx: ViewContext & { tx: StoreReader }, team: TeamRecord, role: Role, userId: string): TeamView {
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: teamMembers.count(ctx.tx, team.id),
    spaces: teamSpaceCount(ctx.tx, team.id),
    createdAt: team.createdAt,
    permissions: { admin: canManageTeam(ctx.tx, team, role, userId), view: true },
  };
}
