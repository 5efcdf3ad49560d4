/**
 * HttpTransport against undici's MockAgent (no network), plus real loopback
 * sockets for what a mock cannot fake: a connection refused and a server that
 * never answers.
 */
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, ExitCode, NetworkError, UsageError } from '../../src/api/errors.js';
import { HttpTransport, type HttpTransportOptions, buildQueryString, parseEndpoint } from '../../src/transport/http.js';

const ORIGIN = 'https://api.example.com';
const TOKEN = 'gb_api_s3cretS3cretS3cretS3cret';

interface Seen {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

let agent: MockAgent;
let waits: number[];

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  waits = [];
});

afterEach(async () => {
  await agent.close();
});

function transport(options: Partial<HttpTransportOptions> = {}): HttpTransport {
  return new HttpTransport({
    endpoint: ORIGIN,
    token: TOKEN,
    dispatcher: agent,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0,
    ...options,
  });
}

function lowerHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
  } else if (headers instanceof Headers) {
    headers.forEach((value, key) => (out[key.toLowerCase()] = value));
  } else if (headers && typeof headers === 'object') {
    for (const [key, value] of Object.entries(headers)) out[key.toLowerCase()] = String(value);
  }
  return out;
}

/** Intercepts one request (any path) on `origin`, records it, and answers with `reply`. */
function expectRequest(
  seen: Seen[],
  reply: { status: number; body?: unknown; headers?: Record<string, string> },
  options: { origin?: string; times?: number } = {},
) {
  const scope = agent
    .get(options.origin ?? ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply((request) => {
      const text = typeof request.body === 'string' ? request.body : undefined;
      seen.push({
        path: request.path,
        method: request.method,
        headers: lowerHeaders(request.headers),
        body: text === undefined ? undefined : JSON.parse(text),
      });
      const data =
        reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      return {
        statusCode: reply.status,
        data,
        responseOptions: {
          headers: {
            ...(typeof reply.body === 'object' ? { 'content-type': 'application/json' } : {}),
            ...reply.headers,
          },
        },
      };
    });
  if (options.times !== undefined) scope.times(options.times);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('endpoint and URL building', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com/v1', 'https://api.example.com'],
    ['https://api.example.com/v1/', 'https://api.example.com'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
    ['http://127.0.0.1:4000/v1/', 'http://127.0.0.1:4000'],
    ['https://proxy.example.com/gitbook/v1', 'https://proxy.example.com/gitbook'],
  ])('%s → base %s', (endpoint, base) => {
    expect(parseEndpoint(endpoint).base).toBe(base);
  });

  it('rejects an endpoint that is not an http(s) URL', () => {
    expect(() => new HttpTransport({ endpoint: 'api.example.com' })).toThrow(UsageError);
    expect(() => new HttpTransport({ endpoint: 'ftp://api.example.com' })).toThrow(UsageError);
  });

  it.each(['https://api.example.com', 'https://api.example.com/v1', 'https://api.example.com/v1/'])(
    'does not double /v1 (endpoint %s) and encodes path params',
    async (endpoint) => {
      const seen: Seen[] = [];
      expectRequest(seen, { status: 200, body: { id: 'a b/c' } });
      const result = await transport({ endpoint }).request('getSpaceById', { params: { spaceId: 'a b/c' } });
      expect(seen[0]?.path).toBe('/v1/spaces/a%20b%2Fc');
      expect(result).toEqual({ status: 200, body: { id: 'a b/c' } });
    },
  );

  it('keeps a path prefix of the endpoint', async () => {
    const seen: Seen[] = [];
    expectRequest(seen, { status: 200, body: {} }, { origin: 'https://proxy.example.com' });
    await transport({ endpoint: 'https://proxy.example.com/gitbook/v1' }).request('getSpaceById', {
      params: { spaceId: 'x' },
    });
    expect(seen[0]?.path).toBe('/gitbook/v1/spaces/x');
  });

  it('builds the query string: arrays repeat, booleans are true/false, undefined is skipped', async () => {
    expect(buildQueryString({ limit: 10, page: undefined, nested: true, off: false, type: ['a', 'b c'] })).toBe(
      '?limit=10&nested=true&off=false&type=a&type=b+c',
    );
    expect(buildQueryString({})).toBe('');
    const seen: Seen[] = [];
    expectRequest(seen, { status: 200, body: { items: [] } });
    await transport().request('listSpacesInCollectionById', {
      params: { collectionId: 'c1' },
      query: { limit: 2, page: 'abc=', flag: true, tag: ['x', 'y'] },
    });
    const url = new URL(seen[0]?.path ?? '', ORIGIN);
    expect(url.pathname).toBe('/v1/collections/c1/spaces');
    expect(url.searchParams.get('limit')).toBe('2');
    expect(url.searchParams.get('page')).toBe('abc=');
    expect(url.searchParams.get('flag')).toBe('true');
    expect(url.searchParams.getAll('tag')).toEqual(['x', 'y']);
  });

  it('raw() sends the method, path and query as given', async () => {
    const seen: Seen[] = [];
    expectRequest(seen, { status: 200, body: { ok: true } });
    const result = await transport().raw('patch', '/v1/spaces/s1?x=1&x=2', { title: 'T' });
    expect(seen[0]).toMatchObject({ method: 'PATCH', path: '/v1/spaces/s1?x=1&x=2', body: { title: 'T' } });
    expect(result.body).toEqual({ ok: true });
    await expect(transport().raw('GET', 'https://evil.example.com/v1/user')).rejects.toThrow(UsageError);
  });
});

