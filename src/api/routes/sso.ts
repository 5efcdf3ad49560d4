/** API doc §4.14 SSO: SAML providers of an organization and its SSO login list. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { MemberRoleOrGuest, Url, listQuery, noQuery, pathParams } from '../schemas/common.js';

/** The fields of a SAML provider a client may set (all optional; `label` is required at creation). */
const samlFields = {
  label: z.string().min(1).max(30),
  entityID: z.string().max(1024),
  certificate: z.string().max(10000),
  ssoURL: Url,
  /** Team id new SSO members join. */
  defaultTeam: z.string().min(1),
  /** Role of new SSO members; null = guest. */
  defaultRole: MemberRoleOrGuest,
};

const provider = ['organizationId', 'samlProviderId'] as const;

export const listSAMLProvidersInOrganizationById = defineRoute({
  id: 'listSAMLProvidersInOrganizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/saml',
  summary: 'List the SAML providers of an organization',
  source: 'doc 4.14',
  access: 'admin',
  params: pathParams('organizationId'),
  query: listQuery(),
  paginated: true,
});

export const createOrganizationSAMLProvider = defineRoute({
  id: 'createOrganizationSAMLProvider',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/saml',
  summary: 'Create a SAML provider',
  source: 'doc 4.14',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object(samlFields).partial().required({ label: true }),
  bodyRequired: true,
  success: 201,
});

export const getOrganizationSAMLProviderById = defineRoute({
  id: 'getOrganizationSAMLProviderById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
  summary: 'Get a SAML provider',
  source: 'doc 4.14',
  access: 'admin',
  params: pathParams(...provider),
  query: noQuery(),
});

export const deleteOrganizationSAMLProvider = defineRoute({
  id: 'deleteOrganizationSAMLProvider',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
  summary: 'Delete a SAML provider',
  source: 'doc 4.14',
  access: 'admin',
  params: pathParams(...provider),
  query: noQuery(),
});

export const updateOrganizationSAMLProvider = defineRoute({
  id: 'updateOrganizationSAMLProvider',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
  summary: 'Update a SAML provider',
  source: 'doc 4.14',
  access: 'admin',
  params: pathParams(...provider),
  query: noQuery(),
  body: z.object(samlFields).partial(),
  bodyRequired: true,
});

/** `{items}` without `next`/`count`: not a paginated list. */
export const listSSOProviderLoginsInOrganization = defineRoute({
  id: 'listSSOProviderLoginsInOrganization',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sso',
  summary: 'List the SSO login options of an organization',
  source: 'doc 4.14',
  access: 'guest',
  params: pathParams('organizationId'),
  query: noQuery(),
});
