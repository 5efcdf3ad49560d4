/**
 * Git Sync installations: a provider whose repositories are Git URLs. Installed on a
 * space or a site, pending until a repository and an existing branch are chosen, then
 * active with its connection; listings answer from the repositories through git
 * (default branch, branches, a file's blob id and size); a site's space installations
 * take the site installation's repository and go with it; hostile URLs and paths never
 * reach git or the host.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RawInput } from '../../src/api/validate.js';
import { ApiError } from '../../src/api/errors.js';
import { executeOperation } from '../../src/domain/execute.js';
import { getRoute } from '../../src/api/table.js';
import type { RouteId } from '../../src/api/route-id.js';
import { SERVE_POLICY } from '../../src/domain/input-policy.js';
import { type Harness, setup, ORIGIN } from './harness.js';
import { isolateGit, makeRemote, type TestRemote } from '../git/helpers.js';

let env: ReturnType<typeof isolateGit>;
const remotes: TestRemote[] = [];
let docs: TestRemote;
let api: TestRemote;
beforeAll(() => {
  env = isolateGit();
  docs = makeRemote({ 'README.md': '# Docs\n', 'docs/guide.md': '# Guide\n\nSteps.\n' });
  docs.commit({ 'docs/guide.md': '# Guide\n\nFeature.\n' }, 'feature', 'feature');
  api = makeRemote({ 'README.md': '# API\n' });
  remotes.push(docs, api);
});
afterAll(() => {
  for (const remote of remotes) remote.cleanup();
  env.cleanup();
});

let h: Harness;
let space: string;
beforeEach(async () => {
  h = await setup();
  space = (await h.createSpace({ title: 'Guide' })).id;
});

type Installation = Record<string, unknown> & { id: string; status: string };
const install = (body: Record<string, unknown>) => h.admin.ok<Installation>('installGitSyncProviderOnTarget', { body }, 201);
const byId = (installationId: string, extra: RawInput = {}): RawInput => ({ ...extra, params: { installationId, ...(extra.params ?? {}) } });
const accountOf = (remote: TestRemote) => remote.root.split('/').at(-1) as string;

describe('Git Sync installations', () => {
  it('install pending on a space, choose a repository and branch, then active with the connection', async () => {
    const created = await install({ provider: 'github', target: { type: 'space', spaceId: space }, repositories: [docs.url, api.url] });
    expect(created).toMatchObject({
      object: 'git-sync-installation',
      provider: 'github',
      providerConfiguration: {},
      target: { type: 'space', spaceId: space },
      status: 'pending',
      createdBy: h.adminId,
      urls: { location: `${ORIGIN}/v1/git/installations/${created.id}` },
      repositories: [
        { id: 1, url: docs.url, fullName: `${accountOf(docs)}/remote` },
        { id: 2, url: api.url, fullName: `${accountOf(api)}/remote` },
      ],
    });
    expect(created.repositoryConnection).toBeUndefined();

    const repos = await h.admin.ok<{ items: unknown[] }>('listGitHubRepositoriesForGitSyncInstallation', byId(created.id));
    expect(repos.items).toEqual([
      { id: 1, accountName: accountOf(docs), repositoryName: 'remote', fullName: `${accountOf(docs)}/remote`, defaultBranch: 'main' },
      { id: 2, accountName: accountOf(api), repositoryName: 'remote', fullName: `${accountOf(api)}/remote`, defaultBranch: 'main' },
    ]);
    const branches = await h.admin.ok<{ items: unknown[] }>('listGitHubRepoBranchesForGitSyncInstallation', byId(created.id, { params: { accountName: accountOf(docs), repositoryName: 'remote' } }));
    expect(branches.items).toEqual([
      { name: 'feature', ref: 'refs/heads/feature' },
      { name: 'main', ref: 'refs/heads/main' },
    ]);
    const file = await h.admin.ok('getGitHubRepoFileForGitSyncInstallation', byId(created.id, { params: { accountName: accountOf(docs), repositoryName: 'remote' }, query: { path: 'docs/guide.md', ref: 'feature' } }));
    expect(file).toEqual({ name: 'guide.md', path: 'docs/guide.md', sha: expect.stringMatching(/^[0-9a-f]{40}$/), size: '# Guide\n\nFeature.\n'.length });

    await h.admin.fails('updateGitSyncInstallationById', byId(created.id, { body: { provider: 'github', providerConfiguration: { repositoryId: 1, branch: 'refs/heads/nope' } } }), 404, /Branch nope not found/);
    const active = await h.admin.ok<Installation>('updateGitSyncInstallationById', byId(created.id, { body: { provider: 'github', providerConfiguration: { repositoryId: 1, branch: 'refs/heads/main' }, projectDirectory: './docs/', priority: 'git' } }));
    expect(active).toMatchObject({
      status: 'active',
      providerConfiguration: { repositoryId: 1, branch: 'refs/heads/main' },
      projectDirectory: 'docs',
      priority: 'git',
      repositoryConnection: { object: 'git-repository-connection', provider: 'github', repositoryId: '1', repositoryName: `${accountOf(docs)}/remote`, repositoryUrl: docs.url, defaultBranch: 'main', authState: 'active' },
      repositoryRef: { object: 'git-repository-ref', name: 'refs/heads/main', type: 'branch', latestObservedCommitId: docs.head('main') },
    });
    expect(await h.admin.ok('getGitSyncInstallationById', byId(created.id))).toEqual(active);
    await h.admin.fails('installGitSyncProviderOnTarget', { body: { provider: 'github', target: { type: 'space', spaceId: space } } }, 409, /already has Git Sync installation/);
    const gone = await h.admin.call('uninstallGitSyncInstallation', byId(created.id));
    expect(gone.status).toBe(205);
    await h.admin.fails('getGitSyncInstallationById', byId(created.id), 404);
  });

  it('GitLab: projects by number, the other provider\'s listings refuse', async () => {
    const created = await install({ provider: 'gitlab', target: { type: 'space', spaceId: space }, repositories: [api.url] });
    expect((await h.admin.ok<{ items: unknown[] }>('listGitLabProjectsForGitSyncInstallation', byId(created.id))).items).toEqual([
      { id: 1, accountName: accountOf(api), repositoryName: 'remote', fullName: `${accountOf(api)}/remote`, defaultBranch: 'main' },
    ]);
    expect((await h.admin.ok<{ items: unknown[] }>('listGitLabProjectBranchesForGitSyncInstallation', byId(created.id, { params: { projectId: '1' } }))).items).toEqual([{ name: 'main', ref: 'refs/heads/main' }]);
    expect(await h.admin.ok('getGitLabProjectFileForGitSyncInstallation', byId(created.id, { params: { projectId: '1' }, query: { path: 'README.md', ref: 'refs/heads/main' } }))).toMatchObject({ name: 'README.md', size: 6 });
    await h.admin.fails('listGitHubRepositoriesForGitSyncInstallation', byId(created.id), 404, /is a gitlab installation/);
    await h.admin.fails('listGitLabProjectBranchesForGitSyncInstallation', byId(created.id, { params: { projectId: '7' } }), 404, /Project 7 is not among/);
    const active = await h.admin.ok<Installation>('updateGitSyncInstallationById', byId(created.id, { body: { provider: 'gitlab', providerConfiguration: { projectId: 1, branch: 'refs/heads/main', customInstanceURL: 'https://gitlab.acme.test' } } }));
    expect(active).toMatchObject({ status: 'active', providerConfiguration: { projectId: 1, branch: 'refs/heads/main', customInstanceURL: 'https://gitlab.acme.test' } });
  });

  it('a site installation: its space installations take its repository and go with it; the site lists them all', async () => {
    const other = (await h.createSpace({ title: 'Other' })).id;
    const site = await h.admin.ok<{ id: string }>('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs', spaces: [space] } }, 201);
    await h.admin.fails('installGitSyncProviderOnTarget', { body: { provider: 'github', target: { type: 'space', spaceId: space, siteId: site.id } } }, 404, /has no Git Sync installation/);
    const parent = await install({ provider: 'github', target: { type: 'site', siteId: site.id }, repositories: [docs.url] });
    const child = await install({ provider: 'github', target: { type: 'space', spaceId: space, siteId: site.id } });
    await h.admin.fails('installGitSyncProviderOnTarget', { body: { provider: 'github', target: { type: 'space', spaceId: other, siteId: site.id } } }, 400, /is not in site/);
    expect(child).toMatchObject({ parentInstallationId: parent.id, status: 'pending' });
    await h.admin.ok('updateGitSyncInstallationById', byId(parent.id, { body: { provider: 'github', providerConfiguration: { repositoryId: 1, branch: 'refs/heads/feature' }, childInstallationProjectDirectories: { [child.id]: 'docs' } } }));
    const inherited = await h.admin.ok<Installation>('getGitSyncInstallationById', byId(child.id));
    expect(inherited).toMatchObject({ status: 'active', projectDirectory: 'docs', providerConfiguration: { repositoryId: 1, branch: 'refs/heads/feature' }, repositoryRef: { latestObservedCommitId: docs.head('feature') } });
    await h.admin.fails('updateGitSyncInstallationById', byId(child.id, { body: { provider: 'github', providerConfiguration: { repositoryId: 1 } } }), 400, /belongs to site installation/);
    const listed = await h.admin.ok<{ items: Installation[] }>('listSiteGitSyncInstallations', { params: { organizationId: h.orgId, siteId: site.id } });
    expect(listed.items.map((item) => item.id)).toEqual([parent.id, child.id]);
    expect((await h.admin.call('uninstallGitSyncInstallation', byId(parent.id))).status).toBe(205);
    await h.admin.fails('getGitSyncInstallationById', byId(child.id), 404);
    expect((await h.admin.ok<{ items: unknown[] }>('listSiteGitSyncInstallations', { params: { organizationId: h.orgId, siteId: site.id } })).items).toEqual([]);
  });

  it('a space that syncs with Git starts with its repository', async () => {
    await h.admin.ok('importGitRepository', { params: { spaceId: space }, body: { url: docs.url, ref: 'refs/heads/main' } }, 204);
    const created = await install({ provider: 'github', target: { type: 'space', spaceId: space } });
    expect(created.repositories).toEqual([{ id: 1, url: docs.url, fullName: `${accountOf(docs)}/remote` }]);
  });

  it('hostile input: URLs git must not see, credentials, paths out of the repository, a policy that forbids the host', async () => {
    await h.admin.fails('installGitSyncProviderOnTarget', { body: { provider: 'github', target: { type: 'space', spaceId: space }, repositories: ['ext::sh -c touch% /tmp/pwned'] } }, 400, /remote helpers/);
    await h.admin.fails('installGitSyncProviderOnTarget', { body: { provider: 'github', target: { type: 'space', spaceId: space }, repositories: ['--upload-pack=touch /tmp/x'] } }, 400, /starts with "-"/);
    await h.admin.fails('installGitSyncProviderOnTarget', { body: { provider: 'github', target: { type: 'space', spaceId: space }, repositories: ['https://bob:secret@git.acme.test/a/b.git'] } }, 400, /keeps no credentials/);
    const created = await install({ provider: 'github', target: { type: 'space', spaceId: space }, repositories: [docs.url] });
    const file = (path: string, ref = 'main') => byId(created.id, { params: { accountName: accountOf(docs), repositoryName: 'remote' }, query: { path, ref } });
    await h.admin.fails('getGitHubRepoFileForGitSyncInstallation', file('../../etc/passwd'), 400, /Invalid path/);
    await h.admin.fails('getGitHubRepoFileForGitSyncInstallation', file('/etc/passwd'), 400, /Invalid path/);
    await h.admin.fails('getGitHubRepoFileForGitSyncInstallation', file('docs'), 404, /is a directory/);
    await h.admin.fails('getGitHubRepoFileForGitSyncInstallation', file('README.md', '--upload-pack=x'), 400, /Invalid ref/);
    await h.admin.fails('getGitHubRepoFileForGitSyncInstallation', file('README.md', 'nope'), 404, /No branch or tag "nope"/);
    // Under serve's default policy, the same local repository is out of reach: 403, and git never runs.
    const served = await executeOperation(
      { store: h.store, actor: { userId: h.adminId }, clock: h.clock, ids: h.ids, origin: ORIGIN, policy: SERVE_POLICY },
      getRoute('listGitHubRepoBranchesForGitSyncInstallation' as RouteId),
      file('README.md'),
    ).catch((error: unknown) => error);
    expect(served).toBeInstanceOf(ApiError);
    expect((served as ApiError).status).toBe(403);
  });
});
