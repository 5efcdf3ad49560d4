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

/**
 * The line that starts at `start` (numbered `number`), or undefined at the text's end.
 * Readers walk a text line by line with this (or `eachLine`) instead of splitting it:
 * a page of 25 million empty lines would otherwise cost 25 million objects at once.
 */
export function lineAt(text: string, start: number, number: number): Line | undefined {
  if (start >= text.length) return undefined;
  const nl = text.indexOf('\n', start);
  const end = nl < 0 ? text.length : nl + 1;
  let stop = nl < 0 ? text.length : nl;
  if (stop > start && text.charCodeAt(stop - 1) === 13) stop -= 1;
  return { text: text.slice(start, stop), start, end, number };
}

/**
 * Every line of a text in an array, for a reader that needs to go back and forth in a
 * small file (SUMMARY.md). Readers of page bodies walk them with `eachLine` instead.
 */
export function splitLines(text: string): Line[] {
  return [...eachLine(text)];
}

/** The lines of a text, one at a time (nothing is kept between them). */
export function* eachLine(text: string): Generator<Line> {
  let line = lineAt(text, 0, 1);
  while (line) {
    yield line;
    line = lineAt(text, line.end, line.number + 1);
  }
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

/** The fenced code blocks of a text, in order, one at a time. */
export function* eachFencedBlock(text: string): Generator<FencedBlock> {
  let open: { fence: Fence; start: number; contentStart: number } | null = null;
  for (const line of eachLine(text)) {
    if (open === null) {
      const fence = openingFence(line.text);
      if (fence) open = { fence, start: line.start, contentStart: line.end };
      continue;
    }
    if (closesFence(line.text, open.fence)) {
      yield { start: open.start, end: line.end, info: open.fence.info, contentStart: open.contentStart, contentEnd: line.start, closed: true };
      open = null;
    }
  }
  if (open !== null) {
    yield { start: open.start, end: text.length, info: open.fence.info, contentStart: open.contentStart, contentEnd: text.length, closed: false };
  }
}

export function findFencedBlocks(text: string): FencedBlock[] {
  return [...eachFencedBlock(text)];
}

/**
 * The text with fenced code blocks and inline code spans blanked out
 * (every character but line breaks becomes a space), so offsets still match.
 * Linear in the text whatever its shape: one byte of mask per character, and
 * closing backtick runs are looked for once per paragraph (`BacktickRuns`), not
 * once per opening run.
 */
export function maskCode(text: string): string {
  if (!text.includes('`') && !text.includes('~')) return text;
  let mask: Uint8Array | undefined;
  const cover = (from: number, to: number): void => {
    mask ??= new Uint8Array(text.length);
    mask.fill(1, from, to);
  };
  for (const block of eachFencedBlock(text)) cover(block.start, block.end);
  const runs = new BacktickRuns(text);
  for (let i = text.indexOf('`'); i >= 0; i = text.indexOf('`', i)) {
    if (mask?.[i]) {
      i = nextUnmasked(mask, i);
      continue;
    }
    if (escaped(text, mask, i)) {
      i += 1;
      continue;
    }
    const open = runLength(text, i, '`');
    const close = runs.closing(mask, i + open, open);
    if (close < 0) {
      i += open;
      continue;
    }
    cover(i, close + open);
    i = close + open;
  }
  return mask ? blankOut(text, mask) : text;
}

/** Whether an odd run of backslashes (outside masked code) stands just before `at`. */
function escaped(text: string, mask: Uint8Array | undefined, at: number): boolean {
  let n = 0;
  for (let k = at - 1; k >= 0 && text.charCodeAt(k) === 92 && !mask?.[k]; k -= 1) n += 1;
  return n % 2 === 1;
}

/** The first offset at or after `from` that `mask` leaves alone (the text's length if none). */
function nextUnmasked(mask: Uint8Array, from: number): number {
  const next = mask.indexOf(0, from);
  return next < 0 ? mask.length : next;
}

/**
 * `text` with each masked character but line breaks replaced by a space, built in one buffer:
 * each masked run is filled at once through a typed-array view (a character at a time, or
 * Buffer's validated `fill` per run, cost most of a large import's link scan), then its line
 * breaks are put back. The next `\n` and `\r` are searched once for all the runs they pass,
 * so a long line of many code spans stays linear.
 */
function blankOut(text: string, mask: Uint8Array): string {
  // One byte per character when the text is ASCII (the common case), else UTF-16 code units
  // (in a buffer of its own, so the 16-bit view is aligned).
  const ascii = Buffer.byteLength(text, 'utf8') === text.length;
  const encoding = ascii ? 'latin1' : 'utf16le';
  const units = ascii ? Buffer.from(text, encoding) : Buffer.allocUnsafeSlow(text.length * 2);
  if (!ascii) units.write(text, 0, encoding);
  const view = ascii ? new Uint8Array(units.buffer, units.byteOffset, text.length) : new Uint16Array(units.buffer, units.byteOffset, text.length);
  // Each line break character with the offset of its next occurrence (-1: not searched yet, -2: none left).
  const breaks = [
    { char: '\n', code: 10, next: -1 },
    { char: '\r', code: 13, next: -1 },
  ];
  for (let from = mask.indexOf(1); from >= 0; ) {
    const stop = mask.indexOf(0, from);
    const to = stop < 0 ? mask.length : stop;
    view.fill(32, from, to);
    for (const brk of breaks) {
      if (brk.next === -2) continue;
      if (brk.next < from) brk.next = text.indexOf(brk.char, from);
      while (brk.next >= 0 && brk.next < to) {
        view[brk.next] = brk.code;
        brk.next = text.indexOf(brk.char, brk.next + 1);
      }
      if (brk.next < 0) brk.next = -2;
    }
    from = stop < 0 ? -1 : mask.indexOf(1, stop);
  }
  return units.toString(encoding, 0, units.byteLength);
}

function runLength(text: string, at: number, ch: string): number {
  let n = 0;
  while (text[at + n] === ch) n += 1;
  return n;
}

/**
 * Where a run of exactly `length` backticks closes a code span opened before
 * `from` (-1: none before the paragraph ends). Like cmark, the first search
 * that reaches a paragraph's end remembers the last start of every run length
 * it passed: any later opening run in that paragraph is answered from it, so a
 * paragraph of runs of many lengths costs one scan, not one per run.
 */
class BacktickRuns {
  private readonly lastRun = new Map<number, number>();
  /** The paragraph end the last unsuccessful search reached (its runs are all in `lastRun`). */
  private scannedUntil = -1;

  constructor(private readonly text: string) {}

  closing(mask: Uint8Array | undefined, from: number, length: number): number {
    if (from < this.scannedUntil) {
      const last = this.lastRun.get(length);
      if (last === undefined || last < from) return -1;
    }
    const text = this.text;
    let k = from;
    while (k < text.length) {
      if (mask?.[k]) break;
      const c = text.charCodeAt(k);
      if (c === 10) {
        // A blank line ends the paragraph.
        let j = k + 1;
        while (j < text.length && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r')) j += 1;
        if (j >= text.length || text[j] === '\n') break;
        k += 1;
        continue;
      }
      if (c === 96) {
        const run = runLength(text, k, '`');
        this.lastRun.set(run, k);
        if (run === length) return k;
        k += run;
        continue;
      }
      k += 1;
    }
    this.scannedUntil = k;
    return -1;
  }
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
  for (const line of eachLine(masked)) {
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
  // Line by line from the top: only the blank lines before the heading, the heading and the blank lines after it are read.
  let line = lineAt(body, 0, 1);
  while (line && isBlank(line, body)) line = lineAt(body, line.end, line.number + 1);
  const first = line;
  if (!first) return null;
  let text: string;
  let headingEnd: number;
  const atx = ATX.exec(first.text);
  if (atx && (atx[1] as string).length === 1) {
    text = headingContentText(atx[2] ?? '');
    headingEnd = first.end;
  } else {
    const next = lineAt(body, first.end, first.number + 1);
    if (!next || first.text.trim() === '' || !SETEXT_1.test(next.text) || /^ {4}/.test(first.text)) return null;
    text = inlineToText(first.text.trim().replace(TRAILING_ANCHOR, ''));
    headingEnd = next.end;
  }
  // Blank lines after the heading (only complete ones, with their line break).
  let end = headingEnd;
  for (let after = lineAt(body, headingEnd, 0); after && isBlank(after, body); after = lineAt(body, after.end, 0)) end = after.end;
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
  let first = lineAt(raw, 0, 1);
  while (first && first.text.trim() === '') first = lineAt(raw, first.end, first.number + 1);
  if (!first) return raw;
  const second = lineAt(raw, first.end, first.number + 1);
  const setext = second !== undefined && SETEXT_1.test(second.text) && !ATX.test(first.text);
  const last = setext ? (second as Line) : first;
  const eol = raw.slice(last.start + last.text.length, last.end);
  return raw.slice(0, first.start) + headingLine(title) + eol + raw.slice(last.end);
}
