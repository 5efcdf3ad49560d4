/**
 * Strings from the store reach the terminal inert: a space titled with escape
 * sequences (retitle the window, turn text red, an 8-bit CSI) is printed in every
 * format by the built binary, and no ESC, BEL or C1 control reaches stdout or
 * stderr except JSON-escaped inside `--json`/`--format json`, which keeps the data exact.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
const EVIL = 'evil \x1b]0;pwned\x07 \x1b[31m \u009b2J end';
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
let env: Record<string, string>;
let spaceId: string;

const docsctl = (args: string[]) => execa('node', [bin, ...args], { env, extendEnv: false, reject: false, timeout: 30_000 });

beforeAll(async () => {
  const home = tempDir('docsctl-e2e-terminal-');
  env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
  expect((await docsctl(['init', '--org', 'Acme'])).exitCode).toBe(0);
  const created = await docsctl(['space', 'create', '--title', EVIL, '--format', 'ids']);
  expect(created.exitCode, created.stderr).toBe(0);
  spaceId = created.stdout.trim();
});
afterAll(cleanupTempDirs);

describe('control characters in titles', { timeout: 120_000 }, () => {
  it.each(['table', 'tsv', 'yaml', 'ids'])('--format %s shows them as visible text, never raw', async (format) => {
    for (const args of [['space', 'list'], ['space', 'get', spaceId]]) {
      const result = await docsctl([...args, '--format', format]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(RAW_CONTROL);
      expect(result.stderr).not.toMatch(RAW_CONTROL);
      if (format !== 'ids') expect(result.stdout).toMatch(/evil (\^\[|\\e)\]0;pwned(\^G|\\a) (\^\[|\\e)\[31m/);
    }
  });

  it('--json keeps the exact title, JSON-escaped', async () => {
    for (const args of [['space', 'list', '--json'], ['space', 'get', spaceId, '--json'], ['space', 'get', spaceId, '--format', 'json']]) {
      const result = await docsctl(args);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(/[\u001b\u0007]/);
      const parsed = JSON.parse(result.stdout) as { title: string } | Array<{ title: string }>;
      expect(Array.isArray(parsed) ? parsed[0]?.title : parsed.title).toBe(EVIL);
    }
  });

  it('an error quoting hostile input is inert on stderr', async () => {
    const result = await docsctl(['space', 'get', 'nope\x1b]0;pwned\x07']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });
});
