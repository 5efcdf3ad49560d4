/** PDF rendering: inline GitBook Markdown (emphasis, code, links, entities, HTML) → styled runs. */
// ===========================================================================
// Markdown: inline

export interface Run {
  /** Unicode text; "\n" alone is a hard line break. */
  text: string;
  bold: boolean;
  italic: boolean;
  code: boolean;
}

type InlineToken =
  | { t: 'text'; v: string; b: number; i: number }
  | { t: 'code'; v: string; b: number; i: number }
  | { t: 'delim'; ch: string; n: number; open: boolean; close: boolean; b: number; i: number }
  | { t: 'html'; what: 'b' | 'i' | 'code'; on: boolean; b: number; i: number }
  | { t: 'br'; b: number; i: number };

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™',
  mdash: '—', ndash: '–', hellip: '…', laquo: '«', raquo: '»', lsquo: '‘', rsquo: '’', ldquo: '“',
  rdquo: '”', bull: '•', middot: '·', times: '×', divide: '÷', deg: '°', euro: '€', para: '¶',
  sect: '§', larr: '←', rarr: '→', le: '≤', ge: '≥', ne: '≠', minus: '−', shy: '\u00ad',
  zwj: '\u200d', zwnj: '\u200c', thinsp: '\u2009', ensp: '\u2002', emsp: '\u2003', check: '✓',
};

function decodeEntity(s: string, i: number): { text: string; end: number } | null {
  const m = /^&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/.exec(s.slice(i, i + 40));
  if (!m) return null;
  const body = m[1]!;
  let text: string | undefined;
  if (body.startsWith('#')) {
    const cp = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    text = cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
  } else {
    text = ENTITIES[body];
  }
  return text === undefined ? null : { text, end: i + m[0].length };
}

