/**
 * The real-shaped repositories of the Git benchmark (bench/git-shapes.mjs), small: each shape
 * is generated the same way twice (same commit), is valid Git Sync content that the built
 * binary imports (a monorepo shape from its project directory) with every page of its
 * SUMMARY.md, and exports back byte for byte (the export commits nothing).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { SHAPES, makeShapedRepository } from '../../bench/git-shapes.mjs';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
const shapes = Object.keys(SHAPES);
const scale = 0.02;

afterAll(cleanupTempDirs);

const head = (gitDir: string) => execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();

describe('real-shaped benchmark repositories', () => {
  it.each(shapes)('%s: the same repository every time, imported and exported back unchanged', async (name) => {
    const root = tempDir('docsctl-shapes-');
    const repo = await makeShapedRepository(join(root, 'a'), name, { scale, commits: 3 });
    const again = await makeShapedRepository(join(root, 'b'), name, { scale, commits: 3 });
    expect(head(again.gitDir)).toBe(head(repo.gitDir));
    expect(execFileSync('git', ['--git-dir', repo.gitDir, 'rev-list', '--count', 'main'], { encoding: 'utf8' }).trim()).toBe('3');

    const summaryPath = repo.dir ? `${repo.dir}/SUMMARY.md` : 'SUMMARY.md';
    const summary = execFileSync('git', ['--git-dir', repo.gitDir, 'show', `main:${summaryPath}`], { encoding: 'utf8' });
    // A page per linked item, and one per group heading.
    const listed = summary.split('\n').filter((line) => /^\s*\* \[/.test(line) || line.startsWith('## ')).length;
    expect(listed).toBeGreaterThan(3);

    const env = { PATH: process.env.PATH ?? '', HOME: root, NO_COLOR: '1', DOCSCTL_STORE: join(root, 'store'), DOCSCTL_GIT_CACHE: join(root, 'cache') };
    const docsctl = (...args: string[]) => execa('node', [bin, ...args], { env, extendEnv: false, reject: false, timeout: 120_000 });
    expect((await docsctl('init')).exitCode).toBe(0);
    const space = (await docsctl('space', 'create', '--title', name, '--format', 'ids')).stdout.trim();
    const imported = await docsctl('git', 'import', space, repo.url, '--ref', 'main', ...(repo.dir ? ['--dir', repo.dir] : []));
    expect(imported.exitCode, imported.stderr).toBe(0);
    const pages = await docsctl('page', 'list', space, '--format', 'ids');
    expect(pages.exitCode, pages.stderr).toBe(0);
    expect(pages.stdout.trim().split('\n').length).toBe(listed);

    const before = head(repo.gitDir);
    const exported = await docsctl('git', 'export', space, repo.url, '--ref', 'main', '-m', 'Round trip');
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(exported.stderr + exported.stdout).toMatch(/Nothing to commit/);
    expect(head(repo.gitDir)).toBe(before);
  }, 300_000);
});
