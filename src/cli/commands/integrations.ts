/** `docsctl integration …`: integrations and their installations (API doc §4.13), declared with the routes (src/api/routes/integrations.ts); publishing from a manifest here. */
import { readTextInput } from '../io.js';
import type { Hooks } from '../derive.js';
import { resolveOrganization } from '../operation.js';

export const hooks = {
  // The answer is one entry per integration with its blocks: a table shows one row per block.
  'space integration-blocks': {
    after: async (session, body) => {
      const { columns } = await import('../../output/columns.js');
      if (session.format !== 'table' && session.format !== 'tsv') return session.printObject(body, columns.integrationBlock);
      const entries = Array.isArray(body) ? (body as Array<{ name: string; blocks: unknown[] }>) : [];
      const rows = entries.flatMap((entry) => entry.blocks.map((block) => ({ name: entry.name, block })));
      if (rows.length === 0 && session.format === 'table') return session.info('No integration blocks: install an integration with blocks on the space (docsctl integration install).');
      return session.printList(rows, columns.integrationBlock);
    },
  },
  'integration publish': {
    flags: [
      { flags: '--file <file>', description: 'the manifest: gitbook-manifest.yaml or .json', required: true },
      {
        flags: '--org <organizationId>',
        description: "publishing organization (default: the manifest's, else DOCSCTL_ORG, the profile, or your only one)",
        aliases: ['--organization'],
      },
    ],
    // The integration's name comes from the manifest.
    build: async (options, input, session) => {
      const path = options.file as string;
      const { manifestToPublish } = await import('./integration-manifest.js');
      const { name, body: publish } = manifestToPublish(path, await readTextInput(session.ctx.io.in, path, '--file'));
      input.params = { ...(input.params as object), integrationName: name };
      const organization =
        typeof options.org === 'string' ? options.org : typeof publish.organization === 'string' ? publish.organization : await resolveOrganization(session, undefined);
      input.body = { ...publish, organization };
    },
  },
} satisfies Hooks;
