/**
 * API doc §4.13 integrations: a catalog of published integrations (global,
 * keyed by name) and their installations.
 *
 * Rules decided here:
 * - docsctl runs no integration code and makes no network call: publishing
 *   stores what the manifest declares. Of the `script` it keeps the size and a
 *   SHA-256 (so a republish shows whether the code changed), of `secrets` only
 *   their names — secret values never reach the store's disk.
 * - Publishing needs `admin` in the publishing `organization` (an id or a
 *   hostname; 404 when it names no organization the caller belongs to). A name
 *   owned by another organization is a 409. Republishing bumps `version`.
 * - Unpublishing needs `admin` in the owner organization; the integration's
 *   installations go with it.
 * - Visibility: `public` integrations are listed for everyone; `unlisted` ones
 *   are readable by name but listed only for members of the owner organization;
 *   `private` ones are invisible (404) outside it.
 * - Installations are listed for admins of the owner organization (the real API
 *   wants the integration's own token, which docsctl does not issue).
 */
import { createHash } from 'node:crypto';
import { conflict, forbidden, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/integrations.js';
import type { StoreReader } from '../store/types.js';
import type { RouteInput } from '../api/route.js';
import { type Handler, type HandlerContext, deleted, implementer, nothingToDelete } from './handler.js';
import { type InstallationRecord, integrationInstallations, removeInstallation } from './integration-records.js';
import { dropEvents } from './integration-events.js';
import { countRows, itemsOf, paginate, rowsOf } from './pagination.js';
import { atLeast, roleIn } from './permissions.js';
import { type OrgRecord, Tables, getOrg, orgSpaceList } from './core-records.js';
import { apiUrl, appUrl } from './urls.js';
import { organizationView } from './views.js';

type Visibility = 'public' | 'private' | 'unlisted';
type Target = 'all' | 'site' | 'space' | 'organization';

export interface IntegrationRecord {
  name: string;
  owner: string;
  version: number;
  title: string;
  description: string;
  summary?: string;
  runtime: 'v1' | 'v2';
  visibility: Visibility;
  target: Target;
  scopes: string[];
  categories: string[];
  previewImages: string[];
  blocks: unknown[];
  contentSources: unknown[];
  externalLinks: Array<{ url: string; label: string }>;
  configurations?: Record<string, unknown>;
  contentSecurityPolicy?: unknown;
  hasIcon: boolean;
  script: { bytes: number; sha256: string };
  secretNames: string[];
  createdAt: string;
  updatedAt: string;
}

const INTEGRATIONS = 'integrations';
export const getIntegration = (tx: StoreReader, name: string) => tx.get<IntegrationRecord>(INTEGRATIONS, name);

/** The organization named by id or hostname, if the actor is a member. */
export function resolveOrg(tx: StoreReader, ref: string, userId: string): OrgRecord | undefined {
  const org = getOrg(tx, ref) ?? getOrg(tx, tx.get<string>(Tables.orgsByHostname, ref) ?? '');
  return org && roleIn(tx, org.id, userId) !== undefined ? org : undefined;
}

export const isOwnerMember = (tx: StoreReader, integration: IntegrationRecord, userId: string) =>
  roleIn(tx, integration.owner, userId) !== undefined;
export const isOwnerAdmin = (tx: StoreReader, integration: IntegrationRecord, userId: string) =>
  atLeast(roleIn(tx, integration.owner, userId) ?? null, 'admin');

export function visibleIntegration(tx: StoreReader, name: string, userId: string): IntegrationRecord {
  const integration = getIntegration(tx, name);
  if (!integration || (integration.visibility === 'private' && !isOwnerMember(tx, integration, userId))) {
    throw notFound(`Integration "${name}" not found`);
  }
  return integration;
}

export function integrationView(ctx: { origin: string; tx: StoreReader; actor: { userId: string } }, integration: IntegrationRecord) {
  const owner = getOrg(ctx.tx, integration.owner);
  if (!owner) throw new Error(`store inconsistency: integration ${integration.name} has no owner ${integration.owner}`);
  const name = encodeURIComponent(integration.name);
  return {
    object: 'integration' as const,
    name: integration.name,
    version: integration.version,
    title: integration.title,
    description: integration.description,
    ...(integration.summary !== undefined ? { summary: integration.summary } : {}),
    previewImages: integration.previewImages,
    target: integration.target,
    verified: false,
    visibility: integration.visibility,
    scopes: integration.scopes,
    categories: integration.categories,
    blocks: integration.blocks,
    contentSources: integration.contentSources,
    ...(integration.configurations !== undefined ? { configurations: integration.configurations } : {}),
    externalLinks: integration.externalLinks,
    owner: organizationView(ctx, owner, roleIn(ctx.tx, owner.id, ctx.actor.userId) ?? null),
    permissions: { admin: isOwnerAdmin(ctx.tx, integration, ctx.actor.userId) },
    urls: {
      location: apiUrl(ctx.origin, `integrations/${name}`),
      ...(integration.hasIcon ? { icon: apiUrl(ctx.origin, `integrations/${name}/icon`) } : {}),
      app: appUrl(ctx.origin, `integrations/${name}`),
      assets: apiUrl(ctx.origin, `integrations/${name}/assets`),
      publicEndpoint: apiUrl(ctx.origin, `integrations/${name}/public`),
      // 0.202: "equals publicEndpoint when no separate content origin is configured" (docsctl has none).
      publicContentEndpoint: apiUrl(ctx.origin, `integrations/${name}/public`),
    },
    ...(integration.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: integration.contentSecurityPolicy } : {}),
  };
}

