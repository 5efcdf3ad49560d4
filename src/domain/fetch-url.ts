/**
 * Fetching a URL a request named (an import source), under the request's policy.
 *
 * - Every hop is checked before it is connected: scheme (http/https only;
 *   plain http only to loopback or with --allow-http), and every address the
 *   host resolves to (no loopback, private, link-local, metadata… without
 *   --allow-private-network).
 * - The connection goes to the address that was checked: the agent's `lookup`
 *   answers it, so a second DNS answer (rebinding) cannot move the request.
 * - Redirects are followed here, at most MAX_REDIRECTS, each hop checked again.
 * - The body is streamed to a file in a private temporary directory, counting
 *   bytes: beyond `maxBytes` the transfer stops with 413. Memory stays flat and
 *   the event loop keeps serving other requests while a large body arrives.
 *
 * Error messages name the URL with its userinfo redacted.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { LookupAddress, LookupOneOptions } from 'node:dns';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { ApiError, badRequest } from '../api/errors.js';
import { cacheDir, ensurePrivateDir } from '../util/private-dir.js';
import { redactUrls } from '../util/redact.js';
import { type InputPolicy, checkScheme, resolveAllowedAddresses } from './policy.js';

export const MAX_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 60_000;

/** A response body saved to a private temporary file; `dispose()` removes it. */
export interface FetchedFile {
  file: string;
  size: number;
  /** The last URL (after redirects). */
  url: URL;
  /** The last path segment of that URL, decoded (`index` when there is none). */
  name: string;
  dispose(): Promise<void>;
}

/** One GET to `url`, connected to `address`; answers status, headers and the body stream. */
export type OpenConnection = (
  url: URL,
  address: string,
  signal: AbortSignal,
) => Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: NodeJS.ReadableStream & { destroy?: () => void } }>;

export interface FetchUrlOptions {
  /** Largest body accepted (413 beyond it). */
  maxBytes: number;
  timeoutMs?: number;
  /** How a checked hop is connected (default: undici pinned to the address). A test seam, like `policy.resolve`. */
  open?: OpenConnection;
}

/** undici GET whose connection goes to `address`, whatever the name resolves to now. */
const openPinned: OpenConnection = async (url, address, signal) => {
  // Through loadUndici: bundled, undici's CommonJS exports sit on the namespace's `default`.
  const { Agent, request } = await (await import('../transport/http.js')).loadUndici();
  const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4;
  const lookup = (
    _host: string,
    options: LookupOneOptions & { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const agent = new Agent({ connect: { lookup: lookup as never }, connections: 1 });
  const response = await request(url, { method: 'GET', dispatcher: agent, signal, headers: { 'user-agent': 'docsctl' } });
  response.body.once('close', () => void agent.close());
  return { status: response.statusCode, headers: response.headers, body: response.body };
};

/** The address to connect to for `url` (an IP literal host is its own address). */
async function checkHop(policy: InputPolicy, url: URL): Promise<string> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest(`Cannot fetch ${redactUrls(url.href)}: only http:// and https:// URLs can be fetched`);
  }
  checkScheme(policy, url);
  const [address] = await resolveAllowedAddresses(policy, url.hostname);
  return address as string;
}

/** Drops a body we will not read (a redirect's, an error's); its abort error is expected, not a crash. */
function discard(body: NodeJS.ReadableStream & { destroy?: () => void }): void {
  body.on('error', () => {});
  body.destroy?.();
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `Import source is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB (the largest import this server accepts)`);
}

/** A private temporary directory for one download: `<cache>/tmp/fetch-XXXX`, 0700. */
export async function privateTempDir(prefix: string): Promise<string> {
  const base = ensurePrivateDir(cacheDir('tmp'));
  return mkdtemp(path.join(base, prefix));
}

/** GETs `url` under `policy` into a private temporary file (see the module comment). */
export async function fetchToFile(policy: InputPolicy, start: URL, options: FetchUrlOptions): Promise<FetchedFile> {
  const open = options.open ?? openPinned;
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let url = start;
  for (let hop = 0; ; hop++) {
    const address = await checkHop(policy, url);
    let response: Awaited<ReturnType<OpenConnection>>;
    try {
      response = await open(url, address, signal);
    } catch (error) {
      throw badRequest(`Cannot fetch ${redactUrls(url.href)}: ${describeNetworkError(error)}`);
    }
    const { status, headers, body } = response;
    if (status >= 300 && status < 400 && header(headers, 'location') !== undefined) {
      discard(body);
      if (hop >= MAX_REDIRECTS) throw badRequest(`Cannot fetch ${redactUrls(start.href)}: more than ${MAX_REDIRECTS} redirects`);
      try {
        url = new URL(header(headers, 'location') as string, url);
      } catch {
        throw badRequest(`Cannot fetch ${redactUrls(url.href)}: it redirects to an invalid URL`);
      }
      continue;
    }
    if (status < 200 || status >= 300) {
      discard(body);
      throw badRequest(`Cannot fetch ${redactUrls(url.href)}: HTTP ${status}`);
    }
    const declared = Number(header(headers, 'content-length'));
    if (declared > options.maxBytes) {
      discard(body);
      throw tooLarge(options.maxBytes);
    }
    return saveBody(url, body, options.maxBytes);
  }
}

async function saveBody(url: URL, body: NodeJS.ReadableStream, maxBytes: number): Promise<FetchedFile> {
  const dir = await privateTempDir('fetch-');
  const dispose = () => rm(dir, { recursive: true, force: true });
  const file = path.join(dir, 'body');
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) callback(tooLarge(maxBytes));
      else callback(null, chunk);
    },
  });
  try {
    await pipeline(body, count, createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    await dispose();
    if (error instanceof ApiError) throw error;
    throw badRequest(`Cannot fetch ${redactUrls(url.href)}: ${describeNetworkError(error)}`);
  }
  let name = url.pathname.split('/').filter(Boolean).pop() ?? 'index';
  try {
    name = decodeURIComponent(name);
  } catch {
    // keep the encoded name
  }
  return { file, size, url, name, dispose };
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  const code = (cause as { code?: unknown }).code;
  const name = (cause as { name?: unknown }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'host not found';
  if (code === 'ECONNRESET') return 'connection reset';
  return redactUrls(cause instanceof Error ? cause.message : String(cause));
}
