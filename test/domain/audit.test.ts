/**
 * The audit log (listOrganizationAuditEvents, getOrganizationAuditEvent,
 * listOrganizationAuditEventActions): every write made through an operation records who,
 * what and when in its own transaction (execute.ts), newest first, filtered from indexes,
 * admin only, capped per organization. Through executeOperation; every answer is checked
 * against 0.202's schemas (contentSetup).
 */
import { describe, expect, it } from 'vitest';
import { AUDIT, AUDIT_RECENT, INDEX_BATCH, MAX_AUDIT_EVENTS } from '../../src/domain/audit-records.js';
import type { StoreReader, StoreWriter } from '../../src/store/types.js';
import { executeOperation } from '../../src/domain/execute.js';
import { getRoute } from '../../src/api/table.js';
import { contentSetup, ORIGIN } from './content/helpers.js';

type Event = {
  id: string;
  occurredAt: string;
  action: string;
  actor: { type: string; id: string; label?: string };
  source: string;
  target: { type: string; id: string; label?: string };
};
type Page = { items: Event[]; count?: number; next?: { page: string } };

async function audited() {
  const h = await contentSetup();
  const list = (query: Record<string, string> = {}) => h.admin.ok<Page>('listOrganizationAuditEvents', { params: { organizationId: h.orgId }, query });
  const actions = async (query: Record<string, string> = {}) => (await list(query)).items.map((event) => event.action);
  return { h, list, actions };
}

describe('audit events: what a write records', () => {
  it('records each write with its actor, action, target and time, newest first, and the details of one', async () => {
    const { h, list } = await audited();
    const space = await h.createSpace('Handbook');
    h.clock.advance(1000);
    await h.admin.ok('updateSpaceById', { params: { spaceId: space.id }, body: { title: 'Guide' } });
    const page = await list();
    expect(page.count).toBe(2);
    expect(page.items.map((event) => [event.action, event.target, event.actor, event.source])).toEqual([
      ['updateSpaceById', { type: 'space', id: space.id, label: 'Guide' }, { type: 'user', id: h.adminId, label: 'Ada' }, 'script'],
      ['createSpace', { type: 'space', id: space.id, label: 'Handbook' }, { type: 'user', id: h.adminId, label: 'Ada' }, 'script'],
    ]);
    expect(page.items.map((event) => event.occurredAt)).toEqual(['2026-01-01T00:00:01.000Z', '2026-01-01T00:00:00.000Z']);
    const first = page.items[1] as Event;
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    const details = await h.admin.ok('getOrganizationAuditEvent', { params: { organizationId: h.orgId, auditEventId: first.id } });
    expect(details).toEqual({
      ...first,
      schemaVersion: 1,
      payload: { operation: 'createSpace', method: 'POST', fields: ['title'], status: 201 },
    });
    expect((details as unknown as { urls: { location: string } }).urls.location).toBe(`${ORIGIN}/v1/orgs/${h.orgId}/audit-events/${first.id}`);
  });

  it('records nothing for a read, a refused write, or a delete of nothing; a delete names what it deleted', async () => {
    const { h, actions } = await audited();
    const space = await h.createSpace('Handbook');
    await h.admin.ok('getSpaceById', { params: { spaceId: space.id } });
    await h.admin.fails('updateSpaceById', { params: { spaceId: space.id }, body: { visibility: 'nope' } }, 400);
    await h.admin.fails('updateSpaceById', { params: { spaceId: 'missing' }, body: { title: 'x' } }, 404);
    const editor = await h.member('ed@acme.test', 'edit');
    await h.fails(editor, 'createCollection', { params: { organizationId: h.orgId }, body: { title: 'No' } }, 403);
    const collection = await h.createCollection({ title: 'Guides' });
    await h.admin.call('deleteCollectionById', { params: { collectionId: collection.id } });
    await h.admin.call('deleteCollectionById', { params: { collectionId: collection.id } });
    expect(await actions()).toEqual(['deleteCollectionById', 'createCollection', 'inviteUsersToOrganization', 'createSpace']);
    const [deleted] = (await h.admin.ok<Page>('listOrganizationAuditEvents', { params: { organizationId: h.orgId }, query: { limit: '1' } })).items;
    expect(deleted?.target).toEqual({ type: 'collection', id: collection.id });
  });

  it('names an installation token as the actor and the token that acted, with source integration or api', async () => {
    const { h } = await audited();
    const space = await h.createSpace('Handbook');
    const installation = { integration: 'slack', installationId: 'inst1', expiresAt: '2027-01-01T00:00:00.000Z' };
    // The actor as actorForToken gives it (a token's public id); what the installation may reach is its scope's business.
    await executeOperation(
      { store: h.store, actor: { userId: h.adminId, tokenId: '0123456789abcdef' }, clock: h.clock, ids: h.ids, origin: ORIGIN, source: 'api' },
      getRoute('updateSpaceById'),
      { params: { spaceId: space.id }, body: { title: 'By API' } },
    );
    const [byApi] = (await h.admin.ok<Page>('listOrganizationAuditEvents', { params: { organizationId: h.orgId }, query: { limit: '1' } })).items;
    expect(byApi).toMatchObject({ source: 'api', actor: { type: 'user', id: h.adminId } });
    const details = await h.admin.ok<{ payload: Record<string, unknown> }>('getOrganizationAuditEvent', { params: { organizationId: h.orgId, auditEventId: (byApi as Event).id } });
    expect(details.payload).toMatchObject({ tokenId: '0123456789abcdef', objects: { spaceId: space.id } });
    const { recordAudit } = await import('../../src/domain/audit-records.js');
    const event = await h.store.transact((tx) =>
      recordAudit(tx, h.clock, {
        routeId: 'updateSpaceById',
        method: 'PATCH',
        params: { spaceId: space.id },
        body: { title: 'x' },
        answer: undefined,
        status: 200,
        actor: { userId: h.adminId, installation },
        access: { userId: h.adminId, organizationId: h.orgId, role: 'admin' },
        source: 'integration',
      }),
    );
    expect(event).toMatchObject({ actor: { type: 'installation', id: 'inst1', label: 'slack' }, source: 'integration', payload: { userId: h.adminId } });
  });
});

