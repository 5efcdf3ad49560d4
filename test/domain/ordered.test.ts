import { describe, expect, it } from 'vitest';
import { KeyedSet, OrderedList } from '../../src/domain/ordered.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { StoreWriter } from '../../src/store/types.js';

const ids = (list: Array<{ id: string }>) => list.map((e) => e.id);

describe('OrderedList', () => {
  const list = new OrderedList<{ title: string }>('things');
  const store = new MemoryStore();
  const write = (fn: (tx: StoreWriter) => void) => store.transact(fn);

  it('appends, inserts before/after, moves and removes, writing one row per change', async () => {
    await write((tx) => {
      for (const id of ['a', 'b', 'c']) list.insert(tx, 'o1', id, { title: id.toUpperCase() });
      list.insert(tx, 'o1', 'x', { title: 'X' }, { before: 'b' });
      list.insert(tx, 'o1', 'y', { title: 'Y' }, { after: 'c' });
      list.insert(tx, 'o1', 'z', { title: 'Z' }, { before: 'a' });
    });
    const reader = store.read();
    expect(ids(list.all(reader, 'o1'))).toEqual(['z', 'a', 'x', 'b', 'c', 'y']);
    expect(list.count(reader, 'o1')).toBe(6);
    await write((tx) => {
      list.move(tx, 'o1', 'y', { before: 'z' });
      list.remove(tx, 'o1', 'x');
      list.update(tx, 'o1', 'a', { title: 'A2' });
    });
    const after = store.read();
    expect(ids(list.all(after, 'o1'))).toEqual(['y', 'z', 'a', 'b', 'c']);
    expect(list.get(after, 'o1', 'a')).toEqual({ title: 'A2' });
    expect(list.count(after, 'o1')).toBe(5);
    expect(list.all(after, 'other')).toEqual([]);
  });

  it('refuses both before and after, unknown anchors, and self-relative moves', async () => {
    await expect(write((tx) => list.insert(tx, 'o2', 'n', { title: 'N' }, { before: 'a', after: 'b' }))).rejects.toThrow(/either/);
    await expect(write((tx) => list.insert(tx, 'o2', 'n', { title: 'N' }, { before: 'nope' }))).rejects.toThrow(/not in this list/);
    await write((tx) => list.insert(tx, 'o2', 'n', { title: 'N' }));
    await expect(write((tx) => list.move(tx, 'o2', 'n', { after: 'n' }))).rejects.toThrow(/itself/);
  });

  it('pages with opaque cursors and a count that does not scan', async () => {
    await write((tx) => {
      for (let i = 0; i < 7; i++) list.insert(tx, 'p', `i${i}`, { title: String(i) });
    });
    const reader = store.read();
    const first = list.page(reader, 'p', { limit: 3 }, (e) => e.id);
    expect(first).toMatchObject({ count: 7, items: ['i0', 'i1', 'i2'] });
    const second = list.page(reader, 'p', { limit: 3, page: first.next?.page }, (e) => e.id);
    const third = list.page(reader, 'p', { limit: 3, page: second.next?.page }, (e) => e.id);
    expect(second.items).toEqual(['i3', 'i4', 'i5']);
    expect(third).toEqual({ count: 7, items: ['i6'] });
    expect(() => list.page(reader, 'p', { page: 'garbage' }, (e) => e.id)).toThrow(/Invalid page cursor/);
  });
  it('never hands out a removed key again, so reinsert puts an item back where it was', async () => {
    await write((tx) => {
      for (const id of ['a', 'b', 'c']) list.insert(tx, 'r', id, { title: id });
    });
    const cKey = list.orderKey(store.read(), 'r', 'c');
    await write((tx) => {
      list.remove(tx, 'r', 'c');
      list.insert(tx, 'r', 'd', { title: 'd' });
    });
    expect(list.orderKey(store.read(), 'r', 'd')).not.toBe(cKey);
    await write((tx) => list.reinsert(tx, 'r', 'c', { title: 'c' }, cKey));
    const reader = store.read();
    expect(ids(list.all(reader, 'r'))).toEqual(['a', 'b', 'c', 'd']);
    expect(list.count(reader, 'r')).toBe(4);
    expect(list.neighbours(reader, 'r', 'b')).toEqual({ prev: 'a', next: 'c' });
    expect(list.neighbours(reader, 'r', 'a')).toEqual({ next: 'b' });
    expect(list.neighbours(reader, 'r', 'nope')).toBeUndefined();
  });

  it('fills a filtered page by reading past the dropped rows', async () => {
    await write((tx) => {
      for (let i = 0; i < 10; i++) list.insert(tx, 'f', `i${i}`, { title: String(i) });
    });
    const reader = store.read();
    const odd = (query: { limit: number; page?: string | undefined }) =>
      list.page(reader, 'f', query, (e) => (Number(e.value.title) % 2 === 1 ? e.id : undefined));
    const first = odd({ limit: 3 });
    expect(first.items).toEqual(['i1', 'i3', 'i5']);
    const second = odd({ limit: 3, page: first.next?.page });
    expect(second.items).toEqual(['i7', 'i9']);
    expect(second.next).toBeUndefined();
  });
});

