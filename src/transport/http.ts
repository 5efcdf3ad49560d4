/**
 * HttpTransport: remote mode. Sends an operation of the route table to a `/v1`
 * endpoint (GitBook's API, or `docsctl serve`) and turns the answer into the
 * same ApiResponse / ApiError that LocalTransport gives.
 *
 * - The request (URL, headers, body), the retry loop, the response mapping and
 *   the error classes are all here, once; the HTTP library behind them is an
 *   HttpClient (http-client.ts): node:http for one-shot commands (nothing to
 *   load), undici where many requests pay for its ~160 ms import.
 * - Nothing of undici is imported at module load (notes/perf.md §4): the undici
 *   client module is itself imported on the first request that needs it.
 * - Retries with backoff on 429/502/503/504 and broken connections (policy in
 *   retry.ts), honouring `Retry-After`.
 * - `debug` receives one line per request and per response (plus headers), with
 *   the token and URL credentials masked (debug-log.ts). The token is never
 *   written anywhere else, including error messages.
 */
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { ApiError, NetworkError, UsageError, isApiErrorBody } from '../api/errors.js';
import { routeInfo } from '../api/catalog.js';
import type { RouteId } from '../api/route-id.js';
import type { RawInput } from '../api/validate.js';
import { VERSION } from '../version.js';
import { formatHeaders, redactUrl, redactingLogger } from './debug-log.js';
import { CONNECT_TIMEOUT, type HttpAnswer, type HttpClient, type HttpClientKind } from './http-client.js';
import { NodeHttpClient } from './node-http-client.js';
import {
  DEFAULT_RETRY_POLICY,
  type RetryPolicy,
  isRetryableNetworkError,
  isRetryableStatus,
  retryDelay,
} from './retry.js';
import { requestPath } from './request-path.js';
import type { ApiResponse, RawOptions, Transport } from './types.js';

export { buildQueryString } from './request-path.js';
export type { HttpClientKind } from './http-client.js';

/** undici, imported on first use and shared by the whole process (also used by fetch-url). */
export async function loadUndici(): Promise<typeof import('undici')> {
  return (await import('./undici-client.js')).loadUndici();
}

