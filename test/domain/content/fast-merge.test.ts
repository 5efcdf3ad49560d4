/**
 * The fast merge path must give exactly what the full tree merge gives whenever
 * it applies, and step aside (undefined) whenever the sides touch the same page,
 * parent or sibling list.
 */
import { describe, expect, it } from 'vitest';
import type { ContentPage, ContentTree } from '../../../src/content-model/model.js';
import { mergeTrees } from '../../../src/content-model/tree-merge.js';
import { applyPatch, planFastMerge } from '../../../src/domain/content/fast-merge.js';
import { loadTree, saveTree } from '../../../src/domain/content/storage.js';
import { MemoryStore } from '../../../src/store/memory-store.js';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function makeTree(random: () => number): ContentTree {
  let n = 0;
  const page = (depth: number): ContentPage => {
    const id = `p${++n}`;
    const children = depth < 2 ? Array.from({ length: Math.floor(random() * 4) }, () => page(depth + 1)) : [];
    return { id, type: 'document', title: `Page ${id}`, slug: `page-${id}`, markdown: `# ${id}\n\nline a\nline b\n`, pages: children };
  };
  return { pages: Array.from({ length: 4 }, () => page(0)), files: [] };
}

const clone = (tree: ContentTree): ContentTree => structuredClone(tree);
const all = (tree: ContentTree): ContentPage[] => {
  const out: ContentPage[] = [];
  const visit = (pages: ContentPage[]) => pages.forEach((p) => (out.push(p), visit(p.pages)));
  visit(tree.pages);
  return out;
};

/** A random edit: change a body, rename, add a child, or remove a leaf. */
function edit(tree: ContentTree, random: () => number, tag: string): void {
  const pages = all(tree);
  const target = pages[Math.floor(random() * pages.length)] as ContentPage;
  const kind = Math.floor(random() * 4);
  if (kind === 0) target.markdown = `${target.markdown}edited by ${tag}\n`;
  else if (kind === 1) target.title = `${target.title} (${tag})`;
  else if (kind === 2) target.pages.push({ id: `${tag}-${Math.floor(random() * 1e6)}`, type: 'document', title: 'New', slug: `new-${tag}`, markdown: 'new\n', pages: [] });
  else {
    const parent = pages.find((p) => p.pages.some((c) => c.pages.length === 0));
    if (parent) parent.pages.splice(parent.pages.findIndex((c) => c.pages.length === 0), 1);
  }
}

const strip = (tree: ContentTree) => JSON.parse(JSON.stringify(tree, (key, value) => (key === 'git' ? undefined : value))) as ContentTree;

describe('fast merge', () => {
  it('agrees with the full tree merge whenever it applies', async () => {
    let applied = 0;
    let declined = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const random = rng(seed);
      const store = new MemoryStore();
      const base = makeTree(random);
      const ours = clone(base);
      const theirs = clone(base);
      for (let i = 0; i < 1 + Math.floor(random() * 3); i++) edit(ours, random, 'ours');
      for (let i = 0; i < 1 + Math.floor(random() * 3); i++) edit(theirs, random, 'theirs');
      const [b, o, t] = await store.transact((tx) => [saveTree(tx, base), saveTree(tx, ours), saveTree(tx, theirs)]);
      const patch = planFastMerge(store.read(), b, o, t);
      const full = mergeTrees(base, ours, theirs);
      if (!patch) {
        declined++;
        continue;
      }
      applied++;
      expect(full.clean, `seed ${seed}: the fast path merged what the full merge finds conflicting`).toBe(true);
      const content = await store.transact((tx) => applyPatch(tx, patch));
      const merged = loadTree(store.read(), { content });
      if (full.clean) expect(strip(merged), `seed ${seed}`).toEqual(strip(full.tree));
    }
    expect(applied).toBeGreaterThan(20);
    expect(declined).toBeGreaterThan(5);
  });

  it('steps aside when both sides edit the same page', async () => {
    const store = new MemoryStore();
    const base = makeTree(rng(7));
    const ours = clone(base);
    const theirs = clone(base);
    (ours.pages[0] as ContentPage).markdown += 'ours\n';
    (theirs.pages[0] as ContentPage).markdown += 'theirs\n';
    const [b, o, t] = await store.transact((tx) => [saveTree(tx, base), saveTree(tx, ours), saveTree(tx, theirs)]);
    expect(planFastMerge(store.read(), b, o, t)).toBeUndefined();
  });

  it('steps aside when both sides add pages under the same parent', async () => {
    const store = new MemoryStore();
    const base = makeTree(rng(9));
    const ours = clone(base);
    const theirs = clone(base);
    (ours.pages[1] as ContentPage).pages.push({ id: 'o1', type: 'document', title: 'A', slug: 'a', markdown: '', pages: [] });
    (theirs.pages[1] as ContentPage).pages.push({ id: 't1', type: 'document', title: 'A', slug: 'a', markdown: '', pages: [] });
    const [b, o, t] = await store.transact((tx) => [saveTree(tx, base), saveTree(tx, ours), saveTree(tx, theirs)]);
    expect(planFastMerge(store.read(), b, o, t)).toBeUndefined();
  });
});
