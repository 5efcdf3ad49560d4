/** API doc §4.3–4.7: sites, site sections, section groups, site spaces and share links; the real API's redirects and MCP servers. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { SiteType, SiteVisibility, Url, listQuery, noQuery, paginationQuery, pathParams, qArray, qBool } from '../schemas/common.js';

// ─── Helper schemas ────────────────────────────────────────────────────────

/** Icon name (string ≤ 50); `null` removes it where the API allows. */
const Icon = z.string().max(50);
/** Site title: 2 to 128 characters. */
const SiteTitle = z.string().min(2).max(128);
/** Visibility condition of a section or site space: 1 to 1024 characters (API doc; spec allows 0). */
const Expression = z.string().min(1).max(1024);
/** Proxy origin such as `company.com/docs` (spec `SiteProxyOrigin`). */
const SiteProxyOrigin = z
  .string()
  .max(512)
  .regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'must be a host followed by a path prefix, e.g. company.com/docs');
const SiteAgentsContext = z.enum(['excluded', 'included']);

/** Position of a site section move: `{type:'site-section', siteSection}` pointers. */
const SiteSectionPointer = z.object({ type: z.literal('site-section'), siteSection: z.string().min(1) });
const SiteSectionMovePosition = z.object({
  before: SiteSectionPointer.optional(),
  after: SiteSectionPointer.optional(),
});

/** Position of a site space move: `{type:'site-space', siteSpace}` pointers. */
const SiteSpacePointer = z.object({ type: z.literal('site-space'), siteSpace: z.string().min(1) });
const SiteSpaceMovePosition = z.object({ before: SiteSpacePointer.optional(), after: SiteSpacePointer.optional() });

/** Position of a section group move: `{type:'site-section'|'site-section-group', id}` pointers. */
const SiteSectionGroupPointer = z.object({
  type: z.enum(['site-section', 'site-section-group']),
  id: z.string().min(1),
});
const SiteSectionGroupMovePosition = z.object({
  before: SiteSectionGroupPointer.optional(),
  after: SiteSectionGroupPointer.optional(),
});

/** JSON Schema (draft-07) of a site's adaptive content claims. */
const SiteAdaptiveJSONSchema = z
  .object({
    $schema: z.literal('http://json-schema.org/draft-07/schema#').optional(),
    type: z.literal('object'),
    properties: z.record(z.string(), z.unknown()),
    additionalProperties: z.boolean(),
  })
  .passthrough();

const site = ['organizationId', 'siteId'] as const;

// ─── §4.3 Sites ────────────────────────────────────────────────────────────

export const listSites = defineRoute({
  id: 'listSites',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites',
  summary: 'List the sites of an organization',
  source: 'doc 4.3',
  access: 'read',
  params: pathParams('organizationId'),
  query: z.object({
    ...paginationQuery,
    space: z.string().optional(),
    title: z.string().optional(),
    published: qBool().optional(),
    type: qArray(SiteType).optional(),
    shareKey: z.string().optional(),
  }),
  paginated: true,
});

export const createSite = defineRoute({
  id: 'createSite',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites',
  summary: 'Create a site',
  source: 'doc 4.3',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({
    type: SiteType.optional(),
    title: SiteTitle.optional(),
    visibility: SiteVisibility.optional(),
    /** Space ids to add, or (API doc; spec v0.74–v0.137) `sample`/`empty` to create a new space for the site. */
    spaces: z.union([z.array(z.string().min(1)), z.enum(['sample', 'empty'])]).optional(),
  }),
  success: 201,
});

export const getSiteById = defineRoute({
  id: 'getSiteById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}',
  summary: 'Get a site',
  source: 'doc 4.3',
  access: 'read',
  params: pathParams(...site),
  query: noQuery(),
});

export const deleteSiteById = defineRoute({
  id: 'deleteSiteById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}',
  summary: 'Delete a site',
  source: 'doc 4.3',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
});

