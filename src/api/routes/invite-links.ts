/**
 * Invite links of an organization (the real API's `organization-invites` operations):
 * a secret link that makes whoever follows it a member with the link's role. The
 * invite's id is the secret (`POST /v1/orgs/{organizationId}/invites/{inviteId}` joins).
 *
 * Bodies follow @gitbook/api 0.143.2: an invite is to the organization (`role`), to a
 * space (`level` + `space`) or to a collection (`level` + `collection`). The route takes
 * the union of their fields as one object (as the route-table test compares them);
 * the handler tells which one was sent.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { MemberRoleOrGuest, listQuery, noQuery, pathParams } from '../schemas/common.js';

const invite = ['organizationId', 'inviteId'] as const;

export const listOrganizationInviteLinks = defineRoute({
  id: 'listOrganizationInviteLinks',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/link-invites',
  summary: 'List the invite links of an organization',
  source: 'real-api',
  access: 'admin',
  params: pathParams('organizationId'),
  query: listQuery(),
  paginated: true,
});

export const createOrganizationInvite = defineRoute({
  id: 'createOrganizationInvite',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/link-invites',
  summary: 'Create an invite link to an organization',
  source: 'real-api',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({
    /** An organization invite: the role its members get (null: guest). */
    role: MemberRoleOrGuest.optional(),
    /** A space or collection invite: the level in it. */
    level: MemberRoleOrGuest.optional(),
    space: z.string().min(1).optional(),
    collection: z.string().min(1).optional(),
  }),
  bodyRequired: true,
  success: 201,
});

export const getOrganizationInviteLink = defineRoute({
  id: 'getOrganizationInviteLink',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
  summary: 'Get an invite link of an organization',
  source: 'real-api',
  access: 'none',
  params: pathParams(...invite),
  query: noQuery(),
});

export const updateOrganizationInviteById = defineRoute({
  id: 'updateOrganizationInviteById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
  summary: 'Change the role of an invite link',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...invite),
  query: noQuery(),
  /** `role` for an organization invite, `level` for a space or collection invite. */
  body: z.object({ role: MemberRoleOrGuest.optional(), level: MemberRoleOrGuest.optional() }),
  bodyRequired: true,
});

export const deleteOrganizationInviteById = defineRoute({
  id: 'deleteOrganizationInviteById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
  summary: 'Delete an invite link (it stops working at once)',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...invite),
  query: noQuery(),
});

export const joinOrganizationWithInvite = defineRoute({
  id: 'joinOrganizationWithInvite',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/invites/{inviteId}',
  summary: 'Join an organization with an invite link',
  source: 'real-api',
  access: 'none',
  params: pathParams(...invite),
  query: noQuery(),
});
