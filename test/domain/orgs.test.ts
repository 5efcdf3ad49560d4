import { describe, expect, it } from 'vitest';
import { orgMemberList, userOrgList } from '../../src/domain/core-records.js';
import { type List, ORIGIN, setup } from './harness.js';

describe('getAuthenticatedUser', () => {
  it('answers the actor', async () => {
    const h = await setup();
    const user = await h.admin.ok('getAuthenticatedUser');
    expect(user).toEqual({
      object: 'user',
      id: h.adminId,
      displayName: 'Ada',
      email: 'ada@acme.test',
      urls: { location: `${ORIGIN}/v1/users/${h.adminId}` },
    });
  });

  it('is 404 for an actor that does not exist', async () => {
    const h = await setup();
    await h.fails('nobody', 'getAuthenticatedUser', {}, 404, /User nobody not found/);
  });
});

describe('organizations', () => {
  it('getOrganizationById: permissions follow the role; non-members get 404', async () => {
    const h = await setup();
    const reader = await h.member('reader@acme.test', 'read');
    const creator = await h.member('creator@acme.test', 'create');
    const guest = await h.member('guest@acme.test', null);
    const outsider = await h.createOrg('Elsewhere', {}).then(() => 'outsider');
    const params = { params: { organizationId: h.orgId } };

    const asAdmin = await h.admin.ok('getOrganizationById', params);
    expect(asAdmin.permissions).toEqual({
      view: true, access: true, admin: true, ownTeam: false, createContent: true, createOpenAPISpec: true,
      viewBilling: true, listMembers: true, listTeams: true,
      listIntegrations: true, listInstallations: true, installIntegration: true,
    });
    const asReader = await h.ok(reader, 'getOrganizationById', params);
    expect(asReader.permissions).toMatchObject({ view: true, admin: false, createContent: false, listMembers: true, viewBilling: false });
    const asCreator = await h.ok(creator, 'getOrganizationById', params);
    expect(asCreator.permissions).toMatchObject({ admin: false, createContent: true });
    const asGuest = await h.ok(guest, 'getOrganizationById', params);
    expect(asGuest.permissions).toMatchObject({ view: true, access: false, listMembers: false, createContent: false });

    await h.fails(outsider, 'getOrganizationById', params, 404, new RegExp(`Organization ${h.orgId} not found`));
    await h.admin.fails('getOrganizationById', { params: { organizationId: 'nope' } }, 404, /Organization nope not found/);
  });

  it('lists the actor\'s organizations with pagination', async () => {
    const h = await setup();
    const second = await h.createOrg('Second', { [h.adminId]: 'read' });
    const third = await h.createOrg('Third', { [h.adminId]: 'admin' });
    await h.createOrg('Not mine', {});

    const all = await h.admin.ok<List>('listOrganizationsForAuthenticatedUser');
    expect(all.items.map((o) => o.id)).toEqual([h.orgId, second, third]);
    expect(all.count).toBe(3);
    expect(all.next).toBeUndefined();

    const page1 = await h.admin.ok<List>('listOrganizationsForAuthenticatedUser', { query: { limit: '2' } });
    expect(page1.items.map((o) => o.id)).toEqual([h.orgId, second]);
    expect(page1.items[1]?.permissions).toMatchObject({ admin: false });
    expect(page1.next?.page).toEqual(expect.any(String));
    const page2 = await h.admin.ok<List>('listOrganizationsForAuthenticatedUser', {
      query: { limit: '2', page: page1.next?.page },
    });
    expect(page2.items.map((o) => o.id)).toEqual([third]);
    expect(page2.next).toBeUndefined();
  });
});

