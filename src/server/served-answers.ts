/**
 * The bytes of served GET answers, kept for the store's generation: a request that asks
 * again, with the same `Authorization` header and URL, while nothing was committed gets
 * the same status, headers and body without routing, token lookup, access check, handler
 * or serialization (a repeated `GET /v1/spaces/{id}` was ~25 µs of JavaScript; the bare
 * send is what is left).
 *
 * Only answers that depend on nothing else are kept (`OperationResult.generational`: a
 * synchronous read that asked neither the clock nor for ids, of a user's token, not an
 * integration installation's nor a published content token's: those expire, and an expired one
 * must not be answered from kept bytes), only 200s (an error is computed each time), only when the
 * request had no body. The header holding the token is part of the key, and an entry was
 * made only for a valid token: the same generation means the same tokens, users, grants
 * and rows, hence the same answer. The first request reading a newer generation drops
 * every entry. Bounded in entries and bytes (oldest out first), so a client asking many
 * distinct URLs costs memory up to the bound, and others a recomputation.
 */
import type { OutgoingHttpHeaders } from 'node:http';

export interface ServedAnswer {
  readonly status: number;
  /** `[name, value, name, value…]`, for one `res.writeHead(status, headers)`. */
  readonly headers: string[];
  readonly body: Buffer;
}

/** Answers above this size are sent, not kept (a site tree of 40,000 pages is ~4 MB: kept by the domain's own cache). */
const LARGEST_KEPT = 256 * 1024;

export class ServedAnswers {
  private gen = -1;
  private readonly kept = new Map<string, KeptAnswer>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 4096,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** The answer kept for `authorization` + `url` at generation `gen`. */
  get(gen: number, authorization: string, url: string): ServedAnswer | undefined {
    if (gen !== this.gen) {
      if (gen > this.gen) this.reset(gen);
      return undefined;
    }
    return this.kept.get(keyOf(authorization, url))?.answer;
  }

  /**
   * The answer to send, as it is kept: status, headers (names in lower case) and the body's
   * bytes; kept when computed at the newest generation seen and small enough.
   */
  keep(gen: number, authorization: string, url: string, status: number, headers: OutgoingHttpHeaders, json: string): ServedAnswer {
    const body = Buffer.from(json);
    const list: string[] = [];
    for (const name in headers) list.push(name, String(headers[name]));
    list.push('content-type', JSON_TYPE, 'content-length', String(body.length));
    const answer: ServedAnswer = { status, headers: list, body };
    if (gen > this.gen) this.reset(gen);
    if (gen < this.gen || body.length > LARGEST_KEPT) return answer;
    const key = keyOf(authorization, url);
    const cost = costOf(key, answer);
    const before = this.kept.get(key);
    if (before !== undefined) {
      this.kept.delete(key);
      this.bytes -= before.cost;
    }
    for (const [oldKey, old] of this.kept) {
      if (this.kept.size < this.maxEntries && this.bytes + cost <= this.maxBytes) break;
      this.kept.delete(oldKey);
      this.bytes -= old.cost;
    }
    this.kept.set(key, { answer, cost });
    this.bytes += cost;
    return answer;
  }

  private reset(gen: number): void {
    this.gen = gen;
    this.kept.clear();
    this.bytes = 0;
  }
}

interface KeptAnswer {
  readonly answer: ServedAnswer;
  /** What the entry holds in bytes: the body, and the key and headers too (a token and URL may be 16 KB each). */
  readonly cost: number;
}

/** Strings counted at two bytes a character: V8 may keep them two-byte, and the bound must hold either way. */
function costOf(key: string, answer: ServedAnswer): number {
  let chars = key.length;
  for (const part of answer.headers) chars += part.length;
  return answer.body.length + 2 * chars;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A header value holds no line break (node refuses them), so the newline separates the two unambiguously. */
const keyOf = (authorization: string, url: string) => `${authorization}\n${url}`;
