/**
 * `git export --dry-run` and `git import --dry-run` ask the server for a preview
 * (docsctl extension routes, computed as the sync computes it), so they print the
 * same in local mode and against `docsctl serve` — and what they print is what
 * the sync then does. Nothing is committed, pushed or stored by a preview.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_POLICY } from '../../src/domain/policy.js';
import { type TestRemote, makeRemote } from '../git/helpers.js';
import { type Step, type Transcript, runTranscript } from '../helpers/scenario.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const files = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n',
  'install.md': '# Install\n\nRun the installer.\n',
};

/** A directory in `parent` like the repository with install.md edited: imported into a change request. */
function variantIn(parent: string): string {
  const dir = join(parent, 'variant');
  mkdirSync(dir);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  writeFileSync(join(dir, 'install.md'), '# Install\n\nRun the installer twice.\n');
  return dir;
}

function steps(url: string, variant: string): Step[] {
  return [
    /* 0 */ { argv: ['space', 'create', '--title', 'Docs', '--format', 'ids'], capture: 'space' },
    /* 1 */ { argv: ['git', 'import', '{space}', url, '--ref', 'main'] },
    /* 2 */ { argv: ['git', 'export', '{space}', url, '-m', 'nothing', '--dry-run'] },
    /* 3 */ { argv: ['cr', 'create', '{space}', '--format', 'ids'], capture: 'cr' },
    /* 4 */ { argv: ['cr', 'import', '{space}', '{cr}', variant, '--format', 'ids'] },
    /* 5 */ { argv: ['cr', 'merge', '{space}', '{cr}'] },
    /* 6 */ { argv: ['git', 'export', '{space}', url, '-m', 'One change', '--dry-run'] },
    /* 7 */ { argv: ['git', 'export', '{space}', url, '-m', 'One change', '--dry-run', '--json'] },
    /* 8 */ { argv: ['git', 'export', '{space}', url, '-m', 'Elsewhere', '--dir', 'docs', '--dry-run'] },
    /* 9 */ { argv: ['git', 'import', '{space}', url, '--dry-run'] },
    /* 10 */ { argv: ['git', 'import', '{space}', url, '--dry-run', '--force'] },
    /* 11 */ { argv: ['git', 'info', '{space}', '--json'] },
    /* 12 */ { argv: ['git', 'export', '{space}', url, '-m', 'One change', '--json'] },
    /* 13 */ { argv: ['git', 'export', '{space}', url, '-m', 'again', '--dry-run'] },
  ];
}

describe('git previews in both modes', () => {
  let remotes: TestRemote[];
  let local: Transcript;
  let remote: Transcript;
  let headsBefore: Array<string | undefined>;

  beforeAll(async () => {
    remotes = [makeRemote(files), makeRemote(files)];
    headsBefore = remotes.map((r) => r.head());
    local = await runTranscript(steps(remotes[0]!.url, variantIn(tempDir('docsctl-preview-'))), 'local');
    // As `serve --allow-local` of the remote's and the variant's directories.
    const allowed = [realpathSync(remotes[1]!.root), realpathSync(tempDir('docsctl-preview-'))];
    remote = await runTranscript(steps(remotes[1]!.url, variantIn(allowed[1] as string)), 'remote', { policy: { ...SERVE_POLICY, localRoots: allowed } });
  }, 120_000);
  afterAll(() => {
    for (const r of remotes ?? []) r.cleanup();
    cleanupTempDirs();
  });

  const norm = (text: string) =>
    text.replaceAll(remotes[0]!.url, 'R').replaceAll(remotes[1]!.url, 'R').replace(/\b[0-9a-f]{40}\b/g, 'SHA40').replace(/\b[0-9a-f]{12}\b/g, 'SHA');

  it('prints the same stdout and exit code locally and against serve', () => {
    steps('R', 'V').forEach((step, index) => {
      const a = local[index]!;
      const b = remote[index]!;
      expect({ argv: step.argv, stdout: norm(b.stdout), exitCode: b.exitCode }).toEqual({ argv: step.argv, stdout: norm(a.stdout), exitCode: a.exitCode });
    });
  });

  it('says an export of an unchanged space would not commit', () => {
    expect(local[2]?.exitCode, local[2]?.stderr).toBe(0);
    expect(norm(local[2]!.stdout)).toBe('dry run: 0 file(s) to write, 0 to delete on R refs/heads/main (SHA), no commit; nothing was committed\n');
  });

  it('lists the files an export would change, as text and as JSON', () => {
    expect(norm(local[6]!.stdout)).toBe('change   install.md\ndry run: 1 file(s) to write, 0 to delete on R refs/heads/main (SHA); nothing was committed\n');
    expect(JSON.parse(local[7]!.stdout)).toEqual({
      repository: remotes[0]!.url,
      ref: 'refs/heads/main',
      projectDirectory: '',
      commit: headsBefore[0],
      wouldCommit: true,
      files: [{ path: 'install.md', change: 'change' }],
      warnings: [],
    });
  });

  it('previews another project directory as files added there', () => {
    expect(local[8]?.exitCode, local[8]?.stderr).toBe(0);
    expect(norm(local[8]!.stdout)).toBe(
      ['add      docs/README.md', 'add      docs/SUMMARY.md', 'add      docs/install.md', 'dry run: 3 file(s) to write, 0 to delete on R refs/heads/main (SHA); nothing was committed', ''].join('\n'),
    );
  });

  it('previews an import as the import would run: skipped for the commit already synced, with --force the page it would change back', () => {
    expect(local[9]?.exitCode, local[9]?.stderr).toBe(0);
    expect(norm(local[9]!.stdout)).toBe('dry run: the import from R refs/heads/main would be skipped (already synced); nothing was imported\n');
    expect(norm(local[10]!.stdout)).toMatch(/^edited +page install\ndry run: 1 change\(s\) from R refs\/heads\/main \(SHA\); nothing was imported\n$/);
  });

  it('changes nothing: no commit pushed, the sync state as before, and the export then does what the preview said', () => {
    expect(JSON.parse(local[11]!.stdout)).toMatchObject({ commit: headsBefore[0], lastSync: 'import' });
    for (const [i, r] of remotes.entries()) {
      const exported = JSON.parse((i === 0 ? local : remote)[12]!.stdout) as { committed: boolean; commit: string; files: string[] };
      expect(exported).toMatchObject({ committed: true, files: ['install.md'] });
      expect(r.head()).toBe(exported.commit);
      expect(r.changed(exported.commit)).toEqual(['install.md']);
    }
    expect(norm(local[13]!.stdout)).toBe('dry run: 0 file(s) to write, 0 to delete on R refs/heads/main (SHA), no commit; nothing was committed\n');
  });
});
