import { describe, expect, it } from 'vitest';
import type { ContentPage, ContentTree } from '../../../src/content-model/model.js';
import { loadTree, openContent, saveTree, storeFileData, type SaveStats } from '../../../src/domain/content/storage.js';
import { encodeJson, sha256 } from '../../../src/store/objects.js';
import { MemoryStore } from '../../../src/store/memory-store.js';
import type { Store, StoreReader, StoreWriter } from '../../../src/store/types.js';
import { contentSetup, doc, findPage } from './helpers.js';

/** Counts the objects a store's transactions write (calls, and hashes that did not exist before). */
function countObjects(store: Store) {
  const counts = { calls: 0, fresh: 0 };
  const transact = store.transact.bind(store);
  store.transact = <T>(fn: (tx: StoreWriter) => T | Promise<T>, options?: Parameters<Store['transact']>[1]) =>
    transact((tx) => {
      const before = store.read();
      const put = tx.putObject.bind(tx);
      tx.putObject = (value: unknown) => {
        counts.calls += 1;
        const hash = put(value);
        if (!exists(before, hash)) counts.fresh += 1;
        return hash;
      };
      return fn(tx);
    }, options);
  return counts;
}

function exists(reader: StoreReader, hash: string): boolean {
  try {
    reader.getObject(hash);
    return true;
  } catch {
    return false;
  }
}

/** 50 sections × 99 pages + 50 section pages = 5,000 pages; plus 20 files. */
function bigTree(): ContentTree {
  const pages: ContentPage[] = [];
  for (let s = 0; s < 50; s++) {
    const children: ContentPage[] = [];
    for (let p = 0; p < 99; p++) children.push(doc(`p${s}-${p}`, `Page ${s} ${p}`, `# Page ${s}.${p}\n\nbody ${s} ${p}\nsecond line\n`));
    pages.push(doc(`s${s}`, `Section ${s}`, `# Section ${s}\n`, children));
  }
  const files = Array.from({ length: 20 }, (_, i) => ({
    id: `f${i}`,
    name: `image-${i}.png`,
    contentType: 'image/png',
    size: 3,
    data: new Uint8Array([i, i + 1, i + 2]),
  }));
  return { pages, files };
}

