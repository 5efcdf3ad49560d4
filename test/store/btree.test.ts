import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type BChange,
  type BLeaf,
  type BNode,
  NODE_MAX_BYTES,
  NODE_MIN_BYTES,
  btreeApply,
  btreeEntries,
  btreeGet,
  btreeScan,
  btreeWalk,
  bnodeShapeProblem,
  separator,
  isBLeaf,
  prefixEnd,
} from '../../src/store/btree.js';
import { scanRows } from '../../src/store/scan.js';
import type { ScanOptions } from '../../src/store/types.js';

/** Nodes in memory, counting what each apply emits and each read loads. */
class Nodes {
  readonly all = new Map<string, BNode>();
  emitted = 0;
  emittedBytes = 0;
  loads = 0;
  bnode = (hash: string): BNode => {
    this.loads += 1;
    const node = this.all.get(hash);
    if (!node) throw new Error(`missing ${hash}`);
    return node;
  };
  emit = (node: BNode): string => {
    const text = JSON.stringify(node);
    const hash = createHash('sha256').update(text).digest('hex');
    this.all.set(hash, JSON.parse(text) as BNode);
    this.emitted += 1;
    this.emittedBytes += text.length;
    return hash;
  };
}

const put = (key: string, value: unknown): BChange => ({ key, text: JSON.stringify(value) });
const del = (key: string): BChange => ({ key, text: null });
const key = (i: number) => `org/${String(i).padStart(6, '0')}`;

/** Depth of every leaf, and the byte size of every node but the root. */
function shape(nodes: Nodes, root: string) {
  const depths = new Set<number>();
  const sizes: number[] = [];
  const visit = (hash: string, depth: number) => {
    const node = nodes.all.get(hash) as BNode;
    expect(bnodeShapeProblem(node)).toBeUndefined();
    if (hash !== root) sizes.push(JSON.stringify(node).length);
    if (isBLeaf(node)) depths.add(depth);
    else for (const child of node.c) visit(child, depth + 1);
  };
  visit(root, 0);
  return { depths, sizes };
}

