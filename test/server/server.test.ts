/**
 * `serve` over real loopback sockets: routing, auth, bodies, the error body,
 * the same answers through HttpTransport as through executeOperation, graceful
 * close, and concurrency.
 */
import { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { RouteId } from '../../src/api/route-id.js';
import { routes } from '../../src/api/table.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { executeOperation, isImplemented } from '../../src/domain/execute.js';
import { type RunningServer, type ServerOptions, parseQuery, startServer } from '../../src/server/server.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { Store, StoreWriter, TransactOptions } from '../../src/store/types.js';
import { HttpTransport } from '../../src/transport/http.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { BUILD, VERSION } from '../../src/version.js';

/** Which routes have a domain handler (decided before the suites are declared). */
const implementedFlags = await Promise.all(routes.map((r) => isImplemented(r.id)));

const ORIGIN = 'http://docs.test';

interface Seeded {
  store: MemoryStore;
  token: string;
  orgId: string;
  userId: string;
  clock: ReturnType<typeof manualClock>;
  ids: ReturnType<typeof sequentialIds>;
}

async function seededStore(): Promise<Seeded> {
  const store = new MemoryStore();
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const ids = sequentialIds('x');
  const result = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: ORIGIN }),
  );
  return { store, token: result.token, orgId: result.organization.id, userId: result.user.id, clock, ids };
}

