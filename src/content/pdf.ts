/**
 * PDF export of documentation pages written in GitBook-flavoured Markdown,
 * and a minimal text extractor (for tests and `docsctl cr pdf --text`).
 *
 * Rendering: A4 pages, each documentation page starting on a new PDF page
 * with its title as a heading; headings, word-wrapped paragraphs (real
 * Helvetica glyph widths), nested lists, fenced and indented code blocks
 * (Courier on a grey box, long lines cut into several lines, never
 * word-wrapped), blockquotes, rules, tables, inline bold / italic / code,
 * links as their text, GitBook blocks (`{% hint %}` as a box with its style
 * word, `{% tabs %}` one tab after another under its title, other
 * `{% … %}` tags dropped with their inner text kept), HTML tags stripped to
 * their text. A page-number footer, document info (Title, Producer
 * "docsctl"), one bookmark per documentation page, the standard 14 fonts
 * (Helvetica, Helvetica-Bold, -Oblique, -BoldOblique, Courier; not embedded)
 * in WinAnsiEncoding, Flate-compressed content streams, a classic xref table.
 * The output is deterministic (no creation date; the file ID is a hash of the
 * content).
 *
 * Characters: text is written in WinAnsiEncoding (Windows-1252), i.e. Latin-1
 * plus the typographic extras of cp1252 (curly quotes, dashes, bullet, €, …,
 * ™, Œ/œ, Š/š, Ž/ž, Ÿ, ƒ, ˆ, ˜, ‰, ‹ ›, † ‡). A few common symbols outside
 * it are transliterated (→ "->", ≤ "<=", ≥ ">=", ≠ "!=", − "-", thin spaces
 * → space); zero-width characters, variation selectors and control
 * characters are dropped; every other character (CJK, emoji, Greek,
 * Cyrillic, …) becomes `?`. Text is NFC-normalized first, so decomposed
 * accents survive. The document title in the info dictionary and the
 * bookmarks are full Unicode (UTF-16 text strings).
 *
 * Extraction reads the objects (including object streams), inflates
 * FlateDecode streams, follows the page tree in order and interprets the
 * text operators (`Tj`, `TJ`, `'`, `"`, positioning and `cm`), starting a new
 * line whenever the baseline moves; simple fonts only (WinAnsi, else bytes as
 * Latin-1), no Type0/CID fonts, no form XObjects.
 */
import { createHash } from 'node:crypto';
import { deflateSync, inflateRawSync, inflateSync } from 'node:zlib';

export interface PdfInput {
  title: string;
  pages: Array<{ title: string; markdown: string }>;
}

export class PdfError extends Error {
  override readonly name = 'PdfError';
}

// ===========================================================================
// Fonts, metrics, encoding

type FontKey = 'F1' | 'F2' | 'F3' | 'F4' | 'F5';

const FONT_NAMES: Record<FontKey, string> = {
  F1: 'Helvetica',
  F2: 'Helvetica-Bold',
  F3: 'Helvetica-Oblique',
  F4: 'Helvetica-BoldOblique',
  F5: 'Courier',
};

/**
 * Advance widths (1/1000 em) of WinAnsiEncoding codes 32–255, from Adobe's
 * AFM files of the standard 14 fonts (Helvetica-Oblique has the widths of
 * Helvetica, Helvetica-BoldOblique those of Helvetica-Bold; every Courier
 * glyph is 600 wide). Zero marks codes WinAnsi leaves undefined (127, 129,
 * 141, 143, 144, 157), which are never written.
 */
const HELVETICA_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0,
  556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
  0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 667,
  278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
  400, 584, 333, 333, 333, 578, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
  667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
  722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
  556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
  556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
];
const HELVETICA_BOLD_WIDTHS = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
  975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
  333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
  611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 0,
  556, 0, 278, 556, 500, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
  0, 278, 278, 500, 500, 350, 556, 1000, 333, 1000, 556, 333, 944, 0, 500, 667,
  278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 556, 584, 333, 737, 333,
  400, 584, 333, 333, 333, 611, 556, 278, 333, 333, 365, 556, 834, 834, 834, 611,
  722, 722, 722, 722, 722, 722, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
  722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
  556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278,
  611, 611, 611, 611, 611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556,
];
const COURIER_WIDTH = 600;

/** Width of a WinAnsi string (one char per byte) in 1/1000 em. */
function rawWidth(font: FontKey, text: string): number {
  if (font === 'F5') return text.length * COURIER_WIDTH;
  const table = font === 'F2' || font === 'F4' ? HELVETICA_BOLD_WIDTHS : HELVETICA_WIDTHS;
  let w = 0;
  for (let i = 0; i < text.length; i++) w += table[text.charCodeAt(i) - 32] ?? 0;
  return w;
}

function textWidth(font: FontKey, size: number, text: string): number {
  return (rawWidth(font, text) * size) / 1000;
}

/** Unicode → WinAnsi codes 0x80–0x9F (the cp1252 extras). */
const CP1252_EXTRAS: ReadonlyMap<number, number> = new Map([
  [0x20ac, 0x80], [0x201a, 0x82], [0x0192, 0x83], [0x201e, 0x84], [0x2026, 0x85], [0x2020, 0x86],
  [0x2021, 0x87], [0x02c6, 0x88], [0x2030, 0x89], [0x0160, 0x8a], [0x2039, 0x8b], [0x0152, 0x8c],
  [0x017d, 0x8e], [0x2018, 0x91], [0x2019, 0x92], [0x201c, 0x93], [0x201d, 0x94], [0x2022, 0x95],
  [0x2013, 0x96], [0x2014, 0x97], [0x02dc, 0x98], [0x2122, 0x99], [0x0161, 0x9a], [0x203a, 0x9b],
  [0x0153, 0x9c], [0x017e, 0x9e], [0x0178, 0x9f],
]);

/** WinAnsi byte → Unicode, for the extractor. */
const WIN_ANSI_TO_UNICODE: string[] = (() => {
  const table: string[] = [];
  for (let b = 0; b < 256; b++) table.push(String.fromCharCode(b));
  for (const [unicode, code] of CP1252_EXTRAS) table[code] = String.fromCodePoint(unicode);
  return table;
})();

const TRANSLITERATIONS: ReadonlyMap<number, string> = new Map([
  [0x2192, '->'], [0x2190, '<-'], [0x2194, '<->'], [0x21d2, '=>'], [0x21d0, '<='], [0x2264, '<='],
  [0x2265, '>='], [0x2260, '!='], [0x2212, '-'], [0x2010, '-'], [0x2011, '-'], [0x2012, '-'],
  [0x2015, '\x97'], [0x2032, "'"], [0x2033, '"'], [0x2044, '/'], [0x2002, ' '], [0x2003, ' '],
  [0x2004, ' '], [0x2005, ' '], [0x2006, ' '], [0x2007, ' '], [0x2008, ' '], [0x2009, ' '],
  [0x200a, ' '], [0x202f, ' '], [0x205f, ' '], [0x3000, ' '], [0x2028, ' '], [0x2029, ' '],
]);

function isDropped(cp: number): boolean {
  return (
    cp < 0x20 ||
    (cp >= 0x7f && cp < 0xa0) ||
    cp === 0xad || // soft hyphen
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    cp === 0xfeff ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xe0100 && cp <= 0xe01ef) ||
    (cp >= 0x0300 && cp <= 0x036f) // combining marks left over after NFC
  );
}

/** Unicode text → WinAnsi string (one char per byte); see the module comment. */
function toWinAnsi(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const cp = ch.codePointAt(0) ?? 0x3f;
    if ((cp >= 0x20 && cp < 0x7f) || (cp >= 0xa0 && cp <= 0xff && cp !== 0xad)) out += ch;
    else if (cp === 0x09) out += ' ';
    else if (isDropped(cp)) continue;
    else {
      const code = CP1252_EXTRAS.get(cp);
      if (code !== undefined) out += String.fromCharCode(code);
      else out += TRANSLITERATIONS.get(cp) ?? '?';
    }
  }
  return out;
}

// ===========================================================================
// Markdown: inline

