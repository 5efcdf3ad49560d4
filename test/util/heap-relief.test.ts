/**
 * Full collections asked for between the slices of long work (src/util/heap-relief.ts): they
 * happen only once garbage has piled up, they free it, and taking V8's `gc` leaves the
 * process's flags as they were, so the code caches of chunks loaded later are still accepted.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { relieveHeap } from '../../src/util/heap-relief.js';

const MB = 1024 * 1024;
const inUse = (): number => {
  const stats = v8.getHeapStatistics();
  return stats.used_heap_size + stats.external_memory;
};

/** About `mb` MB of strings in arrays and of buffers. */
function bulk(mb: number): unknown[] {
  const made: unknown[] = [];
  for (let i = 0; i < mb; i += 1) made.push(Array.from({ length: 8192 }, (_, j) => `row ${i}/${j} of garbage`), Buffer.alloc(512 * 1024, i));
  return made;
}

describe('relieveHeap', () => {
  it('collects once garbage piled up past what was live, and then not again until it piles up anew', () => {
    const holder: { held?: unknown[] } = { held: bulk(40) };
    const before = inUse();
    expect(before).toBeGreaterThan(40 * MB);
    expect(holder.held?.length).toBe(80);
    delete holder.held; // garbage now, and V8 has had no reason to collect it yet
    expect(relieveHeap()).toBe(true);
    expect(inUse()).toBeLessThan(before - 15 * MB);
    // Nothing new to collect: the next call is one statistics read, not a collection.
    expect(relieveHeap()).toBe(false);
  });

  it('leaves V8 flags as they were: a code cache made before is still accepted after', () => {
    const source = `(function () { return ${JSON.stringify('x'.repeat(100))}.length + ${Math.random()}; })`;
    const cachedData = new vm.Script(source, { filename: 'cached.js' }).createCachedData();
    bulk(40);
    relieveHeap();
    const again = new vm.Script(source, { filename: 'cached.js', cachedData });
    expect(again.cachedDataRejected).toBe(false);
  });
});
