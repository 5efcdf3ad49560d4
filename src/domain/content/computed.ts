/**
 * Computed content (getComputedDocument, getComputedRevision; routes in
 * src/api/routes/documents.ts): what a computed source gives, computed from content docsctl
 * holds. Nothing is written.
 *
 * - `builtin:openapi` reads the latest version of the organization's OpenAPI specification its
 *   `dependencies.spec.ref.spec` names (404 when there is none). A document (`props.doc`):
 *   `operation` (`page` = the path, `method`) is an `openapi-operation` block; `operations` and
 *   `tag` (`page` = a tag) the tag's description and a block per operation of the tag, in the
 *   document's order; `info` (`page` = the tag or the title shown) a heading and the spec's
 *   description; `models` an `openapi-schemas` block of every component schema. A revision:
 *   a page per tag (`grouping: by-tag`, the default) or per operation (`by-operation`), with
 *   operations without a tag under "Other", and a "Models" page when `props.models`, each
 *   page holding the document its source gives (the document read above).
 * - Other kinds (`builtin:translation`, `integration:…`) answer 400 naming the kind: docsctl
 *   runs no translation model and no integration code.
 * - Ids (block keys and meta ids, page ids) come from `seed`: the same seed gives the same
 *   ids. At most MAX_COMPUTED_ITEMS operations or schemas are read from one document.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '../../api/errors.js';
import type * as routes from '../../api/routes/documents.js';
import { type Handler, implementer } from '../handler.js';
import { latestSpecDocument } from '../openapi-specs.js';
import { scopeOf, spaceFor } from './common.js';
import { slugify } from '../../gitsync/slug.js';
import { DEFAULT_LAYOUT, scopeAppUrl } from './views.js';

const on = implementer<typeof routes>();

export const MAX_COMPUTED_ITEMS = 10_000;
/** The tag of operations that have none (their page in a by-tag revision). */
const UNTAGGED = 'Other';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Source {
  type: string;
  props?: Record<string, unknown> | undefined;
  dependencies?: Record<string, unknown> | undefined;
}

interface Operation {
  path: string;
  method: string;
  summary?: string;
  tags: string[];
}

/** Ids from the seed: `n` names the item within one computation. */
const idFrom = (seed: string, n: string): string => createHash('sha256').update(`${seed}\0${n}`).digest('base64url').slice(0, 20).replace(/[-_]/g, 'x');

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const paragraph = (value: string) => ({ object: 'block', type: 'paragraph', nodes: [text(value)] });
const heading = (value: string) => ({ object: 'block', type: 'heading-1', data: {}, nodes: [text(value)] });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The slug of the OpenAPI specification a `builtin:openapi` source depends on. */
function specSlugOf(source: Source): string {
  const spec = source.dependencies?.spec;
  const ref = isRecord(spec) ? spec.ref : undefined;
  if (!isRecord(ref) || ref.kind !== 'openapi' || typeof ref.spec !== 'string' || ref.spec === '') {
    throw badRequest('Invalid body field "source.dependencies.spec": expected {"ref": {"kind": "openapi", "spec": "<slug of an OpenAPI specification>"}}');
  }
  return ref.spec;
}

function requireOpenApi(source: Source): void {
  if (source.type === 'builtin:openapi') return;
  const kind = source.type.startsWith('integration:') ? 'integration sources (docsctl runs no integration code)' : source.type === 'builtin:translation' ? 'translation sources (docsctl runs no translation model)' : `"${source.type.slice(0, 100)}"`;
  throw badRequest(`Invalid body field "source.type": docsctl computes builtin:openapi sources only, not ${kind}`);
}

/** The operations of an OpenAPI document, in its order (at most MAX_COMPUTED_ITEMS). */
function operationsOf(document: unknown): Operation[] {
  const out: Operation[] = [];
  const paths = isRecord(document) && isRecord(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const tags = Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : [];
      out.push({ path, method, ...(typeof operation.summary === 'string' ? { summary: operation.summary } : {}), tags });
      if (out.length >= MAX_COMPUTED_ITEMS) return out;
    }
  }
  return out;
}

function tagDescription(document: unknown, tag: string): string | undefined {
  const tags = isRecord(document) && Array.isArray(document.tags) ? document.tags : [];
  const found = tags.find((entry) => isRecord(entry) && entry.name === tag);
  return isRecord(found) && typeof found.description === 'string' ? found.description : undefined;
}

function schemaNames(document: unknown): string[] {
  const components = isRecord(document) && isRecord(document.components) ? document.components : {};
  const schemas = isRecord(components.schemas) ? components.schemas : isRecord(document) && isRecord(document.definitions) ? document.definitions : {};
  return Object.keys(schemas).slice(0, MAX_COMPUTED_ITEMS);
}

function operationBlock(slug: string, seed: string, operation: Pick<Operation, 'path' | 'method'>) {
  const id = idFrom(seed, `${operation.method} ${operation.path}`);
  return { object: 'block', type: 'openapi-operation', key: id, isVoid: true, data: { ref: { kind: 'openapi', spec: slug }, path: operation.path, method: operation.method }, meta: { id } };
}

