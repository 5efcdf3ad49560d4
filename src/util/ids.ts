/**
 * Ids: short random url-safe strings, like the real API's (`7z3EpWKOTJbC8c9f2Xyz`).
 * A seeded generator makes tests deterministic.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export type IdGenerator = () => string;

/** Random ids of `length` characters (default 20, ~119 bits). */
export function randomIds(length = 20): IdGenerator {
  return () => {
    const bytes = randomBytes(length * 2);
    let out = '';
    // Rejection sampling keeps the distribution uniform over 62 characters.
    for (let i = 0; i < bytes.length && out.length < length; i++) {
      const byte = bytes[i] as number;
      if (byte < 248) out += ALPHABET[byte % 62];
    }
    while (out.length < length) out += ALPHABET[(randomBytes(1)[0] as number) % 62];
    return out;
  };
}

/** Deterministic ids for tests: `prefix` + a counter, padded. */
export function sequentialIds(prefix = 'id'): IdGenerator {
  let n = 0;
  return () => `${prefix}${String(++n).padStart(6, '0')}`;
}

/** A secret API token: `gb_api_` + 40 random url-safe characters. */
export function newToken(): string {
  return `gb_api_${randomIds(40)()}`;
}
