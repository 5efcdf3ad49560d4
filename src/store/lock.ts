/**
 * The store's writer lock: `<dir>/LOCK`, for liveness only (safety comes from the
 * commit's link() compare-and-swap, so two holders can never lose an update).
 *
 * - Created complete: owner JSON `{pid, host, token, startedAt, command}` is written
 *   to a temp file (0600) that is then link()ed to LOCK (fails with EEXIST when held).
 * - While held, a heartbeat touches its mtime every second (unref'd timer).
 * - Stale when: same host and the pid is gone (taken over at once); same host, pid
 *   alive, but the mtime is older than 15 s and does not move for 2 s more (frozen
 *   holder or a reused pid); another host and the mtime is older than 15 s; or the
 *   file is unreadable and older than 2 s.
 * - Taken over by rename(LOCK, LOCK.stale-<random>) (one contender wins), checked
 *   (if a fresh lock was moved by mistake it is linked back) and unlinked.
 * - Waits with exponential backoff 5→200 ms plus jitter, up to a timeout (30 s,
 *   `DOCSCTL_LOCK_TIMEOUT_MS`), then StoreBusyError naming the holder.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { StoreBusyError, StoreError } from '../api/errors.js';
import { crashPoint } from './fault.js';
import { DIR_MODE, errnoCode, fsops, removeQuietly, tempPath, writeNewFile } from './objects.js';

export interface LockOwner {
  pid: number;
  host: string;
  token: string;
  startedAt: string;
  command?: string;
}

export interface LockHandle {
  readonly owner: LockOwner;
  /** Releases the lock (never throws). */
  release(): Promise<void>;
}

export const STALE_AFTER_MS = 15_000;
const HEARTBEAT_MS = 1_000;
const OBSERVE_MS = 2_000;
const GARBLED_STALE_MS = 2_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;

/** Tokens of locks this process holds (so a LOCK with our pid but another token is a leftover). */
const heldTokens = new Set<string>();

let cachedHost: string | undefined;
function host(): string {
  cachedHost ??= hostname();
  return cachedHost;
}

export function lockPath(dir: string): string {
  return path.join(dir, 'LOCK');
}

export function lockTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DOCSCTL_LOCK_TIMEOUT_MS;
  if (raw !== undefined && /^\d+$/.test(raw.trim())) return Number(raw.trim());
  return DEFAULT_LOCK_TIMEOUT_MS;
}

export interface LockState {
  owner: LockOwner | undefined;
  raw: string;
  mtimeMs: number;
}

function parseOwner(raw: string): LockOwner | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockOwner>;
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof value.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.token === 'string'
    ) {
      return {
        pid: value.pid,
        host: value.host,
        token: value.token,
        startedAt: typeof value.startedAt === 'string' ? value.startedAt : '',
        ...(typeof value.command === 'string' ? { command: value.command } : {}),
      };
    }
  } catch {
    // fall through
  }
  return undefined;
}

/** The current LOCK (owner and mtime), or undefined when the store is not locked. */
export function inspectLock(dir: string): LockState | undefined {
  const file = lockPath(dir);
  try {
    const raw = fs.readFileSync(file, 'utf8');
    const mtimeMs = fs.statSync(file).mtimeMs;
    return { owner: parseOwner(raw), raw, mtimeMs };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw new StoreError(`cannot read ${file} (${errnoCode(error) ?? String(error)})`, file, { cause: error });
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) !== 'ESRCH';
  }
}

/** Same host and the owning process is still running (unlock refuses such a lock without force). */
export function holderAlive(state: LockState): boolean {
  const owner = state.owner;
  if (!owner || owner.host !== host()) return false;
  if (owner.pid === process.pid) return heldTokens.has(owner.token);
  return pidAlive(owner.pid) && Date.now() - state.mtimeMs < STALE_AFTER_MS;
}

interface Suspect {
  raw: string;
  mtimeMs: number;
  since: number;
}

function isStale(state: LockState, suspect: { value?: Suspect }): boolean {
  const now = Date.now();
  const age = now - state.mtimeMs;
  const owner = state.owner;
  if (!owner) return age > GARBLED_STALE_MS;
  if (owner.host === host()) {
    if (owner.pid === process.pid) return !heldTokens.has(owner.token);
    if (!pidAlive(owner.pid)) return true;
    if (age <= STALE_AFTER_MS) {
      suspect.value = undefined;
      return false;
    }
    // Alive pid but no heartbeat: confirm the mtime stays still (a clock jump is corrected by the next beat).
    const seen = suspect.value;
    if (seen && seen.raw === state.raw && seen.mtimeMs === state.mtimeMs) return now - seen.since >= OBSERVE_MS;
    suspect.value = { raw: state.raw, mtimeMs: state.mtimeMs, since: now };
    return false;
  }
  return age > STALE_AFTER_MS;
}

