/**
 * Real Git repositories for the Git Sync tests: a bare "remote" plus a work
 * clone, in a temp dir, reached through file:// URLs. Git runs with a fixed
 * identity, `init.defaultBranch=main` and no global/system config, so nothing
 * depends on the machine's git setup. The driver's mirror cache goes to a temp
 * dir too (DOCSCTL_GIT_CACHE).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { authorizeUrl } from '../../src/domain/git/reach.js';
import { type Mirror, mirrorOf } from '../../src/git/repo.js';
import { type GitSettings, processGitSettings } from '../../src/git/settings.js';
import type { FixtureValue } from '../gitsync/helpers.js';

export const GIT_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@test.invalid',
  GIT_COMMITTER_NAME: 'Test Committer',
  GIT_COMMITTER_EMAIL: 'committer@test.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** Every file under `dir` whose bytes contain `needle` (paths relative to `dir`). */
export function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (readFileSync(file).includes(needle)) found.push(path.relative(dir, file));
  }
  return found;
}

/** Makes the driver (which reads process.env) independent of the machine too; returns a cleanup. */
export function isolateGit(): { cacheDir: string; cleanup: () => void } {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'docsctl-git-cache-test-'));
  const saved: Record<string, string | undefined> = {};
  const env = { ...GIT_ENV, DOCSCTL_GIT_CACHE: cacheDir };
  for (const [key, value] of Object.entries(env)) {
    saved[key] = process.env[key];
    process.env[key] = value;
  }
  return {
    cacheDir,
    cleanup: () => {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export interface TestRemote {
  root: string;
  bare: string;
  work: string;
  url: string;
  /** Writes files into the work clone (text, bytes, `{symlink}`; `null` deletes), commits and pushes; answers the commit. */
  commit(files: Record<string, FixtureValue | null>, message?: string, branch?: string): string;
  /** The remote's commit at a branch (undefined when missing). */
  head(branch?: string): string | undefined;
  /** Names of files the commit changed relative to its parent. */
  changed(commit: string): string[];
  /** `git show commit:path` of the remote. */
  show(commit: string, file: string): string;
  cleanup(): void;
}

export function makeRemote(files?: Record<string, FixtureValue>): TestRemote {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docsctl-git-remote-'));
  const bare = path.join(root, 'remote.git');
  const work = path.join(root, 'work');
  git(root, 'init', '--bare', '--quiet', bare);
  git(root, 'clone', '--quiet', bare, work);
  let n = 0;
  const remote: TestRemote = {
    root,
    bare,
    work,
    url: pathToFileURL(bare).href,
    commit(changes, message = `commit ${++n}`, branch = 'main') {
      const current = (() => {
        try {
          return git(work, 'rev-parse', '--abbrev-ref', 'HEAD');
        } catch {
          return undefined;
        }
      })();
      if (current !== branch) {
        try {
          git(work, 'checkout', '--quiet', branch);
        } catch {
          git(work, 'checkout', '--quiet', '-b', branch);
        }
      }
      if (remote.head(branch) !== undefined) {
        git(work, 'fetch', '--quiet', 'origin', `refs/heads/${branch}`);
        git(work, 'reset', '--quiet', '--hard', 'FETCH_HEAD');
      }
      for (const [rel, value] of Object.entries(changes)) {
        const file = path.join(work, rel);
        rmSync(file, { force: true });
        if (value === null) continue;
        mkdirSync(path.dirname(file), { recursive: true });
        if (typeof value === 'object' && !(value instanceof Uint8Array)) symlinkSync(value.symlink, file);
        else writeFileSync(file, value);
      }
      git(work, 'add', '-A');
      git(work, 'commit', '--quiet', '--allow-empty', '-m', message);
      git(work, 'push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
      return git(work, 'rev-parse', 'HEAD');
    },
    head(branch = 'main') {
      try {
        return git(bare, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`);
      } catch {
        return undefined;
      }
    },
    changed(commit) {
      return git(bare, 'diff-tree', '--no-commit-id', '--name-only', '-r', '-z', `${commit}^`, commit)
        .split('\0')
        .filter((name) => name !== '');
    },
    show(commit, file) {
      return git(bare, 'show', `${commit}:${file}`);
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  if (files) remote.commit(files, 'Initial content');
  return remote;
}

/**
 * The mirror of `url` as local mode opens it (everything reachable), with this
 * process's git settings (isolateGit's cache) overridden by `settings`.
 */
export async function openMirror(url: string, settings: Partial<GitSettings> = {}): Promise<Mirror> {
  return mirrorOf(await authorizeUrl(url), { ...processGitSettings(), ...settings });
}
