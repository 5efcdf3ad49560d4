/** API doc §4.3–4.7: sites, site sections, section groups, site spaces and share links; the real API's redirects and MCP servers. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { DefaultLevel, JSONDocument, SiteType, SiteVisibility, SpaceTemplate, TranslationLanguage, Url, listQuery, noQuery, paginationQuery, pathParams, qArray, qBool } from '../schemas/common.js';
import { ChannelPattern, RepositoryPattern, SiteChannelRole, SiteChannelType, SiteFindingChangeRequests, SiteScanTopics } from '../schemas/site-agents.js';

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
/** 0.202 `LocalizedString128`/`256`: a title or description per language, overrides for languages other than the site's own. */
export const localized = (max: number) => z.partialRecord(TranslationLanguage, z.string().min(1).max(max));
/**
 * 0.202: a page of the space shown at the site space's (or section's) root instead of the space's first page
 * (absent when `spaceId` is null: the new space has no pages to name; a 400).
 */
const HomePageId = z.string().min(1).max(64);

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
  cli: {
    command: 'site list',
    aliases: ['ls'],
    flags: {
      space: { flag: '--space <spaceId>', description: 'only sites showing this space' },
      title: { flag: '--title <text>', description: 'only sites whose title contains this' },
      published: { flag: '--published <bool>', description: 'only published (true) or unpublished (false) sites' },
      type: { flag: '--type <type...>', description: 'only sites of these types (repeatable)' },
      shareKey: false,
    },
    columns: 'site',
    noun: 'site',
    examples: [
      'docsctl site list',
      'docsctl site list --space sp4c3 --format ids',
      'docsctl site list --type premium --type ultimate --published true',
    ],
  },
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
  cli: {
    command: 'site create',
    summary: 'Create a site (basic and public unless told otherwise)',
    flags: {
      title: { description: 'title (2 to 128 characters)', required: true },
      visibility: { flag: '--visibility <visibility>', description: 'who can read it once published' },
      type: { flag: '--type <type>', description: 'plan of the site (decides its features)' },
      spaces: { flag: '--space <spaceId...>', description: 'spaces to show at its root (repeatable)', type: 'list' },
    },
    columns: 'site',
    examples: ['docsctl site create --title "Help Center" --type premium --space sp4c3', 'id=$(docsctl site create --title Docs --format ids)'],
  },
});

