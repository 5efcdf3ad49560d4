/**
 * Line-based helpers over GitBook Markdown, shared by the content modules.
 * Nothing here rewrites a document: callers get offsets and masks, and keep
 * the bytes they do not own as they are. Code is never interpreted: fenced
 * blocks (``` and ~~~, at any indentation, unclosed ones running to the end,
 * as in CommonMark) and inline code spans are masked before any scan.
 */

export type Eol = '\n' | '\r\n';

/** The document's line ending: CRLF when its first line break is CRLF. */
export function detectEol(text: string): Eol {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/** A line of a text, without its line break. */
export interface Line {
  text: string;
  /** Offset of the line's first character. */
  start: number;
  /** Offset just after the line's break (or the text's end). */
  end: number;
  /** 1-based. */
  number: number;
}

export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  let number = 1;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl + 1;
    let stop = nl < 0 ? text.length : nl;
    if (stop > start && text[stop - 1] === '\r') stop -= 1;
    lines.push({ text: text.slice(start, stop), start, end, number });
    start = end;
    number += 1;
  }
  return lines;
}

/** 1-based line of an offset. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

// ─── Code fences: the one set of rules every Markdown reader here uses ─────

const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^([ \t]*)(`{3,}|~{3,})[ \t]*$/;

/** An opening code fence. */
export interface Fence {
  /** Characters of indentation before the marker. */
  indent: number;
  /** The run of ``` or ~~~ (three or more). */
  marker: string;
  /** The info string, trimmed (`yaml`, `js title="x"`). */
  info: string;
}

/**
 * The fence `line` opens, if it opens one: ``` or ~~~, three or more, after at most
 * `maxIndent` characters of indentation (default: any, as fences sit indented in list
 * items and hints; a block parser that strips its containers' indentation passes 3,
 * beyond which CommonMark reads indented code). A backtick fence's info string may
 * not contain a backtick (CommonMark: the line is then text with a code span).
 */
export function openingFence(line: string, maxIndent = Number.POSITIVE_INFINITY): Fence | undefined {
  const m = FENCE_OPEN.exec(line);
  if (!m) return undefined;
  const indent = (m[1] as string).length;
  const marker = m[2] as string;
  const info = (m[3] ?? '').trim();
  if (indent > maxIndent || (marker[0] === '`' && info.includes('`'))) return undefined;
  return { indent, marker, info };
}

/**
 * Whether `line` closes `fence`: the same character (``` never closes ~~~), at least
 * as many of it, nothing after it but spaces, indented at most three characters more
 * than the opening (a deeper run is content, as CommonMark reads it).
 */
export function closesFence(line: string, fence: Fence): boolean {
  const m = FENCE_CLOSE.exec(line);
  if (!m) return false;
  const marker = m[2] as string;
  return marker[0] === fence.marker[0] && marker.length >= fence.marker.length && (m[1] as string).length <= fence.indent + 3;
}

/** A line inside `fence`, without as much of its leading indentation as the opening had (CommonMark). */
export function fenceContentLine(line: string, fence: Fence): string {
  const spaces = /^ */.exec(line)?.[0].length ?? 0;
  return line.slice(Math.min(spaces, fence.indent));
}

/** A fenced code block: from its opening line's start to its closing line's end. */
export interface FencedBlock {
  start: number;
  end: number;
  /** The info string (`yaml`, `js title="x"`). */
  info: string;
  /** The content between the fences. */
  contentStart: number;
  contentEnd: number;
  closed: boolean;
}

export function findFencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let open: { fence: Fence; start: number; contentStart: number } | null = null;
  for (const line of splitLines(text)) {
    if (open === null) {
      const fence = openingFence(line.text);
      if (fence) open = { fence, start: line.start, contentStart: line.end };
      continue;
    }
    if (closesFence(line.text, open.fence)) {
      blocks.push({
        start: open.start,
        end: line.end,
        info: open.fence.info,
        contentStart: open.contentStart,
        contentEnd: line.start,
        closed: true,
      });
      open = null;
    }
  }
  if (open !== null) {
    blocks.push({
      start: open.start,
      end: text.length,
      info: open.fence.info,
      contentStart: open.contentStart,
      contentEnd: text.length,
      closed: false,
    });
  }
  return blocks;
}

