/**
 * `docsctl serve`: the route table over node:http, a stateful emulator of the
 * `/v1` API backed by a Store.
 *
 * One request: match the route (404 / 405 with `Allow`), authenticate the bearer
 * token (401), read a JSON body (415 / 413 / 400), run `executeOperation` — the
 * same core LocalTransport uses — and send its result as JSON. Every error
 * leaves as the API's body `{"error":{"code","message"}}`; an unexpected one is
 * a 500 "Internal error" whose stack goes to `log`, never to the client.
 *
 * Plain node:http with our own router (notes/perf.md §3: ~30k req/s; frameworks
 * cost 25–45%). The hot path allocates little: one bound handler for the server,
 * no per-request logging. Writes are serialised by `store.transact`.
 *
 * serve, one request
 *
 * `server/server.ts`: `/artifacts/` and `/files/` downloads; the rate limit (`server/rate-limit.ts`,
 * fixed window per token or client address, `X-RateLimit-*` on every answer); the route from a
 * segment trie precompiled per method (`api/match.ts`, literal segments before parameters, with
 * backtracking); the bearer token, checked before the body is read (a refusal with an unread body
 * answers `Connection: close`); **one** store snapshot shared by the token lookup and a read operation (`ExecuteEnv.reader`); a GET without a query whose route is
 * `plainGet` skips zod (`executePlainGet`); the answer is serialized once by `executeOperation`
 * (`OperationResult.json`, which the server sends as is; the local mode parses `body` from it).
 * URLs in answers use `--public-url` or the bound address. A 5xx is logged with a request id and
 * its stack; its body carries only the id. A full disk (`StoreFullError`) answers 507 with the
 * store's "disk full: nothing was saved" (logged in one line); a body must arrive within 30 s
 * (`bodyTimeoutMs`, else 408 and the connection closes); a client that leaves mid-body is logged once
 * as a client abort, never a 500 (`test/server/body-and-disk.test.ts`).
 * A read whose answer is costly and the same for every caller allowed to ask may keep it for the
 * generation (`ctx.answers`, an `AnswerCache`, `server/answer-cache.ts`: given to read operations
 * under `serve` only, keyed by the handler with what the answer depends on, dropped at the next
 * commit, at most 16 kept): `getSiteTree` does, after its access check, so a repeated tree of an
 * unchanged store costs the check and the send (an `ExactJson` answer is serialized once). Values
 * derived from content-addressed objects only never go stale: `answers.lasting` keeps them across
 * generations (least recently used out past 200,000 units, pages here), so after a commit the tree
 * reads again only the spaces whose content changed (200 spaces of distinct content, 40,000 pages:
 * ~3 s the first time, ~0.1 s after a commit elsewhere, ~20 ms unchanged).
 * A GET answered 200 before at this generation, with the same `Authorization` header and URL, is sent
 * again as its kept bytes (`server/served-answers.ts`: one Map lookup, one `writeHead` with a header
 * array), when its handler was synchronous and asked neither the clock nor for ids
 * (`OperationResult.generational`): a repeated `GET /v1/spaces/{id}` costs ~ a bare server's send.
 * Token lookups are cached by the token's SHA-256 (known tokens only, so garbage tokens cannot
 * evict them), valid while the `tokens` and `users` tables keep their root hashes
 * (`StoreReader.tableVersion`, `tokenTablesVersion` in `server/auth.ts`): a space create costs no
 * lookup, and a revoked token or a removed user is refused on the next request.
 */