export const applyTemplateToSite = defineRoute({
  id: 'applyTemplateToSite',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/template',
  summary: 'Apply the default documentation template to a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  cli: {
    command: 'site template',
    summary: "Give an empty site a starting point: a new space titled like the site with docsctl's product-docs template pages, shown at its root",
    columns: 'site',
    examples: ['docsctl site create --title Docs && docsctl site template Docs', 'docsctl site template s1t3 && docsctl site structure s1t3'],
  },
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
  cli: {
    command: 'site get',
    summary: 'Show a site',
    columns: 'site',
    examples: ['docsctl site get s1t3', 'docsctl site get s1t3 --json | jq .urls.published'],
  },
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
  cli: {
    command: 'site delete',
    summary: 'Delete a site with its sections, site spaces and share links (the spaces stay)',
    aliases: ['rm'],
    confirm: 'Delete site {siteId}?',
    columns: 'site',
    noun: 'site',
    examples: ['docsctl site delete s1t3 --yes'],
  },
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
      /** docsctl: the custom hostname serving the site (GitBook sets it in its app; `null` removes it). */
      hostname: z.string().min(1).max(512).nullable(),
      /** 0.202: the role members (not guests) have on the site without a grant of their own; `inherit`: their organization role. */
      defaultLevel: DefaultLevel,
      /** 0.202: a style guide space of the organization to attach (`null` detaches it; routes/styleguides.ts makes one). */
      styleguide: z.string().min(1).nullable(),
    })
    .partial(),
  bodyRequired: true,
  cli: {
    command: 'site edit',
    summary: 'Change the title, visibility, basename, defaults, proxy or adaptive content of a site',
    flags: {
      title: 'new title',
      visibility: 'new visibility',
      basename: { flag: '--basename <name>', description: 'last part of the published URL' },
      'body.adaptiveContent.enabled': { flag: '--adaptive-content <enabled>', description: 'adaptive content on or off' },
      agentsContext: { flag: '--agents-context <mode>', description: 'include the site in AI agents context' },
      defaultSiteSection: { flag: '--default-section <sectionId>', description: 'section visitors land on' },
      defaultSiteSpace: { flag: '--default-site-space <siteSpaceId>', description: 'variant visitors land on (root or default section)' },
      proxy: { flag: '--proxy <origin>', description: 'serve under host/path (e.g. acme.com/docs; "none" removes it)', noneIsNull: true },
      hostname: { flag: '--hostname <hostname>', description: 'publish it at this custom hostname (e.g. docs.acme.com; "none" removes it)', noneIsNull: true },
      defaultLevel: { flag: '--default-level <role>', description: 'role of members without a grant on the site ("inherit": their organization role; "none": no access)', nullAs: 'none' },
      styleguide: { flag: '--styleguide <spaceId>', description: 'attach a style guide space of the organization (docsctl styleguide list; "none" detaches it)', noneIsNull: true },
      adaptiveContent: false,
    },
    nonEmptyBody: 'Nothing to change: pass --title, --visibility, --basename, --adaptive-content, --agents-context, --default-section, --default-site-space, --proxy, --hostname, --default-level or --styleguide',
    columns: 'site',
    examples: ['docsctl site edit s1t3 --title "Help Center" --visibility unlisted', 'docsctl site edit s1t3 --default-level read'],
  },
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
  cli: {
    command: 'site adaptive-schema get',
    summary: 'Show the adaptive content schema of a site',
    columns: 'adaptiveSchema',
    examples: ['docsctl site adaptive-schema get s1t3 --json | jq .jsonSchema'],
  },
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
  cli: {
    command: 'site adaptive-schema set',
    summary: 'Set the adaptive content schema of a site from a draft-07 JSON Schema file',
    flags: { jsonSchema: false },
    columns: 'adaptiveSchema',
    examples: ['docsctl site adaptive-schema set s1t3 --file claims.json'],
  },
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
  cli: {
    command: 'site published',
    summary: 'Show what a site publishes: every section and variant with its URL (--json: the API answer; --rows --json: the rows of the table)',
    flags: { shareKey: { flag: '--share-key <key>', description: 'open a share-link site with this key' } },
    columns: 'publishedItem',
    examples: [
      'docsctl site published s1t3',
      'docsctl site published s1t3 --json | jq .structure',
      'docsctl site published s1t3 --rows --json | jq -r ".[] | select(.default) | .url"',
    ],
  },
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
  cli: {
    command: 'site section list',
    aliases: ['ls'],
    flags: { shareKey: false },
    columns: 'siteSection',
    noun: 'section',
    examples: ['docsctl site section list s1t3'],
  },
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
    /** 0.202: null makes a new space (from `template`, else empty and titled like the section). */
    spaceId: z.string().min(1).nullable(),
    /** 0.202: the new space's content, when `spaceId` is null (a built-in template). */
    template: SpaceTemplate.optional(),
    /** API doc: max 64 at creation (stored titles are 2 to 128); null uses the space title. */
    title: z.string().min(2).max(64).nullable().optional(),
    icon: Icon.nullable().optional(),
    draft: z.boolean().describe('a draft is not published (left out of the published site) until made live').optional(),
    /** 0.202: the page the section opens on (a page of the space; not with a new space). */
    pageId: HomePageId.optional(),
    /** 0.202: create the section inside this section group (at its end). */
    siteSectionGroupId: z.string().min(1).optional(),
  }),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'site section add',
    summary: 'Add a space to a site as a new section (the first section is the default); without a space, a new one (--template, or empty and titled --title)',
    args: ['siteId', { name: 'spaceId', to: 'body.spaceId', optional: true }],
    argHelp: { spaceId: 'space shown by the section (absent: a new space)' },
    flags: {
      title: 'section title (default: the space title; also the new space\'s title without --template)',
      icon: 'icon name',
      'body.template.id': { flag: '--template <id>', description: 'make the new space from a built-in template (product-docs, api-reference, knowledge-base)' },
      template: false,
      pageId: { flag: '--page <pageId>', description: "page the section opens on (default: the space's first page)" },
      draft: 'add it as a draft: not published until made live (edit --no-draft)',
      siteSectionGroupId: { flag: '--group <siteSectionGroupId>', description: 'create it inside this section group (default: the top level)' },
    },
    columns: 'siteSection',
    examples: ['docsctl site section add s1t3 sp4c3 --title "API reference"', 'docsctl site section add s1t3 --template api-reference --title API'],
  },
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
  cli: {
    command: 'site section remove',
    summary: 'Remove a section and its variants from a site (the spaces stay)',
    aliases: ['rm'],
    confirm: 'Remove section {siteSectionId} from site {siteId}?',
    columns: 'siteSection',
    noun: 'section',
    examples: ['docsctl site section remove s1t3 s3ct --yes'],
  },
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
      /** 0.202: titles and descriptions per language (the whole map; `{}` removes them). */
      localizedTitle: localized(128),
      localizedDescription: localized(256),
      draft: z.boolean().describe('a draft is not published (left out of the published site) until made live'),
      /** 0.202: move the section into this group (at its end); null: to the top level of the site. */
      siteSectionGroupId: z.string().min(1).nullable(),
    })
    .partial(),
  bodyRequired: true,
  preferMinimal: true,
  cli: {
    command: 'site section edit',
    summary: 'Change the title, path, default variant, condition, icon, description or group of a section',
    flags: {
      title: 'new title',
      path: { flag: '--path <url-path>', description: 'URL path (unique in the site)' },
      defaultSiteSpace: { flag: '--default-site-space <siteSpaceId>', description: 'default variant' },
      condition: { flag: '--condition <expression>', description: 'visibility condition ("none" removes it)', noneIsNull: true },
      icon: { description: 'icon name ("none" removes it)', noneIsNull: true },
      description: { flag: '--description <text>', description: 'description ("none" removes it)', noneIsNull: true },
      draft: { description: 'make it a draft: left out of the published site', negate: 'make a draft live: published with the site' },
      siteSectionGroupId: { flag: '--group <siteSectionGroupId>', description: 'move it into this section group ("none": to the top level)', noneIsNull: true },
      localizedTitle: false,
      localizedDescription: false,
    },
    nonEmptyBody:
      'Nothing to change: pass --title, --path, --default-site-space, --condition, --icon, --description, --localized-title, --localized-description, --group or --draft/--no-draft',
    columns: 'siteSection',
    examples: ['docsctl site section edit s1t3 s3ct --path api --icon code', 'docsctl site section edit s1t3 s3ct --localized-title fr=Référence --localized-title de=Referenz'],
  },
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
  cli: {
    command: 'site section move',
    summary: 'Move a section before or after another one (to the end without a position)',
    flags: { position: false },
    columns: 'siteSection',
    examples: ['docsctl site section move s1t3 s3ct --before 0th3r'],
  },
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
  cli: {
    command: 'site section-group list',
    aliases: ['ls'],
    columns: 'siteSectionGroup',
    noun: 'section group',
    examples: ['docsctl site section-group list s1t3'],
  },
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
  cli: {
    command: 'site section-group add',
    summary: 'Add a section group (optionally with sections, or nested in another group)',
    flags: {
      title: { description: 'title (1 to 100 characters)', required: true },
      sections: { flag: '--section <sectionId...>', description: 'sections to put in it, in order (repeatable)' },
      icon: 'icon name',
      parent: { flag: '--parent <groupId>', description: 'nest it in this group' },
      draft: 'add it as a draft: not published until made live (edit --no-draft)',
    },
    columns: 'siteSectionGroup',
    examples: ['docsctl site section-group add s1t3 --title Products --section s3ct1 --section s3ct2'],
  },
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
  cli: {
    command: 'site section-group remove',
    summary: 'Remove a section group (its sections go back to the top level)',
    aliases: ['rm'],
    argHelp: { siteSectionGroupId: 'section group id' },
    confirm: 'Remove section group {siteSectionGroupId}?',
    columns: 'siteSectionGroup',
    noun: 'section group',
    examples: ['docsctl site section-group remove s1t3 gr0up --yes'],
  },
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
  body: z
    .object({
      title: z.string().min(1).max(100),
      /** 0.202: titles per language (the whole map; `{}` removes them). */
      localizedTitle: localized(128),
      icon: Icon.nullable(),
      draft: z.boolean().describe('a draft is not published (left out of the published site) until made live'),
      /** 0.202: move the group into this group (at its end); null: to the top level of the site. */
      parentSectionGroupId: z.string().min(1).nullable(),
    })
    .partial(),
  bodyRequired: true,
  preferMinimal: true,
  cli: {
    command: 'site section-group edit',
    summary: 'Change the title, icon or parent group of a section group',
    argHelp: { siteSectionGroupId: 'section group id' },
    flags: {
      title: 'new title',
      icon: { description: 'icon name ("none" removes it)', noneIsNull: true },
      draft: { description: 'make it a draft: left out of the published site', negate: 'make a draft live: published with the site' },
      parentSectionGroupId: { flag: '--parent <siteSectionGroupId>', description: 'move it into this section group ("none": to the top level)', noneIsNull: true },
      localizedTitle: false,
    },
    nonEmptyBody: 'Nothing to change: pass --title, --localized-title, --icon, --parent or --draft/--no-draft',
    columns: 'siteSectionGroup',
    examples: ['docsctl site section-group edit s1t3 gr0up --title Guides'],
  },
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
  cli: {
    command: 'site section-group add-section',
    summary: 'Put a section into a section group',
    args: ['siteId', 'siteSectionGroupId', { name: 'sectionId', to: 'body.sectionId' }],
    argHelp: { siteSectionGroupId: 'section group id', sectionId: 'site section id' },
    columns: 'siteSectionGroup',
    examples: ['docsctl site section-group add-section s1t3 gr0up s3ct'],
  },
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
  cli: {
    command: 'site section-group remove-section',
    summary: 'Take a section out of a section group (back to the top level)',
    argHelp: { siteSectionGroupId: 'section group id' },
    columns: 'siteSection',
    noun: 'section in that group',
    examples: ['docsctl site section-group remove-section s1t3 gr0up s3ct'],
  },
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
  cli: {
    command: 'site section-group move',
    summary: 'Move a section group next to a section or group (to the end without a position)',
    argHelp: { siteSectionGroupId: 'section group id' },
    flags: { position: false },
    columns: 'siteSectionGroup',
    examples: ['docsctl site section-group move s1t3 gr0up --before section:s3ct'],
  },
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
  cli: {
    command: 'site space list',
    summary: 'List the site spaces (variants) of a site',
    aliases: ['ls'],
    flags: {
      default: { flag: '--default <bool>', description: 'only default (true) or other (false) variants' },
      shareKey: false,
    },
    columns: 'siteSpace',
    noun: 'site space',
    examples: ['docsctl site space list s1t3'],
  },
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
  body: z.object({
    /** 0.202: null makes a new space (from `template`, else empty and titled `title`). */
    spaceId: z.string().min(1).nullable(),
    template: SpaceTemplate.optional(),
    sectionId: z.string().min(1).optional(),
    draft: z.boolean().describe('a draft is not published (left out of the published site) until made live').optional(),
    /** 0.202: the page the site space opens on (a page of the space; not with a new space). */
    pageId: HomePageId.nullable().optional(),
    /** 0.202: the variant's title on the site (the space keeps its own); also the new space's title without a template. */
    title: SiteTitle.optional(),
  }),
  bodyRequired: true,
  success: 201,
  preferMinimal: true,
  cli: {
    command: 'site space add',
    summary: 'Add a space to a site (a variant of a section, or at the root); without a space, a new one (--template, or empty and titled --title)',
    args: ['siteId', { name: 'spaceId', to: 'body.spaceId', optional: true }],
    argHelp: { spaceId: 'space to add (absent: a new space)' },
    flags: {
      sectionId: { flag: '--section <sectionId>', description: 'section to add it to (default: the default section)' },
      title: { flag: '--title <title>', description: "the variant's title on the site (default: the space's title)" },
      'body.template.id': { flag: '--template <id>', description: 'make the new space from a built-in template (product-docs, api-reference, knowledge-base)' },
      template: false,
      pageId: { flag: '--page <pageId>', description: "page the site space opens on (default: the space's first page)" },
      draft: 'add it as a draft: not published until made live (edit --no-draft)',
    },
    columns: 'siteSpace',
    examples: ['docsctl site space add s1t3 sp4c3 --section s3ct --title "Version 2"', 'docsctl site space add s1t3 --template knowledge-base --title Help'],
  },
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
  cli: {
    command: 'site space remove',
    summary: 'Remove a space from a site (the space stays)',
    aliases: ['rm'],
    confirm: 'Remove site space {siteSpaceId} from site {siteId}?',
    columns: 'siteSpace',
    noun: 'site space',
    examples: ['docsctl site space remove s1t3 v4r --yes'],
  },
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
      hidden: z.boolean().describe("a hidden site space is left out of the site's navigation (its URL still answers)"),
      /** 0.202: the page it opens on (null: the space's first page again; changing `spaceId` clears it unless given). */
      pageId: HomePageId.nullable(),
    })
    .partial(),
  bodyRequired: true,
  preferMinimal: true,
  cli: {
    command: 'site space edit',
    summary: 'Change the path, condition, space, draft or hidden state of a site space',
    flags: {
      path: { flag: '--path <url-path>', description: 'URL path (unique in its section)' },
      condition: { flag: '--condition <expression>', description: 'visibility condition ("none" removes it)', noneIsNull: true },
      spaceId: { flag: '--space <spaceId>', description: 'show this space instead' },
      draft: { description: 'make it a draft: left out of the published site', negate: 'make a draft live: published with the site' },
      hidden: { description: "hide it from the site's navigation (its URL still answers)", negate: "show it in the site's navigation again" },
      pageId: { flag: '--page <pageId>', description: 'page it opens on ("none": the space\'s first page)', noneIsNull: true },
    },
    nonEmptyBody: 'Nothing to change: pass --path, --condition, --space, --page, --draft/--no-draft or --hidden/--no-hidden',
    columns: 'siteSpace',
    examples: ['docsctl site space edit s1t3 v4r --path v2'],
  },
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
  cli: {
    command: 'site space move',
    summary: 'Move a variant before or after another of its section (to the end without a position)',
    flags: { position: false },
    columns: 'siteSpace',
    examples: ['docsctl site space move s1t3 v4r --before v0'],
  },
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
  /** 0.202: `search` matches a share link by a part of its name (any letter case) or by its whole secret key. */
  query: listQuery().extend({ search: z.string().min(1).max(200).optional().describe('only the share links whose name contains this text, or whose secret key it is') }),
  paginated: true,
  cli: {
    command: 'site share-link list',
    summary: 'List the share links of a site (their secret URLs are shown only at creation)',
    aliases: ['ls'],
    columns: 'shareLink',
    noun: 'share link',
    examples: ['docsctl site share-link list s1t3', 'docsctl site share-link list s1t3 --search partners'],
  },
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
  cli: {
    command: 'site share-link create',
    summary: 'Create a share link; prints its secret URL once',
    flags: { name: 'name (max 50 characters)' },
    columns: 'shareLink',
    examples: [
      'docsctl site share-link create s1t3 --name Partners',
      'url=$(docsctl site share-link create s1t3 --json | jq -r .urls.published)',
    ],
  },
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
  cli: {
    command: 'site share-link delete',
    summary: 'Delete a share link',
    aliases: ['rm'],
    confirm: 'Delete share link {shareLinkId}?',
    columns: 'shareLink',
    noun: 'share link',
    examples: ['docsctl site share-link delete s1t3 l1nk --yes'],
  },
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
  cli: {
    command: 'site share-link edit',
    summary: 'Rename, activate or deactivate a share link',
    flags: { name: 'new name', active: false },
    nonEmptyBody: 'Nothing to change: pass --name, --active or --inactive',
    columns: 'shareLink',
    examples: ['docsctl site share-link edit s1t3 l1nk --inactive'],
  },
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
  cli: {
    command: 'site publish',
    columns: 'site',
    examples: ['docsctl site publish s1t3'],
  },
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
  cli: {
    command: 'site unpublish',
    columns: 'site',
    examples: ['docsctl site unpublish s1t3'],
  },
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
  cli: {
    command: 'site tree',
    summary: 'Print the structure of a site: groups, sections, variants and their page trees with URLs',
    flags: { format: false },
    columns: 'publishedItem',
    examples: ['docsctl site tree s1t3', 'docsctl site tree s1t3 --json | jq ".[0]"'],
  },
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
  cli: {
    command: 'site customization set',
    summary: 'Replace the customization settings of a site with a JSON file (every group, as `get --json` prints them)',
    onlyNamedFlags: true,
    columns: 'customization',
    examples: ['docsctl site customization get s1t3 --json > look.json && docsctl site customization set s1t3 --file look.json'],
  },
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
  cli: {
    command: 'site customization get',
    summary: "Show the customization settings of a site (or of one site space, the site's with its overrides)",
    flags: { 'params.siteSpaceId': { flag: '--site-space <siteSpaceId>', description: 'the settings one site space shows' }, unmasked: false },
    columns: 'customization',
    examples: ['docsctl site customization get s1t3', 'docsctl site customization get s1t3 --site-space v4r --json | jq .styling'],
  },
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
  cli: {
    command: 'site customization override',
    summary: 'Override some of the site\'s customization settings for one site space (null resets an override)',
    onlyNamedFlags: true,
    columns: 'customization',
    examples: [
      'docsctl site customization override s1t3 v4r --file dark.json',
      'docsctl site customization override s1t3 v4r --body \'{"styling":{"theme":null}}\'',
    ],
  },
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
  cli: {
    command: 'site customization reset',
    summary: 'Remove every customization override of a site space (it shows the site\'s settings again)',
    confirm: 'Remove the customization overrides of site space {siteSpaceId}?',
    columns: 'customization',
    noun: 'customization override',
    examples: ['docsctl site customization reset s1t3 v4r --yes'],
  },
});

