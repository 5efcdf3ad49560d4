/**
 * The size check before lz-string decodes a GET render request (src/util/lz-string-bound.ts):
 * the same length lz-string decodes to for what lz-string encodes, a stop as soon as the
 * limit is passed (a 15 KB URL decodes to 30 million characters), and nothing for what is
 * not lz-string's format.
 */
import { randomBytes } from 'node:crypto';
import lz from 'lz-string';
import { describe, expect, it } from 'vitest';
import { lzUriDecompressedLength } from '../../src/util/lz-string-bound.js';
import { lzBomb, lzBombLength } from '../helpers/lz-bomb.js';

describe('the decompressed length of an lz-string URI component', () => {
  it('is the length lz-string decodes to, for text of every kind', () => {
    const texts = ['a', 'ab', JSON.stringify({ componentId: 'ticket', props: { id: 42 }, context: { type: 'document' } }), 'é€😀'.repeat(50), 'a'.repeat(100_000)];
    for (let i = 0; i < 200; i++) texts.push(randomBytes(1 + i * 13).toString('latin1'));
    for (const text of texts) {
      const compressed = lz.compressToEncodedURIComponent(text);
      expect(lzUriDecompressedLength(compressed, Number.MAX_SAFE_INTEGER)).toBe(text.length);
      expect(lz.decompressFromEncodedURIComponent(compressed)).toBe(text);
    }
  });

  it('stops at the limit: a 15 KB bomb of 30 million characters is refused without decoding it', () => {
    const bomb = lzBomb(7750);
    expect(bomb.length).toBeLessThan(16_000);
    expect(lzBombLength(7750)).toBeGreaterThan(30_000_000);
    expect(lzUriDecompressedLength(bomb, 1 << 20)).toBe(Infinity);
    expect(lzUriDecompressedLength(lzBomb(1000), Number.MAX_SAFE_INTEGER)).toBe(lzBombLength(1000));
    expect(lz.decompressFromEncodedURIComponent(lzBomb(1000))).toBe('a'.repeat(lzBombLength(1000)));
    expect(lzUriDecompressedLength(lzBomb(1000), lzBombLength(1000))).toBe(lzBombLength(1000));
    expect(lzUriDecompressedLength(lzBomb(1000), lzBombLength(1000) - 1)).toBe(Infinity);
  });

  it('gives nothing for what lz-string would not decode to text', () => {
    expect(lzUriDecompressedLength('', 100)).toBeUndefined();
    expect(lzUriDecompressedLength('x', 100)).toBeUndefined();
    // A stream that ends before its end marker.
    const cut = lz.compressToEncodedURIComponent('hello world');
    expect(lzUriDecompressedLength(cut.slice(0, 3), 100)).toBeUndefined();
    expect(lz.decompressFromEncodedURIComponent(cut.slice(0, 3))).toBeFalsy();
  });
});
