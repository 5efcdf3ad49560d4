/** The path and query string of an operation's request, as sent to a `/v1` server. */
import type { RouteInfo } from '../api/catalog.js';
import { fillPath } from '../api/route.js';
import type { RawInput } from '../api/validate.js';

/** `?k=a&k=b&flag=true`: arrays repeat the key, undefined/null values are skipped. */
export function buildQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      for (const item of value) if (item !== undefined && item !== null) search.append(key, stringify(item));
    } else if (value !== undefined && value !== null) {
      search.append(key, stringify(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** `/v1/spaces/abc?limit=2` for a route and its input. */
export function requestPath(route: Pick<RouteInfo, 'path'>, input: RawInput): string {
  return fillPath(route.path, input.params ?? {}) + buildQueryString(input.query);
}
