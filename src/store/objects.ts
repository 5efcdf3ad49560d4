/**
 * Objects: immutable JSON values named by the sha256 of their bytes, verified on
 * every read. They live in packs (pack-file.ts, and the inline packs of commit
 * files); stores written before packs also have loose files,
 * `objects/ab/<sha256>.json`, which are read until the first repack folds them
 * into a pack. Parsed objects stay in a bounded LRU (`ObjectCache`).
 */
import { isAscii } from 'node:buffer';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errnoCode } from './durable.js';
import { StoreError } from './errors.js';
import { fault } from './fault.js';

export const HASH_RE = /^[0-9a-f]{64}$/;

export const DAMAGE_HINT =
  'run "docsctl store fsck" to list the damage and "docsctl store recover" to return to the last good state';

/**
 * `crypto.hash` (Node ≥ 20.12): one call, no Hash object. Every object read is verified and
 * every object written named by its sha256, thousands per whole-space read or group commit;
 * a `createHash(…).update(…).digest()` costs about twice as much for objects of ~1 KiB.
 */
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : undefined;

/** The hex digest of `data` by `algorithm` (one-shot where Node has it). */
export function digestHex(algorithm: 'sha256' | 'sha1', data: string | Uint8Array): string {
  return oneShot ? oneShot(algorithm, data, 'hex') : crypto.createHash(algorithm).update(data).digest('hex');
}

export function sha256(data: string | Uint8Array): string {
  return digestHex('sha256', data);
}

/** Canonical text of a JSON value (no whitespace). Throws TypeError for values JSON cannot hold. */
export function encodeJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`cannot store ${typeof value} in the store (not a JSON value)`);
  return text;
}

/**
 * The hash list of a hash-trie leaf that keeps its values' hashes apart (`{"a": […],
 * "h": "<hash><hash>…"}`, hamt.ts), or undefined for any other value. Its 64-character
 * slices name objects like 64-hex strings do: the walks and fsck must see them.
 */
function hashListOf(item: object): string | undefined {
  const h = (item as { h?: unknown }).h;
  if (typeof h !== 'string' || h.length === 0 || h.length % 64 !== 0 || !Array.isArray((item as { a?: unknown }).a)) return undefined;
  return Object.keys(item).length === 2 ? h : undefined;
}

/** Every 64-hex string in a JSON value (the objects it may name), and every hash of a trie leaf's hash list, in the order the text has them (reachable.ts lays packs out in it). */
export function collectHashes(value: unknown, out: string[]): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.length === 64 && HASH_RE.test(item)) out.push(item);
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i -= 1) stack.push(item[i]);
    } else if (typeof item === 'object' && item !== null) {
      const list = hashListOf(item);
      if (list !== undefined) {
        for (let at = 0; at < list.length; at += 64) {
          const hash = list.slice(at, at + 64);
          if (HASH_RE.test(hash)) out.push(hash);
        }
        stack.push((item as { a: unknown }).a);
        continue;
      }
      const keys = Object.keys(item);
      for (let i = keys.length - 1; i >= 0; i -= 1) stack.push((item as Record<string, unknown>)[keys[i] as string]);
    }
  }
}

/**
 * Whether a JSON value holds a 64-hex string anywhere (so may name other objects). Packs
 * record it per object, so the walks that look for what a state reaches never read the
 * objects that name nothing: page bodies and file data, most of an import's bytes.
 * Only strings of exactly 64 characters are tested, so a long text costs nothing.
 */
