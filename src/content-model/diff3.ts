/**
 * Line-based diff and three-way merge (pure; no dependencies).
 *
 * - `diffLines`: Myers' O(ND) difference algorithm in linear space (middle-snake
 *   bisection), after trimming the common prefix/suffix and discarding lines
 *   that occur in only one of the two texts (they can never match, so the
 *   result is still a shortest edit script; it makes unrelated texts cheap).
 * - `merge3`: diff3 semantics over the hunks of base→ours and base→theirs.
 * - `unifiedDiff`: GNU/git unified format, accepted by `git apply` and `patch`.
 *
 * Lines keep their terminator: a text is split after every `\n`, so `\r\n`
 * stays part of its line and a last line without `\n` is a different line
 * from the same text with one ("missing final newline" is exact).
 *
 * The sequence-level primitives (`diffSequences`, `mergeSequences`) are
 * exported as well: the page-tree merge uses them on lists of page ids.
 */

/** One changed region between `a` and `b` (no context lines). */
export interface Hunk {
  /** 0-based index in `a` of the first removed line; for a pure insertion, the index of the line it goes before. */
  aStart: number;
  /** Number of lines removed from `a` (0 for a pure insertion). */
  aCount: number;
  /** 0-based index in `b` of the first added line; for a pure deletion, the index of the line that follows. */
  bStart: number;
  /** Number of lines added from `b` (0 for a pure deletion). */
  bCount: number;
  /** `a.lines[aStart, aStart + aCount)`, each with its line terminator. */
  removed: string[];
  /** `b.lines[bStart, bStart + bCount)`, each with its line terminator. */
  added: string[];
}

/** A changed region between two sequences, as half-open index ranges. */
export interface SequenceHunk {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** A conflict of `merge3`: the base lines `[baseRange[0], baseRange[1])` (0-based, half-open) and each side's text for them. */
export interface Merge3Conflict {
  baseRange: [number, number];
  ours: string;
  theirs: string;
}

export type Merge3Result =
  | { clean: true; text: string }
  | {
      clean: false;
      conflicts: Merge3Conflict[];
      /** The merged text with git-style diff3 conflict markers (for writing out a conflicted file). */
      withMarkers: string;
    };

export interface Merge3Options {
  oursLabel?: string;
  baseLabel?: string;
  theirsLabel?: string;
}

/** One region of a sequence merge: merged items, or a conflict with each version of the region. */
export type MergeRegion<T> =
  | { kind: 'ok'; items: T[] }
  | { kind: 'conflict'; baseStart: number; baseEnd: number; base: T[]; ours: T[]; theirs: T[] };

// ---------------------------------------------------------------------------
// Lines

/** Splits after every `\n`; the last line has no terminator when the text does not end with `\n`. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    lines.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

// ---------------------------------------------------------------------------
// Myers diff over integer symbols

/** Maps the values of both sequences to dense integer symbols (equal values ⇔ equal symbols). */
function symbolize<T>(a: readonly T[], b: readonly T[]): { sa: Int32Array; sb: Int32Array; count: number } {
  const table = new Map<T, number>();
  const map = (xs: readonly T[]): Int32Array => {
    const out = new Int32Array(xs.length);
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i] as T;
      let s = table.get(x);
      if (s === undefined) {
        s = table.size;
        table.set(x, s);
      }
      out[i] = s;
    }
    return out;
  };
  const sa = map(a);
  const sb = map(b);
  return { sa, sb, count: table.size };
}

/**
 * Past this many steps (half the edit distance of one sub-problem), `bisect`
 * gives up on minimality and splits at the furthest-reaching forward point, as
 * git's xdiff does, which bounds the cost of diffing large, very different
 * texts (e.g. 20,000 lines against their reverse: seconds → milliseconds). Edit
 * scripts stay exact below about 2,000 changed lines per region.
 */
const MAX_COST = 1024;

/** The furthest x reached on each diagonal, forward (`v1`) and backward (`v2`); index = `offset` + diagonal. */
interface Diagonals {
  v1: Int32Array;
  v2: Int32Array;
  offset: number;
  length: number;
}

/**
 * Arrays for the diagonals of a bisection with at most `maxD` steps. The diagonals
 * reached are within ±d, and d rarely passes MAX_COST (the bisection gives up there):
 * arrays for that first, twice as wide each time it must go on (`from`, kept), instead
 * of two arrays of n + m per call, which a diff of millions of lines allocated and
 * filled at every level of the bisection.
 */
