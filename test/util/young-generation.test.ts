/**
 * The young generation held at 16 MB by work that asks (src/util/heap-relief.ts
 * holdYoungGeneration: a Git import of thousands of pages) while it yields: V8 would double it
 * to 32 MB under an import's surviving text and rows, and keep those 32 MB committed to the end
 * (the server-shaped import's peak RSS went over its bound by about that much). Once the work
 * stops yielding, it grows again (`serve` keeps V8's own sizing between imports), and work
 * that did not ask is never held (a small import would pay scavenges for nothing).
 *
 * Its own file: the flag is the process's, and the young generation only grows (this file's
 * process must reach the cap from below, not arrive with 32 MB).
 */
import v8 from 'node:v8';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { holdYoungGeneration, relieveHeap } from '../../src/util/heap-relief.js';

const MB = 1024 * 1024;
const young = (): number => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/** Work whose young objects survive scavenges (what makes V8 grow the young generation), yielding as long work does or not. */
function survivingWork(rounds: number, yielding: boolean): number {
  let largest = young();
  const kept: unknown[][] = [];
  for (let round = 0; round < rounds; round += 1) {
    kept.push(Array.from({ length: 20_000 }, (_, i) => ({ text: `row ${round}/${i}`, at: [round, i] })));
    if (kept.length > 30) kept.shift();
    if (yielding) relieveHeap(); // a slice boundary (slices.ts yieldIfDue)
    largest = Math.max(largest, young());
  }
  return largest;
}

describe('the young generation during long work', () => {
  afterAll(() => {
    vi.useRealTimers();
  });

  it('stops growing at 16 MB while held work yields, and grows again once it stopped', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(young()).toBeLessThan(32 * MB); // V8's largest: else nothing here could tell
    holdYoungGeneration();
    const held = survivingWork(150, true);
    expect(held).toBeGreaterThan(8 * MB); // it grew…
    expect(held).toBeLessThanOrEqual(16 * MB); // …up to the cap
    vi.advanceTimersByTime(1000); // no slice for a second: V8's growth is given back
    expect(survivingWork(150, true)).toBe(32 * MB); // yielding without a hold holds nothing
  });
});
