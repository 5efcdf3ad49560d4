/**
 * fetchToFile: a URL from a request is fetched hop by hop under the policy,
 * connected to the address that was checked, and saved to a private temporary
 * file with a size cap. DNS is a stub (policy.resolve): no network is used.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { type FetchedFile, MAX_REDIRECTS, type OpenConnection, fetchToFile } from '../../src/domain/fetch-url.js';
import { type InputPolicy, LOCAL_POLICY, SERVE_POLICY } from '../../src/domain/policy.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

let server: Server;
let port: number;
const connectedTo: string[] = [];

beforeAll(async () => {
  process.env.DOCSCTL_CACHE_DIR ??= tempDir('docsctl-cache-');
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to !== null) {
      res.writeHead(302, { location: to }).end();
    } else if (url.pathname === '/loop') {
      res.writeHead(301, { location: '/loop' }).end();
    } else if (url.pathname === '/guide.md') {
      res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Guide\n');
    } else if (url.pathname === '/big') {
      // No content-length: the cap must be enforced while streaming.
      res.writeHead(200);
      res.write(Buffer.alloc(4096, 120));
      res.end(Buffer.alloc(4096, 120));
    } else if (url.pathname === '/declared-big') {
      res.writeHead(200, { 'content-length': 1_000_000 });
      res.end(Buffer.alloc(10));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  cleanupTempDirs();
});

const stub = (table: Record<string, string[]>) => async (host: string) => {
  const answer = table[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};
const resolve = stub({
  'docs.example': ['127.0.0.1'],
  'public.example': ['93.184.216.34'],
  'metadata.example': ['169.254.169.254'],
});

/**
 * The test's stand-in for a public internet: every checked hop is recorded, then
 * connected to the local test server (the real pinned opener for 127.0.0.1).
 */
async function realOpen(): Promise<OpenConnection> {
  return async (url, _address, signal) => {
    const { request } = await import('undici');
    const local = new URL(url.href);
    local.hostname = '127.0.0.1';
    const response = await request(local, { signal });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  };
}
async function recordingOpen(): Promise<OpenConnection> {
  const open = await realOpen();
  return (url, address, signal) => {
    connectedTo.push(address);
    return open(url, address, signal);
  };
}

