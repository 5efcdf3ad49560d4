/**
 * How long lz-string's `decompressFromEncodedURIComponent(input)` would be, without
 * building it, stopping as soon as it passes `limit`.
 *
 * Why: lz-string grows each dictionary entry by one character per code, so its output
 * grows with the square of its input: a 15 KB URL (within a request's header limit)
 * decompresses to 30 million characters (~200 MB, 50 ms). lz-string has no bound of its
 * own, so the GET form of the integration render checks the length first and lets
 * lz-string decode only what fits. This walks the same bit stream as lz-string 1.5's
 * `_decompress`, keeping each dictionary entry's length instead of its text.
 */
const URI_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
const VALUES = new Map([...URI_ALPHABET].map((char, value) => [char, value]));

/**
 * The decompressed length; `Infinity` once it passes `limit`; undefined when lz-string
 * would give nothing or fail on it (not its format).
 */
export function lzUriDecompressedLength(compressed: string, limit: number): number | undefined {
  const input = compressed.replace(/ /g, '+');
  const length = input.length;
  if (length === 0) return undefined;
  // Bits come from 6-bit values, highest first (lz-string's resetValue 32), lowest bit of a code first.
  let value = VALUES.get(input.charAt(0)) ?? 0;
  let position = 32;
  let index = 1;
  const read = (count: number): number => {
    let bits = 0;
    for (let n = 0, power = 1; n < count; n += 1, power *= 2) {
      const bit = value & position;
      position >>= 1;
      if (position === 0) {
        position = 32;
        value = VALUES.get(input.charAt(index)) ?? 0;
        index += 1;
      }
      if (bit > 0) bits += power;
    }
    return bits;
  };
  // Codes 0–2 are markers (a new 8-bit or 16-bit character, the end); entries' lengths from 3 on.
  const entries: number[] = [0, 0, 0];
  let enlargeIn = 4;
  let numBits = 3;
  const first = read(2);
  if (first > 1) return undefined; // 2: empty; 3: lz-string fails on what follows
  read(first === 0 ? 8 : 16);
  entries.push(1);
  let previous = 1;
  let total = 1;
  for (;;) {
    if (index > length) return undefined;
    let code = read(numBits);
    if (code === 2) return total;
    if (code === 0 || code === 1) {
      read(code === 0 ? 8 : 16);
      entries.push(1);
      code = entries.length - 1;
      enlargeIn -= 1;
    }
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits += 1;
    }
    let entry: number;
    if (code >= 3 && code < entries.length) entry = entries[code] as number;
    else if (code === entries.length) entry = previous + 1;
    else return undefined;
    total += entry;
    if (total > limit) return Infinity;
    entries.push(previous + 1);
    enlargeIn -= 1;
    previous = entry;
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits += 1;
    }
  }
}
