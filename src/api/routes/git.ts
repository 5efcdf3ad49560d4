/** API doc §4.19 Git import, export and info of a space. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { noQuery, pathParams } from '../schemas/common.js';

/** The fields import and export share. */
const gitSyncFields = {
  /** Repository URL; may contain basic-auth credentials. */
  url: z.string().min(1),
  /** Branch ref, `refs/heads/<branch>`. */
  ref: z.string().regex(/^refs\/heads\/.+$/, 'must have the form refs/heads/<branch>'),
  repoCacheID: z.string().optional(),
  /** Prefix for external file references. */
  repoTreeURL: z.string().optional(),
  /** Prefix for commit URLs. */
  repoCommitURL: z.string().optional(),
  /** Root directory of the project in the repository. */
  repoProjectDirectory: z.string().optional(),
  /** Date-time of the triggering event (keeps import and export ordered). */
  timestamp: z.string().datetime({ offset: true }).optional(),
  force: z.boolean().optional(),
  gitInfo: z.object({ provider: z.enum(['github', 'gitlab']).optional(), url: z.string().optional() }).optional(),
};

export const importGitRepository = defineRoute({
  id: 'importGitRepository',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/git/import',
  summary: 'Start importing a Git repository into a space',
  source: 'doc 4.19',
  access: 'edit',
  params: pathParams('spaceId'),
  query: noQuery(),
  body: z.object({
    ...gitSyncFields,
    /** A full ref (`refs/heads/main`, `refs/tags/v1`, `refs/pull/1/head`), `HEAD`, or a full commit id (checked by the handler). */
    ref: z.string().min(1),
    /** When true a revision is generated without updating the primary content. */
    standalone: z.boolean().optional(),
  }),
  bodyRequired: true,
  success: 204,
});

export const exportToGitRepository = defineRoute({
  id: 'exportToGitRepository',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/git/export',
  summary: 'Start exporting a space to a Git repository',
  source: 'doc 4.19',
  access: 'edit',
  params: pathParams('spaceId'),
  query: noQuery(),
  body: z.object({
    ...gitSyncFields,
    commitMessage: z.string().min(1),
    /** When true, a snapshot export that is not linked to the repository. */
    standalone: z.boolean().optional(),
    /** The commit's author, `Name <email>` (a docsctl extension: GitBook commits as itself). */
    author: z.string().min(1).optional(),
  }),
  bodyRequired: true,
  success: 204,
});

export const getSpaceGitInfo = defineRoute({
  id: 'getSpaceGitInfo',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/git/info',
  summary: 'Get the Git sync state of a space',
  source: 'doc 4.19',
  access: 'read',
  params: pathParams('spaceId'),
  query: noQuery(),
});

// ─── docsctl extensions: previews (`git import|export --dry-run`) ──────────
// Not GitBook operations: only `docsctl serve` and the local mode answer them.
// They change nothing (safe), need the role the sync itself needs, and read the
// repository and the space where the sync would: on the server.

export const previewGitImport = defineRoute({
  id: 'previewGitImport',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/x-docsctl/git/import-preview',
  summary: 'Preview an import from a Git repository: the pages and files it would change (docsctl extension)',
  source: 'docsctl',
  access: 'edit',
  safe: true,
  params: pathParams('spaceId'),
  query: noQuery(),
  body: z.object({ ...gitSyncFields, ref: z.string().min(1) }),
  bodyRequired: true,
});

export const previewGitExport = defineRoute({
  id: 'previewGitExport',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/x-docsctl/git/export-preview',
  summary: 'Preview an export to a Git repository: the files it would write and delete (docsctl extension)',
  source: 'docsctl',
  access: 'edit',
  safe: true,
  params: pathParams('spaceId'),
  query: noQuery(),
  body: z.object({ ...gitSyncFields, standalone: z.boolean().optional(), author: z.string().min(1).optional() }),
  bodyRequired: true,
});
