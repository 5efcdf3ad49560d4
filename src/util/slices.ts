/**
 * Long work in slices: a loop that may run for seconds (an import of thousands of pages,
 * a checkpoint's walk, a search index plan) lets the event loop go every few
 * milliseconds, so `serve` keeps answering other clients meanwhile.
 */

import { relieveHeap } from './heap-relief.js';

/** How long a slice runs before it lets the event loop go. */
export const SLICE_MS = 8;

/** Lets other work run once a slice begun at `started` is spent; returns the new slice's start. */
export async function yieldIfDue(started: number): Promise<number> {
  if (performance.now() - started < SLICE_MS) return started;
  // Long work is where garbage piles up: between slices is where a collection costs nobody a wait mid-step.
  relieveHeap();
  await new Promise<void>((resolve) => setImmediate(resolve));
  return performance.now();
}

/** Runs a generator of steps to its end at once (the synchronous form of `runInSlices`). */
export function runSteps<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/** Runs a generator of steps, letting the event loop go between steps once a slice is spent. */
export async function runInSlices<T>(steps: Generator<unknown, T>): Promise<T> {
  let slice = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    slice = await yieldIfDue(slice);
  }
}
