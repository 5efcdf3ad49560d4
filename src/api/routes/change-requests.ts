/** API doc §4.8 Change requests, and the real API's listing across an organization. (Their content is in content.ts, their comments in comments.ts.) */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { ChangeRequestStatus, JSONDocument, noQuery, paginationQuery, pathParams, qBool } from '../schemas/common.js';

/** Subject of a change request: at most 100 characters. */
const ChangeRequestSubject = z.string().max(100);

const cr = ['spaceId', 'changeRequestId'] as const;

export const listChangeRequestsForSpace = defineRoute({
  id: 'listChangeRequestsForSpace',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/change-requests',
  summary: 'List the change requests of a space (open ones unless --status is given)',
  source: 'doc 4.8',
  access: 'read',
  params: pathParams('spaceId'),
  query: z.object({
    ...paginationQuery,
    /** Default `open` (applied by the handler). */
    status: ChangeRequestStatus.optional(),
    /** Real API: only change requests created by this user. */
    creator: z.string().optional(),
    contributor: z.string().optional(),
  }),
  paginated: true,
});

export const createChangeRequest = defineRoute({
  id: 'createChangeRequest',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/change-requests',
  summary: 'Create a change request',
  source: 'doc 4.8',
  access: 'edit',
  params: pathParams('spaceId'),
  query: noQuery(),
  body: z.object({
    subject: ChangeRequestSubject.optional(),
    /** Real API: id of the agent task the change request belongs to. */
    agentTaskId: z.string().optional(),
  }),
  bodyRequired: true,
  success: 201,
});

export const getChangeRequestById = defineRoute({
  id: 'getChangeRequestById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}',
  summary: 'Get a change request (by id or number)',
  source: 'doc 4.8',
  access: 'read',
  params: pathParams(...cr),
  query: noQuery(),
});

export const updateChangeRequestById = defineRoute({
  id: 'updateChangeRequestById',
  method: 'PATCH',
  path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}',
  summary: 'Update the subject, description or status of a change request',
  source: 'doc 4.8',
  access: 'edit',
  params: pathParams(...cr),
  query: noQuery(),
  body: z
    .object({
      subject: ChangeRequestSubject,
      /** Real API: description as a JSON document. */
      description: JSONDocument,
      /** `merged` is reached only through merge. */
      status: z.enum(['draft', 'open', 'archived']),
    })
    .partial(),
  bodyRequired: true,
  preferMinimal: true,
});

export const mergeChangeRequest = defineRoute({
  id: 'mergeChangeRequest',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge',
  summary: 'Merge a change request into the main content',
  source: 'doc 4.8',
  access: 'edit',
  params: pathParams(...cr),
  query: noQuery(),
});

export const updateChangeRequest = defineRoute({
  id: 'updateChangeRequest',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update',
  summary: 'Pull the main content into a change request',
  source: 'doc 4.8',
  access: 'edit',
  params: pathParams(...cr),
  query: noQuery(),
});

export const getChangeRequestPDF = defineRoute({
  id: 'getChangeRequestPDF',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf',
  summary: 'Get a temporary URL to print a change request as PDF',
  source: 'doc 4.8',
  access: 'read',
  params: pathParams(...cr),
  query: z.object({ only: qBool().optional(), page: z.string().optional() }),
});

export const listChangeRequestsForOrganization = defineRoute({
  id: 'listChangeRequestsForOrganization',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/change-requests',
  summary: 'List the change requests across the spaces of an organization',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId'),
  query: z.object({
    ...paginationQuery,
    status: ChangeRequestStatus.optional(),
    creator: z.string().optional(),
    contributor: z.string().optional(),
  }),
  paginated: true,
});