describe('headers and bodies', () => {
  it('sends the bearer token, Accept, User-Agent, and a JSON body with its Content-Type', async () => {
    const seen: Seen[] = [];
    expectRequest(seen, { status: 201, body: { id: 's1' } });
    const result = await transport({ userAgent: 'docsctl/9.9.9' }).request('createSpace', {
      params: { organizationId: 'o1' },
      body: { title: 'Handbook' },
    });
    expect(result).toEqual({ status: 201, body: { id: 's1' } });
    const request = seen[0] as Seen;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/orgs/o1/spaces');
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request.headers.accept).toBe('application/json');
    expect(request.headers['user-agent']).toBe('docsctl/9.9.9');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ title: 'Handbook' });
  });

  it('sends no body, no Content-Type and no Authorization when there is none', async () => {
    const seen: Seen[] = [];
    expectRequest(seen, { status: 200, body: {} });
    await transport({ token: undefined }).request('getSpaceById', { params: { spaceId: 's' }, body: { ignored: 1 } });
    const request = seen[0] as Seen;
    expect(request.body).toBeUndefined();
    expect(request.headers['content-type']).toBeUndefined();
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['user-agent']).toMatch(/^docsctl\//);
  });

  it.each([204, 205])('a %i answers with an undefined body', async (status) => {
    const seen: Seen[] = [];
    expectRequest(seen, { status });
    const result = await transport().request('deleteSpaceById', { params: { spaceId: 's1' } });
    expect(result).toEqual({ status, body: undefined });
    expect(seen[0]?.method).toBe('DELETE');
  });

  it('a 2xx whose body is not JSON is a clear 502', async () => {
    expectRequest([], { status: 200, body: '<html>login</html>', headers: { 'content-type': 'text/html' } });
    const error = await rejection(transport().request('getSpaceById', { params: { spaceId: 's' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(502);
    expect((error as ApiError).message).toBe('The 200 response to GET /v1/spaces/s is not valid JSON');
    expect((error as ApiError).hint).toContain('--endpoint');
  });
});

describe('error answers', () => {
  it('turns the API error body into the same ApiError', async () => {
    expectRequest([], { status: 404, body: { error: { code: 404, message: 'Space s not found' } } });
    const error = await rejection(transport().request('getSpaceById', { params: { spaceId: 's' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).message).toBe('Space s not found');
    expect((error as ApiError).toBody()).toEqual({ error: { code: 404, message: 'Space s not found' } });
    expect((error as ApiError).exitCode).toBe(ExitCode.notFound);
  });

  it('a non-JSON error body gives "<status> <text> from <METHOD path>"', async () => {
    expectRequest([], { status: 500, body: '<html>oops</html>', headers: { 'content-type': 'text/html' } });
    const error = await rejection(transport().request('getSpaceById', { params: { spaceId: 's' }, query: { a: 1 } }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect((error as ApiError).message).toBe('500 Internal Server Error from GET /v1/spaces/s');
  });

  it('401 and 403 carry a hint about the token', async () => {
    expectRequest([], { status: 401, body: { error: { code: 401, message: 'Invalid API token' } } });
    const error = await rejection(transport().request('getAuthenticatedUser', {}));
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).exitCode).toBe(ExitCode.auth);
    expect((error as ApiError).hint).toMatch(/--token \/ DOCSCTL_TOKEN/);
    expect((error as ApiError).hint).not.toContain(TOKEN);
    expectRequest([], { status: 403, body: { error: { code: 403, message: 'Needs admin' } } });
    const forbidden = await rejection(transport().request('getAuthenticatedUser', {}));
    expect((forbidden as ApiError).hint).toMatch(/DOCSCTL_TOKEN/);
  });
});

describe('retries', () => {
  it('retries a 503 with backoff, then succeeds', async () => {
    const seen: Seen[] = [];
    expectRequest(seen, { status: 503, body: { error: { code: 503, message: 'busy' } } }, { times: 2 });
    expectRequest(seen, { status: 200, body: { id: 's' } });
    const result = await transport().request('getSpaceById', { params: { spaceId: 's' } });
    expect(result.body).toEqual({ id: 's' });
    expect(seen).toHaveLength(3);
    // random() = 0: half of 500 ms, then half of 1 s.
    expect(waits).toEqual([250, 500]);
  });

  it('honours Retry-After in seconds and as an HTTP date, capped at 60 s', async () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    expectRequest([], { status: 429, body: { error: { code: 429, message: 'slow down' } }, headers: { 'retry-after': '7' } });
    expectRequest([], {
      status: 429,
      body: { error: { code: 429, message: 'slow down' } },
      headers: { 'retry-after': 'Sun, 01 Mar 2026 10:00:12 GMT' },
    });
    expectRequest([], { status: 429, body: { error: { code: 429, message: 'slow down' } }, headers: { 'retry-after': '3600' } });
    expectRequest([], { status: 200, body: {} });
    await transport({ now: () => now }).request('getSpaceById', { params: { spaceId: 's' } });
    expect(waits).toEqual([7000, 12000, 60000]);
  });

  it('gives up after `retries` retries with ApiError(429) → exit 7', async () => {
    const seen: Seen[] = [];
    expectRequest(seen, { status: 429, body: { error: { code: 429, message: 'Rate limit exceeded' } } }, { times: 3 });
    const error = await rejection(transport({ retries: 2 }).request('getSpaceById', { params: { spaceId: 's' } }));
    expect(seen).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).message).toBe('Rate limit exceeded');
    expect((error as ApiError).exitCode).toBe(ExitCode.rateLimited);
    expect((error as ApiError).hint).toBe('Rate limited by api.example.com after 2 retries; try again later.');
  });

  it('uses X-RateLimit-Reset when a 429 has no Retry-After', async () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    expectRequest([], {
      status: 429,
      body: { error: { code: 429, message: 'slow down' } },
      headers: { 'x-ratelimit-reset': String(now / 1000 + 5) },
    });
    expectRequest([], { status: 200, body: {} });
    await transport({ now: () => now }).request('getSpaceById', { params: { spaceId: 's' } });
    expect(waits).toEqual([5000]);
  });

  it('does not retry a POST on 502, but does on 503', async () => {
    const seen: Seen[] = [];
    expectRequest(seen, { status: 502, body: { error: { code: 502, message: 'bad gateway' } } });
    const error = await rejection(transport().request('createSpace', { params: { organizationId: 'o' }, body: {} }));
    expect((error as ApiError).status).toBe(502);
    expect(seen).toHaveLength(1);
    expectRequest(seen, { status: 503, body: { error: { code: 503, message: 'busy' } } });
    expectRequest(seen, { status: 201, body: { id: 'x' } });
    const result = await transport().request('createSpace', { params: { organizationId: 'o' }, body: {} });
    expect(result.status).toBe(201);
    expect(seen).toHaveLength(3);
  });

  it('retries a GET whose connection was reset, but not a POST', async () => {
    const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    agent.get(ORIGIN).intercept({ path: () => true, method: 'GET' }).replyWithError(reset());
    expectRequest([], { status: 200, body: { ok: 1 } });
    const result = await transport().request('getSpaceById', { params: { spaceId: 's' } });
    expect(result.body).toEqual({ ok: 1 });
    expect(waits).toHaveLength(1);

    agent.get(ORIGIN).intercept({ path: () => true, method: 'POST' }).replyWithError(reset());
    const error = await rejection(transport().request('createSpace', { params: { organizationId: 'o' }, body: {} }));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe('Cannot reach https://api.example.com: ECONNRESET');
    expect(waits).toHaveLength(1);
  });

  it('retries: 0 sends once', async () => {
    const seen: Seen[] = [];
    expectRequest(seen, { status: 503, body: { error: { code: 503, message: 'busy' } } });
    const error = await rejection(transport({ retries: 0 }).request('getSpaceById', { params: { spaceId: 's' } }));
    expect((error as ApiError).status).toBe(503);
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('network failures (real sockets)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('connection refused → NetworkError (exit 6) naming the endpoint, no retry', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = new HttpTransport({ endpoint: `http://127.0.0.1:${port}/v1`, token: TOKEN, sleep: async (ms) => void waits.push(ms) });
    try {
      const error = await rejection(client.request('getAuthenticatedUser', {}));
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toBe(`Cannot reach http://127.0.0.1:${port}: ECONNREFUSED`);
      expect((error as NetworkError).hint).toContain('--endpoint');
      expect((error as NetworkError).exitCode).toBe(ExitCode.network);
      expect(waits).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a server that never answers → "Timed out after …" NetworkError', async () => {
    server = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const client = new HttpTransport({ endpoint: `http://127.0.0.1:${port}`, token: TOKEN, timeoutMs: 200, retries: 0 });
    try {
      const started = Date.now();
      const error = await rejection(client.request('getAuthenticatedUser', {}));
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toBe(`Timed out after 0.2s waiting for 127.0.0.1:${port}`);
      expect((error as NetworkError).hint).toBeTruthy();
      expect((error as NetworkError).exitCode).toBe(ExitCode.network);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await client.close();
    }
  });

  it('talks keep-alive to a real server and close() releases the agent', async () => {
    let connections = 0;
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url }));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const client = new HttpTransport({ endpoint: `http://127.0.0.1:${port}/`, token: TOKEN });
    for (let i = 0; i < 5; i++) {
      const result = await client.request('getSpaceById', { params: { spaceId: `s${i}` } });
      expect(result.body).toEqual({ path: `/v1/spaces/s${i}` });
    }
    // Keep-alive: the sockets are reused (undici may open a second one while the first is being released).
    expect(connections).toBeLessThanOrEqual(2);
    await client.close();
    await expect(client.request('getAuthenticatedUser', {})).rejects.toThrow(/after close/);
  });
});

