import { describe, expect, it } from 'vitest';
import { DAY, type List, ORIGIN, setup } from './harness.js';

const col = (id: string) => ({ params: { collectionId: id } });

describe('createCollection / getCollectionById', () => {
  it('creates at the root with defaults, answers 201 with Location', async () => {
    const h = await setup();
    const res = await h.admin.call('createCollection', { params: { organizationId: h.orgId } });
    expect(res.status).toBe(201);
    const c = res.body as Record<string, unknown> & { id: string };
    expect(res.headers.Location).toBe(`${ORIGIN}/v1/collections/${c.id}`);
    expect(c).toEqual({
      object: 'collection',
      id: c.id,
      title: 'Untitled',
      organization: h.orgId,
      defaultLevel: 'inherit',
      urls: { location: `${ORIGIN}/v1/collections/${c.id}`, app: `${ORIGIN}/app/o/${h.orgId}/c/${c.id}` },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    expect(h.children(`org:${h.orgId}`)).toEqual([`collection:${c.id}`]);
    expect(await h.admin.ok('getCollectionById', col(c.id))).toEqual(c);
  });

  it('nests collections under a parent of the same organization', async () => {
    const h = await setup();
    const parent = await h.createCollection({ title: 'Guides' });
    const child = await h.createCollection({ title: 'Setup', parent: parent.id });
    expect(child).toMatchObject({ title: 'Setup', parent: parent.id });
    expect(h.children(`col:${parent.id}`)).toEqual([`collection:${child.id}`]);
    expect(h.children(`org:${h.orgId}`)).toEqual([`collection:${parent.id}`]);
  });

  it.each([
    ['a title over 50 characters', { title: 'x'.repeat(51) }, 400, /title/],
    ['an unknown parent', { parent: 'nope' }, 400, /Invalid parent: collection nope not found/],
  ])('rejects %s', async (_name, body, status, message) => {
    const h = await setup();
    await h.admin.fails('createCollection', { params: { organizationId: h.orgId }, body }, status, message);
  });

  it('rejects a parent from another organization (400)', async () => {
    const h = await setup();
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const foreign = await h.createCollection({}, other);
    await h.admin.fails('createCollection', { params: { organizationId: h.orgId }, body: { parent: foreign.id } }, 400, /parent/);
  });

  it('permissions: admin vs read member vs non-member vs guest', async () => {
    const h = await setup();
    const c = await h.createCollection({ title: 'Docs' });
    const reader = await h.member('r@acme.test', 'read');
    const guest = await h.member('g@acme.test', null);
    const asReader = await h.ok(reader, 'getCollectionById', col(c.id));
    expect(asReader.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    await h.fails(reader, 'createCollection', { params: { organizationId: h.orgId }, body: {} }, 403, /"create" role/);
    await h.fails(reader, 'updateCollectionById', { ...col(c.id), body: { title: 'x' } }, 403);
    await h.fails(reader, 'moveCollection', { ...col(c.id), body: { parent: null } }, 403);
    await h.fails(reader, 'deleteCollectionById', col(c.id), 403);
    await h.fails(guest, 'getCollectionById', col(c.id), 403, /"read" role/);
    await h.fails('stranger', 'getCollectionById', col(c.id), 404, new RegExp(`Collection ${c.id} not found`));
    await h.fails('stranger', 'createCollection', { params: { organizationId: h.orgId }, body: {} }, 404);
    await h.admin.fails('getCollectionById', col('nope'), 404, /Collection nope not found/);
  });
});

describe('updateCollectionById', () => {
  it('updates title, description and defaultLevel', async () => {
    const h = await setup();
    const c = await h.createCollection();
    const updated = await h.admin.ok('updateCollectionById', {
      ...col(c.id),
      body: { title: 'API', description: 'Reference', defaultLevel: 'read' },
    });
    expect(updated).toMatchObject({ title: 'API', description: 'Reference', defaultLevel: 'read' });
    const again = await h.admin.ok('updateCollectionById', { ...col(c.id), body: { defaultLevel: null } });
    expect(again).toMatchObject({ title: 'API', defaultLevel: null });
  });

  it.each([
    ['an empty body', {}, /Nothing to update/],
    ['only unknown fields', { colour: 'red' }, /Nothing to update/],
    ['a description over 100', { description: 'x'.repeat(101) }, /description/],
  ])('rejects %s with 400', async (_name, body, message) => {
    const h = await setup();
    const c = await h.createCollection();
    await h.admin.fails('updateCollectionById', { ...col(c.id), body }, 400, message);
  });

  it('needs a body', async () => {
    const h = await setup();
    const c = await h.createCollection();
    await h.admin.fails('updateCollectionById', col(c.id), 400, /needs a JSON request body/);
  });
});

describe('listCollectionsInOrganizationById', () => {
  it('lists all collections (nested=true by default) or only root ones, in creation order', async () => {
    const h = await setup();
    const a = await h.createCollection({ title: 'A' });
    const b = await h.createCollection({ title: 'B' });
    const a1 = await h.createCollection({ title: 'A1', parent: a.id });
    const c = await h.createCollection({ title: 'C' });
    await h.admin.ok('moveCollection', { ...col(c.id), body: { position: { before: { type: 'collection', collection: a.id } } } });
    const org = { params: { organizationId: h.orgId } };
    const all = await h.admin.ok<List>('listCollectionsInOrganizationById', org);
    expect(all.items.map((x) => x.id)).toEqual([a.id, b.id, a1.id, c.id]);
    expect(all.count).toBe(4);
    const root = await h.admin.ok<List>('listCollectionsInOrganizationById', { ...org, query: { nested: 'false' } });
    expect(root.items.map((x) => x.id)).toEqual([a.id, b.id, c.id]);
    expect(root.count).toBe(3);
    const explicit = await h.admin.ok<List>('listCollectionsInOrganizationById', { ...org, query: { nested: 'true' } });
    expect(explicit.count).toBe(4);
  });

  it('paginates: cursor round trip, count, limit 0, no next on the last page, bad cursor 400, limit > 1000 400', async () => {
    const h = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.createCollection({ title: `C${i}` })).id);
    const org = { params: { organizationId: h.orgId } };
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res: List = await h.admin.ok<List>('listCollectionsInOrganizationById', { ...org, query: { limit: '2', page } });
      expect(res.count).toBe(5);
      seen.push(...res.items.map((x) => x.id));
      page = res.next?.page;
      pages++;
    } while (page);
    expect(seen).toEqual(ids);
    expect(pages).toBe(3);
    const zero = await h.admin.ok<List>('listCollectionsInOrganizationById', { ...org, query: { limit: '0' } });
    expect(zero).toEqual({ count: 5, items: [] });
    const exact = await h.admin.ok<List>('listCollectionsInOrganizationById', { ...org, query: { limit: '5' } });
    expect(exact.items).toHaveLength(5);
    expect(exact.next).toBeUndefined();
    await h.admin.fails('listCollectionsInOrganizationById', { ...org, query: { page: 'garbage' } }, 400, /cursor/);
    await h.admin.fails('listCollectionsInOrganizationById', { ...org, query: { limit: '1001' } }, 400, /limit/);
  });

  it('is 404 for non-members', async () => {
    const h = await setup();
    await h.fails('stranger', 'listCollectionsInOrganizationById', { params: { organizationId: h.orgId } }, 404);
  });
});

