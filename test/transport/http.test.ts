/**
 * HttpTransport with each of its HTTP clients (node:http for one-shot commands,
 * undici for long runs): the same tests, over real loopback sockets, so the two
 * clients are held to the same requests, answers, retries, errors and debug log.
 */
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, ExitCode, NetworkError, UsageError } from '../../src/api/errors.js';
import {
  type HttpClientKind,
  HttpTransport,
  type HttpTransportOptions,
  buildQueryString,
  parseEndpoint,
} from '../../src/transport/http.js';
import { type ScriptedReply, ScriptedServer, type SeenRequest as Seen } from '../helpers/scripted-server.js';

const TOKEN = 'gb_api_s3cretS3cretS3cretS3cret';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('endpoint and query string (no client involved)', () => {
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

  it('builds the query string: arrays repeat, booleans are true/false, undefined is skipped', () => {
    expect(buildQueryString({ limit: 10, page: undefined, nested: true, off: false, type: ['a', 'b c'] })).toBe(
      '?limit=10&nested=true&off=false&type=a&type=b+c',
    );
    expect(buildQueryString({})).toBe('');
  });
});

describe.each<HttpClientKind>(['node', 'undici'])('HttpTransport with the %s client', (client) => {
  let server: ScriptedServer;
  let waits: number[];
  const opened: HttpTransport[] = [];

  beforeEach(async () => {
    server = await ScriptedServer.start();
    waits = [];
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((t) => t.close()));
    await server.close();
  });

  function transport(options: Partial<HttpTransportOptions> = {}): HttpTransport {
    const created = new HttpTransport({
      endpoint: server.origin,
      token: TOKEN,
      client,
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0,
      ...options,
    });
    opened.push(created);
    return created;
  }

  function expectRequest(seen: Seen[], reply: ScriptedReply, options: { times?: number; method?: string } = {}) {
    server.reply(seen, reply, options);
  }

  describe('endpoint and URL building', () => {
    it.each(['', '/v1', '/v1/'])('does not double /v1 (endpoint ORIGIN%s) and encodes path params', async (suffix) => {
      const seen: Seen[] = [];
      expectRequest(seen, { status: 200, body: { id: 'a b/c' } });
      const result = await transport({ endpoint: server.origin + suffix }).request('getSpaceById', {
        params: { spaceId: 'a b/c' },
      });
      expect(seen[0]?.path).toBe('/v1/spaces/a%20b%2Fc');
      expect(result).toEqual({ status: 200, body: { id: 'a b/c' } });
    });

    it('keeps a path prefix of the endpoint', async () => {
      const seen: Seen[] = [];
      expectRequest(seen, { status: 200, body: {} });
      await transport({ endpoint: `${server.origin}/gitbook/v1` }).request('getSpaceById', { params: { spaceId: 'x' } });
      expect(seen[0]?.path).toBe('/gitbook/v1/spaces/x');
    });

    it('sends the query: arrays repeat, booleans are true/false', async () => {
      const seen: Seen[] = [];
      expectRequest(seen, { status: 200, body: { items: [] } });
      await transport().request('listSpacesInCollectionById', {
        params: { collectionId: 'c1' },
        query: { limit: 2, page: 'abc=', flag: true, tag: ['x', 'y'] },
      });
      const url = new URL(seen[0]?.path ?? '', server.origin);
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
    it('sends the bearer token, Accept, User-Agent, and a JSON body with its Content-Type and length', async () => {
      const seen: Seen[] = [];
      expectRequest(seen, { status: 201, body: { id: 's1' } });
      const result = await transport({ userAgent: 'docsctl/9.9.9' }).request('createSpace', {
        params: { organizationId: 'o1' },
        body: { title: 'Handbook é' },
      });
      expect(result).toEqual({ status: 201, body: { id: 's1' } });
      const request = seen[0] as Seen;
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/v1/orgs/o1/spaces');
      expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(request.headers.accept).toBe('application/json');
      expect(request.headers['user-agent']).toBe('docsctl/9.9.9');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['content-length']).toBe(String(Buffer.byteLength('{"title":"Handbook é"}')));
      expect(request.body).toEqual({ title: 'Handbook é' });
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

    it('follows no redirect: a 302 is an error whose hint names the new address', async () => {
      const seen: Seen[] = [];
      expectRequest(seen, { status: 302, headers: { location: 'https://elsewhere.example.com/v1/user' } });
      const error = await rejection(transport().request('getAuthenticatedUser', {}));
      expect(seen).toHaveLength(1);
      expect((error as ApiError).status).toBe(302);
      expect((error as ApiError).hint).toBe(
        'The server redirects to https://elsewhere.example.com/v1/user: use that address as --endpoint.',
      );
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
      const slowDown = { error: { code: 429, message: 'slow down' } };
      expectRequest([], { status: 429, body: slowDown, headers: { 'retry-after': '7' } });
      expectRequest([], { status: 429, body: slowDown, headers: { 'retry-after': 'Sun, 01 Mar 2026 10:00:12 GMT' } });
      expectRequest([], { status: 429, body: slowDown, headers: { 'retry-after': '3600' } });
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
      expect((error as ApiError).hint).toBe(`Rate limited by ${server.host} after 2 retries; try again later.`);
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
      expectRequest([], { reset: true }, { method: 'GET' });
      expectRequest([], { status: 200, body: { ok: 1 } });
      const result = await transport().request('getSpaceById', { params: { spaceId: 's' } });
      expect(result.body).toEqual({ ok: 1 });
      expect(waits).toHaveLength(1);

      const seen: Seen[] = [];
      expectRequest(seen, { reset: true }, { method: 'POST' });
      const error = await rejection(transport().request('createSpace', { params: { organizationId: 'o' }, body: {} }));
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toBe(`Cannot reach ${server.origin}: ECONNRESET`);
      expect((error as NetworkError).exitCode).toBe(ExitCode.network);
      expect(seen).toHaveLength(1);
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

  describe('network failures', () => {
    let silent: Server | undefined;
    afterEach(async () => {
      silent?.closeAllConnections();
      await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
      silent = undefined;
    });

    async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
      silent = createServer(handler);
      await new Promise<void>((resolve) => silent?.listen(0, '127.0.0.1', resolve));
      return (silent.address() as AddressInfo).port;
    }

    it('connection refused → NetworkError (exit 6) naming the endpoint, no retry', async () => {
      const port = await listen(() => undefined);
      await new Promise<void>((resolve) => silent?.close(() => resolve()));
      silent = undefined;
      const error = await rejection(transport({ endpoint: `http://127.0.0.1:${port}/v1` }).request('getAuthenticatedUser', {}));
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toBe(`Cannot reach http://127.0.0.1:${port}: ECONNREFUSED`);
      expect((error as NetworkError).hint).toContain('--endpoint');
      expect((error as NetworkError).exitCode).toBe(ExitCode.network);
      expect(waits).toEqual([]);
    });

    it('a server that never answers → "Timed out after …" NetworkError', async () => {
      const port = await listen(() => {
        /* never answers */
      });
      const started = Date.now();
      const error = await rejection(
        transport({ endpoint: `http://127.0.0.1:${port}`, timeoutMs: 200, retries: 0 }).request('getAuthenticatedUser', {}),
      );
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toBe(`Timed out after 0.2s waiting for 127.0.0.1:${port}`);
      expect((error as NetworkError).hint).toBeTruthy();
      expect((error as NetworkError).exitCode).toBe(ExitCode.network);
      expect(Date.now() - started).toBeLessThan(20_000);
    });

    it('a server that stops in the middle of the body → the same timeout', async () => {
      const port = await listen((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"id":');
      });
      const error = await rejection(
        transport({ endpoint: `http://127.0.0.1:${port}`, timeoutMs: 200, retries: 0 }).request('getAuthenticatedUser', {}),
      );
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toBe(`Timed out after 0.2s waiting for 127.0.0.1:${port}`);
    });

    it('talks keep-alive to a real server and close() releases the sockets', async () => {
      for (let i = 0; i < 5; i++) expectRequest([], { status: 200, body: { n: i } });
      const keepAlive = transport({ endpoint: `${server.origin}/` });
      for (let i = 0; i < 5; i++) {
        const result = await keepAlive.request('getSpaceById', { params: { spaceId: `s${i}` } });
        expect(result.body).toEqual({ n: i });
      }
      // Keep-alive: the sockets are reused (a second one may open while the first is being released).
      expect(server.connections).toBeLessThanOrEqual(2);
      await keepAlive.close();
      await expect(keepAlive.request('getAuthenticatedUser', {})).rejects.toThrow(/after close/);
    });
  });

  describe('debug log', () => {
    it('logs one line per request and response, with the token and URL credentials masked', async () => {
      const lines: string[] = [];
      expectRequest([], { status: 200, body: { id: 's' } });
      await transport({ debug: (line) => lines.push(line) }).request('getSpaceById', { params: { spaceId: 's' } });
      expect(lines[0]).toBe(`→ GET ${server.origin}/v1/spaces/s`);
      expect(lines).toContain('  authorization: Bearer gb_api_****');
      expect(lines.some((line) => /^← 200 OK in \d+ms$/.test(line))).toBe(true);
      expect(lines.join('\n')).not.toContain(TOKEN);
      expect(lines.join('\n')).not.toContain('s3cret');
    });

    it('masks credentials of the endpoint URL (sent as Basic auth when there is no token)', async () => {
      const lines: string[] = [];
      const seen: Seen[] = [];
      expectRequest(seen, { status: 200, body: {} });
      await transport({
        endpoint: `http://ada:hunter2@${server.host}/v1`,
        token: undefined,
        debug: (l) => lines.push(l),
      }).request('getAuthenticatedUser', {});
      expect(seen[0]?.headers.authorization).toBe(`Basic ${Buffer.from('ada:hunter2').toString('base64')}`);
      const text = lines.join('\n');
      expect(text).toContain(`→ GET ${server.origin}/v1/user`);
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
      expect(lines).toContain(`→ GET ${server.origin}/v1/spaces/s (retry 1/3)`);
    });
  });
});

describe('start-up cost', () => {
  const source = (file: string) => readFileSync(new URL(`../../src/transport/${file}`, import.meta.url), 'utf8');
  const staticUndici = /^import\s+(?!type\b)[^;]*from\s+'undici'/gm;

  it('imports nothing of undici at module load (only types); the undici client loads it on first use', () => {
    for (const file of ['http.ts', 'http-client.ts', 'node-http-client.ts', 'undici-client.ts']) {
      expect(source(file).match(staticUndici), file).toBeNull();
    }
    expect(source('http.ts')).toMatch(/import\('\.\/undici-client\.js'\)/);
    expect(source('undici-client.ts')).toMatch(/import\('undici'\)/);
  });
});
