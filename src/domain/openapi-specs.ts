/**
 * API doc §4.15 OpenAPI specifications of an organization.
 *
 * Rules decided here:
 * - Reading needs membership (`read`); creating, replacing and deleting needs
 *   `create` (the organization permission `createOpenAPISpec`).
 * - A spec is processed when it is created or replaced: the text (given, or
 *   fetched from `source.url`) is checked with @readme/openapi-parser
 *   (openapi-check.ts). The answer always says what happened, as the real API's
 *   fields do: `processingState: "complete"`, `lastProcessedAt`, and either a new
 *   `lastVersion` (valid document) or `lastProcessErrorCode` (`PARSE_ERROR`,
 *   `FETCH_ERROR`, `FETCH_TIMEOUT`) with `lastProcessedErrors`. An invalid document
 *   is stored in that error state, not refused, and keeps its previous
 *   `lastVersion` if it had one. Input the server must not act on (a URL to a
 *   private address under `serve`) is refused with 403 instead.
 * - The fetch and the check run in `prepare`, outside the store's writer lock.
 */
import { conflict, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/openapi.js';
import type { StoreReader } from '../store/types.js';
import { fetchPolicyText } from './fetch-text.js';
import { type Handler, type HandlerContext, Reply, type TwoPhaseHandler, deleted, implementer, nothingToDelete } from './handler.js';
import { type OpenApiCheck, type OpenApiProblem, checkOpenApiText } from './openapi-check.js';
import { KeyedSet, isKeyedId } from './ordered.js';
import { atLeast, orgAccess, requireRole } from './permissions.js';
import type { Role } from './records.js';
import { apiUrl, appUrl } from './urls.js';

export type ProcessErrorCode = 'PARSE_ERROR' | 'FETCH_ERROR' | 'FETCH_TIMEOUT';

export interface OpenApiSpecRecord {
  id: string;
  slug: string;
  sourceURL?: string;
  lastVersion?: string;
  /** `info.title` and `info.version` of the last valid document. */
  title?: string;
  apiVersion?: string;
  lastProcessedAt: string;
  lastProcessErrorCode?: ProcessErrorCode;
  lastProcessedErrors?: OpenApiProblem[];
  createdAt: string;
  updatedAt: string;
}

export const orgOpenApiSpecs = new KeyedSet<OpenApiSpecRecord>('orgOpenApiSpecs');

/** The outcome of processing one source, computed in `prepare`. */
type Processed = { sourceURL?: string } & (
  | { ok: true; check: Extract<OpenApiCheck, { ok: true }> }
  | { ok: false; code: ProcessErrorCode; errors: OpenApiProblem[] }
);

type Source = { url: string } | { text: string };

async function processSource(ctx: Pick<HandlerContext, 'policy'>, source: Source): Promise<Processed> {
  if ('text' in source) {
    const check = await checkOpenApiText(source.text);
    return check.ok ? { ok: true, check } : { ok: false, code: check.code, errors: check.errors };
  }
  const fetched = await fetchPolicyText(ctx.policy, source.url);
  if (!fetched.ok) return { sourceURL: source.url, ok: false, code: fetched.code, errors: [{ message: fetched.message }] };
  const check = await checkOpenApiText(fetched.text);
  return check.ok
    ? { sourceURL: source.url, ok: true, check }
    : { sourceURL: source.url, ok: false, code: check.code, errors: check.errors };
}

/** The record after processing: a new version when valid, the error state otherwise. */
function applyProcessed(ctx: HandlerContext, previous: OpenApiSpecRecord | undefined, slug: string, processed: Processed): OpenApiSpecRecord {
  const now = ctx.clock().toISOString();
  const base = previous ?? { id: ctx.ids(), slug, createdAt: now };
  const { lastProcessErrorCode: _code, lastProcessedErrors: _errors, sourceURL: _url, ...kept } = { ...base } as OpenApiSpecRecord;
  const record: OpenApiSpecRecord = {
    ...kept,
    ...(processed.sourceURL !== undefined ? { sourceURL: processed.sourceURL } : {}),
    lastProcessedAt: now,
    updatedAt: now,
  };
  if (processed.ok) {
    return { ...record, lastVersion: ctx.ids(), title: processed.check.title, apiVersion: processed.check.version };
  }
  return { ...record, lastProcessErrorCode: processed.code, lastProcessedErrors: processed.errors };
}

function specView(origin: string, orgId: string, spec: OpenApiSpecRecord, role: Role) {
  return {
    object: 'openapi-spec' as const,
    id: spec.id,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    slug: spec.slug,
    ...(spec.sourceURL !== undefined ? { sourceURL: spec.sourceURL } : {}),
    processingState: 'complete' as const,
    ...(spec.lastVersion !== undefined ? { lastVersion: spec.lastVersion } : {}),
    lastProcessedAt: spec.lastProcessedAt,
    ...(spec.lastProcessErrorCode !== undefined ? { lastProcessErrorCode: spec.lastProcessErrorCode } : {}),
    ...(spec.lastProcessedErrors !== undefined ? { lastProcessedErrors: spec.lastProcessedErrors } : {}),
    permissions: { view: true, edit: atLeast(role, 'create') },
    urls: {
      location: apiUrl(origin, `orgs/${encodeURIComponent(orgId)}/openapi/${encodeURIComponent(spec.slug)}`),
      app: appUrl(origin, `o/${encodeURIComponent(orgId)}/openapi/${encodeURIComponent(spec.slug)}`),
    },
  };
}

function findSpec(tx: StoreReader, orgId: string, slug: string): OpenApiSpecRecord | undefined {
  return isKeyedId(slug) ? orgOpenApiSpecs.get(tx, orgId, slug) : undefined;
}

function requireSpec(tx: StoreReader, orgId: string, slug: string): OpenApiSpecRecord {
  const spec = findSpec(tx, orgId, slug);
  if (!spec) throw notFound(`OpenAPI specification "${slug}" not found in organization ${orgId}`);
  return spec;
}

function requireWriter(tx: StoreReader, orgId: string, userId: string, action: string) {
  const access = orgAccess(tx, orgId, userId);
  requireRole(access.role, 'create', access.org.id, action);
  return access;
}

const createSpec: TwoPhaseHandler<typeof routes.createOpenAPISpec, Processed> = {
  async prepare(ctx, { params, body }) {
    requireWriter(ctx.reader, params.organizationId, ctx.actor.userId, 'create OpenAPI specifications');
    return processSource(ctx, body.source);
  },
  run(ctx, { params, body }, processed) {
    const { org, role } = requireWriter(ctx.tx, params.organizationId, ctx.actor.userId, 'create OpenAPI specifications');
    if (findSpec(ctx.tx, org.id, body.slug)) {
      throw conflict(`OpenAPI specification "${body.slug}" already exists: update it with PUT (docsctl openapi publish ${body.slug} …)`);
    }
    const spec = applyProcessed(ctx, undefined, body.slug, processed);
    orgOpenApiSpecs.put(ctx.tx, org.id, spec.slug, spec);
    const view = specView(ctx.origin, org.id, spec, role);
    return new Reply(201, view, { Location: view.urls.location });
  },
};

const upsertSpec: TwoPhaseHandler<typeof routes.createOrUpdateOpenAPISpecBySlug, Processed> = {
  async prepare(ctx, { params, body }) {
    requireWriter(ctx.reader, params.organizationId, ctx.actor.userId, 'publish OpenAPI specifications');
    return processSource(ctx, body.source);
  },
  run(ctx, { params }, processed) {
    const { org, role } = requireWriter(ctx.tx, params.organizationId, ctx.actor.userId, 'publish OpenAPI specifications');
    const previous = findSpec(ctx.tx, org.id, params.specSlug);
    const spec = applyProcessed(ctx, previous, params.specSlug, processed);
    orgOpenApiSpecs.put(ctx.tx, org.id, spec.slug, spec);
    const view = specView(ctx.origin, org.id, spec, role);
    return previous ? view : new Reply(201, view, { Location: view.urls.location });
  },
};

const on = implementer<typeof routes>();

export const openApiSpecHandlers: Record<string, Handler> = {
  ...on('listOpenAPISpecs', (ctx, { params, query }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    requireRole(role, 'read', org.id, 'list OpenAPI specifications');
    return orgOpenApiSpecs.page(ctx.tx, org.id, query, ({ value }) => specView(ctx.origin, org.id, value, role));
  }),
  createOpenAPISpec: createSpec,
  ...on('getOpenAPISpecBySlug', (ctx, { params }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    requireRole(role, 'read', org.id, 'read OpenAPI specifications');
    return specView(ctx.origin, org.id, requireSpec(ctx.tx, org.id, params.specSlug), role);
  }),
  createOrUpdateOpenAPISpecBySlug: upsertSpec,
  ...on('deleteOpenAPISpecBySlug', (ctx, { params }) => {
    const { org } = requireWriter(ctx.tx, params.organizationId, ctx.actor.userId, 'delete OpenAPI specifications');
    return findSpec(ctx.tx, org.id, params.specSlug) && orgOpenApiSpecs.remove(ctx.tx, org.id, params.specSlug)
      ? deleted()
      : nothingToDelete();
  }),
};
