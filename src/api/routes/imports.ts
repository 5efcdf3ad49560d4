/**
 * Content brought into a space (`@gitbook/api` 0.202): import runs (tag `imports`: a
 * content import's record, with its status and counts) and `applyTemplateToSpace`.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { id, noQuery, paginationQuery, pathParams } from '../schemas/common.js';

const ImportSource = z.discriminatedUnion('type', [
  z.object({ type: z.literal('website'), url: z.string().min(1).max(2048).describe('URL of a Markdown file, a directory (file://) or a .zip archive') }),
  z.object({ type: z.literal('file'), files: z.array(z.string().min(1).max(2048)).min(1).max(50).describe("storage keys: docsctl has no file storage, so each is the file's URL") }),
]);

const ImportTarget = z.object({
  space: id().describe('space to import into'),
  changeRequest: id().optional().describe('change request to import into'),
  page: id().optional().describe('page to import under'),
});

export const listImportRuns = defineRoute({
  id: 'listImportRuns',
  method: 'GET',
  path: '/v1/org/{organizationId}/imports',
  summary: 'List the import runs of an organization, newest first',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId'),
  query: z.object({
    ...paginationQuery,
    space: z.string().optional().describe('only the runs into this space'),
    changeRequest: z.string().optional().describe('only the runs into this change request'),
    site: z.string().optional().describe("only the runs into a space of this site"),
    status: z.enum(['active', 'pending', 'in-progress', 'completed', 'failed', 'cancelled']).optional().describe('only the runs in this status (active: pending or in progress)'),
  }),
  paginated: true,
});

export const startImportRun = defineRoute({
  id: 'startImportRun',
  method: 'POST',
  path: '/v1/org/{organizationId}/imports',
  summary: 'Import content into a space or change request, recorded as an import run',
  source: 'real-api',
  access: 'edit',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({
    source: ImportSource,
    target: ImportTarget,
    site: z.string().optional().describe('site the import is for'),
    enhance: z.boolean().optional().describe('enhance the content with AI (docsctl imports the content as it is)'),
  }),
  bodyRequired: true,
  success: 201,
});

export const getImportRun = defineRoute({
  id: 'getImportRun',
  method: 'GET',
  path: '/v1/org/{organizationId}/imports/{importRunId}',
  summary: 'Get an import run',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId', 'importRunId'),
  query: noQuery(),
});

export const cancelImportRun = defineRoute({
  id: 'cancelImportRun',
  method: 'POST',
  path: '/v1/org/{organizationId}/imports/{importRunId}/cancel',
  summary: 'Cancel an import run that has not finished',
  source: 'real-api',
  access: 'edit',
  params: pathParams('organizationId', 'importRunId'),
  query: noQuery(),
  success: 200,
});

/** A content reference (ContentRef): its kind and the fields of that kind; the handler checks what a template takes. */
const ContentRef = z.object({ kind: z.string().min(1) }).catchall(z.unknown());

export const applyTemplateToSpace = defineRoute({
  id: 'applyTemplateToSpace',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/content/template',
  summary: "Apply a template to a space: its pages added to the space's content or to a change request",
  source: 'real-api',
  access: 'edit',
  params: pathParams('spaceId'),
  query: noQuery(),
  body: z.object({
    id: z.string().min(1).describe('template: product-docs, api-reference or knowledge-base'),
    params: z.object({ contentRefs: z.record(z.string(), ContentRef).optional() }).optional(),
    changeRequestId: z.string().min(1).optional().describe('change request to apply it to (else the main content)'),
  }),
  bodyRequired: true,
  success: 201,
});
