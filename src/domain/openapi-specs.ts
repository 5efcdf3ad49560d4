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
 * - Each valid document becomes a version (`openApiSpecVersions`, an OrderedList
 *   per spec: one row per version, appended, listed newest first). The document's
 *   bytes are one `{base64}` object, so the version's `url` is
 *   `${origin}/files/<hash>/<slug>.yaml|json`, which `serve` answers without a
 *   token like a content file; the content routes answer
 *   `{filesystem: {<file name>: document}, url}` (external `$ref`s are never
 *   resolved, so a version is one file). A spec processed before versions were
 *   kept names a `lastVersion` without a row: reading it is a 404 saying so.
 * - `visibility` (PATCH) is `private` until set; a `public` spec's
 *   `urls.published` is its latest version's `url`. Deleting a spec removes its
 *   versions.
 *
 * OpenAPI specifications and their versions
 *
 * `src/domain/openapi-specs.ts`: a spec is one row of `orgOpenApiSpecs` (KeyedSet per
 * organization, keyed by slug). Creating or replacing one fetches and checks the document in
 * `prepare` (`openapi-check.ts`); a valid document becomes a version: the bytes as one `{base64}`
 * object (so `serve`'s `/files/<hash>/<slug>.yaml|json` answers them, like a content file's
 * `downloadURL`) and a row in `openApiSpecVersions` (an OrderedList owned by the spec's id, appended;
 * `listOpenAPISpecVersions` scans it backwards, newest first). The content routes parse the stored
 * bytes back into `{filesystem: {<file name>: document}, url}` (external `$ref`s are never resolved,
 * so a version is one file). Deleting a spec removes its version rows (the objects go with the next
 * full repack). A spec processed before versions were kept names a `lastVersion` with no row:
 * reading it answers 404 saying to publish again.
 */
import { parse as parseYaml } from 'yaml';
import { conflict, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/openapi.js';
import type { StoreReader } from '../store/types.js';
import { fetchPolicyText } from './fetch-text.js';
import { type Handler, type HandlerContext, Reply, type TwoPhaseHandler, deleted, implementer, nothingToDelete } from './handler.js';
import { type OpenApiCheck, type OpenApiProblem, checkOpenApiText } from './openapi-check.js';
import { type Entry, KeyedSet, OrderedList, isKeyedId } from './ordered.js';
import { paginate, rowsOf } from './pagination.js';
import { atLeast, orgAccess } from './permissions.js';
import type { Role } from './core-records.js';
import { apiUrl, appUrl, downloadUrl } from './urls.js';

export type ProcessErrorCode = 'PARSE_ERROR' | 'FETCH_ERROR' | 'FETCH_TIMEOUT';
export type OpenApiSpecVisibility = 'private' | 'public';

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
  /** Problems of the last processing, before `lastProcessedErrors` was cut (absent: as many as listed). */
  lastProcessedErrorCount?: number;
  /** Absent until set: `private`. */
  visibility?: OpenApiSpecVisibility;
  createdAt: string;
  updatedAt: string;
}

/** One valid document of a spec, as processed. */
export interface OpenApiVersionRecord {
  id: string;
  createdAt: string;
  /** Hash of the `{base64}` object holding the document's bytes. */
  data: string;
  /** `<slug>.json` or `<slug>.yaml`: the name in the download URL and in `filesystem`. */
  filename: string;
}

export const orgOpenApiSpecs = new KeyedSet<OpenApiSpecRecord>('orgOpenApiSpecs');
/** The versions of each spec (owner: the spec's id, so a spec created again under the same slug starts afresh). */
export const openApiSpecVersions = new OrderedList<OpenApiVersionRecord>('openApiSpecVersions');

/** The outcome of processing one source, computed in `prepare`. */
type Processed = { sourceURL?: string } & (
  | { ok: true; check: Extract<OpenApiCheck, { ok: true }>; text: string; format: 'json' | 'yaml' }
  | { ok: false; code: ProcessErrorCode; errors: OpenApiProblem[]; total?: number }
);

type Source = { url: string } | { text: string };

async function processSource(ctx: Pick<HandlerContext, 'policy'>, source: Source): Promise<Processed> {
  if ('text' in source) {
    const check = await checkOpenApiText(source.text);
    return check.ok
      ? { ok: true, check, text: source.text, format: documentFormat(source.text) }
      : { ok: false, code: check.code, errors: check.errors, total: check.total };
  }
  const fetched = await fetchPolicyText(ctx.policy, source.url);
  if (!fetched.ok) return { sourceURL: source.url, ok: false, code: fetched.code, errors: [{ message: fetched.message }] };
  const check = await checkOpenApiText(fetched.text);
  return check.ok
    ? { sourceURL: source.url, ok: true, check, text: fetched.text, format: documentFormat(fetched.text) }
    : { sourceURL: source.url, ok: false, code: check.code, errors: check.errors, total: check.total };
}