export const updateSiteById = defineRoute({
  id: 'updateSiteById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}',
  summary: 'Update a site',
  source: 'doc 4.3',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z
    .object({
      title: SiteTitle,
      visibility: SiteVisibility,
      basename: z.string().min(1).max(100),
      adaptiveContent: z.object({ enabled: z.boolean() }),
      agentsContext: SiteAgentsContext,
      defaultSiteSpace: z.string().min(1),
      defaultSiteSection: z.string().min(1),
      proxy: SiteProxyOrigin.nullable(),
    })
    .partial(),
  bodyRequired: true,
});

export const getSiteAdaptiveSchema = defineRoute({
  id: 'getSiteAdaptiveSchema',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
  summary: 'Get the adaptive content schema of a site',
  source: 'doc 4.3',
  access: 'read',
  params: pathParams(...site),
  query: noQuery(),
});

export const updateSiteAdaptiveSchema = defineRoute({
  id: 'updateSiteAdaptiveSchema',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
  summary: 'Set the adaptive content schema of a site',
  source: 'doc 4.3',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({ jsonSchema: SiteAdaptiveJSONSchema }),
  bodyRequired: true,
});

export const getPublishedContentSite = defineRoute({
  id: 'getPublishedContentSite',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/published',
  summary: 'Get the published content and customization of a site',
  source: 'doc 4.3',
  access: 'read',
  params: pathParams(...site),
  query: z.object({ shareKey: z.string().optional() }),
});

// ─── §4.4 Site sections ────────────────────────────────────────────────────

export const listSiteSections = defineRoute({
  id: 'listSiteSections',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/sections',
  summary: 'List the sections of a site',
  source: 'doc 4.4',
  access: 'read',
  params: pathParams(...site),
  query: z.object({ ...paginationQuery, shareKey: z.string().optional() }),
  paginated: true,
});

export const addSectionToSite = defineRoute({
  id: 'addSectionToSite',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/sections',
  summary: 'Add a section to a site',
  source: 'doc 4.4',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({
    spaceId: z.string().min(1),
    /** API doc: max 64 at creation (stored titles are 2 to 128); null uses the space title. */
    title: z.string().min(2).max(64).nullable().optional(),
    icon: Icon.nullable().optional(),
    draft: z.boolean().describe('a draft is not published (left out of the published site) until made live').optional(),
  }),
  bodyRequired: true,
  success: 201,
});

export const deleteSiteSectionById = defineRoute({
  id: 'deleteSiteSectionById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
  summary: 'Delete a site section',
  source: 'doc 4.4',
  access: 'admin',
  params: pathParams(...site, 'siteSectionId'),
  query: noQuery(),
});

export const updateSiteSectionById = defineRoute({
  id: 'updateSiteSectionById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
  summary: 'Update a site section',
  source: 'doc 4.4',
  access: 'admin',
  params: pathParams(...site, 'siteSectionId'),
  query: noQuery(),
  body: z
    .object({
      title: z.string().min(2).max(128),
      path: z.string().min(1).max(100),
      defaultSiteSpace: z.string().min(1),
      condition: Expression.nullable(),
      icon: Icon.nullable(),
      description: z.string().max(256).nullable(),
      draft: z.boolean().describe('a draft is not published (left out of the published site) until made live'),
    })
    .partial(),
  bodyRequired: true,
  preferMinimal: true,
});

export const moveSiteSection = defineRoute({
  id: 'moveSiteSection',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move',
  summary: 'Move a site section (to the end when no position is given)',
  source: 'doc 4.4',
  access: 'admin',
  params: pathParams(...site, 'siteSectionId'),
  query: noQuery(),
  body: z.object({ position: SiteSectionMovePosition.optional() }),
});

// ─── §4.5 Site section groups ──────────────────────────────────────────────

export const listSiteSectionGroups = defineRoute({
  id: 'listSiteSectionGroups',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups',
  summary: 'List the section groups of a site',
  source: 'doc 4.5',
  access: 'read',
  params: pathParams(...site),
  query: listQuery(),
  paginated: true,
});

