/**
 * Import runs, space templates and Git Sync installations through the built binary
 * (`docsctl api`), locally and against `docsctl serve --allow-local ROOT`: the same
 * answers, with values asserted; a repository outside what serve may reach is refused
 * (403, exit 3) and only the local mode reads it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBothModes } from '../helpers/binary.js';
import { GIT_ENV } from '../git/helpers.js';

const root = realpathSync(mkdtempSync(join(os.tmpdir(), 'docsctl-e2e-imports-')));
const outside = realpathSync(mkdtempSync(join(os.tmpdir(), 'docsctl-e2e-imports-outside-')));
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' }).trim();

/** A bare repository `<dir>/acme/handbook.git` with main and a `draft` branch. */
function repository(dir: string): string {
  const work = join(dir, 'work');
  mkdirSync(join(work, 'docs'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main', work);
  writeFileSync(join(work, 'README.md'), '# Handbook\n');
  writeFileSync(join(work, 'docs', 'guide.md'), '# Guide\n\nSteps.\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'Handbook');
  git(work, 'branch', 'draft');
  const bare = join(dir, 'acme', 'handbook.git');
  mkdirSync(join(dir, 'acme'));
  git(dir, 'clone', '-q', '--bare', work, bare);
  return bare;
}

let inside: string;
let hostile: string;
let docs: string;
beforeAll(() => {
  inside = repository(root);
  hostile = repository(outside);
  docs = join(root, 'site');
  mkdirSync(docs);
  writeFileSync(join(docs, 'README.md'), '# Welcome\n');
  writeFileSync(join(docs, 'install.md'), '# Install\n');
  writeFileSync(join(docs, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describeInBothModes(
  'import runs, templates and Git Sync installations through the binary',
  (context) => {
    const api = async (method: string, path: string, body?: unknown) => {
      const result = await context.cli.run(['api', method, path, ...(body === undefined ? [] : ['--input', '-'])], body === undefined ? {} : { input: JSON.stringify(body) });
      return { ...result, json: result.stdout.trim() === '' ? undefined : (JSON.parse(result.stdout) as Record<string, unknown> & { items?: Array<Record<string, unknown>> }) };
    };
    const ok = async (method: string, path: string, body?: unknown) => {
      const result = await api(method, path, body);
      expect(result.exitCode, result.stderr).toBe(0);
      return result.json as Record<string, unknown> & { id: string; items: Array<Record<string, unknown>> };
    };

    it('an import run: completed with its counts, listed, read; a finished run is not cancelled (exit 2)', async () => {
      const org = context.cli.orgId;
      const space = await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'Handbook' });
      const run = await ok('POST', `/v1/org/${org}/imports`, { source: { type: 'website', url: pathToFileURL(docs).href }, target: { space: space.id } });
      expect(run).toMatchObject({ object: 'import-run', status: 'completed', importedResources: 2, totalResources: 2, target: { space: space.id } });
      expect((run.pages as unknown[]).length).toBe(2);
      expect((await ok('GET', `/v1/org/${org}/imports?space=${space.id}`)).items.map((item) => item.id)).toEqual([run.id]);
      expect(await ok('GET', `/v1/org/${org}/imports/${run.id}`)).toEqual(run);
      const cancel = await api('POST', `/v1/org/${org}/imports/${run.id}/cancel`);
      expect(cancel.exitCode).toBe(2);
      expect(cancel.stderr).toMatch(/is completed: only a pending or in-progress run can be cancelled/);
      const pages = await ok('GET', `/v1/spaces/${space.id}/content/pages`);
      expect((pages.pages as Array<{ title: string }>).map((page) => page.title)).toEqual(['Welcome', 'Install']);
    });

    it('a template applied to a space adds its pages', async () => {
      const space = await ok('POST', `/v1/orgs/${context.cli.orgId}/spaces`, { title: 'API' });
      const applied = await api('POST', `/v1/spaces/${space.id}/content/template`, { id: 'api-reference', params: { contentRefs: { api: { kind: 'url', url: 'https://api.acme.test' } } } });
      expect(applied.exitCode, applied.stderr).toBe(0);
      const pages = await ok('GET', `/v1/spaces/${space.id}/content/pages`);
      expect((pages.pages as Array<{ title: string }>).map((page) => page.title)).toEqual(['API reference', 'Authentication', 'Errors', 'Changelog']);
      const page = await ok('GET', `/v1/spaces/${space.id}/content/path/authentication?format=markdown`);
      expect(page.markdown).toContain('[the API](<https://api.acme.test>)');
    });

    it('a Git Sync installation: its repository listed, a branch chosen, a file found; hostile repositories refused under serve', async () => {
      const space = await ok('POST', `/v1/orgs/${context.cli.orgId}/spaces`, { title: 'Synced' });
      const url = pathToFileURL(inside).href;
      const created = await ok('POST', '/v1/git/installations', { provider: 'github', target: { type: 'space', spaceId: space.id }, repositories: [url] });
      expect(created).toMatchObject({ object: 'git-sync-installation', status: 'pending', repositories: [{ id: 1, url, fullName: 'acme/handbook' }] });
      expect((await ok('GET', `/v1/git/installations/${created.id}/github/repos`)).items).toEqual([
        { id: 1, accountName: 'acme', repositoryName: 'handbook', fullName: 'acme/handbook', defaultBranch: 'main' },
      ]);
      expect((await ok('GET', `/v1/git/installations/${created.id}/github/repos/acme/handbook/branches`)).items).toEqual([
        { name: 'draft', ref: 'refs/heads/draft' },
        { name: 'main', ref: 'refs/heads/main' },
      ]);
      const file = await ok('GET', `/v1/git/installations/${created.id}/github/repos/acme/handbook/file?path=docs/guide.md&ref=main`);
      expect(file).toEqual({ name: 'guide.md', path: 'docs/guide.md', sha: git(root, '--git-dir', inside, 'rev-parse', 'main:docs/guide.md'), size: 16 });
      const active = await ok('PATCH', `/v1/git/installations/${created.id}`, { provider: 'github', providerConfiguration: { repositoryId: 1, branch: 'refs/heads/main' } });
      expect(active).toMatchObject({ status: 'active', repositoryRef: { name: 'refs/heads/main', latestObservedCommitId: git(root, '--git-dir', inside, 'rev-parse', 'main') } });

      const other = await ok('POST', `/v1/orgs/${context.cli.orgId}/spaces`, { title: 'Elsewhere' });
      const refused = await api('POST', '/v1/git/installations', { provider: 'github', target: { type: 'space', spaceId: other.id }, repositories: [pathToFileURL(hostile).href] });
      if (context.mode === 'remote') {
        expect(refused.exitCode).toBe(3);
        expect(refused.stderr).toMatch(/not allowed|outside/i);
      } else {
        expect(refused.exitCode, refused.stderr).toBe(0);
      }
      const gone = await api('DELETE', `/v1/git/installations/${created.id}`);
      expect(gone.exitCode, gone.stderr).toBe(0);
      expect((await api('GET', `/v1/git/installations/${created.id}`)).exitCode).toBe(4);
    });
  },
  { serveFlags: ['--allow-local', root] },
);