interface Run {
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

/** Parses inline Markdown (GitBook dialect) into styled runs. */
function parseInline(src: string): Run[] {
  const s = joinLines(src);
  const tokens: InlineToken[] = [];
  let buf = '';
  const flush = (): void => {
    if (buf) tokens.push({ t: 'text', v: buf, b: 0, i: 0 });
    buf = '';
  };
  const jumps = new Map<number, number>(); // `]` of a link → index after its destination
  let nextGt = -1;
  let nextLt = -1;
  let i = 0;
  while (i < s.length) {
    const jump = jumps.get(i);
    if (jump !== undefined) {
      i = jump;
      continue;
    }
    const c = s[i]!;
    if (c === '\\') {
      const next = s[i + 1];
      if (next !== undefined && ASCII_PUNCT.test(next)) {
        buf += next;
        i += 2;
        continue;
      }
      buf += c;
      i++;
      continue;
    }
    if (c === '`') {
      let n = 1;
      while (s[i + n] === '`') n++;
      const fence = '`'.repeat(n);
      let search = i + n;
      let close = -1;
      while ((close = s.indexOf(fence, search)) >= 0) {
        if (s[close + n] !== '`' && s[close - 1] !== '`') break;
        search = close + 1;
        while (s[search] === '`') search++;
      }
      if (close < 0) {
        buf += fence;
        i += n;
        continue;
      }
      let code = s.slice(i + n, close).replace(/[\n\0]/g, ' ');
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
      flush();
      tokens.push({ t: 'code', v: code, b: 0, i: 0 });
      i = close + n;
      continue;
    }
    if (c === '!' && s[i + 1] === '[') {
      const link = parseLinkAt(s, i + 1);
      if (link) {
        i = link.end; // images are dropped
        continue;
      }
    }
    if (c === '[') {
      const link = parseLinkAt(s, i);
      if (link) {
        jumps.set(link.close, link.end);
        i++;
        continue;
      }
    }
    if (c === '<') {
      // A tag ends at the next `>` with no `<` before it (keeps this linear).
      if (nextGt <= i) nextGt = indexOrEnd(s, '>', i + 1);
      if (nextLt <= i) nextLt = indexOrEnd(s, '<', i + 1);
      const rest = s.startsWith('<!--', i) ? '<!--' : nextGt < nextLt ? s.slice(i, nextGt + 1) : '';
      if (rest.startsWith('<!--')) {
        const end = s.indexOf('-->', i + 4);
        i = end < 0 ? s.length : end + 3;
        continue;
      }
      const auto = /^<((?:https?|ftp|mailto):[^\s<>]+|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>$/i.exec(rest);
      if (auto) {
        buf += auto[1];
        i += auto[0].length;
        continue;
      }
      const tag = HTML_TAG.exec(rest);
      if (tag) {
        const name = tag[2]!.toLowerCase();
        const closing = tag[1] === '/';
        if (name === 'br') {
          flush();
          tokens.push({ t: 'br', b: 0, i: 0 });
        } else if (name === 'b' || name === 'strong' || name === 'i' || name === 'em' || name === 'code') {
          flush();
          const what = name === 'code' ? 'code' : name === 'b' || name === 'strong' ? 'b' : 'i';
          tokens.push({ t: 'html', what, on: !closing, b: 0, i: 0 });
        } else if (/^(p|div|li|tr|h[1-6]|figcaption|summary|blockquote|pre)$/.test(name) && closing) {
          buf += ' ';
        } else if (name === 'td' || name === 'th') {
          if (closing) buf += ' ';
        }
        i += tag[0].length;
        continue;
      }
    }
    if (c === '{' && s[i + 1] === '%') {
      const end = s.indexOf('%}', i + 2);
      if (end >= 0) {
        i = end + 2;
        continue;
      }
    }
    if (c === '&') {
      const ent = decodeEntity(s, i);
      if (ent) {
        buf += ent.text;
        i = ent.end;
        continue;
      }
    }
    if (c === '~' && s[i + 1] === '~') {
      i += 2; // strikethrough: text only
      continue;
    }
    if (c === '*' || c === '_') {
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
      flush();
      tokens.push({ t: 'delim', ch: c, n, open, close, b: 0, i: 0 });
      i += n;
      continue;
    }
    if (c === '\0' || c === '\n') {
      flush();
      tokens.push({ t: 'br', b: 0, i: 0 });
      i++;
      continue;
    }
    buf += c;
    i++;
  }
  flush();

  // Emphasis: a simplified CommonMark delimiter algorithm (no "rule of 3"),
  // one opener stack per delimiter character.
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
  // Trim the paragraph.
  const first = runs[0];
  if (first && !first.code) first.text = first.text.replace(/^\s+/, '');
  const last = runs[runs.length - 1];
  if (last && !last.code && last.text !== '\n') last.text = last.text.trimEnd();
  while (runs.length && (runs[runs.length - 1]!.text === '\n' || runs[runs.length - 1]!.text === '')) runs.pop();
  while (runs.length && (runs[0]!.text === '\n' || runs[0]!.text === '')) runs.shift();
  return runs;
}

function plainText(runs: Run[]): string {
  return runs.map((r) => (r.text === '\n' ? ' ' : r.text)).join('');
}

// ===========================================================================
// Markdown: blocks

type Block =
  | { kind: 'heading'; level: number; text: Run[] }
  | { kind: 'paragraph'; text: Run[] }
  | { kind: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { kind: 'code'; lines: string[] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'hr' }
  | { kind: 'hint'; style: string; blocks: Block[] }
  | { kind: 'tabTitle'; text: Run[] }
  | { kind: 'caption'; text: Run[] }
  | { kind: 'table'; rows: Run[][][]; header: boolean };

const RE_FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const RE_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const RE_HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const RE_QUOTE = /^ {0,3}> ?(.*)$/;
const RE_LIST = /^( *)([-*+]|\d{1,9}[.)])(?:([ \t]+)(.*))?$/;
const RE_TABLE_DELIM = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const RE_REFDEF = /^ {0,3}\[[^\]]+\]:[ \t]*\S+/;
const RE_SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const RE_HTML_BLOCK =
  /^ {0,3}<\/?(p|div|figure|figcaption|details|summary|table|thead|tbody|tfoot|tr|td|th|ul|ol|li|img|picture|source|br|hr|h[1-6]|pre|blockquote|section|center|iframe|video|audio|object|embed|dl|dt|dd|colgroup|col|caption|article|aside|header|footer|nav|main)(\s|\/?>|$)/i;

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) {
    if (ch === '\t') out += ' '.repeat(4 - (out.length % 4));
    else out += ch;
  }
  return out;
}

function listMarker(line: string): { indent: number; marker: string; ordered: boolean; spaces: number; content: string } | null {
  if (RE_HR.test(line)) return null;
  const m = RE_LIST.exec(line);
  if (!m) return null;
  const marker = m[2]!;
  const content = m[4] ?? '';
  let spaces = (m[3] ?? '').length;
  if (spaces === 0 || spaces > 4 || content === '') spaces = 1;
  return { indent: m[1]!.length, marker, ordered: /\d/.test(marker), spaces, content };
}

/** Index of a `{%` (closed later on the line) outside inline code, or -1. */
function findTag(line: string): number {
  const lastClose = line.lastIndexOf('%}');
  let ticks = 0;
  for (let k = 0; k + 2 <= lastClose; k++) {
    const c = line.charCodeAt(k);
    if (c === 0x60) ticks++;
    else if (c === 0x7b && line.charCodeAt(k + 1) === 0x25 && ticks % 2 === 0) return k;
  }
  return -1;
}

/** An ATX heading's text without its optional closing `#`s. */
function headingText(raw: string): string {
  const text = raw.trimEnd();
  let k = text.length;
  while (k > 0 && text[k - 1] === '#') k--;
  if (k === text.length) return text;
  return k === 0 || text[k - 1] === ' ' || text[k - 1] === '\t' ? text.slice(0, k).trimEnd() : text;
}

function isTableStart(lines: string[], i: number): boolean {
  const line = lines[i];
  const next = lines[i + 1];
  return line !== undefined && next !== undefined && line.includes('|') && next.includes('-') && (next.includes('|') || line.trim().startsWith('|')) && RE_TABLE_DELIM.test(next);
}

function startsBlock(line: string): boolean {
  if (RE_FENCE.test(line) || RE_HEADING.test(line) || RE_HR.test(line) || RE_QUOTE.test(line)) return true;
  if (RE_HTML_BLOCK.test(line) || line.trimStart().startsWith('{%') || line.trimStart().startsWith('<!--')) return true;
  const m = listMarker(line);
  return m !== null && m.content !== '' && (!m.ordered || m.marker.startsWith('1'));
}

