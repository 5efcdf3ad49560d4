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
 * every chunk's code cache (the flags' hash, taken at start, differs). Set at run time it does
 * not (V8 hashed its flags at start): the flag is set for the moment it takes to fetch V8's `gc`
 * function from a fresh context, then unset, so that no context made later has a `gc` global;
 * chunks loaded later keep their caches (test/util/heap-relief.test.ts checks both).
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
export function relieveHeap(force = false): boolean {
  if (holding !== undefined) holdYoungGeneration();
  const used = heapUsed();
  if (used < FLOOR || (!force && used < Math.max(liveAfter * GROWTH, liveAfter + SLACK))) return false;
  const gc = collector();
  if (gc === null) return false;
  gc();
  liveAfter = heapUsed();
  return true;
}

// ─── The young generation ─────────────────────────────────────────────────────

/**
 * The size (both semi-spaces) the young generation does not grow past during work that asked
 * for it (`holdYoungGeneration`).
 *
 * Why: V8 doubles the young generation whenever much of it survives a scavenge, up to 32 MB
 * (two 16 MB semi-spaces), and a large import's text and rows survive a lot. Those 32 MB stay
 * committed to the end, beside the old generation: the 4,376-page server manual (49 MiB
 * project, bound 174 MiB) peaked at 178–204 MiB (median 192) growing to 32 MB, 156–189
 * (median 169) held at 16 MB, at the same import CPU (6 pairs). Not for every import: held
 * on the 31 MB reference guide (429 files) it cost ~10% more import CPU for no memory.
 */
const YOUNG_CAP = 16 * MB;
/** V8's own `--semi-space-growth-factor` (Node 20 to 24), given back when the work is over. */
const YOUNG_GROWTH = 2;
/** The hold ends once the work has not yielded (nor asked again) for this long. */
const RELEASE_MS = 1000;

/** Set while some work wants the young generation held: its release timer. */
let holding: NodeJS.Timeout | undefined;
/** The growth factor is set to 1 (the young generation reached YOUNG_CAP while held). */
let stopped = false;

/** A V8 flag set at run time; false where this runtime refuses it (the work goes on as is). */
function setFlag(flag: string): boolean {
  try {
    v8.setFlagsFromString(flag);
    return true;
  } catch {
    return false;
  }
}

/** Holds pinned (`pinYoungGeneration`) and not yet unpinned: the timer does not release while any is. */
let pins = 0;

function release(): void {
  if (pins > 0) {
    holding = setTimeout(release, RELEASE_MS).unref();
    return;
  }
  holding = undefined;
  if (stopped) stopped = !setFlag(`--semi-space-growth-factor=${YOUNG_GROWTH}`);
}

/**
 * For work large enough that its memory matters more than a few more scavenges (a Git import
 * of thousands of pages): the young generation stops growing once it reached YOUNG_CAP, until
 * the work has not yielded for RELEASE_MS (`serve` goes on with V8's own sizing afterwards).
 * V8 reads the growth factor at each growth, so it takes effect at once; a flag set at run
 * time leaves the code caches of chunks loaded later accepted.
 */
export function holdYoungGeneration(): void {
  if (holding === undefined) holding = setTimeout(release, RELEASE_MS).unref();
  else holding.refresh();
  stopYoungGrowth();
}

/**
 * Holds the young generation from before it is known whether the work is large: a Git import
 * holds it from the moment its request starts, whatever it turns out to be, until its tree's
 * listing says how many pages it has (`unpin(true)`: few, the hold ends now; `unpin(false)`:
 * many, it goes on as `holdYoungGeneration`'s).
 *
 * Why: V8 grows the young generation once as much as it holds has survived scavenges since its
 * last growth, counted from the process's start. In `serve`, whose start had filled most of that,
 * the bytes a request keeps before its listing is read (the converter's code, the fetch, the
 * listing itself) grew it 16 -> 32 MB in 3 of 5 runs before a hold begun after the listing
 * could stop it. The fetch may take longer than RELEASE_MS: a pinned hold does not lapse.
 */
export function pinYoungGeneration(): (releaseNow: boolean) => void {
  pins += 1;
  holdYoungGeneration();
  let pinned = true;
  return (releaseNow) => {
    if (!pinned) return;
    pinned = false;
    pins -= 1;
    if (releaseNow && pins === 0 && holding !== undefined) {
      clearTimeout(holding);
      release();
    }
  };
}

/**
 * While held: the growth stopped once the next one would pass YOUNG_CAP. Not only at the cap:
 * V8 shrinks an idle young generation (the CLI waiting for `git fetch`), and grown again from
 * there it passes sizes like 14 MB, which one more growth made 28.
 */
function stopYoungGrowth(): void {
  if (stopped) return;
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  if (young !== undefined && young.space_size * YOUNG_GROWTH > YOUNG_CAP) stopped = setFlag('--semi-space-growth-factor=1');
}
