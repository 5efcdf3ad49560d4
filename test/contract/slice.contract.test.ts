/**
 * Contract tests of the first slice (organizations, user, invites, collections,
 * spaces): every operation is called through `executeOperation` against a
 * MemoryStore seeded by `bootstrap()`, with realistic inputs, and every body is
 * validated against the real API's schema (`responseValidator`), errors included.
 * The request bodies sent are checked against the spec too (`requestBodyValidator`),
 * so the inputs are ones the real API would accept.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { getRoute, routes } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { type ExecuteEnv, type OperationResult, executeOperation } from '../../src/domain/execute.js';
import { type OrgRecord, addMember, putOrg } from '../../src/domain/core-records.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { CUSTOM_FIELD_OPERATIONS, REMOVED_IN_0_202 } from './allowed-differences.js';
import { declaredStatuses, errorBodyValidator, findOperation, requestBodyValidator, responseValidator } from './openapi.js';
import type { RouteId } from '../../src/api/route-id.js';

const ORIGIN = 'http://127.0.0.1:4000';
const DAY = 86_400_000;

/** The operations of the first slice. */
const SLICE = [
  'getAuthenticatedUser',
  'listOrganizationsForAuthenticatedUser',
  'getOrganizationById',
  'inviteUsersToOrganization',
  'createCollection',
  'getCollectionById',
  'updateCollectionById',
  'listCollectionsInOrganizationById',
  'listSpacesInCollectionById',
  'moveCollection',
  'transferCollection',
  'deleteCollectionById',
  'createSpace',
  'getSpaceById',
  'updateSpaceById',
  'listSpacesInOrganizationById',
  'duplicateSpace',
  'moveSpace',
  'transferSpace',
  'deleteSpaceById',
  'restoreSpace',
] as const;

/** `${operationId} ${status}` of every success answer validated in this file. */
const validatedSuccesses = new Set<string>();

interface Fixture {
  env: ExecuteEnv;
  clock: ReturnType<typeof manualClock>;
  orgId: string;
  userId: string;
}

let fx: Fixture;

async function setup(): Promise<Fixture> {
  const store = new MemoryStore();
  const clock = manualClock('2026-01-05T09:00:00.000Z');
  const ids = sequentialIds('id');
  const boot = await store.transact((tx) =>
    bootstrap(tx, {
      organizationTitle: 'Acme Docs',
      userName: 'Ada Lovelace',
      email: 'ada@acme.example',
      clock,
      ids,
      origin: ORIGIN,
    }),
  );
  return { env: { store, actor: { userId: boot.user.id }, clock, ids, origin: ORIGIN }, clock, orgId: boot.organization.id, userId: boot.user.id };
}

/**
 * A second organization where the actor is admin (bootstrap runs once per store,
 * so it is written directly with the records helpers, as bootstrap does).
 */
async function addOrganization(title: string): Promise<string> {
  const now = fx.clock().toISOString();
  const org: OrgRecord = {
    id: fx.env.ids(),
    title,
    createdAt: now,
    type: 'business',
    plan: 'free',
    emailDomains: [],
    inviteLinks: false,
    mergeRules: { type: 'none' },
  };
  await fx.env.store.transact((tx) => {
    putOrg(tx, org);
    addMember(tx, org.id, fx.userId, { role: 'admin', joinedAt: now, sso: false, disabled: false });
  });
  return org.id;
}

/** Runs an operation; an ApiError becomes the response `serve` would send. */
async function call(id: RouteId, raw: RawInput = {}, options: { invalidRequest?: boolean } = {}): Promise<OperationResult> {
  if (raw.body !== undefined && !options.invalidRequest) {
    // The inputs of these tests must be ones the real API accepts.
    expect(requestBodyValidator(id)(raw.body).errors, `request body of ${id}`).toEqual([]);
  }
  try {
    return await executeOperation(fx.env, getRoute(id), raw);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.toBody(), json: JSON.stringify(error.toBody()), headers: {} };
    throw error;
  }
}

/** Asserts the status and that the body matches the real schema for that operation and status. */
function expectContract(id: string, result: OperationResult, status: number): void {
  expect(result.status, `${id} status (body: ${JSON.stringify(result.body)})`).toBe(status);
  const validation = responseValidator(id, result.status)(result.body);
  expect(validation.errors, `${id} ${result.status} body vs schema`).toEqual([]);
  if (result.status < 300) validatedSuccesses.add(`${id} ${result.status}`);
}

