/**
 * A store with one organization and its admin, and helpers to call operations
 * through `executeOperation` (so the routes' validation is included).
 */
import { expect } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { getRoute } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { type OperationResult, executeOperation } from '../../src/domain/execute.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { addMember, putOrg } from '../../src/domain/core-records.js';
import { getChildren } from '../../src/domain/tree.js';
import type { MemberRole } from '../../src/domain/core-records.js';
import { schemaErrors } from './openapi.js';
import type { RouteId } from '../../src/api/route-id.js';

export const ORIGIN = 'http://127.0.0.1:4000';
export const DAY = 24 * 60 * 60 * 1000;

export type Obj = Record<string, unknown> & { id: string };
export interface List {
  items: Obj[];
  count: number;
  next?: { page: string };
}

/** Response schema of each operation's body (for the checks in `ok`). */
const RESPONSE_SCHEMA: Record<string, string> = {
  getAuthenticatedUser: 'User',
  updateUserById: 'User',
  createOrganization: 'Organization',
  getOrganizationById: 'Organization',
  updateOrganizationById: 'Organization',
  listOrganizationsForAuthenticatedUser: 'Organization',
  getCollectionById: 'Collection',
  updateCollectionById: 'Collection',
  createCollection: 'Collection',
  moveCollection: 'Collection',
  transferCollection: 'Collection',
  listCollectionsInOrganizationById: 'Collection',
  listSpacesInCollectionById: 'Space',
  listSpacesInOrganizationById: 'Space',
  getSpaceById: 'Space',
  updateSpaceById: 'Space',
  duplicateSpace: 'Space',
  restoreSpace: 'Space',
  moveSpace: 'Space',
  transferSpace: 'Space',
  createSpace: 'Space',
};

export async function setup() {
  const store = new MemoryStore();
  const clock = manualClock('2026-01-01T00:00:00.000Z');
  const ids = sequentialIds();
  const boot = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@acme.test', clock, ids, origin: ORIGIN }),
  );
  const orgId = boot.organization.id;
  const adminId = boot.user.id;

  const call = (userId: string, routeId: RouteId, raw: RawInput = {}): Promise<OperationResult> =>
    executeOperation({ store, actor: { userId }, clock, ids, origin: ORIGIN }, getRoute(routeId), raw);

  /** Calls as `userId` and expects a success; checks the body against the real schema. */
  async function ok<T = Obj>(userId: string, routeId: RouteId, raw: RawInput = {}, status?: number): Promise<T> {
    const result = await call(userId, routeId, raw);
    if (status !== undefined) expect(result.status).toBe(status);
    const schema = RESPONSE_SCHEMA[routeId];
    if (schema && result.body !== undefined) {
      const body = result.body as { items?: unknown[] };
      const values = Array.isArray(body.items) ? body.items : [body];
      for (const value of values) expect(schemaErrors(schema, value)).toEqual([]);
    }
    return result.body as T;
  }

  /** Calls as `userId` and expects an ApiError with `status` (and a message matching `message`). */
  async function fails(userId: string, routeId: RouteId, raw: RawInput, status: number, message?: RegExp) {
    const error = await call(userId, routeId, raw).then(
      (result) => {
        throw new Error(`expected ${status}, got ${result.status} ${JSON.stringify(result.body)}`);
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
    if (message) expect((error as ApiError).message).toMatch(message);
    return error as ApiError;
  }

  const admin = {
    ok: <T = Obj>(routeId: RouteId, raw: RawInput = {}, status?: number) => ok<T>(adminId, routeId, raw, status),
    fails: (routeId: RouteId, raw: RawInput, status: number, message?: RegExp) => fails(adminId, routeId, raw, status, message),
    call: (routeId: RouteId, raw: RawInput = {}) => call(adminId, routeId, raw),
  };

  const createCollection = (body: Record<string, unknown> = {}, org = orgId) =>
    admin.ok('createCollection', { params: { organizationId: org }, body }, 201);
  const createSpace = (body: Record<string, unknown> = {}, org = orgId) =>
    admin.ok('createSpace', { params: { organizationId: org }, body }, 201);

  /** Adds a member with `role` (invite as admin) and returns their user id. */
  async function member(email: string, role: string | null, org = orgId): Promise<string> {
    const res = await admin.ok<{ users: string[] }>('inviteUsersToOrganization', {
      params: { organizationId: org },
      body: { emails: [{ email, role }] },
    });
    const id = res.users[0];
    if (!id) throw new Error(`${email} was already a member`);
    return id;
  }

  /** Another organization (there is no create-organization operation): `members` maps user id → role. */
  async function createOrg(title: string, members: Record<string, MemberRole | null>): Promise<string> {
    const id = ids();
    const now = clock().toISOString();
    await store.transact((tx) => {
      putOrg(tx, { id, title, createdAt: now, type: 'business', plan: 'free', emailDomains: [], inviteLinks: false, mergeRules: { type: 'none' } });
      for (const [userId, role] of Object.entries(members)) addMember(tx, id, userId, { role, joinedAt: now, sso: false, disabled: false });
    });
    return id;
  }

  /** Ids of the children of a container, in order (`type:id`). */
  function children(key: string): string[] {
    const list = getChildren(store.read(), key);
    return list.map((c) => `${c.type}:${c.id}`);
  }

  return { store, clock, ids, boot, orgId, adminId, call, ok, fails, admin, createCollection, createSpace, member, createOrg, children };
}

export type Harness = Awaited<ReturnType<typeof setup>>;