describe('audit events: filters, pages, access, bounds', () => {
  it('filters by action, actor, target and time range, each from an index, and pages newest first', async () => {
    const { h, list, actions } = await audited();
    const editor = await h.member('ed@acme.test', 'admin');
    const spaces = [];
    for (let i = 0; i < 5; i++) {
      h.clock.advance(60_000);
      spaces.push(await h.ok(i % 2 === 0 ? h.adminId : editor, 'createSpace', { params: { organizationId: h.orgId }, body: { title: `S${i}` } }));
    }
    h.clock.advance(60_000);
    const s0 = spaces[0] as { id: string };
    await h.admin.ok('updateSpaceById', { params: { spaceId: s0.id }, body: { title: 'Renamed' } });
    expect(await actions({ action: 'createSpace' })).toEqual(['createSpace', 'createSpace', 'createSpace', 'createSpace', 'createSpace']);
    expect((await list({ actor: editor })).items.map((e) => e.target.label)).toEqual(['S3', 'S1']);
    expect(await actions({ target: s0.id })).toEqual(['updateSpaceById', 'createSpace']);
    expect(await actions({ target: s0.id, action: 'createSpace' })).toEqual(['createSpace']);
    // S1 at 00:02, S2 at 00:03, S3 at 00:04 (inclusive bounds).
    const range = await list({ from: '2026-01-01T00:02:00Z', to: '2026-01-01T00:04:00.000Z', action: 'createSpace' });
    expect(range.items.map((e) => e.target.label)).toEqual(['S3', 'S2', 'S1']);
    expect(range.count).toBeUndefined();
    expect((await list({ from: '2026-01-01T00:04:00Z' })).items.map((e) => e.action)).toEqual(['updateSpaceById', 'createSpace', 'createSpace']);
    expect((await list({ to: '2026-01-01T00:00:00Z' })).items.map((e) => e.action)).toEqual(['inviteUsersToOrganization']);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const answer = await list({ limit: '2', ...(page ? { page } : {}) });
      seen.push(...answer.items.map((e) => e.target.label ?? e.action));
      expect(answer.count).toBe(7);
      page = answer.next?.page;
    } while (page);
    expect(seen).toEqual(['Renamed', 'S4', 'S3', 'S2', 'S1', 'S0', 'inviteUsersToOrganization']);
    expect((await list()).items).toHaveLength(7);
  });

  it('is for admins only; other organizations and unknown ids are 404; bad filters 400', async () => {
    const { h } = await audited();
    const editor = await h.member('ed@acme.test', 'edit');
    await h.fails(editor, 'listOrganizationAuditEvents', { params: { organizationId: h.orgId } }, 403, /"admin" role/);
    await h.fails(editor, 'listOrganizationAuditEventActions', { params: { organizationId: h.orgId } }, 403);
    const other = await h.createOrg('Other', { [editor]: 'admin' });
    await h.fails(h.adminId, 'listOrganizationAuditEvents', { params: { organizationId: other } }, 404);
    await h.admin.fails('getOrganizationAuditEvent', { params: { organizationId: h.orgId, auditEventId: '01a21f94-45ea-7000-8000-000000325f91' } }, 404, /not found/);
    await h.admin.fails('getOrganizationAuditEvent', { params: { organizationId: h.orgId, auditEventId: '../x' } }, 404);
    await h.admin.fails('listOrganizationAuditEvents', { params: { organizationId: h.orgId }, query: { from: 'yesterday' } }, 400, /from/);
  });

  it('lists the actions: every operation that changes something, labelled', async () => {
    const { h } = await audited();
    const { items } = await h.admin.ok<{ items: Array<{ id: string; label: string }> }>('listOrganizationAuditEventActions', { params: { organizationId: h.orgId } });
    expect(items).toContainEqual({ object: 'audit-event-action', id: 'createSpace', label: 'Create space' });
    expect(items).toContainEqual({ object: 'audit-event-action', id: 'updateSpaceById', label: 'Update space by id' });
    expect(items.map((item) => item.id)).not.toContain('getSpaceById');
    expect(items.length).toBeGreaterThan(100);
  });

  it('keeps the newest MAX_AUDIT_EVENTS of an organization: the append past the cap drops the oldest with its index rows', async () => {
    const { h, list } = await audited();
    const oldest = await h.createSpace('Oldest');
    await h.createSpace('Middle');
    expect((await list()).count).toBe(2);
    // The oldest indexed, as every event is once INDEX_BATCH more have come.
    await h.store.transact((tx) => indexThrough(tx, h.orgId));
    expect((await list({ target: oldest.id })).items.map((e) => e.target.label)).toEqual(['Oldest']);
    // As if the organization had recorded MAX_AUDIT_EVENTS events by now.
    await h.store.transact((tx) => tx.put(AUDIT, `e/${h.orgId}/~`, MAX_AUDIT_EVENTS));
    h.clock.advance(1000);
    await h.createSpace('Newest');
    const after = await list();
    expect(after.count).toBe(MAX_AUDIT_EVENTS);
    expect(after.items.map((e) => e.target.label)).toEqual(['Newest', 'Middle']);
    const reader = h.store.read();
    // Two events, the sequence row and the index mark (Newest and the counter in auditRecent).
    expect(reader.scan(AUDIT, { prefix: `e/${h.orgId}/` }).length + reader.scan(AUDIT_RECENT, { prefix: `e/${h.orgId}/` }).length).toBe(4);
    expect(reader.scan(AUDIT, { prefix: `t/${h.orgId}/${oldest.id}/` })).toHaveLength(0);
    expect(reader.scan(AUDIT, { prefix: `a/${h.orgId}/createSpace/` })).toHaveLength(1); // Middle's (Newest's waits for its batch)
    expect((await list({ target: oldest.id })).items).toEqual([]);
    expect((await list({ action: 'createSpace' })).items.map((e) => e.target.label)).toEqual(['Newest', 'Middle']);
  });
});

