/**
 * Who may do what: organization roles, the `permissions` objects of API
 * responses, and the access checks every operation runs.
 *
 * Rules:
 * - An actor who is not a member of the object's organization (or whose
 *   membership is disabled) is told the object does not exist (404), as the real
 *   API hides what a user cannot see.
 * - A member whose role is too low gets 403 naming the role needed.
 * - Roles rank admin > create > edit > review > comment > read > guest (null).
 * - A member's role on a space, collection or site is their effective role
 *   (src/domain/grants.ts): grants to them or their teams on the object or a
 *   parent collection, the content's `defaultLevel`, else their organization role.
 *   Organization admins are admins everywhere.
 */
import { forbidden, notFound } from '../api/errors.js';
import type { StoreReader } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import {
  type CollectionRecord,
  type DefaultLevel,
  type MemberRole,
  type OrgRecord,
  type Role,
  type SpaceRecord,
  getCollection,
  getMember,
  getOrg,
  getSpace,
  isExpired,
} from './core-records.js';
import { GrantReader, contentRole, siteRole } from './grants.js';

const RANK: Record<MemberRole, number> = { admin: 6, create: 5, edit: 4, review: 3, comment: 2, read: 1 };

export function rank(role: Role): number {
  return role === null ? 0 : RANK[role];
}

/** True when `role` is `min` or higher. */
export function atLeast(role: Role, min: MemberRole): boolean {
  return rank(role) >= RANK[min];
}

/** The actor's role in an organization, or undefined when not an (enabled) member. */
export function roleIn(tx: StoreReader, orgId: string, userId: string): Role | undefined {
  const member = getMember(tx, orgId, userId);
  if (!member || member.disabled) return undefined;
  return member.role;
}

/** Throws 403 unless `role` is `min` or higher. `action` completes "to …". */
export function requireRole(role: Role, min: MemberRole, orgId: string, action: string): void {
  if (atLeast(role, min)) return;
  throw forbidden(
    `You need the "${min}" role or higher in organization ${orgId} to ${action} (your role: ${role ?? 'guest'})`,
  );
}

// ─── Access to objects (404 for non-members) ──────────────────────────────

export interface OrgAccess {
  org: OrgRecord;
  role: Role;
}

/** The organization and the actor's role in it; 404 when absent or the actor is not a member. */
export function orgAccess(tx: StoreReader, orgId: string, userId: string): OrgAccess {
  const org = getOrg(tx, orgId);
  const role = org ? roleIn(tx, orgId, userId) : undefined;
  if (!org || role === undefined) throw notFound(`Organization ${orgId} not found`);
  return { org, role };
}

export interface CollectionAccess {
  collection: CollectionRecord;
  role: Role;
}

export function findCollection(tx: StoreReader, id: string, userId: string): CollectionAccess | undefined {
  const collection = getCollection(tx, id);
  if (!collection) return undefined;
  const role = collectionRoleOf(tx, collection, userId);
  return role === undefined ? undefined : { collection, role };
}

/** The user's effective role on a space; undefined when they are not an (enabled) member of its organization. */
export function spaceRoleOf(tx: StoreReader, space: SpaceRecord, userId: string, grants?: GrantReader): Role | undefined {
  const orgRole = roleIn(tx, space.organization, userId);
  if (orgRole === undefined) return undefined;
  return contentRole(tx, grants ?? new GrantReader(tx, space.organization, userId), orgRole, { kind: 'space', ...space }).role;
}

/** The user's effective role on a collection; undefined when they are not an (enabled) member of its organization. */
export function collectionRoleOf(tx: StoreReader, collection: CollectionRecord, userId: string, grants?: GrantReader): Role | undefined {
  const orgRole = roleIn(tx, collection.organization, userId);
  if (orgRole === undefined) return undefined;
  return contentRole(tx, grants ?? new GrantReader(tx, collection.organization, userId), orgRole, { kind: 'collection', ...collection }).role;
}

/** The user's effective role on a site of organization `orgId`; undefined when they are not an (enabled) member. */
export function siteRoleOf(tx: StoreReader, orgId: string, site: { id: string; defaultLevel?: DefaultLevel | undefined }, userId: string, grants?: GrantReader): Role | undefined {
  const orgRole = roleIn(tx, orgId, userId);
  if (orgRole === undefined) return undefined;
  return siteRole(grants ?? new GrantReader(tx, orgId, userId), orgRole, site).role;
}

/** The collection and the actor's role in its organization; 404 when absent or hidden. */
export function collectionAccess(tx: StoreReader, id: string, userId: string): CollectionAccess {
  const found = findCollection(tx, id, userId);
  if (!found) throw notFound(`Collection ${id} not found`);
  return found;
}