describe('listSpacesInCollectionById', () => {
  it('lists the direct child spaces in position order, without deleted ones', async () => {
    const h = await setup();
    const c = await h.createCollection();
    const inner = await h.createCollection({ parent: c.id });
    const s1 = await h.createSpace({ title: 'one', parent: c.id });
    const s2 = await h.createSpace({ title: 'two', parent: c.id });
    const s3 = await h.createSpace({ title: 'three', parent: c.id });
    await h.createSpace({ title: 'deeper', parent: inner.id });
    await h.createSpace({ title: 'root' });
    await h.admin.ok('moveSpace', { params: { spaceId: s3.id }, body: { position: { before: { type: 'space', space: s1.id } } } });
    await h.admin.call('deleteSpaceById', { params: { spaceId: s2.id } });
    const list = await h.admin.ok<List>('listSpacesInCollectionById', col(c.id));
    expect(list.items.map((s) => s.title)).toEqual(['three', 'one']);
    expect(list.count).toBe(2);
    const page = await h.admin.ok<List>('listSpacesInCollectionById', { ...col(c.id), query: { limit: '1' } });
    expect(page.items.map((s) => s.title)).toEqual(['three']);
    const rest = await h.admin.ok<List>('listSpacesInCollectionById', { ...col(c.id), query: { page: page.next?.page } });
    expect(rest.items.map((s) => s.title)).toEqual(['one']);
    expect(rest.next).toBeUndefined();
  });
});

