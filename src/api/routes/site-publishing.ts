/**
 * How visitors reach a published site (real API, 0.202): its visitor-authentication settings
 * and their signing key, preview URLs, custom hostnames, search over what it publishes, the
 * integration scripts it loads, the adaptive conditions its visitor schema suggests, and a
 * published URL resolved back to its site, section, site space and page.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { noQuery, paginationQuery, pathParams, qBool } from '../schemas/common.js';

const site = ['organizationId', 'siteId'] as const;

/** `null` unsets a URL (spec `SitePublishingAuthUpdate`). */
const authUrl = z.string().max(2048).nullable();

export const getSitePublishingAuthById = defineRoute({
  id: 'getSitePublishingAuthById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth',
  summary: "Get a site's visitor authentication settings and signing key",
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  cli: {
    command: 'site auth get',
    summary: "Show a site's visitor authentication: backend, fallback and logout URLs, and the private key that signs visitor tokens",
    columns: 'sitePublishingAuth',
    examples: ['docsctl site auth get s1t3', 'docsctl site auth get s1t3 --query privateKey'],
  },
});

export const updateSitePublishingAuthById = defineRoute({
  id: 'updateSitePublishingAuthById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth',
  summary: "Update a site's visitor authentication settings",
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({
    backend: z.enum(['custom', 'integration']).describe('who signs visitor tokens: your backend (custom) or the installed authentication integration'),
    fallbackURL: authUrl.optional().describe('where visitors go when their token is invalid ("none" unsets it)'),
    logoutURL: authUrl.optional().describe('where visitors log out of your backend ("none" unsets it)'),
  }),
  bodyRequired: true,
  cli: {
    command: 'site auth edit',
    summary: "Change a site's visitor authentication backend, fallback URL or logout URL",
    flags: {
      backend: { description: 'custom (your backend signs visitor tokens with the private key) or integration', required: true },
      fallbackURL: { flag: '--fallback-url <url>', description: 'where visitors go when their token is invalid ("none" unsets it)', noneIsNull: true },
      logoutURL: { flag: '--logout-url <url>', description: 'where visitors log out of your backend ("none" unsets it)', noneIsNull: true },
    },
    columns: 'sitePublishingAuth',
    examples: ['docsctl site auth edit s1t3 --backend custom --fallback-url https://acme.com/login'],
  },
});

export const regenerateSitePublishingAuthById = defineRoute({
  id: 'regenerateSitePublishingAuthById',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate',
  summary: "Regenerate the private key of a site's visitor authentication",
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  cli: {
    command: 'site auth regenerate',
    summary: 'Replace the private key that signs visitor tokens (tokens signed with the old key stop working)',
    confirm: 'Regenerate the visitor authentication key of site {siteId}? Tokens signed with the current key will stop working.',
    columns: 'sitePublishingAuth',
    examples: ['docsctl site auth regenerate s1t3 --yes --query privateKey'],
  },
});

export const getSitePublishingPreviewById = defineRoute({
  id: 'getSitePublishingPreviewById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/publishing/preview',
  summary: 'Get a URL previewing a site (drafts included unless asked otherwise)',
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: z.object({
    siteSpace: z.string().min(1).optional().describe('the site space (variant) to preview (default: the default one)'),
    claims: z.string().max(2048).optional().describe('visitor claims to preview as (Rison), for adaptive content'),
    draft: qBool().optional().describe('include draft sections, site spaces and links (default true)'),
    target: z.string().max(2048).optional().describe("a published URL of the site, or a path in it, to open"),
  }),
  cli: {
    command: 'site preview-url',
    summary: 'Print a URL previewing a site (or one of its variants or pages), drafts included unless --no-draft',
    flags: {
      siteSpace: { flag: '--site-space <siteSpaceId>', description: 'the variant to preview (default: the default one)' },
      draft: { flag: '--draft', description: 'include drafts (the default)', negate: 'leave draft sections, site spaces and links out' },
    },
    columns: 'sitePreview',
    examples: ['docsctl site preview-url s1t3', 'docsctl site preview-url s1t3 --site-space v4r1 --target /guide/install --query url'],
  },
});

