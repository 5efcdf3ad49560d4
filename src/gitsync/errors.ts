/**
 * The converter's one error: a repository it refuses to read (escaping paths, unreadable
 * config, symlink loops), or content beyond what an import takes (`tooLarge`: limits.ts).
 */
import { DocsctlError } from '../api/errors.js';

export class GitSyncError extends DocsctlError {
  /** The repository path the error is about (from the repository root). */
  readonly file: string | undefined;
  /** The content is beyond a limit of limits.ts (the API answers 413, not 400). */
  readonly tooLarge: boolean;
  constructor(message: string, options: { file?: string; hint?: string; cause?: unknown; tooLarge?: boolean } = {}) {
    // One line: a message naming the file, whatever the cause's text holds.
    super(message.replace(/\s*[\r\n]+\s*/g, ' ').trim(), options);
    this.file = options.file;
    this.tooLarge = options.tooLarge ?? false;
  }
}
