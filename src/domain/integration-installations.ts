/**
 * Installations of published integrations (0.202): on an organization, then on its
 * spaces and sites; installation tokens; events; development mode; the listings by
 * organization, space and site. Tables: integration-records.ts; events:
 * integration-events.ts; what an installation token may reach: installation-scope.ts.
 *
 * Rules decided here:
 * - Installing needs `admin` in the organization it goes to; an integration is
 *   installed once per organization, a space or site once per installation: installing
 *   again answers the installation there is (200 instead of 201, nothing written), so a
 *   script can re-run it. A `private` integration installs only in the organization
 *   that publishes it.
 * - An installation is read, listed, configured (`externalIds`, `configuration`,
 *   selections) and given tokens by admins of its organization or of the integration's
 *   publisher (the developer: the real API lets the integration itself do it, and
 *   docsctl issues no integration tokens); installing it on spaces and sites and
 *   uninstalling need `admin` in its own organization. Anyone else gets 404 for it.
 * - A space or site installation is on a live space or site of the installation's
 *   organization, and only when the integration's `target` allows it (`all`, or that
 *   kind). `space_selection: all` covers every space of the organization (its events,
 *   `listSpaceIntegrations`), without a row per space.
 * - The integration-wide listings (`/integrations/{name}/spaces|sites|events`) are for
 *   admins of its publisher, as `listIntegrationInstallations`.
 * - Development mode is recorded (tunnel URL, `all`, who, when); docsctl dispatches no
 *   events to it.
 */
