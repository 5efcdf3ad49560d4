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
 * - Waits its turn in a FIFO queue of tickets (`waiters/`, below), polling every few
 *   ms, up to a timeout (30 s, `DOCSCTL_LOCK_TIMEOUT_MS`), then StoreBusyError naming the holder.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { StoreBusyError, StoreError } from './errors.js';
import { crashPoint } from './fault.js';
import { DIR_MODE, errnoCode, fsops, removeQuietly, tempPath, writeNewFile } from './durable.js';

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
  let moved: string;
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

// ─── The queue of waiting writers ────────────────────────────────────────────
//
// A writer that finds the lock taken queues up: it creates `waiters/<ticket>`
// (time-ordered name, owner JSON, 0600, heartbeat like the lock) and takes the lock
// only when no older live ticket exists. A holder with more work checks
// `WaitersCheck` after each commit and releases instead of keeping the lock, so a
// process that keeps writing (serve under load) cannot starve another.

export function waitersDir(dir: string): string {
  return path.join(dir, 'waiters');
}

const TICKET_RE = /^\d{15}-\d+-\d+\.ticket$/;
let ticketCounter = 0;

/**
 * How long a queued writer may be overtaken. A writer with no ticket (or the holder,
 * with more work) may take the lock while every queued ticket is younger than this:
 * handing the lock over on every commit would make a busy store pay a context switch
 * per commit on a loaded machine. Older tickets go strictly first, oldest first.
 */
export const BARGE_MS = 200;

const ticketAge = (name: string) => Date.now() - Number(name.slice(0, 15));

/**
 * Whether some process has waited for the lock BARGE_MS or more (the holder should let it
 * go first). The holder asks after every commit (`serve` under load: hundreds a second),
 * and the answer can only turn true once a ticket reaches BARGE_MS, so after a look
 * at `waiters/` the next look waits until the first ticket seen comes due, at most
 * BARGE_MS - TICKET_SLACK_MS (a ticket queued meanwhile comes due BARGE_MS after its
 * name, which may predate our look by a few ms). The commits in between make no
 * syscall for it; a waiting writer is let in as soon as before.
 */
export class WaitersCheck {
  private nextLook = 0;

  constructor(private readonly dir: string) {}

  due(now = Date.now()): boolean {
    if (now < this.nextLook) return false;
    let names: string[];
    try {
      names = fs.readdirSync(waitersDir(this.dir));
    } catch {
      names = []; // no waiters/ yet: nobody ever queued
    }
    let next = now + BARGE_MS - TICKET_SLACK_MS;
    for (const name of names) {
      if (!TICKET_RE.test(name)) continue;
      const dueAt = Number(name.slice(0, 15)) + BARGE_MS;
      if (dueAt <= now) return true;
      next = Math.min(next, dueAt);
    }
    this.nextLook = next;
    return false;
  }
}

/** How much older than our look at `waiters/` a ticket created after it may be named (see WaitersCheck). */
const TICKET_SLACK_MS = 50;

/** Queues this process: creates its ticket file (and waiters/ when missing). */
async function takeTicket(dir: string, bytes: Buffer): Promise<string> {
  ticketCounter += 1;
  const name = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${ticketCounter}.ticket`;
  const file = path.join(waitersDir(dir), name);
  try {
    await writeNewFile(file, bytes, { sync: false });
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
    try {
      fs.mkdirSync(waitersDir(dir), { mode: DIR_MODE });
    } catch {
      // raced with another waiter, or impossible: the retry reports it
    }
    await writeNewFile(file, bytes, { sync: false });
  }
  return name;
}

/** A ticket whose owner is gone (dead pid on this host) or silent (no heartbeat for STALE_AFTER_MS). */
function ticketStale(file: string): boolean {
  try {
    const owner = parseOwner(fs.readFileSync(file, 'utf8'));
    const age = Date.now() - fs.statSync(file).mtimeMs;
    if (owner && owner.host === host() && owner.pid !== process.pid && !pidAlive(owner.pid)) return true;
    return age > STALE_AFTER_MS || (!owner && age > GARBLED_STALE_MS);
  } catch {
    return false; // vanished (its owner took the lock) or unreadable for now
  }
}

/**
 * True when a live ticket goes before us: one older than `mine`, or, when we have
 * none, one that has waited BARGE_MS or more. Removes stale tickets on the way.
 */
function queuedAhead(dir: string, mine: string | undefined): boolean {
  let names: string[];
  try {
    names = fs.readdirSync(waitersDir(dir)).filter((name) => TICKET_RE.test(name)).sort();
  } catch {
    return false;
  }
  for (const name of names) {
    if (mine !== undefined && name >= mine) return false;
    if (mine === undefined && ticketAge(name) < BARGE_MS) return false;
    const file = path.join(waitersDir(dir), name);
    if (!ticketStale(file)) return true;
    removeQuietly([file]);
  }
  return false;
}

/** Acquires the writer lock, waiting its turn (FIFO among processes) up to `timeoutMs`. */
// eslint-disable-next-line max-lines-per-function -- the wait loop: ticket, heartbeat, takeover and deadline are the locals of one loop
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
  let ticket: string | undefined;
  let beat: NodeJS.Timeout | undefined;
  let delay = 2;
  const queue = async () => {
    if (ticket !== undefined) return;
    ticket = await takeTicket(dir, bytes);
    const ticketFile = path.join(waitersDir(dir), ticket);
    beat = setInterval(() => {
      const now = new Date();
      fsp.utimes(ticketFile, now, now).catch(() => undefined);
    }, HEARTBEAT_MS);
    beat.unref();
  };
  try {
    for (;;) {
      const state = inspectLock(dir);
      if (state === undefined) {
        if (!queuedAhead(dir, ticket)) {
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
            await queue();
            continue; // someone was faster; look at their lock
          }
        }
        await queue();
      } else if (isStale(state, suspect)) {
        await breakLock(dir, state);
        continue;
      } else {
        await queue();
      }
      if (Date.now() >= deadline) {
        const now = inspectLock(dir);
        if (now) {
          throw new StoreBusyError(`store busy: locked by ${describeHolder(now)}`, {
            hint: 'if that process is gone, run "docsctl store unlock"',
          });
        }
        throw new StoreBusyError(`store busy: other writers were queued ahead for ${Math.round(timeoutMs / 1000)} s`, {
          hint: `try again; ${waitersDir(dir)} lists the queued writers`,
        });
      }
      // Queued. The head of the queue polls often (taking its turn at once is what keeps
      // the queue moving); the others back off, since they cannot go before it anyway.
      const head = state !== undefined && !queuedAhead(dir, ticket);
      await sleep(Math.min(head ? 3 + Math.random() * 4 : delay * (0.5 + Math.random()), Math.max(1, deadline - Date.now())));
      delay = Math.min(delay * 2, 200);
    }
  } finally {
    if (temp !== undefined) removeQuietly([temp]);
    if (beat !== undefined) clearInterval(beat);
    if (ticket !== undefined) removeQuietly([path.join(waitersDir(dir), ticket)]);
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
