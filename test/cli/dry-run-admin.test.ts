/**
 * `--dry-run` on the commands that write without the API (`init`, `config set`),
 * and `--json FIELDS` right before a variadic argument, which is refused as
 * ambiguous rather than guessed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

function environment() {
  const home = tempDir('docsctl-dry-');
  return { home, env: { HOME: home, DOCSCTL_STORE: join(home, 'store'), DOCSCTL_CONFIG_DIR: join(home, 'config') } };
}

describe('init --dry-run', () => {
  it('says what it would create, as JSON too, and creates nothing', async () => {
    const { home, env } = environment();
    const text = await runCli(['init', '--org', 'Acme', '--name', 'Ada', '--email', 'ada@example.com', '--dry-run'], { env });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toBe(
      [
        `Would create a store at ${join(home, 'store')}`,
        'organization  Acme',
        'user          Ada <ada@example.com>',
        'token         (made when the store is created)',
        '',
      ].join('\n'),
    );
    expect(text.stderr).toContain('dry run: nothing was created');
    const json = await runCli(['init', '--org', 'Acme', '--dry-run', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual({
      dryRun: true,
      store: join(home, 'store'),
      organization: { title: 'Acme' },
      user: { displayName: 'Admin', email: 'admin@example.com' },
    });
    expect(existsSync(join(home, 'store'))).toBe(false);
  });

  it('refuses an existing store as init does (exit 5)', async () => {
    const { env } = environment();
    expect((await runCli(['init'], { env })).exitCode).toBe(0);
    const again = await runCli(['init', '--dry-run'], { env });
    expect(again.exitCode).toBe(5);
    expect(again.stderr).toMatch(/^error: A docsctl store already exists at /);
  });
});

describe('config set --dry-run', () => {
  it('prints the profile as it would be saved, token redacted, and writes nothing', async () => {
    const { home, env } = environment();
    const result = await runCli(
      ['config', 'set', 'work', '--endpoint', 'https://api.example.com', '--token', 'gb_api_abcdefghijklmnop', '--dry-run', '--json'],
      { env },
    );
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      dryRun: true,
      profile: 'work',
      store: null,
      endpoint: 'https://api.example.com',
      token: 'gb_api_…mnop',
      org: null,
      current: true,
      configFile: join(home, 'config', 'config.json'),
    });
    expect(result.stdout).not.toContain('abcdefghijklmnop');
    expect(existsSync(join(home, 'config', 'config.json'))).toBe(false);
  });

  it('shows a change to an existing profile merged with what it keeps, leaving the file as it was', async () => {
    const { env } = environment();
    expect((await runCli(['config', 'set', 'scratch', '--store', '/tmp/scratch', '--org', 'o1'], { env })).exitCode).toBe(0);
    const file = join(env.DOCSCTL_CONFIG_DIR, 'config.json');
    const before = readFileSync(file, 'utf8');
    const result = await runCli(['config', 'set', 'scratch', '--org', 'o2', '--dry-run', '--json', 'store,org'], { env });
    expect(JSON.parse(result.stdout)).toEqual({ store: '/tmp/scratch', org: 'o2' });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('--json FIELDS before a variadic argument', () => {
  it('is refused as ambiguous (exit 2), saying how to write either meaning; nothing is sent', async () => {
    const { env } = environment();
    expect((await runCli(['init'], { env })).exitCode).toBe(0);
    const result = await runCli(['member', 'invite', 'a@example.com', '--json', 'id'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('error: "--json id" is ambiguous: "id" could be fields to print or an argument of "member invite"');
    expect(result.stderr).toContain('--json=id');
    const listed = await runCli(['member', 'list', '--json', 'id'], { env });
    expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(1);
  });

  it('a word that cannot be a field list is an argument; --json=FIELDS and a trailing --json stay clear', async () => {
    const { env } = environment();
    expect((await runCli(['init'], { env })).exitCode).toBe(0);
    const dry = await runCli(['member', 'invite', '--json', 'b@example.com', '--dry-run'], { env });
    expect(dry.exitCode).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, method: 'POST', body: { emails: ['b@example.com'] } });
    const fields = await runCli(['member', 'invite', 'c@example.com', '--json=method', '--dry-run'], { env });
    expect(JSON.parse(fields.stdout)).toEqual({ method: 'POST' });
  });
});
