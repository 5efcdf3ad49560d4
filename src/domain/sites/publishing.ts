/**
 * How a published site meets its visitors (0.202): visitor authentication, preview URLs,
 * the scripts integrations inject, and conditions suggested by the visitor schema.
 *
 * Visitor authentication (`sitePublishingAuth`, one row per site): the backend that signs
 * visitor tokens (`custom`: the customer's own, with the site's private key; `integration`:
 * the authentication integration installed on the site), the fallback and logout URLs, and
 * the private key (32 random bytes, base64url). The row is written by the first update or
 * regeneration; until then a read is a 400 saying how to set it up (a read cannot invent a
 * key it would have to keep). Regenerating replaces the key: tokens signed with the old one
 * no longer verify. All three need `admin` (the key is a secret).
 *
 * Integration scripts: one per integration installed on the site (directly or on the
 * organization with every site selected) whose integration has the `site:script:inject`
 * scope; `cookies` when it also has `site:script:cookies`; its content security policy as
 * published. The script URL is where the integration platform serves the script of that
 * installation, versioned by the script's hash (docsctl runs no integration code itself).
 *
 * Template conditions: for each claim of the site's adaptive schema (adaptive.ts), the
 * expressions a section, site space or link condition would use (`visitor.claims.…`): a
 * boolean as is, each value of an enum, a number's presence, nested objects by path.
 */
import { randomBytes } from 'node:crypto';
import { badRequest } from '../../api/errors.js';
import type * as routes from '../../api/routes/site-publishing.js';
import type { StoreReader } from '../../store/types.js';
import { type Handler, implementer } from '../handler.js';
import { parseHttpUrl } from '../http-url.js';
import { coveringInstallationsOf } from '../integration-records.js';
import { getIntegration } from '../integrations.js';
import { apiUrl, appUrl } from '../urls.js';
import { siteAccess } from './access.js';
import { type AdaptiveSchemaRecord, type SiteRecord, SiteTables, requireSiteSpace } from './site-records.js';
import { siteBaseUrl } from './views.js';

const on = implementer<typeof routes>();
const seg = encodeURIComponent;

export interface PublishingAuthRecord {
  backend: 'custom' | 'integration';
  privateKey: string;
  fallbackURL?: string;
  logoutURL?: string;
  updatedAt: string;
}

const newPrivateKey = () => randomBytes(32).toString('base64url');

/** The authentication integration installed on the site, if any (the first by name). */
function authIntegration(tx: StoreReader, site: SiteRecord): string | undefined {
  for (const { integration } of coveringInstallationsOf(tx, site.organization, 'site', site.id)) {
    const record = getIntegration(tx, integration);
    if (record?.scopes.includes('site:visitor:auth')) return integration;
  }
  return undefined;
}

function authView(tx: StoreReader, site: SiteRecord, auth: PublishingAuthRecord) {
  const integration = authIntegration(tx, site);
  return {
    object: 'publishing-auth' as const,
    backend: auth.backend,
    privateKey: auth.privateKey,
    ...(auth.fallbackURL !== undefined ? { fallbackURL: auth.fallbackURL } : {}),
    ...(auth.logoutURL !== undefined ? { logoutURL: auth.logoutURL } : {}),
    ...(integration !== undefined ? { integration } : {}),
  };
}

const storedAuth = (tx: StoreReader, site: SiteRecord) => tx.get<PublishingAuthRecord>(SiteTables.publishingAuth, site.id);

/** A fallback or logout URL: absolute http(s), kept as parsed (never fetched). */
const checkedAuthUrl = (raw: string, field: string): string => {
  try {
    return parseHttpUrl(raw).href;
  } catch {
    throw badRequest(`Invalid body field "${field}": "${raw.slice(0, 100)}" is not an absolute http(s) URL`);
  }
};

