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
  cli: {
    command: 'member list',
    summary: 'List the members of an organization (newest first)',
    aliases: ['ls'],
    flags: {
      role: 'only members with this role',
      search: { flag: '--search <text>', description: 'match display name or e-mail' },
      sort: { flag: '--sort <field>', description: 'joinedAt (default) or lastSeenAt (active members only)' },
      order: 'desc (default) or asc',
    },
    columns: 'member',
    noun: 'member',
    examples: [
      'docsctl member list --role admin',
      'docsctl member list --search ada --json',
      'docsctl member list --sort lastSeenAt --all --format ids',
    ],
  },
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
  cli: {
    command: 'member get',
    summary: 'Show a member',
    argHelp: { userId: 'user id or e-mail' },
    columns: 'member',
    examples: ['docsctl member get ada@acme.io', 'docsctl member get 3kQ9x --json'],
  },
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
  cli: {
    command: 'member remove',
    summary: 'Remove a member from the organization and its teams (the last admin cannot be removed)',
    aliases: ['rm'],
    argHelp: { userId: 'user id or e-mail' },
    confirm: 'Remove member {userId} from the organization?',
    columns: 'member',
    noun: 'member',
    examples: ['docsctl member remove ada@acme.io --yes'],
  },
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
  cli: {
    command: 'member edit',
    summary: 'Change a member\'s role (the last admin cannot be demoted)',
    argHelp: { userId: 'user id or e-mail' },
    flags: { role: { description: 'new role (guest = no role)', required: true, nullAs: 'guest' } },
    columns: 'member',
    examples: ['docsctl member edit ada@acme.io --role admin', 'docsctl member edit 3kQ9x --role guest'],
  },
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
  cli: {
    command: 'member ping',
    summary: 'Record that you were active in the organization now (last seen)',
    output: 'empty',
    columns: 'member',
    examples: ['docsctl member ping --org 9fXk2hQ'],
  },
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
  cli: {
    command: 'member sso',
    argHelp: { userId: 'user id or e-mail' },
    columns: 'member',
    examples: ['docsctl member sso ada@acme.io'],
  },
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
  cli: {
    command: 'member spaces',
    argHelp: { userId: 'user id or e-mail' },
    flags: { order: 'desc (default) or asc' },
    columns: 'memberSpace',
    noun: 'space',
    examples: ['docsctl member spaces ada@acme.io', 'docsctl member spaces ada@acme.io --all --json'],
  },
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
  cli: {
    command: 'member teams',
    summary: 'List the teams of a member, with their team role',
    argHelp: { userId: 'user id or e-mail' },
    flags: { title: { flag: '--title <text>', description: 'only teams whose title contains this' } },
    columns: 'memberTeam',
    noun: 'team',
    examples: ['docsctl member teams ada@acme.io'],
  },
});