describe('moveCollection', () => {
  /** Root: A, B, C (collections) and S (space); A contains A1 which contains A2. */
  async function tree() {
    const h = await setup();
    const A = (await h.createCollection({ title: 'A' })).id;
    const B = (await h.createCollection({ title: 'B' })).id;
    const C = (await h.createCollection({ title: 'C' })).id;
    const S = (await h.createSpace({ title: 'S' })).id;
    const A1 = (await h.createCollection({ title: 'A1', parent: A })).id;
    const A2 = (await h.createCollection({ title: 'A2', parent: A1 })).id;
    const root = () => h.children(`org:${h.orgId}`);
    return { h, A, B, C, S, A1, A2, root };
  }
  const ptr = (type: 'space' | 'collection', id: string) => (type === 'space' ? { type, space: id } : { type, collection: id });

  it('moves before / after siblings (collections or spaces) at the root', async () => {
    const { h, A, B, C, S, root } = await tree();
    await h.admin.ok('moveCollection', { ...col(C), body: { position: { before: ptr('collection', A) } } });
    expect(root()).toEqual([`collection:${C}`, `collection:${A}`, `collection:${B}`, `space:${S}`]);
    await h.admin.ok('moveCollection', { ...col(C), body: { position: { after: ptr('space', S) } } });
    expect(root()).toEqual([`collection:${A}`, `collection:${B}`, `space:${S}`, `collection:${C}`]);
    await h.admin.ok('moveCollection', { ...col(A), body: { parent: null, position: { after: ptr('collection', B) } } });
    expect(root()).toEqual([`collection:${B}`, `collection:${A}`, `space:${S}`, `collection:${C}`]);
  });

  it('moves into another collection (end by default) and back to the root', async () => {
    const { h, A, B, C, A1, root } = await tree();
    const moved = await h.admin.ok('moveCollection', { ...col(C), body: { parent: A } });
    expect(moved.parent).toBe(A);
    expect(h.children(`col:${A}`)).toEqual([`collection:${A1}`, `collection:${C}`]);
    await h.admin.ok('moveCollection', { ...col(B), body: { parent: A, position: { before: ptr('collection', A1) } } });
    expect(h.children(`col:${A}`)).toEqual([`collection:${B}`, `collection:${A1}`, `collection:${C}`]);
    const back = await h.admin.ok('moveCollection', { ...col(C), body: { parent: null } });
    expect(back.parent).toBeUndefined();
    expect(root().at(-1)).toBe(`collection:${C}`);
    expect(h.children(`col:${A}`)).toEqual([`collection:${B}`, `collection:${A1}`]);
  });

  it('keeps the parent when omitted, and moves to the end when position is omitted', async () => {
    const { h, A, B, C, S, root } = await tree();
    await h.admin.ok('moveCollection', { ...col(A), body: { parent: null } });
    expect(root()).toEqual([`collection:${B}`, `collection:${C}`, `space:${S}`, `collection:${A}`]);
  });

  it.each([
    ['already right before the pointer', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.A, body: { position: { before: ptr('collection', t.B) } } })],
    ['already right after the pointer', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.B, body: { position: { after: ptr('collection', t.A) } } })],
    ['same parent, already last', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.A2, body: { parent: t.A1 } })],
    ['parent omitted, already last at root', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.A1, body: { parent: t.A } })],
  ])('is a 409 when %s', async (_name, make) => {
    const t = await tree();
    const { id, body } = make(t);
    const before = t.h.store.read().gen;
    await t.h.admin.fails('moveCollection', { ...col(id), body }, 409, /would not result in any update/);
    expect(t.h.store.read().gen).toBe(before);
  });

  it.each([
    ['both before and after', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.C, body: { position: { before: ptr('collection', t.A), after: ptr('collection', t.B) } } }), /not both/],
    ['a pointer that is not a sibling in the target', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.C, body: { parent: t.A, position: { before: ptr('collection', t.B) } } }), /Invalid position: collection .* is not in the target parent/],
    ['a pointer to an unknown space', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.C, body: { position: { after: ptr('space', 'nope') } } }), /Invalid position/],
    ['a pointer to itself', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.C, body: { position: { after: ptr('collection', t.C) } } }), /relative to itself/],
    ['moving into itself', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.A, body: { parent: t.A } }), /itself or one of its descendants/],
    ['moving into a descendant', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.A, body: { parent: t.A2 } }), /itself or one of its descendants/],
    ['an unknown parent', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.A, body: { parent: 'nope' } }), /Invalid parent: collection nope/],
    ['an empty body', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.A, body: {} }), /Nothing to move/],
    ['a malformed pointer', (t: Awaited<ReturnType<typeof tree>>) => ({ id: t.A, body: { position: { before: { type: 'space', collection: t.B } } } }), /position/],
  ])('is a 400 for %s', async (_name, make, message) => {
    const t = await tree();
    const { id, body } = make(t);
    await t.h.admin.fails('moveCollection', { ...col(id), body }, 400, message);
  });

  it('is a 404 for an unknown collection', async () => {
    const { h } = await tree();
    await h.admin.fails('moveCollection', { ...col('nope'), body: { parent: null } }, 404);
  });
});

