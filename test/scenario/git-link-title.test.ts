/**
 * Page link titles round-trip through Git Sync (issue 9 §1), in local mode and
 * against `docsctl serve`: a SUMMARY.md entry `* [Title](page.md "Short")` is
 * imported as the page's `linkTitle`, shown by page reads, edited in a change
 * request with `page edit --link-title`, and written back by `git export`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_POLICY } from '../../src/domain/policy.js';
import { type Step, type Transcript, runTranscript } from '../helpers/scenario.js';
import { GIT_ENV } from '../git/helpers.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

/** Untrimmed output: the test compares whole SUMMARY.md files. */
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });

const SUMMARY = '# Table of contents\n\n* [Home](README.md)\n* [Installing docsctl](install.md "Install")\n* [Usage](usage.md)\n';

function origin(): string {
  const root = tempDir('docsctl-link-title-');
  const seed = join(root, 'seed');
  mkdirSync(seed);
  for (const [path, text] of Object.entries({
    'README.md': '# Home\n',
    'SUMMARY.md': SUMMARY,
    'install.md': '# Installing docsctl\n\nRun npm.\n',
    'usage.md': '# Usage\n\nRun it.\n',
  })) {
    writeFileSync(join(seed, path), text);
  }
  git(root, 'init', '-q', seed);
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'Docs');
  const bare = join(root, 'origin.git');
  git(root, 'clone', '-q', '--bare', seed, bare);
  return bare;
}

/** The id on the line of a `page list --format tsv` row whose title is `title`. */
const pageId = (title: string) => (stdout: string) => stdout.split('\n').find((line) => line.split('\t')[2] === title)?.split('\t')[0] ?? '';

const steps = (repo: string): Step[] => [
  { argv: ['space', 'create', '--title', 'Docs', '--format', 'ids'], capture: 'space' },
  { argv: ['git', 'import', '{space}', repo, '--format', 'ids'] },
  { argv: ['page', 'list', '{space}', '--format', 'tsv'], capture: 'install', pick: pageId('Installing docsctl') },
  { argv: ['page', 'list', '{space}', '--format', 'tsv'], capture: 'usage', pick: pageId('Usage') },
  { argv: ['page', 'get', '{space}', '{install}', '--json'] },
  { argv: ['cr', 'create', '{space}', '--subject', 'Link titles', '--format', 'ids'], capture: 'cr' },
  { argv: ['page', 'edit', '{space}', '{install}', '--cr', '{cr}', '--link-title', 'Setup', '--format', 'ids'] },
  { argv: ['page', 'edit', '{space}', '{usage}', '--cr', '{cr}', '--link-title', 'Use it', '--format', 'ids'] },
  { argv: ['page', 'get', '{space}', '{install}', '--cr', '{cr}', '--json'] },
  { argv: ['page', 'get', '{space}', '{install}', '--json'] },
  { argv: ['cr', 'merge', '{space}', '{cr}', '--format', 'ids'] },
  { argv: ['git', 'export', '{space}', repo, '-m', 'Link titles', '--json'] },
  { argv: ['cr', 'create', '{space}', '--subject', 'Remove one', '--format', 'ids'], capture: 'cr2' },
  { argv: ['page', 'edit', '{space}', '{usage}', '--cr', '{cr2}', '--link-title', 'none', '--format', 'ids'] },
  { argv: ['cr', 'merge', '{space}', '{cr2}', '--format', 'ids'] },
  { argv: ['git', 'export', '{space}', repo, '-m', 'No usage link title', '--json'] },
  { argv: ['page', 'edit', '{space}', '{install}', '--link-title', 'Setup'] },
];

describe('page link titles: import → read → edit → export', () => {
  const runs: Array<{ repo: string; transcript: Transcript; summaries: string[] }> = [];
  beforeAll(async () => {
    for (const mode of ['local', 'remote'] as const) {
      const repo = origin();
      const policy = { ...SERVE_POLICY, localRoots: [realpathSync(tmpdir())] };
      const transcript = await runTranscript(steps(repo), mode, mode === 'remote' ? { policy } : {});
      const summaries = [git(repo, 'show', 'main~1:SUMMARY.md'), git(repo, 'show', 'main:SUMMARY.md')];
      runs.push({ repo, transcript, summaries });
    }
  }, 120_000);
  afterAll(cleanupTempDirs);

  it('every step succeeds but the last', () => {
    for (const { transcript } of runs) {
      for (const step of transcript.slice(0, -1)) expect(step.exitCode, `${step.argv.join(' ')}\n${step.stderr}`).toBe(0);
    }
  });

  it('reads the imported link title as linkTitle', () => {
    for (const { transcript } of runs) {
      expect(JSON.parse(transcript[4]!.stdout)).toMatchObject({ title: 'Installing docsctl', linkTitle: 'Install' });
    }
  });

  it('edits it in the change request only, until the merge', () => {
    for (const { transcript } of runs) {
      expect(JSON.parse(transcript[8]!.stdout)).toMatchObject({ title: 'Installing docsctl', linkTitle: 'Setup' });
      expect(JSON.parse(transcript[9]!.stdout)).toMatchObject({ linkTitle: 'Install' });
    }
  });

  it('writes the edited link titles into SUMMARY.md, and removes a cleared one', () => {
    for (const { transcript, summaries } of runs) {
      expect(JSON.parse(transcript[11]!.stdout)).toMatchObject({ committed: true, files: ['SUMMARY.md'] });
      expect(summaries[0]).toBe('# Table of contents\n\n* [Home](README.md)\n* [Installing docsctl](install.md "Setup")\n* [Usage](usage.md "Use it")\n');
      expect(JSON.parse(transcript[15]!.stdout)).toMatchObject({ committed: true, files: ['SUMMARY.md'] });
      expect(summaries[1]).toBe('# Table of contents\n\n* [Home](README.md)\n* [Installing docsctl](install.md "Setup")\n* [Usage](usage.md)\n');
    }
  });

  it('needs a change request to edit a page (exit 2, naming --cr)', () => {
    for (const { transcript } of runs) {
      const last = transcript[transcript.length - 1]!;
      expect(last.exitCode).toBe(2);
      expect(last.stderr).toMatch(/--cr/);
    }
  });
});