/** Moves the index mark past every event, and the events into the log (as the next INDEX_BATCH-th event would). */
function indexThrough(tx: StoreWriter, org: string): void {
  for (const [key, event] of tx.scan(AUDIT_RECENT, { prefix: `e/${org}/` }).filter(([k]) => !k.includes('/~'))) {
    tx.put(AUDIT, key, event);
    tx.delete(AUDIT_RECENT, key);
  }
  const events = tx.scan<{ id: string; action: string; actor: { id: string }; target: { id: string } }>(AUDIT, { prefix: `e/${org}/` }).filter(([key]) => !key.includes('/~'));
  for (const [, event] of events) {
    tx.put(AUDIT, `a/${org}/${event.action}/${event.id}`, 0);
    tx.put(AUDIT, `u/${org}/${event.actor.id}/${event.id}`, 0);
    tx.put(AUDIT, `t/${org}/${event.target.id}/${event.id}`, 0);
  }
  tx.put(AUDIT, `e/${org}/~i`, { upTo: (events.at(-1) as [string, { id: string }])[1].id });
}

describe('audit events: index rows written in batches', () => {
  /** `n` space updates by two users, a minute apart; the spaces' ids. */
  async function updates(n: number) {
    const { h, list } = await audited();
    const other = await h.member('ed@acme.test', 'admin');
    const spaces = [await h.createSpace('A'), await h.createSpace('B')];
    for (let i = 0; i < n; i++) {
      h.clock.advance(60_000);
      await h.ok(i % 3 === 0 ? other : h.adminId, 'updateSpaceById', { params: { spaceId: (spaces[i % 2] as { id: string }).id }, body: { title: `T${i}` } });
    }
    return { h, list, other, spaces: spaces as Array<{ id: string }> };
  }
  const indexRows = (h: { store: { read(): StoreReader } }, org: string) =>
    ['a', 'u', 't'].reduce((sum, kind) => sum + h.store.read().scan(AUDIT, { prefix: `${kind}/${org}/` }).length, 0);
  const mark = (h: { store: { read(): StoreReader } }, org: string) => h.store.read().get<{ upTo: string }>(AUDIT, `e/${org}/~i`);

  it('an event writes its row and the counter; every INDEX_BATCH-th writes the index rows of the events since the last', async () => {
    const { h, spaces } = await updates(INDEX_BATCH - 8);
    const counter = () => h.store.read().get<number>(AUDIT_RECENT, `e/${h.orgId}/~`) as number;
    const recentEvents = () => h.store.read().scan(AUDIT_RECENT, { prefix: `e/${h.orgId}/` }).length - 1; // less the counter
    const update = (title: string) => h.admin.ok('updateSpaceById', { params: { spaceId: (spaces[0] as { id: string }).id }, body: { title } });
    while (counter() < INDEX_BATCH - 1) await update(`U${counter()}`);
    expect(indexRows(h, h.orgId)).toBe(0);
    expect(mark(h, h.orgId)).toEqual({ upTo: '' });
    // Not indexed yet: in auditRecent, none in the log.
    expect(recentEvents()).toBe(INDEX_BATCH - 1);
    expect(h.store.read().scan(AUDIT, { prefix: `e/${h.orgId}/` }).filter(([key]) => !key.includes('/~'))).toHaveLength(0);
    await update('Last of the batch');
    expect(recentEvents()).toBe(0); // moved into the log
    // Every event so far indexed together: action, actor, target (the invitation's target is the organization: no target row).
    expect(indexRows(h, h.orgId)).toBe(3 * INDEX_BATCH - 1);
    const [newest] = h.store.read().scan<{ id: string }>(AUDIT, { prefix: `e/${h.orgId}/`, after: `e/${h.orgId}/~`, reverse: true, limit: 1 });
    expect(mark(h, h.orgId)).toEqual({ upTo: newest?.[1].id });
    await update('After');
    expect(indexRows(h, h.orgId)).toBe(3 * INDEX_BATCH - 1);
    expect(recentEvents()).toBe(1);
  });

  it('reads a log written before auditRecent (its counter and unindexed events in the log), and moves them on', async () => {
    const { h, list, spaces } = await updates(5);
    const org = h.orgId;
    // The layout before auditRecent: every event and the counter in the log.
    await h.store.transact((tx) => {
      for (const [key, row] of tx.scan(AUDIT_RECENT, { prefix: `e/${org}/` })) {
        tx.put(AUDIT, key, row);
        tx.delete(AUDIT_RECENT, key);
      }
    });
    const before = await list({ limit: '100' });
    expect(before.count).toBe(8); // the member's invitation, two creates, five updates
    const a = (spaces[0] as { id: string }).id;
    expect((await list({ target: a })).items.map((e) => e.target.label)).toEqual(['T4', 'T2', 'T0', 'A']);
    h.clock.advance(60_000);
    await h.admin.ok('updateSpaceById', { params: { spaceId: a }, body: { title: 'Next' } });
    const after = await list({ limit: '100' });
    expect(after.count).toBe(9);
    expect(after.items.map((e) => e.id)).toEqual([after.items[0]?.id, ...before.items.map((e) => e.id)]);
    expect(h.store.read().get(AUDIT, `e/${org}/~`)).toBeUndefined(); // the counter moved
    expect(h.store.read().get(AUDIT_RECENT, `e/${org}/~`)).toBe(9);
    // The next batch indexes the old unindexed events where they are, and moves the recent ones.
    while ((h.store.read().get<number>(AUDIT_RECENT, `e/${org}/~`) as number) % INDEX_BATCH !== 0) {
      h.clock.advance(1000);
      await h.admin.ok('updateSpaceById', { params: { spaceId: a }, body: { title: 'More' } });
    }
    expect(h.store.read().scan(AUDIT_RECENT, { prefix: `e/${org}/` })).toHaveLength(1); // the counter alone
    const targeted = await list({ target: a, limit: '100' });
    expect(targeted.items.map((e) => e.target.label).slice(-5)).toEqual(['Next', 'T4', 'T2', 'T0', 'A']);
  });

  it('filters and pages the same across the index mark as a scan of every event would', async () => {
    const { h, list, other, spaces } = await updates(INDEX_BATCH + 30);
    expect(mark(h, h.orgId)?.upTo).not.toBe('');
    const all: Event[] = [];
    for (let page: string | undefined, first = true; first || page; first = false) {
      const answer = await list({ limit: '50', ...(page ? { page } : {}) });
      all.push(...answer.items);
      page = answer.next?.page;
    }
    expect(all).toHaveLength(INDEX_BATCH + 33);
    const expected = (keep: (e: Event) => boolean) => all.filter(keep).map((e) => e.id);
    const listed = async (query: Record<string, string>) => {
      const ids: string[] = [];
      for (let page: string | undefined, first = true; first || page; first = false) {
        const answer = await list({ limit: '7', ...query, ...(page ? { page } : {}) });
        ids.push(...answer.items.map((e) => e.id));
        page = answer.next?.page;
      }
      return ids;
    };
    expect(await listed({ actor: other })).toEqual(expected((e) => e.actor.id === other));
    expect(await listed({ target: (spaces[1] as { id: string }).id })).toEqual(expected((e) => e.target.id === spaces[1]?.id));
    expect(await listed({ action: 'updateSpaceById', actor: h.adminId })).toEqual(expected((e) => e.action === 'updateSpaceById' && e.actor.id === h.adminId));
    const from = '2026-01-01T00:40:00Z';
    const to = '2026-01-01T01:20:00Z';
    const inRange = (e: Event) => e.occurredAt >= new Date(from).toISOString() && e.occurredAt <= new Date(to).toISOString();
    expect(await listed({ action: 'updateSpaceById', from, to })).toEqual(expected((e) => e.action === 'updateSpaceById' && inRange(e)));
    expect(expected((e) => e.action === 'updateSpaceById' && inRange(e)).length).toBeGreaterThan(30);
  });

  it('an event recorded below the mark (the clock went back) is indexed at once', async () => {
    const { h, list, spaces } = await updates(INDEX_BATCH);
    h.clock.advance(-24 * 3600_000);
    await h.admin.ok('updateSpaceById', { params: { spaceId: (spaces[0] as { id: string }).id }, body: { title: 'Yesterday' } });
    const found = await list({ target: (spaces[0] as { id: string }).id, limit: '100' });
    expect(found.items.at(-1)?.target.label).toBe('Yesterday');
  });

  it('reads a log whose every event was indexed when written (no mark), and marks it at its next event', async () => {
    const { h, list, spaces } = await updates(3);
    // Before marks: index rows for every event, no mark row.
    await h.store.transact((tx) => {
      indexThrough(tx, h.orgId);
      tx.delete(AUDIT, `e/${h.orgId}/~i`);
      tx.put(AUDIT, `e/${h.orgId}/~`, tx.get(AUDIT_RECENT, `e/${h.orgId}/~`));
      tx.delete(AUDIT_RECENT, `e/${h.orgId}/~`);
    });
    const a = (spaces[0] as { id: string }).id;
    const before = (await list({ target: a })).items.map((e) => e.target.label);
    expect(before).toEqual(['T2', 'T0', 'A']);
    h.clock.advance(60_000);
    await h.admin.ok('updateSpaceById', { params: { spaceId: a }, body: { title: 'Next' } });
    expect((await list({ target: a })).items.map((e) => e.target.label)).toEqual(['Next', ...before]);
    expect(mark(h, h.orgId)?.upTo).not.toBe('');
  });
});

