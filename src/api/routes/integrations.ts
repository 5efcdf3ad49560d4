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
  pathParams,
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

/** The catalog's filters as flags (`integration list`, `integration available`). */
const catalogFlags = {
  search: { flag: '--search <text>', description: 'name or title contains' },
  category: {},
  owner: { flag: '--owner <orgId>', description: 'published by this organization' },
  scope: 'requests this scope',
  target: 'installable on this target',
  blockDomain: false,
  blocks: false,
  contentSources: false,
} as const;

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
  cli: {
    command: 'integration list',
    summary: 'List published integrations',
    aliases: ['ls'],
    flags: catalogFlags,
    columns: 'integration',
    noun: 'integration',
    examples: ['docsctl integration list --category analytics', 'docsctl integration list --owner 0rg --format ids'],
  },
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
  cli: {
    command: 'integration get',
    summary: 'Show an integration',
    columns: 'integration',
    examples: ['docsctl integration get slack'],
  },
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
  cli: {
    command: 'integration publish',
    summary: 'Publish (or republish) an integration from its manifest (admin of the publishing organization)',
    // The integration's name and the body come from the manifest (the hook reads it).
    flags: { 'params.integrationName': false },
    onlyNamedFlags: true,
    columns: 'integration',
    examples: ['docsctl integration publish --file gitbook-manifest.yaml --org 0rg'],
  },
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
  cli: {
    command: 'integration unpublish',
    summary: 'Unpublish an integration (its installations go with it)',
    confirm: 'Unpublish integration {integrationName} and remove its installations?',
    columns: 'integration',
    noun: 'integration',
    examples: ['docsctl integration unpublish slack --yes'],
  },
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
  cli: {
    command: 'integration installations',
    summary: 'List the installations of an integration (admin of its organization)',
    flags: { externalId: { flag: '--external-id <id>', description: 'only installations with this external id' } },
    columns: 'installation',
    noun: 'installation',
    examples: ['docsctl integration installations slack'],
  },
});

// ─── Installations (0.202) ─────────────────────────────────────────────────
// Who may call these depends on data (the installation's organization, the integration's
// owner), so they declare `none` and their handlers check it (src/domain/integration-installations.ts).

/** `{integrationName}` checked as a name, then other path parameters. */
const integrationAnd = <K extends string>(...names: K[]) => integrationParams().extend(pathParams(...names).shape);
const installationParams = () => integrationAnd('installationId');
const ExternalIds = z.array(z.string().min(1).max(256)).max(5);
/** An installation's configuration: a JSON object, bounded (it is stored and sent with every event). */
const InstallationConfiguration = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 16_384, 'configuration: at most 16 KiB of JSON');
const extendedQuery = () => z.object({ extended: qBool().optional().describe('answer the whole space or site object instead of its id') });
const extendedList = () => z.object({ ...paginationQuery, extended: qBool().optional().describe('answer the whole space or site object instead of its id') });

export const installIntegration = defineRoute({
  id: 'installIntegration',
  method: 'POST',
  path: '/v1/integrations/{integrationName}/installations',
  summary: 'Install an integration on an organization',
  source: 'real-api',
  access: 'none',
  params: integrationParams(),
  query: noQuery(),
  body: z.object({ organization: z.string().min(1).describe('the organization to install it on (admin there)') }),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'integration install',
    summary: 'Install a published integration on an organization (admin there); then on spaces and sites',
    flags: { organization: { flag: '--organization <orgId>', description: 'the organization to install it on', required: true, offer: 'organization' } },
    columns: 'installation',
    noun: 'installation',
    examples: ['docsctl integration install slack --organization 0rg', 'docsctl integration install slack --organization 0rg --format ids'],
  },
});

export const getIntegrationInstallationById = defineRoute({
  id: 'getIntegrationInstallationById',
  method: 'GET',
  path: '/v1/integrations/{integrationName}/installations/{installationId}',
  summary: 'Get an installation of an integration',
  source: 'real-api',
  access: 'none',
  params: installationParams(),
  query: noQuery(),
  cli: {
    command: 'integration installation get',
    summary: 'Show an installation of an integration',
    columns: 'installation',
    examples: ['docsctl integration installation get slack 1nst'],
  },
});

