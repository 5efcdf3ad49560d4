/** API doc §4.13 Integrations. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import {
  IntegrationCategory,
  IntegrationScope,
  IntegrationTarget,
  IntegrationVisibility,
  Url,
  noQuery,
  paginationQuery,
  qBool,
} from '../schemas/common.js';

// ─── Helper schemas ────────────────────────────────────────────────────────

/** Integration name / block domain: ≤ 100 letters, digits, `-`, `_`, `.`. */
const IntegrationName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-zA-Z0-9-_.]+$/, 'must contain only letters, digits, "-", "_" and "."');

const integrationParams = () => z.object({ integrationName: IntegrationName });

/** One property of a configuration schema (string, number, boolean or button). */
const ConfigurationProperty = z.intersection(
  z.object({ title: z.string().max(30).optional(), description: z.string().max(100).optional() }),
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('string'),
      default: z.string().optional(),
      completion_url: z.string().optional(),
      enum: z.array(z.string()).optional(),
    }),
    z.object({ type: z.literal('number'), default: z.number().optional() }),
    z.object({ type: z.literal('boolean'), default: z.boolean().optional() }),
    z.object({ type: z.literal('button'), callback_url: z.string(), button_text: z.string() }),
  ]),
);

/** Configuration of an installation level: a property schema, or a ContentKit component. */
const IntegrationConfiguration = z.union([
  z.object({ properties: z.record(z.string(), ConfigurationProperty), required: z.array(z.string()).optional() }),
  z.object({ componentId: z.string().min(1) }),
]);

const IntegrationBlock = z.object({
  id: z.string().min(1),
  title: z.string().min(2).max(40),
  description: z.string().max(150).optional(),
  icon: z.string().optional(),
  urlUnfurl: z.array(z.string()).optional(),
  markdown: z.object({ codeblock: z.string(), body: z.string() }).optional(),
});

const IntegrationContentSource = z.object({
  id: z.string().min(1),
  title: z.string().min(2).max(40),
  description: z.string().max(150).optional(),
  icon: z.string().optional(),
  configuration: z.object({ componentId: z.string().min(1) }),
});

/** Base64 content (icon, preview images); the URL-safe alphabet is accepted too. */
const Base64 = z.string().regex(/^[A-Za-z0-9+/=_\-\s]*$/, 'must be base64');

// ─── Routes ────────────────────────────────────────────────────────────────

export const listIntegrations = defineRoute({
  id: 'listIntegrations',
  method: 'GET',
  path: '/v1/integrations',
  summary: 'List the published integrations',
  source: 'doc 4.13',
  access: 'none',
  params: z.object({}),
  query: z.object({
    ...paginationQuery,
    search: z.string().optional(),
    category: IntegrationCategory.optional(),
    blockDomain: IntegrationName.optional(),
    blocks: qBool().optional(),
    contentSources: qBool().optional(),
    owner: z.string().optional(),
    /** Real API filters. */
    scope: IntegrationScope.optional(),
    target: IntegrationTarget.optional(),
  }),
  paginated: true,
});

export const getIntegrationByName = defineRoute({
  id: 'getIntegrationByName',
  method: 'GET',
  path: '/v1/integrations/{integrationName}',
  summary: 'Get an integration by name',
  source: 'doc 4.13',
  access: 'none',
  params: integrationParams(),
  query: noQuery(),
});

export const publishIntegration = defineRoute({
  id: 'publishIntegration',
  method: 'POST',
  path: '/v1/integrations/{integrationName}',
  summary: 'Publish (create or update) an integration',
  source: 'doc 4.13',
  access: 'none',
  params: integrationParams(),
  query: noQuery(),
  body: z.object({
    /** Real API: script runtime, default `v1`. */
    runtime: z.enum(['v1', 'v2']).optional(),
    icon: Base64.optional(),
    title: z.string().min(2).max(30),
    description: z.string().max(100),
    summary: z.string().max(2048).optional(),
    previewImages: z.array(Base64).max(3).optional(),
    visibility: IntegrationVisibility.optional(),
    target: IntegrationTarget.optional(),
    scopes: z.array(IntegrationScope),
    categories: z.array(IntegrationCategory).optional(),
    blocks: z.array(IntegrationBlock).optional(),
    contentSources: z.array(IntegrationContentSource).optional(),
    externalLinks: z.array(z.object({ url: Url, label: z.string() })).max(5).optional(),
    configurations: z
      .object({
        account: IntegrationConfiguration.optional(),
        space: IntegrationConfiguration.optional(),
        site: IntegrationConfiguration.optional(),
      })
      .optional(),
    script: z.string(),
    organization: z.string().min(1),
    secrets: z
      .record(z.string(), z.string())
      .refine((value) => Object.keys(value).length <= 20, 'at most 20 secrets')
      .optional(),
    contentSecurityPolicy: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  }),
  bodyRequired: true,
});

export const unpublishIntegration = defineRoute({
  id: 'unpublishIntegration',
  method: 'DELETE',
  path: '/v1/integrations/{integrationName}',
  summary: 'Unpublish an integration',
  source: 'doc 4.13',
  access: 'none',
  params: integrationParams(),
  query: noQuery(),
});

export const listIntegrationInstallations = defineRoute({
  id: 'listIntegrationInstallations',
  method: 'GET',
  path: '/v1/integrations/{integrationName}/installations',
  summary: 'List the installations of an integration',
  source: 'doc 4.13',
  access: 'none',
  params: integrationParams(),
  query: z.object({ ...paginationQuery, externalId: z.string().optional() }),
  paginated: true,
});
