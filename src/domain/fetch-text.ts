/**
 * Fetching a small text document named by a request (an OpenAPI spec's
 * `source.url`) under the request's input policy (policy.ts): the scheme, the
 * resolved address of the host, and the same again at every redirect hop (at
 * most MAX_REDIRECTS), with a timeout and a size cap.
 *
 * Failures of the remote side are returned, not thrown, so that the caller can
 * record them as the real API does (`FETCH_ERROR`, `FETCH_TIMEOUT`); what the
 * policy refuses is thrown (403), since the server must not act on it at all.
 */
import { badRequest } from '../api/errors.js';
import { redactUrls } from '../util/redact.js';
import { type InputPolicy, checkScheme, resolveAllowedAddresses } from './policy.js';

const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 15_000;
/** Larger OpenAPI documents exist, but not in a store of JSON files: 16 MB. */
export const MAX_TEXT_BYTES = 16 * 1024 * 1024;

export type FetchedText = { ok: true; text: string } | { ok: false; code: 'FETCH_ERROR' | 'FETCH_TIMEOUT'; message: string };

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`Invalid URL ${redactUrls(raw)}: expected an absolute https:// URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw badRequest(`Unsupported URL scheme ${url.protocol} in ${redactUrls(raw)}: use https://`);
  }
  return url;
}

async function readCapped(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_TEXT_BYTES) throw new Error(`the document is larger than ${MAX_TEXT_BYTES} bytes`);
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_TEXT_BYTES) {
      await reader.cancel();
      throw new Error(`the document is larger than ${MAX_TEXT_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function fetchPolicyText(policy: InputPolicy, raw: string): Promise<FetchedText> {
  let url = parseHttpUrl(raw);
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  for (let hop = 0; ; hop++) {
    checkScheme(policy, url);
    await resolveAllowedAddresses(policy, url.hostname);
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual', signal });
    } catch (error) {
      if (signal.aborted) return { ok: false, code: 'FETCH_TIMEOUT', message: `No answer from ${url.host} within ${TIMEOUT_MS / 1000} s` };
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { ok: false, code: 'FETCH_ERROR', message: `Cannot fetch ${redactUrls(url.href)}: ${cause?.code ?? cause?.message ?? (error as Error).message}` };
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) return { ok: false, code: 'FETCH_ERROR', message: `More than ${MAX_REDIRECTS} redirects from ${redactUrls(raw)}` };
      url = parseHttpUrl(new URL(location, url).href);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, code: 'FETCH_ERROR', message: `Cannot fetch ${redactUrls(url.href)}: HTTP ${response.status}` };
    }
    try {
      return { ok: true, text: await readCapped(response) };
    } catch (error) {
      if (signal.aborted) return { ok: false, code: 'FETCH_TIMEOUT', message: `No complete answer from ${url.host} within ${TIMEOUT_MS / 1000} s` };
      return { ok: false, code: 'FETCH_ERROR', message: `Cannot read ${redactUrls(url.href)}: ${(error as Error).message}` };
    }
  }
}
