import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffLines, diffSequences, merge3, mergeSequences, splitLines, unifiedDiff } from '../../src/content-model/diff3.js';

// ---------------------------------------------------------------------------
// Test helpers: a seeded PRNG, random texts, a strict unified-diff applier.

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const int = (r: () => number, n: number): number => Math.floor(r() * n);

/** Random text over a small vocabulary (so lines repeat), sometimes CRLF, sometimes without a final newline. */
function randomText(r: () => number, maxLines = 12): string {
  const vocab = ['a', 'b', 'c', 'd', '', '# Title', '- item', 'x y z'];
  const n = int(r, maxLines + 1);
  const eol = r() < 0.2 ? '\r\n' : '\n';
  let text = '';
  for (let i = 0; i < n; i++) text += pick(r, vocab) + (r() < 0.1 ? '\r\n' : eol);
  if (text && r() < 0.3) text = text.replace(/\r?\n$/, '');
  return text;
}

/** A random edit of a text: some lines inserted, deleted or replaced (keeps the "no final newline" state random). */
function mutate(r: () => number, text: string): string {
  const lines = splitLines(text);
  const edits = 1 + int(r, 3);
  for (let e = 0; e < edits; e++) {
    const at = int(r, lines.length + 1);
    const op = int(r, 3);
    const line = `${pick(r, ['a', 'b', 'new', 'q', ''])}${r() < 0.2 ? '' : '\n'}`;
    if (op === 0 || lines.length === 0) lines.splice(at, 0, line);
    else if (op === 1) lines.splice(Math.min(at, lines.length - 1), 1);
    else lines[Math.min(at, lines.length - 1)] = line;
  }
  // Only the last line may lack a newline.
  return lines.map((l, i) => (i < lines.length - 1 && !l.endsWith('\n') ? `${l}\n` : l)).join('');
}

function lcsLength<T>(a: readonly T[], b: readonly T[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = dp[i] as number[];
      const prev = dp[i - 1] as number[];
      row[j] = a[i - 1] === b[j - 1] ? (prev[j - 1] as number) + 1 : Math.max(prev[j] as number, row[j - 1] as number);
    }
  }
  return (dp[a.length] as number[])[b.length] as number;
}

/**
 * A strict applier of unified diffs (no fuzz, no offset): every context and
 * removed line must match at the position its hunk header names, and the
 * counts must agree with the header.
 */
function applyUnified(a: string, patch: string): string {
  const src = splitLines(a);
  const lines = splitLines(patch);
  const out: string[] = [];
  let cursor = 0;
  let i = 0;
  expect(lines[i++]).toMatch(/^--- /);
  expect(lines[i++]).toMatch(/^\+\+\+ /);
  while (i < lines.length) {
    const header = lines[i++] as string;
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n$/.exec(header);
    if (!m) throw new Error(`bad hunk header: ${JSON.stringify(header)}`);
    const oldStart = Number(m[1]);
    const oldCount = m[2] === undefined ? 1 : Number(m[2]);
    const newStart = Number(m[3]);
    const newCount = m[4] === undefined ? 1 : Number(m[4]);
    const at = oldCount === 0 ? oldStart : oldStart - 1;
    if (at < cursor) throw new Error('hunks out of order');
    out.push(...src.slice(cursor, at));
    expect(newCount === 0 ? newStart : newStart - 1).toBe(out.length);
    let pos = at;
    let seenOld = 0;
    let seenNew = 0;
    while (i < lines.length && !(lines[i] as string).startsWith('@@')) {
      const raw = lines[i++] as string;
      let body = raw.slice(1);
      if (i < lines.length && (lines[i] as string).startsWith('\\')) {
        expect(lines[i]).toBe('\\ No newline at end of file\n');
        i++;
        expect(body.endsWith('\n')).toBe(true);
        body = body.slice(0, -1);
      }
      const prefix = raw[0];
      if (prefix === ' ' || prefix === '-') {
        if (src[pos] !== body) throw new Error(`mismatch at line ${pos + 1}: ${JSON.stringify(src[pos])} vs ${JSON.stringify(body)}`);
        pos++;
        seenOld++;
      }
      if (prefix === ' ' || prefix === '+') {
        out.push(body);
        seenNew++;
      }
      if (prefix !== ' ' && prefix !== '-' && prefix !== '+') throw new Error(`bad line ${JSON.stringify(raw)}`);
    }
    expect([seenOld, seenNew]).toEqual([oldCount, newCount]);
    cursor = pos;
  }
  out.push(...src.slice(cursor));
  return out.join('');
}

