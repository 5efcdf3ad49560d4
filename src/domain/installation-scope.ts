/**
 * What an integration installation's token may call (createIntegrationInstallationToken),
 * checked by executeOperation before the route's own role check, for every route:
 *
 * - Nothing once it expired (1 hour) or once its installation was uninstalled: 401.
 * - Routes about a space (`{spaceId}`): only spaces the installation covers (installed
 *   on it, or all spaces of its organization selected), and only with a `space:` scope
 *   of the integration; a write needs a `space:…:write` scope (or `space:git:sync` for
 *   Git Sync). Any other space is a 404, as for someone who cannot see it.
 * - Routes about a site (`{siteId}`): likewise with sites and `site:` scopes.
 * - Routes of its own installation (`/integrations/{its name}/installations/{its id}…`):
 *   reads, and the PATCH of its configuration and external ids; never installing itself
 *   anywhere else or uninstalling.
 * - Everything else (organizations, collections, users, other integrations, publishing,
 *   tokens): 403.
 * Within that, the token acts with the role of the user who installed the integration
 * (the usual role check follows), so it never does more than its installer could.
 */
import { ApiError, forbidden, notFound } from '../api/errors.js';
import type { StoreReader } from '../store/types.js';
import { type InstallationTokenScope, getSpace } from './core-records.js';
import { coveringInstallationsOf, integrationInstallations } from './integration-records.js';
import { getSite } from './sites/site-records.js';

interface RouteFacts {
  id: string;
  method: string;
  safe?: boolean | undefined;
}

/** Configuring its own installation: the writes an installation token may make on integration routes. */
const OWN_INSTALLATION_WRITES = new Set(['updateIntegrationInstallation', 'updateIntegrationSpaceInstallation', 'updateIntegrationSiteInstallation']);
const GIT_SYNC_ROUTE = /git|Git/;

export function checkInstallationScope(
  reader: StoreReader,
  route: RouteFacts,
  params: Readonly<Record<string, unknown>>,
  scope: InstallationTokenScope,
  now: Date,
): void {
  if (Date.parse(scope.expiresAt) <= now.getTime()) {
    throw new ApiError(401, `This installation token expired at ${scope.expiresAt}`, {
      hint: `Create another: docsctl integration installation token ${scope.integration} ${scope.installationId}`,
    });
  }
  const installation = integrationInstallations.get(reader, scope.integration, scope.installationId);
  if (!installation) throw new ApiError(401, `This installation token's installation (${scope.installationId} of ${scope.integration}) was uninstalled`);
  const writes = route.method !== 'GET' && route.safe !== true;
  const outside = () =>
    forbidden(
      `An installation token of integration ${scope.integration} may only call the API for the spaces and sites its installation covers, and read or configure that installation: ${route.id} is outside it`,
    );

  if (typeof params.integrationName === 'string') {
    if (params.integrationName !== scope.integration || params.installationId !== scope.installationId) throw outside();
    if (writes && !OWN_INSTALLATION_WRITES.has(route.id)) throw outside();
    return;
  }
  const scopes = reader.get<{ scopes?: string[] }>('integrations', scope.integration)?.scopes ?? [];
  const covers = (kind: 'space' | 'site', orgId: string, id: string) =>
    orgId === installation.organization &&
    coveringInstallationsOf(reader, orgId, kind, id).some((found) => found.integration === scope.integration && found.installation === scope.installationId);
  const allowedBy = (kind: 'space' | 'site') =>
    scopes.some((s) => s.startsWith(`${kind}:`) && (!writes || s.endsWith(':write') || (s === 'space:git:sync' && GIT_SYNC_ROUTE.test(route.id))));

  if (typeof params.spaceId === 'string') {
    const space = getSpace(reader, params.spaceId);
    if (!space || !covers('space', space.organization, space.id)) throw notFound(`Space ${params.spaceId} not found`);
    if (!allowedBy('space')) throw missingScope(scope.integration, 'space', writes, route.id);
    return;
  }
  if (typeof params.siteId === 'string') {
    const site = getSite(reader, params.siteId);
    if (!site || params.organizationId !== site.organization || !covers('site', site.organization, site.id)) throw notFound(`Site ${params.siteId} not found`);
    if (!allowedBy('site')) throw missingScope(scope.integration, 'site', writes, route.id);
    return;
  }
  throw outside();
}

function missingScope(integration: string, kind: 'space' | 'site', writes: boolean, routeId: string) {
  return forbidden(
    `Integration ${integration} has no ${writes ? `${kind}:…:write` : `${kind}:…`} scope: its installation token may not call ${routeId} (republish it with the scope it needs)`,
  );
}