/** JSON when the whole text parses as JSON, else YAML (`{a: 1}` is a YAML flow mapping, not JSON). Run in `prepare`. */
function documentFormat(text: string): 'json' | 'yaml' {
  if (!text.trimStart().startsWith('{')) return 'yaml';
  try {
    JSON.parse(text);
    return 'json';
  } catch {
    return 'yaml';
  }
}

/** Stores a valid document as a new version of a spec; returns its id. */
function addVersion(ctx: HandlerContext, specId: string, slug: string, document: { text: string; format: 'json' | 'yaml' }, now: string): string {
  const id = ctx.ids();
  const data = ctx.tx.putObject({ base64: Buffer.from(document.text, 'utf8').toString('base64') });
  openApiSpecVersions.insert(ctx.tx, specId, id, { id, createdAt: now, data, filename: `${slug}.${document.format}` });
  return id;
}

/** Removes every version of a spec (its delete). */
function removeVersions(ctx: HandlerContext, specId: string): void {
  for (const entry of openApiSpecVersions.all(ctx.tx, specId)) openApiSpecVersions.remove(ctx.tx, specId, entry.id);
  ctx.tx.delete(openApiSpecVersions.ends, specId);
}

/** The record after processing: a new version when valid (its row written), the error state otherwise. */
function applyProcessed(ctx: HandlerContext, previous: OpenApiSpecRecord | undefined, slug: string, processed: Processed): OpenApiSpecRecord {
  const now = ctx.clock().toISOString();
  const base = previous ?? { id: ctx.ids(), slug, createdAt: now };
  const { lastProcessErrorCode: _code, lastProcessedErrors: _errors, lastProcessedErrorCount: _count, sourceURL: _url, ...kept } = {
    ...base,
  } as OpenApiSpecRecord;
  const record: OpenApiSpecRecord = {
    ...kept,
    ...(processed.sourceURL !== undefined ? { sourceURL: processed.sourceURL } : {}),
    lastProcessedAt: now,
    updatedAt: now,
  };
  if (processed.ok) {
    const lastVersion = addVersion(ctx, record.id, slug, processed, now);
    return { ...record, lastVersion, title: processed.check.title, apiVersion: processed.check.version };
  }
  return {
    ...record,
    lastProcessErrorCode: processed.code,
    lastProcessedErrors: processed.errors,
    ...(processed.total !== undefined ? { lastProcessedErrorCount: processed.total } : {}),
  };
}

const specPath = (orgId: string, slug: string) => `orgs/${encodeURIComponent(orgId)}/openapi/${encodeURIComponent(slug)}`;

function specView(tx: StoreReader, origin: string, orgId: string, spec: OpenApiSpecRecord, role: Role) {
  const visibility = spec.visibility ?? 'private';
  const latest = visibility === 'public' ? latestVersion(tx, spec) : undefined;
  return {
    object: 'openapi-spec' as const,
    id: spec.id,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    slug: spec.slug,
    ...(spec.sourceURL !== undefined ? { sourceURL: spec.sourceURL } : {}),
    processingState: 'complete' as const,
    visibility,
    ...(spec.lastVersion !== undefined ? { lastVersion: spec.lastVersion } : {}),
    lastProcessedAt: spec.lastProcessedAt,
    ...(spec.lastProcessErrorCode !== undefined ? { lastProcessErrorCode: spec.lastProcessErrorCode } : {}),
    ...(spec.lastProcessedErrors !== undefined ? { lastProcessedErrors: spec.lastProcessedErrors } : {}),
    lastProcessedErrorCount: spec.lastProcessedErrorCount ?? spec.lastProcessedErrors?.length ?? 0,
    permissions: { view: true, edit: atLeast(role, 'create') },
    urls: {
      location: apiUrl(origin, specPath(orgId, spec.slug)),
      app: appUrl(origin, `o/${encodeURIComponent(orgId)}/openapi/${encodeURIComponent(spec.slug)}`),
      ...(latest ? { published: versionUrl(origin, latest) } : {}),
    },
  };
}

const versionUrl = (origin: string, version: OpenApiVersionRecord) => downloadUrl(origin, version.data, version.filename);