/** Asserts an error answer: the status, the error schema of the operation (declared or §6.1), and the generic error body. */
function expectError(id: string, result: OperationResult, status: number): void {
  expectContract(id, result, status);
  expect(errorBodyValidator(status)(result.body).errors, `${id} error body`).toEqual([]);
}

function bodyOf<T = Record<string, unknown>>(result: OperationResult): T {
  return result.body as T;
}

async function createCollection(title: string, parent?: string): Promise<Record<string, unknown>> {
  const result = await call('createCollection', {
    params: { organizationId: fx.orgId },
    body: parent === undefined ? { title } : { title, parent },
  });
  expectContract('createCollection', result, 201);
  return bodyOf(result);
}

async function createSpace(body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const result = await call('createSpace', { params: { organizationId: fx.orgId }, body });
  expectContract('createSpace', result, 201);
  return bodyOf(result);
}

beforeEach(async () => {
  fx = await setup();
});

describe('organizations and user', () => {
  it('getAuthenticatedUser → User', async () => {
    const result = await call('getAuthenticatedUser');
    expectContract('getAuthenticatedUser', result, 200);
    expect(bodyOf(result)).toMatchObject({ id: fx.userId, displayName: 'Ada Lovelace', email: 'ada@acme.example' });
  });

  it('listOrganizationsForAuthenticatedUser → List<Organization>, paginated', async () => {
    await addOrganization('Acme Labs');
    const all = await call('listOrganizationsForAuthenticatedUser');
    expectContract('listOrganizationsForAuthenticatedUser', all, 200);
    expect(bodyOf<{ items: unknown[] }>(all).items).toHaveLength(2);

    const first = await call('listOrganizationsForAuthenticatedUser', { query: { limit: '1' } });
    expectContract('listOrganizationsForAuthenticatedUser', first, 200);
    const next = bodyOf<{ next?: { page: string } }>(first).next;
    expect(next?.page).toEqual(expect.any(String));
    const second = await call('listOrganizationsForAuthenticatedUser', { query: { limit: '1', page: next?.page } });
    expectContract('listOrganizationsForAuthenticatedUser', second, 200);
    expect(bodyOf(second).next).toBeUndefined();
  });

  it('getOrganizationById → Organization; 404 for an unknown one', async () => {
    const result = await call('getOrganizationById', { params: { organizationId: fx.orgId } });
    expectContract('getOrganizationById', result, 200);
    expect(bodyOf(result)).toMatchObject({ id: fx.orgId, title: 'Acme Docs' });

    expectError('getOrganizationById', await call('getOrganizationById', { params: { organizationId: 'nope' } }), 404);
  });

  it('inviteUsersToOrganization → {users, invited}; 400 on an invalid body', async () => {
    const result = await call('inviteUsersToOrganization', {
      params: { organizationId: fx.orgId },
      body: { emails: ['grace@acme.example', { email: 'alan@acme.example', role: 'edit' }], role: 'read' },
    });
    expectContract('inviteUsersToOrganization', result, 200);
    expect(bodyOf(result)).toMatchObject({ invited: 2 });

    const bad = await call(
      'inviteUsersToOrganization',
      { params: { organizationId: fx.orgId }, body: { emails: 'grace@acme.example' } },
      { invalidRequest: true },
    );
    expectError('inviteUsersToOrganization', bad, 400);
  });
});

