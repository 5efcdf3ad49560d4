/**
 * `--debug` lines of HttpTransport, with secrets taken out.
 *
 * Every line HttpTransport logs goes through here: tokens in `Authorization`
 * headers become `Bearer gb_api_****`, credentials in URLs become `****`, and
 * any remaining occurrence of a known secret in a line is masked as a last
 * resort. Nothing else in the transport writes the token anywhere.
 */
import { redactUrls } from '../util/redact.js';

const MASK = '****';

/** `gb_api_abc…` → `gb_api_****`; a token without such a prefix → `****`. */
export function redactToken(token: string): string {
  const prefix = /^([A-Za-z]+_(?:[A-Za-z]+_)?)/.exec(token)?.[1];
  return prefix && prefix.length < token.length ? `${prefix}${MASK}` : MASK;
}

/** Masks the value of an Authorization (or similar) header, keeping the scheme. */
export function redactAuthorization(value: string): string {
  const match = /^(\S+)\s+(.+)$/.exec(value.trim());
  if (!match) return MASK;
  const scheme = match[1] as string;
  return /^bearer$/i.test(scheme) ? `${scheme} ${redactToken(match[2] as string)}` : `${scheme} ${MASK}`;
}

/** Query parameters whose values are secrets (`shareKey`/`share`: the key of a site share link). */
const SECRET_PARAMS = /^(token|access_token|api_key|apikey|key|secret|password|sig|signature|sharekey|share)$/i;

/**
 * Removes credentials from a URL: `https://user:pass@host/x?token=abc` →
 * `https://****:****@host/x?token=****`. Text that is not a URL is returned with
 * any `user:pass@` part masked.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Unparsable (a password holding '/', say): hide everything up to the last '@'.
    return redactUrls(url).replace(/\/\/[^/@\s]*@/g, `//${MASK}@`);
  }
  if (parsed.username) parsed.username = MASK;
  if (parsed.password) parsed.password = MASK;
  if (parsed.search) {
    for (const key of new Set(parsed.searchParams.keys())) {
      if (SECRET_PARAMS.test(key)) parsed.searchParams.set(key, MASK);
    }
  }
  // URLSearchParams re-encodes `*`; keep the mask readable.
  return parsed.toString().replace(/%2A%2A%2A%2A/g, MASK);
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization']);
const MASKED_HEADERS = new Set(['cookie', 'set-cookie', 'x-gitbook-partner-key', 'x-api-key']);

/** One `Name: value` line per header, secrets masked. */
export function formatHeaders(headers: Record<string, string | string[] | undefined>): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    for (const one of Array.isArray(value) ? value : [value]) {
      const shown = SECRET_HEADERS.has(lower) ? redactAuthorization(one) : MASKED_HEADERS.has(lower) ? MASK : one;
      lines.push(`${name}: ${shown}`);
    }
  }
  return lines;
}

/**
 * A debug sink that masks the given secrets in every line it passes on: the
 * last line of defence should a secret reach a message (e.g. an error text that
 * quotes a URL).
 */
export function redactingLogger(
  write: (line: string) => void,
  secrets: ReadonlyArray<string | undefined>,
): (line: string) => void {
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  if (list.length === 0) return write;
  return (line: string) => {
    let out = line;
    for (const secret of list) {
      if (out.includes(secret)) out = out.split(secret).join(redactToken(secret));
    }
    write(out);
  };
}