import { type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, UsageError } from '../api/errors.js';
import { StoreBusyError, StoreFullError } from '../store/errors.js';
import { routeInfo } from '../api/catalog.js';
import { matchRoute, methodsForPath } from '../api/table.js';
import { type OperationResult, executeLight, executeOperation } from '../domain/execute.js';
import type { Actor } from '../domain/handler.js';
import { lightInput } from '../api/light-input.js';
import { type InputPolicy, SERVE_POLICY } from '../domain/policy.js';
import type { Store, StoreReader } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import type { IdGenerator } from '../util/ids.js';
import { MemoryArtifacts } from '../transport/artifacts.js';
import { redactSecrets } from '../util/redact.js';
import { BUILD, VERSION } from '../version.js';
import { GenerationAnswers } from './answer-cache.js';
import { JSON_TYPE, ServedAnswers } from './served-answers.js';
import { bearerToken, resolveTokenUser, tokenTablesVersion } from './auth.js';
import { type RateLimit, RateLimited, RateLimiter } from './rate-limit.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4000;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** How long a request body may take to arrive, from its first byte awaited to its last (as Node bounds headers). */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** How long an idle keep-alive connection stays open (sent to clients as `Keep-Alive: timeout=30`). */
const KEEP_ALIVE_MS = 30_000;
/** Node's own bound on receiving the headers (`server.headersTimeout`'s default). */
const HEADERS_TIMEOUT_MS = 60_000;
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

export interface ServerOptions {
  store: Store;
  /** Address to listen on (default 127.0.0.1). */
  host?: string | undefined;
  /** Port (default 4000; 0 = any free port). */
  port?: number | undefined;
  /**
   * Origin of every URL in answers (`Location`, `urls.*`, `downloadURL`, PDF links).
   * Default: the bound address (`http://127.0.0.1:<port>`; a wildcard host answers
   * with its loopback address, which is how a client on the machine reaches it).
   */
  origin?: string | undefined;
  clock: Clock;
  ids: IdGenerator;
  /** Where unexpected errors (with their stack) are reported. */
  log?: ((line: string) => void) | undefined;
  /** Token → user id (default: sha256 of the token looked up in the `tokens` table). */
  resolveActor?: ((token: string, reader: StoreReader) => string | Actor | undefined) | undefined;
  /** Largest accepted request body (default 10 MB). */
  maxBodyBytes?: number | undefined;
  /** How long a request body may take to arrive in full (default 30 s); beyond, 408 and the connection closes. */
  bodyTimeoutMs?: number | undefined;
  /** How long `close()` waits for in-flight requests before cutting connections (default 5 s). */
  closeTimeoutMs?: number | undefined;
  /** What a request's input may reach on this machine (default SERVE_POLICY: no local paths, no private network, no plain http). */
  policy?: InputPolicy | undefined;
  /** Answer 429 beyond this many requests per window, per token (or per client address without one). */
  rateLimit?: RateLimit | undefined;
}

export interface RunningServer {
  /** `http://HOST:PORT` */
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to closeTimeoutMs), closes keep-alive sockets. Idempotent. */
  close(): Promise<void>;
}

type Query = Record<string, string | string[]>;

/** `a=1&b=2&b=3` → `{ a: '1', b: ['2', '3'] }`. */
export function parseQuery(search: string): Query {
  const query: Query = {};
  if (search === '') return query;
  for (const [key, value] of new URLSearchParams(search)) {
    if (key === '__proto__') continue;
    if (!Object.hasOwn(query, key)) {
      query[key] = value;
      continue;
    }
    const previous = query[key] as string | string[];
    if (Array.isArray(previous)) previous.push(value);
    else query[key] = [previous, value];
  }
  return query;
}

/** `application/json`, `application/json; charset=utf-8`, `application/merge-patch+json`… */
function isJsonType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = (contentType.split(';', 1)[0] as string).trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

/** The client went away before its request body arrived: its failure, logged once as such, never a 500. */
class ClientAborted extends Error {}

