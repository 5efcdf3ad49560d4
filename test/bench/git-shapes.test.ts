/**
 * The real-shaped repositories of the Git benchmark (bench/git-shapes.mjs). Small: each shape
 * is generated the same way twice (same commit), is valid Git Sync content that the built
 * binary imports (a monorepo shape from its project directory) with every page of its
 * SUMMARY.md, and exports back byte for byte (the export commits nothing). Full size, text
 * only: the pages' words are spread as in the real repository each shape copies (what sets the
 * search index an import builds).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { SHAPES, makeShapedRepository, shapePages } from '../../bench/git-shapes.mjs';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
const shapes = Object.keys(SHAPES);
// 2% of the pages and assets, assets at 5% of their sizes: the shape's structure in a few seconds.
const small = { scale: 0.02, assetScale: 0.05, commits: 3 };

afterAll(cleanupTempDirs);

const head = (gitDir: string) => execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();

describe('real-shaped benchmark repositories', () => {
  it.each(shapes)('%s: the same repository every time, imported and exported back unchanged', async (name) => {
    const root = tempDir('docsctl-shapes-');
    const repo = await makeShapedRepository(join(root, 'a'), name, small);
    const again = await makeShapedRepository(join(root, 'b'), name, small);
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

/**
 * Measured on the real repositories' HEAD (pages other than SUMMARY.md; words: lower-cased runs
 * of [a-z0-9], two characters or more): distinct words, the median of distinct words per page,
 * the share of words found in at most 3 pages, and pages per word on average.
 */
const REAL_WORDS: Record<string, { repository: string; words: number; perPage: number; rare: number; pagesPerWord: number }> = {
  reference: { repository: 'fluent/fluentd-docs-gitbook', words: 4882, perPage: 217, rare: 0.65, pagesPerWord: 8.9 },
  manual: { repository: 'saleae/gitbook-docs', words: 7675, perPage: 120, rare: 0.68, pagesPerWord: 8.5 },
  images: { repository: 'GitbookIO/public-docs documentation/', words: 5075, perPage: 186, rare: 0.62, pagesPerWord: 8.2 },
  server: { repository: 'mariadb-corporation/mariadb-docs server/', words: 26788, perPage: 77, rare: 0.68, pagesPerWord: 22.6 },
};

function wordStatistics(pages: { text: string }[]) {
  const pagesOf = new Map<string, number>();
  const perPage: number[] = [];
  for (const { text } of pages) {
    const words = new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length >= 2));
    perPage.push(words.size);
    for (const word of words) pagesOf.set(word, (pagesOf.get(word) ?? 0) + 1);
  }
  perPage.sort((a, b) => a - b);
  const counts = [...pagesOf.values()];
  return {
    words: pagesOf.size,
    perPage: perPage[perPage.length >> 1] ?? 0,
    rare: counts.filter((n) => n <= 3).length / counts.length,
    pagesPerWord: counts.reduce((a, b) => a + b, 0) / counts.length,
  };
}

describe('the generated pages\' words', () => {
  it.each(shapes)('%s: as many words, as spread over the pages, as the real repository it copies', (name) => {
    const pages = shapePages(name);
    const real = REAL_WORDS[name];
    if (!real) throw new Error(`no measured words for shape ${name}`);
    expect(pages.length).toBe(SHAPES[name]?.pages);
    const generated = wordStatistics(pages);
    const within = (value: number, target: number, tolerance: number) => Math.abs(value / target - 1) <= tolerance;
    expect(within(generated.words, real.words, 0.25), `${generated.words} words, ${real.repository} ${real.words}`).toBe(true);
    expect(within(generated.perPage, real.perPage, 0.35), `${generated.perPage} words per page, ${real.repository} ${real.perPage}`).toBe(true);
    expect(generated.rare, `share of words in ≤ 3 pages, ${real.repository} ${real.rare}`).toBeGreaterThan(real.rare - 0.1);
    expect(generated.rare).toBeLessThan(real.rare + 0.1);
    expect(within(generated.pagesPerWord, real.pagesPerWord, 0.25), `${generated.pagesPerWord} pages per word, ${real.repository} ${real.pagesPerWord}`).toBe(true);
  }, 60_000);
});