export const updateIntegrationInstallation = defineRoute({
  id: 'updateIntegrationInstallation',
  method: 'PATCH',
  path: '/v1/integrations/{integrationName}/installations/{installationId}',
  summary: 'Update an installation of an integration',
  source: 'real-api',
  access: 'none',
  params: installationParams(),
  query: noQuery(),
  body: z.object({
    externalIds: ExternalIds.optional(),
    configuration: InstallationConfiguration.optional(),
    space_selection: z.enum(['all', 'selected']).optional(),
    site_selection: z.enum(['all', 'selected']).optional(),
  }),
  bodyRequired: true,
  cli: {
    command: 'integration installation edit',
    summary: 'Change an installation: which spaces and sites it covers, its external ids, its configuration',
    flags: {
      externalIds: { flag: '--external-ids <ids>', description: 'external ids (comma-separated, at most 5)', type: 'list' },
      configuration: { flag: '--configuration <json>', description: 'configuration (a JSON object)', type: 'json' },
      space_selection: { flag: '--space-selection <selection>', description: 'all: every space of the organization; selected: the spaces it is installed on' },
      site_selection: { flag: '--site-selection <selection>', description: 'all: every site of the organization; selected: the sites it is installed on' },
    },
    nonEmptyBody: 'Nothing to change: pass --space-selection, --site-selection, --external-ids or --configuration',
    columns: 'installation',
    examples: ['docsctl integration installation edit slack 1nst --space-selection all', 'docsctl integration installation edit slack 1nst --external-ids T024BE7LD'],
  },
});

export const uninstallIntegration = defineRoute({
  id: 'uninstallIntegration',
  method: 'DELETE',
  path: '/v1/integrations/{integrationName}/installations/{installationId}',
  summary: 'Uninstall an integration from an organization',
  source: 'real-api',
  access: 'none',
  params: installationParams(),
  query: noQuery(),
  cli: {
    command: 'integration uninstall',
    summary: 'Uninstall an integration from an organization (with its space and site installations; its tokens stop working)',
    confirm: 'Uninstall integration {integrationName} (installation {installationId}) with its space and site installations?',
    columns: 'installation',
    noun: 'installation',
    examples: ['docsctl integration uninstall slack 1nst --yes'],
  },
});

export const createIntegrationInstallationToken = defineRoute({
  id: 'createIntegrationInstallationToken',
  method: 'POST',
  path: '/v1/integrations/{integrationName}/installations/{installationId}/tokens',
  summary: 'Create a temporary API token for an installation',
  source: 'real-api',
  access: 'none',
  params: installationParams(),
  query: noQuery(),
  success: 200,
  cli: {
    command: 'integration installation token',
    summary: "Create a temporary token (1 hour) acting for an installation: only on the spaces and sites it covers, within the integration's scopes",
    columns: 'installationToken',
    examples: ['TOKEN=$(docsctl integration installation token slack 1nst --json token --query token)'],
  },
});

export const installIntegrationOnSpace = defineRoute({
  id: 'installIntegrationOnSpace',
  method: 'POST',
  path: '/v1/integrations/{integrationName}/installations/{installationId}/spaces',
  summary: 'Install an integration on a space',
  source: 'real-api',
  access: 'none',
  params: installationParams(),
  query: extendedQuery(),
  body: z.object({ space: z.string().min(1).describe('the space to install it on') }),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'integration space install',
    summary: "Install an integration on a space of its installation's organization",
    args: ['integrationName', 'installationId', { name: 'space', to: 'body.space', description: 'the space to install it on' }],
    columns: 'spaceInstallation',
    examples: ['docsctl integration space install slack 1nst sp4c3'],
  },
});

export const installIntegrationOnSite = defineRoute({
  id: 'installIntegrationOnSite',
  method: 'POST',
  path: '/v1/integrations/{integrationName}/installations/{installationId}/sites',
  summary: 'Install an integration on a site',
  source: 'real-api',
  access: 'none',
  params: installationParams(),
  query: extendedQuery(),
  body: z.object({ siteId: z.string().min(1).describe('the site to install it on') }),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'integration site install',
    summary: "Install an integration on a site of its installation's organization",
    args: ['integrationName', 'installationId', { name: 'site', to: 'body.siteId', description: 'the site to install it on' }],
    columns: 'siteInstallation',
    examples: ['docsctl integration site install analytics 1nst s1t3'],
  },
});