describe('collections', () => {
  it('createCollection → 201 Collection with Location (also nested, also without a body)', async () => {
    const result = await call('createCollection', { params: { organizationId: fx.orgId }, body: { title: 'Guides' } });
    expectContract('createCollection', result, 201);
    const guides = bodyOf<{ id: string; urls: { location: string } }>(result);
    expect(result.headers.Location ?? result.headers.location).toBe(guides.urls.location);

    const nested = await createCollection('Tutorials', guides.id);
    expect(nested).toMatchObject({ parent: guides.id, organization: fx.orgId });

    const untitled = await call('createCollection', { params: { organizationId: fx.orgId } });
    expectContract('createCollection', untitled, 201);
  });

  it('createCollection with an unknown parent → 400', async () => {
    const result = await call('createCollection', { params: { organizationId: fx.orgId }, body: { title: 'X', parent: 'nope' } });
    expectError('createCollection', result, 400);
  });

  it('getCollectionById → Collection; 404 for an unknown one', async () => {
    const guides = await createCollection('Guides');
    const result = await call('getCollectionById', { params: { collectionId: String(guides.id) } });
    expectContract('getCollectionById', result, 200);
    expect(bodyOf(result)).toEqual(guides);

    expectError('getCollectionById', await call('getCollectionById', { params: { collectionId: 'nope' } }), 404);
  });

  it('updateCollectionById → Collection', async () => {
    const guides = await createCollection('Guides');
    const result = await call('updateCollectionById', {
      params: { collectionId: String(guides.id) },
      body: { title: 'User guides', description: 'How to use the product', defaultLevel: 'read' },
    });
    expectContract('updateCollectionById', result, 200);
    expect(bodyOf(result)).toMatchObject({ title: 'User guides', description: 'How to use the product', defaultLevel: 'read' });

    const guest = await call('updateCollectionById', { params: { collectionId: String(guides.id) }, body: { defaultLevel: null } });
    expectContract('updateCollectionById', guest, 200);
    const inherit = await call('updateCollectionById', { params: { collectionId: String(guides.id) }, body: { defaultLevel: 'inherit' } });
    expectContract('updateCollectionById', inherit, 200);
  });

  it('listCollectionsInOrganizationById → List<Collection> (nested and root only)', async () => {
    const guides = await createCollection('Guides');
    await createCollection('Tutorials', String(guides.id));
    await createCollection('Reference');
    const all = await call('listCollectionsInOrganizationById', { params: { organizationId: fx.orgId } });
    expectContract('listCollectionsInOrganizationById', all, 200);
    expect(bodyOf<{ items: unknown[] }>(all).items).toHaveLength(3);

    const root = await call('listCollectionsInOrganizationById', { params: { organizationId: fx.orgId }, query: { nested: 'false' } });
    expectContract('listCollectionsInOrganizationById', root, 200);
    expect(bodyOf<{ items: unknown[] }>(root).items).toHaveLength(2);

    const page = await call('listCollectionsInOrganizationById', { params: { organizationId: fx.orgId }, query: { limit: '2' } });
    expectContract('listCollectionsInOrganizationById', page, 200);
  });

  it('listSpacesInCollectionById → List<Space>', async () => {
    const guides = await createCollection('Guides');
    await createSpace({ title: 'Getting started', parent: guides.id });
    await createSpace({ title: 'FAQ', emoji: '❓', parent: guides.id });
    const result = await call('listSpacesInCollectionById', { params: { collectionId: String(guides.id) } });
    expectContract('listSpacesInCollectionById', result, 200);
    expect(bodyOf<{ items: unknown[] }>(result).items).toHaveLength(2);
  });

  it('moveCollection → Collection; 400 invalid parent/position, 409 no-op, 404 unknown', async () => {
    const guides = await createCollection('Guides');
    const reference = await createCollection('Reference');
    const tutorials = await createCollection('Tutorials', String(guides.id));

    const toRoot = await call('moveCollection', {
      params: { collectionId: String(tutorials.id) },
      body: { parent: null, position: { before: { type: 'collection', collection: String(guides.id) } } },
    });
    expectContract('moveCollection', toRoot, 200);
    expect(bodyOf(toRoot).parent).toBeUndefined();

    const into = await call('moveCollection', { params: { collectionId: String(reference.id) }, body: { parent: String(guides.id) } });
    expectContract('moveCollection', into, 200);
    expect(bodyOf(into).parent).toBe(guides.id);

    const badParent = await call('moveCollection', { params: { collectionId: String(reference.id) }, body: { parent: 'nope' } });
    expectError('moveCollection', badParent, 400);
    const badPosition = await call('moveCollection', {
      params: { collectionId: String(reference.id) },
      body: { position: { after: { type: 'space', space: 'nope' } } },
    });
    expectError('moveCollection', badPosition, 400);
    const noop = await call('moveCollection', { params: { collectionId: String(reference.id) }, body: { parent: String(guides.id) } });
    expectError('moveCollection', noop, 409);
    const unknown = await call('moveCollection', { params: { collectionId: 'nope' }, body: { parent: null } });
    expectError('moveCollection', unknown, 404);
  });

  it('transferCollection → Collection in the target organization; 409 same org, 412 nested, 404 unknown', async () => {
    const labs = await addOrganization('Acme Labs');
    const guides = await createCollection('Guides');
    const tutorials = await createCollection('Tutorials', String(guides.id));
    await createSpace({ title: 'Intro', parent: guides.id });

    const nested = await call('transferCollection', { params: { collectionId: String(tutorials.id) }, body: { organization: labs } });
    expectError('transferCollection', nested, 412);

    const result = await call('transferCollection', { params: { collectionId: String(guides.id) }, body: { organization: labs } });
    expectContract('transferCollection', result, 200);
    expect(bodyOf(result)).toMatchObject({ id: guides.id, organization: labs });

    const again = await call('transferCollection', { params: { collectionId: String(guides.id) }, body: { organization: labs } });
    expectError('transferCollection', again, 409);
    const unknown = await call('transferCollection', { params: { collectionId: 'nope' }, body: { organization: labs } });
    expectError('transferCollection', unknown, 404);

    const spaces = await call('listSpacesInCollectionById', { params: { collectionId: String(guides.id) } });
    expectContract('listSpacesInCollectionById', spaces, 200);
    expect(bodyOf<{ items: Array<{ organization: string }> }>(spaces).items[0]?.organization).toBe(labs);
  });

  it('deleteCollectionById → 205 deleted, then 204', async () => {
    const guides = await createCollection('Guides');
    await createSpace({ title: 'Intro', parent: guides.id });
    const deleted = await call('deleteCollectionById', { params: { collectionId: String(guides.id) } });
    expectContract('deleteCollectionById', deleted, 205);
    expect(deleted.body).toBeUndefined();
    const again = await call('deleteCollectionById', { params: { collectionId: String(guides.id) } });
    expectContract('deleteCollectionById', again, 204);
    expectError('getCollectionById', await call('getCollectionById', { params: { collectionId: String(guides.id) } }), 404);
  });
});