function versionView(origin: string, orgId: string, slug: string, version: OpenApiVersionRecord) {
  return {
    object: 'openapi-spec-version' as const,
    id: version.id,
    createdAt: version.createdAt,
    url: versionUrl(origin, version),
    urls: { location: apiUrl(origin, `${specPath(orgId, slug)}/versions/${encodeURIComponent(version.id)}`) },
  };
}

/** The document of a version: its one file, parsed (it was valid when stored). */
function contentView(tx: StoreReader, origin: string, spec: OpenApiSpecRecord, version: OpenApiVersionRecord) {
  const { base64 } = tx.getObject<{ base64: string }>(version.data);
  const text = Buffer.from(base64, 'base64').toString('utf8');
  const document: unknown = version.filename.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  const url = versionUrl(origin, version);
  // 0.202 `urls`: where the document came from, and the URL anyone may fetch it from (public specs only).
  const source = spec.sourceURL ?? url;
  return { filesystem: { [version.filename]: document }, url, urls: { source, public: spec.visibility === 'public' ? source : null } };
}

/** The text of a version exactly as published (0.202 `OpenAPISpecRawContent`), and its format (from the stored file's extension). */
function rawView(tx: StoreReader, version: OpenApiVersionRecord) {
  const { base64 } = tx.getObject<{ base64: string }>(version.data);
  return { text: Buffer.from(base64, 'base64').toString('utf8'), format: version.filename.endsWith('.json') ? ('json' as const) : ('yaml' as const) };
}

/** The parsed document of the latest version of an organization's specification (computed content reads it); 404 naming what is missing. */
export function latestSpecDocument(tx: StoreReader, orgId: string, slug: string): { spec: OpenApiSpecRecord; document: unknown } {
  const spec = requireSpec(tx, orgId, slug);
  const version = requireLatestVersion(tx, spec);
  return { spec, document: Object.values(contentView(tx, '', spec, version).filesystem)[0] };
}

function latestVersion(tx: StoreReader, spec: OpenApiSpecRecord): OpenApiVersionRecord | undefined {
  return spec.lastVersion === undefined ? undefined : openApiSpecVersions.get(tx, spec.id, spec.lastVersion);
}

function requireLatestVersion(tx: StoreReader, spec: OpenApiSpecRecord): OpenApiVersionRecord {
  if (spec.lastVersion === undefined) {
    throw notFound(`OpenAPI specification "${spec.slug}" has no version: no document of it processed (${spec.lastProcessErrorCode ?? 'pending'})`);
  }
  return requireVersion(tx, spec, spec.lastVersion);
}

function requireVersion(tx: StoreReader, spec: OpenApiSpecRecord, versionId: string): OpenApiVersionRecord {
  const version = openApiSpecVersions.get(tx, spec.id, versionId);
  if (version) return version;
  if (versionId === spec.lastVersion) {
    throw notFound(`Version ${versionId} of OpenAPI specification "${spec.slug}" was processed before docsctl kept versions: publish the specification again`);
  }
  throw notFound(`Version ${versionId} of OpenAPI specification "${spec.slug}" not found`);
}

function findSpec(tx: StoreReader, orgId: string, slug: string): OpenApiSpecRecord | undefined {
  return isKeyedId(slug) ? orgOpenApiSpecs.get(tx, orgId, slug) : undefined;
}

function requireSpec(tx: StoreReader, orgId: string, slug: string): OpenApiSpecRecord {
  const spec = findSpec(tx, orgId, slug);
  if (!spec) throw notFound(`OpenAPI specification "${slug}" not found in organization ${orgId}`);
  return spec;
}

/** The organization a write names (the routes that write need `create`: checked before the handler). */
function requireWriter(tx: StoreReader, orgId: string, userId: string) {
  return orgAccess(tx, orgId, userId);
}

/** The organization and spec a read names. */
function readSpec(ctx: HandlerContext, params: { organizationId: string; specSlug: string }) {
  const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
  return { org, role, spec: requireSpec(ctx.tx, org.id, params.specSlug) };
}

const createSpec: TwoPhaseHandler<typeof routes.createOpenAPISpec, Processed> = {
  async prepare(ctx, { params, body }) {
    requireWriter(ctx.reader, params.organizationId, ctx.actor.userId);
    return processSource(ctx, body.source);
  },
  run(ctx, { params, body }, processed) {
    const { org, role } = requireWriter(ctx.tx, params.organizationId, ctx.actor.userId);
    if (findSpec(ctx.tx, org.id, body.slug)) {
      throw conflict(`OpenAPI specification "${body.slug}" already exists: update it with PUT (docsctl openapi publish ${body.slug} …)`);
    }
    const spec = applyProcessed(ctx, undefined, body.slug, processed);
    orgOpenApiSpecs.put(ctx.tx, org.id, spec.slug, spec);
    const view = specView(ctx.tx, ctx.origin, org.id, spec, role);
    return new Reply(201, view, { Location: view.urls.location });
  },
};