/**
 * The routes of an installation's spaces or sites (the two kinds are alike): its list, one
 * by id, its change, its removal.
 */
function contentInstallationRoutes<P extends 'spaceId' | 'siteId'>(kind: 'space' | 'site', param: P, example: { integration: string; id: string; edit: string }) {
  const Kind = kind === 'space' ? 'Space' : 'Site';
  const one = `/v1/integrations/{integrationName}/installations/{installationId}/${kind}s/{${param}}`;
  const ex = (words: string, rest = '') => `docsctl integration ${kind} ${words} ${example.integration} 1nst${rest}`;
  const columns = `${kind}Installation`;
  const oneParams = () => integrationAnd<'installationId' | P>('installationId', param);
  const changeFlags = {
    externalIds: { flag: '--external-ids <ids>', description: 'external ids (comma-separated, at most 5)', type: 'list' },
    configuration: { flag: '--configuration <json>', description: 'configuration (a JSON object)', type: 'json' },
  } as const;
  return {
    list: defineRoute({
      id: `listIntegrationInstallation${Kind}s`,
      method: 'GET',
      path: `/v1/integrations/{integrationName}/installations/{installationId}/${kind}s`,
      summary: `List the ${kind}s an installation is installed on`,
      source: 'real-api',
      access: 'none',
      params: installationParams(),
      query: extendedList(),
      paginated: true,
      cli: { command: `integration ${kind} list`, summary: `List the ${kind}s an installation is installed on`, columns, noun: `${kind} installation`, examples: [ex('list')] },
    }),
    get: defineRoute({
      id: `getIntegration${Kind}Installation`,
      method: 'GET',
      path: one,
      summary: `Get the installation of an integration on a ${kind}`,
      source: 'real-api',
      access: 'none',
      params: oneParams(),
      query: extendedQuery(),
      cli: { command: `integration ${kind} get`, summary: `Show the installation of an integration on a ${kind}`, columns, examples: [ex('get', ` ${example.id}`)] },
    }),
    update: defineRoute({
      id: `updateIntegration${Kind}Installation`,
      method: 'PATCH',
      path: one,
      summary: `Update the installation of an integration on a ${kind}`,
      source: 'real-api',
      access: 'none',
      params: oneParams(),
      query: extendedQuery(),
      body: z.object({ externalIds: ExternalIds.optional(), configuration: InstallationConfiguration.optional() }),
      bodyRequired: true,
      cli: {
        command: `integration ${kind} edit`,
        summary: `Change the external ids or configuration of an integration on a ${kind}`,
        flags: changeFlags,
        nonEmptyBody: 'Nothing to change: pass --external-ids or --configuration',
        columns,
        examples: [ex('edit', ` ${example.id} ${example.edit}`)],
      },
    }),
    uninstall: defineRoute({
      id: `uninstallIntegrationFrom${Kind}`,
      method: 'DELETE',
      path: one,
      summary: `Uninstall an integration from a ${kind}`,
      source: 'real-api',
      access: 'none',
      params: oneParams(),
      query: noQuery(),
      cli: {
        command: `integration ${kind} uninstall`,
        summary: `Uninstall an integration from a ${kind}`,
        confirm: `Uninstall integration {integrationName} from ${kind} {${param}}?`,
        columns,
        noun: `${kind} installation`,
        examples: [ex('uninstall', ` ${example.id} --yes`)],
      },
    }),
  };
}


/** The space (site) installations of an integration, in every organization. */
function installationsOfIntegrationRoute(kind: 'space' | 'site', example: { integration: string }) {
  const Kind = kind === 'space' ? 'Space' : 'Site';
  const columns = `${kind}Installation`;
  return defineRoute({
    id: `listIntegration${Kind}Installations`,
    method: 'GET',
    path: `/v1/integrations/{integrationName}/${kind}s`,
    summary: `List the ${kind} installations of an integration, in every organization`,
    source: 'real-api',
    access: 'none',
    params: integrationParams(),
    query: z.object({ ...extendedList().shape, externalId: z.string().optional() }),
    paginated: true,
    cli: {
      command: `integration ${kind}s`,
      summary: `List the ${kind}s an integration is installed on, in every organization (admin of its organization)`,
      flags: { externalId: { flag: '--external-id <id>', description: `only ${kind} installations with this external id` } },
      columns,
      noun: `${kind} installation`,
      examples: [`docsctl integration ${kind}s ${example.integration}`],
    },
  });
}

