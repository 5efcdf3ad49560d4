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
  cli: {
    command: 'team list',
    aliases: ['ls'],
    flags: {
      title: { flag: '--title <text>', description: 'only teams whose title contains this' },
      owner: { flag: '--owner <userId>', description: 'only the teams this member can manage' },
    },
    columns: 'team',
    noun: 'team',
    examples: ['docsctl team list', 'docsctl team list --title eng --format ids'],
  },
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
  cli: {
    command: 'team create',
    flags: {
      title: { description: 'team title (1 to 64 characters)', required: true },
      members: { flag: '--members <users>', description: 'comma-separated user ids or e-mails' },
    },
    columns: 'team',
    examples: [
      'docsctl team create --title Engineering --format ids',
      'docsctl team create --title Docs --members ada@acme.io,grace@acme.io',
    ],
  },
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
  cli: {
    command: 'team get',
    summary: 'Show a team',
    columns: 'team',
    examples: ['docsctl team get t3am1d --json'],
  },
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
  cli: {
    command: 'team delete',
    summary: 'Delete a team (its members stay in the organization)',
    aliases: ['rm'],
    confirm: 'Delete team {teamId}?',
    columns: 'team',
    noun: 'team',
    examples: ['docsctl team delete t3am1d --yes'],
  },
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
  cli: {
    command: 'team edit',
    flags: { title: { description: 'new title (1 to 64 characters)', required: true } },
    columns: 'team',
    examples: ['docsctl team edit t3am1d --title "Platform engineering"'],
  },
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
  cli: {
    command: 'team members list',
    summary: 'List the members of a team with their team role',
    aliases: ['ls'],
    columns: 'teamMember',
    noun: 'team member',
    examples: ['docsctl team members list t3am1d', 'docsctl team members list t3am1d --all --json'],
  },
});

/**
 * docsctl extension (not in the real API): every team membership of an organization in one
 * list (team id, user id, team role), where the API has only one list per team. `apply` and
 * `diff -f` read it locally to plan 100 teams in one pass rather than 100 listings; against
 * another server they list each team (src/orgcode/state.ts).
 */
export const listTeamMembershipsInOrganization = defineRoute({
  id: 'listTeamMembershipsInOrganization',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/x-docsctl/team-members',
  summary: "List every team membership of an organization: team, user and team role (docsctl extension)",
  source: 'docsctl',
  access: 'read',
  params: pathParams('organizationId'),
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
  cli: [
  {
    command: 'team members add',
    summary: 'Add members to a team (or change their team role) in one request',
    args: ['teamId', { name: 'users', variadic: { to: 'body.add' }, description: 'user ids or e-mails' }],
    flags: { remove: false, memberships: false },
    columns: 'teamMember',
    examples: [
      'docsctl team members add t3am1d ada@acme.io grace@acme.io',
      'docsctl team members add t3am1d ada@acme.io --role owner',
    ],
  },
  {
    command: 'team members remove',
    summary: 'Remove members from a team in one request',
    aliases: ['rm'],
    args: ['teamId', { name: 'users', variadic: { to: 'body.remove' }, description: 'user ids or e-mails' }],
    flags: { add: false, memberships: false },
    columns: 'teamMember',
    examples: ['docsctl team members remove t3am1d ada@acme.io'],
  },
  ],
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