export const addSectionGroupToSite = defineRoute({
  id: 'addSectionGroupToSite',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups',
  summary: 'Add a section group to a site',
  source: 'doc 4.5',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({
    title: z.string().min(1).max(100),
    icon: Icon.nullable().optional(),
    sections: z.array(z.string().min(1)).optional(),
    /** Real API: id of a parent group to nest this group under. */
    parent: z.string().min(1).optional(),
    draft: z.boolean().describe('a draft is not published (left out of the published site) until made live').optional(),
  }),
  bodyRequired: true,
  success: 201,
});

export const deleteSiteSectionGroupById = defineRoute({
  id: 'deleteSiteSectionGroupById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}',
  summary: 'Delete a site section group',
  source: 'doc 4.5',
  access: 'admin',
  params: pathParams(...site, 'siteSectionGroupId'),
  query: noQuery(),
});

export const updateSiteSectionGroupById = defineRoute({
  id: 'updateSiteSectionGroupById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}',
  summary: 'Update a site section group',
  source: 'doc 4.5',
  access: 'admin',
  params: pathParams(...site, 'siteSectionGroupId'),
  query: noQuery(),
  body: z.object({ title: z.string().min(1).max(100), icon: Icon.nullable(), draft: z.boolean().describe('a draft is not published (left out of the published site) until made live') }).partial(),
  bodyRequired: true,
  preferMinimal: true,
});

export const addSectionToGroup = defineRoute({
  id: 'addSectionToGroup',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections',
  summary: 'Add a site section to a section group',
  source: 'doc 4.5',
  access: 'admin',
  params: pathParams(...site, 'siteSectionGroupId'),
  query: noQuery(),
  body: z.object({ sectionId: z.string().min(1) }),
  bodyRequired: true,
  success: 201,
});

export const removeSectionFromGroup = defineRoute({
  id: 'removeSectionFromGroup',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}',
  summary: 'Remove a site section from a section group',
  source: 'doc 4.5',
  access: 'admin',
  params: pathParams(...site, 'siteSectionGroupId', 'siteSectionId'),
  query: noQuery(),
});

export const moveSiteSectionGroup = defineRoute({
  id: 'moveSiteSectionGroup',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move',
  summary: 'Move a site section group (to the end of the site when no position is given)',
  source: 'doc 4.5',
  access: 'admin',
  params: pathParams(...site, 'siteSectionGroupId'),
  query: noQuery(),
  body: z.object({ position: SiteSectionGroupMovePosition.optional() }),
});

// ─── §4.6 Site spaces ──────────────────────────────────────────────────────

export const listSiteSpaces = defineRoute({
  id: 'listSiteSpaces',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces',
  summary: 'List the site spaces of a site',
  source: 'doc 4.6',
  access: 'read',
  params: pathParams(...site),
  query: z.object({ ...paginationQuery, shareKey: z.string().optional(), default: qBool().optional() }),
  paginated: true,
});

export const addSpaceToSite = defineRoute({
  id: 'addSpaceToSite',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces',
  summary: 'Add a space to a site',
  source: 'doc 4.6',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({ spaceId: z.string().min(1), sectionId: z.string().min(1).optional(), draft: z.boolean().describe('a draft is not published (left out of the published site) until made live').optional() }),
  bodyRequired: true,
  success: 201,
  preferMinimal: true,
});

export const deleteSiteSpaceById = defineRoute({
  id: 'deleteSiteSpaceById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
  summary: 'Remove a space from a site',
  source: 'doc 4.6',
  access: 'admin',
  params: pathParams(...site, 'siteSpaceId'),
  query: noQuery(),
});

export const updateSiteSpaceById = defineRoute({
  id: 'updateSiteSpaceById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
  summary: 'Update a site space',
  source: 'doc 4.6',
  access: 'admin',
  params: pathParams(...site, 'siteSpaceId'),
  query: noQuery(),
  body: z
    .object({
      path: z.string().min(1).max(100),
      condition: Expression.nullable(),
      /** Real API: swap the space the site space points to. */
      spaceId: z.string().min(1),
      draft: z.boolean().describe('a draft is not published (left out of the published site) until made live'),
    })
    .partial(),
  bodyRequired: true,
  preferMinimal: true,
});