function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  let ticks = false;
  for (let k = 0; k < row.length; k++) {
    const c = row[k]!;
    if (c === '\\' && row[k + 1] === '|') {
      cell += '|';
      k++;
    } else if (c === '`') {
      ticks = !ticks;
      cell += c;
    } else if (c === '|' && !ticks) {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

function tagAttr(body: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(body);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** Deepest nesting of lists, quotes and hints; deeper markers are read as text. */
const MAX_NESTING = 12;

/**
 * Puts every liquid tag preceded by text on a line of its own, outside
 * (roughly tracked) fenced code.
 */
function splitTagLines(source: readonly string[]): string[] {
  const lines: string[] = [];
  let fence = '';
  for (const raw of source) {
    const line = expandTabs(raw);
    const f = /^[\s>]*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1]!;
      else if (f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim().replace(/^[>\s]*/, '') === f[1]) fence = '';
    }
    if (fence || f) {
      lines.push(line);
      continue;
    }
    let rest = line;
    let at: number;
    while ((at = findTag(rest)) > 0 && rest.slice(0, at).trim() !== '') {
      lines.push(rest.slice(0, at));
      rest = rest.slice(at);
    }
    lines.push(rest);
  }
  return lines;
}

function parseBlocks(source: readonly string[], depth = 0): Block[] {
  const lines = splitTagLines(source);
  const root: Block[] = [];
  const stack: Block[][] = [root];
  const out = (): Block[] => stack[stack.length - 1]!;
  let ignoredHints = 0;

  const handleTag = (body: string): void => {
    const name = /^[\w-]*/.exec(body)![0];
    if (name === 'hint' && depth + stack.length > MAX_NESTING) {
      ignoredHints++;
    } else if (name === 'hint') {
      const hint: Block = { kind: 'hint', style: (tagAttr(body, 'style') ?? 'info').toLowerCase(), blocks: [] };
      out().push(hint);
      stack.push(hint.blocks);
    } else if (name === 'endhint') {
      if (ignoredHints > 0) ignoredHints--;
      else if (stack.length > 1) stack.pop();
    } else if (name === 'tab') {
      const title = tagAttr(body, 'title');
      if (title) out().push({ kind: 'tabTitle', text: parseInline(title) });
    } else if (name === 'code') {
      const title = tagAttr(body, 'title');
      if (title) out().push({ kind: 'caption', text: parseInline(title) });
    }
    // Every other tag (tabs, endtab, content-ref, embed, stepper, columns, swagger, file, …) is dropped.
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }

    // Liquid tags: each on a line of its own.
    const tagAt = findTag(line);
    if (tagAt > 0 && line.slice(0, tagAt).trim() !== '') {
      lines.splice(i, 1, line.slice(0, tagAt), line.slice(tagAt));
      continue;
    }
    if (tagAt >= 0) {
      const end = line.indexOf('%}', tagAt);
      handleTag(line.slice(tagAt + 2, end).trim());
      lines[i] = line.slice(end + 2);
      continue;
    }
    if (line.trimStart().startsWith('{%')) {
      // A tag spread over several lines.
      let j = i;
      let text = '';
      while (j < lines.length && j < i + 50) {
        text += `${lines[j]} `;
        if (lines[j]!.includes('%}')) break;
        j++;
      }
      const end = text.indexOf('%}');
      if (end >= 0) {
        handleTag(text.slice(text.indexOf('{%') + 2, end).trim());
        i = j + 1;
        continue;
      }
    }

    // Fenced code.
    const fence = RE_FENCE.exec(line);
    if (fence && !(fence[2]!.startsWith('`') && fence[3]!.includes('`'))) {
      const indent = fence[1]!.length;
      const marker = fence[2]!;
      const code: string[] = [];
      i++;
      while (i < lines.length) {
        const l = lines[i]!;
        const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
        if (close.test(l)) {
          i++;
          break;
        }
        code.push(l.slice(Math.min(indent, indentOf(l))));
        i++;
      }
      out().push({ kind: 'code', lines: code });
      continue;
    }

    const heading = RE_HEADING.exec(line);
    if (heading) {
      out().push({ kind: 'heading', level: heading[1]!.length, text: parseInline(headingText(heading[2] ?? '')) });
      i++;
      continue;
    }

    if (RE_HR.test(line)) {
      out().push({ kind: 'hr' });
      i++;
      continue;
    }

    if (RE_QUOTE.test(line) && depth < MAX_NESTING) {
      const inner: string[] = [];
      while (i < lines.length) {
        const l = lines[i]!;
        const q = RE_QUOTE.exec(l);
        if (q) inner.push(q[1]!);
        else if (!isBlank(l) && !startsBlock(l) && inner.length && !isBlank(inner[inner.length - 1]!)) inner.push(l);
        else break;
        i++;
      }
      out().push({ kind: 'quote', blocks: parseBlocks(inner, depth + 1) });
      continue;
    }

    const marker = listMarker(line);
    if (marker && marker.indent < 4 && depth < MAX_NESTING) {
      i = parseList(lines, i, out(), depth);
      continue;
    }

    if (isTableStart(lines, i)) {
      const rows: Run[][][] = [splitRow(line).map(parseInline)];
      i += 2;
      while (i < lines.length && !isBlank(lines[i]!) && lines[i]!.includes('|') && !startsBlock(lines[i]!)) {
        rows.push(splitRow(lines[i]!).map(parseInline));
        i++;
      }
      out().push({ kind: 'table', rows, header: true });
      continue;
    }

    if (RE_REFDEF.test(line)) {
      i++;
      continue;
    }

    if (line.trimStart().startsWith('<!--')) {
      let j = i;
      while (j < lines.length && !lines[j]!.includes('-->')) j++;
      if (j >= lines.length) {
        i = j;
        continue;
      }
      lines[j] = lines[j]!.slice(lines[j]!.indexOf('-->') + 3);
      i = j;
      continue;
    }

    if (RE_HTML_BLOCK.test(line)) {
      const h = /^\s*<h([1-6])\b[^>]*>(.*?)(<\/h\1>)?\s*$/i.exec(line);
      const summary = /^\s*<summary\b[^>]*>(.*?)<\/summary>\s*$/i.exec(line);
      if (h) out().push({ kind: 'heading', level: Number(h[1]), text: parseInline(h[2]!) });
      else if (/^\s*<hr\b[^>]*>\s*$/i.test(line)) out().push({ kind: 'hr' });
      else {
        const text = parseInline(line);
        if (text.length) {
          if (summary) for (const r of text) r.bold = true;
          out().push({ kind: 'paragraph', text });
        }
      }
      i++;
      continue;
    }

    // Indented code (after a blank line, not a list).
    if (indentOf(line) >= 4 && (i === 0 || isBlank(lines[i - 1]!))) {
      const code: string[] = [];
      while (i < lines.length && (isBlank(lines[i]!) || indentOf(lines[i]!) >= 4)) {
        code.push(lines[i]!.slice(4));
        i++;
      }
      while (code.length && isBlank(code[code.length - 1]!)) code.pop();
      out().push({ kind: 'code', lines: code });
      continue;
    }

    // Paragraph.
    const para: string[] = [line.trimStart()];
    let setext = 0;
    let j = i + 1;
    while (j < lines.length) {
      const l = lines[j]!;
      if (isBlank(l)) break;
      const st = RE_SETEXT.exec(l);
      if (st) {
        setext = st[1]!.startsWith('=') ? 1 : 2;
        j++;
        break;
      }
      if (startsBlock(l) || isTableStart(lines, j)) break;
      const tp = findTag(l);
      if (tp >= 0) {
        if (tp > 0 && l.slice(0, tp).trim()) {
          para.push(l.slice(0, tp).trimStart());
          lines[j] = l.slice(tp);
        }
        break;
      }
      para.push(l.trimStart());
      j++;
    }
    const text = parseInline(para.join('\n'));
    if (setext) out().push({ kind: 'heading', level: setext, text });
    else if (text.length) out().push({ kind: 'paragraph', text });
    i = j;
  }
  return root;
}

/** Parses the list starting at `start` into `out`; returns the index after it. */
function parseList(lines: string[], start: number, out: Block[], depth: number): number {
  const first = listMarker(lines[start]!)!;
  const list: { kind: 'list'; ordered: boolean; start: number; items: Block[][] } = {
    kind: 'list',
    ordered: first.ordered,
    start: first.ordered ? Number.parseInt(first.marker, 10) : 1,
    items: [],
  };
  out.push(list);
  let i = start;
  while (i < lines.length) {
    const m = listMarker(lines[i]!);
    if (!m || m.ordered !== first.ordered) break;
    const contentOffset = m.indent + m.marker.length + m.spaces;
    const itemLines = [m.content];
    let lastBlank = false;
    i++;
    while (i < lines.length) {
      const l = lines[i]!;
      if (isBlank(l)) {
        itemLines.push('');
        lastBlank = true;
        i++;
        continue;
      }
      if (indentOf(l) >= contentOffset) {
        itemLines.push(l.slice(contentOffset));
        lastBlank = false;
        i++;
        continue;
      }
      if (listMarker(l) || lastBlank || startsBlock(l) || findTag(l) >= 0) break;
      itemLines.push(l.trimStart()); // lazy continuation
      i++;
    }
    while (itemLines.length && isBlank(itemLines[itemLines.length - 1]!)) itemLines.pop();
    list.items.push(parseBlocks(itemLines, depth + 1));
  }
  return i;
}

