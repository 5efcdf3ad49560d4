/**
 * Writing style guides (real API 0.202): a style guide is a space of type `styleguide` that a
 * site names as its own (`Site.styleguide`), seeded from one of docsctl's built-in templates.
 * GitBook's editing agent reads it; docsctl runs no agent, so the check runs
 * (`createSiteStyleguideRun`) stay 501 and a site's list of runs is always empty
 * (src/domain/styleguides.ts).
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { listQuery, noQuery, pathParams } from '../schemas/common.js';

/** The built-in templates (their Markdown: src/domain/styleguide-templates.ts, keyed by these ids). */
export const StyleguideTemplateId = z.enum(['technical-writing', 'api-reference', 'plain-language']);

const site = ['organizationId', 'siteId'] as const;

export const listStyleguideTemplates = defineRoute({
  id: 'listStyleguideTemplates',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/styleguide-templates',
  summary: 'List all built-in style guide templates',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId'),
  query: noQuery(),
  cli: {
    command: 'styleguide templates',
    summary: "List docsctl's built-in style guide templates (--json: with their Markdown)",
    output: 'list',
    columns: 'styleguideTemplate',
    noun: 'template',
    examples: ['docsctl styleguide templates', 'docsctl styleguide templates --json id,markdown'],
  },
});

export const listOrganizationStyleguides = defineRoute({
  id: 'listOrganizationStyleguides',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/styleguides',
  summary: 'List all style guides in an organization',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId'),
  query: noQuery(),
  cli: {
    command: 'styleguide list',
    aliases: ['ls'],
    summary: 'List the style guide spaces of an organization with the sites that use each',
    output: 'list',
    columns: 'styleguide',
    noun: 'style guide',
    examples: ['docsctl styleguide list', 'docsctl styleguide list --json'],
  },
});

export const createSiteStyleguideById = defineRoute({
  id: 'createSiteStyleguideById',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/styleguide',
  summary: 'Create or retrieve the style guide space for a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({ template: StyleguideTemplateId.optional().describe('a built-in template to seed it with (docsctl styleguide templates)') }),
  success: 200,
  cli: {
    command: 'site styleguide create',
    summary: "Give a site its style guide: a new space of type styleguide, seeded from a template (the site's existing one if it has one)",
    columns: 'space',
    examples: ['docsctl site styleguide create s1t3 --template technical-writing', 'docsctl site styleguide create s1t3'],
  },
});

export const listSiteStyleguideRuns = defineRoute({
  id: 'listSiteStyleguideRuns',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/styleguide/runs',
  summary: "List the style guide check runs of a site (always empty: runs are GitBook Agent's, which docsctl does not run)",
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: listQuery(),
  paginated: true,
  cli: {
    command: 'site styleguide runs',
    summary: "List the style guide check runs of a site (none in docsctl: starting one needs GitBook's AI agent)",
    columns: 'styleguideRun',
    noun: 'style guide run',
    examples: ['docsctl site styleguide runs s1t3'],
  },
});
