/**
 * Relative links in a page written at another path than it was read from, and
 * links to pages that moved: rewritten to lead where they led, written the way
 * they were (`<…>`, percent-encoded, or raw). Links that need no change keep
 * their bytes.
 */
import { extractLinks, type ExtractedLink } from '../content-model/links.js';
import { type ExportRun, existsIn } from './export-run.js';
import { resolveReference } from './import.js';
import { basename, dirname, joinPath, relativePath } from './paths.js';

/** Rewrites the relative links of a page written at `to` instead of `from`, and links to pages that moved. */
export function rewriteLinks(run: ExportRun, markdown: string, from: string, to: string, moved: Map<string, string>): string {
  const { config, current } = run;
  const exists = { has: (path: string) => existsIn(current, path) };
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const links = extractLinks(markdown);
  // Only links that can lead to a moved page matter when the page itself stays.
  if (from === to && !links.some((link) => mayPointAt(link.target, moved))) return markdown;
  for (const link of links) {
    if (link.kind !== 'relative' && link.kind !== 'file') continue;
    if (from === to && !mayPointAt(link.target, moved)) continue;
    const resolved = resolveReference(exists, config, from, link.target);
    if (!resolved) continue;
    const key = resolved.dir ? joinPath(resolved.path, 'README.md') : resolved.path;
    const movedTo = moved.get(key);
    if (from === to && movedTo === undefined) continue;
    let value: string;
    if (link.target.startsWith('/')) {
      if (movedTo === undefined) continue;
      value = `/${relativePath(config.root, movedTo)}`;
    } else {
      const base = dirname(to);
      if (movedTo === undefined) {
        value = resolved.dir ? `${relativePath(base, resolved.path) || '.'}/` : relativePath(base, resolved.path);
      } else if (resolved.dir && basename(movedTo) === 'README.md') {
        value = `${relativePath(base, dirname(movedTo)) || '.'}/`;
      } else value = relativePath(base, movedTo);
    }
    const check = resolveReference(exists, config, to, link.target);
    const wantedPath = movedTo ?? key;
    if (check && (check.dir ? joinPath(check.path, 'README.md') : check.path) === wantedPath && check.dir === resolved.dir) continue;
    edits.push({ start: link.start, end: link.end, text: formatTarget(value + resolved.suffix, link) });
  }
  let out = markdown;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/** Whether a link target can name one of the moved files (by its last path segment, or a folder). */
function mayPointAt(target: string, moved: Map<string, string>): boolean {
  const path = target.replace(/[?#].*$/s, '').replace(/\/+$/, '');
  let name = path.slice(path.lastIndexOf('/') + 1);
  try {
    name = decodeURIComponent(name);
  } catch {
    // As written.
  }
  if (name === '' || name === '.' || name === '..' || target.endsWith('/')) return true;
  return movedNames(moved).has(name);
}

const movedNameCache = new WeakMap<Map<string, string>, Set<string>>();

/** The names a link to a moved file can end with: its file name, or its folder's for a README. */
function movedNames(moved: Map<string, string>): Set<string> {
  let names = movedNameCache.get(moved);
  if (!names) {
    names = new Set();
    for (const old of moved.keys()) {
      names.add(basename(old));
      if (basename(old).toLowerCase() === 'readme.md') names.add(basename(dirname(old)));
    }
    movedNameCache.set(moved, names);
  }
  return names;
}

/** A new destination written the way the old one was (`<…>`, percent-encoded, or raw). */
function formatTarget(value: string, link: ExtractedLink): string {
  const cut = value.search(/[?#]/);
  const path = cut < 0 ? value : value.slice(0, cut);
  const suffix = cut < 0 ? '' : value.slice(cut);
  if (link.raw.startsWith('<')) return `<${path.replace(/[<>]/g, (c) => `\\${c}`)}${suffix}>`;
  if (/%[0-9a-fA-F]{2}/.test(link.raw)) return encodeURI(path) + suffix;
  if (link.via === 'link' || link.via === 'image') {
    return /[\s<>()]/.test(path) ? `<${path.replace(/[<>]/g, (c) => `\\${c}`)}${suffix}>` : path + suffix;
  }
  return (path + suffix).replace(/"/g, '%22');
}
