/**
 * The official GitBook client (@gitbook/api 0.202) against `docsctl serve` for import
 * runs, `applyTemplateToSpace` and Git Sync installations: the client's own URLs,
 * bodies and query strings, every 2xx answer checked against 0.202's response schema,
 * values asserted; a finished run's cancel and an unknown installation as
 * GitBookAPIError 400 and 404.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { GIT_ENV, isolateGit } from '../git/helpers.js';
import { checkedCall, clientOperation } from './official-client.js';

const root = realpathSync(mkdtempSync(join(os.tmpdir(), 'docsctl-contract-git-')));
let gitEnv: ReturnType<typeof isolateGit>;
let server: RunningServer;
let api: GitBookAPI;
let org: string;
let repo: string;

/** Calls the client's operation, expects `status`, and checks the answer against 0.202's schema for it. */
const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);

async function failure(promise: Promise<unknown>): Promise<GitBookAPIError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GitBookAPIError);
  return error as GitBookAPIError;
}

beforeAll(async () => {
  gitEnv = isolateGit();
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV } });
  const work = join(root, 'work');
  mkdirSync(work);
  git(root, 'init', '-q', '-b', 'main', work);
  writeFileSync(join(work, 'README.md'), '# Handbook\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'Handbook');
  mkdirSync(join(root, 'acme'));
  repo = join(root, 'acme', 'handbook.git');
  git(root, 'clone', '-q', '--bare', work, repo);
  writeFileSync(join(root, 'guide.md'), '# Guide\n\nSteps.\n');

  const store = new MemoryStore();
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const ids = sequentialIds('c');
  const boot = await store.transact((tx) => bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://unused' }));
  server = await startServer({ store, host: '127.0.0.1', port: 0, clock, ids, policy: { localRoots: [root], privateNetwork: false, plainHttp: false } });
  api = new GitBookAPI({ endpoint: server.url, authToken: boot.token });
  org = boot.organization.id;
});

afterAll(async () => {
  await server?.close();
  gitEnv?.cleanup();
  rmSync(root, { recursive: true, force: true });
});

describe('the official GitBook client 0.202: imports, templates, Git Sync installations', () => {
  it('starts an import run, reads and lists it; cancelling the finished run is a 400', async () => {
    const space = (await clientOperation(api, 'createSpace')(org, { title: 'Guide' })).data as { id: string };
    const url = pathToFileURL(join(root, 'guide.md')).href;
    const run = await call('startImportRun', 201, org, { source: { type: 'website', url }, target: { space: space.id } });
    expect(run).toMatchObject({ object: 'import-run', status: 'completed', source: { type: 'website', url }, target: { space: space.id }, pages: [{ type: 'page', status: 'complete', sourceURL: url }] });
    expect(await call('getImportRun', 200, org, run.id)).toEqual(run);
    expect(await call('listImportRuns', 200, org, { space: space.id, status: 'completed' })).toEqual({ items: [run] });
    expect(await call('listImportRuns', 200, org, {})).toEqual({ items: [run], count: 1 });
    expect((await failure(clientOperation(api, 'cancelImportRun')(org, run.id))).code).toBe(400);
  });

  it('applies a template to a space (201, no body): its pages are there', async () => {
    const space = (await clientOperation(api, 'createSpace')(org, { title: 'Help' })).data as { id: string };
    const response = await clientOperation(api, 'applyTemplateToSpace')(space.id, { id: 'knowledge-base', params: { contentRefs: { support: { kind: 'url', url: 'https://help.acme.test' } } } });
    expect(response.status).toBe(201);
    const pages = (await clientOperation(api, 'listPages')(space.id)).data as { pages: Array<{ title: string }> };
    expect(pages.pages.map((page) => page.title)).toEqual(['Knowledge base', 'FAQ', 'Troubleshooting']);
  });

  it('installs Git Sync on a space, lists the repository and its branches, finds a file, activates, lists by site, uninstalls', async () => {
    const space = (await clientOperation(api, 'createSpace')(org, { title: 'Synced' })).data as { id: string };
    const site = (await clientOperation(api, 'createSite')(org, { title: 'Docs', spaces: [space.id] })).data as { id: string };
    const url = pathToFileURL(repo).href;
    const installed = await call('installGitSyncProviderOnTarget', 201, { provider: 'github', target: { type: 'space', spaceId: space.id }, repositories: [url] });
    expect(installed).toMatchObject({ object: 'git-sync-installation', provider: 'github', status: 'pending', target: { type: 'space', spaceId: space.id } });
    expect(await call('listGitHubRepositoriesForGitSyncInstallation', 200, installed.id)).toEqual({
      items: [{ id: 1, accountName: 'acme', repositoryName: 'handbook', fullName: 'acme/handbook', defaultBranch: 'main' }],
    });
    expect(await call('listGitHubRepoBranchesForGitSyncInstallation', 200, installed.id, 'acme', 'handbook')).toEqual({ items: [{ name: 'main', ref: 'refs/heads/main' }] });
    expect(await call('getGitHubRepoFileForGitSyncInstallation', 200, installed.id, 'acme', 'handbook', { path: 'README.md', ref: 'main' })).toEqual({
      name: 'README.md',
      path: 'README.md',
      sha: execFileSync('git', ['--git-dir', repo, 'rev-parse', 'main:README.md'], { encoding: 'utf8' }).trim(),
      size: 11,
    });
    const active = await call('updateGitSyncInstallationById', 200, installed.id, { provider: 'github', providerConfiguration: { repositoryId: 1, branch: 'refs/heads/main' } });
    expect(active).toMatchObject({ status: 'active', repositoryConnection: { repositoryName: 'acme/handbook', defaultBranch: 'main' }, repositoryRef: { name: 'refs/heads/main', type: 'branch' } });
    expect(await call('getGitSyncInstallationById', 200, installed.id)).toEqual(active);
    expect(await call('listSiteGitSyncInstallations', 200, org, site.id)).toEqual({ items: [active] });
    expect((await clientOperation(api, 'uninstallGitSyncInstallation')(installed.id)).status).toBe(205);
    expect((await failure(clientOperation(api, 'getGitSyncInstallationById')(installed.id))).code).toBe(404);

    const lab = await call('installGitSyncProviderOnTarget', 201, { provider: 'gitlab', target: { type: 'space', spaceId: space.id }, repositories: [url] });
    expect(await call('listGitLabProjectsForGitSyncInstallation', 200, lab.id)).toEqual({ items: [{ id: 1, accountName: 'acme', repositoryName: 'handbook', fullName: 'acme/handbook', defaultBranch: 'main' }] });
    expect(await call('listGitLabProjectBranchesForGitSyncInstallation', 200, lab.id, 1)).toEqual({ items: [{ name: 'main', ref: 'refs/heads/main' }] });
    expect(await call('getGitLabProjectFileForGitSyncInstallation', 200, lab.id, 1, { path: 'README.md', ref: 'refs/heads/main' })).toMatchObject({ name: 'README.md', size: 11 });
  });
});
