/**
 * serve under hostile or heavy use: rate limiting, refusing before reading a body,
 * 5xx logging, and URLs built from the bound address.
 */
import { connect } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { parseRateLimit } from '../../src/server/rate-limit.js';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/server.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';

async function seeded() {
  const store = new MemoryStore();
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const ids = sequentialIds('x');
  const boot = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://unused' }),
  );
  return { store, clock, ids, token: boot.token, orgId: boot.organization.id };
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(extra: Partial<ServerOptions> = {}) {
  const seed = await seeded();
  server = await startServer({ store: seed.store, host: '127.0.0.1', port: 0, clock: seed.clock, ids: seed.ids, ...extra });
  return { ...seed, server };
}

async function get(url: string, token: string) {
  const response = await request(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text };
}

describe('serve --rate-limit', () => {
  it('parses N/s, N/min and N/h, and refuses anything else', () => {
    expect(parseRateLimit('10/s')).toEqual({ limit: 10, windowMs: 1000 });
    expect(parseRateLimit('60/min')).toEqual({ limit: 60, windowMs: 60_000 });
    expect(parseRateLimit('1000/h')).toEqual({ limit: 1000, windowMs: 3_600_000 });
    for (const bad of ['10', '0/s', 'ten/s', '10/day', '-1/s']) expect(() => parseRateLimit(bad)).toThrow(/--rate-limit expects N\/s/);
  });

  it('answers 429 with Retry-After and X-RateLimit-* beyond the limit, per token, until the window turns', async () => {
    const { server: s, token, clock } = await serve({ rateLimit: { limit: 3, windowMs: 1000 } });
    clock.set('2026-03-01T10:00:00.250Z');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(`${s.url}/v1/user`, token));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    const refused = answers[3] as (typeof answers)[number];
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    expect(refused.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-03-01T10:00:01.000Z') / 1000));
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.text)).toEqual({ error: { code: 429, message: 'Rate limit of 3/s exceeded: retry after 1 s' } });
    // Another client has its own budget; the next window starts afresh.
    expect((await get(`${s.url}/v1/user`, 'gb_api_other')).status).toBe(401);
    clock.advance(1000);
    expect((await get(`${s.url}/v1/user`, token)).status).toBe(200);
  });
});

/** Sends a request head by hand and returns what the server answers, with how long it took. */
function rawRequest(port: number, head: string, bodyBytes: number): Promise<{ text: string; ms: number; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('connect', () => {
      socket.write(head);
      socket.write(Buffer.alloc(bodyBytes, 0x61));
    });
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text, ms: Date.now() - started, closed: true }));
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close after 10 s; got ${JSON.stringify(text)}`));
    }, 10_000).unref();
  });
}

describe('serve resource limits', () => {
  it('refuses an unauthenticated request with a huge declared body at once, closing the connection unread', async () => {
    const { server: s, orgId } = await serve();
    const head = [
      `POST /v1/orgs/${orgId}/collections HTTP/1.1`,
      'Host: x',
      'Content-Type: application/json',
      `Content-Length: ${500 * 1024 * 1024}`,
      '',
      '',
    ].join('\r\n');
    // 64 KB of a declared 500 MB: the answer must not wait for the rest.
    const answer = await rawRequest(s.port, head, 64 * 1024);
    expect(answer.text).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.text.toLowerCase()).toContain('connection: close');
    expect(answer.text).toContain('Missing Authorization');
    // The server goes on answering others.
    expect((await request(`${s.url}/v1/`)).statusCode).toBe(200);
  });

  it('logs every 5xx with its request id and stack; the client sees neither stack nor internals', async () => {
    const logged: string[] = [];
    const { server: s, token } = await serve({
      log: (line) => logged.push(line),
      resolveActor: () => {
        throw new TypeError('cannot read properties of undefined (secret internals)');
      },
    });
    const answer = await get(`${s.url}/v1/user`, token);
    expect(answer.status).toBe(500);
    const id = answer.headers['x-request-id'] as string;
    expect(answer.text).not.toMatch(/internals|\bat\b|\.ts/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(`500 GET /v1/user request ${id}`);
    expect(logged[0]).toMatch(/TypeError: cannot read properties[\s\S]*\n\s+at /);
  });

  it.each([
    ['a malformed escape in a path parameter', 'GET', '/v1/spaces/%E0%A4%A', undefined],
    ['a page cursor that is not one', 'GET', '/v1/orgs/ORG/spaces?page=%00%ff', undefined],
    ['a limit that is not a number', 'GET', '/v1/orgs/ORG/spaces?limit=1e400', undefined],
    ['a body that is an array', 'POST', '/v1/orgs/ORG/spaces', '[]'],
    ['a body with a prototype key', 'POST', '/v1/orgs/ORG/spaces', '{"__proto__":{"title":1},"title":{"x":1}}'],
    ['a deeply nested body', 'POST', '/v1/orgs/ORG/spaces', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ])('answers %s with a 4xx, never a 5xx', async (_name, method, path, body) => {
    const { server: s, token, orgId } = await serve();
    const response = await request(`${s.url}${path.replace('ORG', orgId)}`, {
      method: method as 'GET' | 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body } : {}),
    });
    const text = await response.body.text();
    expect(response.statusCode, text).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, text).toBeLessThan(500);
  });
});

describe('serve URLs', () => {
  it('builds Location and urls.* from the bound address when no public URL is given', async () => {
    const { server: s, token, orgId } = await serve();
    const response = await request(`${s.url}/v1/orgs/${orgId}/spaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"title":"Bound"}',
    });
    const body = (await response.body.json()) as { id: string; urls: { location: string; app: string } };
    expect(response.statusCode).toBe(201);
    expect(response.headers.location).toBe(`${s.url}/v1/spaces/${body.id}`);
    expect(body.urls.app.startsWith(`${s.url}/app/`)).toBe(true);
  });
});
