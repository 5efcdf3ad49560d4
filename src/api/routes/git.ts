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

// ─── Git Sync installations (@gitbook/api 0.202, tag `git`) ────────────────
// docsctl's provider is a set of Git repositories given by URL (`repositories`, a
// docsctl extension): see src/domain/git/installations.ts.

const GitProvider = z.enum(['github', 'gitlab']);
const InstallationTarget = z.discriminatedUnion('type', [
  z.object({ type: z.literal('space'), spaceId: z.string().min(1), siteId: z.string().min(1).optional() }),
  z.object({ type: z.literal('site'), siteId: z.string().min(1) }),
]);
const branchRef = z.string().regex(/^refs\/heads\/.+$/, 'must have the form refs/heads/<branch>');
/** The repositories an installation may use: Git URLs the caller's policy lets docsctl reach (docsctl extension). */
const repositories = z.array(z.string().min(1).max(2048)).max(100).optional().describe('Git URLs of the repositories the installation may use (docsctl extension)');

export const installGitSyncProviderOnTarget = defineRoute({
  id: 'installGitSyncProviderOnTarget',
  method: 'POST',
  path: '/v1/git/installations',
  summary: 'Install Git Sync on a space or a site',
  source: 'real-api',
  // The target's organization is in the body: the handler checks the caller is its admin.
  access: 'none',
  params: pathParams(),
  query: noQuery(),
  body: z.object({ provider: GitProvider, target: InstallationTarget, repositories }),
  bodyRequired: true,
  success: 201,
});

const installation = pathParams('installationId');

export const getGitSyncInstallationById = defineRoute({
  id: 'getGitSyncInstallationById',
  method: 'GET',
  path: '/v1/git/installations/{installationId}',
  summary: 'Get a Git Sync installation',
  source: 'real-api',
  access: 'read',
  params: installation,
  query: noQuery(),
});

export const updateGitSyncInstallationById = defineRoute({
  id: 'updateGitSyncInstallationById',
  method: 'PATCH',
  path: '/v1/git/installations/{installationId}',
  summary: 'Choose the repository and branch of a Git Sync installation, and its options',
  source: 'real-api',
  access: 'admin',
  params: installation,
  query: noQuery(),
  body: z.object({
    provider: GitProvider,
    providerConfiguration: z.object({
      repositoryId: z.number().int().positive().optional(),
      projectId: z.number().int().positive().optional(),
      branch: branchRef.optional(),
      accessToken: z.string().optional(),
      customInstanceURL: z.string().max(2048).nullable().optional(),
    }),
    projectDirectory: z.string().max(1024).optional(),
    commitMessageTemplate: z.string().max(1024).optional(),
    previewExternalBranches: z.boolean().optional(),
    agentInstructions: z.array(z.enum(['agents', 'claude'])).optional(),
    priority: z.enum(['git', 'gitbook']).optional(),
    childInstallationProjectDirectories: z.record(z.string(), z.string().max(1024)).optional(),
    repositories,
  }),
  bodyRequired: true,
});

export const uninstallGitSyncInstallation = defineRoute({
  id: 'uninstallGitSyncInstallation',
  method: 'DELETE',
  path: '/v1/git/installations/{installationId}',
  summary: 'Uninstall a Git Sync installation (and the space installations of a site installation)',
  source: 'real-api',
  access: 'admin',
  params: installation,
  query: noQuery(),
  success: 205,
});

const fileQuery = z.object({ path: z.string().min(1).max(4096).describe("the file's path in the repository"), ref: z.string().min(1).max(1024).describe('branch or tag') });

export const listGitHubRepositoriesForGitSyncInstallation = defineRoute({
  id: 'listGitHubRepositoriesForGitSyncInstallation',
  method: 'GET',
  path: '/v1/git/installations/{installationId}/github/repos',
  summary: 'List the repositories of a GitHub Git Sync installation',
  source: 'real-api',
  access: 'read',
  params: installation,
  query: noQuery(),
});

export const listGitHubRepoBranchesForGitSyncInstallation = defineRoute({
  id: 'listGitHubRepoBranchesForGitSyncInstallation',
  method: 'GET',
  path: '/v1/git/installations/{installationId}/github/repos/{accountName}/{repositoryName}/branches',
  summary: 'List the branches of a repository of a GitHub Git Sync installation',
  source: 'real-api',
  access: 'read',
  params: pathParams('installationId', 'accountName', 'repositoryName'),
  query: noQuery(),
});

export const getGitHubRepoFileForGitSyncInstallation = defineRoute({
  id: 'getGitHubRepoFileForGitSyncInstallation',
  method: 'GET',
  path: '/v1/git/installations/{installationId}/github/repos/{accountName}/{repositoryName}/file',
  summary: 'Find a file in a repository of a GitHub Git Sync installation',
  source: 'real-api',
  access: 'read',
  params: pathParams('installationId', 'accountName', 'repositoryName'),
  query: fileQuery,
});

const project = z.object({ installationId: z.string().min(1), projectId: z.string().regex(/^[1-9][0-9]{0,9}$/, 'must be a project number') });

export const listGitLabProjectsForGitSyncInstallation = defineRoute({
  id: 'listGitLabProjectsForGitSyncInstallation',
  method: 'GET',
  path: '/v1/git/installations/{installationId}/gitlab/projects',
  summary: 'List the projects of a GitLab Git Sync installation',
  source: 'real-api',
  access: 'read',
  params: installation,
  query: noQuery(),
});

export const listGitLabProjectBranchesForGitSyncInstallation = defineRoute({
  id: 'listGitLabProjectBranchesForGitSyncInstallation',
  method: 'GET',
  path: '/v1/git/installations/{installationId}/gitlab/projects/{projectId}/branches',
  summary: 'List the branches of a project of a GitLab Git Sync installation',
  source: 'real-api',
  access: 'read',
  params: project,
  query: noQuery(),
});

export const getGitLabProjectFileForGitSyncInstallation = defineRoute({
  id: 'getGitLabProjectFileForGitSyncInstallation',
  method: 'GET',
  path: '/v1/git/installations/{installationId}/gitlab/projects/{projectId}/file',
  summary: 'Find a file in a project of a GitLab Git Sync installation',
  source: 'real-api',
  access: 'read',
  params: project,
  query: fileQuery,
});

export const listSiteGitSyncInstallations = defineRoute({
  id: 'listSiteGitSyncInstallations',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/spaces/git/installations',
  summary: 'List the Git Sync installations of a site and its spaces',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId', 'siteId'),
  query: noQuery(),
});
