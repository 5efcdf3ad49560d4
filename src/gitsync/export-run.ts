/**
 * What the phases of one export share (export.ts runs them): the configuration
 * written to, the repository as it is, the paths the space owns there and the paths
 * this export has taken, the warnings.
 */
import type { GitBookConfig } from './config.js';
import { isInside, relativePath, resolveFile, type ResolvedFile } from './paths.js';
import { slugify } from './slug.js';
import type { RepoSnapshot } from './types.js';

/**
 * Files of the tree whose bytes were left unread because their blob id is known (a store
 * remembers it per data object): compared with the branch by that id, read only to be written.
 */
export interface FileBlobs {
  /** The git blob id of the bytes of the file with this id, when known (its `data` is then empty). */
  oidOf(fileId: string): string | undefined;
  /** The bytes of the file with this id. */
  bytesOf(fileId: string): Uint8Array;
}

export interface ExportRun {
  config: GitBookConfig;
  /** The repository before the export. */
  current: RepoSnapshot;
  warnings: string[];
  /** Paths the space owns in `current` (its pages' and files' files). */
  owned: Set<string>;
  /** Paths taken by this export. */
  used: Set<string>;
  /** Whether the page at a path of `current` had children there (a page gaining or losing them moves). */
  hadChildren: Map<string, boolean>;
  /** What the caller knows of the files' bytes without them (ExportOptions.blobs). */
  blobs?: FileBlobs | undefined;
  /** Blob ids of files' bytes this export read and hashed, by file id (ExportResult.learntBlobs). */
  learnt: Map<string, string>;
  /** Pages written over a file whose bytes were not read (ExportResult.unread). */
  unread: Map<string, UnreadPage>;
}

/**
 * A page written over a file of the branch whose bytes the export did not read (its blob id and
 * size only, as an image's: StoredBytes) and whose blob id differs from the page's bytes: the
 * caller reads the file and `settleUnread` keeps the write only if the file's text differs (as
 * an export that read it decides: a file that is not UTF-8, or has a BOM, holds other bytes).
 */
export interface UnreadPage {
  text: string;
  /** The file's blob id. */
  oid: string;
  /** The page written (its `git.oid` becomes the file's when the write is dropped). */
  page: { git?: { oid: string; path: string } | undefined };
}

/** A slug that is also a file name (slugify leaves it as it is). */
export const isSafeSlug = (slug: string | undefined): slug is string => slug !== undefined && slug !== '' && slugify(slug) === slug;

export function lookup(snapshot: RepoSnapshot, path: string): ResolvedFile | null {
  try {
    return resolveFile(snapshot, path);
  } catch {
    return null;
  }
}

export function existsIn(snapshot: RepoSnapshot, path: string): boolean {
  if (snapshot.has(path)) return true;
  try {
    return resolveFile(snapshot, path) !== null;
  } catch {
    return true;
  }
}

/** Free for this export: not used by another output, and not a file of the repository the space does not own. */
export function isFree(run: ExportRun, path: string): boolean {
  if (run.used.has(path)) return false;
  return run.owned.has(path) || !existsIn(run.current, path);
}

export function contentRelative(config: GitBookConfig, path: string): string {
  return isInside(path, config.root) ? relativePath(config.root, path) : path;
}
