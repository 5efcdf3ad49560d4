/**
 * What `git import` reads (issue 9 §1): a tag, HEAD or a full commit id as the
 * ref, a plain directory as it is on disk; the gitInfo of the request is kept;
 * an unreachable repository exits 6 from the CLI.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTree } from '../../src/domain/content/storage.js';
import { type RevisionRecord, type SpaceRecord, getRevision, getSpace } from '../../src/domain/core-records.js';
import { contentSetup } from '../domain/content/helpers.js';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';
import { git, isolateGit, makeRemote, type TestRemote } from './helpers.js';

let env: ReturnType<typeof isolateGit>;
let r: TestRemote;
let first: string;
let second: string;
beforeAll(() => {
  env = isolateGit();
  r = makeRemote({ 'README.md': '# Home\n\nFirst.\n' });
  first = r.head() as string;
  git(r.work, 'tag', 'v1');
  git(r.work, 'push', '--quiet', 'origin', 'refs/tags/v1');
  second = r.commit({ 'README.md': '# Home\n\nSecond.\n' });
});
afterAll(() => {
  r.cleanup();
  env.cleanup();
  cleanupTempDirs();
});

async function harness() {
  const h = await contentSetup();
  const space = await h.createSpace();
  const markdown = () => {
    const reader = h.store.read();
    const record = getSpace(reader, space.id) as SpaceRecord;
    return loadTree(reader, getRevision(reader, space.id, record.revision) as RevisionRecord).pages[0]?.markdown ?? '';
  };
  const sync = (body: Record<string, unknown>, status = 204) => h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body }, status);
  return { h, space, markdown, sync };
}

describe('git import refs', () => {
  it('imports a tag, a full commit id and HEAD', async () => {
    const { markdown, sync } = await harness();
    await sync({ url: r.url, ref: 'refs/tags/v1' });
    expect(markdown()).toContain('First.');
    await sync({ url: r.url, ref: second });
    expect(markdown()).toContain('Second.');
    await sync({ url: r.url, ref: first });
    expect(markdown()).toContain('First.');
    await sync({ url: r.url, ref: 'HEAD' });
    expect(markdown()).toContain('Second.');
  });

  it('refuses a short commit id, naming the fix, and a missing ref is a 404', async () => {
    const { h, space } = await harness();
    await h.admin.fails('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: first.slice(0, 10) } }, 400, /give the full commit id/);
    await h.admin.fails('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: 'refs/tags/nope' } }, 404, /remote ref not found/);
  });

  it('keeps the gitInfo and tree URL of the request and shows them in git info', async () => {
    const { h, space, sync } = await harness();
    const gitInfo = { provider: 'github', url: 'https://github.com/acme/docs/tree/main' };
    await sync({ url: r.url, ref: 'refs/heads/main', gitInfo, repoTreeURL: 'https://github.com/acme/docs/blob/main' });
    const info = await h.admin.ok<Record<string, unknown>>('getSpaceGitInfo', { params: { spaceId: space.id } }, 200);
    expect(info).toMatchObject({ installationProvider: 'github', url: gitInfo.url, gitInfo, repoTreeURL: 'https://github.com/acme/docs/blob/main' });
  });
});

describe('git import of a plain directory', () => {
  it('imports the files as they are on disk, with no commit', async () => {
    const { h, space, markdown, sync } = await harness();
    const dir = tempDir('docsctl-plain-dir-');
    mkdirSync(path.join(dir, 'guide'));
    writeFileSync(path.join(dir, 'README.md'), '# Handbook\n\nNot in Git.\n');
    writeFileSync(path.join(dir, 'guide', 'README.md'), '# Guide\n');
    await sync({ url: dir, ref: 'HEAD' });
    expect(markdown()).toContain('Not in Git.');
    const reader = h.store.read();
    const revision = getRevision(reader, space.id, (getSpace(reader, space.id) as SpaceRecord).revision) as RevisionRecord;
    expect(revision.git).toBeUndefined();
    await h.admin.fails(
      'exportToGitRepository',
      { params: { spaceId: space.id }, body: { url: dir, ref: 'refs/heads/main', commitMessage: 'x' } },
      400,
      /is a directory, not a Git repository/,
    );
  });
});

describe('the CLI', () => {
  it('exits 6 when the repository cannot be reached', async () => {
    const store = path.join(tempDir('docsctl-git-net-'), 'store');
    const cliEnv = { DOCSCTL_STORE: store };
    expect((await runCli(['init', '--org', 'Acme'], { env: cliEnv })).exitCode).toBe(0);
    const spaceId = (await runCli(['space', 'create', '--title', 'Docs', '--format', 'ids'], { env: cliEnv })).stdout.trim();
    const result = await runCli(['git', 'import', spaceId, 'http://127.0.0.1:1/docs.git'], { env: cliEnv });
    expect(result.exitCode, result.stderr).toBe(6);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('imports a tag by its short name (not a branch: then a tag)', async () => {
    const store = path.join(tempDir('docsctl-git-tag-'), 'store');
    const cliEnv = { DOCSCTL_STORE: store };
    expect((await runCli(['init', '--org', 'Acme'], { env: cliEnv })).exitCode).toBe(0);
    const spaceId = (await runCli(['space', 'create', '--title', 'Docs', '--format', 'ids'], { env: cliEnv })).stdout.trim();
    const result = await runCli(['git', 'import', spaceId, r.url, '--ref', 'v1', '--json'], { env: cliEnv });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ref: 'refs/tags/v1', commit: first });
  });
});

describe('page link titles', () => {
  it('exposes the SUMMARY link title of a page as linkTitle in page reads', async () => {
    const titled = makeRemote({
      'README.md': '# Home\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Installing docsctl](install.md "Install")\n',
      'install.md': '# Installing docsctl\n',
    });
    try {
      const { h, space, sync } = await harness();
      await sync({ url: titled.url, ref: 'refs/heads/main' });
      const { pages } = await h.admin.ok<{ pages: Array<Record<string, unknown>> }>('listPages', { params: { spaceId: space.id } });
      expect(pages.map((page) => [page.title, page.linkTitle])).toEqual([
        ['Home', undefined],
        ['Installing docsctl', 'Install'],
      ]);
    } finally {
      titled.cleanup();
    }
  });
});
