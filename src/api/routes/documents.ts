/**
 * Content read as GitBook holds it beside pages (real API, 0.202): documents (a
 * page's body as a JSON document, by its `documentId` or by page and revision),
 * page meta links (a page's canonical and alternate links) and embeds by URL.
 * Implemented in src/domain/content/documents.ts.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { pathParams, qBool, qBoolOr } from '../schemas/common.js';

/** `schema` of document reads: the version of the document schema (docsctl answers the one it has for both). */
const documentSchema = z.enum(['current', 'next']).describe('document schema version (current or next)');

/** Query of a document read: evaluate expressions, expand references (reusable contents). */
export const documentReadQuery = () =>
  z.object({
    evaluated: qBoolOr('deterministic-only').optional(),
    dereferenced: qBoolOr('reusable-contents').optional(),
  });

const space = ['spaceId'] as const;
/** `--cr`: the twin route reading a change request's content instead of the space's. */
const crFlag = { flag: '--cr <changeRequest>', description: 'read the content of this change request (id or number) instead of the space' } as const;
const crBase = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}';

// ─── Documents ─────────────────────────────────────────────────────────────

export const getDocumentById = defineRoute({
  id: 'getDocumentById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/documents/{documentId}',
  summary: 'Get a document of a space by its id (the documentId of a page)',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'documentId'),
  query: z.object({ schema: documentSchema.optional() }),
  cli: {
    command: 'document get',
    summary: "Show a document (a page's body as GitBook's JSON document) by its id: the documentId of a page",
    flags: { schema: false },
    columns: 'documentBlock',
    examples: [
      'docsctl document get sp4c3 "$(docsctl page get sp4c3 guides/setup --json documentId --query documentId)"',
      'docsctl document get sp4c3 p4g3.0123abcd… --json nodes',
    ],
  },
});

export const getPageDocumentInRevisionById = defineRoute({
  id: 'getPageDocumentInRevisionById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document',
  summary: 'Get the document of a page in a revision',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'revisionId', 'pageId'),
  query: documentReadQuery(),
  cli: {
    command: 'document page',
    summary: 'Show the document of a page as it is in a revision (--dereferenced expands its reusable contents)',
    flags: {
      evaluated: false,
      dereferenced: { flag: '--dereferenced', type: 'boolean', description: 'expand the reusable contents the page includes into the document' },
    },
    columns: 'documentBlock',
    examples: ['docsctl document page sp4c3 r3v1s10n p4g3', 'docsctl document page sp4c3 r3v1s10n p4g3 --dereferenced --json nodes'],
  },
});

// ─── Reusable contents ─────────────────────────────────────────────────────

/** `metadata` (default true: false leaves `git` out) and `computed` (default true) of content reads. */
const reusableQuery = () => z.object({ metadata: qBool().optional(), computed: qBool().optional() });
const reusableFlags = {
  metadata: { flag: '--no-metadata', description: 'leave out its Git metadata (git.oid, git.path)' },
  computed: false,
} as const;

export const getReusableContentInChangeRequestById = defineRoute({
  id: 'getReusableContentInChangeRequestById',
  method: 'GET',
  path: `${crBase}/content/reusable-contents/{reusableContentId}`,
  summary: 'Get a reusable content of a change request',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'changeRequestId', 'reusableContentId'),
  query: reusableQuery(),
  cli: {
    command: 'reusable get',
    summary: 'Show a reusable content (Git Sync: a file of .gitbook/includes) of a space, or of a change request with --cr',
    flags: {
      'params.changeRequestId': crFlag,
      ...reusableFlags,
    },
    columns: 'reusableContent',
    examples: ['docsctl reusable get sp4c3 rc_0VcD…', 'docsctl reusable get sp4c3 rc_0VcD… --cr 12 --json document'],
  },
});

export const getReusableContentById = defineRoute({
  id: 'getReusableContentById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content/reusable-contents/{reusableContentId}',
  summary: 'Get a reusable content of a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'reusableContentId'),
  query: reusableQuery(),
});

export const getReusableContentInRevisionById = defineRoute({
  id: 'getReusableContentInRevisionById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}',
  summary: 'Get a reusable content as it is in a revision',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'revisionId', 'reusableContentId'),
  query: reusableQuery(),
  cli: {
    command: 'reusable at',
    summary: 'Show a reusable content as it is in a revision of the space',
    flags: reusableFlags,
    columns: 'reusableContent',
    examples: ['docsctl reusable at sp4c3 r3v1s10n rc_0VcD…'],
  },
});

export const getReusableContentDocumentInRevisionById = defineRoute({
  id: 'getReusableContentDocumentInRevisionById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document',
  summary: 'Get the document of a reusable content in a revision',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'revisionId', 'reusableContentId'),
  query: documentReadQuery(),
  cli: {
    command: 'document reusable',
    summary: 'Show the document of a reusable content as it is in a revision',
    flags: { evaluated: false, dereferenced: false },
    columns: 'documentBlock',
    examples: ['docsctl document reusable sp4c3 r3v1s10n rc_0VcD…'],
  },
});

// ─── Computed content ──────────────────────────────────────────────────────

/**
 * A computed content source (0.202 ComputedContentSourceDocument / …Revision): `type`
 * (`builtin:openapi`, `builtin:translation`, `integration:<name>:<source>`), `props` and
 * `dependencies` as the spec shapes them; which kinds docsctl computes is the handler's
 * business (src/domain/content/computed.ts), which answers 400 naming any other.
 */