const onSpaces = contentInstallationRoutes('space', 'spaceId', { integration: 'slack', id: 'sp4c3', edit: '--configuration \'{"channel":"#docs"}\'' });
const onSites = contentInstallationRoutes('site', 'siteId', { integration: 'analytics', id: 's1t3', edit: '--external-ids G-123' });

export const listIntegrationInstallationSpaces = onSpaces.list;
export const getIntegrationSpaceInstallation = onSpaces.get;
export const updateIntegrationSpaceInstallation = onSpaces.update;
export const uninstallIntegrationFromSpace = onSpaces.uninstall;
export const listIntegrationSpaceInstallations = installationsOfIntegrationRoute('space', { integration: 'slack' });
export const listIntegrationInstallationSites = onSites.list;
export const getIntegrationSiteInstallation = onSites.get;
export const updateIntegrationSiteInstallation = onSites.update;
export const uninstallIntegrationFromSite = onSites.uninstall;
export const listIntegrationSiteInstallations = installationsOfIntegrationRoute('site', { integration: 'analytics' });

// ─── Events (0.202): what happened to an integration's installations, newest first ─────

export const listIntegrationEvents = defineRoute({
  id: 'listIntegrationEvents',
  method: 'GET',
  path: '/v1/integrations/{integrationName}/events',
  summary: 'List the events of an integration, newest first',
  source: 'real-api',
  access: 'none',
  params: integrationParams(),
  query: z.object({ ...paginationQuery }),
  paginated: true,
  cli: {
    command: 'integration events',
    summary: 'List the events of an integration, newest first (admin of its organization; what `gitbook tail` reads)',
    columns: 'integrationEvent',
    noun: 'event',
    examples: ['docsctl integration events slack --limit 10', 'docsctl integration events slack --json payload'],
  },
});

export const getIntegrationEvent = defineRoute({
  id: 'getIntegrationEvent',
  method: 'GET',
  path: '/v1/integrations/{integrationName}/events/{eventId}',
  summary: 'Get an event of an integration',
  source: 'real-api',
  access: 'none',
  params: integrationAnd('eventId'),
  query: noQuery(),
  cli: {
    command: 'integration event',
    summary: 'Show an event of an integration with its trace',
    columns: 'integrationEventTrace',
    examples: ['docsctl integration event slack 3v3nt --json'],
  },
});

// ─── Development mode (0.202) ──────────────────────────────────────────────

export const setIntegrationDevelopmentMode = defineRoute({
  id: 'setIntegrationDevelopmentMode',
  method: 'PUT',
  path: '/v1/integrations/{integrationName}/dev',
  summary: 'Turn on development mode for an integration',
  source: 'real-api',
  access: 'none',
  params: integrationParams(),
  query: noQuery(),
  body: z.object({
    tunnelUrl: z.string().min(1).max(256).pipe(Url).describe('URL of the tunnel its events go to'),
    all: z.boolean().optional().describe("forward every organization's requests, not only the owner's"),
  }),
  bodyRequired: true,
  success: 204,
  cli: {
    command: 'integration dev on',
    summary: 'Turn on development mode: record the tunnel its events go to (admin of its organization)',
    flags: { tunnelUrl: { flag: '--tunnel-url <url>', description: 'URL of the tunnel (http or https)', required: true } },
    output: 'empty',
    columns: 'integration',
    examples: ['docsctl integration dev on slack --tunnel-url https://slack-dev.trycloudflare.com'],
  },
});

export const disableIntegrationDevelopmentMode = defineRoute({
  id: 'disableIntegrationDevelopmentMode',
  method: 'DELETE',
  path: '/v1/integrations/{integrationName}/dev',
  summary: 'Turn off development mode for an integration',
  source: 'real-api',
  access: 'none',
  params: integrationParams(),
  query: noQuery(),
  success: 205,
  cli: {
    command: 'integration dev off',
    summary: 'Turn off development mode',
    output: 'empty',
    columns: 'integration',
    examples: ['docsctl integration dev off slack'],
  },
});

// ─── Listings by organization, space and site (0.202) ──────────────────────

