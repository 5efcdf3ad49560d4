/**
 * A store written by the first release (layout 1: growing lists as one JSON array per
 * owner) is upgraded once to one row per item, with every list answering as before.
 */
import { describe, expect, it } from 'vitest';
import { ensureLayout, needsUpgrade } from '../../src/domain/layout.js';
import { Tables, type TrashEntry } from '../../src/domain/core-records.js';
import type { MemoryStore } from '../../src/store/memory-store.js';
import type { StoreWriter } from '../../src/store/types.js';
import { setup } from './harness.js';

const LIST_TABLES = [Tables.orgMembers, Tables.userOrgs, Tables.orgCollections, Tables.orgSpaces, Tables.children];

/** Rewrites the store as the first release kept it (test-only: the inverse of the upgrade). */
async function downgrade(store: MemoryStore): Promise<void> {
  await store.transact((tx: StoreWriter) => {
    const arrays = new Map<string, Map<string, unknown[]>>();
    const push = (table: string, owner: string, value: unknown) => {
      const owners = arrays.get(table) ?? new Map<string, unknown[]>();
      arrays.set(table, owners);
      owners.set(owner, [...(owners.get(owner) ?? []), value]);
    };
    // OrderedList rows: `${owner}/${orderKey}` → {id, value}; the order of the keys is the list's order.
    const trash = tx.entries<TrashEntry>(Tables.orgTrash);
    for (const table of LIST_TABLES) {
      const rows = tx.entries<{ id: string; value: unknown }>(table).map(([key, entry]) => {
        const cut = key.indexOf('/');
        return { owner: key.slice(0, cut), order: key.slice(cut + 1), entry };
      });
      if (table === Tables.orgSpaces) {
        // Layout 1 kept soft-deleted spaces in the org's list, in creation order.
        for (const [key, item] of trash) rows.push({ owner: key.slice(0, key.indexOf('/')), order: item.orderKey ?? '~', entry: { id: item.id, value: null } });
        rows.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
      }
      for (const row of rows) push(table, row.owner, table === Tables.children ? row.entry.value : row.entry.id);
      for (const suffix of ['', '.pos', '.n', '.end']) for (const [key] of tx.entries(table + suffix)) tx.delete(table + suffix, key);
    }
    for (const [key, item] of trash) {
      push(Tables.orgTrash, key.slice(0, key.indexOf('/')), { id: item.id, deletedAt: item.deletedAt });
      tx.delete(Tables.orgTrash, key);
    }
    for (const [key, crId] of tx.entries<string>(Tables.spaceChangeRequests)) {
      const [spaceId] = key.split('/') as [string];
      push(Tables.spaceChangeRequests, spaceId, crId);
      tx.delete(Tables.spaceChangeRequests, key);
    }
    for (const table of [Tables.childCounts, `${Tables.spaceChangeRequests}.n`, Tables.changeRequestsByStatus, `${Tables.changeRequestsByStatus}.n`]) {
      for (const [key] of tx.entries(table)) tx.delete(table, key);
    }
    for (const [table, owners] of arrays) for (const [owner, list] of owners) tx.put(table, owner, list);
    tx.delete(Tables.meta, 'layout');
  });
}

describe('store layout upgrade', () => {
  it('turns layout-1 arrays into rows: every listing answers the same, restores keep their place, and it runs once', async () => {
    const h = await setup();
    const org = { params: { organizationId: h.orgId } };
    const c1 = await h.createCollection({ title: 'Guides' });
    const s1 = await h.createSpace({ title: 'One' });
    const s2 = await h.createSpace({ title: 'Two' });
    const s3 = await h.createSpace({ title: 'Three', parent: c1.id });
    await h.member('jane@acme.test', 'edit');
    const cr = await h.admin.ok<{ id: string }>('createChangeRequest', { params: { spaceId: s1.id }, body: { subject: 'Edit' } }, 201);
    await h.admin.call('deleteSpaceById', { params: { spaceId: s2.id } });
    const listings = async () => ({
      spaces: await h.admin.ok('listSpacesInOrganizationById', org),
      collections: await h.admin.ok('listCollectionsInOrganizationById', org),
      inCollection: await h.admin.ok('listSpacesInCollectionById', { params: { collectionId: c1.id } }),
      orgs: await h.admin.ok('listOrganizationsForAuthenticatedUser'),
      crs: await h.admin.ok('listChangeRequestsForSpace', { params: { spaceId: s1.id } }),
      crByNumber: await h.admin.ok('getChangeRequestById', { params: { spaceId: s1.id, changeRequestId: '1' } }),
      root: h.children(`org:${h.orgId}`),
    });
    const before = await listings();
    expect((before.spaces as unknown as { count: number }).count).toBe(2);

    await downgrade(h.store);
    const old = h.store.read();
    expect(old.get(Tables.orgSpaces, h.orgId)).toEqual([s1.id, s2.id, s3.id]);
    expect(old.get(Tables.children, `org:${h.orgId}`)).toEqual([
      { type: 'collection', id: c1.id },
      { type: 'space', id: s1.id },
    ]);
    expect(needsUpgrade(old)).toBe(true);

    await ensureLayout(h.store);
    expect(await listings()).toEqual(before);
    expect(needsUpgrade(h.store.read())).toBe(false);
    for (const table of [...LIST_TABLES, Tables.orgTrash, Tables.spaceChangeRequests]) {
      expect(h.store.read().entries(table).filter(([key]) => !key.includes('/')), table).toEqual([]);
    }
    // Once: a current store is left alone.
    const gen = h.store.read().gen;
    await ensureLayout(h.store);
    expect(h.store.read().gen).toBe(gen);
    // The deleted space comes back where it was created.
    await h.admin.ok('restoreSpace', { params: { spaceId: s2.id } });
    const after = await h.admin.ok<{ items: Array<{ id: string }> }>('listSpacesInOrganizationById', org);
    expect(after.items.map((s) => s.id)).toEqual([s1.id, s2.id, s3.id]);
    expect(cr.id).toBe((before.crByNumber as unknown as { id: string }).id);
  });
});