async function statusOf(promise: Promise<unknown>): Promise<number | string> {
  try {
    const fetched = (await promise) as FetchedFile;
    await fetched.dispose();
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

const base = () => `http://127.0.0.1:${port}`;
const opts = { maxBytes: 5000, timeoutMs: 10_000 };

describe('fetchToFile in local mode (everything allowed)', () => {
  it('saves the body to a private temporary file and names it after the last path segment', async () => {
    const fetched = await fetchToFile(LOCAL_POLICY, new URL(`${base()}/guide.md`), opts);
    try {
      expect(readFileSync(fetched.file, 'utf8')).toBe('# Guide\n');
      expect(fetched).toMatchObject({ size: 8, name: 'guide.md' });
      expect(statSync(dirname(fetched.file)).mode & 0o077).toBe(0);
    } finally {
      await fetched.dispose();
    }
    expect(existsSync(fetched.file)).toBe(false);
  });

  it('follows redirects itself, up to the limit', async () => {
    const fetched = await fetchToFile(LOCAL_POLICY, new URL(`${base()}/redirect?to=/guide.md`), opts);
    expect(fetched.url.pathname).toBe('/guide.md');
    await fetched.dispose();
    await expect(fetchToFile(LOCAL_POLICY, new URL(`${base()}/loop`), opts)).rejects.toThrow(`more than ${MAX_REDIRECTS} redirects`);
  });

  it('answers 413 beyond the size cap, while streaming or from content-length, and leaves no file', async () => {
    expect(await statusOf(fetchToFile(LOCAL_POLICY, new URL(`${base()}/big`), opts))).toBe(413);
    expect(await statusOf(fetchToFile(LOCAL_POLICY, new URL(`${base()}/declared-big`), opts))).toBe(413);
    expect(await statusOf(fetchToFile(LOCAL_POLICY, new URL(`${base()}/big`), { ...opts, maxBytes: 8192 }))).toBe('ok');
  });

  it('answers 400 for an HTTP error and for a refused connection, without the URL password', async () => {
    await expect(fetchToFile(LOCAL_POLICY, new URL(`${base()}/missing`), opts)).rejects.toThrow(/HTTP 404/);
    const refused = fetchToFile(LOCAL_POLICY, new URL('http://bob:s3cret@127.0.0.1:1/x'), opts);
    await expect(refused).rejects.toThrow(/^Cannot fetch http:\/\/\*\*\*@127\.0\.0\.1:1\/x: connection refused$/);
  });

  it('connects to the address it checked: a name only the stub resolver knows is reached', async () => {
    const fetched = await fetchToFile({ ...LOCAL_POLICY, resolve }, new URL(`http://docs.example:${port}/guide.md`), opts);
    expect(readFileSync(fetched.file, 'utf8')).toBe('# Guide\n');
    await fetched.dispose();
  });
});

describe('fetchToFile under serve (SERVE_POLICY)', () => {
  const serve: InputPolicy = { ...SERVE_POLICY, resolve };

  it.each([
    ['a loopback literal', () => `${base()}/guide.md`],
    ['a name resolving to 127.0.0.1', () => `https://docs.example:${port}/guide.md`],
    ['a decimal loopback host', () => `https://2130706433:${port}/guide.md`],
    ['an octal loopback host', () => `https://0177.0.0.1:${port}/guide.md`],
    ['a v4-mapped IPv6 loopback', () => `https://[::ffff:127.0.0.1]:${port}/guide.md`],
    ['the metadata address', () => 'https://169.254.169.254/latest/meta-data/'],
    ['the IPv6 metadata address', () => 'https://[fd00:ec2::254]/latest/meta-data/'],
    ['plain http to a public host', () => 'http://public.example/guide.md'],
  ])('refuses %s with 403 before connecting', async (_name, url) => {
    connectedTo.length = 0;
    expect(await statusOf(fetchToFile(serve, new URL(url()), { ...opts, open: await recordingOpen() }))).toBe(403);
    expect(connectedTo).toEqual([]);
  });

  it('checks every redirect hop: a public page redirecting to a private address is refused there', async () => {
    const open = await recordingOpen();
    const policy = { ...serve, plainHttp: true };
    for (const target of ['http://169.254.169.254/latest/meta-data/', `http://metadata.example:${port}/guide.md`, `http://127.0.0.1:${port}/guide.md`]) {
      connectedTo.length = 0;
      const start = new URL(`http://public.example:${port}/redirect?to=${encodeURIComponent(target)}`);
      expect(await statusOf(fetchToFile(policy, start, { ...opts, open }))).toBe(403);
      expect(connectedTo).toEqual(['93.184.216.34']);
    }
    connectedTo.length = 0;
    const ok = await fetchToFile(policy, new URL(`http://public.example:${port}/redirect?to=/guide.md`), { ...opts, open });
    expect(readFileSync(ok.file, 'utf8')).toBe('# Guide\n');
    await ok.dispose();
    expect(connectedTo).toEqual(['93.184.216.34', '93.184.216.34']);
  });

  it('refuses a redirect to a file:// URL (400)', async () => {
    const start = new URL(`http://public.example:${port}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`);
    expect(await statusOf(fetchToFile({ ...serve, plainHttp: true }, start, { ...opts, open: await recordingOpen() }))).toBe(400);
  });

  it('allows private addresses with --allow-private-network', async () => {
    expect(await statusOf(fetchToFile({ ...serve, privateNetwork: true, plainHttp: true }, new URL(`http://docs.example:${port}/guide.md`), opts))).toBe('ok');
  });
});