export const moveSiteSpace = defineRoute({
  id: 'moveSiteSpace',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move',
  summary: 'Move a site space (to the end when no position is given)',
  source: 'doc 4.6',
  access: 'admin',
  params: pathParams(...site, 'siteSpaceId'),
  query: noQuery(),
  body: z.object({ position: SiteSpaceMovePosition.optional() }),
});

// ─── §4.7 Site share links ─────────────────────────────────────────────────

export const listSiteShareLinks = defineRoute({
  id: 'listSiteShareLinks',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/share-links',
  summary: 'List the share links of a site',
  source: 'doc 4.7',
  access: 'admin',
  params: pathParams(...site),
  query: listQuery(),
  paginated: true,
});

export const createSiteShareLink = defineRoute({
  id: 'createSiteShareLink',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/share-links',
  summary: 'Create a share link for a site',
  source: 'doc 4.7',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({ name: z.string().max(50) }),
  bodyRequired: true,
  success: 201,
});

export const deleteSiteShareLinkById = defineRoute({
  id: 'deleteSiteShareLinkById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}',
  summary: 'Delete a share link of a site',
  source: 'doc 4.7',
  access: 'admin',
  params: pathParams(...site, 'shareLinkId'),
  query: noQuery(),
});

export const updateSiteShareLinkById = defineRoute({
  id: 'updateSiteShareLinkById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}',
  summary: 'Update a share link of a site',
  source: 'doc 4.7',
  access: 'admin',
  params: pathParams(...site, 'shareLinkId'),
  query: noQuery(),
  body: z
    .object({ active: z.boolean(), name: z.string().max(50) })
    .partial()
    .refine((value) => Object.keys(value).length > 0, 'give at least one of active, name'),
  bodyRequired: true,
});

// ─── Real API: publishing and the site structure (gaps.md §3) ──────────────

export const publishSite = defineRoute({
  id: 'publishSite',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/publish',
  summary: 'Publish a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
});

export const unpublishSite = defineRoute({
  id: 'unpublishSite',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/unpublish',
  summary: 'Unpublish a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
});

export const getSiteStructure = defineRoute({
  id: 'getSiteStructure',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/structure',
  summary: 'Get the structure of a site (sections and groups, or its site spaces)',
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: z.object({ shareKey: z.string().optional() }),
});

/**
 * docsctl extension (not in the real API): the whole tree of a site in one read,
 * groups → sections → variants → each variant's page tree (id, title, type, path).
 * `site tree` reads it, and falls back to getSiteStructure + listPages when a server
 * answers 404/501 for it. The answer's shape: `SiteTreeAnswer` (domain/sites/tree-shape.ts);
 * with `format=text`, `SiteTreeTextAnswer`: the tree as `site tree` prints it (what the
 * CLI asks for unless it prints JSON or YAML).
 */
export const getSiteTree = defineRoute({
  id: 'getSiteTree',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/x-docsctl/tree',
  summary: 'The tree of a site: sections, variants and their page trees in one read (docsctl extension)',
  source: 'docsctl',
  access: 'read',
  params: pathParams(...site),
  query: z.object({ format: z.enum(['tree', 'text']).optional() }),
});

/** A site space, section or section group of the structure. */
const SiteStructureItemPointer = z.object({
  type: z.enum(['site-space', 'site-section', 'site-section-group']),
  id: z.string().min(1),
});

export const sortSiteStructure = defineRoute({
  id: 'sortSiteStructure',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/structure/sort',
  summary: 'Move an item of the site structure before or after another (to the end when the position is empty)',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({
    item: SiteStructureItemPointer,
    position: z.object({ before: SiteStructureItemPointer.optional(), after: SiteStructureItemPointer.optional() }),
  }),
  bodyRequired: true,
  preferMinimal: true,
});

// ─── Real API: customization ───────────────────────────────────────────────

/**
 * A group of settings (`styling`, `header`, …): an object here, checked against the real
 * API's shape by the handler (sites/customization.ts, ajv over the generated schema).
 */