// ─── Real API: site redirects ──────────────────────────────────────────────

/**
 * A redirect's source path (spec `SiteRedirectSourcePath` of 0.202): `/` then non-empty segments of
 * unreserved characters, `+` or percent-encodings, and optionally a final `*` or `/*` (a wildcard
 * matching every path it is a prefix of; not `/*` alone).
 */
export const SiteRedirectSourcePath = z
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
export const SiteRedirectDestination = z.discriminatedUnion('kind', [
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
  cli: {
    command: 'site redirect list',
    aliases: ['ls'],
    flags: {
      search: { flag: '--search <text>', description: 'only redirects whose source contains this' },
      draft: { flag: '--drafts', description: 'list the draft redirects (not live) instead of the live ones' },
      orderBy: { flag: '--order-by <field>' },
    },
    columns: 'siteRedirect',
    noun: 'redirect',
    examples: ['docsctl site redirect list s1t3', 'docsctl site redirect list s1t3 --search /v1/', 'docsctl site redirect list s1t3 --drafts --order-by source'],
  },
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
  cli: {
    command: 'site redirect create',
    summary: 'Redirect a path of a site to a section, a site space or a page',
    args: ['siteId', { name: 'source', to: 'body.source' }],
    argHelp: { source: 'path on the site, e.g. /old/page, or a prefix ending in * (/old/*)' },
    flags: {
      destination: false,
      draft: 'a draft: not live until made live (site redirect edit --no-draft)',
      captureWildcard: "append what the source's final * matched to the destination",
      permanent: 'served as a permanent redirect (308) rather than a temporary one (307)',
    },
    columns: 'siteRedirect',
    examples: [
      'docsctl site redirect create s1t3 /old-api --section s3ct',
      'docsctl site redirect create s1t3 /guide/v1 --site-space v4r',
      'docsctl site redirect create s1t3 /setup --site-space v4r --page guides/setup',
      'docsctl site redirect create s1t3 "/v1/*" --section s3ct --capture-wildcard --permanent',
    ],
  },
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
  cli: {
    command: 'site redirect get',
    summary: 'Show the redirect from a path and the URL it leads to',
    args: ['siteId', { name: 'source', to: 'query.source' }],
    argHelp: { source: 'path on the site, e.g. /old/page, or a prefix ending in * (/old/*)' },
    flags: { shareKey: { flag: '--share-key <key>', description: 'open a share-link site with this key' } },
    columns: 'siteRedirectTarget',
    examples: ['docsctl site redirect get s1t3 /old/page', 'docsctl site redirect get s1t3 /old/page --json | jq -r .target'],
  },
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
  cli: {
    command: 'site redirect edit',
    summary: 'Change the source or destination of a redirect',
    argHelp: { siteRedirectId: 'redirect id' },
    flags: {
      source: { flag: '--source <url-path>', description: 'new source path' },
      destination: false,
      draft: { description: 'a draft: not live until made live (site redirect edit --no-draft)', negate: 'make a draft redirect live' },
      captureWildcard: { description: "append what the source's final * matched to the destination", negate: 'stop appending what the * matched' },
      permanent: { description: 'served as a permanent redirect (308) rather than a temporary one (307)', negate: 'serve it as a temporary redirect (307)' },
    },
    nonEmptyBody: 'Nothing to change: pass --source, --section, --site-space (with --page), --draft/--no-draft, --capture-wildcard or --permanent (or their --no- forms)',
    columns: 'siteRedirect',
    examples: [
      'docsctl site redirect edit s1t3 r3d1 --source /older-api',
      'docsctl site redirect edit s1t3 r3d1 --site-space v4r',
    ],
  },
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
  cli: {
    command: 'site redirect delete',
    summary: 'Delete a redirect',
    aliases: ['rm'],
    argHelp: { siteRedirectId: 'redirect id' },
    confirm: 'Delete redirect {siteRedirectId}?',
    columns: 'siteRedirect',
    noun: 'redirect',
    examples: ['docsctl site redirect delete s1t3 r3d1 --yes'],
  },
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
  cli: {
    command: 'site mcp-server list',
    aliases: ['ls'],
    columns: 'siteMcpServer',
    noun: 'MCP server',
    examples: ['docsctl site mcp-server list s1t3'],
  },
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
  body: z.object({
    name: SiteMcpServerName,
    url: Url,
    headers: SiteMcpServerHeaders,
    transport: z.enum(['sse', 'http']).optional().describe('how the assistant connects: sse (default) or http (streamable HTTP)'),
    condition: Expression.nullable().optional().describe("expression deciding for which visitors the server is available (visitor.claims…)"),
  }),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'site mcp-server add',
    summary: 'Add an MCP server to a site (docsctl never connects to it)',
    flags: {
      name: { description: 'name (1 to 100 characters)', required: true },
      url: { description: 'https:// URL of the server', required: true },
      headers: false,
    },
    columns: 'siteMcpServer',
    examples: [
      'docsctl site mcp-server add s1t3 --name Tickets --url https://mcp.acme.example/sse',
      'MCP_TOKEN=… docsctl site mcp-server add s1t3 --name Tickets --url https://mcp.acme.example/sse --header-env Authorization=MCP_TOKEN',
    ],
  },
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
  cli: {
    command: 'site mcp-server get',
    summary: 'Show an MCP server of a site (header values with --json or --yaml)',
    argHelp: { siteMcpServerId: 'MCP server id' },
    columns: 'siteMcpServer',
    examples: ['docsctl site mcp-server get s1t3 mcp1', 'docsctl site mcp-server get s1t3 mcp1 --json | jq .headers'],
  },
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
  body: z
    .object({
      name: SiteMcpServerName,
      url: Url,
      headers: SiteMcpServerHeaders,
      transport: z.enum(['sse', 'http']).describe('how the assistant connects: sse or http'),
      condition: Expression.nullable().describe('expression deciding for which visitors the server is available (null: all)'),
    })
    .partial(),
  bodyRequired: true,
  cli: {
    command: 'site mcp-server edit',
    summary: 'Change the name, URL or headers of an MCP server (headers given replace them all)',
    argHelp: { siteMcpServerId: 'MCP server id' },
    flags: { name: 'new name', url: 'new URL', headers: false, condition: { nullAs: 'none' } },
    nonEmptyBody: 'Nothing to change: pass --name, --url, --header, --header-env or --no-headers',
    columns: 'siteMcpServer',
    examples: [
      'docsctl site mcp-server edit s1t3 mcp1 --url https://mcp.acme.example/v2/sse',
      'docsctl site mcp-server edit s1t3 mcp1 --header-env Authorization=MCP_TOKEN',
    ],
  },
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
  cli: {
    command: 'site mcp-server delete',
    aliases: ['rm'],
    argHelp: { siteMcpServerId: 'MCP server id' },
    confirm: 'Delete MCP server {siteMcpServerId}?',
    columns: 'siteMcpServer',
    noun: 'MCP server',
    examples: ['docsctl site mcp-server delete s1t3 mcp1 --yes'],
  },
});

