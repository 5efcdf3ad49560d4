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
  cli: {
    command: 'sso list',
    summary: 'List the SAML providers of an organization (admin)',
    aliases: ['ls'],
    columns: 'samlProvider',
    noun: 'SAML provider',
    examples: ['docsctl sso list'],
  },
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
  cli: {
    command: 'sso create',
    summary: 'Add a SAML provider (admin)',
    flags: {
      label: { description: 'label on the login page (1 to 30)', required: true },
      ssoURL: { flag: '--sso-url <url>', description: 'the identity provider\'s SSO URL' },
      entityID: { flag: '--entity-id <id>', description: 'the identity provider\'s entity id' },
      certificate: { flag: '--certificate-file <file>', type: 'string' }, // the hook reads the file
      defaultTeam: { flag: '--default-team <teamId>', description: 'team new SSO members join' },
      defaultRole: { flag: '--default-role <role>', description: 'role of new SSO members', nullAs: 'guest' },
    },
    columns: 'samlProvider',
    examples: [
      'docsctl sso create --label Okta --sso-url https://acme.okta.com/app/sso/saml --entity-id http://www.okta.com/exk1 --certificate-file okta.pem',
    ],
  },
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
  cli: {
    command: 'sso get',
    summary: 'Show a SAML provider, with the service URLs to give the identity provider (admin)',
    argHelp: { samlProviderId: 'SAML provider id' },
    columns: 'samlProvider',
    examples: ['docsctl sso get s4ml --json | jq .service'],
  },
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
  cli: {
    command: 'sso delete',
    summary: 'Remove a SAML provider (admin)',
    aliases: ['rm'],
    argHelp: { samlProviderId: 'SAML provider id' },
    confirm: 'Remove SAML provider {samlProviderId}? Its users can no longer sign in with it.',
    columns: 'samlProvider',
    noun: 'SAML provider',
    examples: ['docsctl sso delete s4ml --yes'],
  },
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
  cli: {
    command: 'sso edit',
    summary: 'Change a SAML provider (admin)',
    argHelp: { samlProviderId: 'SAML provider id' },
    flags: {
      label: 'label on the login page (1 to 30)',
      ssoURL: { flag: '--sso-url <url>', description: 'the identity provider\'s SSO URL' },
      entityID: { flag: '--entity-id <id>', description: 'the identity provider\'s entity id' },
      certificate: { flag: '--certificate-file <file>', type: 'string' }, // the hook reads the file
      defaultTeam: { flag: '--default-team <teamId>', description: 'team new SSO members join' },
      defaultRole: { flag: '--default-role <role>', description: 'role of new SSO members', nullAs: 'guest' },
    },
    nonEmptyBody: 'Nothing to change: pass --label, --sso-url, --entity-id, --certificate-file, --default-team or --default-role',
    columns: 'samlProvider',
    examples: ['docsctl sso edit s4ml --certificate-file rotated.pem'],
  },
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
  cli: {
    command: 'sso logins',
    output: 'list',
    columns: 'ssoLogin',
    noun: 'SSO login',
    examples: ['docsctl sso logins --format tsv'],
  },
});
