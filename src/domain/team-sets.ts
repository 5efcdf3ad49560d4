/**
 * The row sets that say which teams a member is in (src/domain/teams-records.ts
 * describes the team tables): here, apart, so the access check (src/domain/grants.ts)
 * reads a member's teams without loading team views.
 */
import { KeyedSet } from './ordered.js';

/**
 * KeyedSet per `${orgId}:${userId}`, id teamId: the member's teams (its count row is their
 * `teams`), each with their team role (null in rows written before it was kept: the team's
 * member row has it).
 */
export const memberTeams = new KeyedSet<'owner' | 'member' | null>('memberTeams');

export const memberTeamsOwner = (orgId: string, userId: string) => `${orgId}:${userId}`;