// ─── Real API: the site ads program (tag `site-ads`; src/domain/sites/ads.ts) ──

/** 0.202 `SiteAdsTopic`: what the site is about, for the ad network. */
export const SiteAdsTopic = z.enum(['webdev', 'crypto']);
/**
 * The ad partner's key (`X-GitBook-Partner-Key`): kept by the store as SHA-256 only
 * (`setAdsPartnerKey`). 16+ characters: a key a partner could guess is no key.
 */
const PartnerKey = z.string().min(16).max(256).regex(/^[\x21-\x7e]+$/, 'use printable ASCII without spaces (it travels in an HTTP header)');

export const updateSiteAdsById = defineRoute({
  id: 'updateSiteAdsById',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/ads',
  summary: 'Update the advertising settings for a site',
  source: 'real-api',
  // As every other site setting write (updateSiteById, share links…).
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({
    status: z.enum(['in-review', 'disabled']).optional().describe('in-review: submit the site (or resubmit it) to the ad partner; disabled: stop live ads'),
    topic: SiteAdsTopic.optional().describe('what the site is about (needed to submit it)'),
  }),
  success: 204,
  cli: {
    command: 'site ads edit',
    summary: "Submit a site to the ads program, change its topic, or disable its live ads (its state: the site's `ads` field)",
    nonEmptyBody: 'Nothing to change: pass --status and/or --topic',
    columns: 'site',
    examples: ['docsctl site ads edit s1t3 --status in-review --topic webdev', 'docsctl site ads edit s1t3 --status disabled'],
  },
});