// ===========================================================================
// Layout

const PAGE_W = 595.28;
const PAGE_H = 841.89;
const MARGIN_X = 56.69;
const TOP = PAGE_H - 56.69;
const BOTTOM = 62;
const CONTENT_W = PAGE_W - 2 * MARGIN_X;
const FOOTER_Y = 30;

const BODY_SIZE = 10.5;
const BODY_LEADING = 1.45;
const HEADING_SIZES = [19, 16, 13.5, 12, 11, 10.5];
const CODE_SIZE = 8.8;
const CODE_LEADING = 1.3;
const TITLE_SIZE = 22;

type Color = number | readonly [number, number, number];
const BLACK: Color = 0.1;

interface Seg {
  font: FontKey;
  size: number;
  /** WinAnsi text, one char per byte. */
  text: string;
  w: number;
}

type Op =
  | { k: 't'; x: number; y: number; segs: Seg[]; color: Color }
  | { k: 'r'; x: number; y: number; w: number; h: number; fill: Color }
  | { k: 'l'; x1: number; y1: number; x2: number; y2: number; color: Color; width: number };

interface PageBuf {
  ops: Op[];
  /** Lowest y reached before a page break. */
  breakY: number;
}

interface Mark {
  page: number;
  y: number;
  op: number;
}

const HINT_STYLES: Record<string, { label: string; bar: Color; fill: Color }> = {
  info: { label: 'Info', bar: [0.2, 0.45, 0.85], fill: [0.93, 0.96, 1] },
  success: { label: 'Success', bar: [0.16, 0.6, 0.3], fill: [0.92, 0.98, 0.93] },
  warning: { label: 'Warning', bar: [0.88, 0.58, 0.08], fill: [1, 0.97, 0.89] },
  danger: { label: 'Danger', bar: [0.85, 0.2, 0.2], fill: [1, 0.94, 0.94] },
};

function fontFor(run: Run, baseBold: boolean): FontKey {
  if (run.code) return 'F5';
  const bold = run.bold || baseBold;
  if (bold) return run.italic ? 'F4' : 'F2';
  return run.italic ? 'F3' : 'F1';
}

function makeSeg(font: FontKey, size: number, text: string): Seg {
  return { font, size, text, w: textWidth(font, size, text) };
}

function appendSeg(line: Seg[], seg: Seg): void {
  const last = line[line.length - 1];
  if (last && last.font === seg.font && last.size === seg.size) {
    last.text += seg.text;
    last.w += seg.w;
  } else line.push({ ...seg });
}

/** Greedy word wrap of styled runs into lines no wider than maxW (breaking inside over-long words). */
function wrapRuns(runs: Run[], maxW: number, size: number, baseBold = false): Seg[][] {
  const lines: Seg[][] = [];
  let line: Seg[] = [];
  let lineW = 0;
  let space: Seg | null = null;
  let word: Seg[] = [];
  let wordW = 0;

  const endLine = (): void => {
    lines.push(line);
    line = [];
    lineW = 0;
    space = null;
  };
  const placeWord = (): void => {
    if (word.length === 0) return;
    // An over-long word is cut anyway: it starts on the current line.
    if (line.length && space && lineW + space.w + wordW > maxW && wordW <= maxW) endLine();
    if (line.length && space) {
      appendSeg(line, space);
      lineW += space.w;
    }
    space = null;
    if (lineW + wordW <= maxW + 0.01) {
      for (const seg of word) appendSeg(line, seg);
      lineW += wordW;
    } else {
      // Over-long word: cut it where the line is full.
      for (const seg of word) {
        for (const ch of seg.text) {
          const piece = makeSeg(seg.font, seg.size, ch);
          if (line.length && lineW + piece.w > maxW) endLine();
          appendSeg(line, piece);
          lineW += piece.w;
        }
      }
    }
    word = [];
    wordW = 0;
  };

  for (const run of runs) {
    if (run.text === '\n') {
      placeWord();
      endLine();
      continue;
    }
    const font = fontFor(run, baseBold);
    const sz = run.code ? size * 0.92 : size;
    const text = toWinAnsi(run.text);
    for (const part of text.split(/( +)/)) {
      if (!part) continue;
      if (part.startsWith(' ')) {
        placeWord();
        if (line.length) space = makeSeg(font, sz, ' ');
      } else {
        const seg = makeSeg(font, sz, part);
        word.push(seg);
        wordW += seg.w;
      }
    }
  }
  placeWord();
  if (line.length) endLine();
  return lines;
}

class Layout {
  readonly pages: PageBuf[] = [];
  y = TOP;
  /** Space to leave before the next content. */
  pending = 0;
  /** A list marker waiting for the first line of its item. */
  marker: { x: number; segs: Seg[]; color: Color } | null = null;

  get page(): PageBuf {
    return this.pages[this.pages.length - 1]!;
  }

  newPage(): void {
    if (this.pages.length) this.page.breakY = this.y;
    this.pages.push({ ops: [], breakY: BOTTOM });
    this.y = TOP;
    this.pending = 0;
  }

  atTop(): boolean {
    return this.y >= TOP - 0.01;
  }

  /**
   * Before placing `h` points of content: applies the pending space, or
   * starts a new page when both do not fit on this one.
   */
  ensure(h: number): void {
    if (this.atTop()) this.pending = 0;
    else if (this.y - this.pending - h < BOTTOM) this.newPage();
    else {
      this.y -= this.pending;
      this.pending = 0;
    }
  }

  /** Vertical space before the next content; adjacent spaces collapse to the largest, dropped at a page top. */
  space(h: number): void {
    this.pending = Math.max(this.pending, h);
  }

  /** Forgets the pending space (at the end of a box). */
  dropSpace(): void {
    this.pending = 0;
  }

  mark(): Mark {
    return { page: this.pages.length - 1, y: this.y, op: this.page.ops.length };
  }

  text(x: number, baseline: number, segs: Seg[], color: Color): void {
    if (this.marker) {
      this.page.ops.push({ k: 't', x: this.marker.x, y: baseline, segs: this.marker.segs, color: this.marker.color });
      this.marker = null;
    }
    if (segs.length) this.page.ops.push({ k: 't', x, y: baseline, segs, color });
  }

  /** Places wrapped lines, breaking pages as needed. */
  lines(lines: Seg[][], x: number, size: number, leading: number, color: Color): void {
    const lh = size * leading;
    for (const line of lines) {
      this.ensure(lh);
      this.text(x, this.y - (lh - size) / 2 - size * 0.8, line, color);
      this.y -= lh;
    }
  }

  /**
   * Draws a background spanning from `start` to the current position, on
   * every page in between, beneath what was drawn there since.
   */
  background(start: Mark, draw: (top: number, bottom: number) => Op[]): void {
    const endPage = this.pages.length - 1;
    for (let p = start.page; p <= endPage; p++) {
      const top = p === start.page ? start.y : TOP + 4;
      const bottom = p === endPage ? this.y : Math.max(this.pages[p]!.breakY - 4, BOTTOM - 8);
      if (top - bottom < 0.5) continue;
      this.pages[p]!.ops.splice(p === start.page ? start.op : 0, 0, ...draw(top, bottom));
    }
  }
}

interface Env {
  color: Color;
  listDepth: number;
  inList: boolean;
}

