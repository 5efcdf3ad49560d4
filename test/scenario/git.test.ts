/**
 * Git sync from the CLI, in local mode and against `docsctl serve`: a CI pipeline
 * imports a repository into a space, exports it back with no diff, and exports a
 * change as one commit. Each mode gets its own copy of the remote.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_POLICY } from '../../src/domain/policy.js';
import { type Step, type Transcript, runTranscript } from '../helpers/scenario.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env: gitEnv, encoding: 'utf8' });

const files: Record<string, string> = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n\n## Reference\n\n* [API](reference/api.md)\n',
  'install.md': '---\ndescription: How to install\n---\n\n# Install\n\nRun the installer.\n',
  'reference/api.md': '# API\n\nSee ![diagram](<../.gitbook/assets/flow (1).png>).\n',
  '.gitbook/assets/flow (1).png': 'not really a png',
};

function makeRemote(): { remote: string; variant: string } {
  const root = tempDir('docsctl-git-scenario-');
  const work = join(root, 'work');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(work, path, '..'), { recursive: true });
    writeFileSync(join(work, path), text);
  }
  git(work, 'init', '-q');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'Docs');
  const remote = join(root, 'remote.git');
  execFileSync('git', ['clone', '-q', '--bare', work, remote]);
  const variant = join(root, 'variant');
  execFileSync('cp', ['-r', work, variant]);
  writeFileSync(join(variant, 'install.md'), '---\ndescription: How to install\n---\n\n# Install\n\nRun the installer twice.\n');
  return { remote, variant };
}

const commits = (remote: string) => Number(execFileSync('git', ['rev-list', '--count', 'main'], { cwd: remote, encoding: 'utf8' }).trim());

function steps(remote: string, variant: string): Step[] {
  return [
    { argv: ['space', 'create', '--title', 'Docs', '--format', 'ids'], capture: 'space' },
    { argv: ['git', 'info', '{space}'] },
    { argv: ['git', 'import', '{space}', remote, '--dry-run'] },
    { argv: ['git', 'import', '{space}', remote, '--ref', 'main'] },
    { argv: ['page', 'list', '{space}', '--format', 'tsv'] },
    { argv: ['file', 'list', '{space}', '--format', 'tsv'] },
    { argv: ['git', 'import', '{space}', remote] },
    { argv: ['git', 'info', '{space}', '--format', 'tsv'] },
    { argv: ['git', 'export', '{space}', remote, '-m', 'No change'] },
    { argv: ['cr', 'create', '{space}', '--format', 'ids'], capture: 'cr' },
    { argv: ['cr', 'import', '{space}', '{cr}', variant, '--format', 'ids'] },
    { argv: ['cr', 'merge', '{space}', '{cr}'] },
    { argv: ['git', 'export', '{space}', remote, '-m', 'One change', '--dry-run'] },
    { argv: ['git', 'export', '{space}', remote, '-m', 'One change'] },
    // Locally a missing repository is a 404; serve refuses any path outside --allow-local (403) without saying whether it exists.
    { argv: ['git', 'import', '{space}', 'file:///nonexistent/repo.git'], compare: false },
  ];
}

describe('git sync from the CLI in both modes', () => {
  let local: Transcript;
  let remote: Transcript;
  let remotes: Array<{ remote: string; variant: string }>;
  beforeAll(async () => {
    remotes = [makeRemote(), makeRemote()];
    local = await runTranscript(steps(remotes[0]!.remote, remotes[0]!.variant), 'local');
    // As `serve --allow-local <the remote's directory>`: the server may read the repository and the variant.
    const allowed = realpathSync(dirname(remotes[1]!.remote));
    remote = await runTranscript(steps(remotes[1]!.remote, remotes[1]!.variant), 'remote', { policy: { ...SERVE_POLICY, localRoots: [allowed] } });
  }, 120_000);
  afterAll(cleanupTempDirs);

  it('prints the same stdout and exit codes in both modes', () => {
    steps('R', 'V').forEach((step, index) => {
      if (step.compare === false) return;
      const a = local[index]!;
      const b = remote[index]!;
      // Commit ids differ (the remotes' commits have different dates).
      const norm = (text: string) => text.replaceAll(remotes[0]!.remote, 'R').replaceAll(remotes[1]!.remote, 'R').replace(/\b[0-9a-f]{12}\b/g, 'SHA');
      expect({ argv: step.argv, stdout: norm(b.stdout), exitCode: b.exitCode }).toEqual({ argv: step.argv, stdout: norm(a.stdout), exitCode: a.exitCode });
    });
  });

  it('has no git info before the first sync (exit 4)', () => {
    expect(local[1]?.exitCode).toBe(4);
  });

  it('previews, imports, and skips an unchanged re-import', () => {
    expect(local[2]?.stdout).toMatch(/added\s+page\s+install/);
    expect(local[2]?.stdout).toMatch(/nothing was imported/);
    expect(local[3]?.exitCode, local[3]?.stderr).toBe(0);
    expect(local[4]?.stdout).toMatch(/\tInstall\tinstall\tinstall\.md/);
    expect(local[5]?.stdout).toContain('flow (1).png');
    expect(local[6]?.stdout).toMatch(/already up to date/);
  });

  it('exports with no edits without a commit, and one change as one commit', () => {
    for (const { remote: r } of remotes) expect(commits(r)).toBe(2);
    expect(local[12]?.stdout).toMatch(/^change\s+install\.md$/m);
    expect(local[12]?.stdout).toMatch(/1 file\(s\) to write, 0 to delete/);
    const changed = execFileSync('git', ['show', '--name-only', '--format=%s', 'main'], { cwd: remotes[0]!.remote, encoding: 'utf8' });
    expect(changed.trim().split('\n')).toEqual(['One change', '', 'install.md']);
  });

  it('reports an unreachable repository as not found, in one line', () => {
    expect(local[14]?.exitCode).toBe(4);
    expect(local[14]?.stderr.trim().split('\n')).toHaveLength(1);
  });
});
