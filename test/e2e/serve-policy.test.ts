/**
 * The built binary's `serve --allow-*` flags: what a request may reach on the
 * server's disk. Without --allow-local a content import of a server path is
 * refused (403 → exit 3); with it, only directories below the allowed root are
 * read, after resolving symlinks.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ResultPromise, execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let home: string;
let env: Record<string, string>;
let token: string;
let allowed: string;
let outside: string;

const docsctl = (args: string[], extraEnv: Record<string, string> = {}) =>
  execa('node', [bin, ...args], { env: { ...env, ...extraEnv }, extendEnv: false, reject: false, timeout: 30_000 });

async function serve(flags: string[]): Promise<{ url: string; process: ResultPromise }> {
  const server = execa('node', [bin, 'serve', '--port', '0', ...flags], { env, extendEnv: false, reject: false });
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout?.on('data', (chunk: Buffer) => {
      const match = /Listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve(match[1] as string);
    });
    server.on('exit', () => reject(new Error('serve exited early')));
  });
  return { url, process: server };
}

async function stop(server: { process: ResultPromise }): Promise<void> {
  server.process.kill('SIGTERM');
  await server.process;
}

const docs = { 'README.md': '# Welcome\n\nHello.\n', 'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n' };

function writeDocs(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(docs)) writeFileSync(join(dir, name), text);
  return dir;
}

beforeAll(async () => {
  home = tempDir('docsctl-e2e-policy-');
  env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
  const init = await docsctl(['init', '--org', 'Acme', '--json']);
  expect(init.exitCode, init.stderr).toBe(0);
  token = (JSON.parse(init.stdout) as { token: string }).token;
  const root = realpathSync(tempDir('docsctl-e2e-imports-'));
  allowed = writeDocs(join(root, 'allowed', 'docs'));
  outside = writeDocs(join(root, 'outside'));
  symlinkSync(outside, join(root, 'allowed', 'escape'));
});
afterAll(cleanupTempDirs);

describe('serve --allow-local', { timeout: 120_000 }, () => {
  it('refuses a content import of a server path when serve has no --allow-local (exit 3)', async () => {
    const server = await serve([]);
    try {
      const remote = { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token };
      const space = await docsctl(['space', 'create', '--title', 'Docs', '--format', 'ids'], remote);
      expect(space.exitCode, space.stderr).toBe(0);
      const cr = await docsctl(['cr', 'create', space.stdout.trim(), '--format', 'ids'], remote);
      const result = await docsctl(['cr', 'import', space.stdout.trim(), cr.stdout.trim(), allowed], remote);
      expect(result.exitCode).toBe(3);
      expect(result.stderr).toMatch(/^error: Local paths and file:\/\/ URLs are not allowed on this server .*--allow-local/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      // The server's policy, not the token: no token hint (issue 19 §5).
      expect(result.stderr).toContain("The server's operator sets what requests may read");
      expect(result.stderr).not.toMatch(/token does not allow/);
    } finally {
      await stop(server);
    }
  });

  it('reads below an allowed directory, and refuses a symlink out of it and a ".." escape', async () => {
    const server = await serve(['--allow-local', join(allowed, '..')]);
    try {
      const remote = { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token };
      const space = (await docsctl(['space', 'create', '--title', 'Docs', '--format', 'ids'], remote)).stdout.trim();
      const cr = (await docsctl(['cr', 'create', space, '--format', 'ids'], remote)).stdout.trim();
      const ok = await docsctl(['cr', 'import', space, cr, allowed, '--json'], remote);
      expect(ok.exitCode, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ importedResources: 1 });

      const viaSymlink = await docsctl(['cr', 'import', space, cr, join(allowed, '..', 'escape')], remote);
      expect(viaSymlink.exitCode).toBe(3);
      const dotDot = await docsctl(['api', 'POST', `/spaces/${space}/change-requests/${cr}/content/import`, '-f', `url=file://${allowed}/../../outside`, '-f', 'source=markdown'], remote);
      expect(dotDot.exitCode).toBe(3);
      expect(dotDot.stderr).toMatch(/--allow-local/);
    } finally {
      await stop(server);
    }
  });

  it('refuses to start with an --allow-local directory that does not exist (exit 2)', async () => {
    const result = await docsctl(['serve', '--port', '0', '--allow-local', join(home, 'missing')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: --allow-local .*missing: no such directory/);
  });
});

describe('serve --allow-private-network', { timeout: 120_000 }, () => {
  let web: Server;
  let page: string;
  beforeAll(async () => {
    web = createServer((_req, res) => res.writeHead(200).end('# From the web\n'));
    await new Promise<void>((done) => web.listen(0, '127.0.0.1', done));
    page = `http://127.0.0.1:${(web.address() as AddressInfo).port}/page.md`;
  });
  afterAll(() => new Promise((done) => web.close(done)));

  /** Imports `page` into a new space through a serve started with `flags`; the import runs through the binary. */
  async function importThrough(flags: string[]) {
    const server = await serve(flags);
    try {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const orgs = (await (await fetch(`${server.url}/v1/orgs`, { headers })).json()) as { items: Array<{ id: string }> };
      const created = await fetch(`${server.url}/v1/orgs/${orgs.items[0]?.id}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Web' }) });
      const space = ((await created.json()) as { id: string }).id;
      const remote = { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token };
      return await docsctl(['api', 'POST', `/spaces/${space}/content/import`, '-f', `url=${page}`, '-f', 'source=markdown'], remote);
    } finally {
      await stop(server);
    }
  }

  it('refuses an import from a loopback URL without it (exit 3)', async () => {
    const result = await importThrough([]);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/^error: Refusing to fetch from 127\.0\.0\.1 .*--allow-private-network/);
    expect(result.stderr).not.toMatch(/token does not allow/);
  });

  it('fetches it with --allow-private-network', async () => {
    const result = await importThrough(['--allow-private-network']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ importedResources: 1, totalResources: 1 });
  });
});
