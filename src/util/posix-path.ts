/** POSIX-style path arithmetic on `/`-separated relative paths (repository paths, page links). */

/** A `.` or `..` segment. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/** Resolves `.` and `..` segments; null when the path climbs above its root. Leading and repeated slashes are dropped. */
export function normalizePath(path: string): string | null {
  // Most paths are already normal: kept as they are (splitting every link of a large import cost it a tenth of its scan).
  if (!path.startsWith('/') && !path.endsWith('/') && !path.includes('//') && !DOT_SEGMENT.test(path)) return path;
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}
