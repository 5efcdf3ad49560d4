/** API doc §4.18 Teams and team members. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { TeamMemberRole, listQuery, noQuery, paginationQuery, pathParams } from '../schemas/common.js';

/** Team title: 1 to 64 characters. */
const TeamTitle = z.string().min(1).max(64);

const team = ['organizationId', 'teamId'] as const;

export const listTeamsInOrganizationById = defineRoute({
  id: 'listTeamsInOrganizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/teams',
  summary: 'List the teams of an organization',
  source: 'doc 4.18',
  access: 'read',
  params: pathParams('organizationId'),
  query: z.object({
    ...paginationQuery,
    /** Member id: only the teams that member can manage. */
    owner: z.string().optional(),
    /** Case-insensitive "contains" filter. */
    title: z.string().optional(),
  }),
  paginated: true,
});

export const createOrganizationTeam = defineRoute({
  id: 'createOrganizationTeam',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/teams',
  summary: 'Create a team',
  source: 'doc 4.18',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({ title: TeamTitle, members: z.array(z.string().min(1)).optional() }),
  bodyRequired: true,
  success: 201,
});

export const getTeamInOrganizationById = defineRoute({
  id: 'getTeamInOrganizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/teams/{teamId}',
  summary: 'Get a team',
  source: 'doc 4.18',
  access: 'read',
  params: pathParams(...team),
  query: noQuery(),
});

export const removeTeamFromOrganizationById = defineRoute({
  id: 'removeTeamFromOrganizationById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/teams/{teamId}',
  summary: 'Delete a team',
  source: 'doc 4.18',
  access: 'admin',
  params: pathParams(...team),
  query: noQuery(),
});

export const updateTeamInOrganizationById = defineRoute({
  id: 'updateTeamInOrganizationById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/teams/{teamId}',
  summary: 'Rename a team',
  source: 'doc 4.18',
  access: { role: 'admin', or: 'teamOwner' },
  params: pathParams(...team),
  query: noQuery(),
  body: z.object({ title: TeamTitle }),
  bodyRequired: true,
});

export const listTeamMembersInOrganizationById = defineRoute({
  id: 'listTeamMembersInOrganizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/teams/{teamId}/members',
  summary: 'List the members of a team',
  source: 'doc 4.18',
  access: 'read',
  params: pathParams(...team),
  query: listQuery(),
  paginated: true,
});

export const updateMembersInOrganizationTeam = defineRoute({
  id: 'updateMembersInOrganizationTeam',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/teams/{teamId}/members',
  summary: 'Add, remove or change the role of team members (remove wins over add)',
  source: 'doc 4.18',
  access: { role: 'admin', or: 'teamOwner' },
  params: pathParams(...team),
  query: noQuery(),
  body: z.object({
    /** User ids or e-mail addresses. */
    add: z.array(z.string().min(1)).optional(),
    remove: z.array(z.string().min(1)).optional(),
    /** Map of user id to `{role}`. */
    memberships: z.record(z.string(), z.object({ role: TeamMemberRole })).optional(),
  }),
  bodyRequired: true,
  success: 204,
});

export const addMemberToOrganizationTeamById = defineRoute({
  id: 'addMemberToOrganizationTeamById',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
  summary: 'Add a member to a team or change their team role',
  source: 'doc 4.18',
  access: { role: 'admin', or: 'teamOwner' },
  params: pathParams(...team, 'userId'),
  query: noQuery(),
  body: z.object({ role: TeamMemberRole.optional() }),
  success: 204,
});

export const deleteMemberFromOrganizationTeamById = defineRoute({
  id: 'deleteMemberFromOrganizationTeamById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
  summary: 'Remove a member from a team',
  source: 'doc 4.18',
  access: { role: 'admin', or: 'teamOwner' },
  params: pathParams(...team, 'userId'),
  query: noQuery(),
});
