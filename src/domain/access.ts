/**
 * Who may call each operation: one table, checked by `executeOperation` for every
 * route before its input is validated or its handler runs (so a denied call
 * changes nothing and learns nothing from validation errors).
 *
 * - The object a route acts on is found from its path parameters, most specific
 *   first (`scopes`): a space, a collection, else the organization. Its
 *   organization is where the caller's role is read.
 * - A caller who is not an (enabled) member of that organization gets 404 for the
 *   object, as if it did not exist (ids of other organizations do not leak); a
 *   DELETE is left to its handler, which answers 204 "nothing to delete".
 * - A member whose role is below the route's gets 403 naming the role needed.
 * - When the object does not exist, the handler answers its own 404.
 *
 * Handlers keep their finer checks (a transfer's target organization, a team
 * owner's rights); this table is the floor every operation stands on.
 *
 * Adding a route: add one line to `ROUTE_ACCESS` (test/domain/access.test.ts
 * fails for an implemented route without one, and checks the role with a token
 * one role below and a token of another organization). A route acting on a new
 * kind of object reachable without `{organizationId}` in its path adds a line to
 * `scopes` too.
 */
import { forbidden, notFound } from '../api/errors.js';
import type { StoreReader } from '../store/types.js';
import { atLeast, requireRole, roleIn } from './permissions.js';
import { type MemberRole, getCollection, getOrg, getSpace } from './core-records.js';
import { getTeam, teamMembers } from './teams-records.js';

/**
 * `none`: not about an organization (the caller's own user and organizations).
 * `guest`: any member of the object's organization, guests included.
 * A role: that role or higher (admin > create > edit > review > comment > read).
 */
export type Need = 'none' | 'guest' | MemberRole;

export interface Access {
  role: Need;
  /** Also allowed below `role`: the team's owner (`{teamId}`), or the user named by `{userId}` themselves. */
  or?: 'teamOwner' | 'self';
}

const need = (role: Need, or?: Access['or']): Access => (or ? { role, or } : { role });
const read = need('read');
const comment = need('comment');
const edit = need('edit');
const create = need('create');
const admin = need('admin');

