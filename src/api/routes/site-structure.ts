/**
 * The real API's additions to a site's shape (0.202): external links in the structure, a
 * site space duplicated with its space, and redirects written in bulk.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { noQuery, pathParams } from '../schemas/common.js';
import { SiteRedirectDestination, SiteRedirectSourcePath, localized } from './sites.js';

const site = ['organizationId', 'siteId'] as const;


const externalLinkFields = {
  title: z.string().min(2).max(128),
  localizedTitle: localized(128),
  description: z.string().max(256).nullable(),
  localizedDescription: localized(256).nullable(),
  icon: z.string().max(50).nullable(),
  url: z.string().max(2048).describe('absolute http(s) URL the link opens'),
  draft: z.boolean().describe('a draft link is not published until made live'),
  condition: z.string().max(1024).nullable().describe('adaptive condition: visitors see the link only when it holds'),
};

export const addExternalLinkToSite = defineRoute({
  id: 'addExternalLinkToSite',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/external-links',
  summary: "Add an external link to a site's structure",
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({
    ...externalLinkFields,
    localizedTitle: externalLinkFields.localizedTitle.optional(),
    description: externalLinkFields.description.optional(),
    localizedDescription: externalLinkFields.localizedDescription.optional(),
    icon: externalLinkFields.icon.optional(),
    draft: externalLinkFields.draft.optional(),
    condition: externalLinkFields.condition.optional(),
    parent: z.string().min(1).optional().describe('the section group to put it in (default: the top level)'),
  }),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'site link add',
    summary: 'Add an external link (a URL shown beside the sections) to a site with sections',
    args: ['siteId', { name: 'url', to: 'body.url' }],
    argHelp: { url: 'absolute http(s) URL the link opens' },
    flags: {
      title: { description: 'title (2 to 128 characters)', required: true },
      parent: { flag: '--group <groupId>', description: 'put it in this section group (default: the top level)' },
      localizedTitle: false,
      localizedDescription: false,
    },
    columns: 'siteExternalLink',
    examples: ['docsctl site link add s1t3 https://status.acme.com --title Status', 'docsctl site link add s1t3 https://acme.com/blog --title Blog --group gr0up --draft'],
  },
});

export const updateSiteExternalLinkById = defineRoute({
  id: 'updateSiteExternalLinkById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/external-links/{siteExternalLinkId}',
  summary: "Update an external link of a site's structure",
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteExternalLinkId'),
  query: noQuery(),
  body: z
    .object({
      ...externalLinkFields,
      localizedTitle: externalLinkFields.localizedTitle.nullable(),
      parent: z.string().min(1).nullable().describe('move it into this section group ("none": the top level)'),
    })
    .partial(),
  bodyRequired: true,
  preferMinimal: true,
  cli: {
    command: 'site link edit',
    summary: 'Change the title, URL, icon, condition, group or draft state of an external link',
    argHelp: { siteExternalLinkId: 'external link id' },
    flags: {
      parent: { flag: '--group <groupId>', description: 'move it into this section group ("none": the top level)', noneIsNull: true },
      description: { description: 'description ("none" removes it)', noneIsNull: true },
      icon: { description: 'icon name ("none" removes it)', noneIsNull: true },
      condition: { description: 'adaptive condition ("none" removes it)', noneIsNull: true },
      draft: { description: 'make it a draft', negate: 'make it live (published with the site)' },
      localizedTitle: false,
      localizedDescription: false,
    },
    nonEmptyBody: 'Nothing to change: pass --title, --url, --description, --localized-title, --localized-description, --icon, --condition, --group or --draft/--no-draft',
    columns: 'siteExternalLink',
    examples: ['docsctl site link edit s1t3 l1nk --title "Service status" --no-draft', 'docsctl site link edit s1t3 l1nk --localized-title fr="État du service"'],
  },
});

export const deleteSiteExternalLinkById = defineRoute({
  id: 'deleteSiteExternalLinkById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/external-links/{siteExternalLinkId}',
  summary: "Delete an external link of a site's structure",
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteExternalLinkId'),
  query: noQuery(),
  success: 'delete',
  cli: {
    command: 'site link remove',
    aliases: ['rm'],
    argHelp: { siteExternalLinkId: 'external link id' },
    confirm: 'Remove external link {siteExternalLinkId}?',
    columns: 'siteExternalLink',
    noun: 'external link',
    examples: ['docsctl site link remove s1t3 l1nk --yes'],
  },
});

export const duplicateSiteSpace = defineRoute({
  id: 'duplicateSiteSpace',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/duplicate',
  summary: 'Duplicate a site space: a copy of its space, shown beside it',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteSpaceId'),
  query: noQuery(),
  body: z.object({ draft: z.boolean().describe('add the copy as a draft: not published until made live').optional() }),
  success: 201,
  cli: {
    command: 'site space duplicate',
    summary: 'Copy the space of a site space and show the copy as another variant of the same section',
    argHelp: { siteSpaceId: 'site space id' },
    columns: 'siteSpace',
    examples: ['docsctl site space duplicate s1t3 v4r1 --draft'],
  },
});

/** One row of a bulk redirect write (0.202): publish a draft, or upsert / delete (`destination: null`) a live or draft one. */
const BulkRedirectRow = z.union([
  z.object({ source: SiteRedirectSourcePath, intent: z.literal('publish') }),
  z.object({
    source: SiteRedirectSourcePath,
    intent: z.enum(['live', 'draft']).optional(),
    captureWildcard: z.boolean().optional(),
    permanent: z.boolean().optional(),
    destination: SiteRedirectDestination.nullable(),
  }),
]);

export const bulkUpsertSiteRedirects = defineRoute({
  id: 'bulkUpsertSiteRedirects',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/redirects',
  summary: 'Create, update, delete or publish up to 500 redirects of a site at once',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({ redirects: z.array(BulkRedirectRow).min(1).max(500) }),
  bodyRequired: true,
  cli: {
    command: 'site redirect apply',
    summary: 'Write many redirects at once from a JSON body {"redirects": [...]} (--body @file.json): one result per row',
    output: 'list',
    nonEmptyBody: 'Nothing to apply: pass --body @FILE holding {"redirects": [{"source": "/old", "destination": {...}}, ...]}',
    columns: 'siteRedirectResult',
    examples: ['docsctl site redirect apply s1t3 --body @redirects.json'],
  },
});
