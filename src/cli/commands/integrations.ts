/** `docsctl integration …`: integrations and their installations (API doc §4.13). */
import { readTextInput } from '../io.js';
import { type OperationCommandSpec, resolveOrganization } from '../operation.js';

const integrationArg = [{ name: 'integrationName', description: 'integration name' }];

export const integrationCommands: OperationCommandSpec[] = [
  {
    command: 'integration list',
    route: 'listIntegrations',
    summary: 'List published integrations',
    aliases: ['ls'],
    flags: [
      { flags: '--search <text>', description: 'name or title contains', to: 'query.search' },
      { flags: '--category <category>', description: 'category', to: 'query.category' },
      { flags: '--owner <orgId>', description: 'published by this organization', to: 'query.owner' },
      { flags: '--scope <scope>', description: 'requests this scope', to: 'query.scope' },
      { flags: '--target <target>', description: 'installable on this target', to: 'query.target' },
    ],
    output: 'list',
    columns: 'integration',
    noun: 'integration',
    examples: ['docsctl integration list --category analytics', 'docsctl integration list --owner 0rg --format ids'],
  },
  {
    command: 'integration get',
    route: 'getIntegrationByName',
    summary: 'Show an integration',
    args: integrationArg,
    output: 'object',
    columns: 'integration',
    examples: ['docsctl integration get slack'],
  },
  {
    command: 'integration publish',
    route: 'publishIntegration',
    summary: 'Publish (or republish) an integration from its manifest (admin of the publishing organization)',
    flags: [
      { flags: '--file <file>', description: 'the manifest: gitbook-manifest.yaml or .json', required: true },
      {
        flags: '--org <organizationId>',
        description: "publishing organization (default: the manifest's, else DOCSCTL_ORG, the profile, or your only one)",
        aliases: ['--organization'],
      },
    ],
    org: false,
    build: async (options, input, session) => {
      const path = options.file as string;
      const { manifestToPublish } = await import('./integration-manifest.js');
      const { name, body: publish } = manifestToPublish(path, await readTextInput(session.ctx.io.in, path, '--file'));
      input.params = { ...(input.params as object), integrationName: name };
      const organization =
        typeof options.org === 'string' ? options.org : typeof publish.organization === 'string' ? publish.organization : await resolveOrganization(session, undefined);
      input.body = { ...publish, organization };
    },
    output: 'object',
    columns: 'integration',
    examples: ['docsctl integration publish --file gitbook-manifest.yaml --org 0rg'],
  },
  {
    command: 'integration unpublish',
    route: 'unpublishIntegration',
    summary: 'Unpublish an integration (its installations go with it)',
    args: integrationArg,
    confirm: (input) => `Unpublish integration ${input.params?.integrationName} and remove its installations?`,
    output: 'delete',
    columns: 'integration',
    noun: 'integration',
    examples: ['docsctl integration unpublish slack --yes'],
  },
  {
    command: 'integration installations',
    route: 'listIntegrationInstallations',
    summary: 'List the installations of an integration (admin of its organization)',
    args: integrationArg,
    flags: [{ flags: '--external-id <id>', description: 'only installations with this external id', to: 'query.externalId' }],
    output: 'list',
    columns: 'installation',
    noun: 'installation',
    examples: ['docsctl integration installations slack'],
  },
];
