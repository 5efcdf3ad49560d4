/**
 * API doc §4.15 OpenAPI specifications of an organization, and the real API's
 * spec visibility and versions (`openapi-versions`: every processed document is a
 * version, readable back with its content).
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { Url, id, listQuery, noQuery, pathParams } from '../schemas/common.js';

/** Slug: 1 to 100 characters, lowercase words joined by single hyphens. */
const OpenAPISpecSlug = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters and digits joined by single hyphens');

/** Where the spec comes from: `{url}` or `{text}` (the text variant's field is `text`, gaps.md §1.2). */
const OpenAPISpecSource = z.union([z.object({ url: Url }), z.object({ text: z.string().min(1) })]);

/** `private` or `public` (the real API's OpenAPISpecVisibility). */
const OpenAPISpecVisibility = z.enum(['private', 'public']);

const spec = ['organizationId', 'specSlug'] as const;
const specVersion = ['organizationId', 'specSlug', 'versionId'] as const;

export const listOpenAPISpecs = defineRoute({
  id: 'listOpenAPISpecs',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/openapi',
  summary: 'List the OpenAPI specifications of an organization',
  source: 'doc 4.15',
  access: 'read',
  params: pathParams('organizationId'),
  query: listQuery(),
  paginated: true,
  cli: {
    command: 'openapi list',
    aliases: ['ls'],
    columns: 'openApiSpec',
    noun: 'OpenAPI specification',
    examples: ['docsctl openapi list'],
  },
});

export const createOpenAPISpec = defineRoute({
  id: 'createOpenAPISpec',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/openapi',
  summary: 'Create an OpenAPI specification',
  source: 'doc 4.15',
  access: 'create',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({ slug: OpenAPISpecSlug, source: OpenAPISpecSource }),
  bodyRequired: true,
  success: 201,
});

export const getOpenAPISpecBySlug = defineRoute({
  id: 'getOpenAPISpecBySlug',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
  summary: 'Get an OpenAPI specification by slug',
  source: 'doc 4.15',
  access: 'read',
  params: pathParams(...spec),
  query: noQuery(),
  cli: {
    command: 'openapi get',
    summary: 'Show an OpenAPI specification and the result of its last processing',
    argHelp: { specSlug: 'specification slug (lowercase words joined by -), or its id' },
    columns: 'openApiSpec',
    examples: ['docsctl openapi get petstore', 'docsctl openapi get petstore --json | jq .lastProcessedErrors'],
  },
});

export const createOrUpdateOpenAPISpecBySlug = defineRoute({
  id: 'createOrUpdateOpenAPISpecBySlug',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
  summary: 'Create or update an OpenAPI specification by slug',
  source: 'doc 4.15',
  access: 'create',
  // The slug may name a new spec here, so it is validated like a created one.
  params: z.object({ organizationId: id(), specSlug: OpenAPISpecSlug }),
  query: noQuery(),
  body: z.object({ source: OpenAPISpecSource }),
  bodyRequired: true,
  success: 'upsert',
  cli: {
    command: 'openapi publish',
    summary: 'Create or update an OpenAPI specification from a file or a URL (processed at once)',
    argHelp: { specSlug: 'specification slug (lowercase words joined by -), or its id' },
    flags: { source: false },
    columns: 'openApiSpec',
    examples: [
      'docsctl openapi publish petstore --file openapi.yaml',
      'docsctl openapi publish petstore --url https://example.com/openapi.json',
    ],
  },
});

export const deleteOpenAPISpecBySlug = defineRoute({
  id: 'deleteOpenAPISpecBySlug',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
  summary: 'Delete an OpenAPI specification',
  source: 'doc 4.15',
  access: 'create',
  params: pathParams(...spec),
  query: noQuery(),
  cli: {
    command: 'openapi delete',
    aliases: ['rm'],
    argHelp: { specSlug: 'specification slug (lowercase words joined by -), or its id' },
    confirm: 'Delete OpenAPI specification {specSlug}?',
    columns: 'openApiSpec',
    noun: 'OpenAPI specification',
    examples: ['docsctl openapi delete petstore --yes'],
  },
});