describe('spaces', () => {
  it('createSpace → 201 Space with Location (empty body, full body, in a collection)', async () => {
    const bare = await call('createSpace', { params: { organizationId: fx.orgId } });
    expectContract('createSpace', bare, 201);
    expect(bare.headers.Location ?? bare.headers.location).toBe(bodyOf<{ urls: { location: string } }>(bare).urls.location);

    const full = await createSpace({ title: 'Handbook', emoji: '📘', language: 'fr', editMode: 'locked' });
    expect(full).toMatchObject({ title: 'Handbook', emoji: '📘', language: 'fr', editMode: 'locked', mergeRules: { type: 'inherit' } });

    const guides = await createCollection('Guides');
    const inCollection = await createSpace({ title: 'Intro', parent: guides.id });
    expect(inCollection).toMatchObject({ parent: guides.id, visibility: 'in-collection' });
  });

  it('getSpaceById → Space, also soft-deleted with deletedAt; 404 unknown and after 7 days', async () => {
    const space = await createSpace({ title: 'Handbook', emoji: '📘' });
    const id = String(space.id);
    const result = await call('getSpaceById', { params: { spaceId: id } });
    expectContract('getSpaceById', result, 200);
    expect(bodyOf(result)).toEqual(space);

    expectContract('deleteSpaceById', await call('deleteSpaceById', { params: { spaceId: id } }), 205);
    const trashed = await call('getSpaceById', { params: { spaceId: id } });
    expectContract('getSpaceById', trashed, 200);
    expect(bodyOf(trashed).deletedAt).toBe(fx.clock().toISOString());

    expectError('getSpaceById', await call('getSpaceById', { params: { spaceId: 'nope' } }), 404);
    fx.clock.advance(7 * DAY + 1000);
    expectError('getSpaceById', await call('getSpaceById', { params: { spaceId: id } }), 404);
  });

  it('updateSpaceById → Space (title, emoji, editMode, defaultLevel, language, mergeRules, icon)', async () => {
    const space = await createSpace({ title: 'Handbook' });
    const id = String(space.id);
    const result = await call('updateSpaceById', {
      params: { spaceId: id },
      body: {
        title: 'Employee handbook',
        emoji: '📗',
        editMode: 'locked',
        defaultLevel: 'comment',
        language: 'de',
        mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'allow_bypass', users: [fx.userId] }] },
      },
    });
    expectContract('updateSpaceById', result, 200);
    expect(bodyOf(result)).toMatchObject({ title: 'Employee handbook', emoji: '📗', editMode: 'locked', defaultLevel: 'comment' });

    const icon = await call('updateSpaceById', { params: { spaceId: id }, body: { icon: 'https://cdn.acme.example/icon.png' } });
    expectContract('updateSpaceById', icon, 200);
    expect(bodyOf<{ urls: { icon?: string } }>(icon).urls.icon).toBe('https://cdn.acme.example/icon.png');

    const cleared = await call('updateSpaceById', { params: { spaceId: id }, body: { emoji: null, icon: null } });
    expectContract('updateSpaceById', cleared, 200);
    const none = await call('updateSpaceById', { params: { spaceId: id }, body: { mergeRules: { type: 'none' }, defaultLevel: null } });
    expectContract('updateSpaceById', none, 200);
    const inherit = await call('updateSpaceById', { params: { spaceId: id }, body: { mergeRules: { type: 'inherit' }, defaultLevel: 'inherit' } });
    expectContract('updateSpaceById', inherit, 200);

    expectError('updateSpaceById', await call('updateSpaceById', { params: { spaceId: 'nope' }, body: { title: 'x' } }), 404);
  });

  it('listSpacesInOrganizationById → List<Space>, paginated, without deleted spaces', async () => {
    const guides = await createCollection('Guides');
    await createSpace({ title: 'A' });
    await createSpace({ title: 'B', parent: guides.id });
    const c = await createSpace({ title: 'C' });
    await call('deleteSpaceById', { params: { spaceId: String(c.id) } });

    const all = await call('listSpacesInOrganizationById', { params: { organizationId: fx.orgId } });
    expectContract('listSpacesInOrganizationById', all, 200);
    expect(bodyOf<{ items: unknown[] }>(all).items).toHaveLength(2);

    const first = await call('listSpacesInOrganizationById', { params: { organizationId: fx.orgId }, query: { limit: '1' } });
    expectContract('listSpacesInOrganizationById', first, 200);
    const page = bodyOf<{ next?: { page: string } }>(first).next?.page;
    const second = await call('listSpacesInOrganizationById', { params: { organizationId: fx.orgId }, query: { limit: '1', page } });
    expectContract('listSpacesInOrganizationById', second, 200);
  });

  it('duplicateSpace → 201 Space with Location; 404 unknown', async () => {
    const guides = await createCollection('Guides');
    const space = await createSpace({ title: 'Handbook', emoji: '📘', parent: guides.id });
    const result = await call('duplicateSpace', { params: { spaceId: String(space.id) } });
    expectContract('duplicateSpace', result, 201);
    const copy = bodyOf<{ id: string; title: string; urls: { location: string } }>(result);
    expect(copy.id).not.toBe(space.id);
    expect(result.headers.Location ?? result.headers.location).toBe(copy.urls.location);

    expectError('duplicateSpace', await call('duplicateSpace', { params: { spaceId: 'nope' } }), 404);
  });

  it('moveSpace → Space; 400 invalid parent/position, 409 no-op, 404 unknown', async () => {
    const guides = await createCollection('Guides');
    const first = await createSpace({ title: 'First', parent: guides.id });
    const space = await createSpace({ title: 'Handbook' });
    const id = String(space.id);

    const into = await call('moveSpace', {
      params: { spaceId: id },
      body: { parent: String(guides.id), position: { before: { type: 'space', space: String(first.id) } } },
    });
    expectContract('moveSpace', into, 200);
    expect(bodyOf(into).parent).toBe(guides.id);

    const toRoot = await call('moveSpace', { params: { spaceId: id }, body: { parent: null } });
    expectContract('moveSpace', toRoot, 200);
    expect(bodyOf(toRoot).parent).toBeUndefined();

    expectError('moveSpace', await call('moveSpace', { params: { spaceId: id }, body: { parent: 'nope' } }), 400);
    expectError(
      'moveSpace',
      await call('moveSpace', { params: { spaceId: id }, body: { position: { after: { type: 'space', space: String(first.id) } } } }),
      400,
    );
    expectError('moveSpace', await call('moveSpace', { params: { spaceId: id }, body: { parent: null } }), 409);
    expectError('moveSpace', await call('moveSpace', { params: { spaceId: 'nope' }, body: { parent: null } }), 404);
  });

  it('transferSpace → Space in the target organization; 409 same place, 404 unknown', async () => {
    const labs = await addOrganization('Acme Labs');
    const space = await createSpace({ title: 'Handbook', emoji: '📘' });
    const id = String(space.id);

    expectError('transferSpace', await call('transferSpace', { params: { spaceId: id }, body: { organization: fx.orgId } }), 409);

    const result = await call('transferSpace', { params: { spaceId: id }, body: { organization: labs } });
    expectContract('transferSpace', result, 200);
    expect(bodyOf(result)).toMatchObject({ id, organization: labs });

    const listed = await call('listSpacesInOrganizationById', { params: { organizationId: labs } });
    expectContract('listSpacesInOrganizationById', listed, 200);
    expect(bodyOf<{ items: Array<{ id: string }> }>(listed).items.map((s) => s.id)).toEqual([id]);

    expectError('transferSpace', await call('transferSpace', { params: { spaceId: 'nope' }, body: { organization: labs } }), 404);
  });

  it('deleteSpaceById → 205 deleted, then 204; restoreSpace → Space', async () => {
    const guides = await createCollection('Guides');
    const space = await createSpace({ title: 'Handbook', parent: guides.id });
    const id = String(space.id);

    const deleted = await call('deleteSpaceById', { params: { spaceId: id } });
    expectContract('deleteSpaceById', deleted, 205);
    expect(deleted.body).toBeUndefined();
    expectContract('deleteSpaceById', await call('deleteSpaceById', { params: { spaceId: id } }), 204);
    expectContract('deleteSpaceById', await call('deleteSpaceById', { params: { spaceId: 'nope' } }), 204);

    fx.clock.advance(2 * DAY);
    const restored = await call('restoreSpace', { params: { spaceId: id } });
    expectContract('restoreSpace', restored, 200);
    expect(bodyOf(restored)).toMatchObject({ id, parent: guides.id });
    expect(bodyOf(restored).deletedAt).toBeUndefined();

    expectError('restoreSpace', await call('restoreSpace', { params: { spaceId: 'nope' } }), 404);
  });

  it('restoreSpace after the 7-day window → 404', async () => {
    const space = await createSpace({ title: 'Handbook' });
    const id = String(space.id);
    await call('deleteSpaceById', { params: { spaceId: id } });
    fx.clock.advance(8 * DAY);
    expectError('restoreSpace', await call('restoreSpace', { params: { spaceId: id } }), 404);
  });
});