/** The variant a preview opens: its path below the site's base, or '' for the default one. */
function previewPath(tx: StoreReader, site: SiteRecord, siteSpaceId: string | undefined, target: string | undefined): string {
  const parts: string[] = [];
  if (siteSpaceId !== undefined) parts.push(`siteSpace=${seg(requireSiteSpace(tx, site, siteSpaceId).id)}`);
  if (target !== undefined) {
    const base = siteBaseUrl(tx, site);
    let path: string;
    if (target.startsWith('/')) path = target;
    else if (target === base || target.startsWith(`${base}/`)) path = target.slice(base.length) || '/';
    else throw badRequest(`Invalid query field "target": give a path of the site (/guide/install) or one of its published URLs (${base}/…)`);
    if (/[\u0000-\u001f\u007f]/.test(path) || path.split(/[?#]/)[0]?.split('/').includes('..')) throw badRequest('Invalid query field "target": a path without control characters or ".." segments');
    parts.push(`target=${seg(path)}`);
  }
  return parts.join('&');
}

/** Template conditions of one claim, `path` the expression that reads it. */
function conditionsOf(path: string, claim: Record<string, unknown>, out: Array<{ description: string; condition: string }>): void {
  const description = typeof claim.description === 'string' ? claim.description : path;
  if (claim.type === 'boolean') {
    out.push({ description: `Visitors for whom "${description}" holds`, condition: path });
    out.push({ description: `Visitors for whom "${description}" does not hold`, condition: `!${path}` });
  } else if (claim.type === 'string' && Array.isArray(claim.enum)) {
    for (const value of claim.enum) if (typeof value === 'string') out.push({ description: `${description}: ${value}`, condition: `${path} === ${JSON.stringify(value)}` });
  } else if (claim.type === 'array' && Array.isArray((claim.items as { enum?: unknown } | undefined)?.enum)) {
    for (const value of (claim.items as { enum: unknown[] }).enum) {
      if (typeof value === 'string') out.push({ description: `${description} includes ${value}`, condition: `${path}?.includes(${JSON.stringify(value)})` });
    }
  } else if (claim.type === 'object' && claim.properties && typeof claim.properties === 'object') {
    for (const [name, nested] of Object.entries(claim.properties as Record<string, Record<string, unknown>>)) conditionsOf(`${path}.${name}`, nested, out);
  } else {
    out.push({ description: `Visitors who have "${description}"`, condition: `${path} != null` });
  }
}

/** The scripts the site's integrations inject (listSiteIntegrationScripts, and `scripts` of the published content). */
export function siteIntegrationScripts(tx: StoreReader, origin: string, site: SiteRecord) {
  const scripts: Array<{ script: string; contentSecurityPolicy?: string; cookies: boolean }> = [];
  for (const { integration, installation } of coveringInstallationsOf(tx, site.organization, 'site', site.id)) {
    const record = getIntegration(tx, integration);
    if (!record?.scopes.includes('site:script:inject')) continue;
    const csp = record.contentSecurityPolicy;
    const policy = typeof csp === 'string' ? csp : csp && typeof csp === 'object' ? Object.entries(csp as Record<string, string>).map(([k, v]) => `${k} ${v}`).join('; ') : undefined;
    scripts.push({
      script: apiUrl(origin, `integrations/${seg(integration)}/installations/${seg(installation)}/sites/${seg(site.id)}/script.js?v=${record.script.sha256.slice(0, 16)}`),
      ...(policy ? { contentSecurityPolicy: policy } : {}),
      cookies: record.scopes.includes('site:script:cookies'),
    });
  }
  return scripts;
}

/** At most this many suggestions (a schema of many enum values would make a long menu). */
const MAX_CONDITIONS = 200;

export const publishingHandlers: Record<string, Handler> = {
  ...on('getSitePublishingAuthById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const auth = storedAuth(ctx.tx, site);
    if (!auth) {
      throw badRequest(`Site ${site.id} has no visitor authentication set up: set its backend first (docsctl site auth edit ${site.id} --backend custom)`);
    }
    return authView(ctx.tx, site, auth);
  }),

  ...on('updateSitePublishingAuthById', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    if (body.backend === 'integration' && authIntegration(ctx.tx, site) === undefined) {
      throw badRequest(`Site ${site.id} has no authentication integration installed (one with the site:visitor:auth scope): install one, or use --backend custom`);
    }
    const current = storedAuth(ctx.tx, site);
    const next: PublishingAuthRecord = { ...(current ?? { privateKey: newPrivateKey() }), backend: body.backend, updatedAt: ctx.clock().toISOString() };
    for (const field of ['fallbackURL', 'logoutURL'] as const) {
      const value = body[field];
      if (value === null) delete next[field];
      else if (value !== undefined) next[field] = checkedAuthUrl(value, field);
    }
    ctx.tx.put(SiteTables.publishingAuth, site.id, next);
    return authView(ctx.tx, site, next);
  }),

  ...on('regenerateSitePublishingAuthById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const current = storedAuth(ctx.tx, site);
    const next: PublishingAuthRecord = { ...(current ?? { backend: 'custom' as const }), privateKey: newPrivateKey(), updatedAt: ctx.clock().toISOString() };
    ctx.tx.put(SiteTables.publishingAuth, site.id, next);
    return authView(ctx.tx, site, next);
  }),

  ...on('getSitePublishingPreviewById', (ctx, { params, query }) => {
    const { site } = siteAccess(ctx, params);
    const search = [previewPath(ctx.tx, site, query.siteSpace, query.target)];
    if (query.draft === false) search.push('draft=false');
    if (query.claims !== undefined) search.push(`claims=${seg(query.claims)}`);
    const qs = search.filter((part) => part !== '').join('&');
    return { url: `${appUrl(ctx.origin, `o/${seg(site.organization)}/sites/${seg(site.id)}/preview`)}${qs ? `?${qs}` : ''}` };
  }),

  ...on('listSiteIntegrationScripts', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    return siteIntegrationScripts(ctx.tx, ctx.origin, site);
  }),

  ...on('listSiteAdaptiveTemplateConditions', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const schema = ctx.tx.get<AdaptiveSchemaRecord>(SiteTables.adaptiveSchemas, site.id);
    const items: Array<{ description: string; condition: string }> = [];
    const properties = (schema?.jsonSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [name, claim] of Object.entries(properties)) conditionsOf(`visitor.claims.${name}`, claim, items);
    return { items: items.slice(0, MAX_CONDITIONS) };
  }),
};
