/**
 * `docsctl custom-field …`, `space fields`, `integration …`, `sso …`, `openapi …`,
 * `translation …` (API doc §4.2 custom-field values, §4.12–4.16). The offline
 * `openapi validate FILE` is hand-written (openapi-validate.ts).
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import { columns } from '../../output/columns.js';
import { readTextInput } from '../io.js';
import { customFieldLookup, openApiSpecLookup } from '../lookups.js';
import { CheckFailedError, type OperationCommandSpec, resolveOrganization } from '../operation.js';
import type { Session } from '../session.js';

const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'tags', 'select:multi', 'select:single'] as const;
const ROLES_OR_GUEST = ['admin', 'create', 'edit', 'review', 'comment', 'read', 'guest'] as const;

const body = (input: RawInput) => {
  input.body ??= {};
  return input.body as Record<string, unknown>;
};

// ─── Custom fields ─────────────────────────────────────────────────────────

const fieldArg = [{ name: 'fieldName', description: 'field name (or id)', lookup: customFieldLookup }];
const fieldFlags = [
  { flags: '--title <title>', description: 'title shown to editors (max 100)', to: 'body.title' },
  { flags: '--description <text>', description: 'description (max 200)', to: 'body.description' },
  { flags: '--placeholder <text>', description: 'placeholder (max 100)', to: 'body.placeholder' },
  { flags: '--options <a,b,…>', description: 'options of a select field, comma-separated', to: 'body.options', type: 'list' as const },
];

/**
 * `NAME=TEXT` sets a text value as given; `NAME:=JSON` sets a typed value
 * (`pages:=12`, `reviewed:=true`, `tags:='["a","b"]'`, `NAME:=null` clears it),
 * as httpie does, so a value never changes type by looking like a number.
 */
export function parseFieldAssignments(assignments: readonly string[]): Record<string, { value: unknown }> {
  const values: Record<string, { value: unknown }> = {};
  for (const assignment of assignments) {
    const match = /^([^=:]+)(:?=)([\s\S]*)$/.exec(assignment);
    if (!match) throw new UsageError(`Expected NAME=TEXT or NAME:=JSON, got "${assignment}"`);
    const [, name = '', operator, raw = ''] = match;
    if (name in values) throw new UsageError(`Custom field "${name}" is set twice`);
    if (operator === '=') {
      values[name] = { value: raw };
      continue;
    }
    try {
      values[name] = { value: JSON.parse(raw) };
    } catch {
      throw new UsageError(`${name}:= expects JSON (a number, true/false, null, or ["a","b"]), got ${raw}`);
    }
  }
  return values;
}

