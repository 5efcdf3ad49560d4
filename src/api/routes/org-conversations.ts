/**
 * Conversations with the organization's Docs agent (real API 0.202): a client provisions one
 * under its own id (PUT) before it connects, then lists, renames and deletes them. docsctl runs
 * no agent: a conversation is the stored record these operations manage (src/domain/org-conversations.ts).
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { noQuery, paginationQuery, pathParams } from '../schemas/common.js';

const conversation = ['organizationId', 'conversationId'] as const;
const base = '/v1/orgs/{organizationId}/agent/conversations';

export const listOrganizationAgentConversations = defineRoute({
  id: 'listOrganizationAgentConversations',
  method: 'GET',
  path: base,
  summary: "List the conversations with the organization's agent",
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId'),
  query: z.object(paginationQuery),
  paginated: true,
  cli: {
    command: 'org conversation list',
    aliases: ['ls'],
    summary: "List the conversations with the organization's Docs agent",
    columns: 'conversation',
    noun: 'conversation',
    examples: ['docsctl org conversation list', 'docsctl org conversation list --json id,title'],
  },
});

export const provisionOrganizationAgentConversation = defineRoute({
  id: 'provisionOrganizationAgentConversation',
  method: 'PUT',
  path: `${base}/{conversationId}`,
  summary: "Provision a conversation with the organization's agent",
  source: 'real-api',
  access: 'read',
  params: pathParams(...conversation),
  query: noQuery(),
  success: 204,
  cli: {
    command: 'org conversation open',
    summary: "Provision a conversation with the organization's Docs agent under your client's id (again: nothing changes)",
    columns: 'conversation',
    examples: ['docsctl org conversation open 0f5c2a9e-help-desk'],
  },
});

export const updateOrganizationAgentConversation = defineRoute({
  id: 'updateOrganizationAgentConversation',
  method: 'PATCH',
  path: `${base}/{conversationId}`,
  summary: "Rename a conversation with the organization's agent",
  source: 'real-api',
  access: 'read',
  params: pathParams(...conversation),
  query: noQuery(),
  body: z.object({ title: z.string().trim().min(1).max(200) }),
  bodyRequired: true,
  cli: {
    command: 'org conversation rename',
    summary: "Rename a conversation with the organization's Docs agent (its creator, or an admin)",
    flags: { title: { flag: '--title <title>', description: 'the new title', required: true } },
    columns: 'conversation',
    examples: ['docsctl org conversation rename c0nv --title "SSO setup"'],
  },
});

export const deleteOrganizationAgentConversation = defineRoute({
  id: 'deleteOrganizationAgentConversation',
  method: 'DELETE',
  path: `${base}/{conversationId}`,
  summary: "Delete a conversation with the organization's agent",
  source: 'real-api',
  access: 'read',
  params: pathParams(...conversation),
  query: noQuery(),
  success: 205,
  cli: {
    command: 'org conversation delete',
    summary: "Delete a conversation with the organization's Docs agent (its creator, or an admin; a missing one is not found)",
    confirm: 'Delete conversation {conversationId}?',
    columns: 'conversation',
    noun: 'conversation',
    examples: ['docsctl org conversation delete c0nv --yes'],
  },
});
