/**
 * Every list grows: a write costs the rows of the item it touches, never a rewrite
 * of the organization's lists (issue 8 §2). Measured as the bytes of the values a
 * create puts, on an empty organization and on one with 2,000 spaces.
 */
import { describe, expect, it } from 'vitest';
import { getRoute } from '../../src/api/table.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { executeOperation } from '../../src/domain/execute.js';
import { type SpaceRecord, orgSpaceList, putSpace } from '../../src/domain/core-records.js';
import { appendChild, containerKey } from '../../src/domain/tree.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { Store, StoreWriter, TransactOptions } from '../../src/store/types.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { ORIGIN } from './harness.js';
import type { RouteId } from '../../src/api/route-id.js';

interface Write {
  table: string;
  key: string;
  bytes: number;
}

/** A store that records what each transaction puts. */
class RecordingStore implements Store {
  readonly location = 'recording';
  writes: Write[] = [];
  constructor(private readonly inner: MemoryStore) {}
  read() {
    return this.inner.read();
  }
  transact<T>(fn: (tx: StoreWriter) => T | Promise<T>, options?: TransactOptions): Promise<T> {
    return this.inner.transact((tx) => {
      const writes = this.writes;
      const recording = new Proxy(tx, {
        get(target, prop) {
          if (prop === 'put') {
            return (table: string, key: string, value: unknown) => {
              writes.push({ table, key, bytes: JSON.stringify(value).length });
              target.put(table, key, value);
            };
          }
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      return fn(recording);
    }, options);
  }
  close() {
    return this.inner.close();
  }
}

async function orgWith(spaces: number) {
  const memory = new MemoryStore();
  const store = new RecordingStore(memory);
  const clock = manualClock('2026-01-01T00:00:00.000Z');
  const ids = sequentialIds();
  const boot = await memory.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@acme.test', clock, ids, origin: ORIGIN }),
  );
  const orgId = boot.organization.id;
  // Seeded in one transaction, the way a long-lived organization looks: one row per space in each list.
  await memory.transact((tx) => {
    const at = clock().toISOString();
    for (let i = 0; i < spaces; i++) {
      const id = `seed${i}`;
      const space: SpaceRecord = {
        id,
        organization: orgId,
        title: `Space ${i}`,
        emoji: '',
        visibility: 'private',
        editMode: 'live',
        defaultLevel: 'inherit',
        mergeRules: { type: 'inherit' },
        revision: 'r0',
        createdAt: at,
        updatedAt: at,
        counters: { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 },
      };
      putSpace(tx, space);
      orgSpaceList.insert(tx, orgId, id, null);
      appendChild(tx, containerKey(orgId, undefined), { type: 'space', id });
    }
  });
  const call = (routeId: RouteId, raw: Parameters<typeof executeOperation>[2]) =>
    executeOperation({ store, actor: { userId: boot.user.id }, clock, ids, origin: ORIGIN }, getRoute(routeId), raw);
  return { store, orgId, call };
}

async function createCost(spaces: number): Promise<{ rows: number; bytes: number; largest: number }> {
  const { store, orgId, call } = await orgWith(spaces);
  store.writes = [];
  await call('createSpace', { params: { organizationId: orgId }, body: { title: 'New' } });
  const bytes = store.writes.reduce((sum, w) => sum + w.bytes, 0);
  return { rows: store.writes.length, bytes, largest: Math.max(...store.writes.map((w) => w.bytes)) };
}

describe('every list grows: writes cost the item, not the list', () => {
  it('a space create puts the same rows, of about the same size, on an empty organization and at 2,000 spaces', async () => {
    const empty = await createCost(0);
    const large = await createCost(2000);
    expect(large.rows).toBe(empty.rows);
    // Order keys and counts grow by a few characters; a rewritten list would add ~20 KB.
    expect(large.bytes).toBeLessThanOrEqual(empty.bytes + 64);
    expect(large.largest).toBeLessThan(1024);
  });

  it('lists page with key cursors; a deleted space leaves the listing and a restore puts it back in its place', async () => {
    const { orgId, call } = await orgWith(5);
    const list = async (page?: string) =>
      (await call('listSpacesInOrganizationById', { params: { organizationId: orgId }, query: { limit: '2', ...(page ? { page } : {}) } }))
        .body as { count: number; items: Array<{ id: string }>; next?: { page: string } };
    const all = async () => {
      const ids: string[] = [];
      let page: string | undefined;
      let count: number;
      do {
        const res = await list(page);
        ids.push(...res.items.map((s) => s.id));
        count = res.count;
        page = res.next?.page;
      } while (page !== undefined);
      return { ids, count };
    };
    expect(await all()).toEqual({ ids: ['seed0', 'seed1', 'seed2', 'seed3', 'seed4'], count: 5 });
    await call('deleteSpaceById', { params: { spaceId: 'seed2' } });
    await call('createSpace', { params: { organizationId: orgId }, body: { title: 'Later' } });
    const afterDelete = await all();
    expect(afterDelete.count).toBe(5);
    expect(afterDelete.ids.slice(0, 4)).toEqual(['seed0', 'seed1', 'seed3', 'seed4']);
    const later = afterDelete.ids[4] as string;
    await call('restoreSpace', { params: { spaceId: 'seed2' } });
    expect(await all()).toEqual({ ids: ['seed0', 'seed1', 'seed2', 'seed3', 'seed4', later], count: 6 });
  });
});