/** The ad partner's side: every call carries `X-GitBook-Partner-Key` (CLI: `DOCSCTL_ADS_PARTNER_KEY`). */
const partnerKeyHelp =
  'The ad partner\'s key travels in the X-GitBook-Partner-Key header; docsctl sends DOCSCTL_ADS_PARTNER_KEY. ' +
  'A docsctl store or `docsctl serve` knows the key set by `docsctl ads partner-key set` (missing: 401, wrong: 403).';

export const adsListSites = defineRoute({
  id: 'adsListSites',
  method: 'GET',
  path: '/v1/ads/sites',
  summary: 'List all the sites with ads configured',
  source: 'real-api',
  // Any signed-in caller: the partner key (checked by the handler) is what admits one.
  access: 'none',
  params: z.object({}),
  query: listQuery().extend({
    status: z.enum(['in-review', 'live', 'rejected']).default('in-review').describe('only the sites whose ads are in this state (default in-review)'),
  }),
  paginated: true,
  cli: {
    command: 'ads site list',
    summary: `List the sites in the ads program by state (the ad partner's view). ${partnerKeyHelp}`,
    aliases: ['ls'],
    columns: 'adsSite',
    noun: 'site',
    examples: ['DOCSCTL_ADS_PARTNER_KEY=… docsctl ads site list --status in-review'],
  },
});