/** Moves a lock judged stale out of the way. Returns whether the LOCK seen was removed. */
export async function breakLock(dir: string, seen: LockState): Promise<boolean> {
  const file = lockPath(dir);
  const aside = path.join(dir, `LOCK.stale-${randomBytes(6).toString('hex')}`);
  try {
    fsops.rename(file, aside);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
  crashPoint('mid-stale-takeover');
  let moved = '';
  try {
    moved = fs.readFileSync(aside, 'utf8');
  } catch {
    // unreadable: treat as what we saw
    moved = seen.raw;
  }
  if (moved !== seen.raw) {
    // Another contender replaced the stale lock between our look and our rename: give it back.
    try {
      fs.linkSync(aside, file);
    } catch {
      // someone created a new lock meanwhile: theirs stands
    }
    removeQuietly([aside]);
    return false;
  }
  removeQuietly([aside]);
  return true;
}

function clock(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'an unknown time';
  const now = new Date();
  const hms = date.toTimeString().slice(0, 8);
  return date.toDateString() === now.toDateString() ? hms : `${date.toISOString().slice(0, 10)} ${hms}`;
}

export function describeHolder(state: LockState): string {
  const owner = state.owner;
  if (!owner) return `${state.raw.length === 0 ? 'an empty' : 'an unreadable'} lock file`;
  const where = owner.host === host() ? '' : ` on host ${owner.host}`;
  const what = owner.command ? ` (${owner.command})` : '';
  return `pid ${owner.pid}${where}${what} since ${clock(owner.startedAt)}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Acquires the writer lock, waiting up to `timeoutMs`. */
export async function acquireLock(
  dir: string,
  options: { command?: string; timeoutMs?: number } = {},
): Promise<LockHandle> {
  const timeoutMs = options.timeoutMs ?? lockTimeoutFromEnv();
  const file = lockPath(dir);
  const owner: LockOwner = {
    pid: process.pid,
    host: host(),
    token: randomBytes(12).toString('hex'),
    startedAt: new Date().toISOString(),
    ...(options.command !== undefined ? { command: options.command } : {}),
  };
  const bytes = Buffer.from(JSON.stringify(owner));
  const deadline = Date.now() + timeoutMs;
  const suspect: { value?: Suspect } = {};
  let temp: string | undefined;
  let delay = 5;
  try {
    for (;;) {
      const state = inspectLock(dir);
      if (state === undefined) {
        if (temp === undefined) {
          const candidate = tempPath(dir, 'lock');
          temp = candidate; // removed in finally, even when writing it fails
          try {
            await writeNewFile(candidate, bytes, { sync: false });
          } catch (error) {
            if (errnoCode(error) !== 'ENOENT') throw error;
            // tmp/ missing (removed by hand): recreate it once.
            try {
              fs.mkdirSync(path.dirname(candidate), { mode: DIR_MODE });
            } catch {
              // raced or impossible: the retry reports it
            }
            await writeNewFile(candidate, bytes, { sync: false });
          }
        }
        try {
          fsops.link(temp, file);
          heldTokens.add(owner.token);
          return startHolding(dir, owner);
        } catch (error) {
          if (errnoCode(error) !== 'EEXIST') throw error;
          continue; // someone was faster; look at their lock
        }
      }
      if (isStale(state, suspect)) {
        await breakLock(dir, state);
        continue;
      }
      if (Date.now() >= deadline) {
        throw new StoreBusyError(`store busy: locked by ${describeHolder(state)}`, {
          hint: 'if that process is gone, run "docsctl store unlock"',
        });
      }
      await sleep(Math.min(delay * (0.5 + Math.random()), Math.max(1, deadline - Date.now())));
      delay = Math.min(delay * 2, 200);
    }
  } finally {
    if (temp !== undefined) removeQuietly([temp]);
  }
}

function startHolding(dir: string, owner: LockOwner): LockHandle {
  const file = lockPath(dir);
  const timer = setInterval(() => {
    const now = new Date();
    fsp.utimes(file, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref();
  let released = false;
  return {
    owner,
    async release(): Promise<void> {
      if (released) return;
      released = true;
      clearInterval(timer);
      heldTokens.delete(owner.token);
      try {
        const current = parseOwner(fs.readFileSync(file, 'utf8'));
        if (current?.token !== owner.token) return; // taken over: not ours to remove
      } catch {
        return;
      }
      try {
        fsops.unlink(file);
      } catch {
        // one more try without fault hooks; a leftover LOCK of a live pid is recognised as ours later
        removeQuietly([file]);
      }
    },
  };
}

/** Removes the LOCK whatever its state (for `docsctl store unlock`). */
export async function forceUnlock(dir: string): Promise<{ removed: boolean; owner?: LockOwner }> {
  const state = inspectLock(dir);
  if (!state) return { removed: false };
  const removed = await breakLock(dir, state);
  return { removed, ...(state.owner ? { owner: state.owner } : {}) };
}
