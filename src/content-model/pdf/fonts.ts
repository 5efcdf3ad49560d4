/** PDF rendering: the standard fonts, their glyph widths, and text → WinAnsi (cp1252) encoding. */
// ===========================================================================
// Fonts, metrics, encoding

export type FontKey = 'F1' | 'F2' | 'F3' | 'F4' | 'F5';

export const FONT_NAMES: Record<FontKey, string> = {
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
export const COURIER_WIDTH = 600;

/** Width of a WinAnsi string (one char per byte) in 1/1000 em. */
function rawWidth(font: FontKey, text: string): number {
  if (font === 'F5') return text.length * COURIER_WIDTH;
  const table = font === 'F2' || font === 'F4' ? HELVETICA_BOLD_WIDTHS : HELVETICA_WIDTHS;
  let w = 0;
  for (let i = 0; i < text.length; i++) w += table[text.charCodeAt(i) - 32] ?? 0;
  return w;
}

export function textWidth(font: FontKey, size: number, text: string): number {
  return (rawWidth(font, text) * size) / 1000;
}

/** Unicode → WinAnsi codes 0x80–0x9F (the cp1252 extras). */
export const CP1252_EXTRAS: ReadonlyMap<number, number> = new Map([
  [0x20ac, 0x80], [0x201a, 0x82], [0x0192, 0x83], [0x201e, 0x84], [0x2026, 0x85], [0x2020, 0x86],
  [0x2021, 0x87], [0x02c6, 0x88], [0x2030, 0x89], [0x0160, 0x8a], [0x2039, 0x8b], [0x0152, 0x8c],
  [0x017d, 0x8e], [0x2018, 0x91], [0x2019, 0x92], [0x201c, 0x93], [0x201d, 0x94], [0x2022, 0x95],
  [0x2013, 0x96], [0x2014, 0x97], [0x02dc, 0x98], [0x2122, 0x99], [0x0161, 0x9a], [0x203a, 0x9b],
  [0x0153, 0x9c], [0x017e, 0x9e], [0x0178, 0x9f],
]);

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
export function toWinAnsi(text: string): string {
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
