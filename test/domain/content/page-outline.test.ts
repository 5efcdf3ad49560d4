/**
 * Page outlines in the pages trie (src/domain/content/page-slot.ts): every write of a
 * page puts its outline (title, kind, slug, children) beside its hash, whole-space reads
 * (`site tree`) read the outlines and no page object, and tries written before outlines
 * (a bare hash per page) read the same.
 */
import { describe, expect, it } from 'vitest';
import type { ContentPage, ContentTree } from '../../../src/content-model/model.js';
import { applyPatch, planFastMerge } from '../../../src/domain/content/fast-merge.js';
import { outlineOf, slotHash, slotOutline } from '../../../src/domain/content/page-slot.js';
import { RevisionContent, type ContentRoot, type StoredPage, saveTree } from '../../../src/domain/content/storage.js';
import { spacePages } from '../../../src/domain/sites/tree.js';
import { type HamtNode, hamtApply, hamtEntries, makeChange } from '../../../src/store/hamt.js';
import { MemoryStore } from '../../../src/store/memory-store.js';
import type { StoreReader } from '../../../src/store/types.js';
import { StoreError } from '../../../src/store/errors.js';
import { contentSetup, doc } from './helpers.js';

const group = (id: string, title: string, pages: ContentPage[]): ContentPage => ({ id, type: 'group', title, slug: title.toLowerCase(), pages });
const link = (id: string, title: string): ContentPage => ({ id, type: 'link', title, href: 'https://example.com', pages: [] });

const TREE: ContentTree = {
  pages: [doc('p-intro', 'Intro', 'hi\n'), group('p-guides', 'Guides', [doc('p-setup', 'Setup', 's\n', [doc('p-linux', 'Linux', 'l\n')])]), link('p-link', 'Elsewhere')],
  files: [],
};

const EXPECTED = [
  { id: 'p-intro', title: 'Intro', path: 'intro' },
  { id: 'p-guides', title: 'Guides', type: 'group', path: 'guides', pages: [{ id: 'p-setup', title: 'Setup', path: 'guides/setup', pages: [{ id: 'p-linux', title: 'Linux', path: 'guides/setup/linux' }] }] },
  { id: 'p-link', title: 'Elsewhere', type: 'link' },
];

/** A reader that fails the test when a page object (an object with `children`) is read. */
function withoutPageObjects(reader: StoreReader): StoreReader {
  const check = <T>(value: T): T => {
    if (typeof value === 'object' && value !== null && 'children' in value) throw new Error(`page object read: ${JSON.stringify(value)}`);
    return value;
  };
  return {
    gen: reader.gen,
    get: (table, key) => reader.get(table, key),
    has: (table, key) => reader.has(table, key),
    entries: (table) => reader.entries(table),
    scan: (table, options) => reader.scan(table, options),
    getObject: <T>(hash: string) => check(reader.getObject<T>(hash)),
  };
}

/** Every page slot of a content carries the outline of the page object it names. */
function expectOutlinesMatch(reader: StoreReader, content: string | undefined): number {
  const source = new RevisionContent(reader, content);
  let checked = 0;
  for (const [id, slot] of hamtEntries(source, source.root.pages ?? undefined)) {
    const page = reader.getObject<StoredPage>(slotHash(slot) as string);
    expect(slotOutline(slot), `outline of ${id}`).toEqual(outlineOf(page));
    checked += 1;
  }
  return checked;
}

