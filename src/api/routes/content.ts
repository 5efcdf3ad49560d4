/**
 * API doc §4.9 Change request content, plus the real API's space content reads and
 * imports the CLI needs (gaps.md §2.2).
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import {
  ContentReferenceStatus,
  DocumentFormat,
  ImportContentSource,
  noQuery,
  paginationQuery,
  pathParams,
  qBool,
  qBoolOr,
} from '../schemas/common.js';

// ─── Helper schemas ────────────────────────────────────────────────────────

/** `metadata` (default true; false omits mutable git metadata) and `computed` (default true). */
const contentQuery = {
  metadata: qBool().optional(),
  computed: qBool().optional(),
};

/**
 * The page-tree listings also take `bodies` (docsctl only, default true): false
 * leaves every page's Markdown out, so a tree read (site tree, site inspect) costs
 * titles and paths, not bodies. A server that does not know it ignores it and
 * answers its usual listing, which carries the same tree.
 */
const pageListQuery = { ...contentQuery, bodies: qBool().optional() };

/** `evaluated` of page reads: a boolean or `deterministic-only` (default false). */
const qEvaluated = () => qBoolOr('deterministic-only');

/**
 * Query of a single page read. 0.202: `dereferenced` (true or `reusable-contents`: the page's
 * `{% include %}` tags expanded, the only references docsctl's documents hold), and
 * `format.markdown.refs`: `relative` (links as the page writes them, relative to it: what docsctl
 * answers); `stable` answers 501. `cachedMetadata` (reads by path): docsctl keeps no cache of Git
 * metadata, so every answer is current, which the parameter allows.
 */
const pageQuery = () =>
  z.object({
    format: DocumentFormat.optional(),
    'format.markdown.refs': z.enum(['relative', 'stable']).optional(),
    evaluated: qEvaluated().optional(),
    dereferenced: qBoolOr('reusable-contents').optional(),
    cachedMetadata: qBool().optional(),
    ...contentQuery,
  });

/** Body of content imports. */
const ImportContent = z.object({ url: z.string().url(), source: ImportContentSource });

const space = ['spaceId'] as const;
const cr = ['spaceId', 'changeRequestId'] as const;
const crBase = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}';

// ─── §4.9 Change request content ───────────────────────────────────────────

export const getRevisionOfChangeRequestById = defineRoute({
  id: 'getRevisionOfChangeRequestById',
  method: 'GET',
  path: `${crBase}/content`,
  summary: 'Get the revision of a change request',
  source: 'doc 4.9',
  access: 'read',
  params: pathParams(...cr),
  query: z.object(contentQuery),
});

export const importContentInChangeRequest = defineRoute({
  id: 'importContentInChangeRequest',
  method: 'POST',
  path: `${crBase}/content/import`,
  summary: 'Import content from a URL into a change request',
  source: 'doc 4.9',
  access: 'edit',
  params: pathParams(...cr),
  query: noQuery(),
  body: ImportContent,
  bodyRequired: true,
  success: 201,
});

export const importContentInChangeRequestPageById = defineRoute({
  id: 'importContentInChangeRequestPageById',
  method: 'POST',
  path: `${crBase}/content/page/{pageId}/import`,
  summary: 'Import content from a URL under a page of a change request',
  source: 'real-api',
  access: 'edit',
  params: pathParams(...cr, 'pageId'),
  query: noQuery(),
  body: ImportContent,
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'cr import',
    summary:
      'Import Markdown (a file, a Git Sync directory, or a .zip) into a change request: pages at the same path are updated, others added (at the end, or under --parent); nothing is deleted. To mirror a directory exactly (removing pages it does not have), use "docsctl git import SPACE DIR"',
    args: ['spaceId', 'changeRequestId', { name: 'path', to: 'body.url' }],
    argHelp: { path: 'local file or directory (Markdown, Git Sync layout or .zip), file:// or http(s):// URL' },
    flags: { source: { type: 'string' }, 'params.pageId': { flag: '--parent <pageId>', description: 'add the new pages under this page' } },
    columns: 'importResult',
    examples: [
      'docsctl cr import sp4c3 12 ./docs',
      'docsctl cr import sp4c3 12 install.md --parent pg123      # one page, under another',
      'docsctl cr import sp4c3 12 docs.zip',
      'docsctl cr import sp4c3 12 https://example.com/guide.md',
      'docsctl git import sp4c3 ./docs                            # mirror: also removes pages',
    ],
  },
});

