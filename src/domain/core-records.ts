/**
 * What the domain keeps in the store: table names, the stored record types, and
 * small typed accessors (`requireSpace(tx, id)`, `getMember(tx, org, user)`…).
 *
 * Records are small and keyed so that a request reads only what it needs:
 *
 * | table            | key                          | value                                              |
 * |------------------|------------------------------|----------------------------------------------------|
 * | meta             | `store`                      | StoreMeta (set once by bootstrap)                  |
 * | users            | userId                       | UserRecord                                         |
 * | usersByEmail     | lower-cased e-mail           | userId                                             |
 * | tokens           | sha256hex(token)             | TokenRecord (plain tokens are never stored)        |
 * | orgs             | orgId                        | OrgRecord                                          |
 * | orgsByHostname   | hostname                     | orgId (hostnames are unique)                       |
 * | members          | `${orgId}/${userId}`         | MemberRecord                                       |
 * | orgMembers       | OrderedList, owner orgId     | the org's members (join order), each row a copy of |
 * |                  |                              | the MemberRecord (null in older stores)            |
 * | userOrgs         | OrderedList, owner userId    | the user's organizations (join order)              |
 * | collections      | collectionId                 | CollectionRecord                                   |
 * | orgCollections   | OrderedList, owner orgId     | the org's collections (creation order)             |
 * | spaces           | spaceId                      | SpaceRecord                                        |
 * | orgSpaces        | OrderedList, owner orgId     | the org's active spaces (creation order)           |
 * | orgTrash         | `${orgId}/${deletedAt}~${id}`| TrashEntry (the org's soft-deleted spaces, oldest first) |
 * | children         | OrderedList, owner `org:<orgId>` / `col:<id>` | ChildRef (ordered content of a root/collection) |
 * | childCounts      | `${container}:${type}`       | number of children of that type                    |
 * | revisions        | `${spaceId}/${revisionId}`   | RevisionRecord                                     |
 * | changeRequests   | `${spaceId}/${crId}`         | ChangeRequestRecord (src/domain/content/)          |
 * | spaceChangeRequests | KeyedSet, owner spaceId, id = number (9 digits) | crId                       |
 * | changeRequestsByStatus | KeyedSet, owner `${spaceId}:${status}`, id = number | crId              |
 *
 * Every list that grows is one row per item (src/domain/ordered.ts) with a count row:
 * a create writes a few rows whatever the size of the organization, and a listing
 * reads the page it answers.
 *
 * A revision's content (pages, files) is a tree of content-addressed objects
 * whose root hash is the revision's `content` (see src/domain/content/storage.ts).
 *
 * A soft-deleted space leaves `orgSpaces` (its order key is kept in its trash entry,
 * so a restore puts it back in its place). `orgTrash` is ordered by deletion time,
 * so the lazy purge of expired spaces reads only the expired entries and one more.
 */
// Sites keep a reverse index of the spaces they show: a purged space leaves them (sites/integrity.ts).
import { detachSpaceFromSites } from './sites/integrity.js';
import { dropStyleguide } from './sites/styleguide-records.js';
import { notFound } from '../api/errors.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import { KeyedSet, OrderedList } from './ordered.js';

export const Tables = {
  meta: 'meta',
  users: 'users',
  usersByEmail: 'usersByEmail',
  tokens: 'tokens',
  orgs: 'orgs',
  orgsByHostname: 'orgsByHostname',
  /** `${emailDomain}/${orgId}` → null: the organizations whose members may join by e-mail domain (kept by `putOrg`). */
  orgsByEmailDomain: 'orgsByEmailDomain',
  members: 'members',
  orgMembers: 'orgMembers',
  userOrgs: 'userOrgs',
  collections: 'collections',
  orgCollections: 'orgCollections',
  spaces: 'spaces',
  orgSpaces: 'orgSpaces',
  orgTrash: 'orgTrash',
  children: 'children',
  childCounts: 'childCounts',
  revisions: 'revisions',
  changeRequests: 'changeRequests',
  spaceChangeRequests: 'spaceChangeRequests',
  changeRequestsByStatus: 'changeRequestsByStatus',
} as const;

// ─── Lists that grow (one row per item) ────────────────────────────────────