const SettingsGroup = z.record(z.string(), z.unknown());
const unmaskedQuery = () => z.object({ unmasked: qBool().optional() });

export const getSiteCustomizationById = defineRoute({
  id: 'getSiteCustomizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/customization',
  summary: 'Get the customization settings of a site',
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: unmaskedQuery(),
});

export const updateSiteCustomizationById = defineRoute({
  id: 'updateSiteCustomizationById',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/customization',
  summary: 'Replace the customization settings of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({
    title: SiteTitle.optional(),
    localizedTitle: SettingsGroup.optional(),
    styling: SettingsGroup,
    internationalization: SettingsGroup,
    favicon: SettingsGroup,
    header: SettingsGroup,
    footer: SettingsGroup,
    announcement: SettingsGroup.optional(),
    themes: SettingsGroup,
    // 0.143's `pdf` and `git` groups: 0.202 made them page actions (`pageActions.items`); accepted from older clients.
    pdf: SettingsGroup.optional(),
    feedback: SettingsGroup,
    ai: SettingsGroup,
    advancedCustomization: SettingsGroup,
    git: SettingsGroup.optional(),
    pageActions: SettingsGroup,
    externalLinks: SettingsGroup,
    pagination: SettingsGroup,
    trademark: SettingsGroup,
    privacyPolicy: SettingsGroup,
    socialPreview: SettingsGroup,
    socialAccounts: z.array(SettingsGroup).max(10),
    insights: SettingsGroup,
  }),
  bodyRequired: true,
});

export const getSiteSpaceCustomizationById = defineRoute({
  id: 'getSiteSpaceCustomizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
  summary: 'Get the customization settings of a site space (the site\'s, with its overrides)',
  source: 'real-api',
  access: 'read',
  params: pathParams(...site, 'siteSpaceId'),
  query: unmaskedQuery(),
});

export const overrideSiteSpaceCustomizationById = defineRoute({
  id: 'overrideSiteSpaceCustomizationById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
  summary: 'Override customization settings of the site for one site space (null resets an override)',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteSpaceId'),
  query: noQuery(),
  body: z.object({
    title: SiteTitle.nullable().optional(),
    localizedTitle: SettingsGroup.nullable().optional(),
    styling: SettingsGroup.optional(),
    internationalization: SettingsGroup.optional(),
    favicon: SettingsGroup.nullable().optional(),
    announcement: SettingsGroup.optional(),
    header: SettingsGroup.optional(),
    footer: SettingsGroup.optional(),
    themes: SettingsGroup.optional(),
    feedback: SettingsGroup.optional(),
    externalLinks: SettingsGroup.optional(),
    pagination: SettingsGroup.optional(),
    trademark: SettingsGroup.optional(),
    privacyPolicy: SettingsGroup.optional(),
    socialPreview: SettingsGroup.optional(),
  }),
  bodyRequired: true,
});

export const deleteSiteSpaceCustomizationById = defineRoute({
  id: 'deleteSiteSpaceCustomizationById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
  summary: 'Remove the customization overrides of a site space',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteSpaceId'),
  query: noQuery(),
});

// ─── Real API: site redirects ──────────────────────────────────────────────

/**
 * A redirect's source path (spec `SiteRedirectSourcePath` of 0.202): `/` then non-empty segments of
 * unreserved characters, `+` or percent-encodings, and optionally a final `*` or `/*` (a wildcard
 * matching every path it is a prefix of; not `/*` alone).
 */
const SiteRedirectSourcePath = z
  .string()
  .max(512)
  .regex(
    /^\/(?!\*)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/,
    'must be a path such as /old/page or /old/*: a leading "/", no trailing "/", no query or fragment, other characters percent-encoded, "*" only at the end',
  );

/** 0.202's redirect flags: a draft is not live; a wildcard source can carry what it matched; permanent ones are served as 308. */
const redirectFlags = {
  captureWildcard: z.boolean().describe('append what the source\'s final * matched to the destination URL'),
  draft: z.boolean().describe('a draft redirect is not live (listed with draft=true, never resolved)'),
  permanent: z.boolean().describe('served as a permanent redirect (308) to public live traffic'),
};

