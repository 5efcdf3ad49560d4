/** POSIX-style path arithmetic on `/`-separated relative paths (repository paths, page links). */

/** Resolves `.` and `..` segments; null when the path climbs above its root. Leading and repeated slashes are dropped. */
export function normalizePath(path: string): string | null {
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
