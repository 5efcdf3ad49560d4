/**
 * The lock holder's look at `waiters/` (lock.ts WaitersCheck): it answers "let go" exactly
 * when a ticket has waited BARGE_MS, and between looks makes no syscall.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BARGE_MS, WaitersCheck, waitersDir } from '../../src/store/lock.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

const ticket = (dir: string, at: number) =>
  fs.writeFileSync(path.join(waitersDir(dir), `${String(at).padStart(15, '0')}-4242-1.ticket`), '{}');

describe('WaitersCheck', () => {
  it('is false without waiters/, and looks again before a ticket queued meanwhile comes due', () => {
    const dir = storePath('waiters-none');
    fs.mkdirSync(dir, { recursive: true });
    const check = new WaitersCheck(dir);
    const t0 = 1_000_000_000_000;
    expect(check.due(t0)).toBe(false);
    fs.mkdirSync(waitersDir(dir));
    ticket(dir, t0 - 5); // named just before our look, created after it
    expect(check.due(t0 + 1)).toBe(false); // not looked at yet: not due anyway
    expect(check.due(t0 + BARGE_MS - 10)).toBe(false); // looked: found, due at t0 - 5 + BARGE_MS
    expect(check.due(t0 + BARGE_MS - 5)).toBe(true);
  });

  it('sleeps until the first ticket seen comes due, then says so', () => {
    const dir = storePath('waiters-some');
    fs.mkdirSync(waitersDir(dir), { recursive: true });
    const t0 = 1_000_000_000_000;
    ticket(dir, t0 - 150);
    fs.writeFileSync(path.join(waitersDir(dir), 'not-a-ticket'), '');
    const check = new WaitersCheck(dir);
    expect(check.due(t0)).toBe(false);
    // Between looks the directory is not read: an old ticket appearing now is seen at the next look.
    ticket(dir, t0 - 1000);
    expect(check.due(t0 + 10)).toBe(false);
    expect(check.due(t0 - 150 + BARGE_MS)).toBe(true);
  });

  it('is true at once for a ticket that has waited BARGE_MS', () => {
    const dir = storePath('waiters-old');
    fs.mkdirSync(waitersDir(dir), { recursive: true });
    const t0 = 1_000_000_000_000;
    ticket(dir, t0 - BARGE_MS);
    expect(new WaitersCheck(dir).due(t0)).toBe(true);
  });
});