function renderBlocks(L: Layout, blocks: Block[], x: number, w: number, env: Env): void {
  const gap = env.inList ? 3 : 7;
  const bodyLh = BODY_SIZE * BODY_LEADING;
  for (const block of blocks) {
    switch (block.kind) {
      case 'paragraph': {
        L.lines(wrapRuns(block.text, w, BODY_SIZE), x, BODY_SIZE, BODY_LEADING, env.color);
        L.space(gap);
        break;
      }
      case 'heading': {
        const size = HEADING_SIZES[block.level - 1] ?? BODY_SIZE;
        const lines = wrapRuns(block.text, w, size, true);
        L.space(size * 0.7);
        L.ensure(size * 1.3 * Math.min(lines.length, 2) + bodyLh * 2);
        L.lines(lines, x, size, 1.3, block.level <= 2 ? BLACK : 0.15);
        L.space(block.level <= 2 ? 5 : 3);
        break;
      }
      case 'tabTitle':
      case 'caption': {
        const tab = block.kind === 'tabTitle';
        const size = tab ? 11.5 : 9;
        const lines = wrapRuns(block.text, w, size, true);
        if (tab) L.space(6);
        L.ensure(size * 1.35 * lines.length + bodyLh * 2);
        L.lines(lines, x, size, 1.35, tab ? [0.15, 0.3, 0.55] : 0.35);
        if (tab) {
          L.page.ops.push({ k: 'l', x1: x, y1: L.y + 1, x2: x + Math.min(w, 120), y2: L.y + 1, color: [0.6, 0.7, 0.85], width: 0.6 });
          L.space(5);
        } else L.space(2);
        break;
      }
      case 'list': {
        const bullets = ['\x95', '\x96'];
        const markerSize = BODY_SIZE;
        const markers = block.items.map((_, k) =>
          block.ordered ? `${block.start + k}.` : (bullets[env.listDepth % bullets.length] ?? '\x95'),
        );
        const markerW = markers.reduce((max, m) => Math.max(max, textWidth('F1', markerSize, m)), 0);
        const indent = Math.max(16, markerW + 6);
        for (const [k, item] of block.items.entries()) {
          const m = markers[k]!;
          const segs = [makeSeg('F1', markerSize, m)];
          L.marker = { x: block.ordered ? x + indent - 5 - segs[0]!.w : x + 4, segs, color: env.color };
          renderBlocks(L, item, x + indent, w - indent, { ...env, listDepth: env.listDepth + 1, inList: true });
          if (L.marker) {
            // An empty item: the marker alone.
            L.lines([[]], x + indent, BODY_SIZE, BODY_LEADING, env.color);
          }
          L.space(3);
        }
        L.space(gap);
        break;
      }
      case 'code':
        renderCode(L, block.lines, x, w);
        L.space(gap + 2);
        break;
      case 'quote': {
        L.ensure(bodyLh);
        const start = L.mark();
        renderBlocks(L, block.blocks, x + 14, w - 14, { ...env, color: 0.35 });
        L.dropSpace();
        L.background(start, (top, bottom) => [
          { k: 'l', x1: x + 3, y1: top, x2: x + 3, y2: bottom, color: 0.8, width: 2.5 },
        ]);
        L.space(gap + 2);
        break;
      }
      case 'hr': {
        L.space(6);
        L.ensure(2);
        L.page.ops.push({ k: 'l', x1: x, y1: L.y, x2: x + w, y2: L.y, color: 0.75, width: 0.7 });
        L.space(10);
        break;
      }
      case 'hint': {
        const style = HINT_STYLES[block.style] ?? {
          label: block.style.charAt(0).toUpperCase() + block.style.slice(1),
          bar: 0.5,
          fill: 0.95,
        };
        const pad = 8;
        const bar = 3;
        L.space(4);
        L.ensure(pad + 9 * 1.4 + bodyLh + pad);
        const start = L.mark();
        L.y -= pad;
        const inner = x + bar + pad + 4;
        const innerW = w - bar - 2 * pad - 4;
        L.lines([[makeSeg('F2', 9, toWinAnsi(style.label))]], inner, 9, 1.4, style.bar);
        L.y -= 2;
        renderBlocks(L, block.blocks, inner, innerW, { ...env, inList: false });
        L.dropSpace();
        L.y -= pad;
        L.background(start, (top, bottom) => [
          { k: 'r', x, y: bottom, w, h: top - bottom, fill: style.fill },
          { k: 'r', x, y: bottom, w: bar, h: top - bottom, fill: style.bar },
        ]);
        L.space(gap + 4);
        break;
      }
      case 'table':
        renderTable(L, block, x, w, env);
        L.space(gap + 2);
        break;
    }
  }
}

function renderCode(L: Layout, source: string[], x: number, w: number): void {
  const pad = 6;
  const size = CODE_SIZE;
  const lh = size * CODE_LEADING;
  const maxChars = Math.max(8, Math.floor((w - 2 * pad) / ((COURIER_WIDTH * size) / 1000)));
  const lines: string[] = [];
  for (const raw of source) {
    const text = toWinAnsi(expandTabs(raw).trimEnd());
    if (text.length <= maxChars) lines.push(text);
    else for (let k = 0; k < text.length; k += maxChars) lines.push(text.slice(k, k + maxChars));
  }
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return;
  let k = 0;
  L.ensure(2 * pad + lh);
  while (k < lines.length) {
    const room = Math.floor((L.y - BOTTOM - 2 * pad) / lh);
    if (room < Math.min(2, lines.length - k) && !L.atTop()) {
      L.newPage();
      continue;
    }
    const n = Math.max(1, Math.min(room, lines.length - k));
    const h = n * lh + 2 * pad;
    L.page.ops.push({ k: 'r', x, y: L.y - h, w, h, fill: 0.95 });
    L.y -= pad;
    for (let j = 0; j < n; j++) {
      const text = lines[k + j]!;
      L.text(x + pad, L.y - (lh - size) / 2 - size * 0.8, text ? [makeSeg('F5', size, text)] : [], 0.12);
      L.y -= lh;
    }
    L.y -= pad;
    k += n;
  }
}

const MAX_TABLE_COLUMNS = 12;

function renderTable(L: Layout, table: { rows: Run[][][]; header: boolean }, x: number, w: number, env: Env): void {
  const size = 9.5;
  const lh = size * 1.35;
  const pad = 4;
  const cols = table.rows.reduce((max, r) => Math.max(max, r.length), 1);
  if (cols > MAX_TABLE_COLUMNS) {
    // Too many columns for the page: one line per row, cells separated by " | ".
    for (const [r, row] of table.rows.entries()) {
      const runs = row.flatMap((cell, c) => (c ? [{ text: ' | ', bold: false, italic: false, code: false }, ...cell] : cell));
      L.lines(wrapRuns(runs, w, size, table.header && r === 0), x, size, 1.35, env.color);
    }
    return;
  }
  // Column widths: proportional to each column's natural width, at least a minimum.
  const natural = new Array<number>(cols).fill(20);
  for (const row of table.rows) {
    for (const [c, cell] of row.entries()) {
      const one = wrapRuns(cell, Number.POSITIVE_INFINITY, size)[0] ?? [];
      natural[c] = Math.max(natural[c]!, one.reduce((s, seg) => s + seg.w, 0) + 2 * pad);
    }
  }
  const total = natural.reduce((a, b) => a + b, 0);
  let widths: number[];
  if (total <= w) widths = natural.map((n) => n + (w - total) / cols);
  else {
    const min = Math.min(50, w / cols);
    widths = natural.map((n) => Math.max(min, (n / total) * w));
    const sum = widths.reduce((a, b) => a + b, 0);
    widths = widths.map((cw) => (cw * w) / sum);
  }
  for (const [r, row] of table.rows.entries()) {
    const head = table.header && r === 0;
    const cells = Array.from({ length: cols }, (_, c) => wrapRuns(row[c] ?? [], widths[c]! - 2 * pad, size, head));
    const n = Math.max(1, ...cells.map((c) => c.length));
    const h = n * lh + 2 * pad;
    if (h > TOP - BOTTOM) {
      // Taller than a page: degrade to a paragraph per cell.
      for (const cell of row) L.lines(wrapRuns(cell, w, size, head), x, size, 1.35, env.color);
      continue;
    }
    L.ensure(h);
    const top = L.y;
    if (head) L.page.ops.push({ k: 'r', x, y: top - h, w, h, fill: 0.93 });
    // Text line by line across the cells, so that extraction reads rows.
    for (let j = 0; j < n; j++) {
      let cx = x;
      for (let c = 0; c < cols; c++) {
        const line = cells[c]![j];
        if (line?.length) L.text(cx + pad, top - pad - j * lh - (lh - size) / 2 - size * 0.8, line, env.color);
        cx += widths[c]!;
      }
    }
    const ops = L.page.ops;
    ops.push({ k: 'l', x1: x, y1: top - h, x2: x + w, y2: top - h, color: 0.8, width: 0.5 });
    if (r === 0) ops.push({ k: 'l', x1: x, y1: top, x2: x + w, y2: top, color: 0.8, width: 0.5 });
    let cx = x;
    for (let c = 0; c <= cols; c++) {
      ops.push({ k: 'l', x1: cx, y1: top, x2: cx, y2: top - h, color: 0.8, width: 0.5 });
      cx += widths[c] ?? 0;
    }
    L.y -= h;
  }
}

