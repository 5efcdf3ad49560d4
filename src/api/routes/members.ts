/** API doc §4.17 Organization members. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { ListOrder, MemberRole, MemberRoleOrGuest, noQuery, paginationQuery, pathParams } from '../schemas/common.js';

const member = ['organizationId', 'userId'] as const;

export const listMembersInOrganizationById = defineRoute({
  id: 'listMembersInOrganizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/members',
  summary: 'List the members of an organization',
  source: 'doc 4.17',
  access: 'read',
  params: pathParams('organizationId'),
  query: z.object({
    ...paginationQuery,
    /** Default `desc` (applied by the handler). */
    order: ListOrder.optional(),
    /** A role, or `guest` for members without a role. */
    role: z.union([MemberRole, z.literal('guest')]).optional(),
    /** Matches display name and e-mail. */
    search: z.string().optional(),
    /** Default `joinedAt`; `lastSeenAt` lists active members only. */
    sort: z.enum(['joinedAt', 'lastSeenAt']).optional(),
  }),
  paginated: true,
});

export const getMemberInOrganizationById = defineRoute({
  id: 'getMemberInOrganizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/members/{userId}',
  summary: 'Get a member of an organization',
  source: 'doc 4.17',
  access: 'read',
  params: pathParams(...member),
  query: noQuery(),
});

export const removeMemberFromOrganizationById = defineRoute({
  id: 'removeMemberFromOrganizationById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/members/{userId}',
  summary: 'Remove a member from an organization',
  source: 'doc 4.17',
  access: { role: 'admin', or: 'self' },
  params: pathParams(...member),
  query: noQuery(),
});

export const updateMemberInOrganizationById = defineRoute({
  id: 'updateMemberInOrganizationById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/members/{userId}',
  summary: 'Change the role of a member (null makes a guest)',
  source: 'doc 4.17',
  access: 'admin',
  params: pathParams(...member),
  query: noQuery(),
  body: z.object({ role: MemberRoleOrGuest.optional() }),
  bodyRequired: true,
});

export const updateOrganizationMemberLastSeenAt = defineRoute({
  id: 'updateOrganizationMemberLastSeenAt',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/ping',
  summary: "Update the caller's last-seen time in an organization",
  source: 'doc 4.17',
  access: 'guest',
  params: pathParams('organizationId'),
  query: noQuery(),
});

export const setUserAsSSOMemberForOrganization = defineRoute({
  id: 'setUserAsSSOMemberForOrganization',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/members/{userId}/sso',
  summary: 'Mark a member as an SSO member',
  source: 'doc 4.17',
  access: 'admin',
  params: pathParams(...member),
  query: noQuery(),
});

export const listSpacesForOrganizationMember = defineRoute({
  id: 'listSpacesForOrganizationMember',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/members/{userId}/spaces',
  summary: 'List the spaces a member can access, with their permission',
  source: 'doc 4.17',
  access: 'read',
  params: pathParams(...member),
  query: z.object({ ...paginationQuery, order: ListOrder.optional() }),
  paginated: true,
});

export const listTeamsForOrganizationMember = defineRoute({
  id: 'listTeamsForOrganizationMember',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/members/{userId}/teams',
  summary: 'List the teams of a member',
  source: 'doc 4.17',
  access: 'read',
  params: pathParams(...member),
  query: z.object({ ...paginationQuery, title: z.string().optional() }),
  paginated: true,
});