describe('page outlines in the pages trie', () => {
  it('a saved tree carries every page outline, and the site tree reads no page object', async () => {
    const store = new MemoryStore();
    const content = await store.transact((tx) => saveTree(tx, TREE));
    expect(expectOutlinesMatch(store.read(), content)).toBe(5);
    expect(spacePages(new RevisionContent(withoutPageObjects(store.read()), content))).toEqual(EXPECTED);
  });

  it('a trie written before outlines (a bare hash per page) reads the same, from the page objects', async () => {
    const store = new MemoryStore();
    const content = await store.transact((tx) => saveTree(tx, TREE));
    const old = await store.transact((tx) => {
      const now = new RevisionContent(tx, content);
      const bare = [...now.allPageHashes()].map(([id, hash]) => makeChange(id, hash));
      const pages = hamtApply({ node: (hash) => tx.getObject<HamtNode>(hash) }, undefined, bare, (node) => tx.putObject(node));
      return tx.putObject({ ...now.root, pages: pages ?? null } satisfies ContentRoot);
    });
    const reader = new RevisionContent(store.read(), old);
    expect(hamtEntries(reader, reader.root.pages ?? undefined).every(([, slot]) => typeof slot === 'string')).toBe(true);
    expect(spacePages(reader)).toEqual(EXPECTED);
    expect(() => spacePages(new RevisionContent(withoutPageObjects(store.read()), old))).toThrow(/page object read/);
  });

  it('a fast merge carries the other side outlines: a renamed page shows its new title', async () => {
    const store = new MemoryStore();
    const base = structuredClone(TREE);
    const ours = structuredClone(TREE);
    const theirs = structuredClone(TREE);
    (ours.pages[0] as ContentPage).markdown = 'ours\n';
    ((theirs.pages[1] as ContentPage).pages[0] as ContentPage).title = 'Installation';
    const [b, o, t] = await store.transact((tx) => [saveTree(tx, base), saveTree(tx, ours), saveTree(tx, theirs)]);
    const patch = planFastMerge(store.read(), b, o, t);
    expect(patch).toBeDefined();
    const merged = await store.transact((tx) => applyPatch(tx, patch!));
    expectOutlinesMatch(store.read(), merged);
    const pages = spacePages(new RevisionContent(withoutPageObjects(store.read()), merged));
    expect(pages[1]?.pages?.[0]).toMatchObject({ id: 'p-setup', title: 'Installation', path: 'guides/setup' });
  });

  it('page edits in a change request update the outline: the merged site tree shows the new title', async () => {
    const h = await contentSetup();
    const s = await h.createSpace();
    await h.seedSpace(s.id, TREE);
    const cr = await h.createCR(s.id);
    const params = { spaceId: s.id, changeRequestId: String(cr.number) };
    const res = await h.admin.call('updateChangeRequestContent', {
      params,
      body: { changes: [{ operation: 'update_page', page: 'p-linux', title: 'GNU/Linux' }] },
    });
    expect(res.status).toBe(200);
    await h.admin.ok('mergeChangeRequest', { params });
    const revision = h.space(s.id).revision;
    const content = (h.store.read().get<{ content?: string }>('revisions', `${s.id}/${revision}`) ?? {}).content;
    expectOutlinesMatch(h.store.read(), content);
    const pages = spacePages(new RevisionContent(withoutPageObjects(h.store.read()), content));
    expect(pages[1]?.pages?.[0]?.pages).toEqual([{ id: 'p-linux', title: 'GNU/Linux', path: 'guides/setup/linux' }]);
  });

  it('stores the outline flat and the page hashes apart: {a: [id, [title, kind, slug, children?]], h: hashes in one string}', async () => {
    const store = new MemoryStore();
    const content = await store.transact((tx) => saveTree(tx, TREE));
    const root = store.read().getObject<ContentRoot>(content as string);
    const leaf = store.read().getObject<HamtNode>(root.pages as string);
    expect(Object.keys(leaf)).toEqual(['a', 'h']);
    const list = (leaf as { a: unknown[] }).a;
    const ids = list.filter((_, i) => i % 2 === 0);
    expect(ids).toEqual(['p-guides', 'p-intro', 'p-link', 'p-linux', 'p-setup']);
    const rows = new Map(list.flatMap((item, i) => (i % 2 === 0 ? [[item, list[i + 1]]] : [])));
    expect(rows.get('p-guides')).toEqual(['Guides', 'group', 'guides', ['p-setup']]);
    expect(rows.get('p-link')).toEqual(['Elsewhere', 'link', null]);
    expect(rows.get('p-linux')).toEqual(['Linux', '', 'linux']);
    // The hashes, 64 characters each in entry order, are the page objects' hashes.
    const hashes = new RevisionContent(store.read(), content).allPageHashes();
    expect((leaf as { h: string }).h).toBe(ids.map((id) => hashes.get(id as string)).join(''));
    for (const [id, hash] of hashes) expect(store.read().getObject<StoredPage>(hash).id).toBe(id);
  });

  it('reads a version-5 list leaf (whole slots, hashes inline) the same, and a write keeps its hashes apart', async () => {
    const store = new MemoryStore();
    const content = await store.transact((tx) => saveTree(tx, TREE));
    const old = await store.transact((tx) => {
      const now = new RevisionContent(tx, content);
      const leaf = tx.getObject<{ a: unknown[]; h: string }>(now.root.pages as string);
      const a = leaf.a.flatMap((item, i) => (i % 2 === 0 ? [item] : [[leaf.h.slice(i * 32 - 32, i * 32 + 32), ...(item as unknown[])]]));
      return tx.putObject({ ...now.root, pages: tx.putObject({ a }) } satisfies ContentRoot);
    });
    const oldLeaf = store.read().getObject<{ a: unknown[] }>(store.read().getObject<ContentRoot>(old).pages as string);
    expect(Object.keys(oldLeaf)).toEqual(['a']);
    expect(oldLeaf.a[1]).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/), 'Guides', 'group', 'guides', ['p-setup']]);
    expect(spacePages(new RevisionContent(withoutPageObjects(store.read()), old))).toEqual(EXPECTED);
    const reader = new RevisionContent(store.read(), old);
    expect(reader.allPageHashes()).toEqual(new RevisionContent(store.read(), content).allPageHashes());
    expect(reader.pathOf('p-linux')).toBe('guides/setup/linux');
    expect(expectOutlinesMatch(store.read(), old)).toBe(5);
    const edited = structuredClone(TREE);
    (edited.pages[0] as ContentPage).title = 'Introduction';
    const next = await store.transact((tx) => saveTree(tx, edited, [new RevisionContent(tx, old).tree()]));
    const leaf = store.read().getObject<HamtNode>(store.read().getObject<ContentRoot>(next as string).pages as string);
    expect(Object.keys(leaf)).toEqual(['a', 'h']);
    expect(spacePages(new RevisionContent(withoutPageObjects(store.read()), next))[0]).toEqual({ id: 'p-intro', title: 'Introduction', path: 'intro' });
    expect(expectOutlinesMatch(store.read(), next)).toBe(5);
  });

  it('a walk that read outlines still answers page hashes and pages', async () => {
    const store = new MemoryStore();
    const content = await store.transact((tx) => saveTree(tx, TREE));
    const reader = new RevisionContent(store.read(), content);
    expect(reader.outline('p-setup')).toEqual({ t: 'Setup', s: 'setup', c: ['p-linux'] });
    expect(reader.outline('p-nope')).toBeUndefined();
    expect(reader.page('p-linux')?.title).toBe('Linux');
    expect(reader.pathOf('p-linux')).toBe('guides/setup/linux');
    expect([...reader.allPageHashes().keys()].sort()).toEqual(['p-guides', 'p-intro', 'p-link', 'p-linux', 'p-setup']);
  });

  it('a leaf whose hashes do not match its entries fails loudly as store damage (exit 74), never a partial tree', async () => {
    const store = new MemoryStore();
    const content = await store.transact((tx) => saveTree(tx, TREE));
    for (const damage of [(h: string) => h.slice(64), (h: string) => `${h}${h.slice(0, 64)}`, () => 42]) {
      const bad = await store.transact((tx) => {
        const now = new RevisionContent(tx, content);
        const leaf = tx.getObject<{ a: unknown[]; h: string }>(now.root.pages as string);
        return tx.putObject({ ...now.root, pages: tx.putObject({ a: leaf.a, h: damage(leaf.h) }) } satisfies ContentRoot);
      });
      let thrown: unknown;
      try {
        spacePages(new RevisionContent(store.read(), bad));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(StoreError);
      expect((thrown as StoreError).exitCode).toBe(74);
      expect((thrown as Error).message).toMatch(/^store damaged: a trie leaf has the wrong number of hashes/);
    }
    const rowless = await store.transact((tx) => {
      const now = new RevisionContent(tx, content);
      const leaf = tx.getObject<{ a: unknown[]; h: string }>(now.root.pages as string);
      return tx.putObject({ ...now.root, pages: tx.putObject({ a: leaf.a.map((item, i) => (i === 3 ? 'Intro' : item)), h: leaf.h }) } satisfies ContentRoot);
    });
    expect(() => spacePages(new RevisionContent(store.read(), rowless))).toThrow(/^store damaged: a trie leaf has a malformed value for p-intro/);
  });

  it('a trie of the first outline form (keyed leaves, an object per outline) reads the same, and a write turns its leaf into a list with its hashes apart', async () => {
    const store = new MemoryStore();
    const content = await store.transact((tx) => saveTree(tx, TREE));
    const old = await store.transact((tx) => {
      const now = new RevisionContent(tx, content);
      const l: Record<string, unknown> = {};
      for (const [id, hash] of [...now.allPageHashes()].sort(([a], [b]) => (a < b ? -1 : 1))) l[id] = [hash, outlineOf(tx.getObject<StoredPage>(hash))];
      return tx.putObject({ ...now.root, pages: tx.putObject({ l }) } satisfies ContentRoot);
    });
    expect(Object.keys(store.read().getObject<HamtNode>(store.read().getObject<ContentRoot>(old).pages as string))).toEqual(['l']);
    expect(spacePages(new RevisionContent(withoutPageObjects(store.read()), old))).toEqual(EXPECTED);
    const reader = new RevisionContent(store.read(), old);
    expect(reader.page('p-setup')?.title).toBe('Setup');
    expect(reader.pathOf('p-linux')).toBe('guides/setup/linux');
    // A write of one page: the leaf is written again as a list, the others' first-form slots as they were.
    const edited = structuredClone(TREE);
    (edited.pages[0] as ContentPage).title = 'Introduction';
    const next = await store.transact((tx) => saveTree(tx, edited, [new RevisionContent(tx, old).tree()]));
    const leaf = store.read().getObject<HamtNode>(store.read().getObject<ContentRoot>(next as string).pages as string);
    // Every slot is headed by its hash: the hashes go apart, each rest as it was (an object for the first form).
    expect(Object.keys(leaf)).toEqual(['a', 'h']);
    const list = (leaf as { a: unknown[] }).a;
    expect(list[list.indexOf('p-linux') + 1]).toEqual([{ t: 'Linux', s: 'linux' }]);
    expect(list[list.indexOf('p-intro') + 1]).toEqual(['Introduction', '', 'intro']);
    expect(spacePages(new RevisionContent(withoutPageObjects(store.read()), next))[1]).toEqual(EXPECTED[1]);
    expect(expectOutlinesMatch(store.read(), next)).toBe(5);
    expect(spacePages(new RevisionContent(withoutPageObjects(store.read()), next))[0]).toEqual({ id: 'p-intro', title: 'Introduction', path: 'intro' });
  });
});
