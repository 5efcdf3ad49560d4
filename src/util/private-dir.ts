/**
 * Private directories for caches and generated files (git mirrors, index files,
 * artifacts): under `$XDG_CACHE_HOME/docsctl` (default `~/.cache/docsctl`), created
 * 0700, and refused when someone else owns them or they are writable by others —
 * a directory another user can plant files in (a repository whose config runs
 * hooks, say) must never be used (../shared/notes/hardening.md §4).
 */
import * as fs from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { DocsctlError } from '../api/errors.js';

/** A cache or work directory that is not safe to use (exit 1 with the reason and the fix). */
export class UnsafeDirectoryError extends DocsctlError {}

/** `$XDG_CACHE_HOME/docsctl/<sub>` (default `~/.cache/docsctl/<sub>`), or `DOCSCTL_CACHE_DIR/<sub>`. */
export function cacheDir(sub: string, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.DOCSCTL_CACHE_DIR
    ? path.resolve(env.DOCSCTL_CACHE_DIR)
    : path.join(env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(homedir(), '.cache'), 'docsctl');
  return path.join(base, sub);
}

/** Throws UnsafeDirectoryError unless `dir` is a real directory owned by us with no group/other write bit. */
export function checkPrivateDir(dir: string): void {
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new UnsafeDirectoryError(`${dir} is not a directory (a symlink or a file): refusing to use it`, {
      hint: `remove it, or point DOCSCTL_CACHE_DIR elsewhere`,
    });
  }
  if (process.platform === 'win32') return;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new UnsafeDirectoryError(`${dir} is owned by another user (uid ${stat.uid}): refusing to use it`, {
      hint: 'point DOCSCTL_CACHE_DIR or XDG_CACHE_HOME at a directory of your own',
    });
  }
  if ((stat.mode & 0o022) !== 0) {
    throw new UnsafeDirectoryError(
      `${dir} is writable by other users (mode ${(stat.mode & 0o777).toString(8)}): refusing to use it`,
      { hint: `run "chmod 700 ${dir}", or point DOCSCTL_CACHE_DIR elsewhere` },
    );
  }
}

/**
 * Creates `dir` (and missing parents) 0700 if needed, tightens a directory of ours that
 * is too open, and checks every level from the cache base down: returns `dir` when safe.
 */
export function ensurePrivateDir(dir: string): string {
  const resolved = path.resolve(dir);
  fs.mkdirSync(resolved, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(resolved);
  const uid = process.getuid?.();
  if (process.platform !== 'win32' && stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) !== 0) {
    fs.chmodSync(resolved, 0o700);
  }
  checkPrivateDir(resolved);
  return resolved;
}
