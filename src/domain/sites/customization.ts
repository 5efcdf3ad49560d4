/**
 * Site customization: the real API's `SiteCustomizationSettings` of a site, and the
 * overrides one site space makes of them.
 *
 * - A site never customized answers `DEFAULT_CUSTOMIZATIONS` (published.ts: a complete
 *   settings object, the real schema requires every group). PUT replaces the settings whole, after ajv
 *   checks them against the real shape (`customization-schema.ts`, generated from
 *   @gitbook/api by scripts/gen-customization-schema.mjs); what was sent is what is
 *   stored and answered. URLs must be http(s) or mailto (no `javascript:` logo).
 * - A site space's settings are the site's with its overrides applied
 *   (`hasOverrides` says whether it has any). PATCH merges an override into the stored
 *   ones: groups of settings (`styling`, `styling.sidebar`, `pdf`…) merge key by key,
 *   values (a color, a favicon, the header links, the announcement) replace, and `null`
 *   removes that override (back to the site's value). DELETE removes them all (205; 204
 *   when there were none).
 * - Reads need `read`, changes `admin`, as the other site routes. A site's row goes
 *   with the site, a site space's with the site space.
 * - The published view (`getPublishedContentSite`) carries the site's settings and
 *   those of each site space with overrides (`publishedCustomizations`).
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { badRequest } from '../../api/errors.js';
import type * as routes from '../../api/routes/sites.js';
import type { StoreReader } from '../../store/types.js';
import { loadAjv } from '../../util/load-ajv.js';
import { type Handler, deleted, implementer, nothingToDelete } from '../handler.js';
import { siteAccess } from './access.js';
import { CUSTOMIZATION_DEFINITIONS } from './customization-schema.js';
import { DEFAULT_CUSTOMIZATIONS } from './published.js';
import { type SiteRecord, SiteTables, getSiteSpace, requireSiteSpace, siteSpacesOfSite } from './site-records.js';

type Settings = Record<string, unknown>;

// ─── Checks (ajv, loaded outside the writer lock by `prepare`) ─────────────

export interface CustomizationChecks {
  settings(value: unknown): void;
  override(value: unknown): void;
}

/** A link a published site may render: http(s) or mailto, nothing a browser would run. */
function isLinkUrl(value: string): boolean {
  try {
    return ['https:', 'http:', 'mailto:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'it does not have the expected shape';
  const where = error.instancePath === '' ? 'the body' : error.instancePath.slice(1).replace(/\//g, '.');
  const params = error.params as { allowedValues?: unknown[]; additionalProperty?: string; format?: string };
  const extra = params.allowedValues
    ? ` (${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')})`
    : error.keyword === 'format' && params.format === 'uri'
      ? ' (an absolute http(s) or mailto URL)'
      : '';
  return `${where} ${error.message ?? 'is invalid'}${extra}`;
}

/**
 * The real schema lets a `{kind: 'url'}` content reference (a header or footer link, the
 * announcement's) hold any string; a published site renders it as a link, so it must be
 * one (http(s), mailto, or a path on the site), never `javascript:`.
 */
function unsafeLink(value: unknown, path: string): string | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unsafeLink(item, `${path}.${index}`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (value.kind === 'url' && typeof value.url === 'string' && !isLinkUrl(value.url) && !/^\/(?!\/)/.test(value.url)) {
    return `${path.slice(1)}.url`;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = unsafeLink(item, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

function checker(validate: ValidateFunction, what: string): (value: unknown) => void {
  return (value) => {
    if (!validate(value)) throw badRequest(`Invalid ${what}: ${describe(validate.errors?.[0])}`);
    const link = unsafeLink(value, '');
    if (link) throw badRequest(`Invalid ${what}: ${link} must be an absolute http(s) or mailto URL, or a path starting with /`);
  };
}

let loaded: Promise<CustomizationChecks> | undefined;

/** The checks, ajv loaded on first use (it is only needed by these writes). */
export function customizationChecks(): Promise<CustomizationChecks> {
  loaded ??= (async () => {
    const AjvClass = await loadAjv();
    const ajv: Ajv = new AjvClass({ allErrors: false, strict: false });
    ajv.addFormat('uri', isLinkUrl);
    ajv.addFormat('emoji', true);
    // 0.202's settings carry `updatedAt` (a Timestamp): an ISO 8601 date-time, as docsctl writes them.
    ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value));
    ajv.addSchema({ $id: 'docsctl:customization', definitions: CUSTOMIZATION_DEFINITIONS });
    const compiled = (name: string) => ajv.getSchema(`docsctl:customization#/definitions/${name}`) as ValidateFunction;
    return {
      settings: checker(compiled('SiteCustomizationSettings'), 'customization settings'),
      override: checker(compiled('SiteSpaceCustomizationOverride'), 'customization override'),
    };
  })();
  return loaded;
}

// ─── Overrides ─────────────────────────────────────────────────────────────

interface SchemaNode {
  type?: unknown;
  properties?: Record<string, SchemaNode>;
}

const isObject = (value: unknown): value is Settings => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The override schema's node for `key` when it is a group of settings (merged key by key), else undefined (a value, replaced). */
function groupNode(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  const child = node?.properties?.[key];
  return child?.type === 'object' && child.properties !== undefined ? child : undefined;
}

const OVERRIDE_SHAPE = CUSTOMIZATION_DEFINITIONS.SiteSpaceCustomizationOverride as SchemaNode;

/** The stored overrides after a PATCH: groups merged, values replaced, `null` removing one. Empty groups go. */
function mergeOverride(stored: Settings, patch: Settings, node: SchemaNode | undefined = OVERRIDE_SHAPE): Settings {
  const out: Settings = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const group = groupNode(node, key);
    if (value === null) delete out[key];
    else if (group && isObject(value)) out[key] = mergeOverride(isObject(out[key]) ? out[key] : {}, value, group);
    else out[key] = value;
    if (isObject(out[key]) && group && Object.keys(out[key]).length === 0) delete out[key];
  }
  return out;
}

/** The site's settings with a site space's overrides applied. */
function applyOverride(settings: Settings, override: Settings, node: SchemaNode | undefined = OVERRIDE_SHAPE): Settings {
  const out: Settings = { ...settings };
  for (const [key, value] of Object.entries(override)) {
    const group = groupNode(node, key);
    out[key] = group && isObject(value) ? applyOverride(isObject(out[key]) ? out[key] : {}, value, group) : value;
  }
  return out;
}

const siteSettings = (tx: StoreReader, siteId: string): Settings => tx.get<Settings>(SiteTables.customizations, siteId) ?? DEFAULT_CUSTOMIZATIONS;
const storedOverride = (tx: StoreReader, siteSpaceId: string): Settings => tx.get<Settings>(SiteTables.siteSpaceCustomizations, siteSpaceId) ?? {};

function siteSpaceSettings(tx: StoreReader, siteId: string, override: Settings) {
  return { ...applyOverride(siteSettings(tx, siteId), override), hasOverrides: Object.keys(override).length > 0 };
}

/**
 * `customizations` of the published view: the site's settings (its title when it has
 * none of its own) and, for each site space with overrides, its own.
 */
export function publishedCustomizations(tx: StoreReader, site: SiteRecord) {
  const settings = siteSettings(tx, site.id);
  const siteSpaces: Record<string, Settings> = {};
  for (const { id } of siteSpacesOfSite.all(tx, site.id)) {
    const override = tx.get<Settings>(SiteTables.siteSpaceCustomizations, id);
    if (override) siteSpaces[id] = applyOverride(settings, override);
  }
  return { site: { title: site.title, ...settings }, siteSpaces };
}

// ─── Handlers ──────────────────────────────────────────────────────────────

const on = implementer<typeof routes>();

export const customizationHandlers: Record<string, Handler> = {
  ...on('getSiteCustomizationById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    return siteSettings(ctx.tx, site.id);
  }),

  ...on('updateSiteCustomizationById', {
    prepare: () => customizationChecks(),
    run: (ctx, { params, body }, checks: CustomizationChecks) => {
      const { site } = siteAccess(ctx, params);
      checks.settings(body);
      ctx.tx.put(SiteTables.customizations, site.id, body);
      return body;
    },
  }),

  ...on('getSiteSpaceCustomizationById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const siteSpace = requireSiteSpace(ctx.tx, site, params.siteSpaceId);
    return siteSpaceSettings(ctx.tx, site.id, storedOverride(ctx.tx, siteSpace.id));
  }),

  ...on('overrideSiteSpaceCustomizationById', {
    prepare: () => customizationChecks(),
    run: (ctx, { params, body }, checks: CustomizationChecks) => {
      const { site } = siteAccess(ctx, params);
      const siteSpace = requireSiteSpace(ctx.tx, site, params.siteSpaceId);
      checks.override(body);
      const next = mergeOverride(storedOverride(ctx.tx, siteSpace.id), body as Settings);
      const answer = siteSpaceSettings(ctx.tx, site.id, next);
      // The merge must leave settings of the real shape (an override group is partial, the result is not).
      const { hasOverrides: _has, ...effective } = answer;
      checks.settings(effective);
      if (Object.keys(next).length > 0) ctx.tx.put(SiteTables.siteSpaceCustomizations, siteSpace.id, next);
      else ctx.tx.delete(SiteTables.siteSpaceCustomizations, siteSpace.id);
      return answer;
    },
  }),

  ...on('deleteSiteSpaceCustomizationById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const siteSpace = getSiteSpace(ctx.tx, params.siteSpaceId);
    if (!siteSpace || siteSpace.site !== site.id) return nothingToDelete();
    return ctx.tx.delete(SiteTables.siteSpaceCustomizations, siteSpace.id) ? deleted() : nothingToDelete();
  }),
};