/** An HttpClient that loads the undici one on its first request. */
function lazyUndiciClient(dispatcher: Dispatcher | undefined): HttpClient {
  let client: Promise<HttpClient> | undefined;
  const load = () => (client ??= import('./undici-client.js').then(({ UndiciClient }) => new UndiciClient(dispatcher)));
  return {
    send: async (exchange) => (await load()).send(exchange),
    close: async () => {
      if (client) await (await client).close();
    },
  };
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface HttpTransportOptions {
  /** API base: `https://api.gitbook.com`, `https://api.gitbook.com/v1`, `http://127.0.0.1:4000/`… */
  endpoint: string;
  /** API token sent as `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /**
   * The HTTP library (http-client.ts): `node` (node:http, for one-shot commands) or
   * `undici` (default; for long runs, and implied by `dispatcher`).
   */
  client?: HttpClientKind | undefined;
  /** undici dispatcher to use instead of the transport's own keep-alive Agent (tests: MockAgent). Not closed by `close()`. */
  dispatcher?: Dispatcher | undefined;
  /** Per-request timeout for the response headers and between body chunks (default 30 s). */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt (default 3). */
  retries?: number | undefined;
  /** `--debug` sink: one line per call. */
  debug?: ((line: string) => void) | undefined;
  /** Default `docsctl/<version>`. */
  userAgent?: string | undefined;
  /** How to wait between retries (tests record the waits instead of sleeping). */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Current time in ms, for `Retry-After` dates (default Date.now). */
  now?: (() => number) | undefined;
  /** Random source for the backoff jitter (default Math.random). */
  random?: (() => number) | undefined;
}

interface Endpoint {
  /** `scheme://host[:port][/prefix]`, without credentials, trailing slash or `/v1`. */
  base: string;
  /** What messages show: the base, credentials removed. */
  display: string;
  host: string;
  /** `Basic …` from credentials in the URL, used when no token is given. */
  basicAuth: string | undefined;
}

/** Normalises `--endpoint`: route paths start with `/v1`, so a trailing `/v1` is dropped from the base. */
export function parseEndpoint(endpoint: string): Endpoint {
  let url: URL;
  try {
    url = new URL(endpoint.trim());
  } catch {
    throw new UsageError(`Invalid endpoint "${redactUrl(endpoint)}": expected a URL`, {
      hint: 'Pass --endpoint (or DOCSCTL_ENDPOINT) as the API base, e.g. https://api.gitbook.com or http://127.0.0.1:4000',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`Invalid endpoint "${redactUrl(endpoint)}": only http:// and https:// URLs are supported`, {
      hint: 'Pass --endpoint (or DOCSCTL_ENDPOINT) as the API base, e.g. https://api.gitbook.com or http://127.0.0.1:4000',
    });
  }
  const basicAuth = url.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
    : undefined;
  let prefix = url.pathname.replace(/\/+$/, '');
  if (prefix.endsWith('/v1')) prefix = prefix.slice(0, -3);
  prefix = prefix.replace(/\/+$/, '');
  const base = `${url.protocol}//${url.host}${prefix}`;
  return { base, display: base, host: url.host, basicAuth };
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}

/** The error code of a network failure (undici errors, system errors, AggregateError of happy eyeballs). */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error) {
    const inner = errorCode(cause);
    if (inner) return inner;
  }
  const errors = (error as { errors?: unknown }).errors;
  if (Array.isArray(errors)) return errorCode(errors[0]);
  return undefined;
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const ROLE_NEEDED = /\bYou need the "[a-z]+" role\b/;
/**
 * A 403 about the object or its state, whatever the token: a site's plan, your own e-mail
 * domain, an author's or owner's right, something disabled, a role above your own, a private
 * integration. Its message says what to do; "check --token" would send the user the wrong way.
 */
const ABOUT_THE_OBJECT =
  /\bis on the \w+ plan, which cannot\b|\bYou may look up only your own e-mail domain\b|\bOnly (?:its author|the author of|the store's owner)\b|\b(?:is|are) disabled\b|\babove your own role\b|\bis private to organization\b/;
const SERVER_POLICY = /\bstart(?:ed)?(?: it| the server)? with --allow-(?:local|http|private-network)\b/;

export class HttpTransport implements Transport {
  readonly mode = 'remote' as const;
  private readonly endpoint: Endpoint;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;
  private readonly policy: RetryPolicy;
  private readonly debug: ((line: string) => void) | undefined;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly baseHeaders: Record<string, string>;
  private readonly client: HttpClient;
  private closed = false;

  constructor(options: HttpTransportOptions) {
    this.endpoint = parseEndpoint(options.endpoint);
    this.token = options.token === '' ? undefined : options.token;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.policy = { ...DEFAULT_RETRY_POLICY, retries: Math.max(0, options.retries ?? DEFAULT_RETRY_POLICY.retries) };
    this.debug = options.debug ? redactingLogger(options.debug, [this.token]) : undefined;
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.client =
      options.client === 'node' && options.dispatcher === undefined
        ? new NodeHttpClient()
        : lazyUndiciClient(options.dispatcher);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': options.userAgent ?? `docsctl/${VERSION}`,
    };
    const authorization = this.token !== undefined ? `Bearer ${this.token}` : this.endpoint.basicAuth;
    if (authorization !== undefined) headers.authorization = authorization;
    this.baseHeaders = headers;
  }

  async request(routeId: RouteId, input: RawInput): Promise<ApiResponse> {
    const route = routeInfo(routeId);
    const path = requestPath(route, input);
    const body = route.method === 'GET' ? undefined : input.body;
    // The ad partner's key goes only with the calls that carry it (never in baseHeaders).
    const extra = input.partnerKey === undefined ? undefined : { 'x-gitbook-partner-key': input.partnerKey };
    return this.send(route.method, path, body, extra);
  }

  async raw(method: string, pathAndQuery: string, body?: unknown, options?: RawOptions): Promise<ApiResponse> {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pathAndQuery)) {
      throw new UsageError(`Pass a path such as /v1/spaces/ID, not a URL ("${redactUrl(pathAndQuery)}")`, {
        hint: 'The host comes from --endpoint / DOCSCTL_ENDPOINT.',
      });
    }
    const verb = method.toUpperCase();
    const path = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
    const extra = options?.partnerKey === undefined ? undefined : { 'x-gitbook-partner-key': options.partnerKey };
    return this.send(verb, path, verb === 'GET' || verb === 'HEAD' ? undefined : body, extra);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }

  private async send(method: string, path: string, body: unknown, extra?: Record<string, string>): Promise<ApiResponse> {
    if (this.closed) throw new Error('HttpTransport used after close()');
    const url = this.endpoint.base + path;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const plain =
      payload === undefined ? this.baseHeaders : { ...this.baseHeaders, 'content-type': 'application/json' };
    const headers = extra === undefined ? plain : { ...plain, ...extra };
    const pathname = path.split('?', 1)[0] as string;
    const debug = this.debug;

    for (let attempt = 0; ; attempt++) {
      if (debug) {
        debug(`→ ${method} ${redactUrl(url)}${attempt > 0 ? ` (retry ${attempt}/${this.policy.retries})` : ''}`);
        for (const line of formatHeaders(headers)) debug(`  ${line}`);
        if (payload !== undefined) debug(`  (${Buffer.byteLength(payload)} bytes of JSON)`);
      }
      const started = performance.now();
      let answer: HttpAnswer;
      try {
        answer = await this.client.send({
          method,
          url,
          headers,
          body: payload,
          timeoutMs: this.timeoutMs,
          connectTimeoutMs: Math.min(this.timeoutMs, 10_000),
        });
      } catch (error) {
        const code = errorCode(error);
        debug?.(`← ${method} ${pathname} failed after ${Math.round(performance.now() - started)}ms: ${code ?? String(error)}`);
        if (attempt < this.policy.retries && isRetryableNetworkError(method, code)) {
          await this.wait(attempt + 1, undefined, {});
          continue;
        }
        throw this.networkError(error, code, method, pathname);
      }
      const { status, headers: responseHeaders, text } = answer;
      if (debug) {
        const reason = STATUS_CODES[status];
        debug(`← ${status}${reason ? ` ${reason}` : ''} in ${Math.round(performance.now() - started)}ms`);
        for (const line of formatHeaders(responseHeaders)) debug(`  ${line}`);
      }
      if (attempt < this.policy.retries && isRetryableStatus(method, status)) {
        await this.wait(attempt + 1, status, {
          retryAfter: headerValue(responseHeaders, 'retry-after'),
          rateLimitReset: headerValue(responseHeaders, 'x-ratelimit-reset'),
        });
        continue;
      }
      return this.interpret(method, pathname, status, responseHeaders, text, attempt);
    }
  }

  private async wait(
    attempt: number,
    status: number | undefined,
    headers: { retryAfter?: string | undefined; rateLimitReset?: string | undefined },
  ): Promise<void> {
    const delay = retryDelay(attempt, status, headers, this.policy, this.now(), this.random);
    this.debug?.(`  waiting ${delay}ms before retry ${attempt}/${this.policy.retries}`);
    await this.sleep(delay);
  }

  private interpret(
    method: string,
    pathname: string,
    status: number,
    headers: Record<string, string | string[] | undefined>,
    text: string,
    retried: number,
  ): ApiResponse {
    if (status >= 200 && status < 300) {
      if (status === 204 || status === 205 || text.trim() === '') return { status, body: undefined };
      try {
        return { status, body: JSON.parse(text) as unknown };
      } catch {
        throw new ApiError(502, `The ${status} response to ${method} ${pathname} is not valid JSON`, {
          hint: `Is ${this.endpoint.display} a docs API endpoint (e.g. https://api.gitbook.com)? Check --endpoint / DOCSCTL_ENDPOINT.`,
        });
      }
    }
    let parsed: unknown;
    try {
      parsed = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      parsed = undefined;
    }
    if (isApiErrorBody(parsed)) {
      const code = Number.isInteger(parsed.error.code) && parsed.error.code >= 400 && parsed.error.code <= 599
        ? parsed.error.code
        : status;
      throw new ApiError(code, parsed.error.message, { hint: this.hintFor(code, retried, true, headers, parsed.error.message) });
    }
    const statusText = STATUS_CODES[status] ?? 'Error';
    throw new ApiError(status, `${status} ${statusText} from ${method} ${pathname}`, {
      hint: this.hintFor(status, retried, false, headers),
    });
  }

  private hintFor(
    status: number,
    retried: number,
    apiBody: boolean,
    headers: Record<string, string | string[] | undefined>,
    message = '',
  ): string | undefined {
    if (status === 401) {
      return this.token === undefined
        ? 'No API token was sent: pass --token, set DOCSCTL_TOKEN, or run "docsctl config".'
        : 'The API token was rejected: check --token / DOCSCTL_TOKEN or run "docsctl config".';
    }
    // A server's input policy (docsctl serve --allow-local/--allow-http/--allow-private-network) is not the token's doing: its message says which flag opens it.
    if (status === 403 && SERVER_POLICY.test(message)) {
      return "The server's operator sets what requests may read: no token changes it.";
    }
    // A 403 that names the role it needs is about the user's role on one object, not a wrong token.
    if (status === 403 && ROLE_NEEDED.test(message)) {
      return 'The token works, but its user lacks that role there: ask an administrator, or use the token of a user who has it ("docsctl auth status" shows whose token this is).';
    }
    if (status === 403 && ABOUT_THE_OBJECT.test(message)) return undefined;
    if (status === 403) {
      return 'The token does not allow this operation: check --token / DOCSCTL_TOKEN or run "docsctl config".';
    }
    if (status === 429) {
      const after = retried > 0 ? ` after ${retried} ${retried === 1 ? 'retry' : 'retries'}` : '';
      return `Rate limited by ${this.endpoint.host}${after}; try again later.`;
    }
    if (status >= 300 && status < 400) {
      const location = headerValue(headers, 'location');
      return location
        ? `The server redirects to ${redactUrl(location)}: use that address as --endpoint.`
        : 'The server answered with a redirect: check --endpoint / DOCSCTL_ENDPOINT.';
    }
    if (!apiBody && (status === 404 || status === 405)) {
      return `Is ${this.endpoint.display} the API base URL (e.g. https://api.gitbook.com)? Check --endpoint / DOCSCTL_ENDPOINT.`;
    }
    return undefined;
  }

  private networkError(error: unknown, code: string | undefined, method: string, pathname: string): NetworkError {
    const { display, host } = this.endpoint;
    if (code !== undefined && TIMEOUT_CODES.has(code)) {
      const connect = code === CONNECT_TIMEOUT;
      return new NetworkError(
        connect ? `Timed out connecting to ${host}` : `Timed out after ${seconds(this.timeoutMs)} waiting for ${host}`,
        {
          hint: `${method} ${pathname} got no answer in time: check that ${display} is up and that --endpoint / DOCSCTL_ENDPOINT is right, then try again.`,
          cause: error,
        },
      );
    }
    if (code !== undefined && (DNS_CODES.has(code) || /^E[A-Z]+$/.test(code) || code.startsWith('UND_ERR_'))) {
      // undici's name for a connection the server closed under a request; node:http says ECONNRESET.
      const shown = code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : code;
      const hint = DNS_CODES.has(code)
        ? `The host name ${host} does not resolve: check --endpoint / DOCSCTL_ENDPOINT.`
        : code === 'ECONNREFUSED'
          ? `Nothing is listening there: check --endpoint / DOCSCTL_ENDPOINT (is the server running?).`
          : 'Check --endpoint / DOCSCTL_ENDPOINT and your network connection.';
      return new NetworkError(`Cannot reach ${display}: ${shown}`, { hint, cause: error });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new NetworkError(`Cannot reach ${display}: ${redactUrl(message)}`, {
      hint: 'Check --endpoint / DOCSCTL_ENDPOINT and your network connection.',
      cause: error,
    });
  }
}
