import { describe, expect, it } from 'vitest';
import { randomIds, timeOrderedIds } from '../../src/util/ids.js';

const SHAPE = /^[A-Za-z0-9]{20}$/;

describe('timeOrderedIds', () => {
  it('makes 20 url-safe characters, as the real API ids', () => {
    const ids = timeOrderedIds();
    for (let i = 0; i < 100; i++) expect(ids()).toMatch(SHAPE);
  });

  it('sorts ids by the time they were made, across every digit carry of the time part', () => {
    const times = [0, 1, 61, 62, 63, 3843, 3844, 238327, 238328, Date.parse('2026-11-27T00:00:00Z'), Date.parse('2026-11-27T00:00:00.001Z'), Date.parse('2999-01-01T00:00:00Z')];
    let at = 0;
    const ids = timeOrderedIds(() => times[at] as number);
    const made = times.map((_, i) => {
      at = i;
      return ids();
    });
    expect([...made].sort()).toEqual(made);
  });

  it('keeps ids made in the same millisecond distinct (12 random characters)', () => {
    const ids = timeOrderedIds(() => 1_700_000_000_000);
    const made = new Set(Array.from({ length: 10_000 }, () => ids()));
    expect(made.size).toBe(10_000);
    expect(new Set([...made].map((id) => id.slice(0, 8))).size).toBe(1);
  });

  it('puts a clock before 1970 at the start of the order instead of failing', () => {
    expect(timeOrderedIds(() => -5)().slice(0, 8)).toBe('00000000');
  });
});

describe('randomIds', () => {
  it('makes ids of the asked length over 62 characters', () => {
    expect(randomIds(12)()).toMatch(/^[A-Za-z0-9]{12}$/);
  });

  it('draws every character about equally often and never repeats an id across pool refills', () => {
    const ids = randomIds(40);
    const counts = new Map<string, number>();
    const made = new Set<string>();
    for (let i = 0; i < 5_000; i++) {
      const id = ids();
      made.add(id);
      for (const char of id) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(made.size).toBe(5_000);
    expect(counts.size).toBe(62);
    // 200,000 characters over 62: ~3,226 each; a modulo bias or a stuck pool would leave this band.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(2_900);
      expect(count).toBeLessThan(3_550);
    }
  });
});

