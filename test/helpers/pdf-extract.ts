/**
 * A minimal PDF text extractor, used by the tests to read what `renderPdf`
 * (src/content-model/pdf.ts) wrote back. It reads the objects (including object
 * streams), inflates FlateDecode streams, follows the page tree in order and
 * interprets the text operators (`Tj`, `TJ`, `'`, `"`, positioning and `cm`),
 * starting a new line whenever the baseline moves; simple fonts only (WinAnsi,
 * else bytes as Latin-1), no Type0/CID fonts, no form XObjects.
 */
import { inflateRawSync, inflateSync } from 'node:zlib';
import { CP1252_EXTRAS } from '../../src/content-model/pdf/fonts.js';

export class PdfError extends Error {
  override readonly name = 'PdfError';
}

/** WinAnsi byte → Unicode. */
const WIN_ANSI_TO_UNICODE: string[] = (() => {
  const table: string[] = [];
  for (let b = 0; b < 256; b++) table.push(String.fromCharCode(b));
  for (const [unicode, code] of CP1252_EXTRAS) table[code] = String.fromCodePoint(unicode);
  return table;
})();

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
