/**
 * Slices of long work (src/util/slices.ts): they let the event loop go once a slice is spent,
 * and only bulk work (imports, fresh search indexes, commits of thousands of rows) asks for a
 * full collection there. `serve`'s small commits must not: a forced collection is 30–60 ms of
 * a request's time for garbage V8 collects on its own.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const relief = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../src/util/heap-relief.js', () => ({
  relieveHeap: () => {
    relief.calls += 1;
    return true;
  },
}));

const { runInSlices, SLICE_MS, yieldIfDue } = await import('../../src/util/slices.js');

/** A step that spends more than a slice. */
function spendSlice(): void {
  const until = performance.now() + SLICE_MS + 1;
  while (performance.now() < until);
}

function* steps(count: number): Generator<void, string> {
  for (let i = 0; i < count; i += 1) {
    spendSlice();
    yield;
  }
  return 'done';
}

describe('yieldIfDue', () => {
  beforeEach(() => {
    relief.calls = 0;
  });

  it('returns the same slice start while the slice is not spent, and lets nothing run', async () => {
    const started = performance.now();
    expect(await yieldIfDue(started, true)).toBe(started);
    expect(relief.calls).toBe(0);
  });

  it('lets the event loop go once the slice is spent, and starts a new slice', async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    const started = performance.now() - SLICE_MS - 1;
    const next = await yieldIfDue(started);
    expect(ran).toBe(true);
    expect(next).toBeGreaterThan(started);
  });

  it('relieves the heap between the slices of bulk work only', async () => {
    await yieldIfDue(performance.now() - SLICE_MS - 1);
    expect(relief.calls).toBe(0);
    await yieldIfDue(performance.now() - SLICE_MS - 1, true);
    expect(relief.calls).toBe(1);
  });
});

describe('runInSlices', () => {
  beforeEach(() => {
    relief.calls = 0;
  });

  it('runs every step to the result, relieving the heap only for bulk work', async () => {
    expect(await runInSlices(steps(3))).toBe('done');
    expect(relief.calls).toBe(0);
    expect(await runInSlices(steps(3), true)).toBe('done');
    expect(relief.calls).toBeGreaterThanOrEqual(2);
  });
});