/**
 * Reads the body up to `limit` bytes within `timeoutMs`. Beyond the size: 413 (the rest
 * is discarded); beyond the time: 408 (a body trickling in a byte at a time must not hold
 * its socket and its buffers for minutes); a client that closes first: ClientAborted.
 */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | undefined, body?: Buffer) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      if (error) reject(error);
      else resolve(body as Buffer);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.resume();
        finish(new ApiError(413, `Request body is larger than ${formatBytes(limit)}`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(undefined, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    const onAbort = () => finish(new ClientAborted('the client closed the connection before sending its whole request body'));
    const timer = setTimeout(() => finish(new ApiError(408, `Request body not received within ${formatSeconds(timeoutMs)}`)), timeoutMs);
    timer.unref();
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onAbort);
    req.once('close', onAbort);
  });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** A client-caused failure that also ends the connection (the rest of the request is not read). */
class CloseConnection extends ApiError {}

function locationOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const urls = (body as { urls?: unknown }).urls;
  if (typeof urls !== 'object' || urls === null) return undefined;
  const location = (urls as { location?: unknown }).location;
  return typeof location === 'string' ? location : undefined;
}

/** An operation's answer headers, names in lower case; a 201 without `Location` takes its body's `urls.location`. */
function resultHeaders(result: OperationResult): OutgoingHttpHeaders | undefined {
  let headers: OutgoingHttpHeaders | undefined;
  for (const name in result.headers) {
    headers ??= {};
    headers[name.toLowerCase()] = result.headers[name];
  }
  if (result.status === 201 && (headers === undefined || headers.location === undefined)) {
    const location = locationOf(result.body);
    if (location !== undefined) (headers ??= {}).location = location;
  }
  return headers;
}

class ApiServer {
  readonly handle: (req: IncomingMessage, res: ServerResponse) => void;
  closing = false;
  origin = '';
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  private readonly log: ((line: string) => void) | undefined;
  private readonly resolveActor: (token: string, reader: StoreReader) => string | Actor | undefined;
  private readonly maxBodyBytes: number;
  private readonly bodyTimeoutMs: number;
  private readonly policy: InputPolicy;
  /**
   * token → user, for known tokens only (unknown ones cannot evict them; keyed by the token
   * itself, which this process holds anyway while it answers: a sha256 per request was 5% of
   * a served GET). An entry
   * stays valid while the `tokens` and `users` tables are unchanged (their root hashes), so
   * a write elsewhere (a space create) does not cost a lookup, and a revoked token or a
   * removed user (a change to those tables) is looked up again at once. A custom
   * `resolveActor`, or a store that cannot tell table versions, caches per generation.
   */
  private readonly actors = new Map<string, { version: string; actor: Actor }>();
  private readonly limiter: RateLimiter | undefined;
  /** Request ids of logged failures: `<start time>-<n>`, unique per server. */
  private readonly requestIdPrefix = Date.now().toString(36);
  private failures = 0;
  /** Generated files (PDF exports), answered at `/artifacts/<name>`. */
  private readonly artifacts = new MemoryArtifacts(() => this.origin);
  /** Costly read answers kept for the store's current generation (see AnswerCache). */
  private readonly answers = new GenerationAnswers();
  /** The bytes of GET answers that depend on the generation, the token and the URL only. */
  private readonly served = new ServedAnswers();

  constructor(options: ServerOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.ids = options.ids;
    this.log = options.log;
    this.resolveActor = options.resolveActor ?? resolveTokenUser;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
    this.policy = options.policy ?? SERVE_POLICY;
    this.limiter = options.rateLimit ? new RateLimiter(options.rateLimit, () => this.clock().getTime()) : undefined;
    this.handle = (req, res) => {
      void this.dispatch(req, res);
    };
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (error) {
      this.sendError(req, res, error);
    }
  }

// eslint-disable-next-line max-lines-per-function -- a request top to bottom (auth, limits, match, body, answer), each step returning early
  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const pathname = mark === -1 ? url : url.slice(0, mark);

    if (pathname.startsWith('/artifacts/') || pathname.startsWith('/files/')) {
      this.sendDownload(res, method, pathname);
      return;
    }

