import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_POLICY,
  backoffDelay,
  isRetryableNetworkError,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
} from '../../src/transport/retry.js';

const now = Date.parse('2026-03-01T10:00:00Z');

describe('retry policy', () => {
  it('retries 429/503 for every method, 502/504 only for idempotent ones', () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'POST', 'PATCH']) {
      expect(isRetryableStatus(method, 429)).toBe(true);
      expect(isRetryableStatus(method, 503)).toBe(true);
      expect(isRetryableStatus(method, 500)).toBe(false);
      expect(isRetryableStatus(method, 404)).toBe(false);
    }
    expect(isRetryableStatus('GET', 502)).toBe(true);
    expect(isRetryableStatus('delete', 504)).toBe(true);
    expect(isRetryableStatus('POST', 502)).toBe(false);
    expect(isRetryableStatus('PATCH', 504)).toBe(false);
  });

  it('retries broken connections for idempotent methods only, never refused ones', () => {
    expect(isRetryableNetworkError('GET', 'ECONNRESET')).toBe(true);
    expect(isRetryableNetworkError('PUT', 'UND_ERR_SOCKET')).toBe(true);
    expect(isRetryableNetworkError('POST', 'ECONNRESET')).toBe(false);
    expect(isRetryableNetworkError('GET', 'ECONNREFUSED')).toBe(false);
    expect(isRetryableNetworkError('GET', 'UND_ERR_HEADERS_TIMEOUT')).toBe(false);
    expect(isRetryableNetworkError('GET', undefined)).toBe(false);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1500);
    expect(parseRetryAfter('Sun, 01 Mar 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    const policy = DEFAULT_RETRY_POLICY;
    expect(backoffDelay(1, policy, () => 0)).toBe(250);
    expect(backoffDelay(1, policy, () => 0.999999)).toBe(500);
    expect(backoffDelay(2, policy, () => 0)).toBe(500);
    expect(backoffDelay(3, policy, () => 0)).toBe(1000);
    expect(backoffDelay(20, policy, () => 0.999999)).toBe(policy.maxDelayMs);
  });

  it('prefers what the server asked for, capped at maxRetryAfterMs', () => {
    const policy = DEFAULT_RETRY_POLICY;
    expect(retryDelay(1, 503, { retryAfter: '2' }, policy, now, () => 0)).toBe(2000);
    expect(retryDelay(1, 429, { retryAfter: '600' }, policy, now, () => 0)).toBe(60_000);
    expect(retryDelay(1, 429, { rateLimitReset: String(now / 1000 + 4) }, policy, now, () => 0)).toBe(4000);
    expect(retryDelay(1, 503, { rateLimitReset: String(now / 1000 + 4) }, policy, now, () => 0)).toBe(250);
    expect(retryDelay(2, undefined, {}, policy, now, () => 0)).toBe(500);
  });
});
