/**
 * Accounts as operations: `createOrganization` and `joinOrganization` (real API),
 * `updateUserById` (real API), and docsctl's account routes (users and tokens under
 * `/v1/x-docsctl/`), each with the role its route declares, through `executeOperation`.
 */
import { describe, expect, it } from 'vitest';
import { hashToken, userIdForToken } from '../../src/domain/auth.js';
import { type Obj, setup } from './harness.js';

interface Token extends Obj {
  label: string;
  user: string;
  createdAt: string;
  token?: string;
}

async function accounts() {
  const h = await setup();
  /** A user of the store made by its owner, optionally a member of the organization. */
  const newUser = async (email: string, role?: string | null) =>
    role === undefined
      ? h.admin.ok('createUser', { body: { email } }, 201)
      : h.admin.ok('createUserInOrganization', { params: { organizationId: h.orgId }, body: { email, role } }, 201);
  const tokens = async (userId: string, user?: string) =>
    (await h.ok<{ items: Token[] }>(userId, user === undefined ? 'listTokensForAuthenticatedUser' : 'listTokensForUser', user === undefined ? {} : { params: { userId: user } })).items;
  return { ...h, newUser, tokens };
}

describe('createOrganization', () => {
  it('makes a new organization whose only member is its creator, as admin (201, Location)', async () => {
    const { adminId, admin, call } = await accounts();
    const result = await call(adminId, 'createOrganization', { body: { title: '  Partners ', emailDomains: ['Acme.test', 'acme.test'] } });
    expect(result.status).toBe(201);
    const org = result.body as Obj;
    expect(result.headers.Location).toBe(`http://127.0.0.1:4000/v1/orgs/${org.id}`);
    expect(org).toMatchObject({ title: 'Partners', emailDomains: ['acme.test'], permissions: { admin: true } });
    expect((await admin.ok('getOrganizationById', { params: { organizationId: org.id } })).title).toBe('Partners');
    const list = await admin.ok<{ items: Obj[] }>('listOrganizationsForAuthenticatedUser');
    expect(list.items.map((o) => o.id)).toContain(org.id);
  });

  it('any user may create one, even a member of no organization', async () => {
    const { ok, newUser } = await accounts();
    const loner = await newUser('solo@acme.test');
    const org = await ok(loner.id, 'createOrganization', { body: { title: 'Solo Inc' } }, 201);
    expect(org.permissions).toMatchObject({ admin: true });
  });

  it('withDefaultSite: also a basic, unpublished site titled like the organization', async () => {
    const { admin } = await accounts();
    const org = await admin.ok('createOrganization', { query: { withDefaultSite: true }, body: { title: 'Docs Co' } }, 201);
    const sites = await admin.ok<{ items: Obj[] }>('listSites', { params: { organizationId: org.id } });
    expect(sites.items).toEqual([expect.objectContaining({ title: 'Docs Co', type: 'basic', visibility: 'public', published: false })]);
    const without = await admin.ok('createOrganization', { body: { title: 'Bare' } }, 201);
    expect((await admin.ok<{ items: Obj[] }>('listSites', { params: { organizationId: without.id } })).items).toEqual([]);
  });

  it('refuses a one-letter title with 400, and an openapiUrl it cannot import yet with 501; changes nothing', async () => {
    const { admin, store } = await accounts();
    const gen = store.read().gen;
    await admin.fails('createOrganization', { body: { title: 'X' } }, 400, /2 to 255 characters/);
    await admin.fails('createOrganization', { query: { withDefaultSite: true, openapiUrl: 'https://api.test/openapi.json' }, body: { title: 'API Co' } }, 501, /openapiUrl/);
    expect(store.read().gen).toBe(gen);
  });
});

describe('joinOrganization', () => {
  it("joins when the caller's e-mail domain is one of the organization's, as its default role; 204 again when a member", async () => {
    const { admin, call, ok, orgId, newUser } = await accounts();
    await admin.ok('updateOrganizationById', { params: { organizationId: orgId }, body: { emailDomains: ['acme.test'], defaultRole: 'comment' } });
    const dana = await newUser('dana@ACME.test');
    expect((await call(dana.id, 'joinOrganization', { params: { organizationId: orgId } })).status).toBe(204);
    expect((await ok(dana.id, 'getOrganizationById', { params: { organizationId: orgId } })).id).toBe(orgId);
    const members = await admin.ok<{ items: Array<{ user: Obj; role: string }> }>('listMembersInOrganizationById', { params: { organizationId: orgId } });
    expect(members.items.find((m) => m.user.id === dana.id)?.role).toBe('comment');
    expect((await call(dana.id, 'joinOrganization', { params: { organizationId: orgId } })).status).toBe(204);
  });

  it('refuses another domain (400, nothing written) and an unknown organization (404)', async () => {
    const { fails, store, orgId, newUser } = await accounts();
    const eve = await newUser('eve@elsewhere.test');
    const gen = store.read().gen;
    await fails(eve.id, 'joinOrganization', { params: { organizationId: orgId } }, 400, /"elsewhere\.test" is not one of/);
    await fails(eve.id, 'joinOrganization', { params: { organizationId: 'nope' } }, 404, /nope/);
    expect(store.read().gen).toBe(gen);
  });
});