export const adsUpdateSite = defineRoute({
  id: 'adsUpdateSite',
  method: 'PATCH',
  path: '/v1/ads/sites/{siteId}',
  summary: 'Update the Ads configuration for a site',
  source: 'real-api',
  access: 'none',
  params: pathParams('siteId'),
  query: noQuery(),
  // The spec's oneOf (live{zoneId,reportingId} | rejected{reason?} | pending) as one object with a
  // check per state, so each wrong body gets one line naming the field (and the CLI one flag per field).
  body: z
    .object({
      status: z.enum(['live', 'rejected', 'pending']).describe('live: ads run (needs --zone-id, --reporting-id); rejected; pending: back to the site'),
      zoneId: z.string().min(1).max(256).optional().describe('the ad network zone id (live)'),
      reportingId: z.string().min(1).max(256).optional().describe('the id to fetch reporting data (live)'),
      reason: z.string().max(512).optional().describe('why the site was rejected (rejected)'),
    })
    .superRefine((body, issues) => {
      const extra = (field: 'zoneId' | 'reportingId' | 'reason') =>
        issues.addIssue({ code: 'custom', path: [field], message: `${field} does not go with status "${body.status}"` });
      if (body.status === 'live') {
        if (body.zoneId === undefined) issues.addIssue({ code: 'custom', path: ['zoneId'], message: 'status "live" needs a zoneId' });
        if (body.reportingId === undefined) issues.addIssue({ code: 'custom', path: ['reportingId'], message: 'status "live" needs a reportingId' });
        if (body.reason !== undefined) extra('reason');
      } else {
        if (body.zoneId !== undefined) extra('zoneId');
        if (body.reportingId !== undefined) extra('reportingId');
        if (body.status === 'pending' && body.reason !== undefined) extra('reason');
      }
    }),
  bodyRequired: true,
  success: 204,
  cli: {
    command: 'ads site update',
    summary: `Accept (live), reject, or send back (pending) a site submitted to the ads program. ${partnerKeyHelp}`,
    columns: 'adsSite',
    examples: [
      'docsctl ads site update s1t3 --status live --zone-id z0n3 --reporting-id r3p',
      'docsctl ads site update s1t3 --status rejected --reason "not enough traffic"',
    ],
  },
});