/**
 * One change of `updateChangeRequestContent` (the newest real API's page editing,
 * gaps.md §2.2). docsctl implements `update_page` (metadata, a Markdown document, a move
 * with `into`/`at`), `insert_page`, `delete_page`, `revert_page` and `insert_files`
 * (files from inline base64 or a URL, src/domain/content/page-edit.ts).
 * `linkTitle` is GitBook's page link title (the quoted title of the page's
 * SUMMARY.md link in Git Sync); `null` removes it.
 */
const ChangeRequestContentChange = z.object({
  operation: z.enum(['update_page', 'insert_page', 'delete_page', 'revert_page', 'insert_files']),
  page: z.string().min(1).optional(),
  title: z.string().min(1).max(200).optional(),
  /** The page's slug in its parent (unique among its siblings: a collision is refused); insert_page: absent, from the title. */
  slug: z.string().max(100).optional(),
  /** An emoji or an icon name; "" removes it. */
  emoji: z.string().max(50).optional(),
  icon: z.string().max(50).optional(),
  linkTitle: z.string().min(1).max(200).nullable().optional(),
  description: z.string().max(1000).nullable().optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
  /** update_page: the new parent (null: the root); insert_page: the parent (absent: the root). */
  into: z.string().min(1).nullable().optional(),
  /** Zero-based position among the new siblings (absent: the end, or unchanged when the parent does not change). */
  at: z.number().int().min(0).optional(),
  /** insert_page: a name for the new page within this batch, echoed in the answer (compat=false). */
  ref: z.string().min(1).max(100).optional(),
  /** insert_files: 1 to 20 files, each from `url` or `base64` (exactly one; checked by the handler, which names the file). */
  files: z
    .array(
      z.object({
        ref: z.string().min(1).max(100).optional(),
        name: z.string().min(1).max(256),
        contentType: z.string().min(1).max(255).optional(),
        url: z.string().max(2048).optional(),
        base64: z.string().optional(),
      }),
    )
    .min(1)
    .max(20)
    .optional(),
}).passthrough();

export const updateChangeRequestContent = defineRoute({
  id: 'updateChangeRequestContent',
  method: 'POST',
  path: `${crBase}/content`,
  summary: 'Apply a batch of content changes (insert, update, move, delete and revert pages) to a change request',
  source: 'real-api',
  access: 'edit',
  params: pathParams(...cr),
  query: z.object({ compat: qBool().optional() }),
  body: z.object({ changes: z.array(ChangeRequestContentChange).min(1).max(50) }),
  bodyRequired: true,
  cli: {
    command: 'page edit',
    summary: 'Change the title, slug, emoji, icon, link title or description of a page in a change request, or move it (merge it to publish)',
    args: ['spaceId', { name: 'pageId', byHook: true }],
    argHelp: { pageId: 'page id or path (guides/setup)' },
    flags: {
      'params.changeRequestId': { flag: '--cr <changeRequest>', description: 'the change request to edit (id or number); create one with "docsctl cr create"', required: true },
      changes: false,
      compat: false,
    },
    columns: 'changeRequest',
    examples: [
      'docsctl page edit sp4c3 p4g3 --cr 12 --link-title "Install"',
      'docsctl page edit sp4c3 p4g3 --cr 12 --link-title none      # remove it',
      'docsctl page edit sp4c3 guides/setup --cr 12 --parent root --position 0',
      'docsctl page edit sp4c3 guides/setup --cr 12 --slug installation --emoji 1f680',
      'docsctl cr merge sp4c3 12 && docsctl git export sp4c3 https://github.com/acme/docs.git -m "Link titles"',
    ],
  },
});