export function installationView(ctx: { origin: string; tx: StoreReader }, integration: string, inst: InstallationRecord) {
  const origin = ctx.origin;
  const path = `integrations/${encodeURIComponent(integration)}/installations/${encodeURIComponent(inst.id)}`;
  return {
    id: inst.id,
    status: inst.status,
    space_selection: inst.space_selection,
    site_selection: inst.site_selection,
    // "Count of spaces the installation is managing": with all selected, every live space of its organization.
    spaces: inst.space_selection === 'all' ? orgSpaceList.count(ctx.tx, inst.organization) : inst.spaces,
    configuration: inst.configuration,
    createdAt: inst.createdAt,
    updatedAt: inst.updatedAt,
    urls: { location: apiUrl(origin, path), app: appUrl(origin, path), publicEndpoint: apiUrl(origin, `${path}/public`), publicContentEndpoint: apiUrl(origin, `${path}/public`) },
    externalIds: inst.externalIds,
    target: { organization: inst.organization },
  };
}

/** The catalog's query filters (listIntegrations, listOrganizationIntegrations). */
export type CatalogQuery = RouteInput<typeof routes.listIntegrations>['query'];

/**
 * A page of the published integrations `visible` keeps, filtered by the query. The catalog
 * is small (one row per published integration, not per installation): filtered whole.
 */
export function catalogPage(ctx: HandlerContext, query: CatalogQuery, visible: (integration: IntegrationRecord) => boolean) {
  const search = query.search?.toLowerCase();
  const matches = ctx.tx
    .scan<IntegrationRecord>(INTEGRATIONS, {})
    .map(([, integration]) => integration)
    .filter(visible)
    .filter((i) => !search || i.name.toLowerCase().includes(search) || i.title.toLowerCase().includes(search))
    .filter((i) => !query.category || i.categories.includes(query.category))
    .filter((i) => query.blocks === undefined || i.blocks.length > 0 === query.blocks)
    .filter((i) => query.contentSources === undefined || i.contentSources.length > 0 === query.contentSources)
    .filter((i) => !query.owner || i.owner === query.owner)
    .filter((i) => !query.scope || i.scopes.includes(query.scope))
    .filter((i) => !query.target || i.target === query.target || i.target === 'all')
    .filter((i) => !query.blockDomain || i.blocks.some((b) => blockUnfurls(b, query.blockDomain as string)));
  return paginate(itemsOf(matches), query, (integration) => integrationView(ctx, integration));
}

const on = implementer<typeof routes>();