/** A custom hostname (spec `SiteHostname`): lower case labels, at least three. */
const hostnameParams = () => z.object({ hostname: z.string().min(1).max(512) });

export const getCustomHostname = defineRoute({
  id: 'getCustomHostname',
  method: 'GET',
  path: '/v1/custom-hostnames/{hostname}',
  summary: 'Get a custom hostname and the site it serves',
  source: 'real-api',
  access: 'admin',
  params: hostnameParams(),
  query: noQuery(),
  cli: {
    command: 'site hostname get',
    summary: 'Show a custom hostname: the site it serves, whether it is active, its status',
    argHelp: { hostname: 'the hostname, e.g. docs.acme.com' },
    columns: 'customHostname',
    examples: ['docsctl site hostname get docs.acme.com'],
  },
});

export const removeCustomHostname = defineRoute({
  id: 'removeCustomHostname',
  method: 'DELETE',
  path: '/v1/custom-hostnames/{hostname}',
  summary: 'Remove a custom hostname from its site',
  source: 'real-api',
  access: 'admin',
  params: hostnameParams(),
  query: noQuery(),
  success: 'delete',
  cli: {
    command: 'site hostname remove',
    summary: 'Remove a custom hostname: its site is published at its gitbook.io URL (or proxy) again',
    aliases: ['rm'],
    argHelp: { hostname: 'the hostname, e.g. docs.acme.com' },
    confirm: 'Remove custom hostname {hostname}?',
    columns: 'customHostname',
    noun: 'custom hostname',
    examples: ['docsctl site hostname remove docs.acme.com --yes'],
  },
});

export const dnsRevalidateCustomHostname = defineRoute({
  id: 'dnsRevalidateCustomHostname',
  method: 'PATCH',
  path: '/v1/custom-hostnames/{hostname}',
  summary: "Re-run a custom hostname's DNS validation",
  source: 'real-api',
  access: 'admin',
  params: hostnameParams(),
  query: noQuery(),
  success: 204,
  cli: {
    command: 'site hostname revalidate',
    summary: "Re-run a custom hostname's validation (docsctl checks the name and its site, never DNS)",
    argHelp: { hostname: 'the hostname, e.g. docs.acme.com' },
    columns: 'customHostname',
    examples: ['docsctl site hostname revalidate docs.acme.com'],
  },
});

/** Spec `SiteSearchScope`: which of the site's site spaces a search reads. */
const SiteSearchScope = z.object({
  mode: z.enum(['default', 'specific', 'all']),
  currentSiteSpace: z.string().min(1).optional(),
  restrictTo: z.enum(['currentSiteSpace', 'otherSiteSpaces']).optional(),
  siteSpaceIds: z.array(z.string().min(1)).min(1).max(100).optional(),
});

export const searchSiteContent = defineRoute({
  id: 'searchSiteContent',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/search',
  summary: 'Search the published content of a site, best matches first',
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: z.object(paginationQuery),
  body: z.object({
    query: z.string().min(1).max(512),
    scope: SiteSearchScope.optional(),
    // Before `scope` (deprecated in 0.202, still accepted).
    mode: z.enum(['specific', 'current', 'all']).optional(),
    siteSpaceId: z.string().min(1).optional(),
    siteSpaceIds: z.array(z.string().min(1)).min(1).max(100).optional(),
  }),
  bodyRequired: true,
  safe: true,
  paginated: true,
  cli: {
    command: 'site search',
    summary: "Search what a site publishes: each section's default variant (--scope all: every variant; --site-space: those only)",
    args: ['siteId', { name: 'query', to: 'body.query' }],
    argHelp: { query: 'the words to look for' },
    flags: {
      'body.scope.mode': { flag: '--scope <mode>', description: 'default (each section\'s default variant), all (every variant) or specific (with --site-space)' },
      'body.scope.siteSpaceIds': { flag: '--site-space <siteSpaceIds>', description: 'search these site spaces only (comma-separated; implies --scope specific)', type: 'list' },
      'body.scope.currentSiteSpace': { flag: '--current <siteSpaceId>', description: 'the variant the visitor is on: always searched (default scope)' },
      'body.scope.restrictTo': { flag: '--restrict-to <which>', description: 'with --current: currentSiteSpace or otherSiteSpaces' },
      scope: false,
      mode: false,
      siteSpaceId: false,
      siteSpaceIds: false,
    },
    columns: 'siteSearchHit',
    noun: 'match',
    examples: ['docsctl site search s1t3 "install helm"', 'docsctl site search s1t3 upgrade --scope all --format tsv'],
  },
});