let client: Agent;
beforeAll(() => {
  client = new Agent();
});
afterAll(async () => {
  await client.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string | undefined; body?: string; headers?: Record<string, string>; dispatcher?: Dispatcher } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  const response = await request(base + path, {
    method: method as Dispatcher.HttpMethod,
    headers,
    body: options.body,
    dispatcher: options.dispatcher ?? client,
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

async function start(seed: Seeded, extra: Partial<ServerOptions> = {}): Promise<RunningServer> {
  return startServer({ store: seed.store, host: '127.0.0.1', port: 0, origin: ORIGIN, clock: seed.clock, ids: seed.ids, ...extra });
}

describe('serve: routing, auth and bodies', () => {
  let seed: Seeded;
  let server: RunningServer;
  const logged: string[] = [];

  beforeEach(async () => {
    seed = await seededStore();
    logged.length = 0;
    server = await start(seed, { log: (line) => logged.push(line), maxBodyBytes: 1024 });
  });
  afterEach(async () => {
    await server.close();
  });

  it('listens on 127.0.0.1 with the port it got', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('401 without a token, with another scheme, and with an unknown token', async () => {
    const missing = await call(server.url, 'GET', '/v1/user');
    expect(missing.status).toBe(401);
    expect(missing.text).toBe('{"error":{"code":401,"message":"Missing Authorization: Bearer token"}}');
    expect(missing.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    const basic = await call(server.url, 'GET', '/v1/user', { headers: { authorization: 'Basic YTpi' } });
    expect(basic.status).toBe(401);
    const wrong = await call(server.url, 'GET', '/v1/user', { token: 'gb_api_nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toBe('{"error":{"code":401,"message":"Invalid API token"}}');
  });

  it('answers an authenticated request', async () => {
    const answer = await call(server.url, 'GET', '/v1/user', { token: seed.token });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ id: seed.userId });
  });

  it('404 for an unknown path, with the exact error body', async () => {
    const answer = await call(server.url, 'GET', '/v1/nope', { token: seed.token });
    expect(answer.status).toBe(404);
    expect(answer.text).toBe('{"error":{"code":404,"message":"No operation matches GET /v1/nope"}}');
    const outside = await call(server.url, 'GET', '/favicon.ico');
    expect(outside.status).toBe(404);
    expect(outside.json).toEqual({ error: { code: 404, message: 'No operation matches GET /favicon.ico' } });
  });

  it('405 with Allow for a known path and another method; OPTIONS lists the methods', async () => {
    const answer = await call(server.url, 'PUT', '/v1/spaces/abc', { token: seed.token });
    expect(answer.status).toBe(405);
    const allow = String(answer.headers.allow).split(', ').sort();
    expect(allow).toEqual(['DELETE', 'GET', 'PATCH']);
    expect(answer.json).toEqual({
      error: { code: 405, message: `PUT is not allowed on /v1/spaces/abc (allowed: ${answer.headers.allow})` },
    });
    const options = await call(server.url, 'OPTIONS', '/v1/spaces/abc');
    expect(options.status).toBe(204);
    expect(String(options.headers.allow).split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
  });

  it('GET /v1/ answers the API information without a token', async () => {
    const answer = await call(server.url, 'GET', '/v1/');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ version: VERSION, build: BUILD });
    expect((await call(server.url, 'GET', '/v1')).status).toBe(200);
  });

  it('415 for a body that is not JSON', async () => {
    const answer = await call(server.url, 'POST', `/v1/orgs/${seed.orgId}/collections`, {
      token: seed.token,
      body: 'title=Guides',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(415);
    expect(answer.json).toEqual({ error: { code: 415, message: 'Content-Type must be application/json' } });
  });

  it('400 for invalid JSON', async () => {
    const answer = await call(server.url, 'POST', `/v1/orgs/${seed.orgId}/collections`, {
      token: seed.token,
      body: '{"title":',
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toBe('{"error":{"code":400,"message":"Request body is not valid JSON"}}');
  });

  it('413 for a body over the limit (declared or streamed)', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(2000) });
    const declared = await call(server.url, 'POST', `/v1/orgs/${seed.orgId}/collections`, { token: seed.token, body: big });
    expect(declared.status).toBe(413);
    expect(declared.json).toEqual({ error: { code: 413, message: 'Request body is larger than 1 KB' } });
    const chunks = Readable.from(Array.from({ length: 10 }, () => Buffer.from('x'.repeat(500))));
    const response = await request(`${server.url}/v1/orgs/${seed.orgId}/collections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seed.token}`, 'content-type': 'application/json' },
      body: chunks,
      dispatcher: client,
    });
    expect(response.statusCode).toBe(413);
    await response.body.dump();
    // The server is still fine afterwards.
    expect((await call(server.url, 'GET', '/v1/user', { token: seed.token })).status).toBe(200);
  });

  it('400 from validation, with the field named', async () => {
    const answer = await call(server.url, 'POST', `/v1/orgs/${seed.orgId}/collections`, {
      token: seed.token,
      body: JSON.stringify({ title: 'x'.repeat(51) }),
    });
    expect(answer.status).toBe(400);
    expect((answer.json as { error: { message: string } }).error.message).toMatch(/title/);
  });

  const unimplemented = routes.find((r, index) => r.method === 'GET' && !implementedFlags[index]);
  it.skipIf(!unimplemented)('501 for an operation that is not implemented yet', async () => {
    const route = unimplemented as NonNullable<typeof unimplemented>;
    const path = route.path.replace(/\{[^}]+\}/g, 'x');
    const answer = await call(server.url, 'GET', path, { token: seed.token });
    expect(answer.status).toBe(501);
    expect(answer.text).toBe(JSON.stringify({ error: { code: 501, message: `${route.id} is not implemented yet` } }));
  });

  it('501 naming the operation for the real API\'s operations docsctl only declares, never "No operation matches"', async () => {
    const segments = await call(server.url, 'GET', `/v1/orgs/${seed.orgId}/sites/s1/topics`, { token: seed.token });
    expect(segments.status).toBe(501);
    expect(segments.json).toEqual({ error: { code: 501, message: 'listSiteTopics is not implemented yet' } });
    const ask = await call(server.url, 'POST', `/v1/orgs/${seed.orgId}/ask`, { token: seed.token, body: '{"query":"how?"}' });
    expect(ask.json).toEqual({ error: { code: 501, message: 'askInOrganization is not implemented yet' } });
  });

  it('500 "Internal error" for an unexpected failure: the stack goes to the log, not to the client', async () => {
    await server.close();
    server = await start(seed, {
      log: (line) => logged.push(line),
      resolveActor: () => {
        throw new Error('boom at the bottom');
      },
    });
    const answer = await call(server.url, 'GET', '/v1/user', { token: seed.token });
    expect(answer.status).toBe(500);
    const requestId = answer.headers['x-request-id'] as string;
    expect(requestId).toMatch(/^\w+-\d+$/);
    expect(answer.text).toBe(`{"error":{"code":500,"message":"Internal error (request id ${requestId})"}}`);
    expect(logged.join('\n')).toContain('boom at the bottom');
    expect(logged.join('\n')).toContain(`request ${requestId}`);
    expect(logged.join('\n')).toContain('server.test.ts');
  });

  it('201 with Location on create, then the object by GET; 205 then 204 on delete', async () => {
    const created = await call(server.url, 'POST', `/v1/orgs/${seed.orgId}/collections`, {
      token: seed.token,
      body: JSON.stringify({ title: 'Guides' }),
    });
    expect(created.status).toBe(201);
    const body = created.json as { id: string; title: string; urls: { location: string } };
    expect(body.title).toBe('Guides');
    expect(created.headers.location).toBe(body.urls.location);
    expect(body.urls.location).toBe(`${ORIGIN}/v1/collections/${body.id}`);

    const fetched = await call(server.url, 'GET', new URL(body.urls.location).pathname, { token: seed.token });
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual(body);

    const deleted = await call(server.url, 'DELETE', `/v1/collections/${body.id}`, { token: seed.token });
    expect(deleted.status).toBe(205);
    expect(deleted.text).toBe('');
    const again = await call(server.url, 'DELETE', `/v1/collections/${body.id}`, { token: seed.token });
    expect([204, 404]).toContain(again.status);
  });

  it('parses repeated query keys into arrays', () => {
    expect(parseQuery('a=1&b=2&b=3&c=x%20y&constructor=k&__proto__=p')).toEqual({
      a: '1',
      b: ['2', '3'],
      c: 'x y',
      constructor: 'k',
    });
    expect(parseQuery('')).toEqual({});
  });

  it('passes query parameters to the operation (limit / next.page)', async () => {
    for (const title of ['A', 'B', 'C']) {
      await call(server.url, 'POST', `/v1/orgs/${seed.orgId}/spaces`, { token: seed.token, body: JSON.stringify({ title }) });
    }
    const first = await call(server.url, 'GET', `/v1/orgs/${seed.orgId}/spaces?limit=2`, { token: seed.token });
    expect(first.status).toBe(200);
    const page = first.json as { items: unknown[]; next?: { page: string } };
    expect(page.items).toHaveLength(2);
    expect(page.next?.page).toBeTruthy();
    const second = await call(
      server.url,
      'GET',
      `/v1/orgs/${seed.orgId}/spaces?limit=2&page=${encodeURIComponent(page.next?.page ?? '')}`,
      { token: seed.token },
    );
    expect((second.json as { items: unknown[] }).items).toHaveLength(1);
    const tooMany = await call(server.url, 'GET', `/v1/orgs/${seed.orgId}/spaces?limit=5000`, { token: seed.token });
    expect(tooMany.status).toBe(400);
  });
});

describe('serve through HttpTransport = executeOperation', () => {
  type Call = { route: RouteId; params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
  type Outcome = { status: number; body: unknown } | { error: { status: number; message: string } };

  /** Runs `calls` in order; `{name}` in a param refers to the `id` returned by the call named `name`. */
  async function run(
    calls: Array<Call & { name?: string }>,
    send: (call: Call) => Promise<{ status: number; body: unknown }>,
    orgId: string,
  ): Promise<Outcome[]> {
    const names: Record<string, string> = { org: orgId };
    const outcomes: Outcome[] = [];
    for (const step of calls) {
      const params = Object.fromEntries(
        Object.entries(step.params ?? {}).map(([k, v]) => [k, v.replace(/\{(\w+)\}/g, (_, n: string) => names[n] ?? n)]),
      );
      const body =
        step.body && typeof step.body === 'object'
          ? JSON.parse(JSON.stringify(step.body).replace(/\{(\w+)\}/g, (_, n: string) => names[n] ?? n))
          : step.body;
      try {
        const result = await send({ route: step.route, params, query: step.query ?? {}, body });
        outcomes.push({ status: result.status, body: result.body });
        const id = (result.body as { id?: unknown } | undefined)?.id;
        if (step.name && typeof id === 'string') names[step.name] = id;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        outcomes.push({ error: { status: error.status, message: error.message } });
      }
    }
    return outcomes;
  }

  const scenario: Array<Call & { name?: string }> = [
    { route: 'getAuthenticatedUser' },
    { route: 'listOrganizationsForAuthenticatedUser' },
    { route: 'getOrganizationById', params: { organizationId: '{org}' } },
    { route: 'createCollection', params: { organizationId: '{org}' }, body: { title: 'Guides' }, name: 'guides' },
    { route: 'getCollectionById', params: { collectionId: '{guides}' } },
    { route: 'updateCollectionById', params: { collectionId: '{guides}' }, body: { description: 'How-tos' } },
    { route: 'createSpace', params: { organizationId: '{org}' }, body: { title: 'Setup', parent: '{guides}' }, name: 'setup' },
    { route: 'createSpace', params: { organizationId: '{org}' }, body: { title: 'Install', parent: '{guides}' } },
    { route: 'listSpacesInCollectionById', params: { collectionId: '{guides}' }, query: { limit: 1 } },
    { route: 'listSpacesInOrganizationById', params: { organizationId: '{org}' }, query: { limit: '10' } },
    { route: 'updateSpaceById', params: { spaceId: '{setup}' }, body: { title: 'x'.repeat(51) } },
    { route: 'getSpaceById', params: { spaceId: 'does-not-exist' } },
    { route: 'deleteSpaceById', params: { spaceId: '{setup}' } },
    { route: 'deleteSpaceById', params: { spaceId: '{setup}' } },
    { route: 'getCollectionById', params: { collectionId: 'nope' } },
  ];

  it('gives the same statuses, bodies and errors in both paths', async () => {
    const remoteSeed = await seededStore();
    const localSeed = await seededStore();
    const server = await start(remoteSeed);
    const transport = new HttpTransport({ endpoint: `${server.url}/v1/`, token: remoteSeed.token });
    try {
      const remote = await run(
        scenario,
        (c) => transport.request(c.route, { params: c.params ?? {}, query: c.query ?? {}, body: c.body }),
        remoteSeed.orgId,
      );
      const route = (id: string) => {
        const found = routes.find((r) => r.id === id);
        if (!found) throw new Error(id);
        return found;
      };
      const local = await run(
        scenario,
        async (c) => {
          const result = await executeOperation(
            { store: localSeed.store, actor: { userId: localSeed.userId }, clock: localSeed.clock, ids: localSeed.ids, origin: ORIGIN },
            route(c.route),
            { params: c.params ?? {}, query: c.query ?? {}, body: c.body },
          );
          return { status: result.status, body: result.body };
        },
        localSeed.orgId,
      );
      expect(remote).toEqual(local);
      // Sanity: the scenario exercised successes and errors.
      expect(remote.some((o) => 'status' in o && o.status === 201)).toBe(true);
      expect(remote.some((o) => 'error' in o && o.error.status === 404)).toBe(true);
      expect(remote.some((o) => 'error' in o && o.error.status === 400)).toBe(true);
      // The same operations through raw().
      const viaRaw = await transport.raw('GET', `/v1/orgs/${remoteSeed.orgId}/spaces?limit=1`);
      expect(viaRaw.status).toBe(200);
      expect((viaRaw.body as { items: unknown[] }).items).toHaveLength(1);
    } finally {
      await transport.close();
      await server.close();
    }
  });
});

/** A MemoryStore whose transactions wait for `release()`. */
class GatedStore implements Store {
  readonly location = 'gated';
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => {};
  entered = 0;
  constructor(private readonly inner: MemoryStore) {}
  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }
  release(): void {
    this.open();
  }
  read() {
    return this.inner.read();
  }
  async transact<T>(fn: (tx: StoreWriter) => T | Promise<T>, options?: TransactOptions): Promise<T> {
    this.entered++;
    await this.gate;
    return this.inner.transact(fn, options);
  }
  async close(): Promise<void> {}
}

describe('serve: graceful close and concurrency', () => {
  it('keeps idle connections 30 s and says so (a client pausing a few seconds between calls reuses its socket safely)', async () => {
    const seed = await seededStore();
    const server = await start(seed);
    const response = await request(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${seed.token}` }, dispatcher: client });
    await response.body.text();
    expect(response.headers['keep-alive']).toBe('timeout=30');
    await server.close();
  });

  it('close() lets an in-flight request finish, refuses new connections, then resolves', async () => {
    const seed = await seededStore();
    const store = new GatedStore(seed.store);
    const server = await start(seed, { store });
    // An idle keep-alive connection must not hold close() up.
    expect((await call(server.url, 'GET', '/v1/user', { token: seed.token })).status).toBe(200);

    store.hold();
    const inFlight = call(server.url, 'POST', `/v1/orgs/${seed.orgId}/collections`, {
      token: seed.token,
      body: JSON.stringify({ title: 'Late' }),
      dispatcher: new Agent(),
    });
    while (store.entered === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    const fresh = new Agent();
    await expect(call(server.url, 'GET', '/v1/user', { token: seed.token, dispatcher: fresh })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
    await fresh.close();

    store.release();
    const answer = await inFlight;
    expect(answer.status).toBe(201);
    expect(answer.headers.connection).toBe('close');
    await closing;
    expect(closed).toBe(true);
    expect(server.close()).toBeInstanceOf(Promise); // idempotent
    await server.close();
  });

  it('close() gives up on a request that never ends after closeTimeoutMs', async () => {
    const seed = await seededStore();
    const store = new GatedStore(seed.store);
    const server = await start(seed, { store, closeTimeoutMs: 200 });
    store.hold();
    const stuck = call(server.url, 'POST', `/v1/orgs/${seed.orgId}/collections`, {
      token: seed.token,
      body: '{}',
      dispatcher: new Agent(),
    }).catch((error: unknown) => error);
    while (store.entered === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(15_000); // not the 30 s drain: it did not wait for the stuck write
    expect(await stuck).toBeInstanceOf(Error);
    store.release();
  });

  it('answers 50 concurrent requests (writes and reads)', async () => {
    const seed = await seededStore();
    const server = await start(seed);
    const transport = new HttpTransport({ endpoint: server.url, token: seed.token });
    try {
      const writes = Array.from({ length: 25 }, (_, i) =>
        transport.request('createCollection', { params: { organizationId: seed.orgId }, body: { title: `C${i}` } }),
      );
      const reads = Array.from({ length: 25 }, () => transport.request('getAuthenticatedUser', {}));
      const results = await Promise.all([...writes, ...reads]);
      expect(results.map((r) => r.status)).toEqual([...Array(25).fill(201), ...Array(25).fill(200)]);
      const ids = new Set(results.slice(0, 25).map((r) => (r.body as { id: string }).id));
      expect(ids.size).toBe(25);
      const list = await transport.request('listCollectionsInOrganizationById', {
        params: { organizationId: seed.orgId },
        query: { limit: 100 },
      });
      expect((list.body as { items: unknown[] }).items).toHaveLength(25);
    } finally {
      await transport.close();
      await server.close();
    }
  });

  it('a busy port is a clear usage error', async () => {
    const seed = await seededStore();
    const first = await start(seed);
    try {
      await expect(start(seed, { port: first.port })).rejects.toThrow(`Port ${first.port} is already in use on 127.0.0.1`);
    } finally {
      await first.close();
    }
  });
});
