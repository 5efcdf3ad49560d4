/**
 * The base of every error docsctl raises on purpose, and the exit codes they map to:
 * shared by every layer (the store's errors, store/errors.ts, and the API's,
 * api/errors.ts, both extend it), so no layer imports another's errors to get it.
 */
import { redactUrls } from './redact.js';

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
