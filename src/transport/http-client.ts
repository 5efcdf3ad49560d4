/**
 * What HttpTransport needs from an HTTP library: send one request, get the
 * status, headers and whole body text back, or a rejection carrying a `code`.
 * Everything else (URLs, headers, retries, error mapping, debug log) is
 * HttpTransport's, so the two clients below cannot drift apart:
 *
 * - `node` (node-http-client.ts): node:http / node:https on a keep-alive Agent.
 *   Nothing to load, so a one-shot remote command starts as fast as a local one.
 * - `undici` (undici-client.ts): undici.request on a keep-alive Agent. Importing
 *   undici compiles its WebAssembly parser (~160 ms, notes/perf.md §4); it pays
 *   for long runs (`api --paginate`) and is what tests' MockAgent plugs into.
 *
 * Both follow no redirect, use the platform's TLS defaults, and time out the
 * connection after `connectTimeoutMs`, the wait for headers and every pause
 * between body chunks after `timeoutMs`.
 */

export type HttpClientKind = 'node' | 'undici';

export interface HttpExchange {
  method: string;
  /** Absolute `http(s)://` URL, credentials removed. */
  url: string;
  headers: Record<string, string>;
  /** JSON text, or undefined for no body. */
  body: string | undefined;
  timeoutMs: number;
  connectTimeoutMs: number;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface HttpClient {
  /** Resolves with any status (errors included); rejects only when no answer came (with a `code`). */
  send(exchange: HttpExchange): Promise<HttpAnswer>;
  /** Releases the client's sockets. */
  close(): Promise<void>;
}

/**
 * Codes a client's timeouts reject with (undici's own codes are used by the
 * undici client; the node client uses these same names so one mapping serves both).
 */
export const CONNECT_TIMEOUT = 'UND_ERR_CONNECT_TIMEOUT';
export const HEADERS_TIMEOUT = 'UND_ERR_HEADERS_TIMEOUT';
export const BODY_TIMEOUT = 'UND_ERR_BODY_TIMEOUT';