function diagonals(maxD: number, from?: Diagonals): Diagonals {
  const offset = from ? Math.min(maxD, from.offset * 2) : Math.min(maxD, MAX_COST + 2);
  const length = 2 * offset + 2;
  const make = (old?: Int32Array): Int32Array => {
    const v = new Int32Array(length).fill(-1);
    if (old && from) v.set(old, offset - from.offset);
    return v;
  };
  return { v1: make(from?.v1), v2: make(from?.v2), offset, length };
}

/**
 * Finds the middle snake of a[aLo,aHi) × b[bLo,bHi) (both non-empty, first and
 * last elements differing) and returns an absolute split point [x, y] on a
 * shortest edit path, or null when the two ranges have nothing in common.
 * Adapted from the bisection of Myers (1986) as in diff-match-patch.
 */
function bisect(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number): [number, number] | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  let { v1, v2, offset: vOffset, length: vLength } = diagonals(maxD);
  v1[vOffset + 1] = 0;
  v2[vOffset + 1] = 0;
  const delta = n - m;
  // When the difference in lengths is odd, the forward path will collide with the reverse path.
  const front = (delta & 1) !== 0;
  let k1start = 0;
  let k1end = 0;
  let k2start = 0;
  let k2end = 0;
  for (let d = 0; d < maxD; d++) {
    if (d + 1 >= vOffset && vOffset < maxD) ({ v1, v2, offset: vOffset, length: vLength } = diagonals(maxD, { v1, v2, offset: vOffset, length: vLength }));
    let bestX = 0;
    let bestY = 0;
    for (let k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
      const k1Offset = vOffset + k1;
      let x1: number;
      if (k1 === -d || (k1 !== d && (v1[k1Offset - 1] as number) < (v1[k1Offset + 1] as number))) {
        x1 = v1[k1Offset + 1] as number;
      } else {
        x1 = (v1[k1Offset - 1] as number) + 1;
      }
      let y1 = x1 - k1;
      while (x1 < n && y1 < m && a[aLo + x1] === b[bLo + y1]) {
        x1++;
        y1++;
      }
      v1[k1Offset] = x1;
      if (x1 <= n && y1 <= m && x1 + y1 > bestX + bestY) {
        bestX = x1;
        bestY = y1;
      }
      if (x1 > n) {
        k1end += 2; // ran off the right of the graph
      } else if (y1 > m) {
        k1start += 2; // ran off the bottom of the graph
      } else if (front) {
        const k2Offset = vOffset + delta - k1;
        if (k2Offset >= 0 && k2Offset < vLength && v2[k2Offset] !== -1) {
          const x2 = n - (v2[k2Offset] as number);
          if (x1 >= x2) return [aLo + x1, bLo + y1];
        }
      }
    }
    for (let k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
      const k2Offset = vOffset + k2;
      let x2: number;
      if (k2 === -d || (k2 !== d && (v2[k2Offset - 1] as number) < (v2[k2Offset + 1] as number))) {
        x2 = v2[k2Offset + 1] as number;
      } else {
        x2 = (v2[k2Offset - 1] as number) + 1;
      }
      let y2 = x2 - k2;
      while (x2 < n && y2 < m && a[aHi - x2 - 1] === b[bHi - y2 - 1]) {
        x2++;
        y2++;
      }
      v2[k2Offset] = x2;
      if (x2 > n) {
        k2end += 2;
      } else if (y2 > m) {
        k2start += 2;
      } else if (!front) {
        const k1Offset = vOffset + delta - k2;
        if (k1Offset >= 0 && k1Offset < vLength && v1[k1Offset] !== -1) {
          const x1 = v1[k1Offset] as number;
          const y1 = vOffset + x1 - k1Offset;
          if (x1 >= n - x2) return [aLo + x1, bLo + y1];
        }
      }
    }
    // Too costly: split at the furthest forward point (past the start, short of the end: both halves shrink).
    if (d >= MAX_COST && bestX + bestY > 0 && bestX + bestY < n + m) return [aLo + bestX, bLo + bestY];
  }
  return null;
}