describe('transferCollection', () => {
  async function twoOrgs() {
    const h = await setup();
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const A = (await h.createCollection({ title: 'A' })).id;
    const A1 = (await h.createCollection({ title: 'A1', parent: A })).id;
    const s1 = (await h.createSpace({ title: 's1', parent: A })).id;
    const s2 = (await h.createSpace({ title: 's2', parent: A1 })).id;
    const keep = (await h.createSpace({ title: 'keep' })).id;
    return { h, other, A, A1, s1, s2, keep };
  }

  it('moves the collection, its descendants and their spaces to the other organization', async () => {
    const { h, other, A, A1, s1, s2, keep } = await twoOrgs();
    const moved = await h.admin.ok('transferCollection', { ...col(A), body: { organization: other } });
    expect(moved).toMatchObject({ id: A, organization: other });
    expect(moved.parent).toBeUndefined();
    expect(h.children(`org:${h.orgId}`)).toEqual([`space:${keep}`]);
    expect(h.children(`org:${other}`)).toEqual([`collection:${A}`]);
    expect(h.children(`col:${A}`)).toEqual([`collection:${A1}`, `space:${s1}`]);
    const inner = await h.admin.ok('getCollectionById', col(A1));
    expect(inner.organization).toBe(other);
    for (const id of [s1, s2]) expect((await h.admin.ok('getSpaceById', { params: { spaceId: id } })).organization).toBe(other);
    const otherSpaces = await h.admin.ok<List>('listSpacesInOrganizationById', { params: { organizationId: other } });
    expect(otherSpaces.items.map((s) => s.id)).toEqual([s1, s2]);
    const srcSpaces = await h.admin.ok<List>('listSpacesInOrganizationById', { params: { organizationId: h.orgId } });
    expect(srcSpaces.items.map((s) => s.id)).toEqual([keep]);
    const otherCols = await h.admin.ok<List>('listCollectionsInOrganizationById', { params: { organizationId: other } });
    expect(otherCols.items.map((c) => c.id)).toEqual([A, A1]);
    const srcCols = await h.admin.ok<List>('listCollectionsInOrganizationById', { params: { organizationId: h.orgId } });
    expect(srcCols.count).toBe(0);
  });

  it('is a 409 to its own organization, 404 to an unknown one, 412 when nested, 403 without admin in the target', async () => {
    const { h, A, A1 } = await twoOrgs();
    await h.admin.fails('transferCollection', { ...col(A), body: { organization: h.orgId } }, 409, /would not result in any update/);
    await h.admin.fails('transferCollection', { ...col(A), body: { organization: 'nope' } }, 404, /Organization nope not found/);
    const notMine = await h.createOrg('Not mine', {});
    await h.admin.fails('transferCollection', { ...col(A), body: { organization: notMine } }, 404);
    const readOnly = await h.createOrg('Read only', { [h.adminId]: 'read' });
    await h.admin.fails('transferCollection', { ...col(A), body: { organization: readOnly } }, 403, /"admin" role/);
    const target = await h.createOrg('Target', { [h.adminId]: 'admin' });
    await h.admin.fails('transferCollection', { ...col(A1), body: { organization: target } }, 412, /cannot be moved/);
  });

  it('needs admin in the source organization', async () => {
    const { h, other, A } = await twoOrgs();
    const creator = await h.member('c@acme.test', 'create');
    await h.store.transact(async (tx) => {
      const { addMember } = await import('../../src/domain/core-records.js');
      addMember(tx, other, creator, { role: 'admin', joinedAt: '2026-01-01T00:00:00.000Z', sso: false, disabled: false });
    });
    await h.fails(creator, 'transferCollection', { ...col(A), body: { organization: other } }, 403, /"admin" role/);
  });
});