/**
 * The text with fenced code blocks and inline code spans blanked out
 * (every character but line breaks becomes a space), so offsets still match.
 */
export function maskCode(text: string): string {
  const masked = new Uint8Array(text.length);
  for (const block of findFencedBlocks(text)) masked.fill(1, block.start, block.end);
  let i = 0;
  while (i < text.length) {
    if (masked[i]) {
      i += 1;
      continue;
    }
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c !== '`') {
      i += 1;
      continue;
    }
    const open = runLength(text, i, '`');
    const close = findClosingBackticks(text, masked, i + open, open);
    if (close < 0) {
      i += open;
      continue;
    }
    masked.fill(1, i, close + open);
    i = close + open;
  }
  let out = '';
  let from = 0;
  for (let k = 0; k < text.length; k += 1) {
    if (!masked[k]) continue;
    const ch = text[k];
    if (ch === '\n' || ch === '\r') continue;
    out += text.slice(from, k) + ' ';
    from = k + 1;
  }
  return out + text.slice(from);
}

function runLength(text: string, at: number, ch: string): number {
  let n = 0;
  while (text[at + n] === ch) n += 1;
  return n;
}

/** The offset of a run of exactly `length` backticks, within the paragraph; -1 if none. */
function findClosingBackticks(text: string, masked: Uint8Array, from: number, length: number): number {
  let k = from;
  while (k < text.length) {
    if (masked[k]) return -1;
    const c = text[k];
    if (c === '\n') {
      // A blank line ends the paragraph.
      let j = k + 1;
      while (j < text.length && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r')) j += 1;
      if (j >= text.length || text[j] === '\n') return -1;
      k += 1;
      continue;
    }
    if (c === '`') {
      const run = runLength(text, k, '`');
      if (run === length) return k;
      k += run;
      continue;
    }
    k += 1;
  }
  return -1;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};
const ENTITY = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));/;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/**
 * The plain text of inline Markdown, as a title: backslash escapes resolved
 * (`\[` → `[`), code spans without their backticks, character references
 * decoded. Emphasis and HTML are left as written.
 */
export function inlineToText(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '\\' && i + 1 < source.length && ASCII_PUNCTUATION.test(source[i + 1] as string)) {
      out += source[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const open = runLength(source, i, '`');
      let k = i + open;
      let close = -1;
      while (k < source.length) {
        if (source[k] === '`') {
          const run = runLength(source, k, '`');
          if (run === open) {
            close = k;
            break;
          }
          k += run;
        } else k += 1;
      }
      if (close < 0) {
        out += source.slice(i, i + open);
        i += open;
        continue;
      }
      let code = source.slice(i + open, close);
      if (code.length >= 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') code = code.slice(1, -1);
      out += code;
      i = close + open;
      continue;
    }
    if (c === '&') {
      const m = ENTITY.exec(source.slice(i, i + 40));
      const decoded = m ? decodeEntity(m) : undefined;
      if (m && decoded !== undefined) {
        out += decoded;
        i += m[0].length;
        continue;
      }
    }
    out += c;
    i += 1;
  }
  return out;
}

function decodeEntity(m: RegExpExecArray): string | undefined {
  const code = m[1] !== undefined ? Number.parseInt(m[1], 10) : m[2] !== undefined ? Number.parseInt(m[2], 16) : NaN;
  if (!Number.isNaN(code)) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  return m[3] !== undefined ? ENTITIES[m[3]] : undefined;
}

/** Escapes text for inline Markdown so that `inlineToText(escapeInline(s)) === s`. */
export function escapeInline(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if ('\\`*_[]<>~'.includes(c)) out += `\\${c}`;
    else if (c === '&' && ENTITY.test(text.slice(i, i + 40))) out += '\\&';
    else out += c;
  }
  return out;
}