/** Marks, in aChanged/bChanged, the elements outside a longest common subsequence of the two ranges. */
function compareRanges(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  aChanged: Uint8Array, bChanged: Uint8Array,
): void {
  // Iterative on the right half, recursive on the left: depth stays O(log D).
  for (;;) {
    while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
      aLo++;
      bLo++;
    }
    while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) {
      aHi--;
      bHi--;
    }
    if (aLo === aHi || bLo === bHi) {
      for (let i = aLo; i < aHi; i++) aChanged[i] = 1;
      for (let j = bLo; j < bHi; j++) bChanged[j] = 1;
      return;
    }
    const split = bisect(a, aLo, aHi, b, bLo, bHi);
    if (split === null) {
      for (let i = aLo; i < aHi; i++) aChanged[i] = 1;
      for (let j = bLo; j < bHi; j++) bChanged[j] = 1;
      return;
    }
    compareRanges(a, aLo, split[0], b, bLo, split[1], aChanged, bChanged);
    aLo = split[0];
    bLo = split[1];
  }
}

/** Diff of two symbol arrays: changed-element marks for both sides. */
function diffSymbols(sa: Int32Array, sb: Int32Array, symbols: number): { aChanged: Uint8Array; bChanged: Uint8Array } {
  const n = sa.length;
  const m = sb.length;
  const aChanged = new Uint8Array(n);
  const bChanged = new Uint8Array(m);
  // Discard elements that occur only on one side: they are changed in every edit script.
  const inA = new Uint8Array(symbols);
  const inB = new Uint8Array(symbols);
  for (let i = 0; i < n; i++) inA[sa[i] as number] = 1;
  for (let j = 0; j < m; j++) inB[sb[j] as number] = 1;
  const kept = (s: Int32Array, other: Uint8Array, changed: Uint8Array): Int32Array => {
    const keep = new Int32Array(s.length);
    let count = 0;
    for (let i = 0; i < s.length; i++) {
      if (other[s[i] as number]) keep[count++] = i;
      else changed[i] = 1;
    }
    return keep.subarray(0, count);
  };
  const keepA = kept(sa, inB, aChanged);
  const keepB = kept(sb, inA, bChanged);
  const ra = new Int32Array(keepA.length);
  for (let i = 0; i < keepA.length; i++) ra[i] = sa[keepA[i] as number] as number;
  const rb = new Int32Array(keepB.length);
  for (let j = 0; j < keepB.length; j++) rb[j] = sb[keepB[j] as number] as number;
  const raChanged = new Uint8Array(ra.length);
  const rbChanged = new Uint8Array(rb.length);
  compareRanges(ra, 0, ra.length, rb, 0, rb.length, raChanged, rbChanged);
  for (let i = 0; i < ra.length; i++) if (raChanged[i]) aChanged[keepA[i] as number] = 1;
  for (let j = 0; j < rb.length; j++) if (rbChanged[j]) bChanged[keepB[j] as number] = 1;
  return { aChanged, bChanged };
}

/** Turns change marks into hunks: maximal runs of changed elements between matched pairs. */
function marksToHunks(aChanged: Uint8Array, bChanged: Uint8Array): SequenceHunk[] {
  const n = aChanged.length;
  const m = bChanged.length;
  const hunks: SequenceHunk[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && !aChanged[i] && !bChanged[j]) {
      i++;
      j++;
      continue;
    }
    const aStart = i;
    const bStart = j;
    while (i < n && aChanged[i]) i++;
    while (j < m && bChanged[j]) j++;
    hunks.push({ aStart, aEnd: i, bStart, bEnd: j });
  }
  return hunks;
}

/**
 * Shortest edit script between two sequences (elements compared with
 * SameValueZero, as Map keys), as changed regions in order.
 */
export function diffSequences<T>(a: readonly T[], b: readonly T[]): SequenceHunk[] {
  const { sa, sb, count } = symbolize(a, b);
  const { aChanged, bChanged } = diffSymbols(sa, sb, count);
  return marksToHunks(aChanged, bChanged);
}

/** Line diff of two texts: the changed regions, in order, with their lines. */
export function diffLines(a: string, b: string): Hunk[] {
  const al = splitLines(a);
  const bl = splitLines(b);
  return diffSequences(al, bl).map((h) => ({
    aStart: h.aStart,
    aCount: h.aEnd - h.aStart,
    bStart: h.bStart,
    bCount: h.bEnd - h.bStart,
    removed: al.slice(h.aStart, h.aEnd),
    added: bl.slice(h.bStart, h.bEnd),
  }));
}

