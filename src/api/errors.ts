/**
 * The API's typed errors and their wire format (the base class and exit codes are
 * in util/errors.ts, the store's errors in store/errors.ts).
 *
 * The real API answers every error with `{"error":{"code":<status>,"message":"…"}}`.
 * `serve` renders any DocsctlError that way, and HttpTransport rebuilds the same
 * class from it, so a command fails identically in local and remote mode.
 * The CLI maps each error to one of the documented exit codes (see exitCodeFor).
 */

import { DocsctlError, ExitCode } from '../util/errors.js';

export { DocsctlError, ExitCode } from '../util/errors.js';

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

/**
 * The wording of the API's answer to a change that would leave everything as it is
 * (409, as the API doc says for moves and transfers). The CLI reads it as "nothing to
 * change" (exit 0), so a script can re-run a command; `docsctl api` keeps the 409.
 */
export const NO_UPDATE = 'would not result in any update';

/** 409: `what` ("Moving space X") would change nothing. */
export const noUpdate = (what: string) => new ApiError(409, `${what} ${NO_UPDATE}`);

/** The error is the API's "would not result in any update" (from this process or a server). */
export const isNoUpdate = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 409 && error.message.includes(NO_UPDATE);

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