    // getApiInformation, answered without a token (as the real API does); the same answer as its handler (domain/system.ts).
    if (pathname === '/v1' || pathname === '/v1/') {
      if (method === 'GET' || method === 'HEAD') {
        this.send(res, 200, { version: VERSION, build: BUILD }, undefined);
        return;
      }
      this.sendMethodNotAllowed(res, method, pathname, ['GET']);
      return;
    }

    if (this.limiter) {
      const key = req.headers.authorization ?? req.socket.remoteAddress ?? '';
      const verdict = this.limiter.take(key);
      for (const name in verdict.headers) res.setHeader(name, verdict.headers[name] as string);
      if (verdict.refusal) throw verdict.refusal;
    }

    // A GET answered before at this generation, with this token and URL: its bytes again (served-answers.ts).
    const authorization = req.headers.authorization;
    if (method === 'GET' && authorization !== undefined && !this.closing && !hasBody(req)) {
      const kept = this.served.get(this.store.read().gen, authorization, url);
      if (kept !== undefined) {
        res.writeHead(kept.status, kept.headers);
        res.end(kept.body);
        return;
      }
    }

    if (pathname.startsWith('/uploads/')) {
      await this.receiveUpload(req, res, method, pathname);
      return;
    }

    const match = matchRoute(method, pathname);
    if (!match) {
      const allowed = methodsForPath(pathname);
      if (allowed.length === 0) {
        throw new ApiError(404, `No operation matches ${method} ${pathname}`);
      }
      if (method === 'OPTIONS') {
        res.writeHead(204, { allow: allowed.join(', '), ...(this.closing ? { connection: 'close' } : {}) });
        res.end();
        return;
      }
      this.sendMethodNotAllowed(res, method, pathname, allowed);
      return;
    }

    // Authentication comes before the body is read: a client without a valid token gets its
    // 401 at once, and the connection closes without reading what it sends (sendError).
    const token = bearerToken(authorization);
    if (token === undefined) throw new ApiError(401, 'Missing Authorization: Bearer token');
    // One snapshot per request: the token lookup and a read operation see the same generation.
    const reader = this.store.read();
    const known = this.actorFor(token, reader);
    if (known === undefined) throw new ApiError(401, 'Invalid API token');
    // The ad partner's key (adsListSites, adsUpdateSite check it): on this request's actor only, never cached.
    const partnerKey = req.headers['x-gitbook-partner-key'];
    const actor = typeof partnerKey === 'string' ? { ...known, partnerKey } : known;

