/**
 * PDF export of documentation pages written in GitBook-flavoured Markdown.
 * The parts live in `pdf/`: fonts and WinAnsi encoding (`fonts.ts`), inline
 * and block Markdown parsing (`inline.ts`, `blocks.ts`), layout (`layout.ts`);
 * this module serialises the laid-out pages. (The text extractor that checks
 * the output is test code: test/helpers/pdf-extract.ts.)
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
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { FONT_NAMES, type FontKey, textWidth, toWinAnsi } from './pdf/fonts.js';
import { BLACK, type Color, CONTENT_W, FOOTER_Y, Layout, makeSeg, MARGIN_X, type Op, PAGE_H, PAGE_W, renderDocPage, TITLE_SIZE, wrapRuns } from './pdf/layout.js';

export interface PdfInput {
  title: string;
  pages: Array<{ title: string; markdown: string }>;
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