describe('deleteCollectionById', () => {
  it('removes the collection and nested ones, soft-deletes their spaces (restorable to the root), 205 then 204', async () => {
    const h = await setup();
    const A = (await h.createCollection({ title: 'A' })).id;
    const A1 = (await h.createCollection({ title: 'A1', parent: A })).id;
    const B = (await h.createCollection({ title: 'B' })).id;
    const s1 = (await h.createSpace({ title: 's1', parent: A })).id;
    const s2 = (await h.createSpace({ title: 's2', parent: A1 })).id;
    const res = await h.admin.call('deleteCollectionById', col(A));
    expect(res.status).toBe(205);
    expect(res.body).toBeUndefined();
    await h.admin.fails('getCollectionById', col(A), 404);
    await h.admin.fails('getCollectionById', col(A1), 404);
    expect(h.children(`org:${h.orgId}`)).toEqual([`collection:${B}`]);
    expect(h.children(`col:${A}`)).toEqual([]);
    const cols = await h.admin.ok<List>('listCollectionsInOrganizationById', { params: { organizationId: h.orgId } });
    expect(cols.items.map((c) => c.id)).toEqual([B]);
    const spaces = await h.admin.ok<List>('listSpacesInOrganizationById', { params: { organizationId: h.orgId } });
    expect(spaces.count).toBe(0);
    const deletedSpace = await h.admin.ok('getSpaceById', { params: { spaceId: s2 } });
    expect(deletedSpace.deletedAt).toBe(h.clock().toISOString());

    h.clock.advance(3 * DAY);
    const restored = await h.admin.ok('restoreSpace', { params: { spaceId: s1 } });
    expect(restored.parent).toBeUndefined();
    expect(restored.visibility).toBe('private');
    expect(h.children(`org:${h.orgId}`)).toEqual([`collection:${B}`, `space:${s1}`]);

    expect((await h.admin.call('deleteCollectionById', col(A))).status).toBe(204);
  });

  it('is a 204 for an unknown collection and for one the actor cannot see', async () => {
    const h = await setup();
    const A = (await h.createCollection()).id;
    expect((await h.admin.call('deleteCollectionById', col('nope'))).status).toBe(204);
    expect((await h.call('stranger', 'deleteCollectionById', col(A))).status).toBe(204);
    expect((await h.admin.ok('getCollectionById', col(A))).id).toBe(A);
  });
});
