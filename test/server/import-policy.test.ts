/**
 * Through `serve`, content import cannot read the server's disk or reach its
 * network unless the operator allowed it (serve --allow-local, --allow-private-network,
 * --allow-http); locally, the same URLs import. DNS is a stub (policy.resolve).
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { type InputPolicy, LOCAL_POLICY, SERVE_POLICY } from '../../src/domain/policy.js';
import { startServer } from '../../src/server/server.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

let web: Server;
let webPort: number;
let allowed: string;
let outside: string;

const resolve = async (host: string) => {
  const table: Record<string, string[]> = { 'internal.example': ['127.0.0.1'], 'metadata.example': ['169.254.169.254'] };
  if (!table[host]) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  return table[host];
};

beforeAll(async () => {
  process.env.DOCSCTL_CACHE_DIR ??= tempDir('docsctl-cache-');
  web = createServer((req, res) => {
    if (req.url === '/guide.md') res.writeHead(200).end('# Guide\n\nFrom the web.\n');
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => web.listen(0, '127.0.0.1', done));
  webPort = (web.address() as AddressInfo).port;
  const root = realpathSync(tempDir('docsctl-import-policy-'));
  allowed = join(root, 'allowed');
  outside = join(root, 'outside');
  mkdirSync(allowed);
  mkdirSync(outside);
  writeFileSync(join(allowed, 'guide.md'), '# Guide\n\nFrom the disk.\n');
  writeFileSync(join(outside, 'secret.md'), '# Secret\n');
  symlinkSync(join(outside, 'secret.md'), join(allowed, 'link.md'));
});
afterAll(async () => {
  await new Promise((done) => web.close(done));
  cleanupTempDirs();
});

/** A `serve` of a fresh store under `policy`; `importUrl` posts content/import into a new space. */
async function serveWith(policy: InputPolicy | undefined) {
  const store = new MemoryStore();
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const ids = sequentialIds('x');
  const { token, organization } = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://x' }),
  );
  const server = await startServer({ store, clock, ids, port: 0, ...(policy ? { policy } : {}) });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as { id?: string; error?: { message: string } } };
  };
  const space = await call('POST', `/orgs/${organization.id}/spaces`, { title: 'Docs' });
  const importUrl = (url: string) => call('POST', `/spaces/${space.body.id}/content/import`, { url, source: 'markdown' });
  return { importUrl, call, close: () => server.close() };
}

const webBase = () => `http://127.0.0.1:${webPort}`;

describe('content/import through serve', () => {
  const hostile: Array<[string, () => string]> = [
    ['file:///etc/passwd', () => 'file:///etc/passwd'],
    ['a file outside the allowed root', () => pathToFileURL(join(outside, 'secret.md')).href],
    ['a symlink out of the allowed root', () => pathToFileURL(join(allowed, 'link.md')).href],
    ['a ".." escape', () => `file://${allowed}/../outside/secret.md`],
    ['a loopback URL', () => `${webBase()}/guide.md`],
    ['localhost by name', () => `http://localhost:${webPort}/guide.md`],
    ['a name resolving to 127.0.0.1', () => `https://internal.example:${webPort}/guide.md`],
    ['a decimal loopback host', () => `https://2130706433:${webPort}/guide.md`],
    ['a v4-mapped loopback', () => `https://[::ffff:7f00:1]:${webPort}/guide.md`],
    ['the metadata address', () => 'https://169.254.169.254/latest/meta-data/'],
    ['a name resolving to the metadata address', () => 'https://metadata.example/latest/'],
    ['the IPv6 metadata address', () => 'https://[fd00:ec2::254]/'],
    ['a CGNAT address', () => 'https://100.64.0.1/guide.md'],
    ['the unspecified address', () => `https://0.0.0.0:${webPort}/guide.md`],
  ];

  it.each(hostile)('refuses %s with 403 and an error naming the flag that would allow it', async (_name, url) => {
    const serve = await serveWith({ ...SERVE_POLICY, localRoots: [allowed], resolve });
    try {
      const res = await serve.importUrl(url());
      expect(res.status).toBe(403);
      expect(res.body.error?.message).toMatch(/--allow-(local|private-network)/);
    } finally {
      await serve.close();
    }
  });

  it('refuses every local path by default (no --allow-local), and reads below an allowed root', async () => {
    const closed = await serveWith(undefined);
    const open = await serveWith({ ...SERVE_POLICY, localRoots: [allowed] });
    try {
      expect((await closed.importUrl(pathToFileURL(join(allowed, 'guide.md')).href)).status).toBe(403);
      expect((await open.importUrl(pathToFileURL(join(allowed, 'guide.md')).href)).status).toBe(201);
    } finally {
      await closed.close();
      await open.close();
    }
  });

  it('fetches private addresses with --allow-private-network; plain http to a non-loopback name still needs --allow-http', async () => {
    const serve = await serveWith({ ...SERVE_POLICY, privateNetwork: true, resolve });
    try {
      expect((await serve.importUrl(`${webBase()}/guide.md`)).status).toBe(201);
      // http:// to a name that is not loopback needs --allow-http as well.
      const plain = await serve.importUrl(`http://internal.example:${webPort}/guide.md`);
      expect(plain.status).toBe(403);
      expect(plain.body.error?.message).toMatch(/--allow-http/);
    } finally {
      await serve.close();
    }
  });

  it('never echoes a URL password in an error', async () => {
    const serve = await serveWith(undefined);
    try {
      for (const url of ['https://bob:Pa/ss-77@host/x.md', 'https://bob:s3cret@internal.example/x.md', 'ftp://bob:s3cret@host/x']) {
        const res = await serve.importUrl(url);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(JSON.stringify(res.body)).not.toMatch(/Pa\/ss|s3cret/);
      }
    } finally {
      await serve.close();
    }
  });
});

describe('content/import locally (LOCAL_POLICY)', () => {
  it('imports from the disk and from loopback: the user owns them', async () => {
    const serve = await serveWith(LOCAL_POLICY);
    try {
      expect((await serve.importUrl(pathToFileURL(join(outside, 'secret.md')).href)).status).toBe(201);
      expect((await serve.importUrl(`${webBase()}/guide.md`)).status).toBe(201);
    } finally {
      await serve.close();
    }
  });
});