/** Applies the hunks of diffLines to a. */
function applyHunks(a: string, b: string): string {
  const src = splitLines(a);
  const out: string[] = [];
  let pos = 0;
  for (const h of diffLines(a, b)) {
    out.push(...src.slice(pos, h.aStart));
    expect(src.slice(h.aStart, h.aStart + h.aCount)).toEqual(h.removed);
    expect(h.added).toHaveLength(h.bCount);
    out.push(...h.added);
    pos = h.aStart + h.aCount;
  }
  out.push(...src.slice(pos));
  return out.join('');
}

// ---------------------------------------------------------------------------

describe('splitLines', () => {
  it.each([
    ['', []],
    ['a', ['a']],
    ['a\n', ['a\n']],
    ['a\nb', ['a\n', 'b']],
    ['a\r\nb\r\n', ['a\r\n', 'b\r\n']],
    ['\n\n', ['\n', '\n']],
  ])('%j', (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
  });
});

describe('diffLines', () => {
  it.each([
    { name: 'equal texts', a: 'a\nb\n', b: 'a\nb\n', hunks: [] },
    { name: 'both empty', a: '', b: '', hunks: [] },
    {
      name: 'insertion',
      a: 'a\nc\n',
      b: 'a\nb\nc\n',
      hunks: [{ aStart: 1, aCount: 0, bStart: 1, bCount: 1, removed: [], added: ['b\n'] }],
    },
    {
      name: 'deletion',
      a: 'a\nb\nc\n',
      b: 'a\nc\n',
      hunks: [{ aStart: 1, aCount: 1, bStart: 1, bCount: 0, removed: ['b\n'], added: [] }],
    },
    {
      name: 'replacement',
      a: 'a\nb\nc\n',
      b: 'a\nB\nc\n',
      hunks: [{ aStart: 1, aCount: 1, bStart: 1, bCount: 1, removed: ['b\n'], added: ['B\n'] }],
    },
    {
      name: 'adding the missing final newline changes the last line',
      a: 'a\nb',
      b: 'a\nb\n',
      hunks: [{ aStart: 1, aCount: 1, bStart: 1, bCount: 1, removed: ['b'], added: ['b\n'] }],
    },
    {
      name: 'appending after a last line without newline',
      a: 'a',
      b: 'a\nb',
      hunks: [{ aStart: 0, aCount: 1, bStart: 0, bCount: 2, removed: ['a'], added: ['a\n', 'b'] }],
    },
    {
      name: 'CRLF is part of the line',
      a: 'a\r\nb\r\n',
      b: 'a\nb\r\n',
      hunks: [{ aStart: 0, aCount: 1, bStart: 0, bCount: 1, removed: ['a\r\n'], added: ['a\n'] }],
    },
    {
      name: 'from empty',
      a: '',
      b: 'x\ny',
      hunks: [{ aStart: 0, aCount: 0, bStart: 0, bCount: 2, removed: [], added: ['x\n', 'y'] }],
    },
    {
      name: 'to empty',
      a: 'x\n',
      b: '',
      hunks: [{ aStart: 0, aCount: 1, bStart: 0, bCount: 0, removed: ['x\n'], added: [] }],
    },
  ])('$name', ({ a, b, hunks }) => {
    expect(diffLines(a, b)).toEqual(hunks);
  });

  it('finds a shortest edit script (checked against an LCS table) and its hunks rebuild b', () => {
    const r = prng(1);
    for (let n = 0; n < 400; n++) {
      const a = randomText(r, 14);
      const b = r() < 0.5 ? mutate(r, a) : randomText(r, 14);
      const hunks = diffLines(a, b);
      const removed = hunks.reduce((s, h) => s + h.aCount, 0);
      const added = hunks.reduce((s, h) => s + h.bCount, 0);
      const lcs = lcsLength(splitLines(a), splitLines(b));
      expect(removed).toBe(splitLines(a).length - lcs);
      expect(added).toBe(splitLines(b).length - lcs);
      expect(applyHunks(a, b)).toBe(b);
    }
  });

  it('stays minimal on medium texts with hundreds of changes (checked against an LCS table)', () => {
    const r = prng(8);
    const a = Array.from({ length: 1500 }, () => `${pick(r, ['p', 'q', '', 'list', 'code'])} ${int(r, 40)}\n`);
    const b = a.slice();
    for (let e = 0; e < 300; e++) {
      const at = int(r, b.length);
      if (r() < 0.5) b.splice(at, 1);
      else b.splice(at, 0, `new ${int(r, 40)}\n`);
    }
    // LCS length in O(n·m) time and O(m) space.
    let prev = new Int32Array(b.length + 1);
    for (let i = 1; i <= a.length; i++) {
      const row = new Int32Array(b.length + 1);
      for (let j = 1; j <= b.length; j++) {
        row[j] = a[i - 1] === b[j - 1] ? (prev[j - 1] as number) + 1 : Math.max(prev[j] as number, row[j - 1] as number);
      }
      prev = row;
    }
    const lcs = prev[b.length] as number;
    const hunks = diffLines(a.join(''), b.join(''));
    expect(hunks.reduce((s, h) => s + h.aCount, 0)).toBe(a.length - lcs);
    expect(applyHunks(a.join(''), b.join(''))).toBe(b.join(''));
  });

  it('bounds the cost on huge, very different texts (valid, possibly not minimal)', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? '\n' : `para ${i % 500}\n`)).join('');
    const reversed = splitLines(a).reverse().join('');
    const t0 = performance.now();
    const hunks = diffLines(a, reversed);
    expect(performance.now() - t0).toBeLessThan(30_000); // a guard against blow-ups, not a speed target
    const src = splitLines(a);
    const out: string[] = [];
    let pos = 0;
    let matches = true;
    for (const h of hunks) {
      out.push(...src.slice(pos, h.aStart));
      for (let i = 0; i < h.aCount; i++) matches &&= src[h.aStart + i] === h.removed[i];
      out.push(...h.added);
      pos = h.aStart + h.aCount;
    }
    out.push(...src.slice(pos));
    expect(matches).toBe(true);
    expect(out.join('')).toBe(reversed);
  });

  it('diffs generic sequences, and large unrelated texts quickly', () => {
    expect(diffSequences(['x', 'y', 'z'], ['y', 'z', 'w'])).toEqual([
      { aStart: 0, aEnd: 1, bStart: 0, bEnd: 0 },
      { aStart: 3, aEnd: 3, bStart: 2, bEnd: 3 },
    ]);
    const a = Array.from({ length: 20_000 }, (_, i) => `a${i}\n`).join('');
    const b = Array.from({ length: 20_000 }, (_, i) => `b${i}\n`).join('');
    const t0 = performance.now();
    expect(diffLines(a, b)).toHaveLength(1);
    const c = a.replace('a500\n', 'changed\n').replace('a15000\n', '');
    expect(diffLines(a, c)).toHaveLength(2);
    expect(performance.now() - t0).toBeLessThan(30_000); // a guard against blow-ups, not a speed target
  });
});

