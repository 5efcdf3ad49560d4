/**
 * Context sources of a site (real API, 0.202): connections to where GitBook learns what readers
 * ask (support tickets, discussions, a website, records pushed through the API) and the records
 * they bring. docsctl never contacts an outside service: records come in through
 * `upsertSiteContextRecords` (the site's `builtin:api` connection); see src/domain/sites/context.ts.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { listQuery, noQuery, pathParams } from '../schemas/common.js';

const site = ['organizationId', 'siteId'] as const;
const connection = [...site, 'siteContextConnectionId'] as const;

const Secret = z.string().min(1).max(1024);
const Repository = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'use owner/repository, e.g. my-org/docs').max(256);
const HttpUrl = z.string().url().max(2048);
/** 0.202 `ContextConnectorSetup`: the settings each connector takes (null: none; secrets are redacted when read back). */
const SETUP_SETTINGS: Readonly<Record<string, z.ZodType | null>> = {
  'builtin:email': null,
  'builtin:api': null,
  'builtin:website': z.object({ url: HttpUrl }).strict(),
  'builtin:youtube': z
    .object({ channelId: z.string().regex(/^(UC[A-Za-z0-9_-]{22}|@[A-Za-z0-9._-]{3,100})$/, 'use a channel id (UC + 22 characters) or a handle (@name)') })
    .strict(),
  'builtin:github-discussions': z.object({ repository: Repository, token: Secret }).strict(),
  'builtin:github-issues': z.object({ repository: Repository, token: Secret }).strict(),
  'builtin:intercom': z.object({ token: Secret }).strict(),
  'builtin:front': z.object({ token: Secret }).strict(),
  'builtin:zendesk': z.object({ subdomain: z.string().min(1).max(256), email: z.string().min(1).max(254), apiToken: Secret }).strict(),
  'builtin:zoho-desk': z
    .object({ dataCenter: z.string().min(1).max(16), orgId: z.string().min(1).max(256), clientId: z.string().min(1).max(1024), clientSecret: Secret, refreshToken: Secret })
    .strict(),
  'builtin:freshdesk': z.object({ domain: z.string().min(1).max(256), apiKey: Secret }).strict(),
  'builtin:pylon': z.object({ token: Secret }).strict(),
  'builtin:hubspot': z.object({ token: Secret }).strict(),
  'builtin:linear': z.object({ token: Secret }).strict(),
  'builtin:jira': z
    .object({
      baseUrl: HttpUrl,
      apiEmail: z.string().email().max(254),
      apiToken: Secret,
      statusMapping: z.partialRecord(z.enum(['draft', 'open', 'archived', 'merged']), z.string().min(1).max(255)).optional(),
    })
    .strict(),
};

const Connector = z
  .string()
  .max(128)
  .refine((name) => Object.hasOwn(SETUP_SETTINGS, name) || /^integration:[^:]+$/.test(name), {
    message: `use ${Object.keys(SETUP_SETTINGS).join(', ')} or integration:NAME`,
  });

/** A setup's settings checked against its connector's (each issue named by its field). */
function checkSetup(value: { connector?: string | undefined; setupSettings?: unknown }, ctx: z.RefinementCtx): void {
  if (value.connector === undefined) {
    if (value.setupSettings !== undefined) ctx.addIssue({ code: 'custom', path: ['connector'], message: 'setupSettings go with their connector: give both' });
    return;
  }
  const schema = SETUP_SETTINGS[value.connector] ?? null;
  if (schema === null) {
    if (value.setupSettings !== undefined) ctx.addIssue({ code: 'custom', path: ['setupSettings'], message: `a ${value.connector} connection takes no settings` });
    return;
  }
  if (value.setupSettings === undefined) {
    ctx.addIssue({ code: 'custom', path: ['setupSettings'], message: `required for a ${value.connector} connection` });
    return;
  }
  const checked = schema.safeParse(value.setupSettings);
  if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: ['setupSettings', ...issue.path], message: issue.message });
}

export const ContextUsageSettings = z.object({
  changeRequests: z.boolean().describe('whether the records may propose change requests'),
  search: z.boolean().describe('whether the records show in search results'),
  sync: z.boolean().optional().describe('whether change-request states are written back to the source'),
  searchBoost: z.enum(['x0.8', 'x1.0', 'x1.2']).describe('score adjustment of the records in search'),
});
const Label = z.string().max(128);
const Filter = z.string().max(1024);


const connectionCli = {
  columns: 'siteContextConnection',
  argHelp: { siteContextConnectionId: 'connection id' },
} as const;

export const listSiteContextConnections = defineRoute({
  id: 'listSiteContextConnections',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/context-connections',
  summary: 'List the context connections of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: listQuery(),
  paginated: true,
  cli: { command: 'site context list', aliases: ['ls'], columns: 'siteContextConnection', noun: 'connection', examples: ['docsctl site context list s1t3'] },
});

export const createSiteContextConnection = defineRoute({
  id: 'createSiteContextConnection',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/context-connections',
  summary: 'Create a context connection',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z
    .object({ connector: Connector, setupSettings: z.record(z.string(), z.unknown()).optional(), usageSettings: ContextUsageSettings.optional(), filter: Filter.optional() })
    .strict()
    .superRefine(checkSetup),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'site context add',
    summary: 'Connect a context source to a site (api: records pushed with `site context-record push`; docsctl never contacts an outside service)',
    onlyNamedFlags: true,
    columns: 'siteContextConnection',
    examples: [
      'docsctl site context add s1t3 --connector api',
      'docsctl site context add s1t3 --connector website --setting url=https://example.com/help',
      'ZENDESK_TOKEN=… docsctl site context add s1t3 --connector zendesk --setting subdomain=acme --setting email=ops@acme.test --setting-env apiToken=ZENDESK_TOKEN',
    ],
  },
});

