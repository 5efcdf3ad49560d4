/**
 * The store's errors and their exit codes: damage (74), a busy store, no store, a
 * store already there. They live with the store, so src/store/ imports nothing
 * from the API layer; every caller sees them as DocsctlErrors.
 */
import { DocsctlError, ExitCode } from '../util/errors.js';

/** The local store cannot be read: damaged, newer format, unreadable. Names the file. */
export class StoreError extends DocsctlError {
  readonly path: string;
  constructor(message: string, path: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options);
    this.path = path;
  }
  override get exitCode(): ExitCode {
    return ExitCode.storeDamaged;
  }
}

/**
 * A write failed because the disk (or the user's quota) is full: nothing was saved.
 * `serve` answers it 507 Insufficient Storage, with its message.
 */
export class StoreFullError extends StoreError {}

/** Another writer holds the store lock for too long. */
export class StoreBusyError extends DocsctlError {
  override get exitCode(): ExitCode {
    return ExitCode.conflict;
  }
}

/** No store at the given directory: a usage problem (run `docsctl init`), not damage. */
export class StoreNotFoundError extends DocsctlError {
  readonly path: string;
  constructor(path: string) {
    super(`No docsctl store at ${path}`, {
      hint: 'Run "docsctl init" to create one, or pass --store DIR / set DOCSCTL_STORE.',
    });
    this.path = path;
  }
  override get exitCode(): ExitCode {
    return ExitCode.usage;
  }
}

/** `docsctl init` (createStore) on a directory that already holds a store, or holds other files. */
export class StoreExistsError extends DocsctlError {
  readonly path: string;
  constructor(path: string, message = `A docsctl store already exists at ${path}`) {
    super(message, { hint: 'Nothing was changed. Use that store, or pick another directory with --store DIR.' });
    this.path = path;
  }
  override get exitCode(): ExitCode {
    return ExitCode.conflict;
  }
}