describe('debug log', () => {
  it('logs one line per request and response, with the token and URL credentials masked', async () => {
    const lines: string[] = [];
    expectRequest([], { status: 200, body: { id: 's' } });
    await transport({ debug: (line) => lines.push(line) }).request('getSpaceById', { params: { spaceId: 's' } });
    expect(lines[0]).toBe('→ GET https://api.example.com/v1/spaces/s');
    expect(lines).toContain('  authorization: Bearer gb_api_****');
    expect(lines.some((line) => /^← 200 OK in \d+ms$/.test(line))).toBe(true);
    expect(lines.join('\n')).not.toContain(TOKEN);
    expect(lines.join('\n')).not.toContain('s3cret');
  });

  it('masks credentials of the endpoint URL (sent as Basic auth when there is no token)', async () => {
    const lines: string[] = [];
    const seen: Seen[] = [];
    expectRequest(seen, { status: 200, body: {} });
    await transport({ endpoint: 'https://ada:hunter2@api.example.com/v1', token: undefined, debug: (l) => lines.push(l) }).request(
      'getAuthenticatedUser',
      {},
    );
    expect(seen[0]?.headers.authorization).toBe(`Basic ${Buffer.from('ada:hunter2').toString('base64')}`);
    const text = lines.join('\n');
    expect(text).toContain('→ GET https://api.example.com/v1/user');
    expect(text).toContain('authorization: Basic ****');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain(Buffer.from('ada:hunter2').toString('base64'));
  });

  it('logs retries and their waits', async () => {
    const lines: string[] = [];
    expectRequest([], { status: 503, body: { error: { code: 503, message: 'busy' } }, headers: { 'retry-after': '2' } });
    expectRequest([], { status: 200, body: {} });
    await transport({ debug: (l) => lines.push(l) }).request('getSpaceById', { params: { spaceId: 's' } });
    expect(lines).toContain('  waiting 2000ms before retry 1/3');
    expect(lines).toContain('→ GET https://api.example.com/v1/spaces/s (retry 1/3)');
  });
});

describe('start-up cost', () => {
  it('does not import undici at the top of the module (only types)', () => {
    const source = readFileSync(new URL('../../src/transport/http.ts', import.meta.url), 'utf8');
    const staticImports = source.match(/^import\s+(?!type\b)[^;]*from\s+'undici'/gm);
    expect(staticImports).toBeNull();
    expect(source).toMatch(/import\('undici'\)/);
  });
});
