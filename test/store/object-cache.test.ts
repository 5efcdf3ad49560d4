/**
 * The parsed-object cache (src/store/objects.ts): bounded by count and bytes, keeps what
 * is read again (a hit is marked, and eviction gives a marked entry a second chance), and
 * a hit costs the same whatever the cache holds.
 */
import { describe, expect, it, vi } from 'vitest';
import { ObjectCache } from '../../src/store/objects.js';

describe('ObjectCache', () => {
  it('never holds more than its count or its bytes', () => {
    const cache = new ObjectCache(100, 10_000);
    for (let i = 0; i < 1_000; i++) cache.set(`h${i}`, { i }, 50);
    let held = 0;
    for (let i = 0; i < 1_000; i++) if (cache.get(`h${i}`) !== undefined) held += 1;
    expect(held).toBe(100);
    const small = new ObjectCache(1_000, 1_000);
    for (let i = 0; i < 100; i++) small.set(`h${i}`, { i }, 100);
    let kept = 0;
    for (let i = 0; i < 100; i++) if (small.get(`h${i}`) !== undefined) kept += 1;
    expect(kept).toBe(10);
  });

  it('keeps an object read again while a stream of new objects passes through', () => {
    const cache = new ObjectCache(100, 1 << 20);
    cache.set('hot', { hot: true }, 10);
    for (let i = 0; i < 10_000; i++) {
      cache.set(`cold${i}`, { i }, 10);
      expect(cache.get('hot')).toEqual({ hot: true });
    }
    // The oldest cold ones went; the newest are there.
    expect(cache.get('cold0')).toBeUndefined();
    expect(cache.get('cold9999')).toEqual({ i: 9999 });
  });

  it('a hit on a full cache does not reorder it (the per-hit Map delete+set made served reads 10x slower)', () => {
    const cache = new ObjectCache(20_000, 1 << 30);
    for (let i = 0; i < 20_000; i++) cache.set(`h${i}`, { i }, 10);
    const order = () => [...(cache as unknown as { map: Map<string, unknown> }).map.keys()].slice(0, 3);
    const before = order();
    for (let round = 0; round < 3; round++) for (let i = 0; i < 20_000; i++) cache.get(`h${i}`);
    expect(order()).toEqual(before);
  });

  it('evicts without walking from the front of its map each time (V8 keeps deleted entries there: sets grew to ~50 µs)', () => {
    const cache = new ObjectCache(1_000, 1 << 30);
    const entries = vi.spyOn(Map.prototype, 'entries');
    try {
      for (let i = 0; i < 20_000; i++) {
        cache.set(`h${i}`, { i }, 10);
        if (i % 3 === 0) cache.get(`h${i - 500}`);
      }
      // One iterator a turn of the clock, not one an eviction (19,000 here).
      expect(entries.mock.calls.length).toBeLessThan(100);
    } finally {
      entries.mockRestore();
    }
    expect(cache.size).toBe(1_000);
    expect(cache.get('h19999')).toEqual({ i: 19999 });
    expect(cache.get('h0')).toBeUndefined();
  });
});
