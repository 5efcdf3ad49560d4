/**
 * The hash trie's leaves (src/store/hamt.ts): written as a list of keys and values
 * (`{"a": [k, v, …]}`, cheaper to parse than an object keyed by ids), read in both that
 * and the first layout (`{"l": {k: v}}`), which a write of the leaf replaces.
 */
import { describe, expect, it } from 'vitest';
import { DELETE, type HamtNode, hamtApply, hamtDiff, hamtEntries, hamtGet, isLeaf, makeChange, nodeShapeProblem } from '../../src/store/hamt.js';
import { sha256 } from '../../src/store/objects.js';

function memory() {
  const nodes = new Map<string, HamtNode>();
  const emit = (node: HamtNode): string => {
    const hash = sha256(JSON.stringify(node));
    nodes.set(hash, structuredClone(node));
    return hash;
  };
  const source = { node: (hash: string) => nodes.get(hash) as HamtNode };
  return { nodes, emit, source };
}

const keys = (n: number) => Array.from({ length: n }, (_, i) => `page-${String(i).padStart(4, '0')}`);

describe('hash trie leaves', () => {
  it('writes list leaves, keys in order, and reads every value back', () => {
    const { nodes, emit, source } = memory();
    const root = hamtApply(source, undefined, keys(200).map((key, i) => makeChange(key, [`v${i}`, { n: i }])), emit);
    const leaves = [...nodes.values()].filter(isLeaf);
    expect(leaves.length).toBeGreaterThan(1);
    for (const leaf of leaves) {
      expect(Object.keys(leaf)).toEqual(['a']);
      const list = (leaf as { a: string[] }).a;
      const own = list.filter((_, i) => i % 2 === 0);
      expect(own).toEqual([...own].sort());
      expect(nodeShapeProblem(leaf)).toBeUndefined();
    }
    keys(200).forEach((key, i) => expect(hamtGet(source, root, key)).toEqual([`v${i}`, { n: i }]));
    expect(hamtGet(source, root, 'page-9999')).toBeUndefined();
    expect(hamtEntries(source, root)).toHaveLength(200);
  });

  it('reads a first-layout leaf as it is; a change writes it as a list, deletions merge leaves back', () => {
    const { emit, source } = memory();
    const l: Record<string, string> = {};
    for (const key of keys(20)) l[key] = `old ${key}`;
    const old = emit({ l } as unknown as HamtNode);
    expect(hamtGet(source, old, 'page-0007')).toBe('old page-0007');
    expect(new Map(hamtEntries(source, old))).toEqual(new Map(Object.entries(l)));
    const next = hamtApply(source, old, [makeChange('page-0007', 'new'), makeChange('page-0008', DELETE)], emit) as string;
    expect(Object.keys(source.node(next))).toEqual(['a']);
    expect(hamtGet(source, next, 'page-0007')).toBe('new');
    expect(hamtGet(source, next, 'page-0008')).toBeUndefined();
    expect(hamtGet(source, next, 'page-0009')).toBe('old page-0009');
    expect([...hamtDiff(source, old, next).keys()].sort()).toEqual(['page-0007', 'page-0008']);
    // Grown past a leaf, then shrunk back: one list leaf again.
    const big = hamtApply(source, next, keys(100).slice(20).map((key) => makeChange(key, key)), emit) as string;
    expect(isLeaf(source.node(big))).toBe(false);
    const small = hamtApply(source, big, keys(100).slice(10).map((key) => makeChange(key, DELETE)), emit) as string;
    expect(Object.keys(source.node(small))).toEqual(['a']);
    expect(hamtEntries(source, small).map(([key]) => key).sort()).toEqual(keys(10).filter((key) => key !== 'page-0008'));
  });

  it('keeps the hashes heading every value of a leaf in one string, and reads the values whole', () => {
    const { nodes, emit, source } = memory();
    const hash = (i: number) => sha256(`object ${i}`);
    const root = hamtApply(source, undefined, keys(100).map((key, i) => makeChange(key, [hash(i), `title ${i}`, '', null])), emit) as string;
    const leaves = [...nodes.values()].filter(isLeaf);
    expect(leaves.length).toBeGreaterThan(1);
    for (const leaf of leaves) {
      expect(Object.keys(leaf)).toEqual(['a', 'h']);
      const { a, h } = leaf as { a: unknown[]; h: string };
      expect(h).toHaveLength(a.length * 32);
      a.forEach((item, i) => {
        if (i % 2 === 1) expect(item).toEqual([`title ${Number((a[i - 1] as string).slice(5))}`, '', null]);
      });
      expect(nodeShapeProblem(leaf)).toBeUndefined();
    }
    keys(100).forEach((key, i) => expect(hamtGet(source, root, key)).toEqual([hash(i), `title ${i}`, '', null]));
    expect(new Map(hamtEntries(source, root))).toEqual(new Map(keys(100).map((key, i) => [key, [hash(i), `title ${i}`, '', null]])));
    // One value not headed by a hash (a bare hash, a list headed by something else): that leaf keeps whole values.
    for (const odd of [hash(1000), ['not a hash', 'x'], [hash(1000).toUpperCase()], []]) {
      const mixed = hamtApply(source, root, [makeChange('page-0003', odd)], emit) as string;
      let node = source.node(mixed);
      while (!isLeaf(node)) node = source.node(Object.values((node as { n: Record<string, string> }).n).find((child) => hamtGet(source, child, 'page-0003') !== undefined) as string);
      expect(Object.keys(node)).toEqual(['a']);
      expect(hamtGet(source, mixed, 'page-0003')).toEqual(odd);
      expect([...hamtDiff(source, root, mixed).keys()]).toEqual(['page-0003']);
      // Changed back: the leaf keeps its hashes apart again, the same node as before.
      expect(hamtApply(source, mixed, [makeChange('page-0003', [hash(3), 'title 3', '', null])], emit)).toBe(root);
    }
  });

  it('names what is wrong with a damaged leaf', () => {
    const h = 'ab'.repeat(32);
    expect(nodeShapeProblem({ a: ['k', []], h })).toBeUndefined();
    expect(nodeShapeProblem({ a: ['k', []], h: h.slice(1) })).toBe('leaf with malformed hashes');
    expect(nodeShapeProblem({ a: ['k', []], h: h.toUpperCase() })).toBe('leaf with malformed hashes');
    expect(nodeShapeProblem({ a: ['k', []], h: h + h })).toBe('leaf with malformed hashes');
    expect(nodeShapeProblem({ a: ['k', 'v'], h })).toBe('leaf with a malformed value');
    expect(nodeShapeProblem({ a: [1, []], h })).toBe('leaf with a malformed key');
    expect(nodeShapeProblem({ a: ['k', []], h, x: 1 })).toBe('not a trie node');
    expect(nodeShapeProblem({ a: ['k'] })).toBe('leaf without entries');
    expect(nodeShapeProblem({ a: 'k' })).toBe('leaf without entries');
    expect(nodeShapeProblem({ a: [1, 'v'] })).toBe('leaf with a malformed key');
    expect(nodeShapeProblem({ a: [], l: {} })).toBe('not a trie node');
    expect(nodeShapeProblem({ a: [] })).toBeUndefined();
  });
});
