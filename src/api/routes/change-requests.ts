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
    /** 0.202: only change requests this user is asked to review. */
    requestedReviewer: z.string().min(1).optional(),
    /** 0.202: by last update (a sort of the status's change requests) or by creation; absent: by number, newest first (creation). */
    orderBy: z.enum(['updatedAt', 'createdAt']).optional(),
  }),
  paginated: true,
  cli: {
    command: 'cr list',
    summary: 'List the change requests of a space (open ones unless --status)',
    aliases: ['ls'],
    flags: {
      status: 'draft, open, archived or merged',
      creator: { flag: '--creator <userId>', description: 'only those created by this user' },
      contributor: { flag: '--contributor <userId>', description: 'only those this user contributed to' },
      requestedReviewer: { flag: '--requested-reviewer <userId>', description: 'only those this user is asked to review' },
      orderBy: { flag: '--order-by <field>', description: 'newest first by updatedAt or createdAt (default: by number, i.e. creation)' },
    },
    columns: 'changeRequest',
    noun: 'change request',
    examples: ['docsctl cr list sp4c3', 'docsctl cr list sp4c3 --status merged --all --json'],
  },
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
  cli: {
    command: 'cr create',
    summary: 'Open a change request on a space',
    flags: { subject: 'subject (max 100 characters)', agentTaskId: false },
    columns: 'changeRequest',
    examples: [
      'docsctl cr create sp4c3 --subject "Update install guide"',
      'cr=$(docsctl cr create sp4c3 --subject Fix --format ids)',
    ],
  },
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
  cli: {
    command: 'cr get',
    summary: 'Show a change request (by id or number)',
    columns: 'changeRequest',
    examples: ['docsctl cr get sp4c3 12', 'docsctl cr get sp4c3 12 --json | jq .outdated'],
  },
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
      /** 0.202: the external links, as a whole (one with an `id` keeps that link; one without is new; one left out goes). */
      links: z
        .array(
          z.object({
            id: z.string().min(1).optional(),
            ref: z.object({ kind: z.literal('url'), url: z.string().max(2048).regex(/^https?:\/\/[^\s]+$/i, 'an http:// or https:// URL') }),
            title: z.string().max(128).optional(),
          }),
        )
        .max(10),
    })
    .partial(),
  bodyRequired: true,
  preferMinimal: true,
  cli: {
    command: 'cr edit',
    summary: 'Change the subject, status (draft, open, archived) or external links of a change request',
    flags: { subject: 'new subject', status: 'draft, open or archived', description: false, links: false },
    nonEmptyBody: 'Nothing to change: pass --subject, --status or --link',
    columns: 'changeRequest',
    examples: ['docsctl cr edit sp4c3 12 --status archived', 'docsctl cr edit sp4c3 12 --link https://linear.app/acme/issue/DOC-7 --link "Spec=https://acme.dev/spec"'],
  },
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
  cli: {
    command: 'cr merge',
    summary: 'Merge a change request into the space (exit 5 and the conflicting pages on conflicts)',
    columns: 'mergeResult',
    examples: ['docsctl cr merge sp4c3 12', 'docsctl cr merge sp4c3 12 || docsctl cr conflicts sp4c3 12'],
  },
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
  cli: {
    command: 'cr update',
    summary: 'Bring the space\'s current content into a change request',
    columns: 'mergeResult',
    examples: ['docsctl cr update sp4c3 12'],
  },
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
  cli: {
    command: 'cr pdf',
    summary: 'Render a change request (or one page) as PDF and print its URL',
    flags: { page: 'only this page (id or path)', only: false },
    columns: 'url',
    examples: ['docsctl cr pdf sp4c3 12', 'docsctl cr pdf sp4c3 12 --page guides/setup --format ids'],
  },
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
    /** 0.202: only change requests this user is asked to review. */
    requestedReviewer: z.string().min(1).optional(),
    /** 0.202: only the change requests of this space. */
    space: z.string().min(1).optional(),
    /** 0.202: only those linked to this site (of the spaces it publishes). */
    site: z.string().min(1).optional(),
    /** 0.202: newest first by last update (the default) or by creation. */
    orderBy: z.enum(['updatedAt', 'createdAt']).optional(),
  }),
  paginated: true,
});
