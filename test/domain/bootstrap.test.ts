import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { hashToken, storeOwner, userIdForToken } from '../../src/domain/auth.js';
import { bootstrap, createToken } from '../../src/domain/bootstrap.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { ORIGIN, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

const lists = (table: string) => [table, `${table}.pos`, `${table}.n`, `${table}.end`];
const TABLES = ['meta', 'users', 'usersByEmail', 'tokens', 'orgs', 'members', ...lists('orgMembers'), ...lists('userOrgs')];

function dump(store: MemoryStore): string {
  const reader = store.read();
  return JSON.stringify(TABLES.map((t) => [t, reader.entries(t)]));
}

describe('bootstrap', () => {
  it('creates an organization, its admin user and a token, answered as API objects', async () => {
    const { boot, store, orgId, adminId } = await setup();
    expect(schemaErrors('Organization', boot.organization)).toEqual([]);
    expect(schemaErrors('User', boot.user)).toEqual([]);
    expect(boot.organization).toMatchObject({
      object: 'organization',
      title: 'Acme',
      type: 'business',
      plan: 'free',
      mergeRules: { type: 'none' },
      trial: { status: 'notapplicable' },
      urls: { location: `${ORIGIN}/v1/orgs/${orgId}` },
      permissions: { admin: true, createContent: true, view: true },
    });
    expect(boot.user).toMatchObject({
      object: 'user',
      displayName: 'Ada',
      email: 'ada@acme.test',
      urls: { location: `${ORIGIN}/v1/users/${adminId}` },
    });
    expect(boot.token).toMatch(/^gb_api_[A-Za-z0-9]{40}$/);
    const reader = store.read();
    expect(reader.get('members', `${orgId}/${adminId}`)).toMatchObject({ role: 'admin', disabled: false });
    expect(storeOwner(reader)).toBe(adminId);
  });

  it('refuses a second run with 409 and changes nothing', async () => {
    const { store, clock, ids } = await setup();
    const before = dump(store);
    const error = await store
      .transact((tx) =>
        bootstrap(tx, { organizationTitle: 'Other', userName: 'Bob', email: 'bob@x.test', clock, ids, origin: ORIGIN }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).message).toMatch(/already initialized/);
    expect(dump(store)).toBe(before);
  });

  it.each([
    ['a one-letter title', { organizationTitle: 'A', email: 'a@b.test' }, /organization title/],
    ['a bad e-mail', { organizationTitle: 'Acme', email: 'not-an-email' }, /e-mail/],
  ])('rejects %s with 400', async (_name, input, message) => {
    const store = new MemoryStore();
    const error = await store
      .transact((tx) =>
        bootstrap(tx, { userName: 'X', clock: manualClock(), ids: sequentialIds(), origin: ORIGIN, ...input }),
      )
      .catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toMatch(message);
    expect(store.read().gen).toBe(0);
  });
});

describe('schema checks used by these tests', () => {
  it('do catch a missing required member', () => {
    expect(schemaErrors('Space', { object: 'space' }).length).toBeGreaterThan(0);
    expect(schemaErrors('User', { object: 'user', id: 'u', displayName: 'U', urls: {} })).not.toEqual([]);
  });
});

describe('tokens', () => {
  it('stores only the sha256 of a token: the plain token appears in no stored value', async () => {
    const { store, boot, adminId, clock } = await setup();
    const second = await store.transact((tx) => createToken(tx, adminId, 'ci', clock));
    const text = dump(store);
    for (const token of [boot.token, second]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice('gb_api_'.length));
      expect(store.read().get('tokens', hashToken(token))).toMatchObject({ userId: adminId });
    }
    expect(second).not.toBe(boot.token);
    expect(store.read().get('tokens', hashToken(second))).toMatchObject({ label: 'ci' });
  });

  it('resolves a token to its user and nothing else', async () => {
    const { store, boot, adminId } = await setup();
    const reader = store.read();
    expect(userIdForToken(reader, boot.token)).toBe(adminId);
    expect(userIdForToken(reader, `${boot.token}x`)).toBeUndefined();
    expect(userIdForToken(reader, '')).toBeUndefined();
    expect(hashToken(boot.token)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('has no owner on an empty store', () => {
    expect(storeOwner(new MemoryStore().read())).toBeUndefined();
  });
});