export const ROUTE_ACCESS: Readonly<Record<string, Access>> = {
  // Users and organizations (API doc §4.1)
  getAuthenticatedUser: need('none'),
  listOrganizationsForAuthenticatedUser: need('none'),
  getOrganizationById: need('guest'),
  updateOrganizationById: admin,
  inviteUsersToOrganization: admin,
  // Invite links: admins manage them; whoever holds one (its id is its secret) may read it and join.
  listOrganizationInviteLinks: admin,
  createOrganizationInvite: admin,
  getOrganizationInviteLink: need('none'),
  updateOrganizationInviteById: admin,
  deleteOrganizationInviteById: admin,
  joinOrganizationWithInvite: need('none'),
  // Custom fonts: any member reads them, admins change them
  listCustomFonts: read,
  getCustomFont: read,
  createCustomFont: admin,
  updateCustomFont: admin,
  deleteCustomFont: admin,
  // What answers (any caller)
  getApiInformation: need('none'),
  listChangeRequestsForOrganization: read,
  // Collections
  listCollectionsInOrganizationById: read,
  createCollection: create,
  getCollectionById: read,
  updateCollectionById: create,
  deleteCollectionById: create,
  listSpacesInCollectionById: read,
  moveCollection: create,
  transferCollection: admin,
  // Spaces
  listSpacesInOrganizationById: read,
  createSpace: create,
  getSpaceById: read,
  updateSpaceById: create,
  deleteSpaceById: create,
  restoreSpace: create,
  duplicateSpace: create,
  moveSpace: create,
  transferSpace: admin,
  listSpaceLinks: read,
  getSpacePDF: read,
  // Content and revisions
  getCurrentRevision: read,
  importContent: edit,
  importContentInPageById: edit,
  listPages: read,
  listFiles: read,
  getFileById: read,
  listSpaceFileBacklinks: read,
  getPageById: read,
  listSpacePageBacklinks: read,
  listPageLinksInSpace: read,
  getPageByPath: read,
  getRevisionById: read,
  listPagesInRevisionById: read,
  getPageInRevisionById: read,
  getPageInRevisionByPath: read,
  listFilesInRevisionById: read,
  // Change requests
  listChangeRequestsForSpace: read,
  createChangeRequest: edit,
  getChangeRequestById: read,
  updateChangeRequestById: edit,
  mergeChangeRequest: edit,
  updateChangeRequest: edit,
  getChangeRequestPDF: read,
  getRevisionOfChangeRequestById: read,
  importContentInChangeRequest: edit,
  importContentInChangeRequestPageById: edit,
  updateChangeRequestContent: edit,
  listPagesInChangeRequest: read,
  listFilesInChangeRequestById: read,
  getFileInChangeRequestById: read,
  listChangeRequestFileBacklinks: read,
  getPageInChangeRequestById: read,
  listPageLinksInChangeRequest: read,
  getPageInChangeRequestByPath: read,
  listChangeRequestLinks: read,
  // Git Sync
  importGitRepository: edit,
  exportToGitRepository: edit,
  getSpaceGitInfo: read,
  // docsctl extensions: a preview needs the role of the sync it previews.
  previewGitImport: edit,
  previewGitExport: edit,
  // Members (§4.17)
  listMembersInOrganizationById: read,
  getMemberInOrganizationById: read,
  updateMemberInOrganizationById: admin,
  removeMemberFromOrganizationById: need('admin', 'self'),
  updateOrganizationMemberLastSeenAt: need('guest'),
  setUserAsSSOMemberForOrganization: admin,
  listSpacesForOrganizationMember: read,
  listTeamsForOrganizationMember: read,
  // Teams (§4.18)
  listTeamsInOrganizationById: read,
  createOrganizationTeam: admin,
  getTeamInOrganizationById: read,
  updateTeamInOrganizationById: need('admin', 'teamOwner'),
  removeTeamFromOrganizationById: admin,
  listTeamMembersInOrganizationById: read,
  updateMembersInOrganizationTeam: need('admin', 'teamOwner'),
  addMemberToOrganizationTeamById: need('admin', 'teamOwner'),
  deleteMemberFromOrganizationTeamById: need('admin', 'teamOwner'),
  // Custom fields (§4.2, v0.91 shapes)
  listOrganizationCustomFields: read,
  getOrganizationCustomFieldByName: read,
  createOrganizationCustomField: admin,
  updateOrganizationCustomField: admin,
  deleteOrganizationCustomField: admin,
  getSpaceCustomFields: read,
  updateSpaceCustomFields: edit,
  // SAML SSO (the login list answers any member)
  listSAMLProvidersInOrganizationById: admin,
  createOrganizationSAMLProvider: admin,
  getOrganizationSAMLProviderById: admin,
  updateOrganizationSAMLProvider: admin,
  deleteOrganizationSAMLProvider: admin,
  listSSOProviderLoginsInOrganization: need('guest'),
  // OpenAPI specifications
  listOpenAPISpecs: read,
  getOpenAPISpecBySlug: read,
  createOpenAPISpec: create,
  createOrUpdateOpenAPISpecBySlug: create,
  deleteOpenAPISpecBySlug: create,
  updateOpenAPISpecBySlug: create,
  listOpenAPISpecVersions: read,
  getLatestOpenAPISpecVersion: read,
  getLatestOpenAPISpecVersionContent: read,
  getOpenAPISpecVersionById: read,
  getOpenAPISpecVersionContentById: read,
  // Translations
  listTranslations: read,
  getTranslation: read,
  createTranslation: admin,
  updateTranslation: admin,
  deleteTranslation: admin,
  // Sites (reads: read; changes: admin, as their handlers check)
  listSites: read,
  createSite: admin,
  getSiteById: read,
  deleteSiteById: admin,
  updateSiteById: admin,
  getSiteAdaptiveSchema: read,
  getSiteCustomizationById: read,
  updateSiteCustomizationById: admin,
  getSiteSpaceCustomizationById: read,
  overrideSiteSpaceCustomizationById: admin,
  deleteSiteSpaceCustomizationById: admin,
  updateSiteAdaptiveSchema: admin,
  getPublishedContentSite: read,
  listSiteSections: read,
  addSectionToSite: admin,
  deleteSiteSectionById: admin,
  updateSiteSectionById: admin,
  moveSiteSection: admin,
  listSiteSectionGroups: read,
  addSectionGroupToSite: admin,
  deleteSiteSectionGroupById: admin,
  updateSiteSectionGroupById: admin,
  addSectionToGroup: admin,
  removeSectionFromGroup: admin,
  moveSiteSectionGroup: admin,
  listSiteSpaces: read,
  addSpaceToSite: admin,
  deleteSiteSpaceById: admin,
  updateSiteSpaceById: admin,
  moveSiteSpace: admin,
  listSiteShareLinks: admin, // share links carry their secret URLs
  createSiteShareLink: admin,
  deleteSiteShareLinkById: admin,
  updateSiteShareLinkById: admin,
  publishSite: admin,
  unpublishSite: admin,
  getSiteStructure: read,
  getSiteTree: read, // docsctl extension: the site's structure and its spaces' page trees (read in the same organization)
  sortSiteStructure: admin,
  listSiteRedirects: read,
  getSiteRedirectBySource: read,
  createSiteRedirect: admin,
  updateSiteRedirectById: admin,
  deleteSiteRedirectById: admin,
  listSiteMcpServers: admin, // MCP servers carry their headers' secrets
  getSiteMcpServerById: admin,
  createSiteMcpServer: admin,
  updateSiteMcpServerById: admin,
  deleteSiteMcpServerById: admin,
  // Integrations: not below an organization; their handlers decide who sees and publishes what
  listIntegrations: need('none'),
  getIntegrationByName: need('none'),
  publishIntegration: need('none'),
  unpublishIntegration: need('none'),
  listIntegrationInstallations: need('none'),
  // Comments and replies (§4.10–4.11): posting needs comment; editing or deleting is also
  // limited to the author or an admin by the handlers.
  listCommentsInSpace: read,
  getCommentInSpace: read,
  listCommentRepliesInSpace: read,
  getCommentReplyInSpace: read,
  postCommentInSpace: comment,
  updateCommentInSpace: comment,
  deleteCommentInSpace: comment,
  postCommentReplyInSpace: comment,
  updateCommentReplyInSpace: comment,
  deleteCommentReplyInSpace: comment,
  listCommentsInChangeRequest: read,
  getCommentInChangeRequest: read,
  listCommentRepliesInChangeRequest: read,
  getCommentReplyInChangeRequest: read,
  postCommentInChangeRequest: comment,
  updateCommentInChangeRequest: comment,
  deleteCommentInChangeRequest: comment,
  postCommentReplyInChangeRequest: comment,
  updateCommentReplyInChangeRequest: comment,
  deleteCommentReplyInChangeRequest: comment,
  // The review flow
  getChangeRequestChanges: read,
  getContributorsByChangeRequestId: read,
  getReviewsByChangeRequestId: read,
  getRequestedReviewersByChangeRequestId: read,
  submitChangeRequestReview: need('review'),
  requestReviewersForChangeRequest: edit,
  removeRequestedReviewerFromChangeRequest: edit,
  // Search and users
  searchSpaceContent: read,
  searchOrganizationContent: read,
  getUserById: need('none'),
};

