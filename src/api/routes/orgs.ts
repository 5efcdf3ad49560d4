/** Organizations, the authenticated user, invites and organization settings: operations of the real API the CLI needs (gaps.md §2.1). */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { JSONDocument, MemberRoleOrGuest, Url, listQuery, noQuery, pathParams, qBool } from '../schemas/common.js';

export const getAuthenticatedUser = defineRoute({
  id: 'getAuthenticatedUser',
  method: 'GET',
  path: '/v1/user',
  summary: 'Get the authenticated user',
  source: 'real-api',
  access: 'none',
  params: z.object({}),
  query: noQuery(),
  cli: {
    command: 'user me',
    summary: 'Show the authenticated user',
    aliases: ['whoami'],
    columns: 'user',
    examples: ['docsctl user me', 'docsctl user me --format ids'],
  },
});

export const listOrganizationsForAuthenticatedUser = defineRoute({
  id: 'listOrganizationsForAuthenticatedUser',
  method: 'GET',
  path: '/v1/orgs',
  summary: 'List the organizations of the authenticated user',
  source: 'real-api',
  access: 'none',
  params: z.object({}),
  query: listQuery(),
  paginated: true,
  cli: {
    command: 'org list',
    summary: 'List your organizations',
    aliases: ['ls'],
    columns: 'organization',
    noun: 'organization',
    examples: ['docsctl org list', 'docsctl org list --json | jq -r ".[].id"'],
  },
});

export const createOrganization = defineRoute({
  id: 'createOrganization',
  method: 'POST',
  path: '/v1/orgs',
  summary: 'Create an organization',
  source: 'real-api',
  // Anyone may create an organization; they become its admin.
  access: 'none',
  params: z.object({}),
  query: z.object({
    withDefaultSite: qBool().optional().describe('also create its default documentation site'),
    // Refused (501) rather than ignored: docsctl does not import a specification into the default site yet.
    openapiUrl: z.string().optional(),
  }),
  body: z.object({
    // Checked by the handler, which names the rule (2 to 255 characters, trimmed).
    title: z.string().describe('organization title (2 to 255 characters)'),
    emailDomains: z.array(z.string()).optional().describe('e-mail domains whose users may join it (docsctl org join)'),
    /** 0.202: what the default site starts as (only with withDefaultSite; src/domain/sites/default-site.ts). */
    onboardingPreferences: z
      .object({
        source: z.enum(['markdown-in-git', 'import', 'template']).nullable(),
        audience: z.enum(['public', 'mixed', 'protected', 'internal']).nullable(),
        interests: z.array(z.enum(['adaptive-content', 'api-docs', 'proactive-agent'])).max(3),
      })
      .optional(),
  }),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'org create',
    summary: 'Create an organization in the local store; you become its admin',
    flags: {
      title: { required: true },
      openapiUrl: false,
      emailDomains: { description: 'e-mail domains whose users may join it (comma-separated; docsctl org join)' },
      'body.onboardingPreferences.audience': {
        flag: '--audience <audience>',
        description: 'with --with-default-site: who the site is for (public; mixed; protected or internal: unlisted, kept out of search engines)',
      },
      'body.onboardingPreferences.source': { flag: '--source <source>', description: 'with --with-default-site: where the docs come from ("template": the site starts with the product-docs template)' },
      onboardingPreferences: false,
    },
    columns: 'organization',
    examples: ['docsctl org create --title "Acme Partners"', 'docsctl org create --title Lab --format ids', 'docsctl org create --title Docs --with-default-site --source template --audience internal'],
  },
});

export const joinOrganization = defineRoute({
  id: 'joinOrganization',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/join',
  summary: 'Join an organization',
  source: 'real-api',
  // Not a member yet: the handler checks the caller's e-mail domain against the organization's.
  access: 'none',
  params: pathParams('organizationId'),
  query: noQuery(),
  success: 204,
  cli: {
    command: 'org join',
    summary: "Join an organization whose e-mail domains include yours (as its default role, else read)",
    args: ['organizationId'],
    columns: 'organization',
    examples: ['docsctl org join 9fXk2hQ'],
  },
});

export const getOrganizationsForEmailDomain = defineRoute({
  id: 'getOrganizationsForEmailDomain',
  method: 'GET',
  path: '/v1/email-domains/{emailDomain}/orgs',
  summary: 'List the organizations that users of an e-mail domain may join',
  source: 'real-api',
  // Any user, for the domain of their own e-mail (the handler checks it: the data decides).
  access: 'none',
  params: z.object({ emailDomain: z.string().min(1).max(253).describe('e-mail domain (example.com)') }),
  query: noQuery(),
  cli: {
    command: 'org joinable',
    summary: 'List the organizations anyone with an e-mail at DOMAIN may join (docsctl org join); DOMAIN must be your own e-mail\'s',
    columns: 'organization',
    examples: ['docsctl org joinable example.com', 'docsctl org joinable example.com --format ids'],
  },
});

export const getOrganizationById = defineRoute({
  id: 'getOrganizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}',
  summary: 'Get an organization',
  source: 'real-api',
  access: 'guest',
  params: pathParams('organizationId'),
  query: noQuery(),
  cli: {
    command: 'org get',
    summary: 'Show an organization',
    args: ['organizationId'],
    columns: 'organization',
    examples: ['docsctl org get 9fXk2hQ', 'docsctl org get 9fXk2hQ --json'],
  },
});