export const updateOpenAPISpecBySlug = defineRoute({
  id: 'updateOpenAPISpecBySlug',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
  summary: 'Update the visibility of an OpenAPI specification',
  source: 'real-api',
  access: 'create',
  params: pathParams(...spec),
  query: noQuery(),
  body: z.object({ visibility: OpenAPISpecVisibility }),
  bodyRequired: true,
  cli: {
    command: 'openapi update',
    summary: 'Make an OpenAPI specification public or private',
    argHelp: { specSlug: 'specification slug (lowercase words joined by -), or its id' },
    flags: { visibility: { description: 'who can read it', required: true } },
    columns: 'openApiSpec',
    examples: ['docsctl openapi update petstore --visibility public'],
  },
});

export const listOpenAPISpecVersions = defineRoute({
  id: 'listOpenAPISpecVersions',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions',
  summary: 'List the versions of an OpenAPI specification, newest first',
  source: 'real-api',
  access: 'read',
  params: pathParams(...spec),
  query: listQuery(),
  paginated: true,
  cli: {
    command: 'openapi versions',
    summary: 'List the versions of an OpenAPI specification (one per valid document published), newest first',
    argHelp: { specSlug: 'specification slug (lowercase words joined by -), or its id' },
    columns: 'openApiSpecVersion',
    noun: 'version',
    examples: ['docsctl openapi versions petstore', 'docsctl openapi versions petstore --format ids'],
  },
});

export const getLatestOpenAPISpecVersion = defineRoute({
  id: 'getLatestOpenAPISpecVersion',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest',
  summary: 'Get the latest version of an OpenAPI specification',
  source: 'real-api',
  access: 'read',
  params: pathParams(...spec),
  query: noQuery(),
});

export const getLatestOpenAPISpecVersionContent = defineRoute({
  id: 'getLatestOpenAPISpecVersionContent',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
  summary: 'Get the content of the latest version of an OpenAPI specification',
  source: 'real-api',
  access: 'read',
  params: pathParams(...spec),
  query: noQuery(),
});

export const getOpenAPISpecVersionById = defineRoute({
  id: 'getOpenAPISpecVersionById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}',
  summary: 'Get a version of an OpenAPI specification by its id',
  source: 'real-api',
  access: 'read',
  params: pathParams(...specVersion),
  query: noQuery(),
  cli: {
    command: 'openapi version',
    summary: 'Show a version of an OpenAPI specification (the latest by default) and its download URL',
    argHelp: { specSlug: 'specification slug (lowercase words joined by -), or its id' },
    flags: { 'params.versionId': { flag: '--id <versionId>', description: 'a version id (default: the latest version)' } },
    columns: 'openApiSpecVersion',
    examples: ['docsctl openapi version petstore', 'docsctl openapi version petstore --id 0lTy1zq8VyJ2uQq3bE5c'],
  },
});

export const getOpenAPISpecVersionContentById = defineRoute({
  id: 'getOpenAPISpecVersionContentById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content',
  summary: 'Get the content of a version of an OpenAPI specification by its id',
  source: 'real-api',
  access: 'read',
  params: pathParams(...specVersion),
  query: noQuery(),
  cli: {
    command: 'openapi content',
    summary: 'Read back the document of a version of an OpenAPI specification (the latest by default)',
    argHelp: { specSlug: 'specification slug (lowercase words joined by -), or its id' },
    flags: { 'params.versionId': { flag: '--id <versionId>', description: 'a version id (default: the latest version)' } },
    columns: 'openApiSpecContent',
    examples: [
      'docsctl openapi content petstore --json | jq .filesystem',
      'docsctl openapi content petstore --id 0lTy1zq8VyJ2uQq3bE5c',
    ],
  },
});

export const getLatestOpenAPISpecVersionContentRaw = defineRoute({
  id: 'getLatestOpenAPISpecVersionContentRaw',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content/raw',
  summary: 'Get the raw text of the latest version of an OpenAPI specification, exactly as published',
  source: 'real-api',
  access: 'read',
  params: pathParams(...spec),
  query: noQuery(),
  cli: {
    command: 'openapi raw',
    summary: 'Print the document of the latest version of an OpenAPI specification exactly as it was published (YAML or JSON text)',
    argHelp: { specSlug: 'specification slug (lowercase words joined by -), or its id' },
    columns: 'openApiSpecRaw',
    examples: ['docsctl openapi raw petstore > openapi.yaml', 'docsctl openapi raw petstore --json | jq -r .format'],
  },
});
