/**
 * POSIX path helpers over repository paths (`/` separators, no leading slash,
 * `''` for the root) and look-ups in a snapshot that follow symbolic links
 * without ever leaving the repository.
 */
import { GitSyncError } from './errors.js';
import type { RepoFile, RepoSnapshot } from './types.js';

import { normalizePath } from '../util/posix-path.js';

export { normalizePath };

export function joinPath(...parts: string[]): string {
  return parts.filter((part) => part !== '').join('/');
}

export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Whether `path` is `dir` or inside it (`dir` '' is the root, which holds everything). */
export function isInside(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(`${dir}/`);
}

/** `path` relative to `dir` (both normalised), with `..` segments when needed. */
export function relativePath(fromDir: string, path: string): string {
  // The common cases (a path under the content root), without splitting both.
  if (fromDir === '') return path;
  if (path.startsWith(`${fromDir}/`)) return path.slice(fromDir.length + 1);
  const from = fromDir === '' ? [] : fromDir.split('/');
  const to = path === '' ? [] : path.split('/');
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common += 1;
  const up = from.slice(common).map(() => '..');
  return [...up, ...to.slice(common)].join('/');
}

const decoder = new TextDecoder('utf-8');
const MAX_LINK_HOPS = 40;

export function linkTargetOf(file: RepoFile): string {
  return file.linkTarget ?? decoder.decode(file.data);
}

/** A regular file found at the end of the symbolic links, and the path it really lives at. */
export interface ResolvedFile {
  /** The entry at the asked path (a symbolic link, or the file itself). */
  entry: RepoFile;
  /** The regular file. */
  file: RepoFile;
  /** Its path. */
  path: string;
}

/**
 * Resolves a symbolic link's target against the link's directory. Throws a
 * GitSyncError when it leaves the repository (absolute, or too many `..`).
 */
function followLink(link: RepoFile, linkPath: string): string {
  const target = linkTargetOf(link);
  const resolved = target.startsWith('/') ? null : normalizePath(joinPath(dirname(linkPath), target));
  if (resolved === null || resolved === '') {
    throw new GitSyncError(`${linkPath}: symbolic link to "${target}" points outside the repository`, {
      file: linkPath,
    });
  }
  return resolved;
}

/**
 * Looks `path` up, following symbolic links (of the file and of any folder on
 * its way). Null when nothing is there (or a link dangles). Throws on links
 * that leave the repository or loop.
 */
export function resolveFile(snapshot: RepoSnapshot, path: string): ResolvedFile | null {
  const entry = snapshot.get(path);
  let current = path;
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops += 1) {
    const file = snapshot.get(current);
    if (file) {
      if (file.mode !== 'symlink') return { entry: entry ?? file, file, path: current };
      current = followLink(file, current);
      continue;
    }
    // A folder on the way may be a symbolic link.
    const next = throughLinkedFolder(snapshot, current);
    if (next === null) return null;
    current = next;
  }
  throw new GitSyncError(`${path}: too many levels of symbolic links`, { file: path });
}

const linkCounts = new WeakMap<RepoSnapshot, { size: number; links: number }>();

/** Whether a snapshot holds any symbolic link (cached while its size stays the same). */
function hasLinks(snapshot: RepoSnapshot): boolean {
  const cached = linkCounts.get(snapshot);
  if (cached && cached.size === snapshot.size) return cached.links > 0;
  let links = 0;
  for (const file of snapshot.values()) if (file.mode === 'symlink') links += 1;
  linkCounts.set(snapshot, { size: snapshot.size, links });
  return links > 0;
}

/** Rewrites the first symlinked folder of `path` to its target; null when no folder on the way is a link. */
function throughLinkedFolder(snapshot: RepoSnapshot, path: string): string | null {
  if (!hasLinks(snapshot)) return null;
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i += 1) {
    const prefix = segments.slice(0, i).join('/');
    const file = snapshot.get(prefix);
    if (file?.mode === 'symlink') return joinPath(followLink(file, prefix), segments.slice(i).join('/'));
  }
  return null;
}

/**
 * Where a write to `path` must go so that a symbolic link is never replaced by
 * a regular file: the link's target (inside the repository) when `path` or a
 * folder on its way is a link, else `path`.
 */
export function writePath(snapshot: RepoSnapshot, path: string): string {
  let current = path;
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops += 1) {
    const file = snapshot.get(current);
    if (file?.mode === 'symlink') {
      current = followLink(file, current);
      continue;
    }
    if (file) return current;
    const next = throughLinkedFolder(snapshot, current);
    if (next === null) return current;
    current = next;
  }
  throw new GitSyncError(`${path}: too many levels of symbolic links`, { file: path });
}

/**
 * Normalises a project directory option (`./docs/` → `docs`); refuses absolute paths and `..`.
 * Here, not in config.ts: a Git sync checks its request with it before the fetch, and config.ts
 * would load the YAML parser then (it loads while git fetches instead).
 */
export function normalizeProjectDirectory(value: string | undefined): string {
  if (value === undefined || value.trim() === '' || value.trim() === '.' || value.trim() === './') return '';
  const trimmed = value.trim();
  const normalized = trimmed.startsWith('/') ? null : normalizePath(trimmed);
  if (normalized === null) {
    throw new GitSyncError(`project directory "${value}" leaves the repository`, { file: value });
  }
  return normalized;
}
