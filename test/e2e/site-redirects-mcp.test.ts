/** End to end: `docsctl site redirect …` and `docsctl site mcp-server …` through the built binary, from a clean HOME. */
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let env: Record<string, string>;

const docsctl = (args: string[], extra: Record<string, string> = {}) =>
  execa('node', [bin, ...args], { env: { ...env, ...extra }, extendEnv: false, reject: false, timeout: 30_000 });

beforeAll(() => {
  const home = tempDir('docsctl-e2e-redirects-');
  env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
});
afterAll(cleanupTempDirs);

describe('docsctl site redirect / mcp-server (binary)', () => {
  it('redirects a path to a variant and resolves it; reads an MCP header value from the environment, never printing it in a table', async () => {
    expect((await docsctl(['init', '--org', 'Demo Docs'])).exitCode).toBe(0);
    const space = (await docsctl(['space', 'create', '--title', 'Handbook', '--format', 'ids'])).stdout.trim();
    const site = (await docsctl(['site', 'create', '--title', 'Docs', '--space', space, '--format', 'ids'])).stdout.trim();
    const variant = (await docsctl(['site', 'space', 'list', site, '--format', 'ids'])).stdout.trim();

    const created = await docsctl(['site', 'redirect', 'create', site, '/handbook-v1', '--site-space', variant, '--format', 'ids']);
    expect(created.exitCode, created.stderr).toBe(0);
    const target = await docsctl(['site', 'redirect', 'get', site, '/handbook-v1', '--query', 'target']);
    expect(target.exitCode, target.stderr).toBe(0);
    expect(JSON.parse(target.stdout)).toMatch(/^https:\/\/\w+\.gitbook\.io\/docs\/$/);

    const added = await docsctl(
      ['site', 'mcp-server', 'add', site, '--name', 'Tickets', '--url', 'https://mcp.demo.example/sse', '--header-env', 'Authorization=MCP_TOKEN'],
      { MCP_TOKEN: 'Bearer from-the-env' },
    );
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/Authorization/);
    expect(added.stdout).not.toContain('from-the-env');
    const id = (await docsctl(['site', 'mcp-server', 'list', site, '--format', 'ids'])).stdout.trim();
    const shown = await docsctl(['site', 'mcp-server', 'get', site, id, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ name: 'Tickets', headers: { Authorization: 'Bearer from-the-env' } });
    const unset = await docsctl(['site', 'mcp-server', 'edit', site, id, '--header-env', 'Authorization=NOT_SET']);
    expect(unset.exitCode).toBe(2);
    expect(unset.stderr).toMatch(/environment variable NOT_SET is not set/);
  });
});
