/**
 * Git sync as a CI pipeline runs it (issue 9 §1), in local mode and against
 * `docsctl serve`: the workspace is a clone at a detached HEAD with a commit the
 * branch does not have; `git import SPACE WORKSPACE --dir docs` imports that
 * commit; an edit is exported to the origin without --dir (the space remembers
 * docs/), and the files outside docs/ (README, AGENTS.md, code) are untouched.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_POLICY } from '../../src/domain/policy.js';
import { type Step, type Transcript, runTranscript } from '../helpers/scenario.js';
import { git } from '../git/helpers.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';


function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const OUTSIDE = {
  'README.md': '# The product\n\nCode lives here.\n',
  'AGENTS.md': 'Agents: read CONTRIBUTING.md\n',
  'CONTRIBUTING.md': 'Be kind.\n',
  'src/app.js': 'console.log(1)\n',
};
const DOCS = {
  'docs/README.md': '# Docs\n\nWelcome.\n',
  'docs/SUMMARY.md': '# Table of contents\n\n* [Docs](README.md)\n* [Guide](guide.md)\n',
  'docs/guide.md': '# Guide\n\nOld text.\n',
};

interface Setup {
  origin: string;
  workspace: string;
  /** The detached commit the workspace has checked out (not on any branch). */
  detached: string;
  /** A Git Sync directory with an edited guide (what the CI job's "edit" imports into a change request). */
  edit: string;
}

function setup(): Setup {
  const root = tempDir('docsctl-git-ci-');
  const seed = join(root, 'seed');
  write(seed, { ...OUTSIDE, ...DOCS });
  git(root, 'init', '-q', seed);
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'Product and docs');
  const origin = join(root, 'origin.git');
  git(root, 'clone', '-q', '--bare', seed, origin);
  const workspace = join(root, 'workspace');
  git(root, 'clone', '-q', origin, workspace);
  git(workspace, 'checkout', '-q', '--detach');
  write(workspace, { 'docs/guide.md': '# Guide\n\nText of the pull request.\n' });
  git(workspace, 'commit', '-q', '-am', 'PR change');
  const detached = git(workspace, 'rev-parse', 'HEAD');
  const edit = join(root, 'edit');
  write(edit, { 'SUMMARY.md': DOCS['docs/SUMMARY.md'], 'README.md': DOCS['docs/README.md'], 'guide.md': '# Guide\n\nEdited in docsctl.\n' });
  return { origin, workspace, detached, edit };
}

function steps(s: Setup): Step[] {
  return [
    { argv: ['space', 'create', '--title', 'Docs', '--format', 'ids'], capture: 'space' },
    { argv: ['git', 'import', '{space}', s.workspace, '--dir', 'docs', '--json'] },
    { argv: ['api', 'GET', '/v1/spaces/{space}/content/path/guide?format=markdown'] },
    { argv: ['git', 'info', '{space}', '--json'] },
    { argv: ['cr', 'create', '{space}', '--format', 'ids'], capture: 'cr' },
    { argv: ['cr', 'import', '{space}', '{cr}', s.edit, '--format', 'ids'] },
    { argv: ['cr', 'merge', '{space}', '{cr}'] },
    { argv: ['git', 'export', '{space}', s.origin, '-m', 'Docs edit', '--json'] },
    { argv: ['git', 'export', '{space}', s.origin, '-m', 'Again', '--json'] },
    { argv: ['git', 'export', '{space}', s.origin, '-m', 'Again'] },
  ];
}

const tree = (origin: string) =>
  Object.fromEntries(
    git(origin, 'ls-tree', '-r', 'main')
      .split('\n')
      .map((line) => {
        const [meta, path] = line.split('\t');
        return [path as string, (meta as string).split(' ')[2] as string];
      }),
  );

describe('a CI workspace: detached HEAD → import → edit → export', () => {
  const runs: Array<{ setup: Setup; transcript: Transcript; before: Record<string, string> }> = [];
  beforeAll(async () => {
    for (const mode of ['local', 'remote'] as const) {
      const s = setup();
      const before = tree(s.origin);
      // As `serve --allow-local $TMPDIR`: the server may read the workspace and the origin.
      const policy = { ...SERVE_POLICY, localRoots: [realpathSync(tmpdir())] };
      runs.push({ setup: s, before, transcript: await runTranscript(steps(s), mode, mode === 'remote' ? { policy } : {}) });
    }
  }, 120_000);
  afterAll(cleanupTempDirs);

  it('imports the checked-out commit of the workspace, not main', () => {
    for (const { setup: s, transcript } of runs) {
      expect(transcript[1]?.exitCode, transcript[1]?.stderr).toBe(0);
      expect(JSON.parse(transcript[1]!.stdout)).toMatchObject({ ref: 'HEAD', commit: s.detached, changed: true });
      expect(transcript[2]?.stdout).toContain('Text of the pull request.');
    }
  });

  it('remembers the project directory and shows it in git info', () => {
    for (const { transcript } of runs) {
      expect(JSON.parse(transcript[3]!.stdout)).toMatchObject({ projectDirectory: 'docs', ref: 'HEAD' });
    }
  });

  it('exports into docs/ only: files outside it are untouched, no second SUMMARY.md', () => {
    for (const { setup: s, transcript, before } of runs) {
      expect(transcript[7]?.exitCode, transcript[7]?.stderr).toBe(0);
      const after = tree(s.origin);
      for (const path of Object.keys(OUTSIDE)) expect(after[path], path).toBe(before[path]);
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
      expect(after['docs/guide.md']).not.toBe(before['docs/guide.md']);
      expect(git(s.origin, 'show', 'main:docs/guide.md')).toContain('Edited in docsctl.');
    }
  });

  it('reports what the export did: committed, the commit, the files', () => {
    for (const { setup: s, transcript } of runs) {
      const head = git(s.origin, 'rev-parse', 'main');
      expect(JSON.parse(transcript[7]!.stdout)).toMatchObject({ committed: true, commit: head, fileCount: 1, files: ['docs/guide.md'] });
      expect(JSON.parse(transcript[8]!.stdout)).toMatchObject({ committed: false, commit: head, fileCount: 0, files: [] });
      expect(transcript[9]?.stdout).toMatch(/^Nothing to commit: .* refs\/heads\/main already has the content of space/);
    }
  });

  it('prints the same in both modes', () => {
    const [a, b] = runs.map((run) =>
      run.transcript.map((step) => ({ exitCode: step.exitCode, stdout: step.stdout.replaceAll(run.setup.workspace, 'WS').replaceAll(run.setup.origin, 'ORIGIN').replace(/[0-9a-f]{40}|\b[0-9a-f]{12}\b/g, 'SHA').replace(/"updatedAt": "[^"]*"/g, '') })),
    );
    expect(b).toEqual(a);
  });
});
