/** Organizations, the authenticated user and invites: operations of the real API the CLI needs (gaps.md §2.1). */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { MemberRoleOrGuest, listQuery, noQuery, pathParams } from '../schemas/common.js';

export const getAuthenticatedUser = defineRoute({
  id: 'getAuthenticatedUser',
  method: 'GET',
  path: '/v1/user',
  summary: 'Get the authenticated user',
  source: 'real-api',
  params: z.object({}),
  query: noQuery(),
});

export const listOrganizationsForAuthenticatedUser = defineRoute({
  id: 'listOrganizationsForAuthenticatedUser',
  method: 'GET',
  path: '/v1/orgs',
  summary: 'List the organizations of the authenticated user',
  source: 'real-api',
  params: z.object({}),
  query: listQuery(),
  paginated: true,
});

export const getOrganizationById = defineRoute({
  id: 'getOrganizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}',
  summary: 'Get an organization',
  source: 'real-api',
  params: pathParams('organizationId'),
  query: noQuery(),
});

export const inviteUsersToOrganization = defineRoute({
  id: 'inviteUsersToOrganization',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/invites',
  summary: 'Invite users to an organization by e-mail',
  source: 'real-api',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({
    emails: z
      .array(z.union([z.string().email(), z.object({ email: z.string().email(), role: MemberRoleOrGuest })]))
      .min(1),
    role: MemberRoleOrGuest.optional(),
    sso: z.boolean().optional(),
  }),
  bodyRequired: true,
});
