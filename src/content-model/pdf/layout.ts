/** PDF rendering: word wrap and page layout of parsed blocks into drawing operations. */
import { type Block, expandTabs, parseBlocks } from './blocks.js';
import { COURIER_WIDTH, type FontKey, textWidth, toWinAnsi } from './fonts.js';
import { plainText, type Run } from './inline.js';

// ===========================================================================
// Layout

export const PAGE_W = 595.28;
export const PAGE_H = 841.89;
export const MARGIN_X = 56.69;
const TOP = PAGE_H - 56.69;
const BOTTOM = 62;
export const CONTENT_W = PAGE_W - 2 * MARGIN_X;
export const FOOTER_Y = 30;

const BODY_SIZE = 10.5;
const BODY_LEADING = 1.45;
const HEADING_SIZES = [19, 16, 13.5, 12, 11, 10.5];
const CODE_SIZE = 8.8;
const CODE_LEADING = 1.3;
export const TITLE_SIZE = 22;

export type Color = number | readonly [number, number, number];
export const BLACK: Color = 0.1;

interface Seg {
  font: FontKey;
  size: number;
  /** WinAnsi text, one char per byte. */
  text: string;
  w: number;
}

export type Op =
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

export function makeSeg(font: FontKey, size: number, text: string): Seg {
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
export function wrapRuns(runs: Run[], maxW: number, size: number, baseBold = false): Seg[][] {
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

export class Layout {
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

// eslint-disable-next-line max-lines-per-function -- one switch over the kinds of block sharing the layout cursor
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

export function renderDocPage(L: Layout, page: { title: string; markdown: string }): void {
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