describe('inviteUsersToOrganization', () => {
  const invite = (h: Awaited<ReturnType<typeof setup>>, body: unknown, as = h.adminId) =>
    h.ok<{ users: string[]; invited: number }>(as, 'inviteUsersToOrganization', { params: { organizationId: h.orgId }, body });

  it('creates unknown users and makes them members; answers exactly {users, invited}', async () => {
    const h = await setup();
    const res = await invite(h, { emails: ['jane.doe@acme.test', { email: 'max@acme.test', role: 'edit' }] });
    expect(Object.keys(res).sort()).toEqual(['invited', 'users']);
    expect(res.invited).toBe(2);
    const [jane, max] = res.users as [string, string];
    const reader = h.store.read();
    expect(reader.get('users', jane)).toMatchObject({ displayName: 'jane.doe', email: 'jane.doe@acme.test' });
    expect(reader.get('members', `${h.orgId}/${jane}`)).toMatchObject({ role: 'read' });
    expect(reader.get('members', `${h.orgId}/${max}`)).toMatchObject({ role: 'edit' });
    expect(orgMemberList.all(reader, h.orgId).map((e) => e.id)).toEqual([h.adminId, jane, max]);
    expect(orgMemberList.count(reader, h.orgId)).toBe(3);
    expect(userOrgList.all(reader, jane).map((e) => e.id)).toEqual([h.orgId]);
    // The new member sees the organization.
    const org = await h.ok(jane, 'getOrganizationById', { params: { organizationId: h.orgId } });
    expect(org.id).toBe(h.orgId);
  });

  it('is idempotent: already-members (any case, or twice in one request) are left alone and not counted', async () => {
    const h = await setup();
    const first = await invite(h, { emails: ['bob@acme.test'], role: 'create' });
    expect(first.invited).toBe(1);
    const again = await invite(h, { emails: ['BOB@acme.test', 'ada@acme.test', 'eve@acme.test', 'eve@acme.test'], role: 'read' });
    expect(again.invited).toBe(1);
    expect(again.users).toHaveLength(1);
    const bob = first.users[0] as string;
    expect(h.store.read().get('members', `${h.orgId}/${bob}`)).toMatchObject({ role: 'create' });
    expect(h.store.read().get('members', `${h.orgId}/${h.adminId}`)).toMatchObject({ role: 'admin' });
  });

  it.each([
    ['entry role wins', { emails: [{ email: 'x@a.test', role: 'review' }], role: 'edit' }, 'review'],
    ['body role', { emails: ['x@a.test'], role: 'comment' }, 'comment'],
    ['guest (null) role', { emails: ['x@a.test'], role: null }, null],
    ['default read', { emails: ['x@a.test'] }, 'read'],
  ])('role: %s', async (_name, body, role) => {
    const h = await setup();
    const res = await invite(h, body);
    expect(h.store.read().get('members', `${h.orgId}/${res.users[0]}`)).toMatchObject({ role });
  });

  it('needs admin (403), hides the org from outsiders (404), validates the body (400)', async () => {
    const h = await setup();
    const creator = await h.member('c@acme.test', 'create');
    await h.fails(creator, 'inviteUsersToOrganization', { params: { organizationId: h.orgId }, body: { emails: ['z@z.test'] } }, 403, /"admin" role/);
    await h.fails('stranger', 'inviteUsersToOrganization', { params: { organizationId: h.orgId }, body: { emails: ['z@z.test'] } }, 404);
    await h.admin.fails('inviteUsersToOrganization', { params: { organizationId: h.orgId }, body: { emails: [] } }, 400);
    await h.admin.fails('inviteUsersToOrganization', { params: { organizationId: h.orgId }, body: { emails: ['nope'] } }, 400);
    expect(h.store.read().get('usersByEmail', 'z@z.test')).toBeUndefined();
  });
});


describe('updateOrganizationById', () => {
  const patch = (h: Awaited<ReturnType<typeof setup>>, body: unknown, org = h.orgId) =>
    h.admin.ok('updateOrganizationById', { params: { organizationId: org }, body });

  it('updates the given fields; the org default role applies to later invites', async () => {
    const h = await setup();
    const org = await patch(h, {
      title: 'Acme Docs', emailDomains: ['Acme.test', 'acme.test'], hostname: 'acme', defaultRole: 'comment',
      logo: 'https://acme.test/logo.png', sso: false, ai: true, inviteLinks: true, mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
    });
    expect(org).toMatchObject({
      title: 'Acme Docs', emailDomains: ['acme.test'], hostname: 'acme', defaultRole: 'comment', ai: true,
      inviteLinks: true, urls: { logo: 'https://acme.test/logo.png', location: `${ORIGIN}/v1/orgs/${h.orgId}` },
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
    });
    expect(await h.admin.ok('getOrganizationById', { params: { organizationId: h.orgId } })).toEqual(org);
    const invited = await h.admin.ok<{ users: string[] }>('inviteUsersToOrganization', {
      params: { organizationId: h.orgId }, body: { emails: ['new@acme.test'] },
    });
    expect(h.store.read().get('members', `${h.orgId}/${invited.users[0]}`)).toMatchObject({ role: 'comment' });
    const cleared = await patch(h, { logo: null });
    expect((cleared.urls as Record<string, unknown>).logo).toBeUndefined();
  });

  it('keeps hostnames unique (409) and frees the old one on change', async () => {
    const h = await setup();
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    await patch(h, { hostname: 'acme' });
    await h.admin.fails('updateOrganizationById', { params: { organizationId: other }, body: { hostname: 'acme' } }, 409, /already used/);
    await patch(h, { hostname: 'acme-docs' });
    expect((await patch(h, { hostname: 'acme' }, other)).hostname).toBe('acme');
  });

  it('400 on an empty body or a bad title, 403 for non-admins, 404 for outsiders', async () => {
    const h = await setup();
    const params = { params: { organizationId: h.orgId } };
    await h.admin.fails('updateOrganizationById', { ...params, body: {} }, 400, /Nothing to update/);
    await h.admin.fails('updateOrganizationById', { ...params, body: { title: 'A' } }, 400, /title/);
    const creator = await h.member('c@acme.test', 'create');
    await h.fails(creator, 'updateOrganizationById', { ...params, body: { title: 'Mine' } }, 403, /"admin" role/);
    await h.fails('stranger', 'updateOrganizationById', { ...params, body: { title: 'Mine' } }, 404);
  });
});
