/**
 * Teams and their members, stored one row per item (src/domain/ordered.ts):
 *
 * | table        | shape                                     | value                          |
 * |--------------|-------------------------------------------|--------------------------------|
 * | teams        | teamId                                    | TeamRecord                     |
 * | orgTeams     | OrderedList, owner orgId                  | the org's teams (creation order) |
 * | teamMembers  | KeyedSet, owner teamId, id userId         | `{ role }` (owner or member)   |
 * | memberTeams  | KeyedSet, owner `${orgId}:${userId}`, id teamId | null (the member's teams) |
 *
 * Counts (a team's `members`, a member's `teams`) are the sets' count rows,
 * updated in the same commit as the change.
 */
import type { StoreReader, StoreWriter } from '../store/types.js';
import { KeyedSet, OrderedList } from './ordered.js';
import { atLeast } from './permissions.js';
import type { Role } from './records.js';
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
}

export const TEAMS = 'teams';
export const orgTeams = new OrderedList<null>('orgTeams');
export const teamMembers = new KeyedSet<TeamMemberRow>('teamMembers');
export const memberTeams = new KeyedSet<null>('memberTeams');

export const memberTeamsOwner = (orgId: string, userId: string) => `${orgId}:${userId}`;

export const getTeam = (tx: StoreReader, id: string) => tx.get<TeamRecord>(TEAMS, id);

/** Adds a member to a team or changes their role. True when they were new to it. */
export function putTeamMember(tx: StoreWriter, team: TeamRecord, userId: string, role: TeamRole): boolean {
  const isNew = teamMembers.put(tx, team.id, userId, { role });
  if (isNew) memberTeams.put(tx, memberTeamsOwner(team.organization, userId), team.id, null);
  return isNew;
}

/** Removes a member from a team. False when they were not in it. */
export function removeTeamMember(tx: StoreWriter, team: TeamRecord, userId: string): boolean {
  if (!teamMembers.remove(tx, team.id, userId)) return false;
  memberTeams.remove(tx, memberTeamsOwner(team.organization, userId), team.id);
  return true;
}

/** Takes a member out of every team of the organization (when they leave it). */
export function leaveAllTeams(tx: StoreWriter, orgId: string, userId: string): void {
  for (const { id } of memberTeams.all(tx, memberTeamsOwner(orgId, userId))) {
    const team = getTeam(tx, id);
    if (team) removeTeamMember(tx, team, userId);
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
    // Teams are not granted spaces yet (no content-permission operations): none.
    spaces: 0,
    createdAt: team.createdAt,
    permissions: { admin: canManageTeam(ctx.tx, team, role, userId), view: true },
  };
}
