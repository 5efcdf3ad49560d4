/**
 * The Git Sync converter's view of a repository: an in-memory map of files,
 * keyed by their path from the repository root (`/` separators, no leading
 * slash, Unicode exactly as Git stores it: never normalised).
 *
 * A symbolic link is stored as Git stores it: `data` is the link's blob (the
 * target path as text) and `linkTarget` the same text, decoded (optional; it is
 * decoded from `data` when absent). Regular files have `mode` 'file' or none.
 */
export interface RepoFile {
  path: string;
  data: Uint8Array;
  mode?: 'file' | 'symlink';
  linkTarget?: string;
}

export type RepoSnapshot = Map<string, RepoFile>;