const upsertSpec: TwoPhaseHandler<typeof routes.createOrUpdateOpenAPISpecBySlug, Processed> = {
  async prepare(ctx, { params, body }) {
    requireWriter(ctx.reader, params.organizationId, ctx.actor.userId);
    return processSource(ctx, body.source);
  },
  run(ctx, { params }, processed) {
    const { org, role } = requireWriter(ctx.tx, params.organizationId, ctx.actor.userId);
    const previous = findSpec(ctx.tx, org.id, params.specSlug);
    const spec = applyProcessed(ctx, previous, params.specSlug, processed);
    orgOpenApiSpecs.put(ctx.tx, org.id, spec.slug, spec);
    const view = specView(ctx.tx, ctx.origin, org.id, spec, role);
    return previous ? view : new Reply(201, view, { Location: view.urls.location });
  },
};

const on = implementer<typeof routes>();

export const openApiSpecHandlers: Record<string, Handler> = {
  ...on('listOpenAPISpecs', (ctx, { params, query }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return orgOpenApiSpecs.page(ctx.tx, org.id, query, ({ value }) => specView(ctx.tx, ctx.origin, org.id, value, role));
  }),
  createOpenAPISpec: createSpec,
  ...on('getOpenAPISpecBySlug', (ctx, { params }) => {
    const { org, role, spec } = readSpec(ctx, params);
    return specView(ctx.tx, ctx.origin, org.id, spec, role);
  }),
  ...on('updateOpenAPISpecBySlug', (ctx, { params, body }) => {
    const { org, role } = requireWriter(ctx.tx, params.organizationId, ctx.actor.userId);
    let spec = requireSpec(ctx.tx, org.id, params.specSlug);
    if ((spec.visibility ?? 'private') !== body.visibility) {
      spec = { ...spec, visibility: body.visibility, updatedAt: ctx.clock().toISOString() };
      orgOpenApiSpecs.put(ctx.tx, org.id, spec.slug, spec);
    }
    return specView(ctx.tx, ctx.origin, org.id, spec, role);
  }),
  ...on('listOpenAPISpecVersions', (ctx, { params, query }) => {
    const { org, spec } = readSpec(ctx, params);
    const count = openApiSpecVersions.count(ctx.tx, spec.id);
    return paginate(
      rowsOf<Entry<OpenApiVersionRecord>>(ctx.tx, openApiSpecVersions.table, `${spec.id}/`, { reverse: true }),
      query,
      ({ value }) => versionView(ctx.origin, org.id, spec.slug, value),
      count,
    );
  }),
  ...on('getLatestOpenAPISpecVersion', (ctx, { params }) => {
    const { org, spec } = readSpec(ctx, params);
    return versionView(ctx.origin, org.id, spec.slug, requireLatestVersion(ctx.tx, spec));
  }),
  ...on('getOpenAPISpecVersionById', (ctx, { params }) => {
    const { org, spec } = readSpec(ctx, params);
    return versionView(ctx.origin, org.id, spec.slug, requireVersion(ctx.tx, spec, params.versionId));
  }),
  ...on('getLatestOpenAPISpecVersionContent', (ctx, { params }) => {
    const { spec } = readSpec(ctx, params);
    return contentView(ctx.tx, ctx.origin, spec, requireLatestVersion(ctx.tx, spec));
  }),
  ...on('getLatestOpenAPISpecVersionContentRaw', (ctx, { params }) => {
    const { spec } = readSpec(ctx, params);
    return rawView(ctx.tx, requireLatestVersion(ctx.tx, spec));
  }),
  ...on('getOpenAPISpecVersionContentById', (ctx, { params }) => {
    const { spec } = readSpec(ctx, params);
    return contentView(ctx.tx, ctx.origin, spec, requireVersion(ctx.tx, spec, params.versionId));
  }),
  createOrUpdateOpenAPISpecBySlug: upsertSpec,
  ...on('deleteOpenAPISpecBySlug', (ctx, { params }) => {
    const { org } = requireWriter(ctx.tx, params.organizationId, ctx.actor.userId);
    const spec = findSpec(ctx.tx, org.id, params.specSlug);
    if (!spec) return nothingToDelete();
    removeVersions(ctx, spec.id);
    orgOpenApiSpecs.remove(ctx.tx, org.id, spec.slug);
    return deleted();
  }),
};