describe('updateUserById', () => {
  it("changes one's own name and picture; the store's owner may change anyone's; others get 403", async () => {
    const { ok, fails, admin, newUser } = await accounts();
    const bob = await newUser('bob@acme.test', 'admin');
    const me = await ok(bob.id, 'updateUserById', { params: { userId: bob.id }, body: { displayName: ' Bob B ', photoURL: 'https://img.test/b.png' } });
    expect(me).toMatchObject({ displayName: 'Bob B', photoURL: 'https://img.test/b.png' });
    expect((await ok(bob.id, 'getAuthenticatedUser')).displayName).toBe('Bob B');
    expect(await admin.ok('updateUserById', { params: { userId: bob.id }, body: { displayName: 'Robert' } })).toMatchObject({ displayName: 'Robert' });
    const carol = await newUser('carol@acme.test', 'admin');
    await fails(carol.id, 'updateUserById', { params: { userId: bob.id }, body: { displayName: 'X' } }, 403, /store's owner/);
    await admin.fails('updateUserById', { params: { userId: bob.id }, body: {} }, 400, /Nothing to update/);
    await admin.fails('updateUserById', { params: { userId: 'nobody' }, body: { displayName: 'N' } }, 404, /nobody/);
  });

  it("refreshes the copies of the user's record that team rows keep", async () => {
    const { admin, ok, orgId, newUser } = await accounts();
    const bob = await newUser('bob@acme.test', 'edit');
    const team = await admin.ok('createOrganizationTeam', { params: { organizationId: orgId }, body: { title: 'Docs', members: [bob.id] } }, 201);
    await ok(bob.id, 'updateUserById', { params: { userId: bob.id }, body: { displayName: 'Bob Renamed' } });
    const members = await admin.ok<{ items: Array<{ organization: { user: Obj } }> }>('listTeamMembersInOrganizationById', { params: { organizationId: orgId, teamId: team.id } });
    expect(members.items.map((m) => m.organization.user.displayName)).toEqual(['Bob Renamed']);
  });
});

describe('users of the store (docsctl extension)', () => {
  it('createUserInOrganization: a member with the given role (read by default), and a token that acts as them', async () => {
    const { admin, ok, orgId, store, newUser } = await accounts();
    const user = await admin.ok('createUserInOrganization', { params: { organizationId: orgId }, body: { email: 'Bob@acme.test', displayName: 'Bob', role: 'edit' } }, 201);
    expect(user).toMatchObject({ object: 'user', displayName: 'Bob', email: 'Bob@acme.test', organization: orgId, role: 'edit' });
    const issued = await admin.ok<Token>('createTokenForUser', { params: { userId: 'bob@acme.test' }, body: { label: 'ci' } }, 201);
    expect(issued).toMatchObject({ user: user.id, label: 'ci', id: hashToken(issued.token ?? '').slice(0, 16) });
    expect(userIdForToken(store.read(), issued.token ?? '')).toBe(user.id);
    expect((await ok(user.id, 'getAuthenticatedUser')).email).toBe('Bob@acme.test');
    expect(await newUser('r@acme.test', undefined)).not.toHaveProperty('role');
    expect(await admin.ok('createUserInOrganization', { params: { organizationId: orgId }, body: { email: 'g@acme.test', role: null } }, 201)).toMatchObject({ role: null });
    expect(await admin.ok('createUserInOrganization', { params: { organizationId: orgId }, body: { email: 'd@acme.test' } }, 201)).toMatchObject({ role: 'read' });
  });

  it('createUser: a user of no organization (the e-mail name as display name); the store owner only', async () => {
    const { ok, fails, newUser, orgId } = await accounts();
    const loner = await newUser('solo@acme.test');
    expect(loner.displayName).toBe('solo');
    expect((await ok<{ items: unknown[] }>(loner.id, 'listOrganizationsForAuthenticatedUser')).items).toEqual([]);
    const admin2 = await newUser('admin2@acme.test', 'admin');
    await fails(admin2.id, 'createUser', { body: { email: 'x@acme.test' } }, 403, /store's owner/);
    // An admin of the organization may add a user to it.
    expect(await ok(admin2.id, 'createUserInOrganization', { params: { organizationId: orgId }, body: { email: 'y@acme.test' } }, 201)).toMatchObject({ role: 'read' });
  });

  it('a known e-mail is 409, a bad one 400, an unknown organization 404; nothing written', async () => {
    const { admin, store, orgId } = await accounts();
    const gen = store.read().gen;
    await admin.fails('createUser', { body: { email: 'ADA@acme.test' } }, 409, /already exists/);
    await admin.fails('createUser', { body: { email: 'not-an-email' } }, 400, /e-mail/);
    await admin.fails('createUserInOrganization', { params: { organizationId: orgId }, body: { email: 'x@acme.test', role: 'owner' } }, 400, /role/);
    await admin.fails('createUserInOrganization', { params: { organizationId: 'nope' }, body: { email: 'x@acme.test' } }, 404, /nope/);
    expect(store.read().gen).toBe(gen);
  });

  it('createUserInOrganization needs the admin role there (403); another organization is 404', async () => {
    const { fails, admin, orgId, createOrg, newUser } = await accounts();
    const creator = await newUser('ed@acme.test', 'create');
    await fails(creator.id, 'createUserInOrganization', { params: { organizationId: orgId }, body: { email: 'x@acme.test' } }, 403, /"admin" role/);
    const other = await createOrg('Other', { [creator.id]: 'admin' });
    await admin.fails('createUserInOrganization', { params: { organizationId: other }, body: { email: 'x@acme.test' } }, 404, /not found/);
  });
});

describe('tokens (docsctl extension)', () => {
  it('are listed by id and label, never in plain text, and revoking one stops it at once', async () => {
    const { admin, adminId, store, boot, tokens } = await accounts();
    const first = await admin.ok<Token>('createTokenForAuthenticatedUser', { body: { label: 'laptop' } }, 201);
    const listed = await tokens(adminId);
    expect(listed.map((t) => t.label).sort()).toEqual(['init', 'laptop']);
    expect(JSON.stringify(listed)).not.toContain('gb_api_');
    expect(JSON.stringify(store.read().entries('tokens'))).not.toContain(first.token);
    const revoked = await admin.ok('revokeToken', { params: { tokenId: first.id } }, 200);
    expect(revoked).toEqual({ id: first.id, label: 'laptop', createdAt: first.createdAt, user: adminId });
    expect(userIdForToken(store.read(), first.token ?? '')).toBeUndefined();
    expect(userIdForToken(store.read(), boot.token)).toBe(adminId);
    expect((await tokens(adminId)).map((t) => t.label)).toEqual(['init']);
  });

  it("a user manages their own tokens (by id or e-mail); the store's owner manages anyone's", async () => {
    const { ok, fails, admin, adminId, newUser, tokens } = await accounts();
    const bob = await newUser('bob@acme.test', 'admin');
    const owners = await tokens(adminId);
    await fails(bob.id, 'listTokensForUser', { params: { userId: adminId } }, 403, /store's owner/);
    await fails(bob.id, 'createTokenForUser', { params: { userId: 'ada@acme.test' } }, 403, /store's owner/);
    // Someone else's token id is not found, so ids of others' tokens do not leak.
    await fails(bob.id, 'revokeToken', { params: { tokenId: (owners[0] as Token).id } }, 404, /not found/);
    const bobs = await ok<Token>(bob.id, 'createTokenForUser', { params: { userId: 'bob@acme.test' }, body: {} }, 201);
    expect(bobs.label).toBe('cli');
    expect((await tokens(bob.id, bob.id)).map((t) => t.id)).toEqual([bobs.id]);
    expect((await tokens(adminId, 'bob@acme.test')).map((t) => t.id)).toEqual([bobs.id]);
    await admin.ok('revokeToken', { params: { tokenId: bobs.id } });
    expect(await tokens(bob.id)).toEqual([]);
  });

  it('a token list pages through the one engine', async () => {
    const { admin, adminId, ok } = await accounts();
    for (let i = 0; i < 4; i += 1) await admin.ok('createTokenForAuthenticatedUser', { body: { label: `t${i}` } }, 201);
    const first = await ok<{ items: Token[]; count: number; next?: { page: string } }>(adminId, 'listTokensForAuthenticatedUser', { query: { limit: 2 } });
    expect(first.items).toHaveLength(2);
    expect(first.count).toBe(5);
    const rest = await ok<{ items: Token[]; next?: unknown }>(adminId, 'listTokensForAuthenticatedUser', { query: { limit: 10, page: first.next?.page } });
    expect(rest.items).toHaveLength(3);
    expect(rest.next).toBeUndefined();
  });

  it('refuses a malformed id (400), an unknown one (404), and a bad label (400)', async () => {
    const { admin } = await accounts();
    await admin.fails('revokeToken', { params: { tokenId: 'abc' } }, 400, /16 hex/);
    await admin.fails('revokeToken', { params: { tokenId: '0123456789abcdef' } }, 404, /token list/);
    await admin.fails('createTokenForAuthenticatedUser', { body: { label: ' ' } }, 400, /1 to 100 characters/);
  });
});
