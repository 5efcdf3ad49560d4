/**
 * What `git import` reads: a repository (through its mirror), or a plain
 * directory on disk (a local path that is not a repository, read as it is).
 *
 * Whether a local path is a repository is decided from the file system only
 * (a `.git` entry, or the layout of a bare repository): running git inside a
 * directory a request named would load that directory's config, and a config
 * can run code (`core.fsmonitor`).
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, badRequest } from '../api/errors.js';
import type { RepoSnapshot } from '../gitsync/types.js';
import type { AuthorizedRepo } from './access.js';
import type { RepoUrl } from './credentials.js';
import { readDirectorySnapshot } from './directory.js';
import { type Mirror, mirrorOf } from './repo.js';
import type { GitSettings } from './settings.js';

/** Largest plain directory read (bytes of all files) and most files. */
export const MAX_DIRECTORY_BYTES = 512 * 1024 * 1024;
export const MAX_DIRECTORY_FILES = 100_000;

export type RepoSource = { kind: 'repository'; mirror: Mirror; repo: RepoUrl } | { kind: 'directory'; dir: string; repo: RepoUrl };

async function isEntry(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** A work tree (`.git` directory or file) or a bare repository (HEAD, objects/, refs/). */
export async function isGitRepository(dir: string): Promise<boolean> {
  if (await isEntry(path.join(dir, '.git'))) return true;
  const bare = await Promise.all(['HEAD', 'objects', 'refs'].map((name) => isEntry(path.join(dir, name))));
  return bare.every(Boolean);
}

/**
 * The source of an authorized repository (access.ts: the caller's reach already
 * checked). `directories: false` refuses a plain directory (export needs a repository).
 */
export async function openSource(authorized: AuthorizedRepo, settings: GitSettings, options: { directories?: boolean } = {}): Promise<RepoSource> {
  const { repo } = authorized;
  if (repo.kind === 'file' || repo.kind === 'path') {
    let info;
    try {
      info = await lstat(repo.gitUrl);
    } catch {
      throw new ApiError(404, `Repository ${repo.redacted} not found: no such file or directory`);
    }
    if (info.isDirectory() && !(await isGitRepository(repo.gitUrl))) {
      if (options.directories === false) {
        throw badRequest(`${repo.redacted} is a directory, not a Git repository: export needs a repository (git init it, or clone one)`);
      }
      return { kind: 'directory', dir: repo.gitUrl, repo };
    }
  }
  return { kind: 'repository', mirror: await mirrorOf(authorized, settings), repo };
}

/** A plain directory as it is on disk (directory.ts), within the git import limits. */
export function readPlainDirectory(dir: string): Promise<RepoSnapshot> {
  return readDirectorySnapshot(dir, {
    maxBytes: MAX_DIRECTORY_BYTES,
    maxFiles: MAX_DIRECTORY_FILES,
    tooLarge: () => badRequest(`${dir} holds more than ${MAX_DIRECTORY_BYTES / 1024 / 1024} MiB`),
    tooMany: () => badRequest(`${dir} holds more than ${MAX_DIRECTORY_FILES} files`),
  });
}
