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
  /** The file's bytes; empty when they were `stored` as they were read (see StoredBytes). */
  data: Uint8Array;
  mode?: 'file' | 'symlink';
  linkTarget?: string;
  /** The git blob id of the file's bytes, when git gave it (else it is computed from `data`: blob.ts fileOid). */
  oid?: string;
  /** Set when the bytes went straight to the store as the blob was read, and were not kept. */
  stored?: StoredBytes;
  /**
   * The file's bytes as text, when the reader decoded them exactly as they streamed and kept
   * no bytes (text-file.ts: `data` is then the text encoded again, and `size` its byte length).
   */
  text?: string;
  size?: number;
}

/**
 * What the converter needs of a file whose bytes it never parses (an image of
 * `.gitbook/assets/`), once those bytes went into the store as git streamed them:
 * an import then holds the pages' text, not every image of the repository.
 */
export interface StoredBytes {
  /** The git blob id (what gitBlobOid(data) gives). */
  oid: string;
  size: number;
  dimensions?: { width: number; height: number };
}

export type RepoSnapshot = Map<string, RepoFile>;
