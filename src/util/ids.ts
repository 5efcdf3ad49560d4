/**
 * Ids: short random url-safe strings, like the real API's (`7z3EpWKOTJbC8c9f2Xyz`).
 * A seeded generator makes tests deterministic.
 */
import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export type IdGenerator = () => string;

/**
 * Random bytes drawn from one pool refilled 4 KiB at a time, as nanoid does: a
 * `randomBytes` call per id cost ~13 µs (a quarter of a space create's id and revision
 * work under serve); the bytes are the same CSPRNG's, each handed out once.
 */
const POOL = Buffer.alloc(4096);
let poolAt = POOL.length;

function randomByte(): number {
  if (poolAt === POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  return POOL[poolAt++] as number;
}

/** Random ids of `length` characters (default 20, ~119 bits). */
export function randomIds(length = 20): IdGenerator {
  return () => {
    let out = '';
    // Rejection sampling keeps the distribution uniform over 62 characters.
    while (out.length < length) {
      const byte = randomByte();
      if (byte < 248) out += ALPHABET[byte % 62];
    }
    return out;
  };
}

/** The time part's digits, in ASCII order so that ids sort by creation time. */
const SORTED_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Ids that sort by creation time: 8 characters of milliseconds since 1970 in base 62
 * (ordered digits, good until the year 8888), then 12 random characters (~71 bits), 20 in
 * all, as Firebase push ids (GitBook's own older ids) are built. Rows keyed by id then
 * land next to the newest rows: a create writes the same few B+tree leaves however many
 * rows a table holds, where a uniformly random id dirties a different leaf of every
 * table each time (4 per space create at 3,000 spaces, each written again at checkpoint).
 */
export function timeOrderedIds(now: () => number = Date.now): IdGenerator {
  const random = randomIds(12);
  return () => {
    let time = Math.max(0, Math.floor(now()));
    let prefix = '';
    for (let i = 0; i < 8; i++) {
      prefix = SORTED_DIGITS[time % 62] + prefix;
      time = Math.floor(time / 62);
    }
    return prefix + random();
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
