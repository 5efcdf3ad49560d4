/**
 * The order a checkpoint writes its pack in (reachable.ts `walk`): objects that name
 * objects naming others first (table nodes, content roots, trie nodes), then those naming
 * only data (pages), then data (bodies), each group depth-first from the roots in the
 * order the objects are named. So a space's pages-trie nodes sit together, in the order
 * a walk of the trie reads them, and a whole-site read (`site tree`) reads them forward
 * instead of through every page and body beside them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ContentPage, ContentTree } from '../../src/content-model/model.js';
import { RevisionContent, saveTree } from '../../src/domain/content/storage.js';
import { createStore, fsck, openStore } from '../../src/store/index.js';
import { collectHashes } from '../../src/store/objects.js';
import { PackFile, listPacks } from '../../src/store/pack-file.js';
import { readCheckpointState } from '../../src/store/pack-set.js';
import { type Step, walk } from '../../src/store/reachable.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

const h = (n: number) => n.toString(16).padStart(64, '0');

describe('walk order', () => {
  it('lists objects naming namers, then objects naming only data, then data; each depth-first in the order named', async () => {
    // root → trie inner (t1) → leaves (l1, l2) → pages (p1..p3) → bodies (b1..b3); root also names a body-less table leaf (x).
    const [root, t1, l1, l2, p1, p2, p3, b1, b2, b3, x] = Array.from({ length: 11 }, (_, i) => h(i + 1)) as string[];
    const objects = new Map<string, unknown>([
      [root as string, { tables: [t1, x] }],
      [t1 as string, { n: { '0': l1, '1': l2 } }],
      [l1 as string, { a: ['k1', ['one'], 'k2', ['two']], h: `${p1}${p2}` }],
      [l2 as string, { a: ['k3', ['three']], h: p3 }],
      [p1 as string, { id: 'k1', body: b1 }],
      [p2 as string, { id: 'k2', body: b2 }],
      [p3 as string, { id: 'k3', body: b3 }],
    ]);
    const data = new Set([b1, b2, b3, x]);
    const read: string[] = [];
    const source = {
      object: (hash: string) => {
        read.push(hash);
        return objects.get(hash);
      },
    };
    const classify = (hash: string): Step => (data.has(hash) ? 'leaf' : objects.has(hash) ? 'enter' : 'stop');
    const order = await walk(source, [root as string], classify);
    expect([...(order as Set<string>)]).toEqual([root, t1, l1, l2, p1, p2, p3, x, b1, b2, b3]);
    expect(read).toEqual([root, t1, l1, p1, p2, l2, p3]); // data is never read
  });

  it('still gives up on an unreadable object, and skips it when asked', async () => {
    const [root, gone, leaf] = [h(1), h(2), h(3)];
    const source = {
      object: (hash: string) => {
        if (hash === gone) throw new Error('damaged');
        return { names: [gone, leaf] };
      },
    };
    const classify = (hash: string): Step => (hash === leaf ? 'leaf' : 'enter');
    expect(await walk(source, [root], classify)).toBeUndefined();
    expect([...((await walk(source, [root], classify, () => 'skip')) as Set<string>)]).toEqual([root, leaf]);
  });

  it('collects the hashes of a value in the order its text has them', () => {
    const out: string[] = [];
    collectHashes({ a: h(1), b: [h(2), { c: h(3), d: [h(4), h(5)] }], e: { a: ['x', ['y']], h: `${h(6)}${h(7)}` } }, out);
    expect(out).toEqual([h(1), h(2), h(3), h(4), h(5), h(6), h(7)]);
  });
});

let n = 0;
const page = (title: string, children: ContentPage[] = []): ContentPage => ({
  id: `p${String(++n).padStart(5, '0')}`,
  type: 'document',
  title,
  slug: title.toLowerCase().replace(/\W+/g, '-'),
  markdown: `# ${title}\n\nSome text about ${title}.\n`,
  pages: children,
});
/** 4 parts of 15 pages: 64 pages, more than a trie leaf holds (the trie has inner nodes). */
const treeOf = (space: number): ContentTree => ({
  pages: Array.from({ length: 4 }, (_, a) => page(`Space ${space} part ${a}`, Array.from({ length: 15 }, (_, b) => page(`Space ${space} page ${a}.${b}`)))),
  files: [],
});

type Kind = 'trie' | 'root' | 'page' | 'body' | 'table';
function kindOf(value: Record<string, unknown>): Kind {
  if ('n' in value || ('a' in value && 'h' in value)) return 'trie';
  if ('rootPages' in value) return 'root';
  if ('markdown' in value && !('id' in value)) return 'body';
  if ('id' in value && 'title' in value) return 'page';
  return 'table';
}