// ---------------------------------------------------------------------------
// Three-way merge

interface SidedHunk extends SequenceHunk {
  side: 0 | 1; // 0 = ours, 1 = theirs
}

function sameSeq<T>(x: readonly T[], y: readonly T[]): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * Three-way merge of sequences (diff3).
 *
 * The hunks of base→ours and base→theirs are grouped when they *overlap* in
 * the base:
 * - two hunks overlap when their base ranges share at least one element, or
 *   when both are pure insertions at the same point (the order of the two
 *   insertions would be ambiguous);
 * - an insertion strictly inside the other side's changed range overlaps it;
 * - hunks that are merely *adjacent* (one ends where the other begins, touching
 *   different base elements, or an insertion just before/after the other side's
 *   change) do NOT overlap: both are applied, in base order, an insertion
 *   before a change that starts at the same point. (git's merge treats adjacent
 *   changes as a conflict; we prefer merging them, as they touch different lines.)
 *
 * A group with hunks from one side only takes that side. A group with hunks
 * from both sides compares the two versions of the group's base range: equal
 * (the same change on both sides) → taken; different → a conflict region.
 */
export function mergeSequences<T>(base: readonly T[], ours: readonly T[], theirs: readonly T[]): MergeRegion<T>[] {
  if (sameSeq(ours, theirs) || sameSeq(base, theirs)) return [{ kind: 'ok', items: ours.slice() }];
  if (sameSeq(base, ours)) return [{ kind: 'ok', items: theirs.slice() }];

  const hunks: SidedHunk[] = [
    ...diffSequences(base, ours).map((h) => ({ ...h, side: 0 as const })),
    ...diffSequences(base, theirs).map((h) => ({ ...h, side: 1 as const })),
  ];
  hunks.sort((x, y) => x.aStart - y.aStart || x.aEnd - y.aEnd || x.side - y.side);

  const sides = [ours, theirs] as const;
  const regions: MergeRegion<T>[] = [];
  const pushOk = (items: T[]): void => {
    if (items.length === 0) return;
    const last = regions[regions.length - 1];
    // One at a time: spreading a region of a few hundred thousand lines overflows the call stack.
    if (last && last.kind === 'ok') for (const item of items) last.items.push(item);
    else regions.push({ kind: 'ok', items });
  };
  /** The side's version of base[gs, ge), given that side's hunks inside that range (in order). */
  const sideVersion = (side: 0 | 1, group: SidedHunk[], gs: number, ge: number): T[] => {
    const own = group.filter((h) => h.side === side);
    const first = own[0];
    const last = own[own.length - 1];
    if (!first || !last) return base.slice(gs, ge);
    return sides[side].slice(first.bStart - (first.aStart - gs), last.bEnd + (ge - last.aEnd));
  };

  let pos = 0;
  let i = 0;
  while (i < hunks.length) {
    const first = hunks[i] as SidedHunk;
    const group: SidedHunk[] = [first];
    let gs = first.aStart;
    let ge = first.aEnd;
    i++;
    while (i < hunks.length) {
      const h = hunks[i] as SidedHunk;
      const overlaps =
        h.aStart < ge ||
        (h.aStart === h.aEnd && group.some((g) => g.side !== h.side && g.aStart === h.aStart && g.aEnd === h.aStart));
      if (!overlaps) break;
      group.push(h);
      gs = Math.min(gs, h.aStart);
      ge = Math.max(ge, h.aEnd);
      i++;
    }
    pushOk(base.slice(pos, gs));
    const oursV = sideVersion(0, group, gs, ge);
    const theirsV = sideVersion(1, group, gs, ge);
    const hasOurs = group.some((g) => g.side === 0);
    const hasTheirs = group.some((g) => g.side === 1);
    if (!hasTheirs) pushOk(oursV);
    else if (!hasOurs) pushOk(theirsV);
    else if (sameSeq(oursV, theirsV)) pushOk(oursV);
    else regions.push({ kind: 'conflict', baseStart: gs, baseEnd: ge, base: base.slice(gs, ge), ours: oursV, theirs: theirsV });
    pos = ge;
  }
  pushOk(base.slice(pos));
  return regions;
}