export interface SpaceAccess {
  space: SpaceRecord;
  role: Role;
}

/** A space the actor can see (soft-deleted ones included, expired ones not). */
export function findSpace(tx: StoreReader, id: string, userId: string, now: Date | Clock): SpaceAccess | undefined {
  const space = getSpace(tx, id);
  if (!space || isExpired(space, now)) return undefined;
  const role = spaceRoleOf(tx, space, userId);
  return role === undefined ? undefined : { space, role };
}

/** The space (possibly soft-deleted) and the actor's role; 404 when absent, expired or hidden. */
export function spaceAccess(tx: StoreReader, id: string, userId: string, now: Date | Clock): SpaceAccess {
  const found = findSpace(tx, id, userId, now);
  if (!found) throw notFound(`Space ${id} not found`);
  return found;
}

/** Like spaceAccess, but a soft-deleted space is refused (404) with a hint to restore it. */
export function activeSpaceAccess(tx: StoreReader, id: string, userId: string, now: Date | Clock): SpaceAccess {
  const found = spaceAccess(tx, id, userId, now);
  if (found.space.deletedAt !== undefined) {
    throw notFound(`Space ${id} was deleted on ${found.space.deletedAt}; restore it first (POST /v1/spaces/${id}/restore)`);
  }
  return found;
}

// ─── `permissions` objects of responses ───────────────────────────────────

export interface OrganizationPermissions {
  view: boolean;
  /** Can open the organization in the application: members, not guests (0.202). */
  access: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}

export function organizationPermissions(role: Role): OrganizationPermissions {
  const admin = atLeast(role, 'admin');
  const member = atLeast(role, 'read'); // not a guest
  return {
    view: true,
    access: member,
    admin,
    ownTeam: false, // teams come later; nobody owns one yet
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: atLeast(role, 'create'),
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: admin,
    installIntegration: admin,
  };
}

export interface CollectionPermissions {
  view: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  create: boolean;
}

export function collectionPermissions(role: Role): CollectionPermissions {
  return {
    view: atLeast(role, 'read'),
    admin: atLeast(role, 'create'),
    viewInviteLinks: atLeast(role, 'admin'),
    create: atLeast(role, 'create'),
  };
}

/** A site's `permissions` (0.202): the organization role decides, as every site route checks it (sites/access.ts). */
export interface SitePermissions {
  view: boolean;
  access: boolean;
  edit: boolean;
  create: boolean;
  admin: boolean;
  installIntegration: boolean;
  viewAdaptiveSchema: boolean;
  editAdaptiveSchema: boolean;
}

export function sitePermissions(role: Role): SitePermissions {
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    edit: atLeast(role, 'edit'),
    create: atLeast(role, 'create'),
    admin: atLeast(role, 'admin'),
    installIntegration: atLeast(role, 'admin'),
    viewAdaptiveSchema: atLeast(role, 'read'),
    editAdaptiveSchema: atLeast(role, 'admin'),
  };
}

export interface SpacePermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  edit: boolean;
  triggerGitSync: boolean;
  comment: boolean;
  merge: boolean;
  review: boolean;
  installIntegration: boolean;
}

export function spacePermissions(role: Role): SpacePermissions {
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin: atLeast(role, 'create'),
    viewInviteLinks: atLeast(role, 'admin'),
    edit: atLeast(role, 'edit'),
    triggerGitSync: atLeast(role, 'edit'),
    comment: atLeast(role, 'comment'),
    merge: atLeast(role, 'edit'),
    review: atLeast(role, 'review'),
    installIntegration: atLeast(role, 'admin'),
  };
}

/**
 * The caller's effective role on each item of a listing of one organization's
 * content (their grants are read once for the whole page).
 */
export class ListedRoles {
  private readonly grants: GrantReader;

  constructor(
    private readonly tx: StoreReader,
    orgId: string,
    userId: string,
    private readonly orgRole: Role,
  ) {
    this.grants = new GrantReader(tx, orgId, userId);
  }

  space(space: SpaceRecord): Role {
    return contentRole(this.tx, this.grants, this.orgRole, { kind: 'space', ...space }).role;
  }

  collection(collection: CollectionRecord): Role {
    return contentRole(this.tx, this.grants, this.orgRole, { kind: 'collection', ...collection }).role;
  }

  site(site: { id: string; defaultLevel?: DefaultLevel | undefined }): Role {
    return siteRole(this.grants, this.orgRole, site).role;
  }
}