/** A pages trie's nodes in the order a walk of it reads them (storage.ts walkPages: depth-first, digits in order). */
function trieOrder(read: (hash: string) => Record<string, unknown>, hash: string, out: string[] = []): string[] {
  out.push(hash);
  const node = read(hash);
  if ('n' in node) for (const child of Object.values(node.n as Record<string, string>)) trieOrder(read, child, out);
  return out;
}

describe('a checkpoint lays out each space’s trie together', () => {
  it('writes the trie nodes before pages and bodies, each trie forward in the order a walk reads it', async () => {
    const dir = storePath('pack-order');
    const spaces = 6;
    const store = createStore(dir, { durable: false, checkpointEvery: spaces });
    const roots: string[] = [];
    for (let s = 0; s < spaces; s += 1) {
      await store.transact((tx) => {
        const content = saveTree(tx, treeOf(s)) as string;
        roots.push(content);
        tx.put('revisions', `r${s}`, { content });
      });
    }
    await store.close();
    const { packs } = readCheckpointState(dir);
    expect(packs).toHaveLength(1);
    expect(listPacks(dir)).toEqual(packs);
    const pack = PackFile.open(dir, packs[0] as string) as PackFile;
    const entries = pack.allEntries().sort((a, b) => a.offset - b.offset);
    const at = new Map(entries.map((entry, i) => [entry.hash, i]));
    const values = new Map(entries.map((entry) => [entry.hash, JSON.parse(pack.readRaw(entry).toString('utf8')) as Record<string, unknown>]));
    pack.close();
    const kinds = entries.map((entry) => kindOf(values.get(entry.hash) as Record<string, unknown>));
    // Trie nodes and content roots (with the table nodes naming them) first, then every page, then every body.
    const lastUpper = Math.max(kinds.lastIndexOf('trie'), kinds.lastIndexOf('root'));
    expect(lastUpper).toBeLessThan(kinds.indexOf('page'));
    expect(kinds.lastIndexOf('page')).toBeLessThan(kinds.indexOf('body'));
    expect(kinds.filter((kind) => kind === 'page')).toHaveLength(spaces * 64);
    // Each space: its content root, then its trie nodes one after the other in the order a walk reads them.
    const read = (hash: string) => values.get(hash) as Record<string, unknown>;
    for (const root of roots) {
      const trie = trieOrder(read, read(root).pages as string);
      expect(trie.length).toBeGreaterThan(2);
      const positions = [root, ...trie].map((hash) => at.get(hash) as number);
      expect(positions).toEqual(positions.map((_, i) => (positions[0] as number) + i));
    }
    const report = await fsck(dir);
    expect(report.problems).toEqual([]);
    // Every revision's pages read back from the new layout.
    const reader = openStore(dir).read();
    for (const [, row] of reader.entries<{ content: string }>('revisions')) expect(reader.getObject<{ rootPages: string[] }>(row.content).rootPages).toHaveLength(4);
    expect(fs.existsSync(path.join(dir, 'packs'))).toBe(true);
  });
});

describe('a walk in pack order', () => {
  it('reads each space after the first of its objects without the index, and reads every page as written', async () => {
    const dir = storePath('pack-walk');
    const spaces = 6;
    const store = createStore(dir, { durable: false, checkpointEvery: spaces });
    for (let s = 0; s < spaces; s += 1) {
      await store.transact((tx) => {
        tx.put('revisions', `r${s}`, { content: saveTree(tx, treeOf(s)) as string });
      });
    }
    await store.close();
    const reader = openStore(dir).read();
    const revisions = reader.entries<{ content: string }>('revisions');
    const find = vi.spyOn(PackFile.prototype, 'find');
    try {
      for (const [key, row] of revisions) {
        const content = new RevisionContent(reader, row.content);
        const titles = [...content.root.rootPages].map((id) => content.outline(id)?.t);
        expect(titles).toEqual([0, 1, 2, 3].map((a) => `Space ${key.slice(1)} part ${a}`));
        for (const id of content.outline(content.root.rootPages[0] as string)?.c ?? []) expect(content.outline(id)?.t).toMatch(/^Space \d page 0\.\d+$/);
      }
      // Each space's root and trie (5+ objects) cost about one lookup: the rest follow in the pack.
      expect(find.mock.calls.length).toBeLessThanOrEqual(spaces * 2);
    } finally {
      find.mockRestore();
    }
  });
});
