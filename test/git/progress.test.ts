/**
 * `git import|export` show a progress line on a terminal (stderr a TTY): the
 * fetch's stages and objects from simple-git's progress events, the pages
 * converted, redrawn in place and cleared; nothing when stderr is piped, with
 * --json or with --quiet. (Local mode: a server does not stream its progress.)
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressOfLine } from '../../src/git/network.js';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';
import { type TestRemote, isolateGit, makeRemote } from './helpers.js';

let env: ReturnType<typeof isolateGit>;
let remote: TestRemote;
let cliEnv: Record<string, string>;
let spaceId: string;

beforeAll(async () => {
  env = isolateGit();
  const pages: Record<string, string> = { 'README.md': '# Home\n' };
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  for (let i = 0; i < 40; i++) {
    pages[`page-${i}.md`] = `# Page ${i}\n\n${'Some text. '.repeat(50)}\n`;
    summary.push(`* [Page ${i}](page-${i}.md)`);
  }
  pages['SUMMARY.md'] = `${summary.join('\n')}\n`;
  remote = makeRemote(pages);
  cliEnv = { DOCSCTL_STORE: path.join(tempDir('docsctl-progress-'), 'store') };
  expect((await runCli(['init', '--org', 'Acme'], { env: cliEnv })).exitCode).toBe(0);
  spaceId = (await runCli(['space', 'create', '--title', 'Docs', '--format', 'ids'], { env: cliEnv })).stdout.trim();
}, 60_000);
afterAll(() => {
  remote.cleanup();
  env.cleanup();
  cleanupTempDirs();
});

describe("git's progress lines", () => {
  it('give the stage, the objects and the bytes of every line, remote or local', () => {
    expect(progressOfLine('remote: Counting objects:   2% (1/44)')).toEqual({ stage: 'counting', processed: 1, total: 44 });
    expect(progressOfLine('remote: Compressing objects: 100% (40/40), done.')).toEqual({ stage: 'compressing', processed: 40, total: 40 });
    expect(progressOfLine('Receiving objects:  45% (450/1000), 1.20 MiB | 2.00 MiB/s')).toEqual({
      stage: 'receiving',
      processed: 450,
      total: 1000,
      bytes: Math.round(1.2 * 1024 * 1024),
    });
    expect(progressOfLine('Resolving deltas: 100% (3/3), done.')).toEqual({ stage: 'resolving', processed: 3, total: 3 });
    expect(progressOfLine('Writing objects: 100% (3/3), 300 bytes | 300.00 KiB/s, done.')).toEqual({ stage: 'writing', processed: 3, total: 3, bytes: 300 });
    for (const line of ['remote: Enumerating objects: 44, done.', 'remote: Total 44 (delta 0), reused 0 (delta 0)', 'From file:///tmp/x', '']) {
      expect(progressOfLine(line), line).toBeUndefined();
    }
  });
});

describe('the progress line of git import and export', () => {
  it('is drawn on a terminal: the fetch stages, the pages converted, then cleared', async () => {
    const result = await runCli(['git', 'import', spaceId, remote.url, '--force'], { env: cliEnv, stderrTTY: true });
    expect(result.exitCode, result.stderr).toBe(0);
    const frames = result.stderr.split('\r').filter((frame) => frame.trim() !== '');
    expect(frames.some((frame) => /^(counting|enumerating|compressing|receiving|resolving)\b.*\d+\/\d+ objects/.test(frame))).toBe(true);
    expect(frames.some((frame) => /^converted\b.*41\/41 pages/.test(frame))).toBe(true);
    expect(result.stderr).not.toContain('\n');
    expect(result.stderr.endsWith('\r')).toBe(true);
    expect(result.stdout).toMatch(/^Imported /);
  });

  it('shows the push of an export too', async () => {
    remote.commit({ 'page-0.md': '# Page 0\n\nChanged in the repository.\n' });
    expect((await runCli(['git', 'import', spaceId, remote.url], { env: cliEnv })).exitCode).toBe(0);
    const cr = (await runCli(['cr', 'create', spaceId, '--format', 'ids'], { env: cliEnv })).stdout.trim();
    const pageId = (await runCli(['page', 'list', spaceId, '--format', 'ids'], { env: cliEnv })).stdout.split('\n')[1] as string;
    expect((await runCli(['page', 'edit', spaceId, pageId, '--cr', cr, '--link-title', 'First'], { env: cliEnv })).exitCode).toBe(0);
    expect((await runCli(['cr', 'merge', spaceId, cr], { env: cliEnv })).exitCode).toBe(0);
    const result = await runCli(['git', 'export', spaceId, remote.url, '-m', 'Link title'], { env: cliEnv, stderrTTY: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/\r(counting|enumerating|compressing|writing)\b/);
    expect(result.stdout).toMatch(/^Committed /);
  });

  it('is not drawn when stderr is piped, with --json, or with --quiet', async () => {
    for (const [argv, tty] of [
      [['git', 'import', spaceId, remote.url, '--force'], false],
      [['git', 'import', spaceId, remote.url, '--force', '--json'], true],
      [['git', 'import', spaceId, remote.url, '--force', '--quiet'], true],
    ] as const) {
      const result = await runCli([...argv], { env: cliEnv, stderrTTY: tty });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr, argv.join(' ')).toBe('');
    }
  });
});