export function namesHashes(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.length === 64 && HASH_RE.test(item)) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (typeof item === 'object' && item !== null) {
      const list = hashListOf(item);
      if (list !== undefined && HASH_RE.test(list.slice(0, 64))) return true;
      for (const key of Object.keys(item)) stack.push((item as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/** Where a loose object file (stores written before packs) would be. */
export function objectPath(dir: string, hash: string): string {
  return path.join(dir, 'objects', hash.slice(0, 2), `${hash}.json`);
}

/** An object that is neither in a pack nor a loose file (damage, when the store names it). */
export class MissingObjectError extends StoreError {}

/** The error for an object that is neither in a pack nor a loose file. */
export function missingObject(dir: string, hash: string, cause?: unknown): StoreError {
  const file = objectPath(dir, hash);
  return new MissingObjectError(`store damaged: object ${file} is missing`, file, { hint: DAMAGE_HINT, ...(cause ? { cause } : {}) });
}

/**
 * The text of stored bytes. ASCII (nearly every object) is decoded as Latin-1, the same
 * characters: a copy, where V8's UTF-8 decoder goes byte by byte (6 MB of a whole site's
 * tries: ~8 ms against ~1 ms with the check).
 */
export function storedText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * Parses an object's verified bytes. Throws StoreError naming `file` when they are not JSON
 * (a function: the name is built only then; a path.join per object read was 3% of reading a
 * whole site's pages).
 */
export function parseObject(bytes: Buffer, file: string | (() => string)): unknown {
  try {
    return JSON.parse(storedText(bytes)) as unknown;
  } catch (error) {
    const name = typeof file === 'string' ? file : file();
    throw new StoreError(`store damaged: ${name} is not valid JSON`, name, { hint: DAMAGE_HINT, cause: error });
  }
}

/** Throws StoreError naming `file` when `bytes` are not the object `hash`. */
export function verifyObject(bytes: Buffer, hash: string, file: string, where = file): void {
  const actual = sha256(bytes);
  if (actual !== hash) {
    throw new StoreError(
      `store damaged: ${where} does not match its hash (${bytes.length} bytes, content sha256 ${actual.slice(0, 12)}…)`,
      file,
      { hint: DAMAGE_HINT },
    );
  }
}

/**
 * The verified bytes of a loose object file, or undefined when there is no such file.
 * Throws StoreError naming the file when it is damaged or unreadable.
 */
export function readLooseBytes(dir: string, hash: string): Buffer | undefined {
  const file = objectPath(dir, hash);
  let bytes: Buffer;
  try {
    fault('read', file);
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new StoreError(`cannot read ${file} (${code ?? String(error)})`, file, { hint: DAMAGE_HINT, cause: error });
  }
  verifyObject(bytes, hash, file);
  return bytes;
}

/**
 * A cache of parsed immutable objects, capped by count and by bytes, evicting about the
 * least recently used (CLOCK, second chance): a hit only marks its entry; eviction takes
 * the oldest entry, and one marked since it was last passed goes to the back unmarked
 * instead. A Map delete+set per hit (the exact LRU this replaces, done on every hit once the
 * cache was half full) made a served GET ~10× slower after a few thousand writes.
 */
export class ObjectCache {
  private map = new Map<string, { value: unknown; size: number; used: boolean }>();
  private bytes = 0;
  /**
   * The clock's hand: one live iterator over the map, kept between evictions. Taking the
   * oldest entry with a new `map.entries().next()` each time walked past every entry
   * deleted since the map last compacted (V8 leaves holes at the front of a Map used as a
   * queue): a set on a full cache grew to ~50 µs after 200,000 sets, ~15% of a create
   * through `serve`. Entries set again land behind the hand, as a clock's should.
   */
  private hand: IterableIterator<[string, { value: unknown; size: number; used: boolean }]> | undefined;
  constructor(
    private readonly maxEntries = 20_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}
  get(hash: string): unknown {
    const hit = this.map.get(hash);
    if (hit === undefined) return undefined;
    hit.used = true;
    return hit.value;
  }
  set(hash: string, value: unknown, size: number): void {
    if (size > this.maxBytes / 8 || this.maxEntries <= 0) return;
    const old = this.map.get(hash);
    if (old) {
      this.bytes -= old.size;
      this.map.delete(hash);
    }
    this.map.set(hash, { value, size, used: false });
    this.bytes += size;
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const first = this.oldest();
      if (first === undefined) break;
      const [key, entry] = first;
      this.map.delete(key);
      if (entry.used && key !== hash) {
        entry.used = false;
        this.map.set(key, entry); // a second chance, at the back
      } else {
        this.bytes -= entry.size;
      }
    }
  }
  /** The entry under the clock's hand (undefined when the map is empty); the hand moves past it. */
  private oldest(): [string, { value: unknown; size: number; used: boolean }] | undefined {
    for (let turn = 0; turn < 2; turn += 1) {
      this.hand ??= this.map.entries();
      const next = this.hand.next();
      if (!next.done) return next.value;
      this.hand = undefined; // went round: start again from the oldest
    }
    return undefined;
  }
  clear(): void {
    this.map.clear();
    this.hand = undefined;
    this.bytes = 0;
  }
  get size(): number {
    return this.map.size;
  }
}
