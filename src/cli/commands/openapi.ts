/**
 * `docsctl openapi …`: an organization's OpenAPI specifications and their versions (API doc §4.15).
 * Declared with the routes (src/api/routes/openapi.ts); lookups by slug, the document
 * source and the processing check here. The offline `openapi validate FILE` is
 * hand-written (openapi-validate.ts).
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import { columns } from '../../output/columns.js';
import { readTextInput } from '../io.js';
import { openApiSpecLookup } from '../lookups.js';
import type { RouteId } from '../../api/route-id.js';
import type { Hooks } from '../derive.js';
import { CheckFailedError } from '../operation.js';

const body = (input: RawInput) => {
  input.body ??= {};
  return input.body as Record<string, unknown>;
};

const lookups = { specSlug: openApiSpecLookup };
const byVersion = (latest: RouteId, byId: RouteId) => (options: Record<string, unknown>) => (typeof options.id === 'string' ? byId : latest);

export const hooks = {
  'openapi get': { lookups },
  'openapi publish': {
    lookups,
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
  },
  'openapi delete': { lookups },
  'openapi update': { lookups },
  'openapi versions': { lookups },
  'openapi version': { lookups, route: byVersion('getLatestOpenAPISpecVersion', 'getOpenAPISpecVersionById') },
  'openapi raw': {
    lookups,
    async after(session, answer) {
      // The text itself unless a structured format is asked for: `openapi raw petstore > openapi.yaml` gives back the file.
      const { text } = answer as { text?: unknown };
      if ((session.format === 'table' || session.format === 'tsv') && typeof text === 'string') return session.printText(text);
      await session.printObject(answer, columns.openApiSpecRaw);
    },
  },
  'openapi content': { lookups, route: byVersion('getLatestOpenAPISpecVersionContent', 'getOpenAPISpecVersionContentById') },
} satisfies Hooks;