export const listPagesInChangeRequest = defineRoute({
  id: 'listPagesInChangeRequest',
  method: 'GET',
  path: `${crBase}/content/pages`,
  summary: 'List the page tree of a change request',
  source: 'doc 4.9',
  access: 'read',
  params: pathParams(...cr),
  query: z.object(pageListQuery),
  cli: {
    command: 'page list',
    summary: 'Show the pages of a space (or of a change request) as a tree',
    aliases: ['ls'],
    flags: {
      'params.changeRequestId': { flag: '--cr <changeRequest>', description: 'read the content of this change request (id or number) instead of the space' },
      metadata: false,
      computed: false,
      bodies: false,
    },
    columns: 'page',
    examples: ['docsctl page list sp4c3', 'docsctl page list sp4c3 --cr 12 --json'],
  },
});

export const listFilesInChangeRequestById = defineRoute({
  id: 'listFilesInChangeRequestById',
  method: 'GET',
  path: `${crBase}/content/files`,
  summary: 'List the files of a change request',
  source: 'doc 4.9',
  access: 'read',
  params: pathParams(...cr),
  query: z.object({ ...paginationQuery, ...contentQuery }),
  paginated: true,
  cli: {
    command: 'file list',
    summary: 'List the files of a space (or of a change request)',
    aliases: ['ls'],
    flags: {
      'params.changeRequestId': { flag: '--cr <changeRequest>', description: 'read the content of this change request (id or number) instead of the space' },
      metadata: false,
      computed: false,
    },
    columns: 'file',
    noun: 'file',
    examples: ['docsctl file list sp4c3 --all'],
  },
});

export const getFileInChangeRequestById = defineRoute({
  id: 'getFileInChangeRequestById',
  method: 'GET',
  path: `${crBase}/content/files/{fileId}`,
  summary: 'Get a file of a change request',
  source: 'doc 4.9',
  access: 'read',
  params: pathParams(...cr, 'fileId'),
  query: z.object(contentQuery),
  cli: {
    command: 'file get',
    summary: 'Show a file of a space (or of a change request)',
    flags: {
      'params.changeRequestId': { flag: '--cr <changeRequest>', description: 'read the content of this change request (id or number) instead of the space' },
      metadata: false,
      computed: false,
    },
    columns: 'file',
    examples: ['docsctl file get sp4c3 f1l3 --json | jq -r .downloadURL'],
  },
});

export const listChangeRequestFileBacklinks = defineRoute({
  id: 'listChangeRequestFileBacklinks',
  method: 'GET',
  path: `${crBase}/content/files/{fileId}/backlinks`,
  summary: 'List the places that reference a file of a change request',
  source: 'doc 4.9',
  access: 'read',
  params: pathParams(...cr, 'fileId'),
  query: z.object(paginationQuery),
  paginated: true,
});

export const getPageInChangeRequestById = defineRoute({
  id: 'getPageInChangeRequestById',
  method: 'GET',
  path: `${crBase}/content/page/{pageId}`,
  summary: 'Get a page of a change request by id',
  source: 'doc 4.9',
  access: 'read',
  params: pathParams(...cr, 'pageId'),
  query: pageQuery(),
  cli: {
    command: 'page get',
    summary: 'Show a page; --format markdown prints its body',
    argHelp: { pageId: 'page id or path (guides/setup)' },
    flags: {
      'params.changeRequestId': { flag: '--cr <changeRequest>', description: 'read the content of this change request (id or number) instead of the space' },
      format: false,
      evaluated: false,
      metadata: false,
      computed: false,
      dereferenced: { flag: '--dereferenced', type: 'boolean', description: "expand the reusable contents the page includes into its Markdown" },
      'format.markdown.refs': false,
      cachedMetadata: false,
    },
    columns: 'page',
    examples: [
      'docsctl page get sp4c3 p4g3',
      'docsctl page get sp4c3 guides/setup --dereferenced --format markdown',
      'docsctl page get sp4c3 guides/setup --format markdown > setup.md',
      'docsctl page get sp4c3 p4g3 --web',
    ],
  },
});

