/**
 * Typed errors shared by every layer, and the API's wire format for them.
 *
 * The real API answers every error with `{"error":{"code":<status>,"message":"…"}}`.
 * `serve` renders any DocsctlError that way, and HttpTransport rebuilds the same
 * class from it, so a command fails identically in local and remote mode.
 * The CLI maps each error to one of the documented exit codes (see exitCodeFor).
 */

import { redactUrls } from '../util/redact.js';

/** Exit codes (README "Exit codes"; keep them stable, scripts depend on them). */
export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  network: 6,
  rateLimited: 7,
  storeDamaged: 74,
  cancelled: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Base of every error docsctl raises on purpose. `hint` is printed after the message.
 * Both are redacted at birth: the userinfo of every URL in them (parsable or not)
 * becomes `***`, so no CLI line, log line or API error body can echo a password.
 */
export class DocsctlError extends Error {
  readonly hint: string | undefined;
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(redactUrls(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint === undefined ? undefined : redactUrls(options.hint);
  }
  get exitCode(): ExitCode {
    return ExitCode.error;
  }
}

/** An error with an HTTP status, as the API answers it (or as a handler throws it). */
export class ApiError extends DocsctlError {
  readonly status: number;
  constructor(status: number, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options);
    this.status = status;
  }
  override get exitCode(): ExitCode {
    return exitCodeForStatus(this.status);
  }
  /** The API's error body. */
  toBody(): ApiErrorBody {
    return { error: { code: this.status, message: this.message } };
  }
}

export interface ApiErrorBody {
  error: { code: number; message: string };
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const error = (value as { error?: unknown }).error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'number' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const preconditionFailed = (message: string) => new ApiError(412, message);
export const forbidden = (message: string) => new ApiError(403, message);

/** Bad command-line usage: unknown flag, missing argument, invalid value. */
export class UsageError extends DocsctlError {
  override get exitCode(): ExitCode {
    return ExitCode.usage;
  }
}

/** The endpoint could not be reached or did not answer in time. */
export class NetworkError extends DocsctlError {
  override get exitCode(): ExitCode {
    return ExitCode.network;
  }
}

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

/** Another writer holds the store lock for too long. */
export class StoreBusyError extends DocsctlError {
  override get exitCode(): ExitCode {
    return ExitCode.conflict;
  }
}

/** The user aborted (Ctrl-C, declined a confirmation, closed a prompt). */
export class CancelledError extends DocsctlError {
  override get exitCode(): ExitCode {
    return ExitCode.cancelled;
  }
}

export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400 || status === 422) return ExitCode.usage;
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 409 || status === 412) return ExitCode.conflict;
  if (status === 429) return ExitCode.rateLimited;
  // Bad gateway / gateway timeout: what the server had to reach (a Git remote, the API behind a proxy) did not answer.
  if (status === 502 || status === 504) return ExitCode.network;
  return ExitCode.error;
}

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof DocsctlError) return error.exitCode;
  return ExitCode.error;
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
