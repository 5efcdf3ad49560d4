/**
 * Grants on content: a role given to one user or one team on a space, a collection
 * or a site (0.202's `inviteTo*`, `update*PermissionIn*`), and the effective role
 * they make with the organization role and `defaultLevel`.
 *
 * Storage, one row per grant (src/domain/ordered.ts `KeyedSet`), so a grant never
 * rewrites a list and a lookup is one keyed read:
 *
 * | table          | owner                          | id       | value       |
 * |----------------|--------------------------------|----------|-------------|
 * | contentGrants  | `${kind}:${objectId}:user`     | userId   | GrantRow    |
 * | contentGrants  | `${kind}:${objectId}:team`     | teamId   | GrantRow    |
 * | orgGrants      | orgId                          | —        | count of the organization's grants |
 * | principalGrants| `${principal}:${id}:${kind}`   | objectId | null (what a user or team is granted: removed with them) |
 *
 * A team's `spaces` (OrganizationTeam) is the count of its space grants.
 * The organization's count lets the access check of an organization without grants
 * (most of them) skip the lookups: one read.
 *
 * How a role is resolved (GitBook's "Permissions and inheritance": direct overrides
 * first, then the content's general access, then its parent, the organization last):
 * 1. An organization `admin` is `admin` everywhere ("hidden from everyone except admins").
 * 2. At the object, then at each parent collection up to the organization:
 *    the user's own grant, else the highest grant of their teams, decides (it may
 *    lower the organization role: the most specific level wins); else, for a member
 *    who is not a guest, a `defaultLevel` other than `inherit` decides (`null`: no
 *    access, a role: that role "regardless of their default role").
 * 3. Else the organization role. Guests (organization role null) get only what is granted.
 *
 * A site resolves the same way at the site's level (sites have no parent; a site's
 * `defaultLevel`, 0.202, absent meaning `inherit`).
 */
import type { StoreReader, StoreWriter } from '../store/types.js';
import { KeyedSet } from './ordered.js';
import { type CollectionRecord, type DefaultLevel, type MemberRole, type Role, getCollection } from './core-records.js';
import { memberTeams, memberTeamsOwner } from './team-sets.js';

export type GrantKind = 'space' | 'collection' | 'site';
export type Principal = 'user' | 'team';

export interface GrantRow {
  /** null: no access here (sites only; a space or collection grant of null is a removal). */
  role: Role;
  grantedAt: string;
  grantedBy: string;
}

export const contentGrants = new KeyedSet<GrantRow>('contentGrants');
export const principalGrants = new KeyedSet<null>('principalGrants');
const principalOwner = (principal: Principal, id: string, kind: GrantKind) => `${principal}:${id}:${kind}`;
const KINDS: readonly GrantKind[] = ['space', 'collection', 'site'];

/** How many spaces a team is granted a role on. */
export const teamSpaceCount = (tx: StoreReader, teamId: string) => principalGrants.count(tx, principalOwner('team', teamId, 'space'));
const ORG_GRANTS = 'orgGrants';

export const grantOwner = (kind: GrantKind, objectId: string, principal: Principal) => `${kind}:${objectId}:${principal}`;

export function getGrant(tx: StoreReader, kind: GrantKind, objectId: string, principal: Principal, id: string): GrantRow | undefined {
  return contentGrants.get(tx, grantOwner(kind, objectId, principal), id);
}

/** Adds or replaces a grant; true when it is new. */
export function putGrant(tx: StoreWriter, orgId: string, kind: GrantKind, objectId: string, principal: Principal, id: string, row: GrantRow): boolean {
  const isNew = contentGrants.put(tx, grantOwner(kind, objectId, principal), id, row);
  if (isNew) {
    tx.put(ORG_GRANTS, orgId, orgGrantCount(tx, orgId) + 1);
    principalGrants.put(tx, principalOwner(principal, id, kind), objectId, null);
  }
  return isNew;
}

/** Removes a grant; false when there was none. */
export function removeGrant(tx: StoreWriter, orgId: string, kind: GrantKind, objectId: string, principal: Principal, id: string): boolean {
  if (!contentGrants.remove(tx, grantOwner(kind, objectId, principal), id)) return false;
  principalGrants.remove(tx, principalOwner(principal, id, kind), objectId);
  const count = orgGrantCount(tx, orgId) - 1;
  if (count > 0) tx.put(ORG_GRANTS, orgId, count);
  else tx.delete(ORG_GRANTS, orgId);
  return true;
}