export const listOrganizationIntegrations = defineRoute({
  id: 'listOrganizationIntegrations',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/integrations',
  summary: 'List the integrations an organization can install (public ones, and its own)',
  source: 'real-api',
  access: 'guest',
  params: pathParams('organizationId'),
  query: listIntegrations.query,
  paginated: true,
  cli: {
    command: 'integration available',
    summary: 'List the integrations an organization can install: public ones and its own',
    flags: catalogFlags,
    columns: 'integration',
    noun: 'integration',
    examples: ['docsctl integration available --target space'],
  },
});

export const listOrganizationInstallations = defineRoute({
  id: 'listOrganizationInstallations',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/installations',
  summary: "List an organization's integration installations",
  source: 'real-api',
  access: 'guest',
  params: pathParams('organizationId'),
  query: z.object({ ...paginationQuery, search: z.string().max(256).optional().describe('integration name or title contains') }),
  paginated: true,
  cli: {
    command: 'integration installed',
    summary: 'List the integrations installed on an organization',
    flags: { search: { flag: '--search <text>', description: 'integration name or title contains' } },
    columns: 'organizationInstallation',
    noun: 'installation',
    examples: ['docsctl integration installed', 'docsctl integration installed --org 0rg --json'],
  },
});

export const getOrganizationIntegrationStatus = defineRoute({
  id: 'getOrganizationIntegrationStatus',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/integrations/{integrationName}/installation_status',
  summary: 'Get the status of an integration in an organization',
  source: 'real-api',
  access: 'guest',
  params: pathParams('organizationId').extend(integrationParams().shape),
  query: noQuery(),
  cli: {
    command: 'integration status',
    summary: 'Show whether an integration is installed on an organization, and its status',
    args: ['integrationName'],
    columns: 'integrationStatus',
    examples: ['docsctl integration status slack'],
  },
});

export const listOrganizationIntegrationsStatus = defineRoute({
  id: 'listOrganizationIntegrationsStatus',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/integrations/installations-status',
  summary: 'List the installed integrations of an organization with their status and target',
  source: 'real-api',
  access: 'guest',
  params: pathParams('organizationId'),
  query: z.object({
    ...paginationQuery,
    target: z.enum(['organization', 'site', 'space']).optional().describe('only installations on this kind of target'),
    site: z.string().min(1).optional().describe('only installations on this site'),
    space: z.string().min(1).optional().describe('only installations on this space'),
  }),
  paginated: true,
  cli: {
    command: 'integration statuses',
    summary: 'List what is installed where in an organization: the organization, its spaces and sites',
    columns: 'installedIntegration',
    noun: 'installation',
    examples: ['docsctl integration statuses --target space', 'docsctl integration statuses --space sp4c3'],
  },
});

/** The integrations installed on a space or site (directly, or on all of its organization's). */
function integrationsOnRoute<S extends z.ZodObject<Record<string, z.ZodString>>>(kind: 'space' | 'site', path: string, params: S, example: string) {
  return defineRoute({
    id: kind === 'space' ? 'listSpaceIntegrations' : 'listSiteIntegrations',
    method: 'GET',
    path,
    summary: `List the integrations installed on a ${kind}`,
    source: 'real-api',
    access: 'read',
    params,
    query: z.object({ ...paginationQuery, search: z.string().max(256).optional().describe('name or title contains') }),
    paginated: true,
    cli: {
      command: `${kind} integrations`,
      summary: `List the integrations installed on a ${kind} (directly or on all ${kind}s of its organization)`,
      flags: { search: { flag: '--search <text>', description: 'name or title contains' } },
      columns: 'integration',
      noun: 'integration',
      examples: [`docsctl ${kind} integrations ${example}`],
    },
  });
}

export const listSpaceIntegrations = integrationsOnRoute('space', '/v1/spaces/{spaceId}/integrations', pathParams('spaceId'), 'sp4c3');
export const listSiteIntegrations = integrationsOnRoute('site', '/v1/orgs/{organizationId}/sites/{siteId}/integrations', pathParams('organizationId', 'siteId'), 's1t3');

