/**
 * The built binary runs the invite-link, font and system groups: a second user joins
 * an organization with an invite link (DOCSCTL_TOKEN), and `system info` tells the
 * package's version and the build's date.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
let dir: string;
const docsctl = (args: string[], env: Record<string, string> = {}) =>
  execa('node', [bin, '--store', join(dir, 'store'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1', ...env },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });

beforeAll(async () => {
  dir = tempDir('docsctl-org-links-e2e-');
  expect((await docsctl(['init', '--org', 'Acme Docs'])).exitCode).toBe(0);
});
afterAll(cleanupTempDirs);

describe('invite links, fonts and system info through the binary', () => {
  it('lets a user outside the organization join with an invite link, once', async () => {
    const org = (await docsctl(['org', 'list', '--format', 'ids'])).stdout.trim();
    expect((await docsctl(['user', 'create', '--email', 'bob@else.test'])).exitCode).toBe(0);
    const token = (await docsctl(['token', 'create', '--user', 'bob@else.test', '--format', 'ids'])).stdout.trim();
    const bob = { DOCSCTL_TOKEN: token };
    expect((await docsctl(['org', 'list', '--format', 'ids'], bob)).stdout).toBe('');

    expect((await docsctl(['org', 'edit', org, '--invite-links'])).exitCode).toBe(0);
    const created = await docsctl(['invite-link', 'create', '--role', 'edit', '--format', 'ids']);
    expect(created.exitCode, created.stderr).toBe(0);
    const link = created.stdout.trim();
    expect(link).toMatch(/^[0-9A-Za-z]{40}$/);

    const seen = await docsctl(['invite-link', 'get', link, '--org', org, '--json'], bob);
    expect(seen.exitCode, seen.stderr).toBe(0);
    expect(JSON.parse(seen.stdout)).toEqual({ object: 'invite', id: link, role: 'edit', redundant: false });
    const joined = await docsctl(['invite-link', 'join', org, link], bob);
    expect(joined.exitCode, joined.stderr).toBe(0);
    expect((await docsctl(['invite-link', 'join', org, link], bob)).exitCode).toBe(0);
    expect((await docsctl(['org', 'list', '--format', 'ids'], bob)).stdout.trim()).toBe(org);
    const member = await docsctl(['member', 'get', 'bob@else.test', '--json']);
    expect(JSON.parse(member.stdout)).toMatchObject({ role: 'edit', user: { email: 'bob@else.test' } });
    // Bob is an editor, not an admin: he cannot list the organization's links.
    expect((await docsctl(['invite-link', 'list'], bob)).exitCode).toBe(3);
  });

  it('adds a font and reads it back', async () => {
    const created = await docsctl(['font', 'create', '--family', 'Inter', '--face', '400=https://cdn.example.com/inter.woff2', '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const font = JSON.parse(created.stdout) as { id: string };
    const listed = await docsctl(['font', 'list', '--format', 'tsv']);
    expect(listed.stdout).toMatch(new RegExp(`^${font.id}\\tInter\\t400`));
  });

  it('tells the version of the package and the date of the build', async () => {
    const info = await docsctl(['system', 'info', '--json']);
    expect(info.exitCode, info.stderr).toBe(0);
    const body = JSON.parse(info.stdout) as { version: string; build: string };
    expect(body.version).toBe(version);
    expect(new Date(body.build).toISOString()).toBe(body.build);
  });
});
