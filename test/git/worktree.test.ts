/**
 * An export into a local repository with the branch checked out (git/worktree.ts),
 * through the handlers: what receive.denyCurrentBranch=updateInstead allows and
 * refuses, each refusal made by the preview alike (the plan refuses, before any
 * commit); an unborn branch; a repository that asks for the branch alone to move.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSetup } from '../domain/content/helpers.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';
import { git, isolateGit, makeRemote, type TestRemote } from './helpers.js';

let env: ReturnType<typeof isolateGit>;
let origin: TestRemote;
beforeAll(() => {
  env = isolateGit();
  origin = makeRemote({ 'README.md': '# Home\n\nHello.\n', 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n', 'guide.md': '# Guide\n\nOld.\n' });
});
afterAll(() => {
  origin.cleanup();
  env.cleanup();
  cleanupTempDirs();
});

const MAIN = 'refs/heads/main';

/** A space imported from the origin, with guide.md edited in its primary content. */
async function editedSpace() {
  const h = await contentSetup();
  const space = await h.createSpace();
  await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: origin.url, ref: MAIN } }, 204);
  const cr = await h.createCR(space.id, 'Edit');
  const dir = tempDir('docsctl-worktree-edit-');
  writeFileSync(path.join(dir, 'guide.md'), '# Guide\n\nNew.\n');
  await h.admin.ok('importContentInChangeRequest', { params: { spaceId: space.id, changeRequestId: cr.id }, body: { url: `file://${dir}/guide.md`, source: 'markdown' } }, 201);
  await h.admin.ok('mergeChangeRequest', { params: { spaceId: space.id, changeRequestId: cr.id } });
  const body = (clone: string) => ({ url: clone, ref: MAIN, commitMessage: 'Edit guide' });
  return {
    preview: (clone: string, status: number, message?: RegExp) =>
      status === 200
        ? h.admin.ok('previewGitExport', { params: { spaceId: space.id }, body: body(clone) }, 200)
        : h.admin.fails('previewGitExport', { params: { spaceId: space.id }, body: body(clone) }, status, message),
    exportTo: (clone: string, status: number, message?: RegExp) =>
      status === 204
        ? h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: body(clone) }, 204)
        : h.admin.fails('exportToGitRepository', { params: { spaceId: space.id }, body: body(clone) }, status, message),
  };
}

function clone(): string {
  const dir = path.join(tempDir('docsctl-worktree-'), 'clone');
  git(path.dirname(dir), 'clone', '-q', origin.bare, dir);
  return dir;
}

describe('export into a clone with the branch checked out', () => {
  it('refuses staged changes, in the preview and the export, and moves nothing', async () => {
    const s = await editedSpace();
    const dir = clone();
    const head = git(dir, 'rev-parse', 'HEAD');
    writeFileSync(path.join(dir, 'README.md'), '# Home\n\nStaged.\n');
    git(dir, 'add', 'README.md');
    const refusal = /the branch is checked out in .*clone and its work tree has staged changes; commit or stash them first, or export to another branch/;
    await s.preview(dir, 409, refusal);
    await s.exportTo(dir, 409, refusal);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(dir, 'for-each-ref', 'refs/docsctl')).toBe('');
  });

  it('refuses an untracked file where the export writes a new one (git would not overwrite it)', async () => {
    const s = await editedSpace();
    const dir = path.join(tempDir('docsctl-worktree-'), 'fresh');
    git(path.dirname(dir), 'init', '-q', '-b', 'main', dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'guide.md'), 'mine\n');
    const refusal = /the untracked file guide\.md is where the export writes; move it away first, or export to another branch/;
    await s.preview(dir, 409, refusal);
    await s.exportTo(dir, 409, refusal);
    expect(readFileSync(path.join(dir, 'guide.md'), 'utf8')).toBe('mine\n');
  });

  it('writes the first commit of an unborn branch into an empty work tree', async () => {
    const s = await editedSpace();
    const dir = path.join(tempDir('docsctl-worktree-'), 'fresh');
    git(path.dirname(dir), 'init', '-q', '-b', 'main', dir);
    await s.exportTo(dir, 204);
    expect(git(dir, 'log', '--format=%s')).toBe('Edit guide');
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(readFileSync(path.join(dir, 'guide.md'), 'utf8')).toBe('# Guide\n\nNew.\n');
  });

  it('moves only the branch where the repository asks for it (receive.denyCurrentBranch=ignore), as a plain push does', async () => {
    const s = await editedSpace();
    const dir = clone();
    git(dir, 'config', 'receive.denyCurrentBranch', 'ignore');
    await s.exportTo(dir, 204);
    expect(git(dir, 'log', '-1', '--format=%s', 'main')).toBe('Edit guide');
    expect(readFileSync(path.join(dir, 'guide.md'), 'utf8')).toBe('# Guide\n\nOld.\n');
  });
});