export const setAdsPartnerKey = defineRoute({
  id: 'setAdsPartnerKey',
  method: 'PUT',
  path: '/v1/x-docsctl/ads/partner-key',
  summary: "Set the ad partner's key this store accepts in X-GitBook-Partner-Key (kept as SHA-256; docsctl extension)",
  source: 'docsctl',
  // The whole store's setting, as the emulator's snapshots: the store's owner only.
  access: 'owner',
  params: z.object({}),
  query: noQuery(),
  body: z.object({ key: PartnerKey.describe('the key (16-256 printable characters); the store keeps only its SHA-256') }),
  bodyRequired: true,
  success: 204,
  cli: {
    command: 'ads partner-key set',
    summary:
      "Set the ad partner's key that `ads site list|update` (the X-GitBook-Partner-Key header) must carry; the store's owner only. " +
      'Without --key it reads DOCSCTL_ADS_PARTNER_KEY (keeps the key out of the process list).',
    columns: 'site',
    examples: ['DOCSCTL_ADS_PARTNER_KEY=$(openssl rand -hex 24) docsctl ads partner-key set'],
  },
});

// ─── Real API: the site's AI agent settings ────────────────────────────────


export const getSiteAgentSettingsById = defineRoute({
  id: 'getSiteAgentSettingsById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/agent-settings',
  summary: 'Get the AI agent configuration for a site',
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: noQuery(),
  cli: {
    command: 'site agent get',
    summary: "Show a site's AI agent settings: topic scans, change requests for findings, the editing agent's instructions",
    columns: 'siteAgentSettings',
    examples: ['docsctl site agent get s1t3', 'docsctl site agent get s1t3 --json'],
  },
});