const ComputedSource = z
  .object({
    type: z.string().min(1).max(200),
    props: z.record(z.string(), z.unknown()).optional(),
    dependencies: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough();
const computedBody = () => z.object({ source: ComputedSource, seed: z.string().min(1).max(200).describe('seed of the ids the computation generates') });

export const getComputedDocument = defineRoute({
  id: 'getComputedDocument',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/content/computed/document',
  summary: 'Compute a document from a computed content source (builtin:openapi)',
  source: 'real-api',
  access: 'read',
  safe: true,
  params: pathParams(...space),
  query: z.object({ schema: documentSchema.optional() }),
  body: computedBody(),
  bodyRequired: true,
  cli: {
    command: 'document compute',
    summary: 'Compute the document a computed source gives (builtin:openapi from an OpenAPI specification of the organization)',
    flags: { schema: false, source: { flag: '--source <json>', type: 'json', description: 'the source: {"type":"builtin:openapi","props":{…},"dependencies":{"spec":{"ref":{"kind":"openapi","spec":"SLUG"}}}}', required: true } },
    columns: 'documentBlock',
    examples: [
      'docsctl document compute sp4c3 --seed s1 --source \'{"type":"builtin:openapi","props":{"doc":"operation","page":"/pets","method":"get"},"dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"}}}}\'',
    ],
  },
});

export const getComputedRevision = defineRoute({
  id: 'getComputedRevision',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/content/computed/revision',
  summary: 'Compute the pages, files and reusable contents a computed content source gives (builtin:openapi)',
  source: 'real-api',
  access: 'read',
  safe: true,
  params: pathParams(...space),
  query: z.object({}),
  body: computedBody(),
  bodyRequired: true,
  cli: {
    command: 'page compute',
    summary: 'Compute the pages a computed source gives (builtin:openapi: a page per tag or per operation, and the models)',
    flags: { source: { flag: '--source <json>', type: 'json', description: 'the source: {"type":"builtin:openapi","props":{"models":true},"dependencies":{"spec":{"ref":{"kind":"openapi","spec":"SLUG"}}}}', required: true } },
    columns: 'page',
    examples: [
      'docsctl page compute sp4c3 --seed s1 --source \'{"type":"builtin:openapi","props":{"models":true,"grouping":"by-operation"},"dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"}}}}\'',
    ],
  },
});

// ─── Page meta links ───────────────────────────────────────────────────────

export const listChangeRequestPageMetaLinks = defineRoute({
  id: 'listChangeRequestPageMetaLinks',
  method: 'GET',
  path: `${crBase}/content/page/{pageId}/meta-links`,
  summary: 'Get the meta links (canonical and alternates) of a page in a change request',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'changeRequestId', 'pageId'),
  query: z.object({}),
  cli: {
    command: 'page meta-links',
    summary: "Show a page's meta links: its canonical URL and its alternates (front matter metaLinks)",
    argHelp: { pageId: 'page id or path (guides/setup)' },
    flags: {
      'params.changeRequestId': crFlag,
    },
    columns: 'metaLink',
    examples: ['docsctl page meta-links sp4c3 guides/setup', 'docsctl page meta-links sp4c3 p4g3 --cr 12 --json'],
  },
});

export const listSpacePageMetaLinks = defineRoute({
  id: 'listSpacePageMetaLinks',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content/page/{pageId}/meta-links',
  summary: 'Get the meta links (canonical and alternates) of a page of a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'pageId'),
  query: z.object({}),
});

export const listRevisionPageMetaLinks = defineRoute({
  id: 'listRevisionPageMetaLinks',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links',
  summary: 'Get the meta links (canonical and alternates) of a page in a revision',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'revisionId', 'pageId'),
  query: z.object({}),
  cli: {
    command: 'page meta-links-at',
    summary: "Show a page's meta links as they are in a revision of the space",
    columns: 'metaLink',
    examples: ['docsctl page meta-links-at sp4c3 r3v1s10n p4g3'],
  },
});

// ─── Embeds ────────────────────────────────────────────────────────────────

const embedUrl = z.string().min(1).max(2048).describe('the URL to embed');

export const getEmbedByUrlInSpace = defineRoute({
  id: 'getEmbedByUrlInSpace',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/embed',
  summary: 'Resolve a URL to an embed, as seen from a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space),
  query: z.object({ url: embedUrl }),
  cli: {
    command: 'url embed',
    summary: 'Show how a URL embeds: content docsctl serves as its title and site, any other URL as a link (never fetched)',
    args: [{ name: 'url', to: 'query.url', description: 'the URL to embed' }],
    flags: { 'params.spaceId': { flag: '--space <space>', description: 'resolve it as seen from this space' } },
    columns: 'embed',
    examples: ['docsctl url embed https://example.com/guide', 'docsctl url embed "$(docsctl page get sp4c3 p4g3 --json urls --query urls.app)" --space sp4c3'],
  },
});

export const getEmbedByUrl = defineRoute({
  id: 'getEmbedByUrl',
  method: 'GET',
  path: '/v1/urls/embed',
  summary: 'Resolve a URL to an embed',
  source: 'real-api',
  // The URL names the content: the handler answers a plain link for what the caller may not read.
  access: 'none',
  params: z.object({}),
  query: z.object({ url: embedUrl }),
});
