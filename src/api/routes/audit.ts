/**
 * The audit log of an organization (0.202): what every write made through an operation
 * recorded (domain/audit-records.ts), newest first, for the organization's admins.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { noQuery, paginationQuery, pathParams } from '../schemas/common.js';

const time = (what: string) =>
  z.string().datetime({ offset: true }).optional().describe(`${what} (ISO 8601 date-time, e.g. 2026-11-28T00:00:00Z)`);
const exact = (what: string) => z.string().min(1).max(256).optional().describe(what);

export const listOrganizationAuditEvents = defineRoute({
  id: 'listOrganizationAuditEvents',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/audit-events',
  summary: 'List the audit events of an organization, newest first',
  source: 'real-api',
  access: 'admin',
  params: pathParams('organizationId'),
  query: z.object({
    // 0.202 documents 1 to 100 and 20 by default; docsctl takes every list's 0 to 1000 (`--all` asks for 1000 a page).
    ...paginationQuery,
    from: time('only events at or after this time'),
    to: time('only events at or before this time'),
    action: exact('only this action (an operation id, e.g. createSpace: docsctl audit actions)'),
    actor: exact('only this actor (a user id, or an installation id)'),
    target: exact('only events about this object (its id: the object changed, or one its path names)'),
  }),
  paginated: true,
  cli: {
    command: 'audit list',
    summary: 'List what was changed in an organization, by whom and when, newest first (admin)',
    aliases: ['ls'],
    columns: 'auditEvent',
    noun: 'audit event',
    flags: {
      from: { flag: '--since <time>', description: 'only events at or after this time: ISO 8601 (2026-11-28T00:00:00Z) or an age (90s, 15m, 24h, 7d)' },
      to: { flag: '--until <time>', description: 'only events at or before this time: ISO 8601 or an age (15m, 24h, 7d)' },
    },
    examples: [
      'docsctl audit list --since 24h',
      'docsctl audit list --action createSpace --actor us3r --limit 100',
      'docsctl audit list --target sp4c3 --since 2026-11-01T00:00:00Z --until 2026-11-02T00:00:00Z --json',
    ],
  },
});

export const getOrganizationAuditEvent = defineRoute({
  id: 'getOrganizationAuditEvent',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/audit-events/{auditEventId}',
  summary: 'Get an audit event of an organization',
  source: 'real-api',
  access: 'admin',
  params: pathParams('organizationId', 'auditEventId'),
  query: noQuery(),
  cli: {
    command: 'audit get',
    summary: 'Show one audit event with its details (operation, objects, body fields, token) (admin)',
    columns: 'auditEventDetails',
    examples: ['docsctl audit get 019ac8f2-3b00-7000-8000-0000001a2b3c', 'docsctl audit get 019ac8f2-3b00-7000-8000-0000001a2b3c --json payload'],
  },
});

export const listOrganizationAuditEventActions = defineRoute({
  id: 'listOrganizationAuditEventActions',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/audit-event-actions',
  summary: 'List the actions audit events record',
  source: 'real-api',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  cli: {
    command: 'audit actions',
    summary: 'List the actions an audit event may record (the operations that change something) (admin)',
    columns: 'auditEventAction',
    output: 'list',
    noun: 'action',
    examples: ['docsctl audit actions', 'docsctl audit actions --format ids'],
  },
});