/** Removes every grant of a user leaving the organization, or of a team being deleted (so a return starts afresh). */
export function dropPrincipalGrants(tx: StoreWriter, orgId: string, principal: Principal, id: string): void {
  if (orgGrantCount(tx, orgId) === 0) return;
  for (const kind of KINDS) {
    for (const entry of principalGrants.all(tx, principalOwner(principal, id, kind))) removeGrant(tx, orgId, kind, entry.id, principal, id);
  }
}

export function orgGrantCount(tx: StoreReader, orgId: string): number {
  return tx.get<number>(ORG_GRANTS, orgId) ?? 0;
}

const RANK: Record<MemberRole, number> = { admin: 6, create: 5, edit: 4, review: 3, comment: 2, read: 1 };
const rankOf = (role: Role) => (role === null ? 0 : RANK[role]);

/** Why a user has their role on an object: what decided it. */
export type Origin =
  | { type: 'organization'; organization: string }
  | { type: GrantKind; id: string; reason: 'member' | 'team' | 'default'; team?: string };

export interface Effective {
  role: Role;
  origin: Origin;
}

/** A user's grants, read once per request: their teams in the organization are read only when it has grants. */
export class GrantReader {
  private teams: string[] | undefined;
  private readonly any: boolean;

  constructor(
    private readonly tx: StoreReader,
    readonly orgId: string,
    readonly userId: string,
  ) {
    this.any = orgGrantCount(tx, orgId) > 0;
  }

  /** The grant that decides at this object: the user's own, else their teams' highest. */
  at(kind: GrantKind, objectId: string): Effective | undefined {
    if (!this.any) return undefined;
    const own = getGrant(this.tx, kind, objectId, 'user', this.userId);
    if (own) return { role: own.role, origin: { type: kind, id: objectId, reason: 'member' } };
    this.teams ??= memberTeams.all(this.tx, memberTeamsOwner(this.orgId, this.userId)).map((entry) => entry.id);
    let best: Effective | undefined;
    for (const team of this.teams) {
      const grant = getGrant(this.tx, kind, objectId, 'team', team);
      if (grant && (best === undefined || rankOf(grant.role) > rankOf(best.role))) {
        best = { role: grant.role, origin: { type: kind, id: objectId, reason: 'team', team } };
      }
    }
    return best;
  }
}

const organizationOrigin = (orgId: string): Origin => ({ type: 'organization', organization: orgId });

/** The chain of levels above a space or collection: its parent collections, nearest first (a cycle or a missing parent ends it). */
function resolveChain(
  tx: StoreReader,
  grants: GrantReader,
  orgRole: Role,
  first: { kind: 'space' | 'collection'; id: string; defaultLevel: DefaultLevel; parent?: string | undefined },
): Effective {
  let level: { kind: 'space' | 'collection'; id: string; defaultLevel: DefaultLevel; parent?: string | undefined } | undefined = first;
  const seen = new Set<string>();
  while (level) {
    const granted = grants.at(level.kind, level.id);
    if (granted) return granted;
    if (orgRole !== null && level.defaultLevel !== 'inherit') {
      return { role: level.defaultLevel, origin: { type: level.kind, id: level.id, reason: 'default' } };
    }
    if (level.parent === undefined || seen.has(level.parent)) break;
    seen.add(level.parent);
    const parent: CollectionRecord | undefined = getCollection(tx, level.parent);
    level = parent ? { kind: 'collection', id: parent.id, defaultLevel: parent.defaultLevel, parent: parent.parent } : undefined;
  }
  return { role: orgRole, origin: organizationOrigin(grants.orgId) };
}

/** A member's effective role on a space or collection (its organization role when nothing below the organization decides). */
export function contentRole(
  tx: StoreReader,
  grants: GrantReader,
  orgRole: Role,
  object: { kind: 'space' | 'collection'; id: string; defaultLevel: DefaultLevel; parent?: string | undefined },
): Effective {
  if (orgRole === 'admin') return { role: 'admin', origin: organizationOrigin(grants.orgId) };
  return resolveChain(tx, grants, orgRole, object);
}

/** A member's effective role on a site: a grant there, else (for a member who is not a guest) its `defaultLevel` unless `inherit`, else the organization role. */
export function siteRole(grants: GrantReader, orgRole: Role, site: { id: string; defaultLevel?: DefaultLevel | undefined }): Effective {
  if (orgRole === 'admin') return { role: 'admin', origin: organizationOrigin(grants.orgId) };
  const granted = grants.at('site', site.id);
  if (granted) return granted;
  if (orgRole !== null && site.defaultLevel !== undefined && site.defaultLevel !== 'inherit') {
    return { role: site.defaultLevel, origin: { type: 'site', id: site.id, reason: 'default' } };
  }
  return { role: orgRole, origin: organizationOrigin(grants.orgId) };
}