export const inviteUsersToOrganization = defineRoute({
  id: 'inviteUsersToOrganization',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/invites',
  summary: 'Invite users to an organization by e-mail',
  source: 'real-api',
  access: 'admin',
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
  cli: {
    command: 'member invite',
    summary: 'Invite people to an organization by e-mail (locally they become members at once)',
    args: [{ name: 'emails', variadic: { to: 'body.emails' }, description: 'e-mail addresses' }],
    flags: { role: { description: 'role of the new members', nullAs: 'guest' }, sso: 'invite as SSO members' },
    columns: 'invite',
    examples: ['docsctl member invite ada@example.com grace@example.com --role edit'],
  },
});

const MergeRule = z.discriminatedUnion('rule', [
  z.object({ rule: z.literal('require_specific_reviewers'), users: z.array(z.string()) }),
  z.object({ rule: z.literal('require_one_of_specific_reviewers'), users: z.array(z.string()) }),
  z.object({ rule: z.literal('allow_bypass'), users: z.array(z.string()) }),
  z.object({
    rule: z.enum([
      'require_at_least_one_review',
      'require_all_reviews_approved',
      'require_agent_review',
      'require_up_to_date_change_request',
      'require_change_request_subject',
      'require_change_request_description',
    ]),
  }),
  z.object({ rule: z.literal('custom'), expression: z.string().max(1024) }),
]);

/** Organization merge rules: `{type:'rules', rules}` or `{type:'none'}`. */
const OrganizationMergeRules = z.discriminatedUnion('type', [
  z.object({ type: z.literal('rules'), rules: z.array(MergeRule) }),
  z.object({ type: z.literal('none') }),
]);

export const updateOrganizationById = defineRoute({
  id: 'updateOrganizationById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}',
  summary: 'Update an organization',
  source: 'real-api',
  access: 'admin',
  params: pathParams('organizationId'),
  query: z.object({}),
  body: z
    .object({
      title: z.string().min(2).max(255),
      emailDomains: z.array(z.string()),
      hostname: z.string().min(3).max(32),
      defaultRole: MemberRoleOrGuest,
      /** The site visitors land on; null removes it. */
      defaultContent: z.object({ type: z.literal('site'), site: z.string().min(1) }).nullable(),
      logo: Url.nullable(),
      sso: z.boolean(),
      ai: z.boolean(),
      inviteLinks: z.boolean(),
      mergeRules: OrganizationMergeRules,
    })
    .partial(),
  bodyRequired: true,
  cli: {
    command: 'org edit',
    summary: 'Change the settings of an organization (admins)',
    args: ['organizationId'],
    flags: {
      title: 'title (2–255 characters)',
      defaultRole: { flag: '--default-role <role>', description: 'role of people invited without one', nullAs: 'guest' },
      inviteLinks: { description: 'let invite links work (docsctl invite-link …)', negate: 'stop every invite link from working' },
      hostname: 'the subdomain of its sites, <hostname>.gitbook.io (3–32 lowercase letters, digits, inner hyphens; unique)',
      emailDomains: { description: 'e-mail domains whose users may join it, replacing the list (comma-separated; docsctl org joinable)' },
    },
    onlyNamedFlags: true,
    nonEmptyBody: 'Nothing to change: pass --title, --default-role, --hostname, --email-domains or --invite-links/--no-invite-links',
    columns: 'organization',
    examples: ['docsctl org edit 9fXk2hQ --invite-links', 'docsctl org edit 9fXk2hQ --title "Acme Docs" --default-role read', 'docsctl org edit 9fXk2hQ --email-domains acme.com,acme.org'],
  },
});

export const getOrganizationAgentInstructions = defineRoute({
  id: 'getOrganizationAgentInstructions',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/agent-instructions',
  summary: 'Get Docs agent instructions for an organization',
  source: 'real-api',
  // What the organization's Docs agent is told: every member may read it.
  access: 'read',
  params: pathParams('organizationId'),
  query: noQuery(),
  cli: {
    command: 'org agent-instructions get',
    summary: "Show the instructions the organization's Docs agent follows (--json: the document)",
    columns: 'agentInstructions',
    examples: ['docsctl org agent-instructions get', 'docsctl org agent-instructions get --json > instructions.json'],
  },
});

export const updateOrganizationAgentInstructions = defineRoute({
  id: 'updateOrganizationAgentInstructions',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/agent-instructions',
  summary: 'Update Docs agent instructions for an organization',
  source: 'real-api',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({ instructions: JSONDocument.describe('Document describing the Docs agent instructions') }),
  bodyRequired: true,
  cli: {
    command: 'org agent-instructions set',
    summary: "Replace the instructions the organization's Docs agent follows: plain text (--text, --text-file) or a JSON document (--file)",
    onlyNamedFlags: true,
    columns: 'agentInstructions',
    examples: [
      'docsctl org agent-instructions set --text "Answer in British English. Link to the API reference."',
      'docsctl org agent-instructions get --json | jq .instructions > doc.json && docsctl org agent-instructions set --file doc.json',
    ],
  },
});

/** The body of `updateOrganizationAgentInstructions`. */
export type OrganizationAgentInstructionsInput = z.output<typeof updateOrganizationAgentInstructions.body>;