describe('storage', () => {
  it('storeFileData puts, as bytes built once, exactly the data object putObject would', () => {
    for (const data of [new Uint8Array(), new Uint8Array([0, 255, 10, 34, 92]), new Uint8Array(100_000).map((_, i) => (i * 13) % 256)]) {
      const expected = Buffer.from(encodeJson({ base64: Buffer.from(data).toString('base64') }));
      const put: Array<[Buffer, boolean]> = [];
      const sink = {
        putObject: () => expect.unreachable('putEncoded is used where the sink has it'),
        getObject: () => undefined as never,
        putEncoded: (bytes: Buffer, names: boolean) => (put.push([bytes, names]), sha256(bytes)),
      };
      expect(storeFileData(sink, data)).toBe(sha256(expected));
      expect(put).toEqual([[expected, false]]);
      // A sink without putEncoded (a transaction) gets the object.
      expect(storeFileData({ putObject: (value) => sha256(encodeJson(value)), getObject: () => undefined as never }, data)).toBe(sha256(expected));
    }
  });

  it('round-trips a tree: pages (order, nesting, metadata, bodies), files (bytes); equal trees give the same hash', async () => {
    const store = new MemoryStore();
    const tree: ContentTree = {
      pages: [
        doc('a', 'A', '# A\n', [doc('a1', 'A one', 'x'), { id: 'l', type: 'link', title: 'Link', target: { kind: 'url', url: 'https://e.x' }, pages: [] }], {
          description: 'desc',
          layout: { width: 'wide' },
          git: { oid: 'abc', path: 'a/README.md' },
        }),
        { id: 'g', type: 'group', title: 'Group', slug: 'group', pages: [doc('g1', 'G one', '')] },
      ],
      files: [{ id: 'f', name: 'f.bin', contentType: 'application/octet-stream', size: 2, data: new Uint8Array([0, 255]) }],
    };
    const hash = await store.transact((tx) => saveTree(tx, tree));
    expect(typeof hash).toBe('string');
    const loaded = loadTree(store.read(), { content: hash });
    expect(loaded).toEqual(tree);
    const again = await store.transact((tx) => saveTree(tx, structuredClone(tree)));
    expect(again).toBe(hash);
    expect(await store.transact((tx) => saveTree(tx, { pages: [], files: [] }))).toBeUndefined();
    expect(loadTree(store.read(), {})).toEqual({ pages: [], files: [] });
  });

  it('reads one page, a path or a file without loading the whole tree', async () => {
    const store = new MemoryStore();
    const hash = await store.transact((tx) => saveTree(tx, bigTree()));
    let reads = 0;
    const reader = store.read();
    const counting: StoreReader = {
      gen: reader.gen,
      get: (t, k) => reader.get(t, k),
      has: (t, k) => reader.has(t, k),
      entries: (t) => reader.entries(t),
      scan: (t, o) => reader.scan(t, o),
      getObject: <T>(h: string) => {
        reads += 1;
        return reader.getObject<T>(h);
      },
    };
    const content = openContent(counting, { content: hash });
    const page = content.page('p7-42');
    expect(page?.title).toBe('Page 7 42');
    expect(content.pathOf('p7-42')).toBe('section-7/page-7-42');
    expect(content.findByPath('section-7/page-7-42')?.page.id).toBe('p7-42');
    expect(content.markdown(page as NonNullable<typeof page>)).toContain('body 7 42');
    expect(content.file('f3')?.name).toBe('image-3.png');
    // The path search reads the 50 sections and the 99 pages of one of them, not the 5,000.
    expect(reads).toBeLessThan(400);
  });

  it('grows O(changed pages): a CR editing 10 of 5,000 pages, then merged, writes a few dozen objects', async () => {
    const h = await contentSetup();
    const space = await h.createSpace();
    const counts = countObjects(h.store);
    await h.seedSpace(space.id, bigTree());
    expect(counts.fresh).toBeGreaterThan(10_000); // 5,000 pages + bodies + files + trie nodes, once

    const step = async (what: () => Promise<unknown>) => {
      counts.calls = 0;
      counts.fresh = 0;
      await what();
      return { ...counts };
    };
    // Creating a CR shares the primary content: no object at all.
    let cr1 = { id: '', revision: '' };
    expect(await step(async () => (cr1 = await h.createCR(space.id, 'Ten pages')))).toEqual({ calls: 0, fresh: 0 });
    const cr2 = await h.createCR(space.id, 'Ten other pages');

    const edit = (offset: number) => (tree: ContentTree) => {
      for (let i = 0; i < 10; i++) {
        const page = findPage(tree, `p${i * 5 + offset}-${i}`);
        page.markdown = `${page.markdown ?? ''}edited\n`;
      }
    };
    const edited = await step(() => h.editChangeRequest(space.id, cr1.id, edit(0)));
    // 10 bodies + 10 page objects + the trie paths above them (≤ 3 levels) + the root object.
    expect(edited.fresh).toBeGreaterThanOrEqual(21);
    expect(edited.calls).toBeLessThanOrEqual(60);

    // Merging into an unchanged primary takes the CR's content as is: no object.
    const merged = await step(() => h.admin.ok('mergeChangeRequest', { params: { spaceId: space.id, changeRequestId: cr1.id } }));
    expect(merged.calls).toBe(0);

    // A real three-way merge (both sides changed 10 pages): only the trie paths and the root are new.
    await h.editChangeRequest(space.id, cr2.id, edit(2));
    const threeWay = await step(() => h.admin.ok('mergeChangeRequest', { params: { spaceId: space.id, changeRequestId: cr2.id } }));
    expect(threeWay.calls).toBeLessThanOrEqual(40);
    const intro = await h.admin.ok<{ markdown: string }>('getPageById', { params: { spaceId: space.id, pageId: 'p0-0' } });
    expect(intro.markdown).toContain('edited');
    const other = await h.admin.ok<{ markdown: string }>('getPageById', { params: { spaceId: space.id, pageId: 'p2-0' } });
    expect(other.markdown).toContain('edited');
  }, 60_000);

  it('saveTree reuses the objects of its bases and counts what it wrote', async () => {
    const store = new MemoryStore();
    const hash = await store.transact((tx) => saveTree(tx, bigTree()));
    const stats: SaveStats = { pagesWritten: 0, filesWritten: 0 };
    const next = await store.transact((tx) => {
      const tree = loadTree(tx, { content: hash });
      const page = findPage(tree, 's3');
      page.title = 'Renamed';
      tree.files.pop();
      return saveTree(tx, tree, [tree], stats);
    });
    expect(stats).toEqual({ pagesWritten: 1, filesWritten: 0 });
    const content = openContent(store.read(), { content: next });
    expect(content.page('s3')?.title).toBe('Renamed');
    expect(content.fileIds()).toHaveLength(19);
    // Renaming a section does not rewrite its children: their objects are the same.
    expect(content.entry('p3-0')?.hash).toBe(openContent(store.read(), { content: hash }).entry('p3-0')?.hash);
  });
});
