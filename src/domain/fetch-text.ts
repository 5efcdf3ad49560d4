/**
 * Fetching a small text document named by a request (an OpenAPI spec's
 * `source.url`) under the request's input policy: `fetch-url.ts` does the work
 * (scheme and resolved address checked at every redirect hop, the connection
 * pinned to the checked address so DNS rebinding cannot move it, a timeout, a
 * size cap, a private temporary file), this module reads the text and sorts the
 * outcome.
 *
 * Failures of the remote side are returned, not thrown, so that the caller can
 * record them as the real API does (`FETCH_ERROR`, `FETCH_TIMEOUT`); what the
 * policy refuses is thrown (403), since the server must not act on it at all.
 */
import { readFile } from 'node:fs/promises';
import { ApiError } from '../api/errors.js';
import { redactUrls } from '../util/redact.js';
import { fetchToFile } from './fetch-url.js';
import { parseHttpUrl } from './http-url.js';
import type { InputPolicy } from './policy.js';

const TIMEOUT_MS = 15_000;
/** Larger OpenAPI documents exist, but not in a store of JSON files: 16 MB. */
export const MAX_TEXT_BYTES = 16 * 1024 * 1024;

export type FetchedText = { ok: true; text: string } | { ok: false; code: 'FETCH_ERROR' | 'FETCH_TIMEOUT'; message: string };

export async function fetchPolicyText(policy: InputPolicy, raw: string): Promise<FetchedText> {
  const url = parseHttpUrl(raw);
  let fetched: Awaited<ReturnType<typeof fetchToFile>>;
  try {
    fetched = await fetchToFile(policy, url, { maxBytes: MAX_TEXT_BYTES, timeoutMs: TIMEOUT_MS });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 403) throw error; // the policy's refusal: act on nothing
    if (error.status === 413) return { ok: false, code: 'FETCH_ERROR', message: `Cannot fetch ${redactUrls(url.href)}: the document is larger than ${MAX_TEXT_BYTES / 1024 / 1024} MiB` };
    if (/: timed out$/.test(error.message)) return { ok: false, code: 'FETCH_TIMEOUT', message: `No answer from ${url.host} within ${TIMEOUT_MS / 1000} s` };
    return { ok: false, code: 'FETCH_ERROR', message: error.message };
  }
  try {
    return { ok: true, text: await readFile(fetched.file, 'utf8') };
  } finally {
    await fetched.dispose();
  }
}
