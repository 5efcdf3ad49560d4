/**
 * Agent conversations of a change request (real API 0.202: list, rename, delete). GitBook's AI
 * creates them in its app; docsctl runs no agent, so a conversation is a stored record that
 * `openChangeRequestConversation` (a docsctl extension under `/v1/x-docsctl/`, shaped like the
 * real API's provisioning of organization agent conversations: PUT with the client's id)
 * creates, and that the real API's operations list, rename and delete. Implemented in
 * src/domain/content/conversations.ts.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { noQuery, paginationQuery, pathParams } from '../schemas/common.js';

const conversation = ['spaceId', 'changeRequestId', 'conversationId'] as const;
const crBase = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}';
const title = z.string().trim().min(1).max(200);

export const listChangeRequestConversations = defineRoute({
  id: 'listChangeRequestConversations',
  method: 'GET',
  path: `${crBase}/conversations`,
  summary: 'List the agent conversations of a change request',
  source: 'real-api',
  access: 'read',
  params: pathParams('spaceId', 'changeRequestId'),
  query: z.object(paginationQuery),
  paginated: true,
  cli: {
    command: 'cr conversations',
    summary: 'List the agent conversations of a change request (shared ones, and your private ones)',
    columns: 'conversation',
    noun: 'conversation',
    examples: ['docsctl cr conversations sp4c3 12', 'docsctl cr conversations sp4c3 12 --json id,title'],
  },
});

export const openChangeRequestConversation = defineRoute({
  id: 'openChangeRequestConversation',
  method: 'PUT',
  path: `/v1/x-docsctl/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}`,
  summary: 'Record an agent conversation of a change request under the client id given (docsctl extension)',
  source: 'docsctl',
  access: 'edit',
  params: pathParams(...conversation),
  query: noQuery(),
  body: z.object({
    title: title.optional().describe('its title (absent until the first message, as in GitBook)'),
    shared: z.boolean().optional().describe('false: visible to you only, for good (default true)'),
  }),
  success: 201,
  cli: {
    command: 'cr conversation open',
    summary: 'Record an agent conversation on a change request (an AI client does this before it connects); again: nothing changes',
    flags: { shared: { description: 'shared with everyone who may read the change request (the default)', negate: 'visible to you only, for good' } },
    columns: 'conversation',
    examples: ['docsctl cr conversation open sp4c3 12 default', 'docsctl cr conversation open sp4c3 12 c0nv --title "Fix the typos" --no-shared'],
  },
});

export const updateChangeRequestConversation = defineRoute({
  id: 'updateChangeRequestConversation',
  method: 'PATCH',
  path: `${crBase}/conversations/{conversationId}`,
  summary: 'Rename an agent conversation of a change request',
  source: 'real-api',
  access: 'edit',
  params: pathParams(...conversation),
  query: noQuery(),
  body: z.object({ title }),
  bodyRequired: true,
  cli: {
    command: 'cr conversation rename',
    summary: 'Rename an agent conversation of a change request',
    flags: { title: { flag: '--title <title>', description: 'the new title', required: true } },
    columns: 'conversation',
    examples: ['docsctl cr conversation rename sp4c3 12 default --title "Typos"'],
  },
});

export const deleteChangeRequestConversation = defineRoute({
  id: 'deleteChangeRequestConversation',
  method: 'DELETE',
  path: `${crBase}/conversations/{conversationId}`,
  summary: 'Delete an agent conversation of a change request',
  source: 'real-api',
  access: 'edit',
  params: pathParams(...conversation),
  query: noQuery(),
  success: 205,
  cli: {
    command: 'cr conversation delete',
    summary: 'Delete an agent conversation of a change request (its author, or an admin)',
    confirm: 'Delete conversation {conversationId} of change request {changeRequestId}?',
    columns: 'conversation',
    examples: ['docsctl cr conversation delete sp4c3 12 c0nv --yes'],
  },
});
