// planIndex with `consume` (what a Git import asks): the plan is the one without it, and the
// tree's page bodies are let go as they are indexed, so an import does not hold its pages'
// text beside the rows it plans (issue 21: import peak memory).
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { ContentPage, ContentTree } from '../../src/content-model/model.js';
import { walkPages } from '../../src/content-model/model.js';
import { saveTree, savedPages } from '../../src/domain/content/storage.js';
import { planIndex } from '../../src/domain/search/index.js';

function page(id: string, title: string, markdown: string, pages: ContentPage[] = []): ContentPage {
  return { id, type: 'document', title, slug: id, markdown, pages };
}

function manual(): ContentTree {
  return {
    pages: [
      page('p1', 'Installing the server', 'Download the package and run the installer.\n\nThe installer asks for a data directory.', [
        page('p2', 'Replication', 'A replica follows the primary server; replication lag is reported by the monitor.'),
      ]),
      page('p3', 'Backups', 'Backups copy the data directory while the server runs.'),
    ],
    files: [],
  };
}

describe('planIndex with consume', () => {
  it('plans the same rows and lets each page body go once it is indexed', async () => {
    const store = new MemoryStore();
    const empty: ContentTree = { pages: [], files: [] };
    const [kept, consumed] = [manual(), manual()];
    const content = await store.transact((tx) => {
      saveTree(tx, empty);
      saveTree(tx, kept);
      return saveTree(tx, consumed);
    });
    const reader = store.read();
    const previous = { revision: 'r0', tree: empty };
    const plain = await planIndex(reader, 'sp1', previous, kept, content);
    const released = await planIndex(reader, 'sp1', previous, consumed, content, { consume: true });

    expect(plain?.pages).toBe(3);
    expect(released).toEqual(plain);
    expect(plain?.writes.map(([key]) => key)).toContain('sp1/replication/00000000');
    // The consumed tree keeps its pages, not their text; the other one is untouched.
    expect([...walkPages(consumed.pages)].map(({ page: p }) => [p.id, p.markdown])).toEqual([
      ['p1', undefined],
      ['p2', undefined],
      ['p3', undefined],
    ]);
    expect([...(savedPages(consumed)?.values() ?? [])].map((p) => p.markdown)).toEqual([undefined, undefined, undefined]);
    expect([...walkPages(kept.pages)].every(({ page: p }) => typeof p.markdown === 'string')).toBe(true);
  });
});

describe('planIndex of many postings', () => {
  it('plans every posting of a space whose changes fill more than one chunk (16,384 changes each)', async () => {
    const store = new MemoryStore();
    const empty: ContentTree = { pages: [], files: [] };
    const words = Array.from({ length: 60 }, (_, w) => `w${w}`).join(' ');
    // 300 pages × 62 words (60 once, "shared" 1–7 times, "page" in the title): 18,600 changes.
    const tree: ContentTree = {
      pages: Array.from({ length: 300 }, (_, i) => page(`p${i}`, 'Page', `${words}\n\n${'shared '.repeat((i % 7) + 1)}`)),
      files: [],
    };
    const content = await store.transact((tx) => {
      saveTree(tx, empty);
      return saveTree(tx, tree);
    });
    const plan = await planIndex(store.read(), 'sp1', { revision: 'r0', tree: empty }, tree, content, { consume: true });
    expect(plan?.pages).toBe(300);
    const postings = (word: string): Map<string, [number, number]> => {
      const found = new Map<string, [number, number]>();
      for (const [key, json] of plan?.writes ?? []) {
        if (!key.startsWith(`sp1/${word}/`) || json === null) continue;
        const row = JSON.parse(json) as Array<string | number>;
        for (let i = 0; i < row.length; i += 3) found.set(row[i] as string, [row[i + 1] as number, row[i + 2] as number]);
      }
      return found;
    };
    const expected = (count: (i: number) => [number, number]) => new Map(Array.from({ length: 300 }, (_, i) => [`p${i}`, count(i)] as const));
    expect(postings('w59')).toEqual(expected(() => [1, 0]));
    expect(postings('shared')).toEqual(expected((i) => [(i % 7) + 1, 0]));
    expect(postings('page')).toEqual(expected(() => [0, 1]));
    // Keys are whole strings as the store keeps them.
    expect(plan?.writes.every(([key]) => /^sp1\/\w+\/[0-9a-f]{8}$/.test(key))).toBe(true);
  });
});