const ASCII_PUNCT = /[!-/:-@[-`{-~]/;
const UNICODE_PUNCT = /[\p{P}\p{S}]/u;
const UNICODE_WS = /\s/u;

/** Finds the `]` closing the `[` at `open`, then a `(…)` or `[…]` right after it. */
function parseLinkAt(s: string, open: number): { close: number; end: number } | null {
  let depth = 0;
  let close = -1;
  // Bounded searches keep pathological input (thousands of `[`) linear.
  for (let k = open; k < s.length && k < open + 1000; k++) {
    const c = s[k];
    if (c === '\\') k++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) {
      close = k;
      break;
    }
  }
  if (close < 0) return null;
  const after = s[close + 1];
  if (after === '(') {
    let d = 0;
    for (let k = close + 1; k < s.length && k < close + 4000; k++) {
      const c = s[k];
      if (c === '\\') k++;
      else if (c === '(') d++;
      else if (c === ')' && --d === 0) return { close, end: k + 1 };
    }
    return null;
  }
  if (after === '[') {
    const end = s.indexOf(']', close + 2);
    return end < 0 || end > close + 1000 ? null : { close, end: end + 1 };
  }
  return null;
}

const HTML_TAG = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>$/;

function indexOrEnd(s: string, ch: string, from: number): number {
  const at = s.indexOf(ch, from);
  return at < 0 ? s.length : at;
}

/**
 * Joins a paragraph's lines: soft breaks become a space, hard breaks (two
 * trailing spaces or a backslash) a NUL, which the inline parser reads as a
 * line break. Linear, whatever the input.
 */
function joinLines(src: string): string {
  const text = src.includes('\0') ? src.replace(/\0/g, '') : src;
  if (!text.includes('\n')) return text;
  const parts = text.split('\n');
  const out: string[] = [];
  for (let k = 0; k < parts.length; k++) {
    let part = parts[k]!;
    if (k > 0) {
      let start = 0;
      while (part.charCodeAt(start) === 0x20) start++;
      part = part.slice(start);
    }
    if (k === parts.length - 1) {
      out.push(part);
      break;
    }
    let end = part.length;
    while (end > 0 && part.charCodeAt(end - 1) === 0x20) end--;
    let slashes = 0;
    while (slashes < end && part.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
    if (part.length - end >= 2) out.push(part.slice(0, end), '\0');
    else if (end === part.length && slashes % 2 === 1) out.push(part.slice(0, end - 1), '\0');
    else out.push(part.slice(0, end), ' ');
  }
  return out.join('');
}

/**
 * Parses inline Markdown (GitBook dialect) into styled runs, in three passes: tokens
 * (text, code spans, delimiter runs, HTML styles, breaks), emphasis, then runs.
 */
export function parseInline(src: string): Run[] {
  const tokens = new InlineTokenizer(joinLines(src)).tokenize();
  resolveEmphasis(tokens);
  return trimRuns(toRuns(tokens));
}

/** One left-to-right pass over a paragraph's characters; each construct has its method. */
class InlineTokenizer {
  private readonly tokens: InlineToken[] = [];
  private buf = '';
  /** `]` of a link → index after its destination (the link text stays, the brackets and destination go). */
  private readonly jumps = new Map<number, number>();
  private nextGt = -1;
  private nextLt = -1;

  constructor(private readonly s: string) {}

  tokenize(): InlineToken[] {
    let i = 0;
    while (i < this.s.length) {
      const next = this.jumps.get(i) ?? this.construct(i);
      if (next !== undefined) {
        i = next;
        continue;
      }
      this.buf += this.s[i];
      i++;
    }
    this.flush();
    return this.tokens;
  }

  private flush(): void {
    if (this.buf) this.tokens.push({ t: 'text', v: this.buf, b: 0, i: 0 });
    this.buf = '';
  }

  private push(token: InlineToken): void {
    this.flush();
    this.tokens.push(token);
  }

  /** The index after the construct that starts at `i`; undefined when none does (the character is text). */
  private construct(i: number): number | undefined {
    const s = this.s;
    switch (s[i]) {
      case '\\':
        return this.escape(i);
      case '`':
        return this.codeSpan(i);
      case '!':
        return s[i + 1] === '[' ? parseLinkAt(s, i + 1)?.end : undefined; // images are dropped
      case '[':
        return this.linkText(i);
      case '<':
        return this.angle(i);
      case '{':
        return s[i + 1] === '%' ? this.liquidTag(i) : undefined;
      case '&':
        return this.entity(i);
      case '~':
        return s[i + 1] === '~' ? i + 2 : undefined; // strikethrough: text only
      case '*':
      case '_':
        return this.delimiterRun(i);
      case '\0':
      case '\n':
        this.push({ t: 'br', b: 0, i: 0 });
        return i + 1;
      default:
        return undefined;
    }
  }

  private escape(i: number): number | undefined {
    const next = this.s[i + 1];
    if (next === undefined || !ASCII_PUNCT.test(next)) return undefined;
    this.buf += next;
    return i + 2;
  }

  private codeSpan(i: number): number {
    const s = this.s;
    let n = 1;
    while (s[i + n] === '`') n++;
    const fence = '`'.repeat(n);
    let search = i + n;
    let close: number;
    while ((close = s.indexOf(fence, search)) >= 0) {
      if (s[close + n] !== '`' && s[close - 1] !== '`') break;
      search = close + 1;
      while (s[search] === '`') search++;
    }
    if (close < 0) {
      this.buf += fence;
      return i + n;
    }
    let code = s.slice(i + n, close).replace(/[\n\0]/g, ' ');
    if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
    this.push({ t: 'code', v: code, b: 0, i: 0 });
    return close + n;
  }

  private linkText(i: number): number | undefined {
    const link = parseLinkAt(this.s, i);
    if (!link) return undefined;
    this.jumps.set(link.close, link.end);
    return i + 1;
  }

  /** A comment, an autolink, or an HTML tag (styles and breaks kept, block ends a space). */
  private angle(i: number): number | undefined {
    const s = this.s;
    // A tag ends at the next `>` with no `<` before it (keeps this linear).
    if (this.nextGt <= i) this.nextGt = indexOrEnd(s, '>', i + 1);
    if (this.nextLt <= i) this.nextLt = indexOrEnd(s, '<', i + 1);
    if (s.startsWith('<!--', i)) {
      const end = s.indexOf('-->', i + 4);
      return end < 0 ? s.length : end + 3;
    }
    const rest = this.nextGt < this.nextLt ? s.slice(i, this.nextGt + 1) : '';
    const auto = /^<((?:https?|ftp|mailto):[^\s<>]+|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>$/i.exec(rest);
    if (auto) {
      this.buf += auto[1];
      return i + auto[0].length;
    }
    const tag = HTML_TAG.exec(rest);
    if (!tag) return undefined;
    const name = tag[2]!.toLowerCase();
    const closing = tag[1] === '/';
    if (name === 'br') {
      this.push({ t: 'br', b: 0, i: 0 });
    } else if (name === 'b' || name === 'strong' || name === 'i' || name === 'em' || name === 'code') {
      const what = name === 'code' ? 'code' : name === 'b' || name === 'strong' ? 'b' : 'i';
      this.push({ t: 'html', what, on: !closing, b: 0, i: 0 });
    } else if (/^(p|div|li|tr|h[1-6]|figcaption|summary|blockquote|pre)$/.test(name) && closing) {
      this.buf += ' ';
    } else if ((name === 'td' || name === 'th') && closing) {
      this.buf += ' ';
    }
    return i + tag[0].length;
  }

  private liquidTag(i: number): number | undefined {
    const end = this.s.indexOf('%}', i + 2);
    return end >= 0 ? end + 2 : undefined;
  }

  private entity(i: number): number | undefined {
    const ent = decodeEntity(this.s, i);
    if (!ent) return undefined;
    this.buf += ent.text;
    return ent.end;
  }

  /** A run of `*` or `_`, with whether it can open and close emphasis (CommonMark's flanking rules). */
  private delimiterRun(i: number): number {
    const s = this.s;
    const c = s[i]!;
    let n = 1;
    while (s[i + n] === c) n++;
    const before = i > 0 ? s[i - 1]! : ' ';
    const after = i + n < s.length ? s[i + n]! : ' ';
    const wsBefore = UNICODE_WS.test(before);
    const wsAfter = UNICODE_WS.test(after);
    const punctBefore = UNICODE_PUNCT.test(before);
    const punctAfter = UNICODE_PUNCT.test(after);
    const left = !wsAfter && (!punctAfter || wsBefore || punctBefore);
    const right = !wsBefore && (!punctBefore || wsAfter || punctAfter);
    const open = c === '*' ? left : left && (!right || punctBefore);
    const close = c === '*' ? right : right && (!left || punctAfter);
    this.push({ t: 'delim', ch: c, n, open, close, b: 0, i: 0 });
    return i + n;
  }
}