describe('the route table agrees with the spec', () => {
  it('every route has the method, path, success statuses and body presence of its operation', () => {
    const problems: string[] = [];
    // docsctl's extensions are in no real OpenAPI document (test/api/routes.test.ts checks that).
    for (const route of routes.filter((r) => r.source !== 'docsctl')) {
      const op = findOperation(route.id);
      if (!op) {
        if (![...CUSTOM_FIELD_OPERATIONS, ...REMOVED_IN_0_202].includes(route.id as never)) problems.push(`${route.id}: not in the spec`);
        continue;
      }
      const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
      if (op.method !== route.method || shape(op.v1Path) !== shape(route.path)) {
        problems.push(`${route.id}: route ${route.method} ${route.path}, spec ${op.method} ${op.v1Path}`);
      }
      const expected =
        route.success === 'delete' ? ['204', '205'] : route.success === 'upsert' ? ['200', '201'] : [String(route.success)];
      // 0.202: a 204 beside 200/201 is the answer to `Prefer: return=minimal`; a 202 beside a delete's
      // 204/205 is a removal waiting for an administrator.
      const declared = declaredStatuses(route.id)
        .filter((status) => status.startsWith('2'))
        .filter((status, _, all) => !(status === '204' && all.length === 2 && (all.includes('200') || all.includes('201'))))
        .filter((status, _, all) => !(status === '202' && all.includes('204') && all.includes('205')));
      if (expected.join() !== [...declared].sort().join()) {
        problems.push(`${route.id}: route answers ${expected.join('/')}, spec declares ${declared.join('/')}`);
      }
      const requestBody = op.operation.requestBody as { required?: boolean } | undefined;
      if (Boolean(route.body) !== Boolean(requestBody)) {
        problems.push(`${route.id}: route ${route.body ? 'takes' : 'takes no'} body, spec ${requestBody ? 'has' : 'has no'} requestBody`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('coverage', () => {
  // Runs last (tests of a file run in order): every slice operation answered 2xx with a valid body.
  it('validated a success body of every operation of the slice', () => {
    const covered = new Set([...validatedSuccesses].map((key) => key.split(' ')[0]));
    expect(SLICE.filter((id) => !covered.has(id))).toEqual([]);
    for (const id of ['createCollection', 'createSpace', 'duplicateSpace']) expect(validatedSuccesses).toContain(`${id} 201`);
    for (const id of ['deleteCollectionById', 'deleteSpaceById']) {
      expect(validatedSuccesses).toContain(`${id} 205`);
      expect(validatedSuccesses).toContain(`${id} 204`);
    }
  });
});