/** Path parameter → the organization of the object it names (undefined when there is none), most specific first. */
export const scopes: ReadonlyArray<{ param: string; noun: string; organizationOf: (reader: StoreReader, id: string) => string | undefined }> = [
  { param: 'spaceId', noun: 'Space', organizationOf: (reader, id) => getSpace(reader, id)?.organization },
  { param: 'collectionId', noun: 'Collection', organizationOf: (reader, id) => getCollection(reader, id)?.organization },
  { param: 'organizationId', noun: 'Organization', organizationOf: (reader, id) => (getOrg(reader, id) ? id : undefined) },
];

/**
 * Throws 404/403 when `userId` may not call `routeId` with these path params.
 * Routes without an entry are left to their handler (the access test lists them).
 */
export function checkAccess(
  reader: StoreReader,
  route: { id: string; method: string },
  params: Readonly<Record<string, unknown>>,
  userId: string,
): void {
  const routeId = route.id;
  const access = ROUTE_ACCESS[routeId];
  if (!access || access.role === 'none') return;
  for (const scope of scopes) {
    const id = params[scope.param];
    if (typeof id !== 'string') continue;
    const orgId = scope.organizationOf(reader, id);
    if (orgId === undefined) return; // unknown object: the handler's 404
    const role = roleIn(reader, orgId, userId);
    if (role === undefined) {
      // Deleting what one cannot see is "nothing to delete" (204), as the real API answers: the handler says so.
      if (route.method === 'DELETE') return;
      throw notFound(`${scope.noun} ${id} not found`);
    }
    if (access.role === 'guest' || atLeast(role, access.role) || allowedBelow(reader, access, params, userId)) return;
    if (access.or === 'teamOwner') {
      throw forbidden(
        `You need the "${access.role}" role or higher in organization ${orgId}, or the "owner" role in team ${String(params.teamId)}, to call ${routeId} (your role: ${role ?? 'guest'})`,
      );
    }
    requireRole(role, access.role, orgId, `call ${routeId}${access.or === 'self' ? ' for another member' : ''}`);
    return;
  }
}

function allowedBelow(reader: StoreReader, access: Access, params: Readonly<Record<string, unknown>>, userId: string): boolean {
  if (access.or === 'self') return params.userId === userId;
  if (access.or === 'teamOwner' && typeof params.teamId === 'string') {
    const team = getTeam(reader, params.teamId);
    return team !== undefined && teamMembers.get(reader, team.id, userId)?.role === 'owner';
  }
  return false;
}