/**
 * Emphasis: a simplified CommonMark delimiter algorithm (no "rule of 3"), one opener
 * stack per delimiter character. Sets each token's bold and italic depth.
 */
function resolveEmphasis(tokens: InlineToken[]): void {
  const stacks: Record<string, number[]> = { '*': [], _: [] };
  // Styles apply to token ranges: difference arrays, summed afterwards.
  const boldDiff = new Int32Array(tokens.length + 1);
  const italicDiff = new Int32Array(tokens.length + 1);
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k]!;
    if (tok.t !== 'delim') continue;
    const own = stacks[tok.ch]!;
    const other = stacks[tok.ch === '*' ? '_' : '*']!;
    while (tok.close && tok.n > 0 && own.length) {
      const at = own[own.length - 1]!;
      const opener = tokens[at]!;
      if (opener.t !== 'delim') break;
      const use = opener.n >= 2 && tok.n >= 2 ? 2 : 1;
      opener.n -= use;
      tok.n -= use;
      const diff = use === 2 ? boldDiff : italicDiff;
      diff[at + 1]!++;
      diff[k]!--;
      if (opener.n === 0) own.pop();
      // Openers of the other kind inside the pair can no longer match.
      while (other.length && other[other.length - 1]! > at) other.pop();
    }
    if (tok.n > 0 && tok.open) own.push(k);
  }
  let bold = 0;
  let italic = 0;
  for (let k = 0; k < tokens.length; k++) {
    bold += boldDiff[k]!;
    italic += italicDiff[k]!;
    tokens[k]!.b = bold;
    tokens[k]!.i = italic;
  }
}

/** Tokens → runs, merging neighbours of the same style; HTML styles (`<b>`…) nest by count. */
function toRuns(tokens: readonly InlineToken[]): Run[] {
  const runs: Run[] = [];
  const push = (text: string, bold: boolean, italic: boolean, code: boolean): void => {
    if (!text) return;
    const last = runs[runs.length - 1];
    if (last && last.text !== '\n' && text !== '\n' && last.bold === bold && last.italic === italic && last.code === code) last.text += text;
    else runs.push({ text, bold, italic, code });
  };
  let hb = 0;
  let hi = 0;
  let hc = 0;
  for (const tok of tokens) {
    const bold = tok.b > 0 || hb > 0;
    const italic = tok.i > 0 || hi > 0;
    if (tok.t === 'text') push(tok.v, bold, italic, hc > 0);
    else if (tok.t === 'code') push(tok.v, bold, italic, true);
    else if (tok.t === 'delim') push(tok.ch.repeat(tok.n), bold, italic, hc > 0);
    else if (tok.t === 'br') push('\n', false, false, false);
    else {
      const d = tok.on ? 1 : -1;
      if (tok.what === 'b') hb = Math.max(0, hb + d);
      else if (tok.what === 'i') hi = Math.max(0, hi + d);
      else hc = Math.max(0, hc + d);
    }
  }
  return runs;
}

/** Trims the paragraph: blanks at both ends, and line breaks that start or end it. */
function trimRuns(runs: Run[]): Run[] {
  const first = runs[0];
  if (first && !first.code) first.text = first.text.replace(/^\s+/, '');
  const last = runs[runs.length - 1];
  if (last && !last.code && last.text !== '\n') last.text = last.text.trimEnd();
  while (runs.length && (runs[runs.length - 1]!.text === '\n' || runs[runs.length - 1]!.text === '')) runs.pop();
  while (runs.length && (runs[0]!.text === '\n' || runs[0]!.text === '')) runs.shift();
  return runs;
}

export function plainText(runs: Run[]): string {
  return runs.map((r) => (r.text === '\n' ? ' ' : r.text)).join('');
}