describe('audit events: an append costs the same at 1× and 1,000× the log', () => {
  /** Rows and bytes a space create puts, with `events` audit events recorded before it. */
  async function createCost(events: number) {
    const h = await contentSetup();
    const { recordAudit } = await import('../../src/domain/audit-records.js');
    await h.store.transact((tx) => {
      for (let i = 0; i < events; i++) {
        recordAudit(tx, h.clock, {
          routeId: i % 2 ? 'createSpace' : 'updateSpaceById',
          method: 'POST',
          params: { organizationId: h.orgId },
          body: { title: 'x' },
          answer: { object: 'space', id: `seed${i}`, title: `Seed ${i}` },
          status: 201,
          actor: { userId: h.adminId },
          access: { userId: h.adminId, organizationId: h.orgId, role: 'admin' },
          source: 'script',
        });
      }
    });
    const puts: Array<{ table: string; bytes: number }> = [];
    const transact = h.store.transact.bind(h.store);
    h.store.transact = ((fn, options) =>
      transact((tx) => {
        const put = tx.put.bind(tx);
        tx.put = (table: string, key: string, value: unknown) => {
          puts.push({ table, bytes: JSON.stringify(value).length });
          put(table, key, value);
        };
        return fn(tx);
      }, options)) as typeof h.store.transact;
    await h.createSpace('New');
    const audit = puts.filter((p) => p.table === AUDIT || p.table === AUDIT_RECENT);
    return { rows: puts.length, auditRows: audit.length, auditBytes: audit.reduce((sum, p) => sum + p.bytes, 0) };
  }

  it('a space create adds 2 audit rows (event, sequence) of under 1 KiB, whatever the log holds', async () => {
    const empty = await createCost(1);
    const large = await createCost(1001);
    expect(empty.auditRows).toBe(2);
    expect(large).toEqual({ ...empty, auditBytes: large.auditBytes });
    expect(large.auditBytes).toBeLessThanOrEqual(empty.auditBytes + 8);
    expect(empty.auditBytes).toBeLessThan(1024);
  });
});

describe('audit events: a write that changes nothing', () => {
  it('records nothing and commits nothing (no new store generation)', async () => {
    const { h, actions } = await audited();
    const space = await h.createSpace('Handbook');
    const collection = await h.createCollection({ title: 'Guides' });
    await h.admin.ok('moveSpace', { params: { spaceId: space.id }, body: { parent: collection.id } });
    const gen = h.store.read().gen;
    await h.admin.call('moveSpace', { params: { spaceId: space.id }, body: { parent: collection.id } }).catch(() => undefined);
    expect(h.store.read().gen).toBe(gen);
    expect(await actions()).toEqual(['moveSpace', 'createCollection', 'createSpace']);
  });
});
