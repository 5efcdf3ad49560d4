/** End to end: `docsctl site …` through the built binary, from a clean HOME. */
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let env: Record<string, string>;

const docsctl = (args: string[]) => execa('node', [bin, ...args], { env, extendEnv: false, reject: false, timeout: 30_000 });

beforeAll(() => {
  const home = tempDir('docsctl-e2e-sites-');
  env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
});
afterAll(cleanupTempDirs);

describe('docsctl site (binary)', () => {
  it('creates, publishes and prints a site; refuses a bad visibility with exit 2', async () => {
    expect((await docsctl(['init', '--org', 'Demo Docs'])).exitCode).toBe(0);
    const space = (await docsctl(['space', 'create', '--title', 'Handbook', '--format', 'ids'])).stdout.trim();
    const created = await docsctl(['site', 'create', '--title', 'Docs', '--space', space, '--format', 'ids']);
    expect(created.exitCode, created.stderr).toBe(0);
    const site = created.stdout.trim();
    expect((await docsctl(['site', 'publish', site])).exitCode).toBe(0);
    const tree = await docsctl(['site', 'tree', site]);
    expect(tree.exitCode, tree.stderr).toBe(0);
    expect(tree.stdout).toMatch(/^\* Handbook {2}variant \w+ {2}\/handbook {2}default {2}https:\/\/\w+\.gitbook\.io\/docs\/$/m);
    // The tree comes from docsctl's extension route, which `api` reaches too.
    const org = (JSON.parse((await docsctl(['api', 'GET', '/v1/orgs'])).stdout) as { items: Array<{ id: string }> }).items[0]?.id;
    const extension = await docsctl(['api', 'GET', `/v1/orgs/${org}/sites/${site}/x-docsctl/tree`]);
    expect(extension.exitCode, extension.stderr).toBe(0);
    expect(JSON.parse(extension.stdout)).toMatchObject({ object: 'x-docsctl-site-tree', site, tree: [{ type: 'variant', title: 'Handbook', spaceId: space, pages: [] }] });
    const bad = await docsctl(['site', 'edit', site, '--visibility', 'secret']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/visibility/);
    const plan = await docsctl(['site', 'edit', site, '--visibility', 'share-link']);
    expect(plan.exitCode).toBe(3);
    expect(plan.stderr).toMatch(/^error: Site \w+ is on the basic plan.*sites-share-links/);
  });
});
