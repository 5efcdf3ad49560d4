/**
 * Change requests end to end through the CLI, in local mode and against
 * `docsctl serve`: import Markdown into a change request, diff, merge, hit a
 * conflict, update an outdated change request, check links. Same stdout and exit
 * codes in both modes (the PDF URL differs by nature and is checked apart).
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_POLICY } from '../../src/domain/policy.js';
import type { RunResult } from '../helpers/cli.js';
import { type Step, type Transcript, runTranscript } from '../helpers/scenario.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

function writeTree(dir: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const summary = '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n* [Usage](usage.md)\n';
const base = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': summary,
  'install.md': '# Install\n\nRun the installer.\n\nThen restart.\n',
  'usage.md': '# Usage\n\nSee [Install](install.md) and [Missing](missing.md).\n',
};

let fixtures: Record<string, string>;
let fixtureRoot: string;

beforeAll(() => {
  const root = realpathSync(tempDir('docsctl-cr-fixtures-'));
  fixtureRoot = root;
  fixtures = {
    base: writeTree(join(root, 'base'), base),
    editA: writeTree(join(root, 'a'), { ...base, 'install.md': '# Install\n\nRun the installer with --fast.\n\nThen restart.\n' }),
    editB: writeTree(join(root, 'b'), { ...base, 'install.md': '# Install\n\nRun the installer twice.\n\nThen restart.\n' }),
    editUsage: writeTree(join(root, 'c'), { ...base, 'usage.md': '# Usage\n\nSee [Install](install.md).\n' }),
  };
});

const steps = (): Step[] => [
  { argv: ['space', 'create', '--title', 'Docs', '--format', 'ids'], capture: 'space' },
  { argv: ['cr', 'create', '{space}', '--subject', 'First import', '--format', 'ids'], capture: 'cr1' },
  { argv: ['cr', 'import', '{space}', '{cr1}', fixtures.base as string, '--format', 'tsv'] },
  { argv: ['page', 'list', '{space}', '--cr', '{cr1}', '--format', 'tsv'] },
  { argv: ['cr', 'diff', '{space}', '{cr1}'] },
  { argv: ['cr', 'merge', '{space}', '1'] },
  { argv: ['cr', 'merge', '{space}', '1'] },
  { argv: ['page', 'list', '{space}', '--format', 'tsv'] },
  { argv: ['space', 'links', '{space}', '--broken'] },
  { argv: ['space', 'links', '{space}', '--format', 'tsv'] },
  { argv: ['cr', 'create', '{space}', '--subject', 'Fast install', '--format', 'ids'], capture: 'cr2' },
  { argv: ['cr', 'create', '{space}', '--subject', 'Twice', '--format', 'ids'], capture: 'cr3' },
  { argv: ['cr', 'create', '{space}', '--subject', 'Fix usage', '--format', 'ids'], capture: 'cr4' },
  { argv: ['cr', 'import', '{space}', '{cr2}', fixtures.editA as string, '--format', 'tsv'] },
  { argv: ['cr', 'import', '{space}', '{cr3}', fixtures.editB as string, '--format', 'tsv'] },
  { argv: ['cr', 'import', '{space}', '{cr4}', fixtures.editUsage as string, '--format', 'tsv'] },
  { argv: ['cr', 'diff', '{space}', '{cr2}'] },
  { argv: ['cr', 'merge', '{space}', '{cr2}'] },
  { argv: ['cr', 'get', '{space}', '{cr3}', '--format', 'tsv'] },
  { argv: ['cr', 'merge', '{space}', '{cr3}'] },
  { argv: ['cr', 'update', '{space}', '{cr3}'] },
  { argv: ['cr', 'merge', '{space}', '{cr4}'] },
  { argv: ['space', 'links', '{space}', '--broken'] },
  { argv: ['cr', 'edit', '{space}', '{cr3}', '--status', 'archived', '--format', 'tsv'] },
  { argv: ['cr', 'list', '{space}', '--status', 'merged', '--format', 'tsv'] },
  { argv: ['cr', 'list', '{space}', '--status', 'archived', '--format', 'ids'] },
  { argv: ['space', 'get', '{space}', '--json'] },
  { argv: ['cr', 'pdf', '{space}', '{cr2}', '--format', 'ids'], capture: 'pdf', compare: false },
];

describe('change requests in both modes', () => {
  let local: Transcript;
  let remote: Transcript;
  beforeAll(async () => {
    local = await runTranscript(steps(), 'local');
    // As `serve --allow-local <fixtures>`: the server may read the imported directories, nothing else.
    remote = await runTranscript(steps(), 'remote', { policy: { ...SERVE_POLICY, localRoots: [fixtureRoot] } });
  }, 120_000);
  afterAll(cleanupTempDirs);

  it('prints the same stdout and exit codes in both modes', () => {
    steps().forEach((step, index) => {
      if (step.compare === false) return;
      const a = local[index] as RunResult;
      const b = remote[index] as RunResult;
      expect({ argv: step.argv, stdout: b.stdout, exitCode: b.exitCode }).toEqual({ argv: step.argv, stdout: a.stdout, exitCode: a.exitCode });
    });
  });

  it('imports, merges and shows the merged pages', () => {
    expect(local[2]?.exitCode, local[2]?.stderr).toBe(0);
    expect(local[5]?.stdout).toMatch(/^result=merge\trevision=\w+$/m);
    expect(local[2]?.stdout).toMatch(/^revision=\w+\timportedResources=\d+\ttotalResources=\d+$/m);
    expect(local[7]?.stdout).toMatch(/\tInstall\tinstall\b/);
  });

  it('refuses to merge a merged change request (exit 5)', () => {
    expect(local[6]?.exitCode).toBe(5);
  });

  it('diffs a change request against the space', () => {
    expect(local[16]?.stdout).toMatch(/^edited\s+install/m);
    expect(local[16]?.stdout).toContain('-Run the installer.');
    expect(local[16]?.stdout).toContain('+Run the installer with --fast.');
  });

  it('reports a conflict with the conflicting page and exit 5, changing nothing', () => {
    expect(local[18]?.stdout).toMatch(/\ttrue\b/); // cr3 is outdated once cr2 merged
    expect(local[19]?.exitCode).toBe(5);
    expect(local[19]?.stdout).toMatch(/^result=conflicts\t/m);
    expect(local[19]?.stderr).toMatch(/conflict: install/);
    expect(local[20]?.exitCode).toBe(5);
  });

  it('merges non-overlapping changes, and the link check follows the content', () => {
    expect(local[8]?.exitCode).toBe(1);
    expect(local[8]?.stderr).toMatch(/1 broken link/);
    // Without --broken the listing is not a check: it shows the broken link and exits 0.
    expect(local[9]?.exitCode, local[9]?.stderr).toBe(0);
    expect(local[9]?.stdout).toContain('missing.md');
    expect(local[21]?.exitCode, local[21]?.stderr).toBe(0);
    expect(local[22]?.exitCode).toBe(0);
  });

  it('keeps the counters exact', () => {
    const space = JSON.parse(local[26]?.stdout ?? '{}') as Record<string, number>;
    expect(space).toMatchObject({ changeRequests: 4, changeRequestsOpen: 0, changeRequestsDraft: 0 });
  });

  it('renders a PDF: a file:// URL locally, a URL the server answers remotely', () => {
    expect(local.at(-1)?.stdout).toMatch(/^file:\/\/.*\.pdf\n$/);
    expect(remote.at(-1)?.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*\.pdf\n$|^http:\/\/127\.0\.0\.1:4000\/.*\.pdf\n$/);
  });
});
