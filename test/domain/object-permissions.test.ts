/**
 * Grants on spaces, collections and sites (routes/permissions.ts, src/domain/grants.ts):
 * they change what a member may do there, in both directions, and every answer
 * that lists them validates against 0.202's schemas.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { type Harness, type List, type Obj, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

let h: Harness;
beforeEach(async () => {
  h = await setup();
});

const space = (spaceId: string, body?: Record<string, unknown>) => ({ params: { spaceId }, ...(body ? { body } : {}) });
const spacePermissions = async (userId: string, spaceId: string) => (await h.ok<Obj>(userId, 'getSpaceById', space(spaceId))).permissions;
const canEdit = async (userId: string, spaceId: string) => (await h.call(userId, 'createChangeRequest', space(spaceId, { subject: 'x' })).then(() => true, () => false));

function expectSchema(schema: string, items: unknown[]) {
  for (const item of items) expect(schemaErrors(schema, item)).toEqual([]);
}

describe('a grant on a space', () => {
  it('gives a read member the granted role there, and removing it takes it away', async () => {
    const rita = await h.member('rita@acme.test', 'read');
    const { id } = await h.createSpace({ title: 'Docs' });
    expect(await canEdit(rita, id)).toBe(false);
    await h.fails(rita, 'createChangeRequest', space(id, { subject: 'x' }), 403, /"edit" role or higher on space .* \(your role there: read\)/);

    const invited = await h.admin.call('inviteToSpace', space(id, { role: 'edit', users: ['rita@acme.test'] }));
    expect(invited.status).toBe(204);
    expect(await spacePermissions(rita, id)).toMatchObject({ view: true, edit: true, merge: true, admin: false });
    expect(await canEdit(rita, id)).toBe(true);

    const users = await h.admin.ok<List>('listUserPermissionsInSpace', space(id));
    expect(users.count).toBe(1);
    expect(users.items).toEqual([{ permission: 'edit', user: expect.objectContaining({ id: rita, email: 'rita@acme.test' }) }]);
    expectSchema('UserContentPermission', users.items);

    expect((await h.admin.call('removeUserFromSpace', { params: { spaceId: id, userId: rita } })).status).toBe(205);
    expect((await h.admin.call('removeUserFromSpace', { params: { spaceId: id, userId: rita } })).status).toBe(204);
    expect(await canEdit(rita, id)).toBe(false);
    expect(await spacePermissions(rita, id)).toMatchObject({ view: true, edit: false });
  });

  it('may lower a member below their organization role there (the most specific level wins), never an admin', async () => {
    const eve = await h.member('eve@acme.test', 'edit');
    const { id } = await h.createSpace();
    await h.admin.ok('updateUserPermissionInSpace', { params: { spaceId: id, userId: eve }, body: { role: 'read' } }, 204);
    expect(await canEdit(eve, id)).toBe(false);
    await h.admin.ok('inviteToSpace', space(id, { role: 'read', users: [h.adminId] }), 204);
    expect(await spacePermissions(h.adminId, id)).toMatchObject({ admin: true, edit: true });
    // null on a space removes the grant: back to the organization role.
    await h.admin.ok('updateUserPermissionInSpace', { params: { spaceId: id, userId: eve }, body: { role: null } }, 204);
    expect(await canEdit(eve, id)).toBe(true);
    expect((await h.admin.ok<List>('listUserPermissionsInSpace', space(id))).items.map((item) => (item.user as Obj).id)).toEqual([h.adminId]);
  });

  it('reaches a guest through their team; their own grant comes before the team', async () => {
    const gus = await h.member('gus@acme.test', null);
    const { id } = await h.createSpace();
    await h.fails(gus, 'getSpaceById', space(id), 403);
    const team = await h.admin.ok('createOrganizationTeam', { params: { organizationId: h.orgId }, body: { title: 'Writers', members: [gus] } }, 201);
    await h.admin.ok('inviteToSpace', space(id, { role: 'comment', teams: [team.id] }), 204);
    expect(await spacePermissions(gus, id)).toMatchObject({ view: true, comment: true, edit: false });
    const teams = await h.admin.ok<List>('listTeamPermissionsInSpace', space(id));
    expect(teams.items).toEqual([{ permission: 'comment', team: expect.objectContaining({ id: team.id, spaces: 1, members: 1 }) }]);
    expectSchema('OrganizationTeam', teams.items.map((item) => item.team));

    await h.admin.ok('inviteToSpace', space(id, { role: 'read', users: [gus] }), 204);
    expect(await spacePermissions(gus, id)).toMatchObject({ view: true, comment: false });
    const who = await h.admin.ok<List>('listPermissionsAggregateInSpace', space(id));
    expectSchema('UserContentPermission', who.items);
    expect(who.items.map((item) => [(item.user as Obj).id, item.permission, item.origin])).toEqual([
      [gus, 'read', { type: 'space', space: id, reason: 'member' }],
      [h.adminId, 'admin', { type: 'organization', organization: h.orgId }],
    ]);
    await h.admin.ok('removeUserFromSpace', { params: { spaceId: id, userId: gus } }, 205);
    const again = await h.admin.ok<List>('listPermissionsAggregateInSpace', { ...space(id), query: { role: 'comment' } });
    expect(again.items.map((item) => [(item.user as Obj).id, item.origin])).toEqual([[gus, { type: 'space', space: id, reason: 'team', team: team.id }]]);

    // Deleting the team takes its grants with it.
    await h.admin.ok('removeTeamFromOrganizationById', { params: { organizationId: h.orgId, teamId: team.id } }, 205);
    await h.fails(gus, 'getSpaceById', space(id), 403);
    expect((await h.admin.ok<List>('listTeamPermissionsInSpace', space(id))).count).toBe(0);
  });

  it('is dropped when the member leaves the organization, so a return starts afresh', async () => {
    const rita = await h.member('rita@acme.test', 'read');
    const { id } = await h.createSpace();
    await h.admin.ok('inviteToSpace', space(id, { role: 'edit', users: [rita] }), 204);
    await h.admin.call('removeMemberFromOrganizationById', { params: { organizationId: h.orgId, userId: rita } });
    await h.admin.ok('inviteUsersToOrganization', { params: { organizationId: h.orgId }, body: { emails: [{ email: 'rita@acme.test', role: 'read' }] } });
    expect(await canEdit(rita, id)).toBe(false);
    expect((await h.admin.ok<List>('listUserPermissionsInSpace', space(id))).count).toBe(0);
  });
});

describe('collections and general access', () => {
  it('a collection grant reaches its spaces and nested collections; a space grant is more specific', async () => {
    const rita = await h.member('rita@acme.test', 'read');
    const outer = await h.createCollection({ title: 'Outer' });
    const inner = await h.createCollection({ title: 'Inner', parent: outer.id });
    const deep = await h.createSpace({ title: 'Deep', parent: inner.id });
    await h.admin.ok('inviteToCollection', { params: { collectionId: outer.id }, body: { role: 'create', users: [rita] } }, 204);
    expect(await canEdit(rita, deep.id)).toBe(true);
    expect((await h.ok<Obj>(rita, 'getCollectionById', { params: { collectionId: inner.id } })).permissions).toMatchObject({ admin: true, create: true });
    const who = await h.admin.ok<List>('listPermissionsAggregateInSpace', space(deep.id));
    expect(who.items.find((item) => (item.user as Obj).id === rita)).toMatchObject({ permission: 'create', origin: { type: 'collection', collection: outer.id, reason: 'member' } });
    await h.admin.ok('inviteToSpace', space(deep.id, { role: 'read', users: [rita] }), 204);
    expect(await canEdit(rita, deep.id)).toBe(false);
    const users = await h.admin.ok<List>('listUserPermissionsInCollection', { params: { collectionId: outer.id } });
    expectSchema('UserContentPermission', users.items);
    await h.admin.ok('removeUserFromCollection', { params: { collectionId: outer.id, userId: rita } }, 205);
    expect((await h.ok<Obj>(rita, 'getCollectionById', { params: { collectionId: inner.id } })).permissions).toMatchObject({ admin: false, view: true });
  });

  it('defaultLevel decides for members below admin: a role regardless of theirs, null for no access; guests get grants only', async () => {
    const eve = await h.member('eve@acme.test', 'edit');
    const gus = await h.member('gus@acme.test', null);
    const collection = await h.createCollection();
    const { id } = await h.createSpace({ parent: collection.id });
    await h.admin.ok('updateCollectionById', { params: { collectionId: collection.id }, body: { defaultLevel: 'read' } });
    expect(await canEdit(eve, id)).toBe(false);
    await h.admin.ok('updateSpaceById', space(id, { defaultLevel: 'comment' }));
    expect(await spacePermissions(eve, id)).toMatchObject({ comment: true, edit: false });
    await h.fails(gus, 'getSpaceById', space(id), 403); // general access is for members, not guests
    await h.admin.ok('updateSpaceById', space(id, { defaultLevel: null }));
    await h.fails(eve, 'getSpaceById', space(id), 403, /your role there: none/);
    expect(await spacePermissions(h.adminId, id)).toMatchObject({ admin: true });
    // Listed with the caller's role on each space.
    const listed = await h.ok<List>(eve, 'listSpacesInOrganizationById', { params: { organizationId: h.orgId } });
    expect(listed.items.find((item) => item.id === id)?.permissions).toMatchObject({ view: false, edit: false });
    await h.admin.ok('updateSpaceById', space(id, { defaultLevel: 'inherit' }));
    expect(await canEdit(eve, id)).toBe(false); // the collection's `read`
    await h.admin.ok('updateCollectionById', { params: { collectionId: collection.id }, body: { defaultLevel: 'inherit' } });
    expect(await canEdit(eve, id)).toBe(true);
  });
});

describe('hostile grants', () => {
  it('refuses users outside the organization, teams of another, unknown roles, and roles above the granter, writing nothing', async () => {
    const creator = await h.member('cleo@acme.test', 'create');
    const otherOrg = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const outsider = await h.member('otto@other.test', 'admin', otherOrg);
    const { id } = await h.createSpace();
    await h.admin.fails('inviteToSpace', space(id, { role: 'read', users: ['rita@nowhere.test', outsider] }), 404, /Not members of organization .*: rita@nowhere\.test, /);
    const foreignTeam = await h.admin.ok('createOrganizationTeam', { params: { organizationId: otherOrg }, body: { title: 'Theirs' } }, 201);
    await h.admin.fails('inviteToSpace', space(id, { role: 'read', teams: [foreignTeam.id] }), 404, /Not teams of organization/);
    await h.admin.fails('inviteToSpace', space(id, { role: 'owner', users: [creator] }), 400, /role/);
    await h.admin.fails('inviteToSpace', space(id, { role: 'read' }), 400, /users/);
    await h.admin.fails('updateUserPermissionInSpace', { params: { spaceId: id, userId: outsider }, body: { role: 'read' } }, 404, /not a member/);
    // A creator manages the space's grants, up to their own role.
    await h.ok(creator, 'inviteToSpace', space(id, { role: 'create', users: [creator] }), 204);
    await h.fails(creator, 'inviteToSpace', space(id, { role: 'admin', users: [creator] }), 403, /above your own role there \("create"\)/);
    expect((await h.admin.ok<List>('listUserPermissionsInSpace', space(id))).items.map((item) => item.permission)).toEqual(['create']);
    // Removing one's own grant is allowed: the organization's admins keep the space.
    await h.ok(creator, 'removeUserFromSpace', { params: { spaceId: id, userId: creator } }, 205);
    expect(await spacePermissions(h.adminId, id)).toMatchObject({ admin: true });
    // Someone of another organization learns nothing: 404 on lists, 204 on removal.
    await h.fails(outsider, 'listUserPermissionsInSpace', space(id), 404);
    expect((await h.call(outsider, 'removeUserFromSpace', { params: { spaceId: id, userId: creator } })).status).toBe(204);
  });

  it('a read member cannot grant anything', async () => {
    const rita = await h.member('rita@acme.test', 'read');
    const { id } = await h.createSpace();
    await h.fails(rita, 'inviteToSpace', space(id, { role: 'read', users: [rita] }), 403, /"create" role or higher on space/);
    expect((await h.ok<List>(rita, 'listUserPermissionsInSpace', space(id))).count).toBe(0);
  });
});

describe('a grant on a site', () => {
  it('lets a read member administer that site only; null on a site means no access there', async () => {
    const rita = await h.member('rita@acme.test', 'read');
    const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs' } }, 201);
    const other = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Other' } }, 201);
    const params = { organizationId: h.orgId, siteId: site.id };
    await h.fails(rita, 'updateSiteById', { params, body: { title: 'Mine' } }, 403, /on site/);
    await h.admin.ok('inviteToSite', { params, body: { role: 'admin', users: [rita] } }, 204);
    expect((await h.ok<Obj>(rita, 'updateSiteById', { params, body: { title: 'Mine' } })).permissions).toMatchObject({ admin: true });
    await h.fails(rita, 'updateSiteById', { params: { ...params, siteId: other.id }, body: { title: 'x' } }, 403);
    const listed = await h.ok<List>(rita, 'listSites', { params: { organizationId: h.orgId } });
    expect(Object.fromEntries(listed.items.map((item) => [item.id, (item.permissions as Obj).admin]))).toEqual({ [site.id]: true, [other.id]: false });

    const users = await h.admin.ok<List>('listUserPermissionsInSite', { params });
    expectSchema('UserSitePermissionOverride', users.items);
    const who = await h.admin.ok<List>('listPermissionsAggregateInSite', { params, query: { sort: 'name', order: 'asc' } });
    expectSchema('UserSitePermission', who.items);
    expect(who.items.map((item) => [(item.user as Obj).displayName, item.permission, (item.origin as Obj).type])).toEqual([
      ['Ada', 'admin', 'organization'],
      [expect.any(String), 'admin', 'site'],
    ]);

    await h.admin.ok('inviteToSite', { params, body: { role: null, users: [rita] } }, 204);
    await h.fails(rita, 'getSiteById', { params }, 403);
    expect((await h.admin.ok<List>('listUserPermissionsInSite', { params })).items.map((item) => item.permission)).toEqual([null]);
    await h.admin.ok('removeUserFromSite', { params: { ...params, userId: rita } }, 205);
    expect((await h.ok<Obj>(rita, 'getSiteById', { params })).permissions).toMatchObject({ view: true, admin: false });
  });
});
