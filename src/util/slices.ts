/**
 * Long work in slices: a loop that may run for seconds (an import of thousands of pages,
 * a checkpoint's walk, a search index plan) lets the event loop go every few
 * milliseconds, so `serve` keeps answering other clients meanwhile.
 */

import { relieveHeap } from './heap-relief.js';

/** How long a slice runs before it lets the event loop go. */
export const SLICE_MS = 8;

/** Work over this many items (pages, rows, objects) is `bulk` (see `yieldIfDue`). */
export const BULK_ITEMS = 512;

/**
 * Lets other work run once a slice begun at `started` is spent; returns the new slice's start.
 * `bulk` work (an import's conversion, a fresh search index, a commit of thousands of rows)
 * makes garbage faster than V8 collects it, so its slice boundaries also relieve the heap:
 * a collection there costs nobody a wait mid-step. Small work (`serve`'s commits of a few
 * rows, whose slice overran only because the machine is busy) leaves collection to V8: a
 * forced full collection would cost a request 30–60 ms for memory V8 reclaims anyway.
 */
export async function yieldIfDue(started: number, bulk = false): Promise<number> {
  if (performance.now() - started < SLICE_MS) return started;
  if (bulk) relieveHeap();
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

/** Runs a generator of steps, letting the event loop go between steps once a slice is spent (`bulk`: see `yieldIfDue`). */
export async function runInSlices<T>(steps: Generator<unknown, T>, bulk = false): Promise<T> {
  let slice = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    slice = await yieldIfDue(slice, bulk);
  }
}
