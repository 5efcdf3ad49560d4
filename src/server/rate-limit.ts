/**
 * `serve --rate-limit N/s`: a fixed-window limit per client, for testing clients'
 * retry logic against the emulator. Answers carry GitBook's documented headers
 * (`X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` in UTC epoch
 * seconds); beyond the limit the server answers 429 with `Retry-After`.
 */
import { ApiError, UsageError } from '../api/errors.js';

export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

const UNITS: Record<string, number> = { s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/** `10/s`, `60/min`, `1000/h` → a RateLimit; anything else is a usage error naming the format. */
export function parseRateLimit(text: string): RateLimit {
  const match = /^\s*(\d{1,9})\s*\/\s*(s|sec|m|min|h)\s*$/i.exec(text);
  const limit = match ? Number(match[1]) : 0;
  if (!match || limit < 1) {
    throw new UsageError(`--rate-limit expects N/s, N/min or N/h with N ≥ 1 (e.g. 10/s), got "${text}"`);
  }
  return { limit, windowMs: UNITS[(match[2] as string).toLowerCase()] as number };
}

/** A 429 that knows when to come back. */
export class RateLimited extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

interface Window {
  start: number;
  count: number;
}

const MAX_CLIENTS = 10_000;

export class RateLimiter {
  private readonly clients = new Map<string, Window>();

  constructor(
    private readonly rule: RateLimit,
    private readonly now: () => number,
  ) {}

  describe(): string {
    const unit = Object.entries(UNITS).find(([, ms]) => ms === this.rule.windowMs)?.[0] ?? `${this.rule.windowMs} ms`;
    return `${this.rule.limit}/${unit}`;
  }

  /**
   * Counts one request of `client`: the headers to send, and a RateLimited error to
   * throw when it is over the limit.
   */
  take(client: string): { headers: Record<string, string>; refusal?: RateLimited } {
    const now = this.now();
    const start = now - (now % this.rule.windowMs);
    let window = this.clients.get(client);
    if (window === undefined || window.start !== start) {
      if (window === undefined && this.clients.size >= MAX_CLIENTS) this.forgetOldWindows(start);
      window = { start, count: 0 };
      this.clients.set(client, window);
    }
    window.count += 1;
    const resetMs = start + this.rule.windowMs;
    const headers = {
      'x-ratelimit-limit': String(this.rule.limit),
      'x-ratelimit-remaining': String(Math.max(0, this.rule.limit - window.count)),
      'x-ratelimit-reset': String(Math.ceil(resetMs / 1000)),
    };
    if (window.count <= this.rule.limit) return { headers };
    const retryAfter = Math.max(1, Math.ceil((resetMs - now) / 1000));
    return {
      headers,
      refusal: new RateLimited(`Rate limit of ${this.describe()} exceeded: retry after ${retryAfter} s`, retryAfter),
    };
  }

  private forgetOldWindows(current: number): void {
    for (const [client, window] of this.clients) if (window.start !== current) this.clients.delete(client);
    if (this.clients.size >= MAX_CLIENTS) this.clients.clear();
  }
}
