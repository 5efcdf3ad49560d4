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

/** Receives each link `scanLinks` finds: the destination's offsets, its value and the syntax it was written in. */
export type LinkVisitor = (start: number, end: number, target: string, via: LinkVia) => void;

/**
 * The links of a Markdown text, in order, each with its line.
 * (`scanLinks` finds the same links without keeping them.)
 */
export function extractLinks(markdown: string): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  scanLinks(markdown, (start, end, target, via) => {
    links.push({ raw: markdown.slice(start, end), target, kind: classifyTarget(target), line: 0, via, start, end });
  });
  links.sort((a, b) => a.start - b.start);
  const lines = lineNumbers(markdown, links.map((link) => link.start));
  links.forEach((link, i) => {
    link.line = lines[i] as number;
  });
  return links;
}

/**
 * Calls `visit` for every link of a Markdown text (empty destinations left out),
 * grouped by syntax rather than in text order, keeping nothing: a page of a
 * million links costs its text, not a million objects. Linear in the text
 * whatever its shape: brackets are matched in one pass, a destination gives up
 * past 32 nested parentheses (as cmark does), and a title's closing quote is
 * searched once for every title that shares it.
 */
export function scanLinks(markdown: string, visit: LinkVisitor): void {
  const masked = maskCode(markdown);
  const add = (start: number, end: number, target: string, via: LinkVia): void => {
    if (target !== '') visit(start, end, target, via);
  };

  // Inline links and images: every `](` closing a bracketed text.
  const closers = new ClosingQuotes(masked);
  for (const [open, close] of inlineLinkBrackets(masked)) {
    const destination = parseDestination(masked, markdown, close + 2, closers);
    if (!destination) continue;
    const via: LinkVia = open > 0 && masked[open - 1] === '!' && !isEscaped(masked, open - 1) ? 'image' : 'link';
    add(destination.start, destination.end, destination.target, via);
  }

  // Reference definitions: `[label]: destination "title"` (a label holds at most 999 characters, as in CommonMark,
  // which also bounds the regular expression's backtracking on a line of brackets).
  // Each pattern runs only on a text holding a literal it needs (a regular expression tried at every offset of
  // every page cost a large import a third of its link scan).
  const refs = masked.includes(']:') ? masked.matchAll(/^ {0,3}\[(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*(<[^>\n]*>|\S+)/gm) : [];
  for (const m of refs) {
    const raw = m[1] as string;
    const start = (m.index ?? 0) + m[0].length - raw.length;
    const original = markdown.slice(start, start + raw.length);
    add(start, start + raw.length, unescapeDestination(original), 'link');
  }

  // Autolinks: `<https://…>`.
  const hasTag = masked.includes('<');
  for (const m of hasTag ? masked.matchAll(/<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>/g) : []) {
    const start = (m.index ?? 0) + 1;
    const value = m[1] as string;
    add(start, start + value.length, markdown.slice(start, start + value.length), 'link');
  }

  // Liquid blocks.
  const liquid: Array<[string, RegExp, LinkVia]> = [
    ['content-ref', /\{%-?\s*content-ref\s+url\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/g, 'content-ref'],
    ['page-ref', /\{%-?\s*page-ref\s+page\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/g, 'content-ref'],
    ['embed', /\{%-?\s*embed\s+url\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/g, 'embed'],
    ['file', /\{%-?\s*file\s+src\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/g, 'embed'],
  ];
  const hasLiquid = masked.includes('{%');
  for (const [word, pattern, via] of liquid) {
    if (!hasLiquid || !masked.includes(word)) continue;
    for (const m of masked.matchAll(pattern)) {
      const value = m[1] ?? m[2] ?? '';
      const start = (m.index ?? 0) + m[0].length - value.length - 1;
      add(start, start + value.length, markdown.slice(start, start + value.length), via);
    }
  }

  // HTML attributes.
  for (const tag of hasTag ? masked.matchAll(/<[a-zA-Z][a-zA-Z0-9-]*(?=[\s/>])[^<>]*>/g) : []) {
    const tagStart = tag.index ?? 0;
    for (const attr of tag[0].matchAll(/\s(src|href|srcset|poster)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
      const value = attr[2] ?? attr[3] ?? '';
      const start = tagStart + (attr.index ?? 0) + attr[0].length - value.length - 1;
      const original = markdown.slice(start, start + value.length);
      add(start, start + value.length, decodeHtmlEntities(original.trim()), 'html');
    }
  }

}

/** The 1-based line of each offset (in any order), from one sweep over the text's line breaks. */
export function lineNumbers(text: string, offsets: readonly number[]): number[] {
  const order = offsets.map((_, i) => i).sort((a, b) => (offsets[a] as number) - (offsets[b] as number));
  const lines = new Array<number>(offsets.length);
  let line = 1;
  let nextBreak = text.indexOf('\n');
  for (const i of order) {
    while (nextBreak >= 0 && nextBreak < (offsets[i] as number)) {
      line += 1;
      nextBreak = text.indexOf('\n', nextBreak + 1);
    }
    lines[i] = line;
  }
  return lines;
}

/**
 * The `[` … `](` pairs of inline links, in order of their `]`: brackets are
 * matched with a stack in one pass (escaped ones ignored; a blank line ends
 * the paragraph and forgets open brackets), which is what looking back from
 * each `](` for its `[` finds, without the quadratic walk back. Outside
 * brackets only a `[` matters: the scan jumps to the next one (most of a page's
 * text lies outside brackets, and a character at a time cost a large import
 * much of its link scan); an odd run of backslashes before it escapes it, as
 * the pairing of each backslash with the next character does.
 */
function* inlineLinkBrackets(masked: string): Generator<[open: number, close: number]> {
  let stack = new Int32Array(64);
  let depth = 0;
  let lineBlank = true;
  for (let i = 0; i < masked.length; i += 1) {
    if (depth === 0) {
      i = masked.indexOf('[', i);
      if (i < 0) return;
      if (isEscaped(masked, i)) continue;
      stack[depth++] = i;
      lineBlank = false;
      continue;
    }
    const c = masked.charCodeAt(i);
    if (c === 10) {
      if (lineBlank) depth = 0;
      lineBlank = true;
      continue;
    }
    if (c !== 32 && c !== 9 && c !== 13) lineBlank = false;
    if (c === 92) {
      // A backslash escapes the next character (not a line break: it still ends the line).
      if (masked.charCodeAt(i + 1) !== 10) i += 1;
      continue;
    }
    if (c === 91) {
      if (depth === stack.length) {
        const grown = new Int32Array(stack.length * 2);
        grown.set(stack);
        stack = grown;
      }
      stack[depth++] = i;
    } else if (c === 93) {
      depth -= 1;
      if (masked.charCodeAt(i + 1) === 40) yield [stack[depth] as number, i];
    }
  }
}

function isEscaped(text: string, at: number): boolean {
  let n = 0;
  for (let i = at - 1; i >= 0 && text[i] === '\\'; i -= 1) n += 1;
  return n % 2 === 1;
}

/** Parses `(destination "title")` from just after the `(`: the destination's offsets and value. */
function parseDestination(
  masked: string,
  original: string,
  from: number,
  closers: ClosingQuotes,
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
  } else {
    let depth = 0;
    while (i < masked.length) {
      const c = masked[i] as string;
      if (c === '\\' && i + 1 < masked.length) {
        i += 2;
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') break;
      if (c === '(') {
        depth += 1;
        if (depth > MAX_DESTINATION_PARENS) return null;
      } else if (c === ')') {
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
    j = closers.after(j + 1, quote === '(' ? ')' : quote);
    if (j < 0) return null;
    j += 1;
    while (j < masked.length && isSpace(masked[j])) j += 1;
  }
  if (masked[j] !== ')') return null;
  const raw = original.slice(start, end);
  return { start, end, target: unescapeDestination(raw) };
}

/** Nested parentheses a destination may hold (cmark's limit); beyond, it is not a link. */
const MAX_DESTINATION_PARENS = 32;

/**
 * The closing quote of a link title: the first unescaped `"`, `'` or `)` from a
 * position just after the opening one. Each answer is remembered with the
 * range it covers, so the titles of a paragraph full of unclosed quotes are
 * searched once, not once each.
 */
class ClosingQuotes {
  private readonly found = new Map<string, { from: number; at: number }>();

  constructor(private readonly masked: string) {}

  after(from: number, closer: string): number {
    const known = this.found.get(closer);
    // The last search found no closer in [known.from, known.at); one from inside that range starts just after an
    // opening quote, so it pairs backslashes as that search did and ends where it ended.
    if (known && from >= known.from && (known.at < 0 || from <= known.at)) return known.at;
    const masked = this.masked;
    let j = from;
    while (j < masked.length && masked[j] !== closer) {
      if (masked[j] === '\\') j += 1;
      j += 1;
    }
    const at = j < masked.length ? j : -1;
    this.found.set(closer, { from, at });
    return at;
  }

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

