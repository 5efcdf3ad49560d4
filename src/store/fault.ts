/**
 * Fault injection for the store's tests. Both hooks cost one variable check when
 * unused.
 *
 * - Crash points: `DOCSCTL_STORE_FAULT=crash@<step>` (optionally `crash@<step>#<k>`
 *   for the k-th time the step is reached, default 1) kills the process with
 *   SIGKILL at that step, so tests can prove every step lands on the old or the
 *   new state. Read once, when this module loads.
 * - I/O faults: `setFaultInjector(fn)` makes fs calls on the write path consult
 *   `fn(op, path, n)` first (n counts calls since the injector was set); it may
 *   return an Error to throw instead of doing the call, or `'short'` for a write
 *   to write only part of its bytes (as a full disk can).
 */

export const CRASH_STEPS = [
  'after-temp-open',
  'mid-pack-write',
  'after-pack-fsync',
  'before-dir-fsync',
  'after-commit-temp',
  'after-link',
  'before-lock-release',
  'mid-stale-takeover',
  'mid-gc',
  'mid-checkpoint',
  'mid-prune',
  'mid-repack',
  'mid-stage',
] as const;
export type CrashStep = (typeof CRASH_STEPS)[number];

export type FsOp =
  | 'open'
  | 'write'
  | 'fstat'
  | 'fsync'
  | 'close'
  | 'rename'
  | 'link'
  | 'mkdir'
  | 'stat'
  | 'unlink'
  | 'read'
  | 'fsyncdir'
  | 'readdir';

/** Returns an error to throw, `'short'` (writes only) to write part of the bytes, or undefined to proceed. */
export type FaultInjector = (op: FsOp, path: string, n: number) => Error | 'short' | undefined;

let crashStep: CrashStep | undefined;
let crashCountdown = 1;
{
  const spec = typeof process !== 'undefined' ? process.env.DOCSCTL_STORE_FAULT : undefined;
  const match = spec ? /^crash@([a-z-]+)(?:#(\d+))?$/.exec(spec.trim()) : null;
  if (match && (CRASH_STEPS as readonly string[]).includes(match[1] as string)) {
    crashStep = match[1] as CrashStep;
    crashCountdown = match[2] ? Math.max(1, Number(match[2])) : 1;
  }
}

/** Kills the process (SIGKILL, no cleanup) when `DOCSCTL_STORE_FAULT` names this step. */
export function crashPoint(step: CrashStep): void {
  if (crashStep === undefined || crashStep !== step) return;
  if (--crashCountdown > 0) return;
  process.kill(process.pid, 'SIGKILL');
}

/** True when the crash step is armed (used where a step needs special work, e.g. a half-written file). */
export function crashArmed(step: CrashStep): boolean {
  return crashStep === step && crashCountdown === 1;
}

let injector: FaultInjector | undefined;
let calls = 0;

/** Installs (or with undefined removes) the I/O fault injector; resets the call counter. */
export function setFaultInjector(fn: FaultInjector | undefined): void {
  injector = fn;
  calls = 0;
}

/** How many fs calls the injector has seen since it was set. */
export function faultCallCount(): number {
  return calls;
}

/** Consulted before each fs call on the write path. Throws the injected error, if any. */
export function fault(op: FsOp, path: string): 'short' | undefined {
  if (injector === undefined) return undefined;
  calls += 1;
  const outcome = injector(op, path, calls);
  if (outcome === undefined) return undefined;
  if (outcome === 'short') return op === 'write' ? 'short' : undefined;
  throw outcome;
}

/** An Error shaped like the one Node raises for a failed syscall (for injectors). */
export function errnoError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const errnos: Record<string, number> = { ENOSPC: -28, EIO: -5, EACCES: -13, EPERM: -1, EDQUOT: -122, EROFS: -30 };
  const error = new Error(`${code}: injected fault, ${syscall} '${path}'`) as NodeJS.ErrnoException;
  error.code = code;
  error.errno = errnos[code] ?? -1;
  error.syscall = syscall;
  error.path = path;
  return error;
}
