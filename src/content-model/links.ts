/**
 * Links in GitBook Markdown: Markdown links and images (inline, `<…>`
 * destinations, reference definitions, autolinks), `{% content-ref %}`,
 * `{% page-ref %}`, `{% embed %}`, `{% file %}`, and HTML `src`/`href`/
 * `srcset`/`poster` attributes. Fenced and inline code are skipped.
 */
import { normalizePath } from '../util/posix-path.js';
import { maskCode } from './markdown.js';

export type LinkKind = 'relative' | 'url' | 'app' | 'anchor' | 'file';
export type LinkVia = 'link' | 'image' | 'content-ref' | 'html' | 'embed';

export interface ExtractedLink {
  /** The destination exactly as written (with its `<…>` for bracketed destinations). */
  raw: string;
  /** The destination: brackets removed, backslash escapes resolved; percent-encoding left as written. */
  target: string;
  kind: LinkKind;
  /** 1-based line of the destination. */
  line: number;
  via: LinkVia;
  /** Offsets of `raw` in the Markdown, to rewrite it. */
  start: number;
  end: number;
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/**
 * How a destination is read: `anchor` (`#x`), `app` (app.gitbook.com),
 * `url` (any other scheme, or `//host`), `relative` (a page: `.md`, a folder
 * `x/`, or no extension), `file` (a relative path with another extension).
 */
export function classifyTarget(target: string): LinkKind {
  if (target.startsWith('#')) return 'anchor';
  if (SCHEME.test(target) || target.startsWith('//')) {
    return /^(?:https?:)?\/\/app\.gitbook\.com(?:[/?#:]|$)/i.test(target) ? 'app' : 'url';
  }
  const path = target.replace(/[?#].*$/, '');
  if (path === '' || path.endsWith('/') || /\.md$/i.test(path)) return 'relative';
  const last = path.slice(path.lastIndexOf('/') + 1);
  return /\.[^./]+$/.test(last) ? 'file' : 'relative';
}

export function extractLinks(markdown: string): ExtractedLink[] {
  const masked = maskCode(markdown);
  const lineStarts = [0];
  for (let i = markdown.indexOf('\n'); i >= 0; i = markdown.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const links: ExtractedLink[] = [];
  const add = (start: number, end: number, target: string, via: LinkVia): void => {
    if (target === '') return;
    links.push({
      raw: markdown.slice(start, end),
      target,
      kind: classifyTarget(target),
      line: lineOf(start),
      via,
      start,
      end,
    });
  };

  // Inline links and images: every `](` closing a bracketed text.
  for (let k = masked.indexOf(']('); k >= 0; k = masked.indexOf('](', k + 1)) {
    if (isEscaped(masked, k)) continue;
    const open = matchingOpenBracket(masked, k);
    if (open < 0) continue;
    const destination = parseDestination(masked, markdown, k + 2);
    if (!destination) continue;
    const via: LinkVia = open > 0 && masked[open - 1] === '!' && !isEscaped(masked, open - 1) ? 'image' : 'link';
    add(destination.start, destination.end, destination.target, via);
  }

  // Reference definitions: `[label]: destination "title"`.
  for (const m of masked.matchAll(/^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:[ \t]*(<[^>\n]*>|\S+)/gm)) {
    const raw = m[1] as string;
    const start = (m.index ?? 0) + m[0].length - raw.length;
    const original = markdown.slice(start, start + raw.length);
    add(start, start + raw.length, unescapeDestination(original), 'link');
  }

  // Autolinks: `<https://…>`.
  for (const m of masked.matchAll(/<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>/g)) {
    const start = (m.index ?? 0) + 1;
    const value = m[1] as string;
    add(start, start + value.length, markdown.slice(start, start + value.length), 'link');
  }

  // Liquid blocks.
  const liquid: Array<[RegExp, LinkVia]> = [
    [/\{%-?\s*content-ref\s+url\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/g, 'content-ref'],
    [/\{%-?\s*page-ref\s+page\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/g, 'content-ref'],
    [/\{%-?\s*embed\s+url\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/g, 'embed'],
    [/\{%-?\s*file\s+src\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/g, 'embed'],
  ];
  for (const [pattern, via] of liquid) {
    for (const m of masked.matchAll(pattern)) {
      const value = m[1] ?? m[2] ?? '';
      const start = (m.index ?? 0) + m[0].length - value.length - 1;
      add(start, start + value.length, markdown.slice(start, start + value.length), via);
    }
  }

  // HTML attributes.
  for (const tag of masked.matchAll(/<[a-zA-Z][a-zA-Z0-9-]*(?=[\s/>])[^<>]*>/g)) {
    const tagStart = tag.index ?? 0;
    for (const attr of tag[0].matchAll(/\s(src|href|srcset|poster)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
      const value = attr[2] ?? attr[3] ?? '';
      const start = tagStart + (attr.index ?? 0) + attr[0].length - value.length - 1;
      const original = markdown.slice(start, start + value.length);
      add(start, start + value.length, decodeHtmlEntities(original.trim()), 'html');
    }
  }

  links.sort((a, b) => a.start - b.start);
  return links;
}

function isEscaped(text: string, at: number): boolean {
  let n = 0;
  for (let i = at - 1; i >= 0 && text[i] === '\\'; i -= 1) n += 1;
  return n % 2 === 1;
}

/** The `[` matching the `]` at `close`, or -1 (no crossing of a blank line). */
function matchingOpenBracket(text: string, close: number): number {
  let depth = 0;
  for (let i = close - 1; i >= 0; i -= 1) {
    const c = text[i];
    if (c === '\n') {
      // A blank line (the one just before this break) ends the paragraph.
      let j = i - 1;
      while (j >= 0 && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r')) j -= 1;
      if (j < 0 || text[j] === '\n') return -1;
      continue;
    }
    if (c !== '[' && c !== ']') continue;
    if (isEscaped(text, i)) continue;
    if (c === ']') depth += 1;
    else if (depth === 0) return i;
    else depth -= 1;
  }
  return -1;
}

/** Parses `(destination "title")` from just after the `(`: the destination's offsets and value. */
function parseDestination(
  masked: string,
  original: string,
  from: number,
): { start: number; end: number; target: string } | null {
  let i = from;
  while (masked[i] === ' ' || masked[i] === '\t') i += 1;
  if (masked[i] === '\n' || masked[i] === '\r') {
    i += masked[i] === '\r' ? 2 : 1;
    while (masked[i] === ' ' || masked[i] === '\t') i += 1;
  }
  const start = i;
  let end: number;
  if (masked[i] === '<') {
    i += 1;
    while (i < masked.length && masked[i] !== '>' && masked[i] !== '\n' && masked[i] !== '<') {
      if (masked[i] === '\\') i += 1;
      i += 1;
    }
    if (masked[i] !== '>') return null;
    end = i + 1;
    i = end;
  } else {
    let depth = 0;
    while (i < masked.length) {
      const c = masked[i] as string;
      if (c === '\\' && i + 1 < masked.length) {
        i += 2;
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') break;
      if (c === '(') depth += 1;
      else if (c === ')') {
        if (depth === 0) break;
        depth -= 1;
      }
      i += 1;
    }
    end = i;
  }
  // Optional title, then `)`.
  let j = end;
  while (j < masked.length && isSpace(masked[j])) j += 1;
  const quote = masked[j];
  if (j > end && (quote === '"' || quote === "'" || quote === '(')) {
    const closer = quote === '(' ? ')' : quote;
    j += 1;
    while (j < masked.length && masked[j] !== closer) {
      if (masked[j] === '\\') j += 1;
      j += 1;
    }
    if (masked[j] !== closer) return null;
    j += 1;
    while (j < masked.length && isSpace(masked[j])) j += 1;
  }
  if (masked[j] !== ')') return null;
  const raw = original.slice(start, end);
  return { start, end, target: unescapeDestination(raw) };
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function unescapeDestination(raw: string): string {
  const inner = raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
  if (!inner.includes('\\')) return inner;
  return inner.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

function decodeHtmlEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );
}

/** Percent-decodes, leaving malformed sequences as written. */
function percentDecode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value.replace(/%[0-9a-fA-F]{2}/g, (seq) => {
      try {
        return decodeURIComponent(seq);
      } catch {
        return seq;
      }
    });
  }
}

/**
 * Resolves a relative link target against the file it appears in (both from
 * the same root, `/` separators): a POSIX join, the `#anchor` and `?query`
 * stripped, percent-encoding decoded. A target starting with `/` is taken
 * from the root. A trailing `/` (a folder link) is kept. Null for URLs and
 * when the result escapes the root.
 */
export function resolveRelative(fromPath: string, target: string): string | null {
  if (SCHEME.test(target) || target.startsWith('//')) return null;
  const path = percentDecode(target.replace(/[?#].*$/s, ''));
  if (path === '') return normalizePath(fromPath);
  const base = path.startsWith('/') ? '' : fromPath.slice(0, Math.max(0, fromPath.lastIndexOf('/')));
  const joined = normalizePath(base === '' ? path : `${base}/${path}`);
  if (joined === null) return null;
  return path.endsWith('/') && joined !== '' ? `${joined}/` : joined;
}