export const prewarmSiteSearch = defineRoute({
  id: 'prewarmSiteSearch',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/search/prewarm',
  summary: "Build the search index of a site's published spaces ahead of the first search",
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: noQuery(),
  success: 204,
  cli: {
    command: 'site search-prewarm',
    summary: "Index the site's published spaces whose search index is missing or behind, so the first search reads the index",
    columns: 'site',
    examples: ['docsctl site search-prewarm s1t3'],
  },
});

export const listSiteIntegrationScripts = defineRoute({
  id: 'listSiteIntegrationScripts',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/integration-scripts',
  summary: 'List the scripts the integrations installed on a site load in its pages',
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: noQuery(),
  cli: {
    command: 'site integration-scripts',
    summary: 'List the scripts the integrations installed on a site load in its published pages',
    output: 'list',
    columns: 'siteIntegrationScript',
    examples: ['docsctl site integration-scripts s1t3'],
  },
});

export const listSiteAdaptiveTemplateConditions = defineRoute({
  id: 'listSiteAdaptiveTemplateConditions',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions',
  summary: "Suggest adaptive conditions from a site's visitor schema",
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: noQuery(),
  cli: {
    command: 'site adaptive-schema conditions',
    summary: "Suggest conditions (for sections, variants, links) from the claims of a site's adaptive schema",
    output: 'list',
    columns: 'adaptiveCondition',
    examples: ['docsctl site adaptive-schema conditions s1t3'],
  },
});

/** Spec `SiteVisitorPayload`: who visits (a visitor token signed with the site's private key, unsigned claims). */
const SiteVisitorPayload = z.object({
  type: z.enum(['human', 'agent']).optional(),
  jwtToken: z.string().max(8192).optional(),
  unsignedClaims: z.record(z.string(), z.unknown()).optional(),
});

export const getPublishedContentByUrl = defineRoute({
  id: 'getPublishedContentByUrl',
  method: 'GET',
  path: '/v1/urls/published',
  summary: 'Resolve a published URL to its site, section, site space, space and page path',
  source: 'real-api',
  // The URL names the site: the handler finds it and answers 404 to whoever may not see it.
  access: 'none',
  params: z.object({}),
  query: z.object({
    url: z.string().min(1).max(2048).describe('a published URL: custom hostname, proxy origin, <org>.gitbook.io/<basename>, or a preview URL'),
    visitorAuthToken: z.string().max(8192).optional().describe("a visitor token signed with the site's private key (visitor-auth sites)"),
    redirectOnError: qBool().optional().describe("answer a redirect to the site's fallback URL when the visitor token is missing or invalid"),
  }),
  cli: {
    command: 'url published',
    summary: 'Show what a published URL shows: the site, section, site space (variant), space and page path',
    args: [{ name: 'url', to: 'query.url', description: 'the published URL (a site\'s urls.published followed by a page path)' }],
    flags: { visitorAuthToken: { flag: '--visitor-token <jwt>', description: "a visitor token signed with the site's private key (visitor-auth sites)" } },
    columns: 'publishedContent',
    examples: ['docsctl url published https://docs.acme.com/api/authentication', 'docsctl url published https://acme.gitbook.io/docs/guide/install --json space,pathname'],
  },
});

export const resolvePublishedContentByUrl = defineRoute({
  id: 'resolvePublishedContentByUrl',
  method: 'POST',
  path: '/v1/urls/published',
  summary: 'Resolve a published URL for a visitor (token and claims in the body)',
  source: 'real-api',
  access: 'none',
  params: z.object({}),
  query: noQuery(),
  body: z.object({ url: z.string().min(1).max(2048), redirectOnError: z.boolean().optional(), visitor: SiteVisitorPayload.optional() }),
  bodyRequired: true,
  safe: true,
});
