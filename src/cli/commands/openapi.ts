/**
 * `docsctl openapi …`: an organization's OpenAPI specifications and their versions (API doc §4.15).
 * The offline `openapi validate FILE` is hand-written (openapi-validate.ts).
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import { columns } from '../../output/columns.js';
import { readTextInput } from '../io.js';
import { openApiSpecLookup } from '../lookups.js';
import { CheckFailedError, type OperationCommandSpec } from '../operation.js';

const body = (input: RawInput) => {
  input.body ??= {};
  return input.body as Record<string, unknown>;
};

const slugArg = [{ name: 'specSlug', description: 'specification slug (lowercase words joined by -), or its id', lookup: openApiSpecLookup }];
const versionFlag = { flags: '--id <versionId>', description: 'a version id (default: the latest version)', to: 'params.versionId' };

export const openApiCommands: OperationCommandSpec[] = [
  {
    command: 'openapi list',
    route: 'listOpenAPISpecs',
    summary: 'List the OpenAPI specifications of an organization',
    aliases: ['ls'],
    org: true,
    output: 'list',
    columns: 'openApiSpec',
    noun: 'OpenAPI specification',
    examples: ['docsctl openapi list'],
  },
  {
    command: 'openapi get',
    route: 'getOpenAPISpecBySlug',
    summary: 'Show an OpenAPI specification and the result of its last processing',
    args: slugArg,
    org: true,
    output: 'object',
    columns: 'openApiSpec',
    examples: ['docsctl openapi get petstore', 'docsctl openapi get petstore --json | jq .lastProcessedErrors'],
  },
  {
    command: 'openapi publish',
    route: 'createOrUpdateOpenAPISpecBySlug',
    summary: 'Create or update an OpenAPI specification from a file or a URL (processed at once)',
    args: slugArg,
    org: true,
    flags: [
      { flags: '--file <file>', description: 'the document, YAML or JSON (- for stdin)' },
      { flags: '--url <url>', description: 'where the server fetches the document (https://)' },
    ],
    build: async (options, input, session) => {
      const hasFile = typeof options.file === 'string';
      const hasUrl = typeof options.url === 'string';
      if (hasFile === hasUrl) throw new UsageError('Pass exactly one of --file FILE or --url URL');
      body(input).source = hasFile ? { text: await readTextInput(session.ctx.io.in, options.file as string, '--file') } : { url: options.url };
    },
    after: async (session, answer) => {
      await session.printObject(answer, columns.openApiSpec);
      const spec = answer as { slug?: string; lastProcessErrorCode?: string; lastProcessedErrors?: Array<{ message: string }> };
      if (spec.lastProcessErrorCode) {
        const first = spec.lastProcessedErrors?.[0]?.message ?? '';
        throw new CheckFailedError(`${spec.slug} was stored but did not process (${spec.lastProcessErrorCode}): ${first}`);
      }
    },
    output: 'object',
    columns: 'openApiSpec',
    examples: ['docsctl openapi publish petstore --file openapi.yaml', 'docsctl openapi publish petstore --url https://example.com/openapi.json'],
  },
  {
    command: 'openapi delete',
    route: 'deleteOpenAPISpecBySlug',
    summary: 'Delete an OpenAPI specification',
    aliases: ['rm'],
    args: slugArg,
    org: true,
    confirm: (input) => `Delete OpenAPI specification ${input.params?.specSlug}?`,
    output: 'delete',
    columns: 'openApiSpec',
    noun: 'OpenAPI specification',
    examples: ['docsctl openapi delete petstore --yes'],
  },
  {
    command: 'openapi update',
    route: 'updateOpenAPISpecBySlug',
    summary: 'Make an OpenAPI specification public or private',
    args: slugArg,
    org: true,
    flags: [{ flags: '--visibility <visibility>', description: 'who can read it', to: 'body.visibility', choices: ['private', 'public'], required: true }],
    output: 'object',
    columns: 'openApiSpec',
    examples: ['docsctl openapi update petstore --visibility public'],
  },
  {
    command: 'openapi versions',
    route: 'listOpenAPISpecVersions',
    summary: 'List the versions of an OpenAPI specification (one per valid document published), newest first',
    args: slugArg,
    org: true,
    output: 'list',
    columns: 'openApiSpecVersion',
    noun: 'version',
    examples: ['docsctl openapi versions petstore', 'docsctl openapi versions petstore --format ids'],
  },
  {
    command: 'openapi version',
    route: (options) => (typeof options.id === 'string' ? 'getOpenAPISpecVersionById' : 'getLatestOpenAPISpecVersion'),
    summary: 'Show a version of an OpenAPI specification (the latest by default) and its download URL',
    args: slugArg,
    org: true,
    flags: [versionFlag],
    output: 'object',
    columns: 'openApiSpecVersion',
    examples: ['docsctl openapi version petstore', 'docsctl openapi version petstore --id 0lTy1zq8VyJ2uQq3bE5c'],
  },
  {
    command: 'openapi content',
    route: (options) => (typeof options.id === 'string' ? 'getOpenAPISpecVersionContentById' : 'getLatestOpenAPISpecVersionContent'),
    summary: 'Read back the document of a version of an OpenAPI specification (the latest by default)',
    args: slugArg,
    org: true,
    flags: [versionFlag],
    output: 'object',
    columns: 'openApiSpecContent',
    examples: ['docsctl openapi content petstore --json | jq .filesystem', 'docsctl openapi content petstore --id 0lTy1zq8VyJ2uQq3bE5c'],
  },
];
