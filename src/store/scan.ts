/**
 * Range scans over sorted rows, shared by every StoreReader implementation:
 * the semantics of `StoreReader.scan` in one place.
 */
import type { ScanOptions } from './types.js';

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** True when `key` is inside the range of `options` (prefix and cursor; the limit is the caller's). */
export function inScanRange(key: string, options: ScanOptions): boolean {
  if (options.prefix !== undefined && !key.startsWith(options.prefix)) return false;
  if (options.after !== undefined) return options.reverse ? key < options.after : key > options.after;
  return true;
}

/**
 * The rows of `rows` (any order) that `options` selects, sorted in the scan's
 * direction and cut to its limit.
 */
export function scanRows<T>(rows: Iterable<[string, T]>, options: ScanOptions = {}): Array<[string, T]> {
  const out: Array<[string, T]> = [];
  for (const row of rows) if (inScanRange(row[0], options)) out.push(row);
  out.sort(([a], [b]) => (options.reverse ? compare(b, a) : compare(a, b)));
  return options.limit !== undefined && out.length > options.limit ? out.slice(0, Math.max(0, options.limit)) : out;
}