/** Where a redirect leads (spec `SiteRedirectDestination`): a section, a site space, or a page of a site space. */
const SiteRedirectDestination = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('site-section'), siteSectionId: z.string() }),
  z.object({ kind: z.literal('site-space'), siteSpaceId: z.string() }),
  z.object({ kind: z.literal('site-page'), siteSpaceId: z.string(), pageId: z.string() }),
]);

export const listSiteRedirects = defineRoute({
  id: 'listSiteRedirects',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/redirects',
  summary: 'List the redirects of a site',
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: z.object({
    ...paginationQuery,
    search: z.string().max(512).optional(),
    draft: qBool().optional().describe('list the draft redirects instead of the live ones'),
    orderBy: z.enum(['createdAt', 'updatedAt', 'source']).optional().describe('createdAt (default) and updatedAt: newest first; source: alphabetical'),
  }),
  paginated: true,
});

export const createSiteRedirect = defineRoute({
  id: 'createSiteRedirect',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/redirects',
  summary: 'Create a redirect from a path of a site to a section, site space or page',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({
    source: SiteRedirectSourcePath,
    destination: SiteRedirectDestination,
    captureWildcard: redirectFlags.captureWildcard.optional(),
    draft: redirectFlags.draft.optional(),
    permanent: redirectFlags.permanent.optional(),
  }),
  bodyRequired: true,
  success: 201,
});

export const getSiteRedirectBySource = defineRoute({
  id: 'getSiteRedirectBySource',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/redirect',
  summary: 'Resolve a site redirect by its source path',
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: z.object({ source: SiteRedirectSourcePath, shareKey: z.string().optional() }),
});

export const updateSiteRedirectById = defineRoute({
  id: 'updateSiteRedirectById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}',
  summary: 'Update the source or destination of a site redirect',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteRedirectId'),
  query: noQuery(),
  body: z.object({ source: SiteRedirectSourcePath, destination: SiteRedirectDestination, ...redirectFlags }).partial(),
  bodyRequired: true,
});

export const deleteSiteRedirectById = defineRoute({
  id: 'deleteSiteRedirectById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}',
  summary: 'Delete a site redirect',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteRedirectId'),
  query: noQuery(),
});

// ─── Real API: site MCP servers ────────────────────────────────────────────

const SiteMcpServerName = z.string().min(1).max(100);
/** Headers sent to the server (spec `SiteMcpServerHeaders`); names and values are checked further by the handlers. */
const SiteMcpServerHeaders = z.record(z.string(), z.string().min(1).max(512));

export const listSiteMcpServers = defineRoute({
  id: 'listSiteMcpServers',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers',
  summary: 'List the MCP servers of a site (header values hidden)',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: listQuery(),
  paginated: true,
});

export const createSiteMcpServer = defineRoute({
  id: 'createSiteMcpServer',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers',
  summary: 'Add an MCP server to a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({ name: SiteMcpServerName, url: Url, headers: SiteMcpServerHeaders }),
  bodyRequired: true,
  success: 201,
});

export const getSiteMcpServerById = defineRoute({
  id: 'getSiteMcpServerById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers/{siteMcpServerId}',
  summary: 'Get an MCP server of a site, its headers included',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteMcpServerId'),
  query: noQuery(),
});

export const updateSiteMcpServerById = defineRoute({
  id: 'updateSiteMcpServerById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers/{siteMcpServerId}',
  summary: 'Update the name, URL or headers of an MCP server of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteMcpServerId'),
  query: noQuery(),
  body: z.object({ name: SiteMcpServerName, url: Url, headers: SiteMcpServerHeaders }).partial(),
  bodyRequired: true,
});

export const deleteSiteMcpServerById = defineRoute({
  id: 'deleteSiteMcpServerById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers/{siteMcpServerId}',
  summary: 'Delete an MCP server of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteMcpServerId'),
  query: noQuery(),
});