/** The string prop `name` (required): 400 naming it otherwise. */
function prop(source: Source, name: string): string {
  const value = source.props?.[name];
  if (typeof value !== 'string' || value === '') throw badRequest(`Invalid body field "source.props.${name}": required for doc "${String(source.props?.doc)}"`);
  return value;
}

function openApiDocument(slug: string, document: unknown, source: Source, seed: string) {
  const doc = source.props?.doc;
  const nodes: unknown[] = [];
  const operations = () => operationsOf(document);
  switch (doc) {
    case 'operation': {
      const path = prop(source, 'page');
      const method = prop(source, 'method').toLowerCase();
      if (!operations().some((operation) => operation.path === path && operation.method === method)) {
        throw badRequest(`Invalid body field "source.props": OpenAPI specification "${slug}" has no operation ${method.toUpperCase()} ${path}`);
      }
      nodes.push(operationBlock(slug, seed, { path, method }));
      break;
    }
    case 'operations':
    case 'tag': {
      const tag = prop(source, 'page');
      const ofTag = operations().filter((operation) => operation.tags.includes(tag) || (tag === UNTAGGED && operation.tags.length === 0));
      if (ofTag.length === 0) throw badRequest(`Invalid body field "source.props.page": OpenAPI specification "${slug}" has no operation tagged "${tag}"`);
      const description = tagDescription(document, tag);
      if (description) nodes.push(paragraph(description));
      for (const operation of ofTag) nodes.push(operationBlock(slug, seed, operation));
      break;
    }
    case 'info': {
      const info = isRecord(document) && isRecord(document.info) ? document.info : {};
      nodes.push(heading(prop(source, 'page')));
      if (typeof info.description === 'string' && info.description !== '') nodes.push(paragraph(info.description));
      break;
    }
    case 'models': {
      const id = idFrom(seed, 'models');
      nodes.push({ object: 'block', type: 'openapi-schemas', key: id, isVoid: true, data: { ref: { kind: 'openapi', spec: slug }, schemas: schemaNames(document), grouped: true }, meta: { id } });
      break;
    }
    default:
      throw badRequest('Invalid body field "source.props.doc": expected operation, operations, tag, info or models');
  }
  return { object: 'document', data: {}, nodes };
}

function openApiPages(slug: string, document: unknown, source: Source, seed: string, appBase: string) {
  const props = source.props ?? {};
  if (typeof props.models !== 'boolean') throw badRequest('Invalid body field "source.props.models": required (true or false)');
  const grouping = props.grouping ?? 'by-tag';
  if (grouping !== 'by-tag' && grouping !== 'by-operation') throw badRequest('Invalid body field "source.props.grouping": expected by-tag or by-operation');
  const dependencies = source.dependencies;
  const used = new Set<string>();
  const page = (title: string, computedProps: Record<string, unknown>, key: string) => {
    let slugOf = slugify(title) || 'page';
    for (let n = 2; used.has(slugOf); n++) slugOf = `${slugify(title) || 'page'}-${n}`;
    used.add(slugOf);
    // Fully computed: each page carries the document its source gives. Not its `computed` source: with it, 0.202's
    // RevisionPageDocument matches both branches of its oneOf ({computed, computedSeed} and {documentId?}) and no
    // answer could validate.
    const body = openApiDocument(slug, document, { type: 'builtin:openapi', props: computedProps, dependencies }, idFrom(seed, `seed ${key}`));
    return { id: idFrom(seed, key), title, kind: 'sheet', type: 'document', urls: { app: `${appBase}/${slugOf}` }, slug: slugOf, path: slugOf, pages: [], layout: { ...DEFAULT_LAYOUT }, tags: [], document: body };
  };
  const pages: unknown[] = [];
  const operations = operationsOf(document);
  if (grouping === 'by-operation') {
    for (const operation of operations) {
      pages.push(page(operation.summary ?? `${operation.method.toUpperCase()} ${operation.path}`, { doc: 'operation', page: operation.path, method: operation.method }, `${operation.method} ${operation.path}`));
    }
  } else {
    const tags: string[] = [];
    for (const operation of operations) for (const tag of operation.tags.length > 0 ? operation.tags : [UNTAGGED]) if (!tags.includes(tag)) tags.push(tag);
    for (const tag of tags) pages.push(page(tag, { doc: 'operations', page: tag }, `tag ${tag}`));
  }
  if (props.models) pages.push(page('Models', { doc: 'models' }, 'models'));
  return { pages, files: [], reusableContents: [] };
}

export const computedHandlers: Record<string, Handler> = {
  ...on('getComputedDocument', (ctx, { params, body }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    requireOpenApi(body.source);
    const slug = specSlugOf(body.source);
    return openApiDocument(slug, latestSpecDocument(ctx.tx, space.organization, slug).document, body.source, body.seed);
  }),
  ...on('getComputedRevision', (ctx, { params, body }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    requireOpenApi(body.source);
    const slug = specSlugOf(body.source);
    return openApiPages(slug, latestSpecDocument(ctx.tx, space.organization, slug).document, body.source, body.seed, scopeAppUrl(scopeOf(ctx, space)));
  }),
};