export const getSiteContextConnectionById = defineRoute({
  id: 'getSiteContextConnectionById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/context-connections/{siteContextConnectionId}',
  summary: 'Get a context connection of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...connection),
  query: noQuery(),
  cli: { command: 'site context get', ...connectionCli, examples: ['docsctl site context get s1t3 c0nn'] },
});

export const updateSiteContextConnectionById = defineRoute({
  id: 'updateSiteContextConnectionById',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/context-connections/{siteContextConnectionId}',
  summary: 'Update a context connection of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...connection),
  query: noQuery(),
  // 0.202: a setup (connector and its settings, with the extras) or the extras alone.
  body: z
    .object({
      connector: Connector.optional(),
      setupSettings: z.record(z.string(), z.unknown()).optional(),
      usageSettings: ContextUsageSettings.optional(),
      label: Label.optional(),
      filter: Filter.optional(),
    })
    .strict()
    .superRefine(checkSetup),
  bodyRequired: true,
  cli: {
    command: 'site context edit',
    onlyNamedFlags: true,
    ...connectionCli,
    examples: ['docsctl site context edit s1t3 c0nn --label "Support tickets" --search false', 'docsctl site context edit s1t3 c0nn --setting-env token=NEW_TOKEN'],
  },
});

export const deleteSiteContextConnectionById = defineRoute({
  id: 'deleteSiteContextConnectionById',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/context-connections/{siteContextConnectionId}',
  summary: 'Delete a context connection of a site and its records',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...connection),
  query: noQuery(),
  cli: {
    command: 'site context delete',
    aliases: ['rm'],
    confirm: 'Delete context connection {siteContextConnectionId} and its records?',
    noun: 'connection',
    ...connectionCli,
    examples: ['docsctl site context delete s1t3 c0nn --yes'],
  },
});

export const syncSiteContextConnection = defineRoute({
  id: 'syncSiteContextConnection',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/context-connections/{siteContextConnectionId}/sync',
  summary: 'Trigger a sync of a context connection',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...connection),
  query: noQuery(),
  success: 204,
  cli: {
    command: 'site context sync',
    summary: 'Sync a context connection from its source (docsctl reaches no outside service: the connection shows why it failed; at most once an hour)',
    ...connectionCli,
    examples: ['docsctl site context sync s1t3 c0nn'],
  },
});

export const testSiteContextConnection = defineRoute({
  id: 'testSiteContextConnection',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/context-connections/{siteContextConnectionId}/test',
  summary: "Test a context connection's stored credentials",
  source: 'real-api',
  access: 'admin',
  params: pathParams(...connection),
  query: noQuery(),
  cli: {
    command: 'site context test',
    summary: "Test a context connection's stored credentials (success without any: api, email; docsctl reaches no outside service)",
    ...connectionCli,
    columns: 'siteContextTest',
    examples: ['docsctl site context test s1t3 c0nn'],
  },
});

// ─── Records ──────────────────────────────────────────────────────────────

export const ContextRecordType = z.enum(['ticket', 'document']);

/** 0.202 `ContextRecordInput`; a body of at most 200,000 characters here. */
const ContextRecordInput = z.object({
  id: z.string().min(1).max(256).describe("the record's id in its source (a second push of that id replaces it)"),
  type: ContextRecordType,
  title: z.string().min(1).max(256),
  description: z.string().max(512).optional(),
  body: z.string().max(200_000),
  url: HttpUrl.optional(),
  createdAt: z.string().datetime({ offset: true }).optional(),
  metadata: z.record(z.string().max(256), z.union([z.string().max(1024), z.number()])).optional(),
});

export const listSiteContextRecords = defineRoute({
  id: 'listSiteContextRecords',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/context-records',
  summary: 'List the context records of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: listQuery().extend({
    type: ContextRecordType.optional(),
    connector: z.string().max(128).optional().describe('only records of this connector (builtin:api, integration:NAME…)'),
    connection: z.string().max(64).optional().describe('only records of this connection'),
    topic: z.string().max(64).optional().describe('only records of this topic'),
  }),
  paginated: true,
  cli: {
    command: 'site context-record list',
    aliases: ['ls'],
    columns: 'siteContextRecord',
    noun: 'record',
    examples: ['docsctl site context-record list s1t3', 'docsctl site context-record list s1t3 --type ticket --connection c0nn'],
  },
});

export const upsertSiteContextRecords = defineRoute({
  id: 'upsertSiteContextRecords',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/context-records',
  summary: 'Create or update context records of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site),
  query: noQuery(),
  body: z.array(ContextRecordInput).max(1000),
  bodyRequired: true,
  success: 204,
  cli: {
    command: 'site context-record push',
    summary: "Create or replace context records of a site (a JSON array of records from a file or stdin; into the site's api connection, made on first use)",
    onlyNamedFlags: true,
    columns: 'siteContextRecord',
    examples: ['docsctl site context-record push s1t3 --file tickets.json', 'export-tickets | docsctl site context-record push s1t3 --file -'],
  },
});

export const getSiteContextRecordById = defineRoute({
  id: 'getSiteContextRecordById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/context-records/{siteContextRecordId}',
  summary: 'Get a context record of a site',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...site, 'siteContextRecordId'),
  query: noQuery(),
  cli: {
    command: 'site context-record get',
    argHelp: { siteContextRecordId: 'record id' },
    columns: 'siteContextRecord',
    examples: ['docsctl site context-record get s1t3 r3c0rd'],
  },
});