export const listPageLinksInChangeRequest = defineRoute({
  id: 'listPageLinksInChangeRequest',
  method: 'GET',
  path: `${crBase}/content/page/{pageId}/links`,
  summary: 'List the links of a page of a change request',
  source: 'doc 4.9',
  access: 'read',
  params: pathParams(...cr, 'pageId'),
  query: z.object(paginationQuery),
  paginated: true,
});

// ─── Change request content, real API only ─────────────────────────────────

export const getPageInChangeRequestByPath = defineRoute({
  id: 'getPageInChangeRequestByPath',
  method: 'GET',
  path: `${crBase}/content/path/{pagePath}`,
  summary: 'Get a page of a change request by path',
  source: 'real-api',
  access: 'read',
  params: pathParams(...cr, 'pagePath'),
  query: pageQuery(),
});

export const listChangeRequestLinks = defineRoute({
  id: 'listChangeRequestLinks',
  method: 'GET',
  path: `${crBase}/links`,
  summary: 'List the links in the content of a change request',
  source: 'real-api',
  access: 'read',
  params: pathParams(...cr),
  query: z.object({
    ...paginationQuery,
    status: ContentReferenceStatus.optional(),
    brokenContext: z.enum(['change-request', 'space']).optional(),
  }),
  paginated: true,
});

// ─── Space content, real API only ──────────────────────────────────────────

export const getCurrentRevision = defineRoute({
  id: 'getCurrentRevision',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content',
  summary: 'Get the current revision of a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space),
  query: z.object(contentQuery),
});

export const importContent = defineRoute({
  id: 'importContent',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/content/import',
  summary: 'Import content from a URL into a space',
  source: 'real-api',
  access: 'edit',
  params: pathParams(...space),
  query: noQuery(),
  body: ImportContent,
  bodyRequired: true,
  success: 201,
});

export const importContentInPageById = defineRoute({
  id: 'importContentInPageById',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/content/page/{pageId}/import',
  summary: 'Import content from a URL under a page of a space',
  source: 'real-api',
  access: 'edit',
  params: pathParams(...space, 'pageId'),
  query: noQuery(),
  body: ImportContent,
  bodyRequired: true,
  success: 201,
});

export const listPages = defineRoute({
  id: 'listPages',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content/pages',
  summary: 'List the page tree of a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space),
  query: z.object(pageListQuery),
});

export const listFiles = defineRoute({
  id: 'listFiles',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content/files',
  summary: 'List the files of a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space),
  query: z.object({ ...paginationQuery, ...contentQuery }),
  paginated: true,
});

export const getFileById = defineRoute({
  id: 'getFileById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content/files/{fileId}',
  summary: 'Get a file of a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'fileId'),
  query: z.object(contentQuery),
});

export const listSpaceFileBacklinks = defineRoute({
  id: 'listSpaceFileBacklinks',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content/files/{fileId}/backlinks',
  summary: 'List the places that reference a file of a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'fileId'),
  query: z.object(paginationQuery),
  paginated: true,
});

export const getPageById = defineRoute({
  id: 'getPageById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content/page/{pageId}',
  summary: 'Get a page of a space by id',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'pageId'),
  query: pageQuery(),
});

export const listSpacePageBacklinks = defineRoute({
  id: 'listSpacePageBacklinks',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content/page/{pageId}/backlinks',
  summary: 'List the places that link to a page of a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'pageId'),
  query: z.object(paginationQuery),
  paginated: true,
});