import { type ApiError, badRequest, forbidden, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/integrations.js';
import type { StoreReader } from '../store/types.js';
import { newToken } from '../util/ids.js';
import { hashToken } from './auth.js';
import { type Role, type SpaceRecord, type TokenRecord, Tables, getSpace } from './core-records.js';
import { type Handler, type HandlerContext, Reply, deleted, implementer, nothingToDelete } from './handler.js';
import { getEvent, listEvents, recordEvent } from './integration-events.js';
import {
  type ContentInstallationRecord,
  type ContentKind,
  type InstallationRecord,
  INSTALLED_TARGETS_TABLE,
  addContentInstallation,
  addTarget,
  contentCount,
  contentTables,
  coveringInstallations,
  coveringInstallationsOf,
  getContentInstallation,
  installationPrefix,
  integrationInstallations,
  orgInstallationId,
  parseTarget,
  putContentInstallation,
  removeContentInstallation,
  removeInstallation,
  targetPrefix,
} from './integration-records.js';
import {
  type IntegrationRecord,
  adminNeeded,
  catalogPage,
  getIntegration,
  installationView,
  integrationView,
  isOwnerAdmin,
  resolveOrg,
  visibleIntegration,
} from './integrations.js';
import { countRows, itemsOf, paginate, rowsOf } from './pagination.js';
import { atLeast, orgAccess, roleIn } from './permissions.js';
import { getSite } from './sites/site-records.js';
import { siteAccess } from './sites/access.js';
import { siteView } from './sites/views.js';
import { apiUrl } from './urls.js';
import { spaceView } from './views.js';

/** How long an installation token works (the real API's are temporary too). */
export const INSTALLATION_TOKEN_TTL_MS = 60 * 60 * 1000;
const DEV_MODE = 'integrationDevMode';

const now = (ctx: HandlerContext) => ctx.clock().toISOString();
const path = (integration: string, ...parts: string[]) =>
  ['integrations', integration, ...parts].map((part) => encodeURIComponent(part)).join('/');

// ─── Who may do what with an installation ──────────────────────────────────

interface Found {
  integration: IntegrationRecord;
  installation: InstallationRecord;
}

/**
 * The installation and its integration when the caller may `view` it (admin of its
 * organization or of the publisher) or `manage` it (admin of its organization); 404
 * when the caller is neither a member there nor a publisher's admin.
 */
function installationFor(ctx: HandlerContext, name: string, installationId: string, need: 'view' | 'manage'): Found {
  const userId = ctx.actor.userId;
  const integration = getIntegration(ctx.tx, name);
  const installation = integration ? integrationInstallations.get(ctx.tx, name, installationId) : undefined;
  const role = installation ? roleIn(ctx.tx, installation.organization, userId) : undefined;
  const publisher = integration !== undefined && isOwnerAdmin(ctx.tx, integration, userId);
  if (!integration || !installation || (role === undefined && !publisher)) {
    throw notFound(`Installation ${installationId} of integration ${name} not found`);
  }
  const orgAdmin = atLeast(role ?? null, 'admin');
  if (need === 'manage' ? !orgAdmin : !(orgAdmin || publisher)) {
    throw forbidden(
      need === 'manage'
        ? `You need the "admin" role in organization ${installation.organization} to change where integration ${name} is installed (your role: ${role ?? 'none'})`
        : `You need the "admin" role in organization ${installation.organization}, or in the organization publishing ${name}, to read or configure its installation`,
    );
  }
  return { integration, installation };
}

/** Integration-wide reads (all installations, events, dev mode) are for the publisher's admins. */
function publishedBy(ctx: HandlerContext, name: string): IntegrationRecord {
  const integration = visibleIntegration(ctx.tx, name, ctx.actor.userId);
  if (!isOwnerAdmin(ctx.tx, integration, ctx.actor.userId)) throw adminNeeded(integration.owner);
  return integration;
}

function putInstallation(ctx: HandlerContext, name: string, record: InstallationRecord): void {
  integrationInstallations.put(ctx.tx, name, record.id, record);
}

// ─── Space and site installations, one code for both kinds ─────────────────

const KIND_FIELD = { space: 'spaces', site: 'sites' } as const;

/** The live space or site `id` of organization `orgId` (404 otherwise). */
function requireTarget(tx: StoreReader, kind: ContentKind, orgId: string, id: string): SpaceRecord | { organization: string; id: string } {
  const target = kind === 'space' ? getSpace(tx, id) : getSite(tx, id);
  const gone = target !== undefined && 'deletedAt' in target && target.deletedAt !== undefined;
  if (!target || target.organization !== orgId || gone) throw notFound(`${kind === 'space' ? 'Space' : 'Site'} ${id} not found in organization ${orgId}`);
  return target;
}

function contentView(ctx: HandlerContext, kind: ContentKind, record: ContentInstallationRecord, extended: boolean | undefined) {
  const installationPath = path(record.integration, 'installations', record.installation);
  const publicEndpoint = apiUrl(ctx.origin, `${installationPath}/public`);
  const base = {
    integration: record.integration,
    installation: record.installation,
    status: record.status,
    configuration: record.configuration,
    externalIds: record.externalIds,
    urls: { location: apiUrl(ctx.origin, `${installationPath}/${kind}s/${encodeURIComponent(record.target)}`), publicEndpoint, publicContentEndpoint: publicEndpoint },
  };
  const object = extended ? targetObject(ctx, kind, record.target) : undefined;
  return kind === 'space' ? { ...base, space: object ?? record.target } : { ...base, site: object ?? record.target };
}

/** The whole space or site (`extended`), seen with the caller's role; undefined when it is gone. */
function targetObject(ctx: HandlerContext, kind: ContentKind, id: string) {
  const target = kind === 'space' ? getSpace(ctx.tx, id) : getSite(ctx.tx, id);
  if (!target) return undefined;
  const role: Role = roleIn(ctx.tx, target.organization, ctx.actor.userId) ?? null;
  return kind === 'space' ? spaceView(ctx, target as SpaceRecord, role) : siteView({ tx: ctx.tx, origin: ctx.origin, role }, target as ReturnType<typeof getSite> & object);
}

const setupEvent = (kind: ContentKind) => (kind === 'space' ? 'space_installation_setup' : 'site_installation_setup');
const targetField = (kind: ContentKind) => (kind === 'space' ? 'spaceId' : 'siteId');

function installOn(ctx: HandlerContext, kind: ContentKind, name: string, installationId: string, targetId: string, extended: boolean | undefined) {
  const { integration, installation } = installationFor(ctx, name, installationId, 'manage');
  if (integration.target !== 'all' && integration.target !== kind) {
    throw badRequest(`Integration ${name} is installed on ${integration.target === 'organization' ? 'organizations' : `${integration.target}s`} only (its target), not on a ${kind}`);
  }
  const target = requireTarget(ctx.tx, kind, installation.organization, targetId);
  const existing = getContentInstallation(ctx.tx, kind, name, installation.id, target.id);
  if (existing) return new Reply(200, contentView(ctx, kind, existing, extended)); // already there: re-runnable
  const record: ContentInstallationRecord = {
    integration: name,
    installation: installation.id,
    target: target.id,
    status: 'active',
    configuration: {},
    externalIds: [],
    createdAt: now(ctx),
    updatedAt: now(ctx),
  };
  addContentInstallation(ctx.tx, kind, installation.organization, record);
  const field = KIND_FIELD[kind];
  putInstallation(ctx, name, { ...installation, [field]: (installation[field] ?? 0) + 1 });
  recordEvent(ctx, ctx.tx, name, { type: setupEvent(kind), installationId: installation.id, [targetField(kind)]: target.id, status: 'active' });
  return new Reply(201, contentView(ctx, kind, record, extended));
}

function contentInstallationFor(ctx: HandlerContext, kind: ContentKind, name: string, installationId: string, targetId: string, need: 'view' | 'manage') {
  const found = installationFor(ctx, name, installationId, need);
  const record = getContentInstallation(ctx.tx, kind, name, found.installation.id, targetId);
  if (!record) throw notFound(`Integration ${name} (installation ${installationId}) is not installed on ${kind} ${targetId}`);
  return { ...found, record };
}

function updateOn(ctx: HandlerContext, kind: ContentKind, params: { integrationName: string; installationId: string }, targetId: string, body: ContentChange, extended: boolean | undefined) {
  const { record } = contentInstallationFor(ctx, kind, params.integrationName, params.installationId, targetId, 'view');
  const updated: ContentInstallationRecord = {
    ...record,
    ...(body.externalIds !== undefined ? { externalIds: [...new Set(body.externalIds)] } : {}),
    ...(body.configuration !== undefined ? { configuration: body.configuration } : {}),
    updatedAt: now(ctx),
  };
  putContentInstallation(ctx.tx, kind, updated);
  recordEvent(ctx, ctx.tx, record.integration, {
    type: setupEvent(kind),
    installationId: record.installation,
    [targetField(kind)]: record.target,
    status: updated.status,
    previous: { status: record.status, configuration: record.configuration },
  });
  return contentView(ctx, kind, updated, extended);
}

function uninstallFrom(ctx: HandlerContext, kind: ContentKind, name: string, installationId: string, targetId: string) {
  let found: Found;
  try {
    found = installationFor(ctx, name, installationId, 'manage');
  } catch (error) {
    if ((error as ApiError).status === 404) return nothingToDelete(); // nothing the caller can see
    throw error;
  }
  const { installation } = found;
  const record = getContentInstallation(ctx.tx, kind, name, installation.id, targetId);
  if (!record) return nothingToDelete();
  recordEvent(ctx, ctx.tx, name, {
    type: kind === 'space' ? 'space_installation_deleted' : 'site_installation_deleted',
    installationId: installation.id,
    [targetField(kind)]: record.target,
    previous: { configuration: record.configuration },
  });
  removeContentInstallation(ctx.tx, kind, installation.organization, name, installation.id, record.target);
  const field = KIND_FIELD[kind];
  putInstallation(ctx, name, { ...installation, [field]: Math.max(0, (installation[field] ?? 0) - 1) });
  return deleted();
}

function listOfInstallation(ctx: HandlerContext, kind: ContentKind, params: { integrationName: string; installationId: string }, query: ContentListQuery) {
  const { installation } = installationFor(ctx, params.integrationName, params.installationId, 'view');
  const source = rowsOf<ContentInstallationRecord>(ctx.tx, contentTables[kind], installationPrefix(params.integrationName, installation.id));
  return paginate(source, query, (record) => contentView(ctx, kind, record, query.extended), installation[KIND_FIELD[kind]] ?? 0);
}

function listOfIntegration(ctx: HandlerContext, kind: ContentKind, name: string, query: ContentListQuery & { externalId?: string | undefined }) {
  const integration = publishedBy(ctx, name);
  const prefix = `${integration.name}/`;
  const table = contentTables[kind];
  const externalId = query.externalId;
  if (externalId === undefined) {
    return paginate(rowsOf<ContentInstallationRecord>(ctx.tx, table, prefix), query, (record) => contentView(ctx, kind, record, query.extended), contentCount(ctx.tx, kind, integration.name));
  }
  const matches = (record: ContentInstallationRecord) => record.externalIds.includes(externalId);
  const count = countRows<ContentInstallationRecord>(ctx.tx, table, prefix, matches);
  return paginate(rowsOf<ContentInstallationRecord>(ctx.tx, table, prefix), query, (record) => (matches(record) ? contentView(ctx, kind, record, query.extended) : undefined), count);
}

type ContentChange = { externalIds?: string[] | undefined; configuration?: Record<string, unknown> | undefined };
type ContentListQuery = { page?: string | undefined; limit?: number | undefined; extended?: boolean | undefined };

/** The integrations installed on a space or site (directly, or on all of its organization's), filtered by name or title. */
function integrationsOn(ctx: HandlerContext, kind: ContentKind, orgId: string, targetId: string, query: ContentListQuery & { search?: string | undefined }) {
  const search = query.search?.toLowerCase();
  const integrations = coveringInstallationsOf(ctx.tx, orgId, kind, targetId)
    .map(({ integration }) => getIntegration(ctx.tx, integration))
    .filter((i): i is IntegrationRecord => i !== undefined)
    .filter((i) => !search || i.name.toLowerCase().includes(search) || i.title.toLowerCase().includes(search));
  return paginate(itemsOf(integrations), query, (integration) => integrationView(ctx, integration));
}

// ─── Handlers ──────────────────────────────────────────────────────────────

const on = implementer<typeof routes>();

export const installationHandlers: Record<string, Handler> = {
  ...on('installIntegration', (ctx, { params, body }) => {
    const userId = ctx.actor.userId;
    const integration = visibleIntegration(ctx.tx, params.integrationName, userId);
    const org = resolveOrg(ctx.tx, body.organization, userId);
    if (!org) throw notFound(`Organization "${body.organization}" not found`);
    const role = roleIn(ctx.tx, org.id, userId) ?? null;
    if (!atLeast(role, 'admin')) {
      throw forbidden(`You need the "admin" role in organization ${org.id} to install integrations there (your role: ${role ?? 'guest'})`);
    }
    if (integration.visibility === 'private' && integration.owner !== org.id) {
      throw forbidden(`Integration ${integration.name} is private to organization ${integration.owner}: it cannot be installed on ${org.id}`);
    }
    // Installed already: the same installation again (200, nothing written), so a script can re-run the command.
    const existingId = orgInstallationId(ctx.tx, org.id, integration.name);
    const existing = existingId === undefined ? undefined : integrationInstallations.get(ctx.tx, integration.name, existingId);
    if (existing) return new Reply(200, installationView(ctx, integration.name, existing));
    const record: InstallationRecord = {
      id: ctx.ids(),
      organization: org.id,
      status: 'active',
      space_selection: 'selected',
      site_selection: 'selected',
      spaces: 0,
      sites: 0,
      configuration: {},
      externalIds: [],
      installedBy: userId,
      createdAt: now(ctx),
      updatedAt: now(ctx),
    };
    putInstallation(ctx, integration.name, record);
    addTarget(ctx.tx, org.id, 'organization', org.id, integration.name, record.id);
    recordEvent(ctx, ctx.tx, integration.name, { type: 'installation_setup', installationId: record.id, status: record.status });
    return installationView(ctx, integration.name, record);
  }),

  ...on('getIntegrationInstallationById', (ctx, { params }) => {
    const { installation } = installationFor(ctx, params.integrationName, params.installationId, 'view');
    return installationView(ctx, params.integrationName, installation);
  }),

  ...on('updateIntegrationInstallation', (ctx, { params, body }) => {
    const { installation } = installationFor(ctx, params.integrationName, params.installationId, 'view');
    const updated: InstallationRecord = {
      ...installation,
      ...(body.externalIds !== undefined ? { externalIds: [...new Set(body.externalIds)] } : {}),
      ...(body.configuration !== undefined ? { configuration: body.configuration } : {}),
      ...(body.space_selection !== undefined ? { space_selection: body.space_selection } : {}),
      ...(body.site_selection !== undefined ? { site_selection: body.site_selection } : {}),
      updatedAt: now(ctx),
    };
    putInstallation(ctx, params.integrationName, updated);
    recordEvent(ctx, ctx.tx, params.integrationName, {
      type: 'installation_setup',
      installationId: installation.id,
      status: updated.status,
      previous: { status: installation.status, configuration: installation.configuration },
    });
    return installationView(ctx, params.integrationName, updated);
  }),

  ...on('uninstallIntegration', (ctx, { params }) => {
    let found: Found;
    try {
      found = installationFor(ctx, params.integrationName, params.installationId, 'manage');
    } catch (error) {
      if ((error as ApiError).status === 404) return nothingToDelete();
      throw error;
    }
    const { installation } = found;
    recordEvent(ctx, ctx.tx, params.integrationName, {
      type: 'installation_deleted',
      installationId: installation.id,
      previous: { configuration: installation.configuration },
    });
    removeInstallation(ctx.tx, params.integrationName, installation);
    return deleted();
  }),

  ...on('createIntegrationInstallationToken', (ctx, { params }) => {
    const { installation } = installationFor(ctx, params.integrationName, params.installationId, 'view');
    const token = newToken();
    const record: TokenRecord = {
      // It acts with its installer's role, narrowed to what the installation covers (installation-scope.ts).
      userId: installation.installedBy ?? ctx.actor.userId,
      createdAt: now(ctx),
      label: `integration ${params.integrationName} installation ${installation.id}`,
      installation: {
        integration: params.integrationName,
        installationId: installation.id,
        expiresAt: new Date(ctx.clock().getTime() + INSTALLATION_TOKEN_TTL_MS).toISOString(),
      },
    };
    ctx.tx.put(Tables.tokens, hashToken(token), record);
    return { token };
  }),

  ...on('listIntegrationInstallationSpaces', (ctx, { params, query }) => listOfInstallation(ctx, 'space', params, query)),
  ...on('listIntegrationInstallationSites', (ctx, { params, query }) => listOfInstallation(ctx, 'site', params, query)),
  ...on('installIntegrationOnSpace', (ctx, { params, query, body }) => installOn(ctx, 'space', params.integrationName, params.installationId, body.space, query.extended)),
  ...on('installIntegrationOnSite', (ctx, { params, query, body }) => installOn(ctx, 'site', params.integrationName, params.installationId, body.siteId, query.extended)),
  ...on('getIntegrationSpaceInstallation', (ctx, { params, query }) =>
    contentView(ctx, 'space', contentInstallationFor(ctx, 'space', params.integrationName, params.installationId, params.spaceId, 'view').record, query.extended),
  ),
  ...on('getIntegrationSiteInstallation', (ctx, { params, query }) =>
    contentView(ctx, 'site', contentInstallationFor(ctx, 'site', params.integrationName, params.installationId, params.siteId, 'view').record, query.extended),
  ),
  ...on('updateIntegrationSpaceInstallation', (ctx, { params, query, body }) => updateOn(ctx, 'space', params, params.spaceId, body, query.extended)),
  ...on('updateIntegrationSiteInstallation', (ctx, { params, query, body }) => updateOn(ctx, 'site', params, params.siteId, body, query.extended)),
  ...on('uninstallIntegrationFromSpace', (ctx, { params }) => uninstallFrom(ctx, 'space', params.integrationName, params.installationId, params.spaceId)),
  ...on('uninstallIntegrationFromSite', (ctx, { params }) => uninstallFrom(ctx, 'site', params.integrationName, params.installationId, params.siteId)),
  ...on('listIntegrationSpaceInstallations', (ctx, { params, query }) => listOfIntegration(ctx, 'space', params.integrationName, query)),
  ...on('listIntegrationSiteInstallations', (ctx, { params, query }) => listOfIntegration(ctx, 'site', params.integrationName, query)),

  ...on('listIntegrationEvents', (ctx, { params, query }) => listEvents(ctx.tx, publishedBy(ctx, params.integrationName).name, query)),
  ...on('getIntegrationEvent', (ctx, { params }) => getEvent(ctx.tx, publishedBy(ctx, params.integrationName).name, params.eventId)),

  ...on('setIntegrationDevelopmentMode', (ctx, { params, body }) => {
    const integration = publishedBy(ctx, params.integrationName);
    ctx.tx.put(DEV_MODE, integration.name, { tunnelUrl: body.tunnelUrl, all: body.all ?? false, by: ctx.actor.userId, since: now(ctx) });
    return new Reply(204);
  }),

  ...on('disableIntegrationDevelopmentMode', (ctx, { params }) => {
    const integration = publishedBy(ctx, params.integrationName);
    ctx.tx.delete(DEV_MODE, integration.name);
    return new Reply(205);
  }),

  ...on('queueIntegrationTask', (ctx, { params, body }) => {
    const integration = publishedBy(ctx, params.integrationName);
    recordEvent(ctx, ctx.tx, integration.name, { type: 'task', task: body.task });
    return new Reply(204);
  }),

  ...on('listOrganizationIntegrations', (ctx, { params, query }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    // Public integrations, and the organization's own whatever their visibility ("trusted by the organization").
    return catalogPage(ctx, query, (i) => i.visibility === 'public' || i.owner === org.id);
  }),

  ...on('listOrganizationInstallations', (ctx, { params, query }) => {
    orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const search = query.search?.toLowerCase();
    const prefix = targetPrefix(params.organizationId, 'organization', params.organizationId);
    const item = (installationId: string, key: string) => {
      const integration = getIntegration(ctx.tx, key);
      const installation = integration && integrationInstallations.get(ctx.tx, integration.name, installationId);
      if (!integration || !installation) return undefined;
      if (search && !integration.name.toLowerCase().includes(search) && !integration.title.toLowerCase().includes(search)) return undefined;
      return { integration: integrationView(ctx, integration), installation: installationView(ctx, integration.name, installation) };
    };
    const count = countRows<string>(ctx.tx, INSTALLED_TARGETS_TABLE, prefix, (installationId, key) => item(installationId, key) !== undefined);
    return paginate(rowsOf<string>(ctx.tx, INSTALLED_TARGETS_TABLE, prefix), query, item, count);
  }),

  ...on('getOrganizationIntegrationStatus', (ctx, { params }) => {
    orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const integration = visibleIntegration(ctx.tx, params.integrationName, ctx.actor.userId);
    const installationId = orgInstallationId(ctx.tx, params.organizationId, integration.name);
    const installation = installationId === undefined ? undefined : integrationInstallations.get(ctx.tx, integration.name, installationId);
    if (!installation) {
      throw notFound(`Integration ${integration.name} is not installed on organization ${params.organizationId}: install it with docsctl integration install ${integration.name} --organization ${params.organizationId}`);
    }
    return { status: installation.status };
  }),

  ...on('listOrganizationIntegrationsStatus', (ctx, { params, query }) => {
    const orgId = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId).org.id;
    if (query.site !== undefined && query.space !== undefined) throw badRequest('Pass site or space, not both');
    const type = query.space !== undefined ? 'space' : query.site !== undefined ? 'site' : query.target;
    if (query.target !== undefined && type !== query.target) throw badRequest(`target=${query.target} does not match the ${type} filter: pass one of them`);
    const prefix = targetPrefix(orgId, type, query.space ?? query.site);
    const item = (installationId: string, key: string) => {
      const target = parseTarget(`${prefix}${key}`, installationId);
      const integration = getIntegration(ctx.tx, target.integration);
      const installation = integration && integrationInstallations.get(ctx.tx, integration.name, installationId);
      if (!integration || !installation) return undefined;
      const on =
        target.type === 'organization'
          ? { type: 'organization' as const, organizationId: target.target }
          : target.type === 'space'
            ? { type: 'space' as const, spaceId: target.target }
            : { type: 'site' as const, siteId: target.target };
      return { status: installation.status, integration: integrationView(ctx, integration), target: on };
    };
    return paginate(rowsOf<string>(ctx.tx, INSTALLED_TARGETS_TABLE, prefix), query, item, countRows(ctx.tx, INSTALLED_TARGETS_TABLE, prefix));
  }),

  ...on('listSpaceIntegrations', (ctx, { params, query }) => {
    const space = getSpace(ctx.tx, params.spaceId);
    if (!space || space.deletedAt !== undefined) throw notFound(`Space ${params.spaceId} not found`);
    return integrationsOn(ctx, 'space', space.organization, space.id, query);
  }),

  // One entry per integration covering the space (installed on it, or on all spaces of its organization) that has blocks.
  ...on('listSpaceIntegrationsBlocks', (ctx, { params }) => {
    const space = getSpace(ctx.tx, params.spaceId);
    if (!space || space.deletedAt !== undefined) throw notFound(`Space ${params.spaceId} not found`);
    return coveringInstallations(ctx.tx, space).flatMap(({ integration: name }) => {
      const blocks = getIntegration(ctx.tx, name)?.blocks ?? [];
      return blocks.length > 0 ? [{ name, blocks }] : [];
    });
  }),

  ...on('listSiteIntegrations', (ctx, { params, query }) => {
    const { site } = siteAccess(ctx, params);
    return integrationsOn(ctx, 'site', site.organization, site.id, query);
  }),
};

/** For tests and tools: the development mode recorded for an integration. */
export function developmentMode(tx: StoreReader, integration: string) {
  return tx.get<{ tunnelUrl: string; all: boolean; by: string; since: string }>(DEV_MODE, integration);
}

