/**
 * Stored record + the actor's role → the API object, shaped after the real
 * OpenAPI schemas (`Organization`, `User`, `Collection`, `Space` of
 * @gitbook/api 0.143.2): every required member is present, optional members
 * appear only when they have a value (never `null` where the schema has none).
 */
import {
  type CollectionPermissions,
  type OrganizationPermissions,
  type SpacePermissions,
  collectionPermissions,
  organizationPermissions,
  spacePermissions,
} from './permissions.js';
import type {
  BillingProduct,
  CollectionRecord,
  ContentVisibility,
  DefaultLevel,
  GitSyncState,
  OrgMergeRules,
  OrgRecord,
  OrganizationType,
  Role,
  SpaceEditMode,
  SpaceMergeRules,
  SpaceRecord,
  UserRecord,
} from './core-records.js';
import { gitSyncStateView } from './core-records.js';
import { collectionUrls, organizationUrls, spaceUrls, userUrls } from './urls.js';

/** What a view needs from the request. */
export interface ViewContext {
  origin: string;
}

export interface UserView {
  object: 'user';
  id: string;
  displayName: string;
  email: string;
  photoURL?: string;
  urls: { location: string };
}

/** What a user view shows of a user record besides its id (team rows keep a copy: teams-records.ts). */
import type { ShownUser } from './core-records.js';
export { type ShownUser, shownUser } from './core-records.js';

export function userView(ctx: ViewContext, user: UserRecord): UserView {
  return shownUserView(ctx, user.id, user);
}

export function shownUserView(ctx: ViewContext, id: string, user: ShownUser): UserView {
  return {
    object: 'user',
    id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoURL !== undefined ? { photoURL: user.photoURL } : {}),
    urls: userUrls(ctx.origin, id),
  };
}

export interface OrganizationView {
  object: 'organization';
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: OrganizationType;
  defaultRole?: Role;
  defaultContent?: { type: 'site'; site: string };
  sso?: boolean;
  ai?: boolean;
  inviteLinks: boolean;
  plan: BillingProduct;
  mergeRules: OrgMergeRules;
  urls: { location: string; app: string; logo?: string };
  /** docsctl has no billing: no trial applies, and none was ever consumed. */
  trial: { status: 'notapplicable'; count: 0 };
  permissions: OrganizationPermissions;
}

export function organizationView(ctx: ViewContext, org: OrgRecord, role: Role): OrganizationView {
  const urls = organizationUrls(ctx.origin, org.id);
  return {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: [...org.emailDomains],
    ...(org.hostname !== undefined ? { hostname: org.hostname } : {}),
    type: org.type,
    ...(org.defaultRole !== undefined ? { defaultRole: org.defaultRole } : {}),
    ...(org.defaultContent !== undefined ? { defaultContent: org.defaultContent } : {}),
    ...(org.sso !== undefined ? { sso: org.sso } : {}),
    ...(org.ai !== undefined ? { ai: org.ai } : {}),
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    mergeRules: org.mergeRules,
    urls: org.logo !== undefined ? { ...urls, logo: org.logo } : urls,
    trial: { status: 'notapplicable', count: 0 },
    permissions: organizationPermissions(role),
  };
}

export interface CollectionView {
  object: 'collection';
  id: string;
  title: string;
  description?: string;
  organization: string;
  parent?: string;
  defaultLevel: DefaultLevel;
  urls: { location: string; app: string };
  permissions: CollectionPermissions;
}

export function collectionView(ctx: ViewContext, collection: CollectionRecord, role: Role): CollectionView {
  return {
    object: 'collection',
    id: collection.id,
    title: collection.title,
    ...(collection.description !== undefined ? { description: collection.description } : {}),
    organization: collection.organization,
    ...(collection.parent !== undefined ? { parent: collection.parent } : {}),
    defaultLevel: collection.defaultLevel,
    urls: collectionUrls(ctx.origin, collection.organization, collection.id),
    permissions: collectionPermissions(role),
  };
}

export interface SpaceView {
  object: 'space';
  id: string;
  title: string;
  emoji: string;
  visibility: ContentVisibility;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  editMode: SpaceEditMode;
  mergeRules: SpaceMergeRules;
  urls: { location: string; app: string; icon?: string };
  organization: string;
  parent?: string;
  language?: string;
  gitSync?: GitSyncState;
  revision: string;
  defaultLevel: DefaultLevel;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  /** 0.202: only for a style guide. */
  type?: 'styleguide';
  permissions: SpacePermissions;
}

export function spaceView(ctx: ViewContext, space: SpaceRecord, role: Role): SpaceView {
  const urls = spaceUrls(ctx.origin, space.organization, space.id);
  return {
    object: 'space',
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility,
    createdAt: space.createdAt,
    updatedAt: space.updatedAt,
    ...(space.deletedAt !== undefined ? { deletedAt: space.deletedAt } : {}),
    editMode: space.editMode,
    mergeRules: space.mergeRules,
    urls: space.icon !== undefined ? { ...urls, icon: space.icon } : urls,
    organization: space.organization,
    // A soft-deleted space keeps `parent`: where restore puts it back (when that collection still exists).
    ...(space.parent !== undefined ? { parent: space.parent } : {}),
    ...(space.language !== undefined ? { language: space.language } : {}),
    ...(space.gitSync !== undefined ? { gitSync: gitSyncStateView(space.id, space.gitSync) } : {}),
    revision: space.revision,
    defaultLevel: space.defaultLevel,
    comments: space.counters.comments,
    changeRequests: space.counters.changeRequests,
    changeRequestsOpen: space.counters.changeRequestsOpen,
    changeRequestsDraft: space.counters.changeRequestsDraft,
    ...(space.type !== undefined ? { type: space.type } : {}),
    permissions: spacePermissions(role),
  };
}
