/**
 * API doc §4.14 SAML SSO providers of an organization, and the SSO login list.
 *
 * Rules decided here:
 * - Creating, reading, editing and deleting providers needs `admin` (they hold
 *   the identity provider's certificate); any member may list the login options.
 * - `certificate` must be a PEM X.509 certificate (checked with node's own X.509
 *   parser, `crypto.X509Certificate`); an expired one is accepted (the identity
 *   provider may rotate it) but a malformed one is a 400.
 * - `status` is `active` once `ssoURL`, `entityID` and `certificate` are all set (until then
 *   they read as empty strings: the schema requires them and says nothing of a pending provider),
 *   `pending` before; only active providers appear in the login list.
 * - The `service` block (what the identity provider is configured with) is
 *   generated from the server's origin and the provider id.
 */
import { X509Certificate } from 'node:crypto';
import { badRequest, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/sso.js';
import type { StoreReader } from '../store/types.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from './handler.js';
import { KeyedSet, isKeyedId } from './ordered.js';
import { orgAccess } from './permissions.js';
import type { Role } from './core-records.js';
import { getTeam, teamView } from './teams-records.js';
import { apiUrl, appUrl } from './urls.js';

export interface SamlProviderRecord {
  id: string;
  label: string;
  ssoURL?: string;
  entityID?: string;
  certificate?: string;
  defaultTeam?: string;
  defaultRole: Role;
  createdAt: string;
}

export const orgSamlProviders = new KeyedSet<SamlProviderRecord>('orgSamlProviders');

/** The certificate if it is a PEM X.509 certificate, else a 400 saying what is wrong. */
export function checkCertificate(pem: string): string {
  const trimmed = pem.trim();
  if (!/^-----BEGIN CERTIFICATE-----\r?\n[\s\S]+\r?\n-----END CERTIFICATE-----$/.test(trimmed)) {
    throw badRequest('Invalid certificate: expected a PEM X.509 certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)');
  }
  try {
    new X509Certificate(trimmed);
  } catch (error) {
    throw badRequest(`Invalid certificate: ${(error as Error).message.replace(/^error:[0-9A-F]+:/i, '')}`);
  }
  return `${trimmed}\n`;
}

const isActive = (p: SamlProviderRecord) => Boolean(p.ssoURL && p.entityID && p.certificate);

function service(origin: string, orgId: string, providerId: string) {
  const path = `o/${encodeURIComponent(orgId)}/saml/${encodeURIComponent(providerId)}`;
  return { acsURL: appUrl(origin, `${path}/acs`), startURL: appUrl(origin, `${path}/start`), entityID: appUrl(origin, path) };
}

/** Who is reading a provider: the team of `defaultTeam` is shown with that caller's permissions. */
interface ProviderViewContext {
  tx: StoreReader;
  origin: string;
  role: Role;
  userId: string;
}

/** The provider's default team as the real schema has it (an `OrganizationTeam`), while it exists. */
function defaultTeamView(ctx: ProviderViewContext, orgId: string, teamId: string | undefined) {
  const team = teamId !== undefined ? getTeam(ctx.tx, teamId) : undefined;
  return team && team.organization === orgId ? { defaultTeam: teamView(ctx, team, ctx.role, ctx.userId) } : {};
}

const viewer = (ctx: { tx: StoreReader; origin: string; actor: { userId: string } }, role: Role): ProviderViewContext => ({
  tx: ctx.tx,
  origin: ctx.origin,
  role,
  userId: ctx.actor.userId,
});

function providerView(ctx: ProviderViewContext, orgId: string, p: SamlProviderRecord) {
  const { origin } = ctx;
  return {
    object: 'saml-provider' as const,
    id: p.id,
    label: p.label,
    // Required by the real schema; empty until the administrator sets them (status stays `pending`).
    ssoURL: p.ssoURL ?? '',
    entityID: p.entityID ?? '',
    certificate: p.certificate ?? '',
    // A team deleted since is left out (new SSO members then join no team).
    ...defaultTeamView(ctx, orgId, p.defaultTeam),
    defaultRole: p.defaultRole,
    createdAt: p.createdAt,
    status: isActive(p) ? ('active' as const) : ('pending' as const),
    service: service(origin, orgId, p.id),
    urls: { location: apiUrl(origin, `orgs/${encodeURIComponent(orgId)}/saml/${encodeURIComponent(p.id)}`) },
  };
}

function requireProvider(tx: StoreReader, orgId: string, id: string): SamlProviderRecord {
  const provider = isKeyedId(id) ? orgSamlProviders.get(tx, orgId, id) : undefined;
  if (!provider) throw notFound(`SAML provider ${id} not found in organization ${orgId}`);
  return provider;
}

interface SamlFields {
  label?: string | undefined;
  ssoURL?: string | undefined;
  entityID?: string | undefined;
  certificate?: string | undefined;
  defaultTeam?: string | undefined;
  defaultRole?: Role | undefined;
}

/** The fields of a body, checked, without the ones it leaves out. */
function checkedFields(tx: StoreReader, orgId: string, body: SamlFields): Partial<SamlProviderRecord> {
  const fields: Partial<SamlProviderRecord> = {};
  if (body.label !== undefined) fields.label = body.label;
  if (body.ssoURL !== undefined) fields.ssoURL = body.ssoURL;
  if (body.entityID !== undefined) fields.entityID = body.entityID;
  if (body.certificate !== undefined) fields.certificate = checkCertificate(body.certificate);
  if (body.defaultTeam !== undefined) {
    if (getTeam(tx, body.defaultTeam)?.organization !== orgId) {
      throw badRequest(`Invalid defaultTeam: ${body.defaultTeam} is not a team of organization ${orgId} (see "docsctl team list")`);
    }
    fields.defaultTeam = body.defaultTeam;
  }
  if (body.defaultRole !== undefined) fields.defaultRole = body.defaultRole;
  return fields;
}

const on = implementer<typeof routes>();

export const ssoHandlers: Record<string, Handler> = {
  ...on('listSAMLProvidersInOrganizationById', (ctx, { params, query }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return orgSamlProviders.page(ctx.tx, org.id, query, ({ value }) => providerView(viewer(ctx, role), org.id, value));
  }),

  ...on('createOrganizationSAMLProvider', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const provider: SamlProviderRecord = {
      id: ctx.ids(),
      label: body.label,
      defaultRole: 'read',
      ...checkedFields(ctx.tx, org.id, body),
      createdAt: ctx.clock().toISOString(),
    };
    orgSamlProviders.put(ctx.tx, org.id, provider.id, provider);
    const view = providerView(viewer(ctx, role), org.id, provider);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...on('getOrganizationSAMLProviderById', (ctx, { params }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return providerView(viewer(ctx, role), org.id, requireProvider(ctx.tx, org.id, params.samlProviderId));
  }),

  ...on('updateOrganizationSAMLProvider', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const provider = requireProvider(ctx.tx, org.id, params.samlProviderId);
    const fields = checkedFields(ctx.tx, org.id, body);
    if (Object.keys(fields).length === 0) {
      throw badRequest('Nothing to update: pass label, ssoURL, entityID, certificate, defaultTeam or defaultRole');
    }
    const updated: SamlProviderRecord = { ...provider, ...fields };
    orgSamlProviders.put(ctx.tx, org.id, provider.id, updated);
    return providerView(viewer(ctx, role), org.id, updated);
  }),

  ...on('deleteOrganizationSAMLProvider', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const id = params.samlProviderId;
    return isKeyedId(id) && orgSamlProviders.remove(ctx.tx, org.id, id) ? deleted() : nothingToDelete();
  }),

  ...on('listSSOProviderLoginsInOrganization', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    // An organization has a handful of providers: the login list is not paginated (API doc §4.14).
    const items = orgSamlProviders
      .all(ctx.tx, org.id)
      .filter(({ value }) => isActive(value))
      .map(({ value }) => ({ id: value.id, label: value.label, startURL: service(ctx.origin, org.id, value.id).startURL }));
    return { items };
  }),
};