const ATX = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/;
const SETEXT_1 = /^ {0,3}=+[ \t]*$/;
const TRAILING_ANCHOR = /\s*<a\b[^>]*><\/a>\s*$/;

/** The text of an ATX heading's content (`# Title #` → `Title`), unescaped, without a trailing `<a id>` anchor. */
function headingContentText(content: string): string {
  const stripped = content.replace(/(?:^|[ \t]+)#+[ \t]*$/, '').trim();
  return inlineToText(stripped.replace(TRAILING_ANCHOR, ''));
}

/** A heading found in a document. */
export interface Heading {
  level: number;
  /** The heading's text, unescaped. */
  text: string;
  /** 1-based line. */
  line: number;
  start: number;
  end: number;
}

/** The first ATX heading of `level` (default 1) outside code, or null. */
export function firstHeading(markdown: string, level = 1): Heading | null {
  const masked = maskCode(markdown);
  for (const line of splitLines(masked)) {
    const m = ATX.exec(line.text);
    if (m && (m[1] as string).length === level) {
      const original = markdown.slice(line.start, line.start + line.text.length);
      const content = ATX.exec(original)?.[2] ?? '';
      return { level, text: headingContentText(content), line: line.number, start: line.start, end: line.end };
    }
  }
  return null;
}

/** A document's leading title heading, split off its body. */
export interface LeadingHeading {
  /** Exactly the text taken: blank lines before, the heading line(s), blank lines after. */
  raw: string;
  /** The heading's text, unescaped. */
  text: string;
  /** The rest of the document. */
  rest: string;
}

/**
 * Splits off the H1 that opens a page body (after blank lines only): `# Title`
 * (ATX) or `Title` underlined with `=` (setext), with the blank lines around
 * it. Null when the body does not start with an H1.
 */
export function splitLeadingHeading(body: string): LeadingHeading | null {
  const lines = splitLines(body);
  let i = 0;
  while (i < lines.length && isBlank(lines[i] as Line, body)) i += 1;
  const first = lines[i];
  if (!first) return null;
  let text: string;
  let headingEnd: number;
  const atx = ATX.exec(first.text);
  if (atx && (atx[1] as string).length === 1) {
    text = headingContentText(atx[2] ?? '');
    headingEnd = first.end;
    i += 1;
  } else {
    const next = lines[i + 1];
    if (!next || first.text.trim() === '' || !SETEXT_1.test(next.text) || /^ {4}/.test(first.text)) return null;
    text = inlineToText(first.text.trim().replace(TRAILING_ANCHOR, ''));
    headingEnd = next.end;
    i += 2;
  }
  // Blank lines after the heading (only complete ones, with their line break).
  let end = headingEnd;
  while (i < lines.length && isBlank(lines[i] as Line, body)) {
    end = (lines[i] as Line).end;
    i += 1;
  }
  return { raw: body.slice(0, end), text, rest: body.slice(end) };
}

function isBlank(line: Line, text: string): boolean {
  return line.text.trim() === '' && line.end > line.start + line.text.length && text[line.end - 1] === '\n';
}

/** An H1 line for a title: `# ` + the escaped title (a trailing `#` escaped too). */
export function headingLine(title: string): string {
  return `# ${escapeInline(title).replace(/#$/, '\\#')}`.trimEnd();
}

/**
 * Replaces the heading inside a `LeadingHeading.raw` with `# title`, keeping
 * the blank lines around it and the line break style.
 */
export function replaceLeadingHeading(raw: string, title: string): string {
  const lines = splitLines(raw);
  let i = 0;
  while (i < lines.length && (lines[i] as Line).text.trim() === '') i += 1;
  const first = lines[i];
  if (!first) return raw;
  const setext = lines[i + 1] !== undefined && SETEXT_1.test((lines[i + 1] as Line).text) && !ATX.test(first.text);
  const last = setext ? (lines[i + 1] as Line) : first;
  const eol = raw.slice(last.start + last.text.length, last.end);
  return raw.slice(0, first.start) + headingLine(title) + eol + raw.slice(last.end);
}