    let body: unknown;
    if (match.route.body !== undefined && hasBody(req)) {
      if (!isJsonType(req.headers['content-type'])) {
        throw new ApiError(415, 'Content-Type must be application/json');
      }
      const encoding = req.headers['content-encoding'];
      if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
        throw new ApiError(415, `Content-Encoding ${encoding} is not supported`);
      }
      const buffer = await this.readRequestBody(req);
      if (buffer.length > 0) {
        try {
          body = JSON.parse(buffer.toString('utf8')) as unknown;
        } catch {
          throw new ApiError(400, 'Request body is not valid JSON');
        }
      }
    }

    const env = {
      store: this.store,
      reader,
      actor,
      clock: this.clock,
      ids: this.ids,
      origin: this.origin,
      artifacts: this.artifacts,
      policy: this.policy,
      answers: this.answers.at(reader.gen),
      source: 'api' as const,
    };
    // Input the manifest's light descriptions accept skips zod (as in local mode): a GET
    // without a query or with a query of described scalars, a write with a described body.
    const input = { params: match.params, query: mark === -1 ? {} : parseQuery(url.slice(mark + 1)), body };
    const info = routeInfo(match.route.id);
    const light = lightInput(info, input);
    const result = light ? await executeLight(env, info, match.params, light) : await executeOperation(env, match.route, input);
    if (match.route.preferMinimal && (result.status === 200 || result.status === 201) && prefersMinimal(req.headers.prefer)) {
      // 0.202's returnPreference: the change is made, the object not sent back (RFC 7240).
      this.sendEmpty(res, 204, { 'preference-applied': 'return=minimal' });
      return;
    }
    if (result.generational && method === 'GET' && result.status === 200 && result.json !== undefined && !this.closing && !hasBody(req)) {
      const kept = this.served.keep(reader.gen, authorization as string, url, result.status, resultHeaders(result) ?? {}, result.json);
      res.writeHead(kept.status, kept.headers);
      res.end(kept.body);
      return;
    }
    this.sendResult(res, result);
  }

  /**
   * Downloads without a token (their URLs are unguessable, like the real API's
   * temporary URLs): `/artifacts/<name>` (generated files) and
   * `/files/<data hash>/<name>` (the bytes of a content file, `downloadURL`).
   */
  private sendDownload(res: ServerResponse, method: string, pathname: string): void {
    if (method !== 'GET' && method !== 'HEAD') {
      this.sendMethodNotAllowed(res, method, pathname, ['GET', 'HEAD']);
      return;
    }
    const parts = pathname.split('/').slice(1);
    let found: { data: Uint8Array; contentType: string } | undefined;
    try {
      if (parts[0] === 'artifacts' && parts.length === 2) {
        found = this.artifacts.get(decodeURIComponent(parts[1] as string));
      } else if (parts[0] === 'files' && parts.length === 3 && /^[0-9a-f]{64}$/.test(parts[1] as string)) {
        const object = this.store.read().getObject<{ base64?: unknown }>(parts[1] as string);
        if (typeof object?.base64 === 'string' && Object.keys(object).length === 1) {
          found = { data: Buffer.from(object.base64, 'base64'), contentType: contentTypeOf(decodeURIComponent(parts[2] as string)) };
        }
      }
    } catch {
      found = undefined;
    }
    if (!found) throw new ApiError(404, `No file at ${pathname} (temporary URLs expire after an hour)`);
    const headers: OutgoingHttpHeaders = { 'content-type': found.contentType, 'content-length': found.data.byteLength };
    if (this.closing) headers.connection = 'close';
    res.writeHead(200, headers);
    res.end(method === 'HEAD' ? undefined : found.data);
  }

  /**
   * `PUT /uploads/<token>`: the signed upload URL of `generateStorageUploadURL`, without a
   * bearer token (the URL is the credential). The raw bytes become the extension
   * `uploadStorageFile`'s input, run as the user who asked for the URL (domain/storage.ts).
   */
  private async receiveUpload(req: IncomingMessage, res: ServerResponse, method: string, pathname: string): Promise<void> {
    if (method !== 'PUT') {
      this.sendMethodNotAllowed(res, method, pathname, ['PUT']);
      return;
    }
    const token = decodeURIComponent(pathname.slice('/uploads/'.length));
    const match = matchRoute('PUT', `/v1/x-docsctl/storage/uploads/${encodeURIComponent(token)}`);
    const reader = this.store.read();
    const userId = match ? (await import('../domain/storage.js')).uploadActor(reader, token) : undefined;
    if (!match || userId === undefined) throw new ApiError(404, 'No upload at this URL: it was used already, expired (an hour), or never made');
    const buffer = await this.readRequestBody(req);
    const env = { store: this.store, reader, actor: { userId }, clock: this.clock, ids: this.ids, origin: this.origin, artifacts: this.artifacts, policy: this.policy, answers: this.answers.at(reader.gen), source: 'api' as const };
    this.sendResult(res, await executeOperation(env, match.route, { params: match.params, query: {}, body: { content: buffer.toString('base64') } }));
  }

  /** The body, at most maxBodyBytes (413 from its declared length, before reading), within the body timeout; a failure closes the connection. */
  private async readRequestBody(req: IncomingMessage): Promise<Buffer> {
    if (Number(req.headers['content-length']) > this.maxBodyBytes) {
      throw new CloseConnection(413, `Request body is larger than ${formatBytes(this.maxBodyBytes)}`);
    }
    try {
      return await readBody(req, this.maxBodyBytes, this.bodyTimeoutMs);
    } catch (error) {
      if (error instanceof ApiError) throw new CloseConnection(error.status, error.message);
      throw error;
    }
  }

  private actorFor(token: string, reader: StoreReader): Actor | undefined {
    const version = this.actorVersion(reader);
    const cached = this.actors.get(token);
    if (cached !== undefined && cached.version === version) return cached.actor;
    const resolved = this.resolveActor(token, reader);
    if (resolved === undefined) {
      this.actors.delete(token);
      return undefined;
    }
    const actor = typeof resolved === 'string' ? { userId: resolved } : resolved;
    if (this.actors.size >= 1024) this.actors.clear();
    this.actors.set(token, { version, actor });
    return actor;
  }

  /** What a cached token → user answer depends on (see `actors`). */
  private actorVersion(reader: StoreReader): string {
    const tables = this.resolveActor === resolveTokenUser ? tokenTablesVersion(reader) : undefined;
    return tables ?? `gen ${reader.gen}`;
  }

  private sendResult(res: ServerResponse, result: OperationResult): void {
    const { status } = result;
    const headers = resultHeaders(result);
    if (status === 204 || status === 205) {
      this.sendEmpty(res, status, headers);
      return;
    }
    this.sendJson(res, status, result.json, headers);
  }

  private send(res: ServerResponse, status: number, body: unknown, extra: OutgoingHttpHeaders | undefined): void {
    this.sendJson(res, status, body === undefined ? undefined : JSON.stringify(body), extra);
  }

  /** Sends an answer serialized once (by executeOperation, or by `send`). */
  private sendJson(res: ServerResponse, status: number, json: string | undefined, extra: OutgoingHttpHeaders | undefined): void {
    if (json === undefined) {
      this.sendEmpty(res, status, extra);
      return;
    }
    const headers: OutgoingHttpHeaders = extra ?? {};
    headers['content-type'] = JSON_TYPE;
    headers['content-length'] = Buffer.byteLength(json);
    if (this.closing) headers.connection = 'close';
    res.writeHead(status, headers);
    res.end(json);
  }

  private sendEmpty(res: ServerResponse, status: number, extra: OutgoingHttpHeaders | undefined): void {
    const headers: OutgoingHttpHeaders = extra ?? {};
    if (status !== 204 && status !== 205) headers['content-length'] = 0;
    if (this.closing) headers.connection = 'close';
    res.writeHead(status, headers);
    res.end();
  }

  private sendMethodNotAllowed(res: ServerResponse, method: string, pathname: string, allowed: string[]): void {
    const error = new ApiError(405, `${method} is not allowed on ${pathname} (allowed: ${allowed.join(', ')})`);
    this.send(res, 405, error.toBody(), { allow: allowed.join(', ') });
  }

  sendError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    if (error instanceof ClientAborted) {
      // Nobody is left to answer: one line, no stack, no request id (it is not the server's failure).
      const path = (req.url ?? '/').split('?', 1)[0] as string;
      this.log?.(redactSecrets(`serve: client aborted ${req.method ?? 'GET'} ${path}: ${error.message}`));
      res.destroy();
      return;
    }
    let status = 500;
    let message = 'Internal error';
    const headers: OutgoingHttpHeaders = {};
    if (error instanceof StoreFullError) {
      // The disk is full: nothing was saved, and the client may try again once there is room.
      status = 507;
      message = error.message;
    } else if (error instanceof ApiError) {
      status = error.status;
      message = error.message;
      if (status === 401) headers['www-authenticate'] = 'Bearer';
      if (error instanceof RateLimited) headers['retry-after'] = String(error.retryAfterSeconds);
      if (error instanceof CloseConnection) headers.connection = 'close';
    } else if (error instanceof StoreBusyError) {
      status = 503;
      message = error.message;
      headers['retry-after'] = '1';
    }
    // A refusal before the body was read (401, 404, 413, 415, 429…) ends the connection, so
    // node does not read and discard a body the client may still be sending.
    if (hasBody(req) && !req.readableEnded) headers.connection = 'close';
    if (status >= 500) {
      // Every 5xx is logged with a request id the client also gets; its stack stays here.
      const requestId = `${this.requestIdPrefix}-${++this.failures}`;
      headers['x-request-id'] = requestId;
      if (status === 500) message = `Internal error (request id ${requestId})`;
      // A full disk is a condition, not a bug: its message says all (no stack).
      const detail = status === 507 ? message : error instanceof Error ? (error.stack ?? error.message) : String(error);
      const path = (req.url ?? '/').split('?', 1)[0] as string;
      this.log?.(redactSecrets(`serve: ${status} ${req.method ?? 'GET'} ${path} request ${requestId}: ${detail}`));
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    this.send(res, status, { error: { code: status, message } }, headers);
  }
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  yaml: 'application/yaml',
  zip: 'application/zip',
};