function renderDocPage(L: Layout, page: { title: string; markdown: string }): void {
  L.newPage();
  const titleLines = wrapRuns([{ text: page.title, bold: true, italic: false, code: false }], CONTENT_W, TITLE_SIZE, true);
  L.lines(titleLines, MARGIN_X, TITLE_SIZE, 1.2, BLACK);
  L.y -= 4;
  L.page.ops.push({ k: 'l', x1: MARGIN_X, y1: L.y, x2: MARGIN_X + CONTENT_W, y2: L.y, color: 0.8, width: 0.8 });
  L.y -= 14;
  const blocks = parseBlocks(page.markdown.replace(/\r\n?/g, '\n').split('\n'));
  // Git Sync bodies may repeat the title as their first heading.
  const first = blocks[0];
  if (first?.kind === 'heading' && first.level === 1 && plainText(first.text).trim().toLowerCase() === page.title.trim().toLowerCase()) {
    blocks.shift();
  }
  renderBlocks(L, blocks, MARGIN_X, CONTENT_W, { color: BLACK, listDepth: 0, inList: false });
}

// ===========================================================================
// Serialization

function num(n: number): string {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

function colorOp(c: Color, stroke: boolean): string {
  if (typeof c === 'number') return `${num(c)} ${stroke ? 'G' : 'g'}`;
  return `${num(c[0])} ${num(c[1])} ${num(c[2])} ${stroke ? 'RG' : 'rg'}`;
}

/** A PDF literal string from WinAnsi text (non-ASCII bytes as octal escapes). */
function pdfString(text: string): string {
  let out = '(';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x28 || c === 0x29 || c === 0x5c) out += `\\${text[i]}`;
    else if (c < 0x20 || c > 0x7e) out += `\\${c.toString(8).padStart(3, '0')}`;
    else out += text[i];
  }
  return `${out})`;
}

/** A PDF text string (info, bookmarks): ASCII literal, or UTF-16BE with a BOM. */
function pdfTextString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return pdfString(text);
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

function contentStream(ops: Op[]): string {
  const out: string[] = [];
  for (const op of ops) {
    if (op.k === 'r') {
      out.push(`q ${colorOp(op.fill, false)} ${num(op.x)} ${num(op.y)} ${num(op.w)} ${num(op.h)} re f Q`);
    } else if (op.k === 'l') {
      out.push(`q ${colorOp(op.color, true)} ${num(op.width)} w ${num(op.x1)} ${num(op.y1)} m ${num(op.x2)} ${num(op.y2)} l S Q`);
    } else {
      let s = `BT ${colorOp(op.color, false)} ${num(op.x)} ${num(op.y)} Td`;
      let font = '';
      for (const seg of op.segs) {
        const f = `/${seg.font} ${num(seg.size)} Tf`;
        if (f !== font) {
          s += ` ${f}`;
          font = f;
        }
        s += ` ${pdfString(seg.text)} Tj`;
      }
      out.push(`${s} ET`);
    }
  }
  return out.join('\n');
}

