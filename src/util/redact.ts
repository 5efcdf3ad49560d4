/**
 * Secrets out of messages: the userinfo of every URL-like string (`scheme://user:pass@host`)
 * is replaced before text reaches an error message, a log line or a progress line.
 * Works on text that does not parse as a URL (an unparsable URL is exactly what an
 * error message echoes), so it is a pattern over the text, not a URL parser.
 */

/**
 * scheme://…@ — everything up to the last '@' of the run of non-space characters, so a
 * password holding '/', '?' or '#' (which stops a URL parser) is still hidden. An '@'
 * in a path is redacted with it: over-redacting is the safe side.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s'"<>]*@/gi;

/** The text with the userinfo of every URL in it replaced by `***`. */
export function redactUrls(text: string): string {
  return text.replace(URL_USERINFO, (_match, scheme: string) => `${scheme}***@`);
}

/** `?token=…`/`access_token=…` query values and `Authorization: Bearer …` values, replaced too. */
export function redactSecrets(text: string): string {
  return redactUrls(text)
    .replace(/([?&](?:access_token|token|password|secret|key)=)[^&\s#]+/gi, '$1***')
    .replace(/(\bBearer\s+)[A-Za-z0-9._~+/=-]+/g, '$1***');
}

/**
 * A request body as `--dry-run` shows it: the values of a `headers` object (an MCP
 * server's `Authorization`, read with `--header-env` to keep it off the command line)
 * and the secrets of every string (URL userinfo, tokens) replaced; names and shape kept.
 */
export function redactBody(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map((item) => redactBody(item));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (key === 'headers') return Object.fromEntries(entries.map(([name, header]) => [name, typeof header === 'string' ? '***' : redactBody(header)]));
  return Object.fromEntries(entries.map(([name, item]) => [name, redactBody(item, name)]));
}
