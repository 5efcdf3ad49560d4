/**
 * An http(s) URL from a request, parsed: what fetching code (fetch-text.ts) and code
 * that only stores a URL (a site's MCP servers) both refuse. Nothing is resolved or
 * fetched here, so it is cheap to load.
 */
import { badRequest } from '../api/errors.js';
import { redactUrls } from '../util/redact.js';

/** The URL parsed, or a 400 for what is not an absolute http:// or https:// URL (userinfo redacted in messages). */
export function parseHttpUrl(raw: string): URL {
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