describe('KeyedSet', () => {
  it('keeps one row per member and a count', async () => {
    const set = new KeyedSet<{ role: string }>('members');
    const store = new MemoryStore();
    await store.transact((tx) => {
      expect(set.put(tx, 't', 'u2', { role: 'member' })).toBe(true);
      expect(set.put(tx, 't', 'u1', { role: 'owner' })).toBe(true);
      expect(set.put(tx, 't', 'u1', { role: 'member' })).toBe(false);
    });
    const reader = store.read();
    expect(set.all(reader, 't')).toEqual([
      { id: 'u1', value: { role: 'member' } },
      { id: 'u2', value: { role: 'member' } },
    ]);
    expect(set.count(reader, 't')).toBe(2);
    await store.transact((tx) => expect(set.remove(tx, 't', 'u1')).toBe(true));
    expect(set.count(store.read(), 't')).toBe(1);
    expect(set.page(store.read(), 't', { limit: 10 }, (e) => e.id).items).toEqual(['u2']);
  });
});

describe('ids from requests that cannot name an item (a "/" in them)', () => {
  it('are in no KeyedSet: reads find nothing and a remove changes nothing, where a put refuses them', async () => {
    const set = new KeyedSet<{ role: string }>('members');
    const store = new MemoryStore();
    await store.transact((tx) => {
      set.put(tx, 't', 'u1', { role: 'member' });
    });
    await store.transact((tx) => {
      expect(set.get(tx, 't', 'u1/x')).toBeUndefined();
      expect(set.has(tx, 't', 'u1/x')).toBe(false);
      expect(set.remove(tx, 't', 'u1/x')).toBe(false);
      expect(() => set.put(tx, 't', 'a/b', { role: 'member' })).toThrow(/must not contain "\/"/);
    });
    expect(set.all(store.read(), 't')).toEqual([{ id: 'u1', value: { role: 'member' } }]);
    expect(set.count(store.read(), 't')).toBe(1);
  });

  it('are in no OrderedList: reads find nothing, a remove or a move changes nothing', async () => {
    const list = new OrderedList<string>('things');
    const store = new MemoryStore();
    await store.transact((tx) => list.insert(tx, 'o', 'a', 'A'));
    await store.transact((tx) => {
      expect(list.has(tx, 'o', 'a/b')).toBe(false);
      expect(list.get(tx, 'o', 'a/..')).toBeUndefined();
      expect(list.remove(tx, 'o', '/')).toBe(false);
      expect(list.move(tx, 'o', 'a/b', undefined)).toBe(false);
    });
    expect(list.all(store.read(), 'o').map((e) => e.id)).toEqual(['a']);
  });
});