export const listPageLinksInSpace = defineRoute({
  id: 'listPageLinksInSpace',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content/page/{pageId}/links',
  summary: 'List the links of a page of a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'pageId'),
  query: z.object({ ...paginationQuery, status: ContentReferenceStatus.optional() }),
  paginated: true,
});

export const getPageByPath = defineRoute({
  id: 'getPageByPath',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/content/path/{pagePath}',
  summary: 'Get a page of a space by path',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'pagePath'),
  query: pageQuery(),
});

export const getRevisionById = defineRoute({
  id: 'getRevisionById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}',
  summary: 'Get a revision of a space',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'revisionId'),
  query: z.object(contentQuery),
});

export const getSpacePDF = defineRoute({
  id: 'getSpacePDF',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/pdf',
  summary: 'Get a temporary URL to print a space as PDF',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space),
  query: z.object({ only: qBool().optional(), page: z.string().optional() }),
});

// ─── Pages of any revision (real API): what `cr diff` and `cr merge` read to show changes and conflicts ───

export const listPagesInRevisionById = defineRoute({
  id: 'listPagesInRevisionById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}/pages',
  summary: 'List the pages of a revision',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'revisionId'),
  query: z.object(pageListQuery),
});

export const getPageInRevisionById = defineRoute({
  id: 'getPageInRevisionById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}',
  summary: 'Get a page of a revision by id',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'revisionId', 'pageId'),
  query: pageQuery(),
});

export const getPageInRevisionByPath = defineRoute({
  id: 'getPageInRevisionByPath',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}',
  summary: 'Get a page of a revision by its path',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'revisionId', 'pagePath'),
  query: pageQuery(),
});

export const getFileInRevisionById = defineRoute({
  id: 'getFileInRevisionById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}',
  summary: 'Get a file of a revision by id',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'revisionId', 'fileId'),
  query: z.object(contentQuery),
  cli: {
    command: 'file at',
    summary: 'Show a file as it is in a revision of a space (a past one, or a change request\'s)',
    flags: { metadata: { flag: '--no-metadata', description: 'leave out its Git metadata (git.oid, git.path)' }, computed: false },
    columns: 'file',
    examples: ['docsctl file at sp4c3 r3v1s10n f1l3', 'docsctl file at sp4c3 r3v1s10n f1l3 --json downloadURL'],
  },
});

export const listFilesInRevisionById = defineRoute({
  id: 'listFilesInRevisionById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/revisions/{revisionId}/files',
  summary: 'List the files of a revision',
  source: 'real-api',
  access: 'read',
  params: pathParams(...space, 'revisionId'),
  query: z.object({ ...paginationQuery, ...contentQuery }),
  paginated: true,
});

// ─── URL resolution (real API) ─────────────────────────────────────────────

export const getContentByUrl = defineRoute({
  id: 'getContentByUrl',
  method: 'GET',
  path: '/v1/urls/content',
  summary: 'Resolve an app URL to the collection, or the space (and change request and page) it shows',
  source: 'real-api',
  // The URL names the object: the handler finds it and answers 404 to whoever may not read it.
  access: 'none',
  params: z.object({}),
  query: z.object({ url: z.string().min(1).max(2048).describe('an app URL: .../o/ORG/s/SPACE[/~/changes/CR][/PAGE/PATH] or .../o/ORG/c/COLLECTION') }),
  cli: {
    command: 'url resolve',
    summary: 'Show what an app URL points to: a collection, or a space with its change request and page',
    args: [{ name: 'url', to: 'query.url', description: 'the app URL (urls.app of a space, change request, page or collection)' }],
    columns: 'urlContent',
    examples: [
      'docsctl url resolve https://app.gitbook.com/o/0rg/s/sp4c3/getting-started/install',
      'docsctl url resolve "$(docsctl page get sp4c3 guide --json urls --query urls.app)" --json page.id',
    ],
  },
});
