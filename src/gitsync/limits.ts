/**
 * What one import may hold (Git Sync, content import, change-request import).
 * Beyond them an import is refused, naming the file (GitSyncError with
 * `tooLarge`: the API answers 413), before the content costs its size many times
 * over: every reader of a page is linear in it, but a page is still held, stored
 * and answered whole, and pages nest by recursion.
 *
 * - A page's Markdown: 8 MiB. Gitiles renders 5 MiB at most; GitHub shows far
 *   less. A generated reference bigger than this belongs in several pages.
 * - A file (image, attachment): 100 MiB, GitHub's own limit for a file.
 * - Pages: 100,000 per import (as many as the files an import may hold; SUMMARY.md
 *   could otherwise list one file a million times).
 * - Nesting: 100 levels of pages.
 */
import { GitSyncError } from './errors.js';

export const MAX_PAGE_BYTES = 8 * 1024 * 1024;
export const MAX_FILE_BYTES = 100 * 1024 * 1024;
export const MAX_PAGES = 100_000;
export const MAX_PAGE_DEPTH = 100;

const MARKDOWN = /\.(md|markdown)$/i;

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`;
}

/** Why a file of `size` bytes at `path` cannot be imported (a Markdown file is a page), or undefined. */
export function oversizeFile(path: string, size: number): GitSyncError | undefined {
  if (MARKDOWN.test(path) && size > MAX_PAGE_BYTES) {
    return new GitSyncError(`${path}: ${mib(size)} of Markdown, more than the ${mib(MAX_PAGE_BYTES)} a page may hold (split it into several pages)`, {
      file: path,
      tooLarge: true,
    });
  }
  if (size > MAX_FILE_BYTES) {
    return new GitSyncError(`${path}: ${mib(size)}, more than the ${mib(MAX_FILE_BYTES)} a file may hold`, { file: path, tooLarge: true });
  }
  return undefined;
}

/** Throws when a file of `size` bytes at `path` cannot be imported. */
export function requireImportableSize(path: string, size: number): void {
  const error = oversizeFile(path, size);
  if (error) throw error;
}