export function renderPdf(doc: PdfInput): Uint8Array {
  const L = new Layout();
  const firstPages: number[] = [];
  for (const page of doc.pages) {
    renderDocPage(L, page);
    firstPages.push(L.pages.length - 1);
  }
  if (L.pages.length === 0) {
    L.newPage();
    L.lines(wrapRuns([{ text: doc.title, bold: true, italic: false, code: false }], CONTENT_W, TITLE_SIZE, true), MARGIN_X, TITLE_SIZE, 1.2, BLACK);
  }

  // Footers.
  const total = L.pages.length;
  const footerTitle = toWinAnsi(doc.title);
  for (const [p, page] of L.pages.entries()) {
    const label = makeSeg('F1', 8, `Page ${p + 1} of ${total}`);
    let title = footerTitle;
    while (title && textWidth('F1', 8, title) > CONTENT_W - label.w - 30) title = title.slice(0, -1);
    if (title !== footerTitle) title = `${title.trimEnd()}\x85`;
    if (title) page.ops.push({ k: 't', x: MARGIN_X, y: FOOTER_Y, segs: [makeSeg('F1', 8, title)], color: 0.5 });
    page.ops.push({ k: 't', x: PAGE_W - MARGIN_X - label.w, y: FOOTER_Y, segs: [label], color: 0.5 });
  }

  // Objects: 1 catalog, 2 page tree, 3 info, 4 resources, 5–9 fonts, 10 outlines,
  // then the outline items, then each page and its content stream.
  const objects: Array<Uint8Array> = [];
  const latin1 = (s: string): Uint8Array => Buffer.from(s, 'latin1');
  const fontKeys = Object.keys(FONT_NAMES) as FontKey[];
  const outlineStart = 11;
  const pageStart = outlineStart + doc.pages.length;
  const pageRef = (p: number): string => `${pageStart + 2 * p} 0 R`;
  const hasOutline = doc.pages.length > 0;

  objects.push(latin1(`<< /Type /Catalog /Pages 2 0 R${hasOutline ? ' /Outlines 10 0 R /PageMode /UseOutlines' : ''} >>`));
  objects.push(latin1(`<< /Type /Pages /Count ${total} /Kids [${L.pages.map((_, p) => pageRef(p)).join(' ')}] >>`));
  objects.push(latin1(`<< /Title ${pdfTextString(doc.title)} /Producer (docsctl) /Creator (docsctl) >>`));
  objects.push(latin1(`<< /ProcSet [/PDF /Text] /Font << ${fontKeys.map((k, n) => `/${k} ${5 + n} 0 R`).join(' ')} >> >>`));
  for (const key of fontKeys) {
    objects.push(latin1(`<< /Type /Font /Subtype /Type1 /BaseFont /${FONT_NAMES[key]} /Encoding /WinAnsiEncoding >>`));
  }
  const n = doc.pages.length;
  objects.push(latin1(hasOutline ? `<< /Type /Outlines /First ${outlineStart} 0 R /Last ${outlineStart + n - 1} 0 R /Count ${n} >>` : '<< /Type /Outlines /Count 0 >>'));
  for (const [k, page] of doc.pages.entries()) {
    const links = [
      k > 0 ? `/Prev ${outlineStart + k - 1} 0 R` : '',
      k < n - 1 ? `/Next ${outlineStart + k + 1} 0 R` : '',
    ].filter(Boolean);
    objects.push(latin1(`<< /Title ${pdfTextString(page.title)} /Parent 10 0 R ${links.join(' ')} /Dest [${pageRef(firstPages[k]!)} /XYZ 0 ${num(PAGE_H)} 0] >>`));
  }
  for (const [p, page] of L.pages.entries()) {
    objects.push(latin1(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(PAGE_W)} ${num(PAGE_H)}] /Resources 4 0 R /Contents ${pageStart + 2 * p + 1} 0 R >>`));
    const data = deflateSync(Buffer.from(contentStream(page.ops), 'latin1'));
    objects.push(Buffer.concat([latin1(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`), data, latin1('\nendstream')]));
  }

  const chunks: Uint8Array[] = [];
  let offset = 0;
  const write = (bytes: Uint8Array): void => {
    chunks.push(bytes);
    offset += bytes.length;
  };
  write(latin1('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n'));
  const offsets: number[] = [];
  for (const [k, body] of objects.entries()) {
    offsets.push(offset);
    write(latin1(`${k + 1} 0 obj\n`));
    write(body);
    write(latin1('\nendobj\n'));
  }
  const hash = createHash('md5');
  for (const c of chunks) hash.update(c);
  const id = hash.digest('hex').toUpperCase();
  const xref = offset;
  let table = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) table += `${String(o).padStart(10, '0')} 00000 n \n`;
  table += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 3 0 R /ID [<${id}> <${id}>] >>\nstartxref\n${xref}\n%%EOF`;
  write(latin1(table));
  return Buffer.concat(chunks);
}

// ===========================================================================
// Extraction

class PName {
  constructor(readonly v: string) {}
}
class PStr {
  constructor(readonly v: Uint8Array) {}
}
class PRef {
  constructor(
    readonly n: number,
    readonly g: number,
  ) {}
}
class PDict {
  constructor(readonly m: Map<string, PVal>) {}
  get(key: string): PVal | undefined {
    return this.m.get(key);
  }
}
class PStream {
  constructor(
    readonly dict: PDict,
    readonly raw: Uint8Array,
  ) {}
}
class POp {
  constructor(readonly v: string) {}
}
type PVal = number | boolean | null | PName | PStr | PRef | PDict | PStream | POp | PVal[];

const WHITESPACE = new Set([0, 9, 10, 12, 13, 32]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

type Tok = { t: 'val'; v: PVal } | { t: 'punct'; v: '[' | ']' | '<<' | '>>' | '{' | '}' } | { t: 'eof' };

class Lexer {
  constructor(
    readonly b: Uint8Array,
    public pos = 0,
  ) {}

  skipWs(): void {
    const b = this.b;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (WHITESPACE.has(c)) this.pos++;
      else if (c === 0x25) {
        while (this.pos < b.length && b[this.pos] !== 10 && b[this.pos] !== 13) this.pos++;
      } else break;
    }
  }

  next(): Tok {
    for (;;) {
      const tok = this.token();
      if (tok) return tok;
    }
  }

  /** One token, or null after skipping a stray delimiter. */
  private token(): Tok | null {
    this.skipWs();
    const b = this.b;
    if (this.pos >= b.length) return { t: 'eof' };
    const c = b[this.pos]!;
    if (c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) {
      this.pos++;
      return { t: 'punct', v: String.fromCharCode(c) as '[' | ']' | '{' | '}' };
    }
    if (c === 0x3c && b[this.pos + 1] === 0x3c) {
      this.pos += 2;
      return { t: 'punct', v: '<<' };
    }
    if (c === 0x3e && b[this.pos + 1] === 0x3e) {
      this.pos += 2;
      return { t: 'punct', v: '>>' };
    }
    if (c === 0x3c) return { t: 'val', v: this.hexString() };
    if (c === 0x28) return { t: 'val', v: this.literalString() };
    if (c === 0x2f) {
      this.pos++;
      let name = '';
      while (this.pos < b.length && !WHITESPACE.has(b[this.pos]!) && !DELIMITERS.has(b[this.pos]!)) {
        const ch = b[this.pos]!;
        if (ch === 0x23 && this.pos + 2 < b.length) {
          const hex = String.fromCharCode(b[this.pos + 1]!, b[this.pos + 2]!);
          if (/^[0-9a-fA-F]{2}$/.test(hex)) {
            name += String.fromCharCode(parseInt(hex, 16));
            this.pos += 3;
            continue;
          }
        }
        name += String.fromCharCode(ch);
        this.pos++;
      }
      return { t: 'val', v: new PName(name) };
    }
    let word = '';
    while (this.pos < b.length && !WHITESPACE.has(b[this.pos]!) && !DELIMITERS.has(b[this.pos]!)) {
      word += String.fromCharCode(b[this.pos]!);
      this.pos++;
    }
    if (word === '') {
      this.pos++; // a stray delimiter (`)` or `>`): skip it
      return null;
    }
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return { t: 'val', v: Number(word) };
    if (word === 'true') return { t: 'val', v: true };
    if (word === 'false') return { t: 'val', v: false };
    if (word === 'null') return { t: 'val', v: null };
    return { t: 'val', v: new POp(word) };
  }

  private hexString(): PStr {
    const b = this.b;
    this.pos++;
    let hex = '';
    while (this.pos < b.length && b[this.pos] !== 0x3e) {
      const ch = String.fromCharCode(b[this.pos]!);
      if (/[0-9a-fA-F]/.test(ch)) hex += ch;
      this.pos++;
    }
    this.pos++;
    if (hex.length % 2) hex += '0';
    return new PStr(Uint8Array.from(Buffer.from(hex, 'hex')));
  }

  private literalString(): PStr {
    const b = this.b;
    this.pos++;
    const out: number[] = [];
    let depth = 1;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === 0x5c) {
        const e = b[this.pos++];
        if (e === undefined) break;
        if (e >= 0x30 && e <= 0x37) {
          let v = e - 0x30;
          for (let k = 0; k < 2 && b[this.pos]! >= 0x30 && b[this.pos]! <= 0x37; k++) v = v * 8 + (b[this.pos++]! - 0x30);
          out.push(v & 0xff);
        } else if (e === 0x6e) out.push(10);
        else if (e === 0x72) out.push(13);
        else if (e === 0x74) out.push(9);
        else if (e === 0x62) out.push(8);
        else if (e === 0x66) out.push(12);
        else if (e === 13) {
          if (b[this.pos] === 10) this.pos++;
        } else if (e !== 10) out.push(e);
      } else if (c === 0x28) {
        depth++;
        out.push(c);
      } else if (c === 0x29) {
        if (--depth === 0) break;
        out.push(c);
      } else out.push(c);
    }
    return new PStr(Uint8Array.from(out));
  }
}

/** Parses one value; `R` references are recognized when `refs` is set. */
function parseValue(lex: Lexer, refs: boolean, first?: Tok, depth = 0): PVal {
  const tok = first ?? lex.next();
  if (tok.t === 'eof') throw new PdfError('unexpected end of data');
  if (depth > 100) throw new PdfError('objects nested too deeply');
  if (tok.t === 'punct') {
    if (tok.v === '[') {
      const arr: PVal[] = [];
      for (;;) {
        const t = lex.next();
        if (t.t === 'eof') throw new PdfError('unterminated array');
        if (t.t === 'punct' && t.v === ']') return arr;
        arr.push(parseValue(lex, refs, t, depth + 1));
      }
    }
    if (tok.v === '<<') {
      const m = new Map<string, PVal>();
      for (;;) {
        const t = lex.next();
        if (t.t === 'eof') throw new PdfError('unterminated dictionary');
        if (t.t === 'punct' && t.v === '>>') return new PDict(m);
        if (t.t !== 'val' || !(t.v instanceof PName)) throw new PdfError('bad dictionary key');
        m.set(t.v.v, parseValue(lex, refs, undefined, depth + 1));
      }
    }
    return null; // stray `]`, `>>`, `{`, `}`
  }
  const v = tok.v;
  if (refs && typeof v === 'number' && Number.isInteger(v) && v >= 0) {
    const save = lex.pos;
    const t2 = lex.next();
    if (t2.t === 'val' && typeof t2.v === 'number' && Number.isInteger(t2.v)) {
      const t3 = lex.next();
      if (t3.t === 'val' && t3.v instanceof POp && t3.v.v === 'R') return new PRef(v, t2.v);
    }
    lex.pos = save;
  }
  return v;
}

function startsWithAt(b: Uint8Array, pos: number, s: string): boolean {
  for (let k = 0; k < s.length; k++) if (b[pos + k] !== s.charCodeAt(k)) return false;
  return true;
}

class PdfFile {
  readonly objects = new Map<number, PVal>();

  constructor(readonly bytes: Uint8Array) {
    if (!startsWithAt(bytes, 0, '%PDF-') && Buffer.from(bytes.subarray(0, 1024)).toString('latin1').indexOf('%PDF-') < 0) {
      throw new PdfError('not a PDF file');
    }
    const text = Buffer.from(bytes).toString('latin1');
    const re = /(\d+)[ \t\r\n\f\0]+(\d+)[ \t\r\n\f\0]+obj\b/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      const before = m.index > 0 ? bytes[m.index - 1]! : 10;
      if (!WHITESPACE.has(before) && !DELIMITERS.has(before)) continue;
      const lex = new Lexer(bytes, m.index + m[0].length);
      let value: PVal;
      try {
        value = parseValue(lex, true);
      } catch {
        continue;
      }
      lex.skipWs();
      if (value instanceof PDict && startsWithAt(bytes, lex.pos, 'stream')) {
        let start = lex.pos + 6;
        if (bytes[start] === 13) start++;
        if (bytes[start] === 10) start++;
        const length = value.get('Length');
        let end = -1;
        if (typeof length === 'number' && start + length <= bytes.length) {
          const tail = text.slice(start + length, start + length + 32);
          if (/^\s*endstream/.test(tail)) end = start + length;
        }
        if (end < 0) {
          const at = text.indexOf('endstream', start);
          end = at < 0 ? bytes.length : at;
          if (bytes[end - 1] === 10) end--;
          if (bytes[end - 1] === 13) end--;
        }
        value = new PStream(value, bytes.subarray(start, end));
        re.lastIndex = Math.max(re.lastIndex, end);
      } else {
        re.lastIndex = Math.max(re.lastIndex, lex.pos);
      }
      this.objects.set(Number(m[1]), value);
    }
    // Objects inside object streams (PDF 1.5).
    for (const value of [...this.objects.values()]) {
      if (!(value instanceof PStream) || !this.isName(value.dict.get('Type'), 'ObjStm')) continue;
      const data = this.decode(value);
      const count = this.resolve(value.dict.get('N'));
      const first = this.resolve(value.dict.get('First'));
      if (!data || typeof count !== 'number' || typeof first !== 'number') continue;
      const lex = new Lexer(data);
      const index: Array<[number, number]> = [];
      for (let k = 0; k < count; k++) {
        const a = lex.next();
        const b = lex.next();
        if (a.t !== 'val' || b.t !== 'val' || typeof a.v !== 'number' || typeof b.v !== 'number') break;
        index.push([a.v, b.v]);
      }
      for (const [objNum, off] of index) {
        if (this.objects.has(objNum)) continue;
        try {
          this.objects.set(objNum, parseValue(new Lexer(data, first + off), true));
        } catch {
          // skip a broken object
        }
      }
    }
  }

  resolve(v: PVal | undefined, depth = 0): PVal | undefined {
    if (v instanceof PRef) return depth > 32 ? undefined : this.resolve(this.objects.get(v.n), depth + 1);
    return v;
  }

  dict(v: PVal | undefined): PDict | undefined {
    const r = this.resolve(v);
    if (r instanceof PDict) return r;
    if (r instanceof PStream) return r.dict;
    return undefined;
  }

  isName(v: PVal | undefined, name: string): boolean {
    const r = this.resolve(v);
    return r instanceof PName && r.v === name;
  }

  decode(stream: PStream): Uint8Array | null {
    const filter = this.resolve(stream.dict.get('Filter'));
    const filters = filter === undefined || filter === null ? [] : Array.isArray(filter) ? filter.map((f) => this.resolve(f)) : [filter];
    let data: Uint8Array = stream.raw;
    for (const f of filters) {
      if (!(f instanceof PName)) return null;
      if (f.v === 'FlateDecode' || f.v === 'Fl') {
        try {
          data = inflateSync(data);
        } catch {
          try {
            data = inflateSync(data, { finishFlush: 2 /* Z_SYNC_FLUSH: tolerate truncation */ });
          } catch {
            try {
              data = inflateRawSync(data);
            } catch {
              return null;
            }
          }
        }
      } else return null;
    }
    return data;
  }

  catalog(): PDict {
    let catalog: PDict | undefined;
    for (const v of this.objects.values()) {
      if (v instanceof PDict && this.isName(v.get('Type'), 'Catalog')) catalog = v;
    }
    if (!catalog) throw new PdfError('no document catalog found');
    return catalog;
  }

  /** Pages in order, each with its (possibly inherited) resources. */
  pages(): Array<{ page: PDict; resources: PDict | undefined }> {
    const out: Array<{ page: PDict; resources: PDict | undefined }> = [];
    const seen = new Set<PDict>();
    const walk = (node: PDict | undefined, inherited: PDict | undefined, depth: number): void => {
      if (!node || seen.has(node)) return;
      if (depth > 64) throw new PdfError('page tree nested too deeply');
      seen.add(node);
      const resources = this.dict(node.get('Resources')) ?? inherited;
      const kids = this.resolve(node.get('Kids'));
      if (Array.isArray(kids)) for (const kid of kids) walk(this.dict(kid), resources, depth + 1);
      else out.push({ page: node, resources });
    };
    walk(this.dict(this.catalog().get('Pages')), undefined, 0);
    return out;
  }
}

type Matrix = [number, number, number, number, number, number];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

function pageText(file: PdfFile, page: PDict, resources: PDict | undefined): string[] {
  const contents = file.resolve(page.get('Contents'));
  const streams = (Array.isArray(contents) ? contents.map((c) => file.resolve(c)) : [contents]).filter(
    (s): s is PStream => s instanceof PStream,
  );
  const parts: Uint8Array[] = [];
  for (const s of streams) {
    const data = file.decode(s);
    if (data) parts.push(data, Uint8Array.of(10));
  }
  const data = Buffer.concat(parts);
  const fonts = file.dict(resources?.get('Font'));
  const decoders = new Map<string, (b: Uint8Array) => string>();
  const decoderFor = (name: string): ((b: Uint8Array) => string) => {
    let dec = decoders.get(name);
    if (dec) return dec;
    const font = file.dict(fonts?.get(name));
    let enc = file.resolve(font?.get('Encoding'));
    if (enc instanceof PDict) enc = file.resolve(enc.get('BaseEncoding'));
    const winAnsi = enc instanceof PName && enc.v === 'WinAnsiEncoding';
    dec = (b) => {
      let s = '';
      for (const byte of b) s += winAnsi ? WIN_ANSI_TO_UNICODE[byte]! : String.fromCharCode(byte);
      return s;
    };
    decoders.set(name, dec);
    return dec;
  };

  const lines: string[] = [];
  let cur = '';
  let curEndsWithSpace = false;
  let lastY: number | null = null;
  let moved = true;
  const identity: Matrix = [1, 0, 0, 1, 0, 0];
  let ctm: Matrix = identity;
  const ctmStack: Matrix[] = [];
  let tm: Matrix = identity;
  let tlm: Matrix = identity;
  let leading = 0;
  let decode = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

  const show = (text: string): void => {
    if (!text) return;
    const y = ctm[1] * tm[4] + ctm[3] * tm[5] + ctm[5];
    if (lastY === null) cur = text;
    else if (Math.abs(y - lastY) > 1.5) {
      lines.push(cur);
      cur = text;
    } else {
      if (moved && cur && !curEndsWithSpace && !/^\s/.test(text)) cur += ' ';
      cur += text;
    }
    curEndsWithSpace = /\s$/.test(text);
    lastY = y;
    moved = false;
  };
  const td = (tx: number, ty: number): void => {
    tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
    tm = tlm;
    moved = true;
  };

  const lex = new Lexer(data);
  const operands: PVal[] = [];
  for (;;) {
    const tok = lex.next();
    if (tok.t === 'eof') break;
    if (tok.t === 'punct' || !(tok.v instanceof POp)) {
      try {
        operands.push(parseValue(lex, false, tok));
      } catch {
        break;
      }
      continue;
    }
    const op = tok.v.v;
    const nums = operands.map((o) => (typeof o === 'number' ? o : 0));
    switch (op) {
      case 'BT':
        tm = identity;
        tlm = identity;
        moved = true;
        break;
      case 'q':
        ctmStack.push(ctm);
        break;
      case 'Q':
        ctm = ctmStack.pop() ?? identity;
        break;
      case 'cm':
        if (nums.length >= 6) ctm = multiply(nums.slice(-6) as Matrix, ctm);
        break;
      case 'Tf': {
        const name = operands[operands.length - 2];
        if (name instanceof PName) decode = decoderFor(name.v);
        break;
      }
      case 'TL':
        leading = nums[nums.length - 1] ?? 0;
        break;
      case 'Td':
        td(nums[nums.length - 2] ?? 0, nums[nums.length - 1] ?? 0);
        break;
      case 'TD':
        leading = -(nums[nums.length - 1] ?? 0);
        td(nums[nums.length - 2] ?? 0, nums[nums.length - 1] ?? 0);
        break;
      case 'Tm':
        if (nums.length >= 6) {
          tlm = nums.slice(-6) as Matrix;
          tm = tlm;
          moved = true;
        }
        break;
      case 'T*':
        td(0, -leading);
        break;
      case 'Tj':
      case "'":
      case '"': {
        if (op !== 'Tj') td(0, -leading);
        const s = operands[operands.length - 1];
        if (s instanceof PStr) show(decode(s.v));
        break;
      }
      case 'TJ': {
        const arr = operands[operands.length - 1];
        if (!Array.isArray(arr)) break;
        let text = '';
        for (const el of arr) {
          if (el instanceof PStr) text += decode(el.v);
          else if (typeof el === 'number' && el < -200 && text && !text.endsWith(' ')) text += ' ';
        }
        show(text);
        break;
      }
      case 'BI': {
        // Inline image: skip to EI.
        const b = lex.b;
        let p = lex.pos;
        while (p < b.length && !(b[p] === 0x45 && b[p + 1] === 0x49 && WHITESPACE.has(b[p - 1] ?? 32) && (p + 2 >= b.length || WHITESPACE.has(b[p + 2]!)))) p++;
        lex.pos = p + 2;
        break;
      }
    }
    operands.length = 0;
  }
  if (lastY !== null) lines.push(cur);
  return lines.map((l) => l.trimEnd());
}

/** The text of each page, lines joined with "\n". */
export function extractPdfPages(pdf: Uint8Array): string[] {
  const file = new PdfFile(pdf);
  return file.pages().map(({ page, resources }) => pageText(file, page, resources).join('\n'));
}

/** The text of the whole document, in page order, lines joined with "\n". */
export function extractPdfText(pdf: Uint8Array): string {
  return extractPdfPages(pdf).join('\n');
}