describe('B+tree tables', () => {
  it('keeps thousands of rows sorted, with every leaf at one depth and nodes cut by size', () => {
    const nodes = new Nodes();
    const order = Array.from({ length: 3000 }, (_, i) => i).sort(() => Math.random() - 0.5);
    let root: string | undefined;
    for (let start = 0; start < order.length; start += 100) {
      root = btreeApply(nodes, root, order.slice(start, start + 100).map((i) => put(key(i), { i, title: `Space ${i}` })), nodes.emit);
    }
    const rows = btreeEntries(nodes, root);
    expect(rows.map(([k]) => k)).toEqual(Array.from({ length: 3000 }, (_, i) => key(i)));
    expect(btreeGet(nodes, root, key(1234))).toEqual({ i: 1234, title: 'Space 1234' });
    expect(btreeGet(nodes, root, 'org/absent')).toBeUndefined();
    const { depths, sizes } = shape(nodes, root as string);
    expect(depths.size).toBe(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(NODE_MAX_BYTES + 200);
  });

  it('writes O(log n) bytes per insert: a write in a 3,000-row tree costs about what it costs in a small one', () => {
    const nodes = new Nodes();
    const value = (i: number) => ({ id: `space-${i}`, title: `A space title ${i}`, visibility: 'private', pad: 'x'.repeat(300) });
    const small = btreeApply(nodes, undefined, [put(key(1), value(1)), put(key(2), value(2))], nodes.emit);
    nodes.emittedBytes = 0;
    btreeApply(nodes, small, [put(key(3), value(3))], nodes.emit);
    const smallBytes = nodes.emittedBytes;

    let big: string | undefined;
    for (let i = 0; i < 3000; i += 1) big = btreeApply(nodes, big, [put(key(i * 2), value(i))], nodes.emit);
    nodes.emittedBytes = 0;
    nodes.emitted = 0;
    btreeApply(nodes, big, [put(key(2999), value(2999))], nodes.emit);
    expect(nodes.emitted).toBeLessThanOrEqual(4); // a leaf and the inner nodes above it
    expect(nodes.emittedBytes).toBeLessThanOrEqual(4 * NODE_MAX_BYTES);
    expect(nodes.emittedBytes).toBeGreaterThan(smallBytes / 2);
  });

  it('keeps the leaves of a time-ordered table full: appends start new leaves at the right edge instead of halving the last', () => {
    const nodes = new Nodes();
    const row = (i: number) => ({ id: `space-${i}`, title: `A space title ${i}`, pad: 'x'.repeat(150) });
    let root: string | undefined;
    // Three creates per commit, keys only growing (ids that sort by creation time).
    for (let i = 0; i < 3000; i += 3) root = btreeApply(nodes, root, [put(key(i), row(i)), put(key(i + 1), row(i + 1)), put(key(i + 2), row(i + 2))], nodes.emit);
    const leaves: number[] = [];
    btreeWalk(nodes, root as string, (_hash, node) => {
      if (isBLeaf(node)) leaves.push(JSON.stringify(node).length);
    });
    // Every leaf but the newest stays as full as the append left it (an even cut leaves ~2 KB halves).
    for (const size of leaves.slice(0, -1)) expect(size).toBeGreaterThan(NODE_MAX_BYTES * 0.75);
    expect(btreeEntries(nodes, root)).toHaveLength(3000);
    // The next commit of three writes a small leaf and the inner nodes above it, not a whole leaf.
    nodes.emittedBytes = 0;
    btreeApply(nodes, root, [put(key(3000), row(3000)), put(key(3001), row(3001)), put(key(3002), row(3002))], nodes.emit);
    expect(nodes.emittedBytes).toBeLessThan(NODE_MAX_BYTES + NODE_MAX_BYTES);
    // A row inserted among them later cuts its leaf (up to three pieces) and rewrites the two
    // inner nodes above: packed inner nodes keep room for a child, so the cut does not climb.
    nodes.emitted = 0;
    root = btreeApply(nodes, root, [put(key(1500) + 'x', row(1))], nodes.emit);
    expect(nodes.emitted).toBeLessThanOrEqual(5);
    expect(btreeEntries(nodes, root)).toHaveLength(3001);
  });

  it('scans a range reading O(log n + k) nodes, in both directions, with cursors', () => {
    const nodes = new Nodes();
    const changes: BChange[] = [];
    for (let org = 0; org < 30; org += 1) for (let i = 0; i < 100; i += 1) changes.push(put(`o${String(org).padStart(2, '0')}/${String(i).padStart(3, '0')}`, { org, i }));
    const root = btreeApply(nodes, undefined, changes, nodes.emit);
    nodes.loads = 0;
    const page = btreeScan(nodes, root, { prefix: 'o17/', limit: 5 });
    expect(page.map(([k]) => k)).toEqual(['o17/000', 'o17/001', 'o17/002', 'o17/003', 'o17/004']);
    expect(nodes.loads).toBeLessThanOrEqual(6);
    const next = btreeScan(nodes, root, { prefix: 'o17/', after: 'o17/004', limit: 2 });
    expect(next.map(([k]) => k)).toEqual(['o17/005', 'o17/006']);
    const last = btreeScan(nodes, root, { prefix: 'o17/', reverse: true, limit: 2 });
    expect(last.map(([k]) => k)).toEqual(['o17/099', 'o17/098']);
    const before = btreeScan(nodes, root, { prefix: 'o17/', reverse: true, after: 'o17/001' });
    expect(before.map(([k]) => k)).toEqual(['o17/000']);
    expect(btreeScan(nodes, root, { prefix: 'o17/' })).toHaveLength(100);
    expect(btreeScan(nodes, root, { prefix: 'o99/' })).toEqual([]);
    expect(btreeScan(nodes, root, { limit: 0 })).toEqual([]);
  });

  it('agrees with the reference scan on random ranges', () => {
    const nodes = new Nodes();
    const alphabet = ['a', 'b', 'ab', 'b/', 'a/x', '\uffff', 'a\uffff', ''];
    const keys = new Set<string>();
    for (let i = 0; i < 600; i += 1) keys.add(`${alphabet[i % alphabet.length]}${(i * 7919) % 1000}`);
    const root = btreeApply(nodes, undefined, [...keys].map((k) => put(k, k.length)), nodes.emit);
    const reference = [...keys].map((k) => [k, k.length] as [string, number]);
    const probes = ['', 'a', 'ab', 'b', 'a\uffff', '\uffff', 'zz', '1', 'a1'];
    for (const prefix of [undefined, ...probes]) {
      for (const after of [undefined, ...probes]) {
        for (const reverse of [false, true]) {
          for (const limit of [undefined, 1, 7]) {
            const options: ScanOptions = { reverse, ...(prefix !== undefined ? { prefix } : {}), ...(after !== undefined ? { after } : {}), ...(limit !== undefined ? { limit } : {}) };
            expect(btreeScan(nodes, root, options), JSON.stringify(options)).toEqual(scanRows(reference, options));
          }
        }
      }
    }
  });

  it('shrinks back as rows are deleted, merging small nodes, and empties to no tree', () => {
    const nodes = new Nodes();
    let root = btreeApply(nodes, undefined, Array.from({ length: 2000 }, (_, i) => put(key(i), { i, pad: 'y'.repeat(50) })), nodes.emit);
    for (let i = 0; i < 2000; i += 1) if (i % 50 !== 0) root = btreeApply(nodes, root, [del(key(i))], nodes.emit);
    expect(btreeEntries(nodes, root).map(([k]) => k)).toEqual(Array.from({ length: 40 }, (_, i) => key(i * 50)));
    const { depths, sizes } = shape(nodes, root as string);
    expect(depths.size).toBe(1);
    // 40 small rows fit in one or two nodes once merged
    expect(sizes.length).toBeLessThanOrEqual(3);
    for (const size of sizes) expect(size).toBeGreaterThanOrEqual(NODE_MIN_BYTES / 2);
    root = btreeApply(nodes, root, Array.from({ length: 40 }, (_, i) => del(key(i * 50))), nodes.emit);
    expect(root).toBeUndefined();
  });

  it('builds the same nodes when it reuses the nodes it built (their sizes known) as when it reads copies', () => {
    // The store hands a commit's own leaves back to the next commit (a small commit keeps
    // them parsed): btree.ts then measures only the rows a change replaces. Same tree, byte for byte.
    class Shared extends Nodes {
      override emit = (node: BNode): string => {
        const text = JSON.stringify(node);
        const hash = createHash('sha256').update(text).digest('hex');
        this.all.set(hash, node);
        return hash;
      };
    }
    const copies = new Nodes();
    const shared = new Shared();
    let random = 7;
    const next = (n: number) => {
      random = (random * 1103515245 + 12345) % 2147483648;
      return random % n;
    };
    let a: string | undefined;
    let b: string | undefined;
    for (let round = 0; round < 400; round += 1) {
      const changes: BChange[] = [];
      for (let j = 1 + next(6); j > 0; j -= 1) {
        const k = key(next(round < 200 ? 300 : 60) * 7);
        changes.push(next(5) === 0 ? del(k) : put(k, { round, pad: 'p'.repeat(next(120)), é: '✓'.repeat(next(3)) }));
      }
      a = btreeApply(copies, a, changes, copies.emit);
      b = btreeApply(shared, b, changes, shared.emit);
      expect(b).toBe(a);
    }
    expect(btreeEntries(shared, b)).toEqual(btreeEntries(copies, a));
  });

  it('applies a batch where the last change to a key wins', () => {
    const nodes = new Nodes();
    const root = btreeApply(nodes, undefined, [put('a', 1), put('b', 2), del('a'), put('b', 3)], nodes.emit);
    expect(btreeEntries(nodes, root)).toEqual([['b', 3]]);
  });

  it('walks every node once, parents first', () => {
    const nodes = new Nodes();
    const root = btreeApply(nodes, undefined, Array.from({ length: 500 }, (_, i) => put(key(i), 'z'.repeat(100))), nodes.emit) as string;
    const seen: string[] = [];
    btreeWalk(nodes, root, (hash) => void seen.push(hash));
    expect(seen[0]).toBe(root);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThan(10);
  });

  it('refuses malformed nodes with a reason', () => {
    expect(bnodeShapeProblem({ k: ['b', 'a'], v: [1, 2] })).toBe('keys out of order');
    expect(bnodeShapeProblem({ k: ['a'], v: [] })).toMatch(/different lengths/);
    expect(bnodeShapeProblem({ k: ['a'], c: ['nothex'] })).toMatch(/malformed child/);
    expect(bnodeShapeProblem({ k: [], c: [] })).toMatch(/without children/);
    expect(bnodeShapeProblem({ l: {} })).toBe('not a table node');
  });

  it('computes the end of a prefix range', () => {
    expect(prefixEnd('ab')).toBe('ac');
    expect(prefixEnd('a\uffff')).toBe('b');
    expect(prefixEnd('\uffff')).toBeUndefined();
  });
});

describe('short separators between leaves', () => {
  it('takes the shortest prefix of the right key above the left key', () => {
    expect(separator('org:o1/space:abc', 'org:o1/space:abd9')).toBe('org:o1/space:abd');
    expect(separator('org:o1/space:ab', 'org:o1/space:abc')).toBe('org:o1/space:abc');
    expect(separator('a', 'b')).toBe('b');
    expect(separator('', 'b7')).toBe('b');
  });

  it('routes by separators shorter than the keys, through random inserts, updates and deletions (ids under a shared prefix)', () => {
    const nodes = new Nodes();
    let seed = 11;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const id = () => Array.from({ length: 20 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[rand(36)]).join('');
    const model = new Map<string, unknown>();
    let root: string | undefined;
    for (let round = 0; round < 60; round += 1) {
      const changes: BChange[] = [];
      for (let i = 0; i < 60; i += 1) {
        const keys = [...model.keys()];
        const pick = rand(10);
        if (pick < 6 || keys.length === 0) {
          const key = `org:o1/space:${id()}`;
          const value = { id: key, title: `Space ${round}.${i}`, pad: 'x'.repeat(rand(200)) };
          model.set(key, value);
          changes.push(put(key, value));
        } else if (pick < 8) {
          const key = keys[rand(keys.length)] as string;
          model.set(key, { updated: round });
          changes.push(put(key, { updated: round }));
        } else {
          const key = keys[rand(keys.length)] as string;
          model.delete(key);
          changes.push(del(key));
        }
      }
      // The last change to a key wins in both.
      root = btreeApply(nodes, root, changes, nodes.emit);
    }
    const sorted = [...model.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    expect(btreeEntries(nodes, root)).toEqual(sorted);
    for (const [key, value] of sorted.slice(0, 300)) expect(btreeGet(nodes, root, key)).toEqual(value);
    expect(btreeGet(nodes, root, 'org:o1/space:')).toBeUndefined();
    for (let i = 0; i < 40; i += 1) {
      const after = sorted[rand(sorted.length)]?.[0] as string;
      const options: ScanOptions = { prefix: 'org:o1/', after, limit: 25, ...(i % 2 === 1 ? { reverse: true } : {}) };
      expect(btreeScan(nodes, root, options)).toEqual(scanRows(sorted as Array<[string, never]>, options));
      // A cursor that is not a key (between rows): the same as the reference.
      const between = { ...options, after: `${after}0` };
      expect(btreeScan(nodes, root, between)).toEqual(scanRows(sorted as Array<[string, never]>, between));
    }
    const { depths } = shape(nodes, root as string);
    expect(depths.size).toBe(1);
    // Inner nodes route by a few characters of the id, not the whole key (34 characters).
    const separators: string[] = [];
    btreeWalk(nodes, root as string, (_hash, node) => {
      if (!isBLeaf(node)) separators.push(...node.k.slice(1));
    });
    expect(separators.length).toBeGreaterThan(20);
    const mean = separators.reduce((sum, sep) => sum + sep.length, 0) / separators.length;
    expect(mean).toBeLessThan(20);
  });
});

describe('inner node bytes a write rewrites', () => {
  // Every write rewrites the inner nodes on its leaf's path whole: their size is what a commit
  // pays per level. Short separators and inner nodes cut at half a leaf's size: 9201dd7 rewrote
  // 5.2 KB (ids in random order) and 5.7 KB (ids that grow) of inner nodes per write here.
  for (const [label, keyOf] of [
    ['ids in random order', (i: number) => `org:0VcM0xp2NrGJy2AlhmoK/space:${createHash('md5').update(String(i)).digest('base64').slice(0, 20)}`],
    ['ids that grow', (i: number) => `org:0VcM0xp2NrGJy2AlhmoK/space:0VcM${(100000 + i * 7).toString(36)}${'x'.repeat(12)}`],
  ] as const) {
    it(`a one-row write into a 3,000-row table (${label}) rewrites under 4 KB of inner nodes, on average`, () => {
      const nodes = new Nodes();
      const row = (i: number) => put(keyOf(i), { i, title: `Space ${i}`, pad: 'x'.repeat(700) });
      let root: string | undefined;
      for (let i = 0; i < 3000; i += 100) root = btreeApply(nodes, root, Array.from({ length: 100 }, (_, j) => row(i + j)), nodes.emit);
      let inner = 0;
      const before = nodes.all.size;
      const counting = (node: BNode) => {
        const hash = nodes.emit(node);
        if (!isBLeaf(node)) inner += JSON.stringify(node).length;
        return hash;
      };
      for (let i = 3000; i < 3300; i += 1) root = btreeApply(nodes, root, [row(i)], counting);
      expect(nodes.all.size).toBeGreaterThan(before);
      expect(inner / 300).toBeLessThan(4000);
      expect(btreeGet(nodes, root, keyOf(3299))).toMatchObject({ i: 3299 });
      const { depths, sizes } = shape(nodes, root as string);
      expect(depths.size).toBe(1);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(NODE_MAX_BYTES + 200);
    });
  }
});

describe('btree leaves written from the rows’ text (BEmit.leafText)', () => {
  /** `Nodes` whose emit also takes a leaf as text, as a commit's does. */
  class TextNodes extends Nodes {
    fromText = 0;
    override emit = Object.assign((node: BNode): string => this.store(JSON.stringify(node)), {
      leafText: (text: string, values: string): string => {
        this.fromText += 1;
        expect(text.endsWith(`"v":[${values}]}`)).toBe(true);
        return this.store(text);
      },
    });
    private store(text: string): string {
      const hash = createHash('sha256').update(text).digest('hex');
      this.all.set(hash, JSON.parse(text) as BNode);
      this.emitted += 1;
      return hash;
    }
  }

  it('builds the very tree the parsed rows build (same root hash), through inserts, updates and deletions', () => {
    const parsed = new Nodes();
    const text = new TextNodes();
    const value = (i: number, round: number) => ['page' + i, i * round, round, 'x'.repeat(i % 200), { n: i }];
    let a: string | undefined;
    let b: string | undefined;
    for (let round = 1; round <= 4; round += 1) {
      const changes: BChange[] = [];
      for (let i = 0; i < 3000; i += round) changes.push(round === 3 && i % 2 === 0 ? del(key(i)) : put(key(i), value(i, round)));
      a = btreeApply(parsed, a, changes, parsed.emit);
      b = btreeApply(text, b, changes, text.emit);
      expect(b).toBe(a);
    }
    expect(text.fromText).toBeGreaterThan(100);
    expect(btreeGet(text, b, key(2999))).toEqual(value(2999, 1));
    expect(btreeEntries(text, b)).toEqual(btreeEntries(parsed, a));
  });

  /** A sink that keeps the leaf `leafText` hands it (as a small commit's does), checking it against the text. */
  class KeptLeafNodes extends Nodes {
    fromText = 0;
    shared = 0;
    override emit = Object.assign((node: BNode): string => this.store(JSON.stringify(node), JSON.parse(JSON.stringify(node)) as BNode), {
      leafText: (text: string, _values: string, leaf: () => BLeaf): string => {
        this.fromText += 1;
        const kept = leaf();
        expect(kept).toEqual(JSON.parse(text));
        expect(JSON.stringify(kept)).toBe(text);
        return this.store(text, kept);
      },
    });
    private store(text: string, node: BNode): string {
      const hash = createHash('sha256').update(text).digest('hex');
      if (isBLeaf(node)) {
        const rows = new Set(node.v);
        for (const old of this.all.values()) if (isBLeaf(old)) for (const row of old.v) if (typeof row === 'object' && row !== null && rows.has(row)) this.shared += 1;
      }
      this.all.set(hash, node);
      this.emitted += 1;
      return hash;
    }
  }

  it('hands a sink that keeps leaves the leaf of its text, sharing the rows it kept, commit after small commit', () => {
    const parsed = new Nodes();
    const kept = new KeptLeafNodes();
    const value = (i: number, round: number) => ({ id: key(i), round, pad: 'y'.repeat(i % 90), list: [i, round] });
    let a: string | undefined;
    let b: string | undefined;
    // Small commits as `serve`'s creates make them: a few appends at the right edge, an update
    // and a deletion among earlier rows, a row whose value is null.
    for (let round = 1; round <= 120; round += 1) {
      const changes: BChange[] = [];
      for (let j = 0; j < 3; j += 1) changes.push(put(key(round * 3 + j), value(round * 3 + j, round)));
      if (round > 10) changes.push(put(key(round), value(round, round)));
      if (round % 7 === 0) changes.push(del(key(round - 5)));
      if (round % 11 === 0) changes.push({ key: key(round * 3 + 1), text: 'null' });
      a = btreeApply(parsed, a, changes, parsed.emit);
      b = btreeApply(kept, b, changes, kept.emit);
      expect(b).toBe(a);
    }
    expect(kept.fromText).toBeGreaterThan(120);
    expect(kept.shared).toBeGreaterThan(0);
    expect(btreeEntries(kept, b)).toEqual(btreeEntries(parsed, a));
  });
});