const customFieldCommands: OperationCommandSpec[] = [
  {
    command: 'custom-field list',
    route: 'listOrganizationCustomFields',
    summary: 'List the custom fields of an organization',
    aliases: ['ls'],
    org: true,
    output: 'list',
    columns: 'customField',
    noun: 'custom field',
    examples: ['docsctl custom-field list', 'docsctl custom-field list --format tsv'],
  },
  {
    command: 'custom-field get',
    route: 'getOrganizationCustomFieldByName',
    summary: 'Show a custom field',
    args: fieldArg,
    org: true,
    output: 'object',
    columns: 'customField',
    examples: ['docsctl custom-field get team'],
  },
  {
    command: 'custom-field create',
    route: 'createOrganizationCustomField',
    summary: 'Define a custom field (admin)',
    args: [{ name: 'name', param: '__name', description: 'field name (lowercase letters, digits, _ and -)' }],
    org: true,
    flags: [
      { flags: '--type <type>', description: 'value type', to: 'body.type', choices: CUSTOM_FIELD_TYPES, required: true },
      ...fieldFlags,
    ],
    build: (_options, input) => {
      const params = input.params as Record<string, string>;
      body(input).name = params.__name;
      delete params.__name;
    },
    output: 'object',
    columns: 'customField',
    examples: [
      'docsctl custom-field create owner --type text --title "Owning team"',
      'docsctl custom-field create tier --type select:single --options gold,silver,bronze',
    ],
  },
  {
    command: 'custom-field edit',
    route: 'updateOrganizationCustomField',
    summary: 'Change the title, description, placeholder or options of a custom field (admin)',
    args: fieldArg,
    org: true,
    flags: fieldFlags,
    nonEmptyBody: 'Nothing to change: pass --title, --description, --placeholder or --options',
    output: 'object',
    columns: 'customField',
    examples: ['docsctl custom-field edit tier --options gold,silver,bronze,tin'],
  },
  {
    command: 'custom-field delete',
    route: 'deleteOrganizationCustomField',
    summary: 'Delete a custom field and the values spaces gave it (admin)',
    aliases: ['rm'],
    args: fieldArg,
    org: true,
    confirm: (input) => `Delete custom field ${input.params?.fieldName} and every space's value for it?`,
    output: 'delete',
    columns: 'customField',
    noun: 'custom field',
    examples: ['docsctl custom-field delete tier --yes'],
  },
  {
    command: 'space fields',
    route: 'getSpaceCustomFields',
    summary: 'Show the custom field values of a space',
    args: [{ name: 'spaceId', description: 'space id' }],
    output: 'object',
    columns: 'customFieldValue',
    after: async (session, answer) => session.printList(answer as unknown[], columns.customFieldValue),
    examples: ['docsctl space fields sp4c3', 'docsctl space fields sp4c3 --json'],
  },
  {
    command: 'space fields set',
    route: 'updateSpaceCustomFields',
    summary: 'Set custom field values of a space: NAME=TEXT, or NAME:=JSON for numbers, booleans, lists and null',
    args: [
      { name: 'spaceId', description: 'space id' },
      { name: 'assignments', description: 'NAME=TEXT or NAME:=JSON', variadic: { to: 'body.values' } },
    ],
    build: (_options, input) => {
      const assignments = (body(input).values as string[] | undefined) ?? [];
      if (assignments.length === 0) throw new UsageError('Nothing to set: pass NAME=TEXT or NAME:=JSON');
      body(input).values = parseFieldAssignments(assignments);
    },
    output: 'empty',
    columns: 'customFieldValue',
    examples: ['docsctl space fields set sp4c3 owner="API team" pages:=12 reviewed:=true tags:=\'["beta"]\''],
  },
];

// ─── Translation settings ──────────────────────────────────────────────────

const translationArg = [{ name: 'translationSettingsId', description: 'translation settings id' }];
const languagesFlag = {
  flags: '--language <codes>',
  description: 'target languages, comma-separated (en, fr, de, pt-br, …)',
  to: 'body.languages',
  type: 'list' as const,
};

const translationCommands: OperationCommandSpec[] = [
  {
    command: 'translation list',
    route: 'listTranslations',
    summary: 'List the translation settings of an organization',
    aliases: ['ls'],
    org: true,
    output: 'list',
    columns: 'translation',
    noun: 'translation setting',
    examples: ['docsctl translation list'],
  },
  {
    command: 'translation get',
    route: 'getTranslation',
    summary: 'Show translation settings',
    args: translationArg,
    org: true,
    output: 'object',
    columns: 'translation',
    examples: ['docsctl translation get tr4n5'],
  },
  {
    command: 'translation create',
    route: 'createTranslation',
    summary: 'Create translation settings (admin)',
    org: true,
    flags: [{ flags: '--title <title>', description: 'title (1 to 100)', to: 'body.title', required: true }, languagesFlag],
    output: 'object',
    columns: 'translation',
    examples: ['docsctl translation create --title "EU languages" --language fr,de,es'],
  },
  {
    command: 'translation edit',
    route: 'updateTranslation',
    summary: 'Replace the title (and languages) of translation settings (admin)',
    args: translationArg,
    org: true,
    flags: [{ flags: '--title <title>', description: 'title (1 to 100)', to: 'body.title', required: true }, languagesFlag],
    output: 'object',
    columns: 'translation',
    examples: ['docsctl translation edit tr4n5 --title "EU" --language fr,de'],
  },
  {
    command: 'translation delete',
    route: 'deleteTranslation',
    summary: 'Delete translation settings (admin)',
    aliases: ['rm'],
    args: translationArg,
    org: true,
    confirm: (input) => `Delete translation settings ${input.params?.translationSettingsId}?`,
    output: 'delete',
    columns: 'translation',
    noun: 'translation setting',
    examples: ['docsctl translation delete tr4n5 --yes'],
  },
];

// ─── SAML SSO ──────────────────────────────────────────────────────────────