export const listSpaceIntegrationsBlocks = defineRoute({
  id: 'listSpaceIntegrationsBlocks',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/integration-blocks',
  summary: 'List the blocks of the integrations installed on a space',
  source: 'real-api',
  access: 'read',
  params: pathParams('spaceId'),
  query: noQuery(),
  cli: {
    command: 'space integration-blocks',
    summary: 'List the blocks the integrations installed on a space offer (one row per block, with the URLs it unfurls)',
    columns: 'integrationBlock',
    examples: ['docsctl space integration-blocks sp4c3', 'docsctl space integration-blocks sp4c3 --json'],
  },
});

export const queueIntegrationTask = defineRoute({
  id: 'queueIntegrationTask',
  method: 'POST',
  path: '/v1/integrations/{integrationName}/tasks',
  summary: 'Queue a task for an integration',
  source: 'real-api',
  access: 'none',
  params: integrationParams(),
  query: noQuery(),
  body: z.object({
    task: z.record(z.string(), z.unknown()).refine((value) => JSON.stringify(value).length <= 16_384, 'task: at most 16 KiB of JSON'),
    schedule: z.number().min(0).max(86_400).optional(),
  }),
  bodyRequired: true,
  success: 204,
  cli: {
    command: 'integration task',
    summary: 'Queue a task for an integration: recorded as a `task` event (docsctl runs no integration code)',
    flags: {
      task: { flag: '--task <json>', description: 'the task payload (a JSON object)', type: 'json', required: true },
      schedule: { flag: '--schedule <seconds>', description: 'seconds to wait before it runs (0 to 86400)' },
    },
    output: 'empty',
    columns: 'integrationEvent',
    examples: ['docsctl integration task slack --task \'{"type":"sync"}\''],
  },
});

// ─── Rendering an integration's UI (ContentKit) ────────────────────────────

/** Where a component renders (0.202 `ContentKitContext`): a document of a space, or an installation's configuration. */
const ContentKitContext = z
  .object({
    type: z.enum(['document', 'configuration_space', 'configuration_site', 'configuration_account', 'configuration_content_source']),
    theme: z.enum(['dark', 'light']).optional(),
    spaceId: z.string().min(1).optional(),
    siteId: z.string().min(1).optional(),
    organizationId: z.string().min(1).optional(),
    editable: z.boolean().optional(),
  })
  .catchall(z.unknown());

/** 0.202 `RenderIntegrationUI`: the component (a block id), its props and state, where it renders, and the action that re-renders it. */
const RenderIntegrationUI = z.object({
  componentId: z.string().min(1).max(100),
  props: z.record(z.string(), z.unknown()),
  state: z.record(z.string(), z.unknown()).optional(),
  context: ContentKitContext,
  action: z.object({ action: z.string().min(1).max(100) }).catchall(z.unknown()).optional(),
});

export const renderIntegrationUIWithPost = defineRoute({
  id: 'renderIntegrationUIWithPost',
  method: 'POST',
  path: '/v1/integrations/{integrationName}/render',
  summary: "Render a block of an integration installed where it renders (docsctl runs no integration code: the block's declaration decides)",
  source: 'real-api',
  // Any user; the handler checks that the caller can read where it renders and that the integration is installed there.
  access: 'none',
  safe: true,
  params: integrationParams(),
  query: noQuery(),
  body: RenderIntegrationUI,
  bodyRequired: true,
  cli: {
    command: 'integration render',
    summary: "Render a block of an integration as a space's documents would show it (a ContentKit element from the block's declaration)",
    flags: { componentId: { flag: '--block <blockId>', description: 'the block (its id in the integration)', required: true }, props: false, state: false, context: false, action: false },
    columns: 'renderedBlock',
    examples: ['docsctl integration render tickets --block ticket --space sp4c3 --prop id=42', 'docsctl integration render tickets --block ticket --space sp4c3 --url https://tickets.example/42 --json'],
  },
});

export const renderIntegrationUIWithGet = defineRoute({
  id: 'renderIntegrationUIWithGet',
  method: 'GET',
  path: '/v1/integrations/{integrationName}/render',
  summary: 'Render a block of an integration, the request given as LZ-string compressed JSON (cacheable)',
  source: 'real-api',
  access: 'none',
  params: integrationParams(),
  query: z.object({ request: z.string().min(1).max(65_536).describe('the RenderIntegrationUI body as JSON compressed by lz-string (compressToEncodedURIComponent)') }),
});
