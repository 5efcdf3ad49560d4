/** PDF rendering: GitBook Markdown blocks (headings, lists, quotes, code, tables, hints, tabs). */
import { type Fence, closesFence, fenceContentLine, openingFence } from '../markdown.js';
import { parseInline, type Run } from './inline.js';

// ===========================================================================
// Markdown: blocks

export type Block =
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

/** Block parsing strips its containers' indentation: a fence is indented at most 3 (CommonMark). */
const MAX_FENCE_INDENT = 3;
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

export function expandTabs(line: string): string {
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
  if (openingFence(line, MAX_FENCE_INDENT) || RE_HEADING.test(line) || RE_HR.test(line) || RE_QUOTE.test(line)) return true;
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
 * Puts every liquid tag preceded by text on a line of its own, outside fenced
 * code (fences inside quotes included: their `>` markers are set aside first).
 */
function splitTagLines(source: readonly string[]): string[] {
  const lines: string[] = [];
  let fence: Fence | undefined;
  for (const raw of source) {
    const line = expandTabs(raw);
    const bare = line.replace(/^[\s>]*/, '');
    const inFence = fence !== undefined;
    if (fence) {
      if (closesFence(bare, fence)) fence = undefined;
    } else {
      fence = openingFence(bare);
    }
    if (inFence || fence) {
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

/** Parses a page's Markdown lines into blocks (`depth`: how deep in lists, quotes and hints they are). */
export function parseBlocks(source: readonly string[], depth = 0): Block[] {
  return new BlockParser(splitTagLines(source), depth).parse();
}

/**
 * One pass over the lines. Each construct has its method: given the index of a
 * line, it reads the block that starts there and returns the index after it, or
 * returns undefined when the line does not start one. A line that starts none is a paragraph.
 */
class BlockParser {
  private readonly root: Block[] = [];
  /** The block lists being filled: the root, then each open hint. */
  private readonly stack: Block[][] = [this.root];
  /** Hints opened past MAX_NESTING: their endhint closes nothing. */
  private ignoredHints = 0;

  /** `lines` is the parser's own copy: tags and comments are cut out of it as they are read. */
  constructor(
    private readonly lines: string[],
    private readonly depth: number,
  ) {}

  parse(): Block[] {
    let i = 0;
    while (i < this.lines.length) {
      if (isBlank(this.lines[i]!)) {
        i++;
        continue;
      }
      i =
        this.liquidTag(i) ??
        this.fencedCode(i) ??
        this.heading(i) ??
        this.rule(i) ??
        this.quote(i) ??
        this.list(i) ??
        this.table(i) ??
        this.referenceDefinition(i) ??
        this.comment(i) ??
        this.htmlBlock(i) ??
        this.indentedCode(i) ??
        this.paragraph(i);
    }
    return this.root;
  }

  private out(): Block[] {
    return this.stack[this.stack.length - 1]!;
  }

  /** Liquid tags, each read on a line of its own (text before one is cut off onto its own line). */
  private liquidTag(i: number): number | undefined {
    const lines = this.lines;
    const line = lines[i]!;
    const tagAt = findTag(line);
    if (tagAt > 0 && line.slice(0, tagAt).trim() !== '') {
      lines.splice(i, 1, line.slice(0, tagAt), line.slice(tagAt));
      return i;
    }
    if (tagAt >= 0) {
      const end = line.indexOf('%}', tagAt);
      this.handleTag(line.slice(tagAt + 2, end).trim());
      lines[i] = line.slice(end + 2);
      return i;
    }
    if (!line.trimStart().startsWith('{%')) return undefined;
    // A tag spread over several lines.
    let j = i;
    let text = '';
    while (j < lines.length && j < i + 50) {
      text += `${lines[j]} `;
      if (lines[j]!.includes('%}')) break;
      j++;
    }
    const end = text.indexOf('%}');
    if (end < 0) return undefined;
    this.handleTag(text.slice(text.indexOf('{%') + 2, end).trim());
    return j + 1;
  }

  private handleTag(body: string): void {
    const name = /^[\w-]*/.exec(body)![0];
    if (name === 'hint' && this.depth + this.stack.length > MAX_NESTING) {
      this.ignoredHints++;
    } else if (name === 'hint') {
      const hint: Block = { kind: 'hint', style: (tagAttr(body, 'style') ?? 'info').toLowerCase(), blocks: [] };
      this.out().push(hint);
      this.stack.push(hint.blocks);
    } else if (name === 'endhint') {
      if (this.ignoredHints > 0) this.ignoredHints--;
      else if (this.stack.length > 1) this.stack.pop();
    } else if (name === 'tab') {
      const title = tagAttr(body, 'title');
      if (title) this.out().push({ kind: 'tabTitle', text: parseInline(title) });
    } else if (name === 'code') {
      const title = tagAttr(body, 'title');
      if (title) this.out().push({ kind: 'caption', text: parseInline(title) });
    }
    // Every other tag (tabs, endtab, content-ref, embed, stepper, columns, swagger, file, …) is dropped.
  }

  private fencedCode(i: number): number | undefined {
    const fence = openingFence(this.lines[i]!, MAX_FENCE_INDENT);
    if (!fence) return undefined;
    const code: string[] = [];
    i++;
    while (i < this.lines.length) {
      const l = this.lines[i]!;
      i++;
      if (closesFence(l, fence)) break;
      code.push(fenceContentLine(l, fence));
    }
    this.out().push({ kind: 'code', lines: code });
    return i;
  }

  private heading(i: number): number | undefined {
    const heading = RE_HEADING.exec(this.lines[i]!);
    if (!heading) return undefined;
    this.out().push({ kind: 'heading', level: heading[1]!.length, text: parseInline(headingText(heading[2] ?? '')) });
    return i + 1;
  }

  private rule(i: number): number | undefined {
    if (!RE_HR.test(this.lines[i]!)) return undefined;
    this.out().push({ kind: 'hr' });
    return i + 1;
  }

  private quote(i: number): number | undefined {
    if (!RE_QUOTE.test(this.lines[i]!) || this.depth >= MAX_NESTING) return undefined;
    const inner: string[] = [];
    while (i < this.lines.length) {
      const l = this.lines[i]!;
      const q = RE_QUOTE.exec(l);
      if (q) inner.push(q[1]!);
      else if (!isBlank(l) && !startsBlock(l) && inner.length && !isBlank(inner[inner.length - 1]!)) inner.push(l);
      else break;
      i++;
    }
    this.out().push({ kind: 'quote', blocks: parseBlocks(inner, this.depth + 1) });
    return i;
  }

  private list(i: number): number | undefined {
    const marker = listMarker(this.lines[i]!);
    if (!marker || marker.indent >= 4 || this.depth >= MAX_NESTING) return undefined;
    return parseList(this.lines, i, this.out(), this.depth);
  }

  private table(i: number): number | undefined {
    const lines = this.lines;
    if (!isTableStart(lines, i)) return undefined;
    const rows: Run[][][] = [splitRow(lines[i]!).map(parseInline)];
    i += 2;
    while (i < lines.length && !isBlank(lines[i]!) && lines[i]!.includes('|') && !startsBlock(lines[i]!)) {
      rows.push(splitRow(lines[i]!).map(parseInline));
      i++;
    }
    this.out().push({ kind: 'table', rows, header: true });
    return i;
  }

  /** `[label]: url` lines print nothing. */
  private referenceDefinition(i: number): number | undefined {
    return RE_REFDEF.test(this.lines[i]!) ? i + 1 : undefined;
  }

  /** An HTML comment: skipped to its end, the rest of that line read again. */
  private comment(i: number): number | undefined {
    const lines = this.lines;
    if (!lines[i]!.trimStart().startsWith('<!--')) return undefined;
    let j = i;
    while (j < lines.length && !lines[j]!.includes('-->')) j++;
    if (j < lines.length) lines[j] = lines[j]!.slice(lines[j]!.indexOf('-->') + 3);
    return j;
  }

  private htmlBlock(i: number): number | undefined {
    const line = this.lines[i]!;
    if (!RE_HTML_BLOCK.test(line)) return undefined;
    const h = /^\s*<h([1-6])\b[^>]*>(.*?)(<\/h\1>)?\s*$/i.exec(line);
    const summary = /^\s*<summary\b[^>]*>(.*?)<\/summary>\s*$/i.exec(line);
    if (h) this.out().push({ kind: 'heading', level: Number(h[1]), text: parseInline(h[2]!) });
    else if (/^\s*<hr\b[^>]*>\s*$/i.test(line)) this.out().push({ kind: 'hr' });
    else {
      const text = parseInline(line);
      if (text.length) {
        if (summary) for (const r of text) r.bold = true;
        this.out().push({ kind: 'paragraph', text });
      }
    }
    return i + 1;
  }

  /** Indented code (after a blank line, not a list). */
  private indentedCode(i: number): number | undefined {
    const lines = this.lines;
    if (indentOf(lines[i]!) < 4 || (i > 0 && !isBlank(lines[i - 1]!))) return undefined;
    const code: string[] = [];
    while (i < lines.length && (isBlank(lines[i]!) || indentOf(lines[i]!) >= 4)) {
      code.push(lines[i]!.slice(4));
      i++;
    }
    while (code.length && isBlank(code[code.length - 1]!)) code.pop();
    this.out().push({ kind: 'code', lines: code });
    return i;
  }

  /** A paragraph, up to a blank line, the start of another block or a tag; a setext underline makes it a heading. */
  private paragraph(i: number): number {
    const lines = this.lines;
    const para: string[] = [lines[i]!.trimStart()];
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
    if (setext) this.out().push({ kind: 'heading', level: setext, text });
    else if (text.length) this.out().push({ kind: 'paragraph', text });
    return j;
  }
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