const providerArg = [{ name: 'samlProviderId', description: 'SAML provider id' }];
const samlFlags = [
  { flags: '--sso-url <url>', description: "the identity provider's SSO URL", to: 'body.ssoURL' },
  { flags: '--entity-id <id>', description: "the identity provider's entity id", to: 'body.entityID' },
  { flags: '--certificate-file <file>', description: "the identity provider's PEM X.509 certificate (- for stdin)" },
  { flags: '--default-team <teamId>', description: 'team new SSO members join', to: 'body.defaultTeam' },
  { flags: '--default-role <role>', description: 'role of new SSO members', to: 'body.defaultRole', choices: ROLES_OR_GUEST },
];
const buildSaml = async (options: Record<string, unknown>, input: RawInput, session: Session) => {
  if (typeof options.certificateFile === 'string') {
    body(input).certificate = await readTextInput(session.ctx.io.in, options.certificateFile, '--certificate-file');
  }
  if (input.body && (input.body as Record<string, unknown>).defaultRole === 'guest') body(input).defaultRole = null;
};

const ssoCommands: OperationCommandSpec[] = [
  {
    command: 'sso list',
    route: 'listSAMLProvidersInOrganizationById',
    summary: 'List the SAML providers of an organization (admin)',
    aliases: ['ls'],
    org: true,
    output: 'list',
    columns: 'samlProvider',
    noun: 'SAML provider',
    examples: ['docsctl sso list'],
  },
  {
    command: 'sso get',
    route: 'getOrganizationSAMLProviderById',
    summary: 'Show a SAML provider, with the service URLs to give the identity provider (admin)',
    args: providerArg,
    org: true,
    output: 'object',
    columns: 'samlProvider',
    examples: ['docsctl sso get s4ml --json | jq .service'],
  },
  {
    command: 'sso create',
    route: 'createOrganizationSAMLProvider',
    summary: 'Add a SAML provider (admin)',
    org: true,
    flags: [{ flags: '--label <label>', description: 'label on the login page (1 to 30)', to: 'body.label', required: true }, ...samlFlags],
    build: buildSaml,
    output: 'object',
    columns: 'samlProvider',
    examples: [
      'docsctl sso create --label Okta --sso-url https://acme.okta.com/app/sso/saml --entity-id http://www.okta.com/exk1 --certificate-file okta.pem',
    ],
  },
  {
    command: 'sso edit',
    route: 'updateOrganizationSAMLProvider',
    summary: 'Change a SAML provider (admin)',
    args: providerArg,
    org: true,
    flags: [{ flags: '--label <label>', description: 'label on the login page (1 to 30)', to: 'body.label' }, ...samlFlags],
    build: buildSaml,
    nonEmptyBody: 'Nothing to change: pass --label, --sso-url, --entity-id, --certificate-file, --default-team or --default-role',
    output: 'object',
    columns: 'samlProvider',
    examples: ['docsctl sso edit s4ml --certificate-file rotated.pem'],
  },
  {
    command: 'sso delete',
    route: 'deleteOrganizationSAMLProvider',
    summary: 'Remove a SAML provider (admin)',
    aliases: ['rm'],
    args: providerArg,
    org: true,
    confirm: (input) => `Remove SAML provider ${input.params?.samlProviderId}? Its users can no longer sign in with it.`,
    output: 'delete',
    columns: 'samlProvider',
    noun: 'SAML provider',
    examples: ['docsctl sso delete s4ml --yes'],
  },
  {
    command: 'sso logins',
    route: 'listSSOProviderLoginsInOrganization',
    summary: 'List the SSO login options of an organization',
    org: true,
    output: 'list',
    columns: 'ssoLogin',
    noun: 'SSO login',
    examples: ['docsctl sso logins --format tsv'],
  },
];

// ─── OpenAPI specifications ────────────────────────────────────────────────

const slugArg = [{ name: 'specSlug', description: 'specification slug (lowercase words joined by -), or its id', lookup: openApiSpecLookup }];
const versionFlag = { flags: '--id <versionId>', description: 'a version id (default: the latest version)', to: 'params.versionId' };

const openApiCommands: OperationCommandSpec[] = [
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

// ─── Integrations ──────────────────────────────────────────────────────────

const integrationArg = [{ name: 'integrationName', description: 'integration name' }];

const integrationCommands: OperationCommandSpec[] = [
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

export const orgCatalogCommands: OperationCommandSpec[] = [
  ...customFieldCommands,
  ...translationCommands,
  ...ssoCommands,
  ...openApiCommands,
  ...integrationCommands,
];