function contentTypeOf(name: string): string {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === 'EADDRINUSE') {
    return new UsageError(`Port ${port} is already in use on ${host}`, { hint: 'Pick another --port, or --port 0 for any free port.' });
  }
  if (error.code === 'EACCES') {
    return new UsageError(`Not allowed to listen on ${host}:${port}`, { hint: 'Use a port above 1023.' });
  }
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return new UsageError(`Cannot listen on ${host}: no such local address`, { hint: 'Use --host 127.0.0.1 (or 0.0.0.0 for every interface).' });
  }
  return error;
}

const httpUrl = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** A wildcard listening address is not one a client can connect to: answer with the loopback one. */
function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '::1';
  return host;
}

/** Starts `serve` and resolves once it accepts connections. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const requestedPort = options.port ?? DEFAULT_PORT;
  const api = new ApiServer(options);
  // Node bounds the whole request too (a body nobody reads, e.g. after a refusal): headers, then the body's time.
  const server: Server = createServer(
    { keepAlive: true, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: HEADERS_TIMEOUT_MS + (options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS) },
    api.handle,
  );
  // Idle keep-alive connections are kept 30 s (Node's default is 5 s): a client that pauses
  // longer than the server's keep-alive between two requests may send its next one on a socket
  // the server is closing (ECONNRESET). Test suites against serve pause for seconds under load.
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(listenError(error, host, requestedPort));
    server.once('error', onError);
    server.listen(requestedPort, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  server.on('error', (error) => options.log?.(`serve: ${error.message}`));

  const port = (server.address() as AddressInfo).port;
  const url = httpUrl(host, port);
  api.origin = (options.origin ?? httpUrl(reachableHost(host), port)).replace(/\/+$/, '');

  const closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      api.closing = true;
      // Responses from now on carry `Connection: close`; sockets that fall idle
      // after finishing their request are swept until the server has none left.
      const sweep = setInterval(() => server.closeIdleConnections(), 25);
      const deadline = setTimeout(() => server.closeAllConnections(), closeTimeoutMs);
      sweep.unref();
      deadline.unref();
      server.close(() => {
        clearInterval(sweep);
        clearTimeout(deadline);
        resolve();
      });
      server.closeIdleConnections();
    });
    return closed;
  };

  return { url, port, close };
}

/** True when a `Prefer` header (RFC 7240: comma-separated preferences, any case) asks for `return=minimal`. */
export function prefersMinimal(header: string | string[] | undefined): boolean {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values.some((value) => value.split(',').some((part) => part.split(';')[0]?.trim().toLowerCase().replace(/\s+/g, '') === 'return=minimal'));
}