/**
 * Three-way merge of texts, line by line, with diff3 semantics (see
 * `mergeSequences` for the exact rules; in short: changes on both sides that
 * touch different lines merge, even when adjacent; identical changes merge;
 * different changes to the same lines, or different insertions at the same
 * point, conflict).
 *
 * Conflict ranges are 0-based half-open line ranges of `base`.
 */
export function merge3(base: string, ours: string, theirs: string, options: Merge3Options = {}): Merge3Result {
  if (ours === theirs || theirs === base) return { clean: true, text: ours };
  if (ours === base) return { clean: true, text: theirs };
  const regions = mergeSequences(splitLines(base), splitLines(ours), splitLines(theirs));
  const conflicts: Merge3Conflict[] = [];
  let text = '';
  let marked = '';
  const marker = (s: string, label: string): string => (label ? `${s} ${label}\n` : `${s}\n`);
  const block = (s: string): string => (s === '' || s.endsWith('\n') ? s : `${s}\n`);
  for (const r of regions) {
    if (r.kind === 'ok') {
      const s = r.items.join('');
      text += s;
      marked += s;
      continue;
    }
    const o = r.ours.join('');
    const t = r.theirs.join('');
    conflicts.push({ baseRange: [r.baseStart, r.baseEnd], ours: o, theirs: t });
    marked +=
      marker('<<<<<<<', options.oursLabel ?? 'ours') +
      block(o) +
      marker('|||||||', options.baseLabel ?? 'base') +
      block(r.base.join('')) +
      marker('=======', '') +
      block(t) +
      marker('>>>>>>>', options.theirsLabel ?? 'theirs');
  }
  if (conflicts.length === 0) return { clean: true, text };
  return { clean: false, conflicts, withMarkers: marked };
}

// ---------------------------------------------------------------------------
// Unified diff

export interface UnifiedDiffOptions {
  /** Text after `--- ` (default `a`). */
  fromLabel?: string;
  /** Text after `+++ ` (default `b`). */
  toLabel?: string;
  /** Lines of context around each change (default 3). */
  context?: number;
}

function range(start: number, count: number): string {
  // GNU/git: a 1-based start; a count of 1 is omitted; an empty range names the line before it.
  if (count === 0) return `${start},0`;
  if (count === 1) return `${start + 1}`;
  return `${start + 1},${count}`;
}

/**
 * A unified diff from `a` to `b` (GNU/git format, `git apply`/`patch` accept
 * it); the empty string when the texts are equal. A last line without a
 * newline is followed by `\ No newline at end of file`.
 */
export function unifiedDiff(a: string, b: string, options: UnifiedDiffOptions = {}): string {
  if (a === b) return '';
  const al = splitLines(a);
  const bl = splitLines(b);
  const hunks = diffSequences(al, bl);
  if (hunks.length === 0) return '';
  const context = Math.max(0, Math.floor(options.context ?? 3));
  let out = `--- ${options.fromLabel ?? 'a'}\n+++ ${options.toLabel ?? 'b'}\n`;
  const line = (prefix: string, l: string): string =>
    l.endsWith('\n') ? prefix + l : `${prefix}${l}\n\\ No newline at end of file\n`;

  let i = 0;
  while (i < hunks.length) {
    let j = i;
    while (j + 1 < hunks.length && (hunks[j + 1] as SequenceHunk).aStart - (hunks[j] as SequenceHunk).aEnd <= 2 * context) j++;
    const first = hunks[i] as SequenceHunk;
    const last = hunks[j] as SequenceHunk;
    const aS = Math.max(0, first.aStart - context);
    const aE = Math.min(al.length, last.aEnd + context);
    const bS = first.bStart - (first.aStart - aS);
    const bE = last.bEnd + (aE - last.aEnd);
    out += `@@ -${range(aS, aE - aS)} +${range(bS, bE - bS)} @@\n`;
    let pos = aS;
    for (let k = i; k <= j; k++) {
      const h = hunks[k] as SequenceHunk;
      for (; pos < h.aStart; pos++) out += line(' ', al[pos] as string);
      for (let x = h.aStart; x < h.aEnd; x++) out += line('-', al[x] as string);
      for (let y = h.bStart; y < h.bEnd; y++) out += line('+', bl[y] as string);
      pos = h.aEnd;
    }
    for (; pos < aE; pos++) out += line(' ', al[pos] as string);
    i = j + 1;
  }
  return out;
}
