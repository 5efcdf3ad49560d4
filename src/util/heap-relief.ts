/**
 * Full garbage collections asked for during long work that makes much garbage (a Git import
 * of thousands of pages, its search index plan, a zip import), at the slice boundaries of
 * `yieldIfDue`.
 *
 * Why: after a full collection V8 lets the old generation grow to up to four times the data
 * still live before it collects again, when the program runs without pausing (V8's growing
 * factor follows the mutator's utilisation, and an import never idles). The 4,376-page server
 * manual's import had 35 MB live at one collection and reached 107 MB of heap before the next,
 * which found 28 MB live: 250 MiB peak RSS for a 49 MiB project (the bound is 174).
 *
 * Node gives no `gc()` without the `--expose-gc` flag, and a flag given at start makes V8 refuse
 * every chunk's code cache (its flags' hash differs). So the flag is set for the moment it takes
 * to fetch V8's `gc` function from a fresh context, then unset: the hash is the start's again,
 * and chunks loaded later keep their caches (test/util/heap-relief.test.ts checks both).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

const MB = 1024 * 1024;
/** Below this much memory in use (heap and buffers) nothing is asked: small work never pays a collection. */
const FLOOR = 24 * MB;
/** Collect once the heap in use is this many times what was live after the last collection… */
const GROWTH = 1.6;
/** …and at least this much above it (a collection of a 40 MB heap costs ~20 ms). */
const SLACK = 16 * MB;

type Collect = () => void;
let collect: Collect | null | undefined;
/** Heap in use after the last collection asked here (0: none yet). */
let liveAfter = 0;

/** V8's full collection, fetched once (null where the runtime does not allow it). */
function collector(): Collect | null {
  if (collect !== undefined) return collect;
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return (collect = exposed as Collect);
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    collect = typeof gc === 'function' ? (gc as Collect) : null;
  } catch {
    collect = null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
  return collect;
}

/**
 * Memory in use: the heap, and the bytes of buffers it holds (an ArrayBuffer's bytes are freed
 * only when its object is collected: an import's image buffers, promoted to the old
 * generation while on their way to the disk, held 25 MB of the C heap until the next full one).
 */
function heapUsed(): number {
  const stats = v8.getHeapStatistics();
  return stats.used_heap_size + stats.external_memory;
}

/**
 * Collects garbage when the heap in use has grown well past what was live after the last
 * collection asked here; true when it did. Cheap when it does not (one heap statistics call).
 */
export function relieveHeap(): boolean {
  const used = heapUsed();
  if (used < FLOOR || used < Math.max(liveAfter * GROWTH, liveAfter + SLACK)) return false;
  const gc = collector();
  if (gc === null) return false;
  gc();
  liveAfter = heapUsed();
  return true;
}
