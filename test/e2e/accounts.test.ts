/**
 * Local accounts through the built binary: a second user with a token of their
 * own, created while `docsctl serve` serves the store, then used against it.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let env: Record<string, string>;

const docsctl = (args: string[], extraEnv: Record<string, string> = {}) =>
  execa('node', [bin, ...args], { env: { ...env, ...extraEnv }, extendEnv: false, reject: false, timeout: 120_000 });

beforeAll(() => {
  const home = tempDir('docsctl-accounts-');
  env = { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_STORE: join(home, 'store'), NO_COLOR: '1' };
});
afterAll(cleanupTempDirs);

describe('org, user and token commands', () => {
  it('give a new user their own token, usable locally and against serve; revoked, it stops working', async () => {
    const init = await docsctl(['init', '--org', 'Acme', '--json']);
    expect(init.exitCode, init.stderr).toBe(0);
    const orgId = (JSON.parse(init.stdout) as { organization: { id: string } }).organization.id;

    const server = execa('node', [bin, 'serve', '--port', '0'], { env, extendEnv: false, reject: false });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        server.stdout?.on('data', (chunk: Buffer) => {
          const match = /Listening on (http:\/\/\S+)/.exec(chunk.toString());
          if (match) resolve(match[1] as string);
        });
        server.on('exit', () => reject(new Error('serve exited early')));
      });

      const user = await docsctl(['user', 'create', '--email', 'ci@acme.io', '--name', 'CI', '--org', orgId, '--role', 'edit', '--json']);
      expect(user.exitCode, user.stderr).toBe(0);
      expect(JSON.parse(user.stdout)).toMatchObject({ displayName: 'CI', email: 'ci@acme.io', organization: orgId, role: 'edit' });

      const created = await docsctl(['token', 'create', '--user', 'ci@acme.io', '--label', 'ci', '--format', 'ids']);
      expect(created.exitCode, created.stderr).toBe(0);
      const token = created.stdout.trim();
      expect(token).toMatch(/^gb_api_\w{40}$/);

      const remoteMe = await docsctl(['user', 'me', '--json'], { DOCSCTL_ENDPOINT: url, DOCSCTL_TOKEN: token });
      expect(remoteMe.exitCode, remoteMe.stderr).toBe(0);
      expect(JSON.parse(remoteMe.stdout)).toMatchObject({ email: 'ci@acme.io' });
      const localMe = await docsctl(['user', 'me', '--format', 'tsv'], { DOCSCTL_TOKEN: token });
      expect(localMe.stdout).toMatch(/\tCI\tci@acme\.io$/m);

      const listed = await docsctl(['token', 'list', '--format', 'tsv'], { DOCSCTL_TOKEN: token });
      expect(listed.stdout).toMatch(/^[0-9a-f]{16}\tci\t\w+\t/);
      expect(listed.stdout).not.toContain('gb_api_');
      const tokenId = listed.stdout.split('\t')[0] as string;

      const refused = await docsctl(['org', 'create', '--title', 'Other'], { DOCSCTL_ENDPOINT: url, DOCSCTL_TOKEN: token });
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toMatch(/^error: org create works on a local store only/);

      const revoked = await docsctl(['token', 'revoke', tokenId], { DOCSCTL_TOKEN: token });
      expect(revoked.exitCode, revoked.stderr).toBe(0);
      expect(revoked.stderr).toContain(`Revoked token ${tokenId} (ci)`);
      const after = await docsctl(['user', 'me'], { DOCSCTL_ENDPOINT: url, DOCSCTL_TOKEN: token });
      expect(after.exitCode).toBe(3);
    } finally {
      server.kill('SIGTERM');
      await server;
    }
  }, 300_000);

  it('user create --role without --org makes the user a member of the only organization', async () => {
    const orgId = (await docsctl(['org', 'list', '--format', 'ids'])).stdout.trim();
    const user = await docsctl(['user', 'create', '--email', 'reader@acme.io', '--role', 'read', '--json']);
    expect(user.exitCode, user.stderr).toBe(0);
    expect(JSON.parse(user.stdout)).toMatchObject({ email: 'reader@acme.io', organization: orgId, role: 'read' });
    const members = await docsctl(['member', 'list', '--format', 'tsv']);
    expect(members.stdout).toMatch(/reader@acme\.io.*\bread\b/);
  }, 300_000);

  it('org create makes the caller admin of a new organization', async () => {
    const created = await docsctl(['org', 'create', '--title', 'Partners', '--format', 'ids']);
    expect(created.exitCode, created.stderr).toBe(0);
    const orgs = await docsctl(['org', 'list', '--format', 'tsv']);
    expect(orgs.stdout).toContain(`${created.stdout.trim()}\tPartners`);
  }, 300_000);

  it('user create --role without --org, with several organizations, asks for --org (exit 2)', async () => {
    const result = await docsctl(['user', 'create', '--email', 'two@acme.io', '--role', 'read']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: You belong to several organizations: pass --org ID/);
    const none = await docsctl(['user', 'create', '--email', 'nobody@acme.io', '--json']);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).not.toHaveProperty('organization');
  }, 300_000);

  it('explains a bad role in one line with exit 2', async () => {
    const result = await docsctl(['user', 'create', '--email', 'x@acme.io', '--org', 'o', '--role', 'owner']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/Invalid role "owner"/);
  }, 300_000);
});