export const integrationHandlers: Record<string, Handler> = {
  ...on('listIntegrations', (ctx, { query }) =>
    catalogPage(ctx, query, (i) => i.visibility === 'public' || isOwnerMember(ctx.tx, i, ctx.actor.userId)),
  ),

  ...on('getIntegrationByName', (ctx, { params }) =>
    integrationView(ctx, visibleIntegration(ctx.tx, params.integrationName, ctx.actor.userId)),
  ),

  ...on('publishIntegration', (ctx, { params, body }) => {
    const org = resolveOrg(ctx.tx, body.organization, ctx.actor.userId);
    if (!org) throw notFound(`Organization "${body.organization}" not found`);
    if (!atLeast(roleIn(ctx.tx, org.id, ctx.actor.userId) ?? null, 'admin')) {
      throw adminNeeded(org.id);
    }
    const previous = getIntegration(ctx.tx, params.integrationName);
    if (previous && previous.owner !== org.id) {
      throw conflict(`Integration name "${params.integrationName}" belongs to another organization: pick another name`);
    }
    const now = ctx.clock().toISOString();
    const integration: IntegrationRecord = {
      name: params.integrationName,
      owner: org.id,
      version: (previous?.version ?? 0) + 1,
      title: body.title,
      description: body.description,
      ...(body.summary !== undefined ? { summary: body.summary } : {}),
      runtime: body.runtime ?? 'v1',
      visibility: body.visibility ?? 'private',
      target: body.target ?? 'all',
      scopes: [...new Set(body.scopes)],
      categories: [...new Set(body.categories ?? [])],
      previewImages: (body.previewImages ?? []).map((_, index) =>
        apiUrl(ctx.origin, `integrations/${encodeURIComponent(params.integrationName)}/preview/${index}`),
      ),
      blocks: body.blocks ?? [],
      contentSources: body.contentSources ?? [],
      externalLinks: body.externalLinks ?? [],
      ...(body.configurations !== undefined ? { configurations: body.configurations } : {}),
      ...(body.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: body.contentSecurityPolicy } : {}),
      hasIcon: body.icon !== undefined && body.icon.length > 0,
      script: { bytes: Buffer.byteLength(body.script), sha256: createHash('sha256').update(body.script).digest('hex') },
      secretNames: Object.keys(body.secrets ?? {}).sort(),
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    ctx.tx.put(INTEGRATIONS, integration.name, integration);
    return integrationView(ctx, integration);
  }),

  ...on('unpublishIntegration', (ctx, { params }) => {
    const integration = getIntegration(ctx.tx, params.integrationName);
    if (!integration || !isOwnerMember(ctx.tx, integration, ctx.actor.userId)) return nothingToDelete();
    if (!isOwnerAdmin(ctx.tx, integration, ctx.actor.userId)) throw adminNeeded(integration.owner);
    for (const { value } of integrationInstallations.all(ctx.tx, integration.name)) removeInstallation(ctx.tx, integration.name, value);
    dropEvents(ctx.tx, integration.name);
    ctx.tx.delete(INTEGRATIONS, integration.name);
    return deleted();
  }),

  ...on('listIntegrationInstallations', (ctx, { params, query }) => {
    const integration = visibleIntegration(ctx.tx, params.integrationName, ctx.actor.userId);
    if (!isOwnerAdmin(ctx.tx, integration, ctx.actor.userId)) throw adminNeeded(integration.owner);
    const externalId = query.externalId;
    const view = (value: InstallationRecord) => installationView(ctx, integration.name, value);
    if (externalId === undefined) return integrationInstallations.page(ctx.tx, integration.name, query, ({ value }) => view(value));
    // Filtered by external id: the page reads past the rows it drops; the count reads the list.
    const prefix = `${integration.name}/`;
    const matches = (value: InstallationRecord) => value.externalIds.includes(externalId);
    const count = countRows<InstallationRecord>(ctx.tx, integrationInstallations.table, prefix, matches);
    return paginate(rowsOf<InstallationRecord>(ctx.tx, integrationInstallations.table, prefix), query, (value) => (matches(value) ? view(value) : undefined), count);
  }),
};

function blockUnfurls(block: unknown, domain: string): boolean {
  const unfurl = (block as { urlUnfurl?: unknown }).urlUnfurl;
  return Array.isArray(unfurl) && unfurl.some((pattern) => typeof pattern === 'string' && pattern.includes(domain));
}

export function adminNeeded(orgId: string) {
  return forbidden(
    `You need the "admin" role in organization ${orgId} to publish, unpublish or list the installations of its integrations`,
  );
}