export const updateSiteAgentSettingsById = defineRoute({
  id: 'updateSiteAgentSettingsById',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/agent-settings',
  summary: 'Update the AI agent configuration for a site',
  source: 'real-api',
  // As every other site setting write (customization, ads…).
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({
    scans: z.object({ topics: SiteScanTopics }),
    findings: z.object({ changeRequests: SiteFindingChangeRequests }),
    editing: z.object({ customInstructions: JSONDocument }),
  }),
  bodyRequired: true,
  cli: {
    command: 'site agent set',
    summary: "Change a site's AI agent settings; what you do not pass keeps its current value (the API replaces all three groups)",
    onlyNamedFlags: true,
    columns: 'siteAgentSettings',
    examples: [
      'docsctl site agent set s1t3 --scan-topics never',
      'docsctl site agent set s1t3 --change-requests auto-fixable --instructions "Prefer short sentences."',
    ],
  },
});

/** The body of `updateSiteAgentSettingsById` (0.202 `SiteAgentSettingsInput`). */
export type SiteAgentSettingsInput = z.output<typeof updateSiteAgentSettingsById.body>;

// ─── Real API: GitBook Agent channels of a site (src/domain/sites/channels.ts) ─

/** What the agent may act in; which list goes with which type is checked by the handler. At most 100 patterns each. */
const SiteChannelSettings = z
  .object({
    allowedChannels: z.array(ChannelPattern).max(100).describe('Slack or Discord channels (empty: all)'),
    allowedTeams: z.array(ChannelPattern).max(100).describe('Linear team keys (empty: all)'),
    allowedRepositories: z.array(RepositoryPattern).max(100).describe('GitHub repositories (empty: all)'),
  })
  .partial()
  .strict();
const siteChannel = [...site, 'siteChannelId'] as const;
const channelFlags = [
  'docsctl site channel add s1t3 --type slack --allow support-* --role support',
  'docsctl site channel add s1t3 --type github --allow my-org/docs --role collaborator',
];

export const listSiteChannels = defineRoute({
  id: 'listSiteChannels',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/channels',
  summary: 'List the GitBook Agent channels of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: listQuery(),
  paginated: true,
  cli: {
    command: 'site channel list',
    aliases: ['ls'],
    columns: 'siteChannel',
    noun: 'channel',
    examples: ['docsctl site channel list s1t3'],
  },
});

export const createSiteChannel = defineRoute({
  id: 'createSiteChannel',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/channels',
  summary: 'Create a new GitBook Agent channel for a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({
    type: SiteChannelType,
    setupSettings: SiteChannelSettings,
    role: SiteChannelRole.optional().describe('support: answers from the docs (default); collaborator: may open change requests'),
  }),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'site channel add',
    summary: "Connect GitBook Agent to a Slack, Linear, GitHub or Discord channel of the site (pending until the tool's side connects; docsctl never contacts it)",
    onlyNamedFlags: true,
    columns: 'siteChannel',
    examples: channelFlags,
  },
});

export const getSiteChannelById = defineRoute({
  id: 'getSiteChannelById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/channels/{siteChannelId}',
  summary: 'Get a GitBook Agent channel of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...siteChannel),
  query: noQuery(),
  cli: {
    command: 'site channel get',
    argHelp: { siteChannelId: 'channel id' },
    columns: 'siteChannel',
    examples: ['docsctl site channel get s1t3 ch4n'],
  },
});

export const updateSiteChannelById = defineRoute({
  id: 'updateSiteChannelById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/channels/{siteChannelId}',
  summary: 'Update a GitBook Agent channel of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...siteChannel),
  query: noQuery(),
  // 0.202: a setup (type and settings together), a role, or both.
  body: z.object({ type: SiteChannelType, setupSettings: SiteChannelSettings, role: SiteChannelRole }).partial(),
  bodyRequired: true,
  cli: {
    command: 'site channel edit',
    summary: "Change what a channel allows (--allow replaces the list; --allow-all empties it) or the agent's role there",
    argHelp: { siteChannelId: 'channel id' },
    onlyNamedFlags: true,
    columns: 'siteChannel',
    examples: ['docsctl site channel edit s1t3 ch4n --allow docs-* --allow support', 'docsctl site channel edit s1t3 ch4n --role collaborator'],
  },
});

export const deleteSiteChannelById = defineRoute({
  id: 'deleteSiteChannelById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/channels/{siteChannelId}',
  summary: 'Delete a GitBook Agent channel of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...siteChannel),
  query: noQuery(),
  cli: {
    command: 'site channel delete',
    aliases: ['rm'],
    argHelp: { siteChannelId: 'channel id' },
    confirm: 'Delete channel {siteChannelId}?',
    columns: 'siteChannel',
    noun: 'channel',
    examples: ['docsctl site channel delete s1t3 ch4n --yes'],
  },
});