/** An organization's active spaces, in creation order. */
export const orgSpaceList = new OrderedList<null>(Tables.orgSpaces);
/** An organization's collections, in creation order. */
export const orgCollectionList = new OrderedList<null>(Tables.orgCollections);
/** An organization's members, in join order (their records are in `members`; each row a MemberListRow). */
export const orgMemberList = new OrderedList<MemberListRow | null>(Tables.orgMembers);
/** A user's organizations, in join order. */
export const userOrgList = new OrderedList<null>(Tables.userOrgs);
/** A space's change request ids by number (`crNumberKey`). */
export const spaceCrNumbers = new KeyedSet<string>(Tables.spaceChangeRequests);
/** A space's change request ids by status, then number: owner `${spaceId}:${status}`. */
export const crStatusIndex = new KeyedSet<string>(Tables.changeRequestsByStatus);

/** Change request numbers as fixed-width keys, so that key order is number order. */
export const crNumberKey = (n: number) => String(n).padStart(9, '0');

// ─── Enumerations (gaps.md §1.1) ───────────────────────────────────────────

export const MEMBER_ROLES = ['admin', 'create', 'edit', 'review', 'comment', 'read'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
/** An organization role; null = guest. */
export type Role = MemberRole | null;
export type DefaultLevel = MemberRole | null | 'inherit';
export type ContentVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';
export type SpaceEditMode = 'live' | 'locked';
export type OrganizationType = 'business' | 'community';
export type BillingProduct =
  | 'free_2024'
  | 'plus_2024'
  | 'pro_2024'
  | 'enterprise_2024'
  | 'community_2024'
  | 'free'
  | 'plus'
  | 'pro'
  | 'internal';

export type OrgMergeRules = { type: 'none' } | { type: 'rules'; rules: unknown[] };
export type SpaceMergeRules = { type: 'inherit' } | OrgMergeRules;

/** How long a deleted space stays restorable. */
export const RESTORE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

// ─── Records ───────────────────────────────────────────────────────────────

export interface StoreMeta {
  createdAt: string;
  /** The user the local CLI acts as when no token is given. */
  owner: string;
}

export interface UserRecord {
  id: string;
  displayName: string;
  email: string;
  photoURL?: string;
  createdAt: string;
}

/** What views show of a user (member and team rows keep a copy). */
export type ShownUser = Pick<UserRecord, 'displayName' | 'email' | 'photoURL'>;

export function shownUser(user: UserRecord): ShownUser {
  return { displayName: user.displayName, email: user.email, ...(user.photoURL !== undefined ? { photoURL: user.photoURL } : {}) };
}

/**
 * A row of `orgMemberList`: copies of what a member listing shows (the member record, the user's
 * shown fields, the number of the organization's teams they are in), so a listing reads one row
 * per member. Written by addMember and rewritten with the member's team rows (refreshTeamRows) by
 * every write that changes what it copies. null in stores written before the copies.
 */
export interface MemberListRow {
  member: MemberRecord;
  user: ShownUser;
  teams: number;
}

export interface TokenRecord {
  userId: string;
  createdAt: string;
  label: string;
  /** An integration installation's temporary token: it acts as `userId` only where the installation reaches (installation-scope.ts). */
  installation?: InstallationTokenScope;
}

/** What an installation token is for (createIntegrationInstallationToken). */
/** What a published URL's content token reads (published-tokens.ts): one space of one site, until `expiresAt`. */
export interface PublishedTokenScope {
  site: string;
  space: string;
  organization: string;
  expiresAt: string;
}

export interface InstallationTokenScope {
  integration: string;
  installationId: string;
  expiresAt: string;
}

export interface OrgRecord {
  id: string;
  title: string;
  createdAt: string;
  type: OrganizationType;
  plan: BillingProduct;
  emailDomains: string[];
  inviteLinks: boolean;
  mergeRules: OrgMergeRules;
  hostname?: string;
  /** Role given to invited users when the invite names none; undefined = `read`. */
  defaultRole?: Role;
  sso?: boolean;
  ai?: boolean;
  logo?: string;
  /** The site visitors land on. */
  defaultContent?: { type: 'site'; site: string };
  updatedAt?: string;
}

export interface MemberRecord {
  role: Role;
  joinedAt: string;
  sso: boolean;
  disabled: boolean;
  /** Set by the last-seen ping (updateOrganizationMemberLastSeenAt). */
  lastSeenAt?: string;
}

export interface CollectionRecord {
  id: string;
  organization: string;
  title: string;
  description?: string;
  parent?: string;
  defaultLevel: DefaultLevel;
  createdAt: string;
  updatedAt: string;
}

export interface SpaceCounters {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

export interface GitSyncState {
  repoName?: string;
  installationProvider?: 'github' | 'gitlab' | 'github-legacy';
  integration?: string;
  url?: string;
  updatedAt?: string;
}

/**
 * The space's `GitSyncState` as 0.202 answers it (`installationId`, `installationProvider`,
 * `installationStatus` required). A space syncs either through a Git Sync installation
 * (its id, provider and status, given by the caller who knows it) or, set up by
 * `importGitRepository`/`exportToGitRepository` alone, through the space's own sync
 * configuration: the space id stands for the installation, the provider is the one the
 * sync named (else `github`, the format docsctl reads and writes), and it is `active`
 * (docsctl reaches the repository by its URL, nothing to authorize).
 */
export function gitSyncStateView(
  spaceId: string,
  state: GitSyncState,
  installation?: { id: string; provider: 'github' | 'gitlab'; status: 'active' | 'pending' | 'unauthenticated' },
) {
  return {
    ...state,
    installationId: installation?.id ?? spaceId,
    installationProvider: installation?.provider ?? state.installationProvider ?? 'github',
    installationStatus: installation?.status ?? 'active',
  };
}

export interface SpaceRecord {
  id: string;
  organization: string;
  title: string;
  emoji: string;
  /** Icon URL (exclusive with a non-empty emoji); shown as `urls.icon`. */
  icon?: string;
  visibility: ContentVisibility;
  /** Parent collection. Kept on a soft-deleted space so restore can put it back. */
  parent?: string;
  editMode: SpaceEditMode;
  defaultLevel: DefaultLevel;
  language?: string;
  mergeRules: SpaceMergeRules;
  /** Id of the primary (active) revision: `revisions` key `${id}/${revision}`. */
  revision: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  counters: SpaceCounters;
  gitSync?: GitSyncState;
  /** 0.202: a writing style guide (sites/styleguide-records.ts); absent for a regular space. Never copied by duplicate. */
  type?: 'styleguide';
}

/** Git commit metadata of a revision (API `GitSyncCommit`). */
export interface RevisionGit {
  oid: string;
  message: string;
  createdByGitBook?: boolean;
  url?: string;
  ref?: string;
}

export interface RevisionRecord {
  id: string;
  space: string;
  type: 'edits' | 'merge' | 'rollback' | 'update' | 'computed';
  parents: string[];
  createdAt: string;
  /** Hash of the content root object (src/domain/content/storage.ts); absent = empty content. Copied as-is by duplicate. */
  content?: string;
  /** `merge` revisions: id of the change request merged. */
  mergedFrom?: string;
  git?: RevisionGit;
  /** Other references added by later features; copied as-is by duplicate. */
  [extra: string]: unknown;
}

export interface ChildRef {
  type: 'space' | 'collection';
  id: string;
}

export interface TrashEntry {
  id: string;
  deletedAt: string;
  /** The space's order key in `orgSpaces` before its deletion (restores it there). */
  orderKey?: string;
}

// ─── Keys ──────────────────────────────────────────────────────────────────

export const memberKey = (orgId: string, userId: string) => `${orgId}/${userId}`;
export const revisionKey = (spaceId: string, revisionId: string) => `${spaceId}/${revisionId}`;
export const emailKey = (email: string) => email.trim().toLowerCase();

// ─── Accessors ─────────────────────────────────────────────────────────────

export const getMeta = (tx: StoreReader) => tx.get<StoreMeta>(Tables.meta, 'store');
export const getUser = (tx: StoreReader, id: string) => tx.get<UserRecord>(Tables.users, id);
export const getOrg = (tx: StoreReader, id: string) => tx.get<OrgRecord>(Tables.orgs, id);
export const getCollection = (tx: StoreReader, id: string) => tx.get<CollectionRecord>(Tables.collections, id);
export const getSpace = (tx: StoreReader, id: string) => tx.get<SpaceRecord>(Tables.spaces, id);
export const getMember = (tx: StoreReader, orgId: string, userId: string) =>
  tx.get<MemberRecord>(Tables.members, memberKey(orgId, userId));
/** The member record of a row of `orgMemberList`: its copy, or the record itself for a row without one. */
export const listedMember = (tx: StoreReader, orgId: string, row: { id: string; value: MemberListRow | null }) => row.value?.member ?? getMember(tx, orgId, row.id);
export const getRevision = (tx: StoreReader, spaceId: string, revisionId: string) =>
  tx.get<RevisionRecord>(Tables.revisions, revisionKey(spaceId, revisionId));

export const userIdByEmail = (tx: StoreReader, email: string) => tx.get<string>(Tables.usersByEmail, emailKey(email));

export function requireUser(tx: StoreReader, id: string): UserRecord {
  const user = getUser(tx, id);
  if (!user) throw notFound(`User ${id} not found`);
  return user;
}

export function requireOrg(tx: StoreReader, id: string): OrgRecord {
  const org = getOrg(tx, id);
  if (!org) throw notFound(`Organization ${id} not found`);
  return org;
}

export function requireCollection(tx: StoreReader, id: string): CollectionRecord {
  const collection = getCollection(tx, id);
  if (!collection) throw notFound(`Collection ${id} not found`);
  return collection;
}

/** A space record, soft-deleted or not, unless it is past the restore window (then it is gone: 404). */
export function requireSpace(tx: StoreReader, id: string, now: Date): SpaceRecord {
  const space = getSpace(tx, id);
  if (!space || isExpired(space, now)) throw notFound(`Space ${id} not found`);
  return space;
}

/**
 * True when a soft-deleted space is past its 7-day restore window (exactly 7 days is still restorable).
 * `now` may be the clock itself: it is asked only for a deleted space (a served read that never asks
 * the clock may keep its answer for the generation, execute.ts `generational`).
 */
export function isExpired(space: { deletedAt?: string | undefined }, now: Date | (() => Date)): boolean {
  if (space.deletedAt === undefined) return false;
  return (typeof now === 'function' ? now() : now).getTime() - Date.parse(space.deletedAt) > RESTORE_WINDOW_MS;
}

// Team rows copy a user's shown fields and a member record (teams-records.ts): a change to an
// existing user or member must call refreshTeamRows in the same commit (putMember does).
export const putUser = (tx: StoreWriter, user: UserRecord) => tx.put(Tables.users, user.id, user);
/** Writes an organization and keeps the e-mail domain index (`orgsByEmailDomain`) current: the one writer of `orgs`. */
export function putOrg(tx: StoreWriter, org: OrgRecord): void {
  const before = new Set(getOrg(tx, org.id)?.emailDomains ?? []);
  const after = new Set(org.emailDomains);
  for (const domain of before) if (!after.has(domain)) tx.delete(Tables.orgsByEmailDomain, `${domain}/${org.id}`);
  for (const domain of after) if (!before.has(domain)) tx.put(Tables.orgsByEmailDomain, `${domain}/${org.id}`, null);
  tx.put(Tables.orgs, org.id, org);
}

/** Ids of the organizations that list `domain` (lowercase) among their e-mail domains, in id order, at most `limit`. */
export function orgIdsForEmailDomain(tx: StoreReader, domain: string, limit: number): string[] {
  const prefix = `${domain}/`;
  // A stored domain holding "/" cannot pass for this one: the rest of its key would hold a "/" too.
  return tx
    .scan(Tables.orgsByEmailDomain, { prefix, limit: limit * 2 })
    .map(([key]) => key.slice(prefix.length))
    .filter((id) => !id.includes('/'))
    .slice(0, limit);
}
export const putCollection = (tx: StoreWriter, c: CollectionRecord) => tx.put(Tables.collections, c.id, c);
export const putSpace = (tx: StoreWriter, s: SpaceRecord) => tx.put(Tables.spaces, s.id, s);
export const putRevision = (tx: StoreWriter, r: RevisionRecord) => tx.put(Tables.revisions, revisionKey(r.space, r.id), r);

/** Makes `userId` a member of `orgId` (no-op when already a member); keeps both indexes in order. */
export function addMember(tx: StoreWriter, orgId: string, userId: string, member: MemberRecord): boolean {
  const key = memberKey(orgId, userId);
  if (tx.has(Tables.members, key)) return false;
  tx.put(Tables.members, key, member);
  const user = getUser(tx, userId);
  // A new member is in none of the organization's teams yet.
  orgMemberList.insert(tx, orgId, userId, user ? { member, user: shownUser(user), teams: 0 } : null);
  userOrgList.insert(tx, userId, orgId, null);
  return true;
}

// ─── Trash (soft-deleted spaces) ───────────────────────────────────────────

const trashKey = (orgId: string, deletedAt: string, spaceId: string) => `${orgId}/${deletedAt}~${spaceId}`;

/** Moves a space that was just soft-deleted (`deletedAt` set) from the org's active spaces to its trash. */
export function trashSpace(tx: StoreWriter, space: SpaceRecord & { deletedAt: string }): void {
  const orderKey = orgSpaceList.orderKey(tx, space.organization, space.id);
  orgSpaceList.remove(tx, space.organization, space.id);
  const entry: TrashEntry = { id: space.id, deletedAt: space.deletedAt, ...(orderKey !== undefined ? { orderKey } : {}) };
  tx.put(Tables.orgTrash, trashKey(space.organization, space.deletedAt, space.id), entry);
}

/** Takes a soft-deleted space out of the trash and back into the org's active spaces, where it was. */
export function untrashSpace(tx: StoreWriter, space: SpaceRecord): void {
  if (space.deletedAt === undefined) return;
  const key = trashKey(space.organization, space.deletedAt, space.id);
  const entry = tx.get<TrashEntry>(Tables.orgTrash, key);
  tx.delete(Tables.orgTrash, key);
  orgSpaceList.reinsert(tx, space.organization, space.id, null, entry?.orderKey);
}

/**
 * Removes a space for good: its record, its revision records (the primary one,
 * its ancestors, and those of its change requests), its change requests, and
 * its place in the organization's indexes and in every site (as a site space or its style
 * guide). Called lazily for spaces past the window. (Content objects are left to `store gc`.)
 */
export function purgeSpace(tx: StoreWriter, space: SpaceRecord): void {
  tx.delete(Tables.spaces, space.id);
  detachSpaceFromSites(tx, space.id);
  dropStyleguide(tx, space);
  const heads = [space.revision];
  for (const { id: number, value: crId } of spaceCrNumbers.all(tx, space.id)) {
    const key = `${space.id}/${crId}`;
    const cr = tx.get<{ revision?: unknown; status?: unknown }>(Tables.changeRequests, key);
    if (typeof cr?.revision === 'string') heads.push(cr.revision);
    if (typeof cr?.status === 'string') crStatusIndex.remove(tx, `${space.id}:${cr.status}`, number);
    tx.delete(Tables.changeRequests, key);
    spaceCrNumbers.remove(tx, space.id, number);
  }
  // Every revision of the space is reachable from the primary one or a change request's through `parents`.
  const seen = new Set<string>();
  while (heads.length > 0) {
    const id = heads.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const revision = getRevision(tx, space.id, id);
    if (!revision) continue;
    tx.delete(Tables.revisions, revisionKey(space.id, id));
    heads.push(...revision.parents);
  }
  orgSpaceList.remove(tx, space.organization, space.id);
  if (space.deletedAt !== undefined) tx.delete(Tables.orgTrash, trashKey(space.organization, space.deletedAt, space.id));
}

const SWEEP_BATCH = 16;

/**
 * Lazy purge: removes the organization's soft-deleted spaces that are past the
 * restore window. The trash is ordered by deletion time, so this reads the expired
 * entries and one more; it writes nothing when nothing expired.
 * Write operations call it; reads simply treat expired spaces as absent.
 */
export function sweepTrash(tx: StoreWriter, orgId: string, now: Date): void {
  for (;;) {
    const rows = tx.scan<TrashEntry>(Tables.orgTrash, { prefix: `${orgId}/`, limit: SWEEP_BATCH });
    let purged = 0;
    for (const [key, entry] of rows) {
      if (!isExpired(entry, now)) return;
      const space = getSpace(tx, entry.id);
      if (space && space.deletedAt === entry.deletedAt) purgeSpace(tx, space);
      tx.delete(Tables.orgTrash, key);
      purged++;
    }
    if (rows.length < SWEEP_BATCH || purged === 0) return;
  }
}

// ─── Users ─────────────────────────────────────────────────────────────────

/** The user with this e-mail, created when unknown (display name = the e-mail's local part). */
export function ensureUser(
  tx: StoreWriter,
  input: { email: string; displayName?: string | undefined },
  newId: () => string,
  now: string,
): { user: UserRecord; created: boolean } {
  const existingId = userIdByEmail(tx, input.email);
  const existing = existingId === undefined ? undefined : getUser(tx, existingId);
  if (existing) return { user: existing, created: false };
  const email = input.email.trim();
  const user: UserRecord = {
    id: newId(),
    displayName: input.displayName?.trim() || email.split('@')[0] || email,
    email,
    createdAt: now,
  };
  putUser(tx, user);
  tx.put(Tables.usersByEmail, emailKey(email), user.id);
  return { user, created: true };
}
