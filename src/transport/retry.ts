/**
 * When and how long HttpTransport waits before sending a request again. Pure
 * functions (time and randomness are parameters) so the policy is unit-tested
 * without a network or a clock.
 *
 * What is retried:
 * - 429 (rate limited) and 503 (unavailable) for every method: the server did
 *   not process the request, so even a POST is safe to send again;
 * - 502 and 504 for idempotent methods only (GET/PUT/DELETE, also HEAD/OPTIONS):
 *   a gateway may have passed a POST on before failing;
 * - a connection reset / closed socket for idempotent methods only.
 * Connection refused, DNS failures and timeouts are not retried: the endpoint is
 * wrong or down, and waiting would only delay the error.
 */

export interface RetryPolicy {
  /** Retries after the first attempt (0 = no retry). */
  retries: number;
  /** First backoff step, doubled at each attempt. */
  baseDelayMs: number;
  /** Largest backoff step (before jitter). */
  maxDelayMs: number;
  /** Largest wait a `Retry-After` / `X-RateLimit-Reset` header can impose. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/** True when a response with `status` to a `method` request may be sent again. */
export function isRetryableStatus(method: string, status: number): boolean {
  if (status === 429 || status === 503) return true;
  if (status === 502 || status === 504) return isIdempotent(method);
  return false;
}

/** Network error codes meaning "the connection broke" (the request may or may not have been processed). */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** True when a request that failed with the network error `code` may be sent again. */
export function isRetryableNetworkError(method: string, code: string | undefined): boolean {
  return code !== undefined && RESET_CODES.has(code) && isIdempotent(method);
}

/**
 * Parses `Retry-After` (delta seconds or an HTTP date) into milliseconds from `now`.
 * Undefined when absent or malformed; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Parses `X-RateLimit-Reset` (UTC epoch seconds) into milliseconds from `now`. */
export function parseRateLimitReset(value: string | undefined, now: number): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Math.max(0, Number(value.trim()) * 1000 - now);
}

/**
 * Exponential backoff with jitter for retry number `attempt` (1 = first retry):
 * base·2^(attempt-1), capped, then scaled by a random factor in [0.5, 1) so that
 * clients failing together do not come back together.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step * (0.5 + random() * 0.5));
}

export interface RetryHeaders {
  retryAfter?: string | undefined;
  rateLimitReset?: string | undefined;
}

/**
 * How long to wait before retry number `attempt`: what the server asked for
 * (`Retry-After`, else `X-RateLimit-Reset` on a 429), capped by `maxRetryAfterMs`,
 * otherwise the backoff.
 */
export function retryDelay(
  attempt: number,
  status: number | undefined,
  headers: RetryHeaders,
  policy: RetryPolicy,
  now: number,
  random: () => number = Math.random,
): number {
  let asked = parseRetryAfter(headers.retryAfter, now);
  if (asked === undefined && status === 429) asked = parseRateLimitReset(headers.rateLimitReset, now);
  if (asked !== undefined) return Math.min(asked, policy.maxRetryAfterMs);
  return backoffDelay(attempt, policy, random);
}