describe('merge3', () => {
  type Case = { name: string; base: string; ours: string; theirs: string } & (
    | { text: string }
    | { conflicts: Array<{ baseRange: [number, number]; ours: string; theirs: string }> }
  );
  const cases: Case[] = [
    {
      name: 'non-overlapping changes from both sides merge',
      base: 'a\nb\nc\nd\ne\n',
      ours: 'A\nb\nc\nd\ne\n',
      theirs: 'a\nb\nc\nd\nE\n',
      text: 'A\nb\nc\nd\nE\n',
    },
    {
      name: 'identical changes on both sides merge',
      base: 'a\nb\nc\n',
      ours: 'a\nB\nc\nnew\n',
      theirs: 'a\nB\nc\n',
      text: 'a\nB\nc\nnew\n',
    },
    {
      name: 'the same line changed differently conflicts',
      base: 'a\nb\nc\n',
      ours: 'a\nB1\nc\n',
      theirs: 'a\nB2\nc\n',
      conflicts: [{ baseRange: [1, 2], ours: 'B1\n', theirs: 'B2\n' }],
    },
    {
      name: 'overlapping ranges conflict as one region',
      base: 'a\nb\nc\nd\n',
      ours: 'a\nX\nY\nd\n',
      theirs: 'a\nb\nZ\nW\n',
      conflicts: [{ baseRange: [1, 4], ours: 'X\nY\nd\n', theirs: 'b\nZ\nW\n' }],
    },
    {
      // RULE: adjacent edits touching different lines merge cleanly (git would report a conflict).
      name: 'adjacent edits to different lines merge cleanly',
      base: 'a\nb\nc\n',
      ours: 'A\nb\nc\n',
      theirs: 'a\nB\nc\n',
      text: 'A\nB\nc\n',
    },
    {
      name: 'adjacent: a deletion next to a change merges',
      base: 'a\nb\nc\nd\n',
      ours: 'a\nd\n',
      theirs: 'a\nb\nc\nD\n',
      text: 'a\nD\n',
    },
    {
      name: 'adjacent: an insertion just before a line the other side changed goes before the change',
      base: 'a\nb\n',
      ours: 'a\nnew\nb\n',
      theirs: 'a\nB\n',
      text: 'a\nnew\nB\n',
    },
    {
      name: 'adjacent: an insertion just after a line the other side changed goes after it',
      base: 'a\nb\n',
      ours: 'A\nb\n',
      theirs: 'a\nnew\nb\n',
      text: 'A\nnew\nb\n',
    },
    {
      name: 'different insertions at the same point conflict (their order is ambiguous)',
      base: 'a\nb\n',
      ours: 'a\nx\nb\n',
      theirs: 'a\ny\nb\n',
      conflicts: [{ baseRange: [1, 1], ours: 'x\n', theirs: 'y\n' }],
    },
    {
      name: 'the same insertion at the same point merges',
      base: 'a\nb\n',
      ours: 'a\nx\nb\nc\n',
      theirs: 'a\nx\nb\n',
      text: 'a\nx\nb\nc\n',
    },
    {
      name: 'an insertion inside a range the other side replaced conflicts',
      base: 'a\nb\nc\nd\n',
      ours: 'a\nb\nnew\nc\nd\n',
      theirs: 'a\nX\nd\n',
      conflicts: [{ baseRange: [1, 3], ours: 'b\nnew\nc\n', theirs: 'X\n' }],
    },
    {
      name: 'deleted on one side, changed on the other conflicts',
      base: 'a\nb\nc\n',
      ours: 'a\nc\n',
      theirs: 'a\nB\nc\n',
      conflicts: [{ baseRange: [1, 2], ours: '', theirs: 'B\n' }],
    },
    {
      name: 'the missing final newline is a change to the last line',
      base: 'a\nb\nc',
      ours: 'a\nb\nc\n',
      theirs: 'A\nb\nc',
      text: 'A\nb\nc\n',
    },
    {
      name: 'both sides appending after a last line without newline conflict',
      base: 'a',
      ours: 'a\nb',
      theirs: 'a\nc',
      conflicts: [{ baseRange: [0, 1], ours: 'a\nb', theirs: 'a\nc' }],
    },
    {
      name: 'CRLF lines are kept byte for byte',
      base: 'a\r\nb\r\nc\r\nd\r\n',
      ours: 'A\r\nb\r\nc\r\nd\r\n',
      theirs: 'a\r\nb\r\nc\r\nD\n',
      text: 'A\r\nb\r\nc\r\nD\n',
    },
    {
      name: 'a line-ending-only change conflicts with a content change of the same line',
      base: 'a\nb\n',
      ours: 'a\r\nb\n',
      theirs: 'A\nb\n',
      conflicts: [{ baseRange: [0, 1], ours: 'a\r\n', theirs: 'A\n' }],
    },
    {
      name: 'several independent conflicts are reported separately',
      base: '1\n2\n3\n4\n5\n',
      ours: 'x\n2\n3\n4\ny\n',
      theirs: 'X\n2\n3\n4\nY\n',
      conflicts: [
        { baseRange: [0, 1], ours: 'x\n', theirs: 'X\n' },
        { baseRange: [4, 5], ours: 'y\n', theirs: 'Y\n' },
      ],
    },
    { name: 'empty base, same text added', base: '', ours: 'a\n', theirs: 'a\n', text: 'a\n' },
    {
      name: 'empty base, different texts added',
      base: '',
      ours: 'a\n',
      theirs: 'b\n',
      conflicts: [{ baseRange: [0, 0], ours: 'a\n', theirs: 'b\n' }],
    },
  ];

  it.each(cases)('$name', (c) => {
    const r = merge3(c.base, c.ours, c.theirs);
    if ('text' in c) {
      expect(r).toEqual({ clean: true, text: c.text });
    } else {
      expect(r.clean).toBe(false);
      if (!r.clean) expect(r.conflicts).toEqual(c.conflicts);
    }
    // The rules are symmetric: swapping the sides gives the same text, or the same conflicts swapped.
    const s = merge3(c.base, c.theirs, c.ours);
    if ('text' in c) expect(s).toEqual({ clean: true, text: c.text });
    else if (!s.clean) expect(s.conflicts).toEqual(c.conflicts.map((x) => ({ baseRange: x.baseRange, ours: x.theirs, theirs: x.ours })));
    else expect.unreachable('swapped sides merged cleanly');
  });

  it('writes git-style diff3 conflict markers', () => {
    const r = merge3('a\nb\nc\n', 'a\nB1\nc\n', 'a\nB2\nc\n', { oursLabel: 'primary', theirsLabel: 'change request' });
    expect(r.clean).toBe(false);
    if (!r.clean) {
      expect(r.withMarkers).toBe(
        'a\n<<<<<<< primary\nB1\n||||||| base\nb\n=======\nB2\n>>>>>>> change request\nc\n',
      );
    }
  });

  it('property: ours === base yields theirs, theirs === base yields ours, ours === theirs yields it', () => {
    const r = prng(2);
    for (let n = 0; n < 500; n++) {
      const base = randomText(r);
      const edited = mutate(r, base);
      // Copies, so the fast paths on identity cannot be what answers.
      expect(merge3(base, `${base}`, edited)).toEqual({ clean: true, text: edited });
      expect(merge3(base, edited, base.slice())).toEqual({ clean: true, text: edited });
      expect(merge3(base, edited, (' ' + edited).slice(1))).toEqual({ clean: true, text: edited });
    }
  });

  it('property (sequence level, no text fast path): base on one side yields the other side', () => {
    const r = prng(3);
    for (let n = 0; n < 300; n++) {
      const base = splitLines(randomText(r));
      const other = splitLines(mutate(r, base.join('')));
      const flat = (x: ReturnType<typeof mergeSequences<string>>) => x.flatMap((g) => (g.kind === 'ok' ? g.items : ['!']));
      expect(flat(mergeSequences(base, base.slice(), other))).toEqual(other);
      expect(flat(mergeSequences(base, other, base.slice()))).toEqual(other);
    }
  });

  it('property: edits far apart always merge, to both edits applied; and merging is symmetric', () => {
    const r = prng(4);
    for (let n = 0; n < 300; n++) {
      const base = Array.from({ length: 20 }, (_, i) => `line ${i}\n`);
      const edit = (lines: string[], from: number, to: number, tag: string): string[] => {
        const at = from + int(r, to - from);
        const copy = lines.slice();
        const op = int(r, 3);
        if (op === 0) copy.splice(at, 0, `${tag} inserted\n`);
        else if (op === 1) copy.splice(at, 1);
        else copy[at] = `${tag} changed\n`;
        return copy;
      };
      const ours = edit(base, 0, 8, 'ours');
      const theirs = edit(base, 11, 20, 'theirs');
      const expected = [...ours.slice(0, ours.length - (base.length - 10)), ...theirs.slice(10)].join('');
      const m = merge3(base.join(''), ours.join(''), theirs.join(''));
      expect(m).toEqual({ clean: true, text: expected });
      expect(merge3(base.join(''), theirs.join(''), ours.join(''))).toEqual(m);
    }
  });

  it('property: random merges are symmetric, and a clean merge contains what both sides agree on', () => {
    const r = prng(5);
    let clean = 0;
    for (let n = 0; n < 500; n++) {
      const base = randomText(r);
      const ours = mutate(r, base);
      const theirs = mutate(r, base);
      const m = merge3(base, ours, theirs);
      const s = merge3(base, theirs, ours);
      expect(s.clean).toBe(m.clean);
      if (m.clean && s.clean) {
        clean++;
        expect(s.text).toBe(m.text);
        // Every line both sides added (relative to base) and agree on survives.
        if (ours === theirs) expect(m.text).toBe(ours);
      } else if (!m.clean) {
        for (const c of m.conflicts) expect(c.ours).not.toBe(c.theirs);
      }
    }
    expect(clean).toBeGreaterThan(50);
  });
});

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n')).toBe('');
    expect(unifiedDiff('', '')).toBe('');
  });

  it('writes headers, hunk ranges, context and changes', () => {
    const a = '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n';
    const b = '1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n';
    expect(unifiedDiff(a, b, { fromLabel: 'a/page.md', toLabel: 'b/page.md' })).toBe(
      '--- a/page.md\n+++ b/page.md\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n',
    );
  });

  it('defaults the labels to a and b, and honours context 0 (a count of 0 names the line before)', () => {
    expect(unifiedDiff('a\nb\n', 'a\nx\nb\n', { context: 0 })).toBe('--- a\n+++ b\n@@ -1,0 +2 @@\n+x\n');
    expect(unifiedDiff('a\nb\n', 'b\n', { context: 0 })).toBe('--- a\n+++ b\n@@ -1 +0,0 @@\n-a\n');
  });

  it('joins changes at most 2 × context lines apart into one hunk (as GNU diff), and splits farther ones', () => {
    const a = Array.from({ length: 30 }, (_, i) => `${i}\n`).join('');
    const near = a.replace('\n5\n', '\nx\n').replace('\n12\n', '\ny\n');
    expect(unifiedDiff(a, near).match(/^@@/gm)).toHaveLength(1);
    const far = a.replace('\n5\n', '\nx\n').replace('\n13\n', '\ny\n');
    expect(unifiedDiff(a, far).match(/^@@/gm)).toHaveLength(2);
  });

  it('marks a last line without newline, on either side and in context', () => {
    expect(unifiedDiff('a\nb', 'a\nb\n')).toBe(
      '--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n',
    );
    expect(unifiedDiff('a\nb', 'A\nb')).toBe('--- a\n+++ b\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n');
    expect(unifiedDiff('', 'x')).toBe('--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n');
    expect(unifiedDiff('x\n', '')).toBe('--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n');
  });

  it('property: the diff applied to a gives b (strict applier), for every context size', () => {
    const r = prng(6);
    for (let n = 0; n < 600; n++) {
      const a = randomText(r, 30);
      const b = r() < 0.7 ? mutate(r, mutate(r, a)) : randomText(r, 30);
      const patch = unifiedDiff(a, b, { context: int(r, 5) });
      if (a === b) expect(patch).toBe('');
      else expect(applyUnified(a, patch)).toBe(b);
    }
  });

  const hasTool = (tool: string): boolean => {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };

  it.skipIf(!hasTool('git') && !hasTool('patch'))('is accepted by git apply and patch', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-diff3-'));
    try {
      const r = prng(7);
      for (let n = 0; n < 25; n++) {
        const a = randomText(r, 20);
        const b = mutate(r, mutate(r, a));
        if (a === b) continue;
        const patch = unifiedDiff(a, b, { fromLabel: 'a/page.md', toLabel: 'b/page.md' });
        writeFileSync(join(dir, 'p.diff'), patch);
        if (hasTool('git')) {
          writeFileSync(join(dir, 'page.md'), a);
          execFileSync('git', ['apply', '--whitespace=nowarn', 'p.diff'], { cwd: dir, stdio: 'pipe' });
          expect(readFileSync(join(dir, 'page.md'), 'utf8')).toBe(b);
        }
        if (hasTool('patch')) {
          writeFileSync(join(dir, 'page.md'), a);
          execFileSync('patch', ['-s', '-p1', '-i', 'p.diff'], { cwd: dir, stdio: 'pipe' });
          expect(readFileSync(join(dir, 'page.md'), 'utf8')).toBe(b);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
