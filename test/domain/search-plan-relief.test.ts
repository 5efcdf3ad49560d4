// A Git import's index plan of many pages (planIndex with `consume`) asks for a full collection once
// every page's text is let go and before it builds the rows (issue 21: import peak memory). Without
// it V8 kept the ~23 MB of a 4,376-page import's text, as garbage, beside the rows it planned: the
// server shape's peak (bench/git-real.mjs) was there. Checked without timing: what the tree holds
// when the collection is asked, and that a plan of few pages asks for none.
import { describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { ContentPage, ContentTree } from '../../src/content-model/model.js';
import { walkPages } from '../../src/content-model/model.js';
import { saveTree } from '../../src/domain/content/storage.js';
import { planIndex } from '../../src/domain/search/index.js';
import { BULK_ITEMS } from '../../src/util/slices.js';

const relief = vi.hoisted(() => ({ forced: [] as Array<Array<string | undefined>>, tree: undefined as ContentTree | undefined }));

vi.mock('../../src/util/heap-relief.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/util/heap-relief.js')>();
  return {
    ...actual,
    relieveHeap: (force = false) => {
      // What each forced collection finds of the planned tree's text.
      if (force && relief.tree !== undefined) relief.forced.push([...walkPages(relief.tree.pages)].map(({ page }) => page.markdown));
      return false;
    },
  };
});

function manual(pages: number): ContentTree {
  return {
    pages: Array.from({ length: pages }, (_, i): ContentPage => ({ id: `p${i}`, type: 'document', title: `Page ${i}`, slug: `p${i}`, markdown: `Replication of node ${i}.`, pages: [] })),
    files: [],
  };
}

/** The words the plan writes rows of. */
async function plan(pages: number): Promise<Set<string>> {
  const store = new MemoryStore();
  const empty: ContentTree = { pages: [], files: [] };
  const tree = manual(pages);
  const content = await store.transact((tx) => {
    saveTree(tx, empty);
    return saveTree(tx, tree);
  });
  relief.tree = tree;
  relief.forced = [];
  const planned = await planIndex(store.read(), 'sp1', { revision: 'r0', tree: empty }, tree, content, { consume: true });
  relief.tree = undefined;
  return new Set(planned?.writes.map(([key]) => key.split('/')[1] as string));
}

describe('planIndex of a Git import of many pages', () => {
  it('asks for one full collection, once no page holds its text', async () => {
    const pages = BULK_ITEMS + 88;
    // "replication", "node", "page" (title), and each page's number of two digits or more.
    expect((await plan(pages)).size).toBe(3 + pages - 10);
    expect(relief.forced).toHaveLength(1);
    expect(relief.forced[0]).toHaveLength(pages);
    expect(relief.forced[0]?.every((markdown) => markdown === undefined)).toBe(true);
  });

  it('asks for none for a few pages (a collection costs more than it frees there)', async () => {
    expect(await plan(20)).toEqual(new Set(['replication', 'node', 'page', ...Array.from({ length: 10 }, (_, i) => String(10 + i))]));
    expect(relief.forced).toEqual([]);
  });
});
