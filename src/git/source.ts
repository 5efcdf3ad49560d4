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
import type { InputPolicy } from '../domain/policy.js';
import type { RepoSnapshot } from '../gitsync/types.js';
import type { RepoUrl } from './credentials.js';
import { readDirectorySnapshot } from './directory.js';
import { type Mirror, authorizeUrl, mirrorOf } from './repo.js';

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
 * The source at `url`, checked against `policy` (400/403 before anything is
 * read). `directories: false` refuses a plain directory (export needs a repository).
 */
export async function openSource(url: string, options: { policy?: InputPolicy; cacheDir?: string; directories?: boolean } = {}): Promise<RepoSource> {
  const authorized = await authorizeUrl(url, options.policy);
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
  return { kind: 'repository', mirror: await mirrorOf(authorized, options), repo };
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
