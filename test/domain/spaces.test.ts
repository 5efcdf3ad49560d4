import { describe, expect, it } from 'vitest';
import { orgSpaceList } from '../../src/domain/core-records.js';
import { DAY, type List, ORIGIN, setup } from './harness.js';

const sp = (id: string) => ({ params: { spaceId: id } });

describe('createSpace', () => {
  it('creates at the root with the defaults, 201 with Location, and a primary revision', async () => {
    const h = await setup();
    const res = await h.admin.call('createSpace', { params: { organizationId: h.orgId } });
    expect(res.status).toBe(201);
    const s = res.body as Record<string, unknown> & { id: string; revision: string };
    expect(res.headers.Location).toBe(`${ORIGIN}/v1/spaces/${s.id}`);
    expect(s).toEqual({
      object: 'space',
      id: s.id,
      title: 'Untitled',
      emoji: '',
      visibility: 'private',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      urls: { location: `${ORIGIN}/v1/spaces/${s.id}`, app: `${ORIGIN}/app/o/${h.orgId}/s/${s.id}` },
      organization: h.orgId,
      revision: s.revision,
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: {
        view: true, access: true, admin: true, viewInviteLinks: true, edit: true,
        triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: true,
      },
    });
    expect(h.store.read().get('revisions', `${s.id}/${s.revision}`)).toEqual({
      id: s.revision, space: s.id, type: 'edits', parents: [], createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(h.children(`org:${h.orgId}`)).toEqual([`space:${s.id}`]);
  });

  it('creates in a collection (visibility in-collection) with title, emoji, language, editMode', async () => {
    const h = await setup();
    const c = await h.createCollection();
    const s = await h.createSpace({ title: 'Guide', emoji: '📘', parent: c.id, language: 'fr', editMode: 'locked' });
    expect(s).toMatchObject({ title: 'Guide', emoji: '📘', parent: c.id, language: 'fr', editMode: 'locked', visibility: 'in-collection' });
    expect(h.children(`col:${c.id}`)).toEqual([`space:${s.id}`]);
  });

  it.each([
    ['a title over 50', { title: 'x'.repeat(51) }, /title/],
    ['an unknown parent', { parent: 'nope' }, /Invalid parent: collection nope not found/],
    ['an unknown language', { language: 'xx' }, /language/],
    ['an unknown editMode', { editMode: 'open' }, /editMode/],
  ])('rejects %s with 400', async (_name, body, message) => {
    const h = await setup();
    await h.admin.fails('createSpace', { params: { organizationId: h.orgId }, body }, 400, message);
  });

  it('needs create (403) and membership (404)', async () => {
    const h = await setup();
    const editor = await h.member('e@acme.test', 'edit');
    await h.fails(editor, 'createSpace', { params: { organizationId: h.orgId }, body: {} }, 403, /"create" role .* \(your role: edit\)/);
    await h.fails('stranger', 'createSpace', { params: { organizationId: h.orgId }, body: {} }, 404);
    const creator = await h.member('c@acme.test', 'create');
    expect((await h.ok(creator, 'createSpace', { params: { organizationId: h.orgId }, body: {} })).organization).toBe(h.orgId);
  });
});

describe('getSpaceById / permissions', () => {
  it.each([
    ['admin', { admin: true, edit: true, merge: true, review: true, comment: true, viewInviteLinks: true, installIntegration: true }],
    ['create', { admin: true, edit: true, viewInviteLinks: false, installIntegration: false }],
    ['edit', { admin: false, edit: true, merge: true, triggerGitSync: true }],
    ['review', { admin: false, edit: false, merge: false, review: true, comment: true }],
    ['comment', { edit: false, review: false, comment: true, view: true }],
    ['read', { view: true, access: true, admin: false, edit: false, comment: false, merge: false, review: false, triggerGitSync: false }],
  ])('permissions reflect the %s role', async (role, expected) => {
    const h = await setup();
    const s = await h.createSpace();
    const user = role === 'admin' ? h.adminId : await h.member(`${role}@acme.test`, role);
    const view = await h.ok(user, 'getSpaceById', sp(s.id));
    expect(view.permissions).toMatchObject(expected);
  });

  it('hides spaces from non-members (404) and refuses guests (403)', async () => {
    const h = await setup();
    const s = await h.createSpace();
    const guest = await h.member('g@acme.test', null);
    await h.fails('stranger', 'getSpaceById', sp(s.id), 404, new RegExp(`Space ${s.id} not found`));
    await h.fails(guest, 'getSpaceById', sp(s.id), 403);
    await h.admin.fails('getSpaceById', sp('nope'), 404, /Space nope not found/);
  });

  it('a read member cannot change anything (403)', async () => {
    const h = await setup();
    const s = await h.createSpace();
    const reader = await h.member('r@acme.test', 'read');
    await h.fails(reader, 'updateSpaceById', { ...sp(s.id), body: { title: 'x' } }, 403);
    await h.fails(reader, 'deleteSpaceById', sp(s.id), 403);
    await h.fails(reader, 'duplicateSpace', sp(s.id), 403);
    await h.fails(reader, 'moveSpace', { ...sp(s.id), body: { parent: null } }, 403);
    await h.fails(reader, 'transferSpace', { ...sp(s.id), body: { organization: h.orgId } }, 403);
    await h.fails(reader, 'restoreSpace', sp(s.id), 403);
  });
});

describe('updateSpaceById', () => {
  it('updates the given fields and updatedAt', async () => {
    const h = await setup();
    const s = await h.createSpace({ title: 'Old' });
    h.clock.advance(60_000);
    const u = await h.admin.ok('updateSpaceById', {
      ...sp(s.id),
      body: { title: 'New', emoji: '🎉', editMode: 'locked', defaultLevel: 'comment', language: 'de', mergeRules: { type: 'none' } },
    });
    expect(u).toMatchObject({
      title: 'New', emoji: '🎉', editMode: 'locked', defaultLevel: 'comment', language: 'de',
      mergeRules: { type: 'none' }, createdAt: s.createdAt, updatedAt: '2026-01-01T00:01:00.000Z',
    });
    expect(await h.admin.ok('getSpaceById', sp(s.id))).toEqual(u);
  });

  it('emoji and icon are exclusive; null clears', async () => {
    const h = await setup();
    const s = await h.createSpace({ emoji: '📘' });
    const withIcon = await h.admin.ok('updateSpaceById', { ...sp(s.id), body: { icon: 'https://example.com/i.png' } });
    expect(withIcon).toMatchObject({ emoji: '', urls: { icon: 'https://example.com/i.png' } });
    const withEmoji = await h.admin.ok('updateSpaceById', { ...sp(s.id), body: { emoji: '🚀' } });
    expect(withEmoji.emoji).toBe('🚀');
    expect((withEmoji.urls as Record<string, unknown>).icon).toBeUndefined();
    const cleared = await h.admin.ok('updateSpaceById', { ...sp(s.id), body: { emoji: null, icon: null } });
    expect(cleared.emoji).toBe('');
    await h.admin.fails('updateSpaceById', { ...sp(s.id), body: { emoji: '🚀', icon: 'https://example.com/i.png' } }, 400, /either emoji or icon/);
  });

  it.each([
    ['an empty body', {}, /Nothing to update/],
    ['a title over 50', { title: 'y'.repeat(51) }, /title/],
    ['a bad defaultLevel', { defaultLevel: 'owner' }, /defaultLevel/],
  ])('rejects %s with 400', async (_name, body, message) => {
    const h = await setup();
    const s = await h.createSpace();
    await h.admin.fails('updateSpaceById', { ...sp(s.id), body }, 400, message);
  });
});

describe('delete and restore', () => {
  async function withSpaces() {
    const h = await setup();
    const c = await h.createCollection();
    const a = await h.createSpace({ title: 'a', parent: c.id });
    const b = await h.createSpace({ title: 'b', parent: c.id });
    const r = await h.createSpace({ title: 'root' });
    return { h, c, a, b, r };
  }
  const orgList = async (h: Awaited<ReturnType<typeof setup>>) =>
    h.admin.ok<List>('listSpacesInOrganizationById', { params: { organizationId: h.orgId } });

  it('soft-deletes (205): still readable with deletedAt, out of lists and of its collection; 204 the second time', async () => {
    const { h, c, a, b, r } = await withSpaces();
    h.clock.advance(1000);
    const res = await h.admin.call('deleteSpaceById', sp(a.id));
    expect(res.status).toBe(205);
    const got = await h.admin.ok('getSpaceById', sp(a.id));
    expect(got.deletedAt).toBe('2026-01-01T00:00:01.000Z');
    expect(h.children(`col:${c.id}`)).toEqual([`space:${b.id}`]);
    const list = await orgList(h);
    expect(list.items.map((s) => s.id)).toEqual([b.id, r.id]);
    expect(list.count).toBe(2);
    expect((await h.admin.call('deleteSpaceById', sp(a.id))).status).toBe(204);
    expect((await h.admin.call('deleteSpaceById', sp('nope'))).status).toBe(204);
    expect((await h.call('stranger', 'deleteSpaceById', sp(b.id))).status).toBe(204);
    await h.admin.fails('updateSpaceById', { ...sp(a.id), body: { title: 'x' } }, 404, /restore it first/);
    await h.admin.fails('moveSpace', { ...sp(a.id), body: { parent: null } }, 404, /restore it first/);
    await h.admin.fails('duplicateSpace', sp(a.id), 404, /restore it first/);
  });

  it('restores within 7 days (6d23h) to the end of its collection', async () => {
    const { h, c, a, b } = await withSpaces();
    await h.admin.call('deleteSpaceById', sp(a.id));
    h.clock.advance(6 * DAY + 23 * 60 * 60 * 1000);
    const restored = await h.admin.ok('restoreSpace', sp(a.id), 200);
    expect(restored.deletedAt).toBeUndefined();
    expect(restored).toMatchObject({ parent: c.id, visibility: 'in-collection' });
    expect(h.children(`col:${c.id}`)).toEqual([`space:${b.id}`, `space:${a.id}`]);
    expect((await orgList(h)).count).toBe(3);
  });

  it('restores at exactly 7 days', async () => {
    const { h, a } = await withSpaces();
    await h.admin.call('deleteSpaceById', sp(a.id));
    h.clock.advance(7 * DAY);
    expect((await h.admin.ok('restoreSpace', sp(a.id))).deletedAt).toBeUndefined();
  });

  it('after 7 days + 1 ms: restore is 404 "permanently deleted", get is 404, and the next write purges it', async () => {
    const { h, a } = await withSpaces();
    await h.admin.call('deleteSpaceById', sp(a.id));
    h.clock.advance(7 * DAY + 1);
    await h.admin.fails('restoreSpace', sp(a.id), 404, /was permanently deleted/);
    await h.admin.fails('getSpaceById', sp(a.id), 404, new RegExp(`Space ${a.id} not found`));
    expect(h.store.read().get('spaces', a.id)).toBeDefined();
    await h.createSpace({ title: 'later' });
    const reader = h.store.read();
    expect(reader.get('spaces', a.id)).toBeUndefined();
    expect(reader.get('revisions', `${a.id}/${a.revision}`)).toBeUndefined();
    expect(orgSpaceList.has(reader, h.orgId, a.id)).toBe(false);
    expect(reader.scan('orgTrash', { prefix: `${h.orgId}/` })).toEqual([]);
    await h.admin.fails('restoreSpace', sp(a.id), 404, /not found/);
    expect((await h.admin.call('deleteSpaceById', sp(a.id))).status).toBe(204);
  });

  it('restoring a space that is not deleted answers it unchanged (200)', async () => {
    const { h, a } = await withSpaces();
    h.clock.advance(DAY);
    const gen = h.store.read().gen;
    const res = await h.admin.ok('restoreSpace', sp(a.id), 200);
    expect(res).toEqual(await h.admin.ok('getSpaceById', sp(a.id)));
    expect(res.updatedAt).toBe(a.updatedAt);
    expect(h.store.read().gen).toBe(gen);
  });

  it('restores to the organization root (private) when its collection is gone', async () => {
    const { h, c, a, r } = await withSpaces();
    await h.admin.call('deleteSpaceById', sp(a.id));
    await h.admin.call('deleteCollectionById', { params: { collectionId: c.id } });
    const restored = await h.admin.ok('restoreSpace', sp(a.id));
    expect(restored.parent).toBeUndefined();
    expect(restored.visibility).toBe('private');
    expect(h.children(`org:${h.orgId}`)).toEqual([`space:${r.id}`, `space:${a.id}`]);
  });

  it('restore of an unknown or hidden space is 404', async () => {
    const { h, a } = await withSpaces();
    await h.admin.fails('restoreSpace', sp('nope'), 404);
    await h.fails('stranger', 'restoreSpace', sp(a.id), 404);
  });
});

describe('duplicateSpace', () => {
  it('copies right after the source, with a new revision whose parent is the source revision', async () => {
    const h = await setup();
    const c = await h.createCollection();
    const a = await h.createSpace({ title: 'a', parent: c.id, emoji: '📘', language: 'fr' });
    const b = await h.createSpace({ title: 'b', parent: c.id });
    h.clock.advance(5000);
    const res = await h.admin.call('duplicateSpace', sp(a.id));
    expect(res.status).toBe(201);
    const d = res.body as Record<string, unknown> & { id: string; revision: string };
    expect(res.headers.Location).toBe(`${ORIGIN}/v1/spaces/${d.id}`);
    expect(d).toMatchObject({
      title: 'a (copy)', emoji: '📘', language: 'fr', parent: c.id, organization: h.orgId,
      visibility: 'in-collection', createdAt: '2026-01-01T00:00:05.000Z', comments: 0, changeRequests: 0,
    });
    expect(d.id).not.toBe(a.id);
    expect(d.revision).not.toBe(a.revision);
    expect(h.children(`col:${c.id}`)).toEqual([`space:${a.id}`, `space:${d.id}`, `space:${b.id}`]);
    expect(h.store.read().get('revisions', `${d.id}/${d.revision}`)).toMatchObject({
      id: d.revision, space: d.id, parents: [a.revision], type: 'edits',
    });
    const list = await h.admin.ok<List>('listSpacesInOrganizationById', { params: { organizationId: h.orgId } });
    expect(list.items.map((s) => s.id)).toEqual([a.id, b.id, d.id]);
  });

  it('truncates the title to 50 characters', async () => {
    const h = await setup();
    const a = await h.createSpace({ title: 'x'.repeat(48) });
    const d = await h.admin.ok('duplicateSpace', sp(a.id), 201);
    expect(d.title).toBe(`${'x'.repeat(48)} (`);
    expect((d.title as string).length).toBe(50);
  });
});

describe('moveSpace', () => {
  async function layout() {
    const h = await setup();
    const c = await h.createCollection({ title: 'C' });
    const d = await h.createCollection({ title: 'D' });
    const s1 = await h.createSpace({ title: 's1' });
    const s2 = await h.createSpace({ title: 's2' });
    const inC = await h.createSpace({ title: 'inC', parent: c.id });
    return { h, c, d, s1, s2, inC, root: () => h.children(`org:${h.orgId}`) };
  }

  it('moves into a collection before/after a sibling, and to the root (in-collection → private)', async () => {
    const { h, c, d, s1, s2, inC, root } = await layout();
    const moved = await h.admin.ok('moveSpace', { ...sp(s1.id), body: { parent: c.id, position: { before: { type: 'space', space: inC.id } } } });
    expect(moved).toMatchObject({ parent: c.id, visibility: 'private' });
    expect(h.children(`col:${c.id}`)).toEqual([`space:${s1.id}`, `space:${inC.id}`]);
    expect(root()).toEqual([`collection:${c.id}`, `collection:${d.id}`, `space:${s2.id}`]);
    const out = await h.admin.ok('moveSpace', { ...sp(inC.id), body: { parent: null, position: { after: { type: 'collection', collection: c.id } } } });
    expect(out.parent).toBeUndefined();
    expect(out.visibility).toBe('private');
    expect(root()).toEqual([`collection:${c.id}`, `space:${inC.id}`, `collection:${d.id}`, `space:${s2.id}`]);
  });

  it('reorders within the same parent', async () => {
    const { h, c, d, s1, s2, root } = await layout();
    await h.admin.ok('moveSpace', { ...sp(s2.id), body: { position: { before: { type: 'collection', collection: c.id } } } });
    expect(root()).toEqual([`space:${s2.id}`, `collection:${c.id}`, `collection:${d.id}`, `space:${s1.id}`]);
  });

  it.each([
    ['a no-op before', (t: Awaited<ReturnType<typeof layout>>) => ({ id: t.s1.id, body: { position: { before: { type: 'space', space: t.s2.id } } } }), 409, /would not result in any update/],
    ['a no-op parent (already last)', (t: Awaited<ReturnType<typeof layout>>) => ({ id: t.s2.id, body: { parent: null } }), 409, /would not result in any update/],
    ['a pointer outside the target parent', (t: Awaited<ReturnType<typeof layout>>) => ({ id: t.s1.id, body: { parent: t.d.id, position: { after: { type: 'space', space: t.inC.id } } } }), 400, /Invalid position/],
    ['before and after', (t: Awaited<ReturnType<typeof layout>>) => ({ id: t.s1.id, body: { position: { before: { type: 'space', space: t.s2.id }, after: { type: 'space', space: t.s2.id } } } }), 400, /not both/],
    ['an unknown parent', (t: Awaited<ReturnType<typeof layout>>) => ({ id: t.s1.id, body: { parent: 'nope' } }), 400, /Invalid parent/],
    ['a parent that is a space', (t: Awaited<ReturnType<typeof layout>>) => ({ id: t.s1.id, body: { parent: t.s2.id } }), 400, /Invalid parent/],
    ['an empty body', (t: Awaited<ReturnType<typeof layout>>) => ({ id: t.s1.id, body: {} }), 400, /Nothing to move/],
  ])('%s', async (_name, make, status, message) => {
    const t = await layout();
    const { id, body } = make(t);
    await t.h.admin.fails('moveSpace', { ...sp(id), body }, status, message);
  });

  it('refuses a parent collection of another organization (400)', async () => {
    const t = await layout();
    const other = await t.h.createOrg('Other', { [t.h.adminId]: 'admin' });
    const foreign = await t.h.createCollection({}, other);
    await t.h.admin.fails('moveSpace', { ...sp(t.s1.id), body: { parent: foreign.id } }, 400, /Invalid parent/);
  });
});

describe('transferSpace', () => {
  async function orgs() {
    const h = await setup();
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const c = await h.createCollection({ title: 'here' });
    const target = await h.createCollection({ title: 'there' }, other);
    const s = await h.createSpace({ title: 's', parent: c.id });
    return { h, other, c, target, s };
  }

  it('moves to another organization (root or a collection) and updates both listings', async () => {
    const { h, other, c, target, s } = await orgs();
    const moved = await h.admin.ok('transferSpace', { ...sp(s.id), body: { organization: other, collection: target.id } });
    expect(moved).toMatchObject({ organization: other, parent: target.id });
    expect(h.children(`col:${c.id}`)).toEqual([]);
    expect(h.children(`col:${target.id}`)).toEqual([`space:${s.id}`]);
    const there = await h.admin.ok<List>('listSpacesInOrganizationById', { params: { organizationId: other } });
    expect(there.items.map((x) => x.id)).toEqual([s.id]);
    const here = await h.admin.ok<List>('listSpacesInOrganizationById', { params: { organizationId: h.orgId } });
    expect(here.count).toBe(0);
    const back = await h.admin.ok('transferSpace', { ...sp(s.id), body: { organization: h.orgId } });
    expect(back).toMatchObject({ organization: h.orgId, visibility: 'private' });
    expect(back.parent).toBeUndefined();
    expect(h.children(`org:${h.orgId}`).at(-1)).toBe(`space:${s.id}`);
  });

  it('moves between collections of one organization', async () => {
    const { h, c, s } = await orgs();
    const d = await h.createCollection({ title: 'd' });
    const moved = await h.admin.ok('transferSpace', { ...sp(s.id), body: { organization: h.orgId, collection: d.id } });
    expect(moved.parent).toBe(d.id);
    expect(h.children(`col:${c.id}`)).toEqual([]);
  });

  it('409 when nothing changes, 404 for an unknown org, 400 for a collection of another org, 403 without admin', async () => {
    const { h, other, c, target, s } = await orgs();
    await h.admin.fails('transferSpace', { ...sp(s.id), body: { organization: h.orgId, collection: c.id } }, 409, /would not result in any update/);
    await h.admin.fails('transferSpace', { ...sp(s.id), body: { organization: 'nope' } }, 404, /Organization nope not found/);
    await h.admin.fails('transferSpace', { ...sp(s.id), body: { organization: h.orgId, collection: target.id } }, 400, /Invalid collection/);
    const readOnly = await h.createOrg('RO', { [h.adminId]: 'create' });
    await h.admin.fails('transferSpace', { ...sp(s.id), body: { organization: readOnly } }, 403, /"admin" role/);
    const creator = await h.member('c@acme.test', 'create');
    await h.fails(creator, 'transferSpace', { ...sp(s.id), body: { organization: other } }, 403, /"admin" role/);
    await h.admin.fails('transferSpace', { ...sp(s.id), body: {} }, 400, /organization/);
  });
});

describe('listSpacesInOrganizationById', () => {
  it('lists non-deleted spaces at any depth in creation order, paginated', async () => {
    const h = await setup();
    const c = await h.createCollection();
    const inner = await h.createCollection({ parent: c.id });
    const ids: string[] = [];
    ids.push((await h.createSpace({ title: '0' })).id);
    ids.push((await h.createSpace({ title: '1', parent: c.id })).id);
    ids.push((await h.createSpace({ title: '2', parent: inner.id })).id);
    ids.push((await h.createSpace({ title: '3' })).id);
    ids.push((await h.createSpace({ title: '4' })).id);
    await h.admin.call('deleteSpaceById', sp(ids[3] as string));
    await h.admin.ok('moveSpace', { ...sp(ids[0] as string), body: { parent: c.id } });
    const expected = [ids[0], ids[1], ids[2], ids[4]];
    const org = { params: { organizationId: h.orgId } };
    const first = await h.admin.ok<List>('listSpacesInOrganizationById', { ...org, query: { limit: '3' } });
    expect(first.count).toBe(4);
    const second = await h.admin.ok<List>('listSpacesInOrganizationById', { ...org, query: { limit: '3', page: first.next?.page } });
    expect(second.next).toBeUndefined();
    expect([...first.items, ...second.items].map((s) => s.id)).toEqual(expected);
    const zero = await h.admin.ok<List>('listSpacesInOrganizationById', { ...org, query: { limit: '0' } });
    expect(zero).toEqual({ count: 4, items: [] });
    const reader = await h.member('r@acme.test', 'read');
    const asReader = await h.ok<List>(reader, 'listSpacesInOrganizationById', org);
    expect(asReader.items[0]?.permissions).toMatchObject({ view: true, edit: false });
    await h.fails('stranger', 'listSpacesInOrganizationById', org, 404);
  });
});

describe('counters', () => {
  it('are kept by move, transfer, delete and restore, and start at 0 on a duplicate', async () => {
    const h = await setup();
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const c = await h.createCollection();
    const s = await h.createSpace();
    const counters = { comments: 3, changeRequests: 5, changeRequestsOpen: 2, changeRequestsDraft: 1 };
    await h.store.transact((tx) => {
      const record = tx.get<Record<string, unknown>>('spaces', s.id);
      tx.put('spaces', s.id, { ...record, counters });
    });
    const expectCounters = (view: Record<string, unknown>) => expect(view).toMatchObject(counters);
    expectCounters(await h.admin.ok('moveSpace', { ...sp(s.id), body: { parent: c.id } }));
    expectCounters(await h.admin.ok('transferSpace', { ...sp(s.id), body: { organization: other } }));
    await h.admin.call('deleteSpaceById', sp(s.id));
    expectCounters(await h.admin.ok('getSpaceById', sp(s.id)));
    expectCounters(await h.admin.ok('restoreSpace', sp(s.id)));
    const copy = await h.admin.ok('duplicateSpace', sp(s.id));
    expect(copy).toMatchObject({ comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
  });
});
