import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { type AccountContext, createOrganization, createTokenFor, createUser, listTokens, parseRole, revokeToken } from '../../src/domain/accounts.js';
import { hashToken, userIdForToken } from '../../src/domain/auth.js';
import type { StoreWriter } from '../../src/store/types.js';
import { ORIGIN, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

async function accounts() {
  const h = await setup();
  /** Runs an account function in a transaction as `actor`. */
  const as = <T>(actor: string, fn: (ctx: AccountContext) => T) =>
    h.store.transact((tx: StoreWriter) => fn({ tx, actor, clock: h.clock, ids: h.ids, origin: ORIGIN }));
  const rejects = async (promise: Promise<unknown>, status: number, message: RegExp) => {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
    expect((error as ApiError).message).toMatch(message);
  };
  return { ...h, as, rejects };
}

describe('local accounts', () => {
  it('org create: a new organization whose only member is its creator, as admin', async () => {
    const { as, adminId, admin } = await accounts();
    const org = await as(adminId, (ctx) => createOrganization(ctx, { title: '  Partners ' }));
    expect(schemaErrors('Organization', org)).toEqual([]);
    expect(org).toMatchObject({ title: 'Partners', permissions: { admin: true } });
    const got = await admin.ok('getOrganizationById', { params: { organizationId: org.id } });
    expect(got.title).toBe('Partners');
    const list = await admin.ok<{ items: Array<{ id: string }> }>('listOrganizationsForAuthenticatedUser');
    expect(list.items.map((o) => o.id)).toContain(org.id);
  });

  it('org create: refuses a one-letter title with 400 and changes nothing', async () => {
    const { as, adminId, store, rejects } = await accounts();
    const before = store.read().entries('orgs').length;
    await rejects(as(adminId, (ctx) => createOrganization(ctx, { title: 'X' })), 400, /title/);
    expect(store.read().entries('orgs')).toHaveLength(before);
  });

  it('user create: a member with the given role, and a token that acts as them', async () => {
    const { as, adminId, orgId, store, ok } = await accounts();
    const user = await as(adminId, (ctx) => createUser(ctx, { email: 'Bob@acme.test', name: 'Bob', organization: orgId, role: 'edit' }));
    expect(user).toMatchObject({ displayName: 'Bob', email: 'Bob@acme.test', organization: orgId, role: 'edit' });
    const issued = await as(adminId, (ctx) => createTokenFor(ctx, { user: 'bob@acme.test', label: 'ci' }));
    expect(issued).toMatchObject({ user: user.id, label: 'ci', id: hashToken(issued.token).slice(0, 16) });
    expect(userIdForToken(store.read(), issued.token)).toBe(user.id);
    const me = await ok(user.id, 'getAuthenticatedUser');
    expect(me.email).toBe('Bob@acme.test');
  });

  it('user create: without an organization the user belongs to none; the default role is read', async () => {
    const { as, adminId, orgId, ok } = await accounts();
    const loner = await as(adminId, (ctx) => createUser(ctx, { email: 'solo@acme.test' }));
    expect(loner.displayName).toBe('solo');
    expect(loner).not.toHaveProperty('organization');
    const orgs = await ok<{ items: unknown[] }>(loner.id, 'listOrganizationsForAuthenticatedUser');
    expect(orgs.items).toEqual([]);
    const reader = await as(adminId, (ctx) => createUser(ctx, { email: 'r@acme.test', organization: orgId }));
    expect(reader.role).toBe('read');
  });

  it('user create: a known e-mail is 409, a bad one 400, a role without --org 400; nothing written', async () => {
    const { as, adminId, store, rejects } = await accounts();
    const before = store.read().entries('users').length;
    await rejects(as(adminId, (ctx) => createUser(ctx, { email: 'ADA@acme.test' })), 409, /already exists/);
    await rejects(as(adminId, (ctx) => createUser(ctx, { email: 'not-an-email' })), 400, /e-mail/);
    await rejects(as(adminId, (ctx) => createUser(ctx, { email: 'x@acme.test', role: 'edit' })), 400, /--org/);
    await rejects(as(adminId, (ctx) => createUser(ctx, { email: 'x@acme.test', organization: 'nope' })), 404, /nope/);
    expect(store.read().entries('users')).toHaveLength(before);
  });

  it('user create: needs the admin role in the organization (403), and another organization is 404', async () => {
    const { as, adminId, orgId, rejects, createOrg } = await accounts();
    const editor = await as(adminId, (ctx) => createUser(ctx, { email: 'ed@acme.test', organization: orgId, role: 'create' }));
    await rejects(as(editor.id, (ctx) => createUser(ctx, { email: 'x@acme.test', organization: orgId })), 403, /"admin" role/);
    const other = await createOrg('Other', { [editor.id]: 'admin' });
    await rejects(as(adminId, (ctx) => createUser(ctx, { email: 'x@acme.test', organization: other })), 404, /not found/);
  });

  it('parseRole: guest is null, an unknown role names the choices', () => {
    expect(parseRole('guest')).toBeNull();
    expect(parseRole('review')).toBe('review');
    expect(() => parseRole('owner')).toThrow(/admin, create, edit, review, comment, read, guest/);
  });
});

describe('tokens', () => {
  it('are listed by id and label, never in plain text, and revoking one stops it at once', async () => {
    const { as, adminId, store, boot } = await accounts();
    const first = await as(adminId, (ctx) => createTokenFor(ctx, { label: 'laptop' }));
    const listed = await as(adminId, (ctx) => listTokens(ctx, {}));
    expect(listed.map((t) => t.label).sort()).toEqual(['init', 'laptop']);
    expect(JSON.stringify(listed)).not.toContain('gb_api_');
    expect(JSON.stringify(store.read().entries('tokens'))).not.toContain(first.token);
    const revoked = await as(adminId, (ctx) => revokeToken(ctx, first.id));
    expect(revoked).toMatchObject({ id: first.id, label: 'laptop', user: adminId });
    expect(userIdForToken(store.read(), first.token)).toBeUndefined();
    expect(userIdForToken(store.read(), boot.token)).toBe(adminId);
    expect((await as(adminId, (ctx) => listTokens(ctx, {}))).map((t) => t.label)).toEqual(['init']);
  });

  it("a user manages only their own tokens; the store's owner manages anyone's", async () => {
    const { as, adminId, orgId, rejects } = await accounts();
    const bob = await as(adminId, (ctx) => createUser(ctx, { email: 'bob@acme.test', organization: orgId, role: 'admin' }));
    const owners = await as(adminId, (ctx) => listTokens(ctx, {}));
    await rejects(as(bob.id, (ctx) => listTokens(ctx, { user: adminId })), 403, /store's owner/);
    await rejects(as(bob.id, (ctx) => createTokenFor(ctx, { user: 'ada@acme.test' })), 403, /store's owner/);
    // Someone else's token id is not found, so ids of others' tokens do not leak.
    await rejects(as(bob.id, (ctx) => revokeToken(ctx, (owners[0] as { id: string }).id)), 404, /not found/);
    const bobs = await as(bob.id, (ctx) => createTokenFor(ctx, {}));
    expect((await as(adminId, (ctx) => listTokens(ctx, { user: 'bob@acme.test' }))).map((t) => t.id)).toEqual([bobs.id]);
    await as(adminId, (ctx) => revokeToken(ctx, bobs.id));
    expect(await as(bob.id, (ctx) => listTokens(ctx, {}))).toEqual([]);
  });

  it('refuses a malformed id (400) and an unknown one (404)', async () => {
    const { as, adminId, rejects } = await accounts();
    await rejects(as(adminId, (ctx) => revokeToken(ctx, 'abc')), 400, /16 hex/);
    await rejects(as(adminId, (ctx) => revokeToken(ctx, '0123456789abcdef')), 404, /token list/);
  });
});
