/** `member` and `team` through the built binary, with the sync file on stdin. */
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let env: Record<string, string>;

const docsctl = (args: string[], input?: string) =>
  execa('node', [bin, ...args], { env, extendEnv: false, reject: false, timeout: 120_000, ...(input !== undefined ? { input } : {}) });

beforeAll(() => {
  const home = tempDir('docsctl-teams-');
  env = { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_STORE: join(home, 'store'), NO_COLOR: '1' };
});
afterAll(cleanupTempDirs);

describe('member and team commands', () => {
  it('sync a team from stdin, then a second run changes nothing', async () => {
    expect((await docsctl(['init', '--org', 'Acme'])).exitCode).toBe(0);
    expect((await docsctl(['member', 'invite', 'ada@acme.io', 'grace@acme.io'])).exitCode).toBe(0);
    const team = await docsctl(['team', 'create', '--title', 'Engineering', '--format', 'ids']);
    expect(team.exitCode, team.stderr).toBe(0);
    const id = team.stdout.trim();
    const file = 'ada@acme.io owner\ngrace@acme.io\n';
    const sync = await docsctl(['team', 'members', 'sync', id, '--file', '-', '--json'], file);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout)).toMatchObject({ added: 2, removed: 0, changed: 0, unchanged: 0 });
    const again = await docsctl(['team', 'members', 'sync', id, '--file', '-'], file);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/Nothing to change: the team already matches the file \(2 members\)/);
    const members = await docsctl(['member', 'teams', 'ada@acme.io', '--format', 'tsv']);
    expect(members.stdout).toBe(`${id}\tEngineering\towner`);
  }, 300_000);

  it('shows examples in --help', async () => {
    const help = await docsctl(['team', 'members', 'sync', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('docsctl team members sync t3am1d --file engineering.txt --dry-run');
    const member = await docsctl(['member', 'edit', '--help']);
    expect(member.stdout).toContain('docsctl member edit ada@acme.io --role admin');
  }, 300_000);
});
