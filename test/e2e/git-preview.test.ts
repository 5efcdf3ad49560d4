/**
 * `git export --dry-run` through the built binary, locally and against `docsctl serve`:
 * the same preview in both modes, the export's role required (a reader gets 403,
 * exit 3), and no byte of the store or the repository changed.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { type ResultPromise, execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIT_ENV, type TestRemote, makeRemote } from '../git/helpers.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let env: Record<string, string>;
let remote: TestRemote;
let space: string;
let readerToken: string;
let adminToken: string;
let server: { url: string; process: ResultPromise };

const docsctl = (args: string[], extraEnv: Record<string, string> = {}) =>
  execa('node', [bin, ...args], { env: { ...env, ...extraEnv }, extendEnv: false, reject: false, timeout: 60_000 });

/** Every file of a directory tree with the hash of its bytes. */
function digest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    out[file] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return out;
}

beforeAll(async () => {
  const home = tempDir('docsctl-e2e-preview-');
  env = { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_STORE: join(home, 'store'), DOCSCTL_GIT_CACHE: join(home, 'git-cache'), NO_COLOR: '1', ...GIT_ENV };
  remote = makeRemote({ 'README.md': '# Welcome\n', 'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n' });
  const init = await docsctl(['init', '--org', 'Acme', '--json']);
  expect(init.exitCode, init.stderr).toBe(0);
  const boot = JSON.parse(init.stdout) as { token: string; organization: { id: string } };
  adminToken = boot.token;
  space = (await docsctl(['space', 'create', '--title', 'Docs', '--format', 'ids'])).stdout.trim();
  const imported = await docsctl(['git', 'import', space, remote.url]);
  expect(imported.exitCode, imported.stderr).toBe(0);
  expect((await docsctl(['user', 'create', '--email', 'reader@acme.io', '--org', boot.organization.id, '--role', 'read'])).exitCode).toBe(0);
  readerToken = (await docsctl(['token', 'create', '--user', 'reader@acme.io', '--format', 'ids'])).stdout.trim();
  const child = execa('node', [bin, 'serve', '--port', '0', '--allow-local', realpathSync(remote.root)], { env, extendEnv: false, reject: false });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /Listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve(match[1] as string);
    });
    child.on('exit', () => reject(new Error('serve exited early')));
  });
  server = { url, process: child };
}, 120_000);

afterAll(async () => {
  server?.process.kill('SIGTERM');
  await server?.process;
  remote?.cleanup();
  cleanupTempDirs();
});

describe('git export --dry-run (built binary)', () => {
  it('previews the same locally and against serve, changing no byte of the store or the repository', async () => {
    const store = digest(env.DOCSCTL_STORE as string);
    const repository = digest(remote.bare);
    const local = await docsctl(['git', 'export', space, remote.url, '-m', 'x', '--dry-run']);
    const served = await docsctl(['git', 'export', space, remote.url, '-m', 'x', '--dry-run'], { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: adminToken });
    expect(local.exitCode, local.stderr).toBe(0);
    const expected = `dry run: 0 file(s) to write, 0 to delete on ${remote.url} refs/heads/main (${remote.head()?.slice(0, 12)}), no commit; nothing was committed\n`;
    expect(local.stdout + '\n').toBe(expected);
    expect({ stdout: served.stdout, exitCode: served.exitCode }).toEqual({ stdout: local.stdout, exitCode: 0 });
    expect(digest(env.DOCSCTL_STORE as string)).toEqual(store);
    expect(digest(remote.bare)).toEqual(repository);
  }, 120_000);

  it('needs the edit role, as the export does: a reader gets 403 (exit 3) in both modes', async () => {
    const modes: Array<Record<string, string>> = [{ DOCSCTL_TOKEN: readerToken }, { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: readerToken }];
    for (const extra of modes) {
      const refused = await docsctl(['git', 'export', space, remote.url, '-m', 'x', '--dry-run'], extra);
      expect(refused.exitCode, refused.stderr).toBe(3);
      expect(refused.stderr).toMatch(/^error: .*"edit" role/);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 120_000);
});
