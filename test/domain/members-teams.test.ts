/**
 * Members and teams (API doc §4.17–4.18) through executeOperation: the rules,
 * the counters, and every answer validated against the real OpenAPI schema.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RouteId } from '../../src/api/route-id.js';
import { getRoute } from '../../src/api/table.js';
import { type OperationResult, executeOperation } from '../../src/domain/execute.js';
import { type UserRecord, ensureUser, getUser, orgMemberList, putUser, userOrgList } from '../../src/domain/core-records.js';
import { type TeamMemberRow, refreshTeamRows, teamMembers } from '../../src/domain/teams-records.js';
import { errorBodyValidator, responseValidator } from '../contract/openapi.js';
import { type Harness, ORIGIN, type Obj, setup } from './harness.js';

type Body = Record<string, unknown>;
interface ListOf<T = Body> {
  items: T[];
  count: number;
  next?: { page: string };
}

/** Checks a success body against the operation's schema in the real API document. */
function conforms(id: string, result: OperationResult): void {
  if (result.body === undefined) return;
  expect(responseValidator(id, result.status)(result.body).errors, `${id} ${result.status}`).toEqual([]);
}

/** A snapshot that records each row it is asked for (`table key`). */
function recordingReader<R extends object>(snapshot: R): { reads: string[]; reader: R } {
  const reads: string[] = [];
  const reader = new Proxy(snapshot, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (name !== 'get' && name !== 'has' && name !== 'scan') return value;
      return (table: string, key: unknown, ...rest: unknown[]) => {
        reads.push(`${table} ${typeof key === 'string' ? key : JSON.stringify(key)}`);
        return (value as (...args: unknown[]) => unknown).call(target, table, key, ...rest);
      };
    },
  });
  return { reads, reader };
}

async function world() {
  const h = await setup();
  const org = { organizationId: h.orgId };
  /** Calls as `userId`; checks the schema; returns the body. */
  async function as<T = Body>(userId: string, id: RouteId, raw: Parameters<Harness['call']>[2] = {}, status?: number): Promise<T> {
    const result = await h.call(userId, id, raw);
    if (status !== undefined) expect(result.status).toBe(status);
    conforms(id, result);
    return result.body as T;
  }
  const admin = <T = Body>(id: RouteId, raw: Parameters<Harness['call']>[2] = {}, status?: number) => as<T>(h.adminId, id, raw, status);
  const ada = await h.member('ada@x.io', 'edit');
  const bob = await h.member('bob@x.io', 'read');
  const cy = await h.member('cy@x.io', null);
  const createTeam = (title: string, members?: string[]) =>
    admin<Obj>('createOrganizationTeam', { params: org, body: members ? { title, members } : { title } }, 201);
  return { ...h, org, as, admin, ada, bob, cy, createTeam };
}

describe('members', () => {
  it('lists members newest first, with role/search filters, asc order, and pages with key cursors', async () => {
    const { admin, org, ada, bob, cy, adminId } = await world();
    const all = await admin<ListOf<Obj>>('listMembersInOrganizationById', { params: org });
    expect(all.count).toBe(4);
    expect(all.items.map((m) => m.id)).toEqual([cy, bob, ada, adminId]);
    const asc = await admin<ListOf<Obj>>('listMembersInOrganizationById', { params: org, query: { order: 'asc', limit: 3 } });
    expect(asc.items.map((m) => m.id)).toEqual([adminId, ada, bob]);
    const rest = await admin<ListOf<Obj>>('listMembersInOrganizationById', { params: org, query: { order: 'asc', page: asc.next?.page } });
    expect(rest.items.map((m) => m.id)).toEqual([cy]);
    const guests = await admin<ListOf<Obj>>('listMembersInOrganizationById', { params: org, query: { role: 'guest' } });
    expect(guests).toMatchObject({ count: 1, items: [{ id: cy, role: null }] });
    const search = await admin<ListOf<Obj>>('listMembersInOrganizationById', { params: org, query: { search: 'BOB' } });
    expect(search.items.map((m) => m.id)).toEqual([bob]);
    const page1 = await admin<ListOf<Obj>>('listMembersInOrganizationById', { params: org, query: { role: 'edit', limit: 0 } });
    expect(page1.count).toBe(1);
  });

  it('sorts by last seen (active members only) after pings', async () => {
    const { admin, as, org, ada, bob, clock } = await world();
    await as(bob, 'updateOrganizationMemberLastSeenAt', { params: org }, 200);
    clock.advance(60_000);
    await as(ada, 'updateOrganizationMemberLastSeenAt', { params: org }, 200);
    const active = await admin<ListOf<Obj>>('listMembersInOrganizationById', { params: org, query: { sort: 'lastSeenAt' } });
    expect(active.items.map((m) => m.id)).toEqual([ada, bob]);
    expect(active.items[0]?.lastSeenAt).toBe('2026-01-01T00:01:00.000Z');
  });

  it('changes a role, marks SSO, and keeps the last admin (409 on demote and remove, nothing changed)', async () => {
    const { admin, fails, org, ada, adminId } = await world();
    const edited = await admin('updateMemberInOrganizationById', { params: { ...org, userId: ada }, body: { role: 'review' } });
    expect(edited).toMatchObject({ id: ada, role: 'review' });
    expect(await admin('setUserAsSSOMemberForOrganization', { params: { ...org, userId: ada } })).toMatchObject({ sso: true });
    await fails(adminId, 'updateMemberInOrganizationById', { params: { ...org, userId: adminId }, body: { role: 'edit' } }, 409, /last admin/);
    await fails(adminId, 'removeMemberFromOrganizationById', { params: { ...org, userId: adminId } }, 409, /last admin/);
    expect(await admin('getMemberInOrganizationById', { params: { ...org, userId: adminId } })).toMatchObject({ role: 'admin' });
    // With a second admin, the first may step down.
    await admin('updateMemberInOrganizationById', { params: { ...org, userId: ada }, body: { role: 'admin' } });
    expect(await admin('updateMemberInOrganizationById', { params: { ...org, userId: adminId }, body: { role: 'edit' } })).toMatchObject({ role: 'edit' });
  });

  it('needs admin to change others (403) but lets a member leave; removal leaves the teams too', async () => {
    const { admin, fails, as, org, ada, bob, createTeam, store } = await world();
    const team = await createTeam('Docs', [ada, bob]);
    const gen = store.read().gen;
    await fails(ada, 'removeMemberFromOrganizationById', { params: { ...org, userId: bob } }, 403, /"admin" role/);
    await fails(ada, 'updateMemberInOrganizationById', { params: { ...org, userId: bob }, body: { role: 'admin' } }, 403, /"admin" role/);
    expect(store.read().gen).toBe(gen);
    const left = await as(bob, 'removeMemberFromOrganizationById', { params: { ...org, userId: bob } });
    expect(left).toBeUndefined();
    expect(await admin('getTeamInOrganizationById', { params: { ...org, teamId: team.id } })).toMatchObject({ members: 1 });
    await fails(ada, 'getMemberInOrganizationById', { params: { ...org, userId: bob } }, 404, /not a member/);
  });

  it("lists a member's spaces with their permission and their teams with their team role", async () => {
    const { admin, org, ada, cy, createSpace, createTeam } = await world();
    const s1 = await createSpace({ title: 'One' });
    const s2 = await createSpace({ title: 'Two' });
    const spaces = await admin<ListOf<{ permission: string; space: Obj }>>('listSpacesForOrganizationMember', { params: { ...org, userId: ada } });
    expect(spaces.items.map((i) => [i.space.id, i.permission])).toEqual([[s2.id, 'edit'], [s1.id, 'edit']]);
    expect(await admin('getMemberInOrganizationById', { params: { ...org, userId: ada } })).toMatchObject({ spaces: 2, teams: 0, sites: 0 });
    // 0.202 `sites`: a member sees every site of the organization, a guest none.
    await admin('createSite', { params: org, body: { title: 'Help' } });
    expect(await admin('getMemberInOrganizationById', { params: { ...org, userId: ada } })).toMatchObject({ sites: 1 });
    expect(await admin('getMemberInOrganizationById', { params: { ...org, userId: cy } })).toMatchObject({ sites: 0 });
    const guestSpaces = await admin<ListOf>('listSpacesForOrganizationMember', { params: { ...org, userId: cy } });
    expect(guestSpaces).toEqual({ count: 0, items: [] });
    const docs = await createTeam('Docs', [ada]);
    await createTeam('Platform', [ada]);
    await admin('addMemberToOrganizationTeamById', { params: { ...org, teamId: docs.id, userId: ada }, body: { role: 'owner' } }, 204);
    const teams = await admin<ListOf<{ team: Obj; member: { role: string } }>>('listTeamsForOrganizationMember', { params: { ...org, userId: ada }, query: { title: 'doc' } });
    expect(teams.items.map((i) => [i.team.title, i.member.role])).toEqual([['Docs', 'owner']]);
    expect(await admin('getMemberInOrganizationById', { params: { ...org, userId: ada } })).toMatchObject({ teams: 2 });
  });

  it('hides members from guests (403) and from other organizations (404); answers errors in the API shape', async () => {
    const { fails, org, cy, ada, createOrg, store, clock, ids } = await world();
    const error = await fails(cy, 'listMembersInOrganizationById', { params: org }, 403, /"read" role/);
    expect(errorBodyValidator(403)(error.toBody()).errors).toEqual([]);
    const outsider = await store.transact((tx) => ensureUser(tx, { email: 'out@y.io' }, ids, clock().toISOString()).user.id);
    await createOrg('Other', { [outsider]: 'admin' });
    await fails(outsider, 'getMemberInOrganizationById', { params: { ...org, userId: ada } }, 404, /not found/);
  });
});

describe('teams', () => {
  it('creates (201), lists, gets, renames and deletes teams; counters follow', async () => {
    const { admin, org, ada, bob, createTeam, fails, adminId } = await world();
    const docs = await createTeam('Docs', [ada, 'bob@x.io']);
    expect(docs).toMatchObject({ object: 'team', title: 'Docs', members: 2, spaces: 0, permissions: { admin: true, view: true } });
    await createTeam('Platform');
    const list = await admin<ListOf<Obj>>('listTeamsInOrganizationById', { params: org });
    expect(list.items.map((t) => t.title)).toEqual(['Docs', 'Platform']);
    const filtered = await admin<ListOf<Obj>>('listTeamsInOrganizationById', { params: org, query: { title: 'PLAT' } });
    expect(filtered.items.map((t) => t.title)).toEqual(['Platform']);
    const renamed = await admin('updateTeamInOrganizationById', { params: { ...org, teamId: docs.id }, body: { title: 'Documentation' } });
    expect(renamed).toMatchObject({ title: 'Documentation', members: 2 });
    expect((await admin('getMemberInOrganizationById', { params: { ...org, userId: bob } })).teams).toBe(1);
    expect((await admin<OperationResult>('removeTeamFromOrganizationById', { params: { ...org, teamId: docs.id } }))).toBeUndefined();
    expect((await admin('getMemberInOrganizationById', { params: { ...org, userId: bob } })).teams).toBe(0);
    await fails(adminId, 'getTeamInOrganizationById', { params: { ...org, teamId: docs.id } }, 404);
    const again = await admin<ListOf<Obj>>('listTeamsInOrganizationById', { params: org });
    expect(again.count).toBe(1);
  });

  it('refuses a team with non-members, listing them (404), and creates nothing', async () => {
    const { org, fails, adminId, store, ada } = await world();
    const before = store.read().gen;
    await fails(adminId, 'createOrganizationTeam', { params: org, body: { title: 'X', members: [ada, 'nobody@x.io', 'nope'] } }, 404, /nobody@x\.io, nope/);
    expect(store.read().gen).toBe(before);
  });

  it('applies a batch update in one commit: remove wins over add, roles by id or e-mail; all or nothing', async () => {
    const { admin, as, org, ada, bob, cy, createTeam, fails, adminId, store, call } = await world();
    const team = await createTeam('Docs', [ada, bob]);
    const params = { ...org, teamId: team.id };
    await admin('updateMembersInOrganizationTeam', { params, body: { add: ['cy@x.io', bob], remove: [bob], memberships: { [ada]: { role: 'owner' } } } }, 204);
    const members = await admin<ListOf<{ organization: Obj; team: { role: string }; permissions: { view: boolean } }>>('listTeamMembersInOrganizationById', { params });
    const roles = Object.fromEntries(members.items.map((m) => [m.organization.id, m.team.role]));
    expect(roles).toEqual({ [ada]: 'owner', [cy]: 'member' });
    expect(members.count).toBe(2);
    // Local mode takes the listing without a JSON round trip: it must be exactly what serve sends.
    await as(ada, 'updateOrganizationMemberLastSeenAt', { params: org }, 200); // an optional field (lastSeenAt) present
    const listed = await call(adminId, 'listTeamMembersInOrganizationById', { params, query: { limit: 1 } });
    expect(JSON.parse(listed.json ?? 'null')).toStrictEqual(listed.body);
    expect((listed.body as { next?: unknown }).next).toBeDefined();
    const gen = store.read().gen;
    await fails(adminId, 'updateMembersInOrganizationTeam', { params, body: { add: [bob, 'ghost@x.io'], remove: [ada] } }, 404, /ghost@x\.io/);
    await fails(adminId, 'updateMembersInOrganizationTeam', { params, body: { remove: [ada, `${ada}/x`, '../x'], memberships: { 'a/b': { role: 'owner' } } } }, 404, /\/x, \.\.\/x$|\/x, \.\.\/x;/);
    await fails(adminId, 'updateMembersInOrganizationTeam', { params, body: { memberships: { 'a/b': { role: 'owner' } } } }, 404, /a\/b/);
    expect(store.read().gen).toBe(gen);
    const result = await call(adminId, 'deleteMemberFromOrganizationTeamById', { params: { ...params, userId: cy } });
    expect(result.status).toBe(205);
    const none = await call(adminId, 'deleteMemberFromOrganizationTeamById', { params: { ...params, userId: cy } });
    expect(none.status).toBe(204);
  });

  it('lets a team owner manage the team but not create or delete teams; plain members get 403', async () => {
    const { admin, as, org, ada, bob, cy, createTeam, fails } = await world();
    const team = await createTeam('Docs', [ada, bob]);
    const params = { ...org, teamId: team.id };
    await fails(ada, 'addMemberToOrganizationTeamById', { params: { ...params, userId: cy }, body: {} }, 403, /"owner" role in team/);
    await admin('addMemberToOrganizationTeamById', { params: { ...params, userId: ada }, body: { role: 'owner' } }, 204);
    expect(await as(ada, 'getTeamInOrganizationById', { params })).toMatchObject({ permissions: { admin: true } });
    expect(await as(bob, 'getTeamInOrganizationById', { params })).toMatchObject({ permissions: { admin: false } });
    await as(ada, 'addMemberToOrganizationTeamById', { params: { ...params, userId: cy }, body: {} }, 204);
    await as(ada, 'updateTeamInOrganizationById', { params, body: { title: 'Docs team' } });
    const owned = await admin<ListOf<Obj>>('listTeamsInOrganizationById', { params: org, query: { owner: ada } });
    expect(owned.items.map((t) => t.id)).toEqual([team.id]);
    await fails(bob, 'updateMembersInOrganizationTeam', { params, body: { remove: [ada] } }, 403, /"owner" role in team/);
    await fails(ada, 'removeTeamFromOrganizationById', { params }, 403, /"admin" role/);
    await fails(ada, 'createOrganizationTeam', { params: org, body: { title: 'Mine' } }, 403, /"admin" role/);
  });
});

/** Bob made admin and an SSO member, Ada seen: three writes of member records. */
async function changeMemberRecords(w: Awaited<ReturnType<typeof world>>): Promise<void> {
  await w.admin('updateMemberInOrganizationById', { params: { ...w.org, userId: w.bob }, body: { role: 'admin' } });
  await w.as(w.ada, 'updateOrganizationMemberLastSeenAt', { params: w.org }, 200);
  await w.admin('setUserAsSSOMemberForOrganization', { params: { ...w.org, userId: w.bob } });
}

describe('member list rows copy what a member listing shows', () => {
  /** The organization's member listing (checked to be its own JSON round trip) and each member as getMemberInOrganizationById shows them. */
  async function listedAndActual(w: Awaited<ReturnType<typeof world>>, query: Record<string, unknown> = {}) {
    const result = await w.call(w.adminId, 'listMembersInOrganizationById', { params: w.org, query });
    // Local mode hands the page over as it is (ExactJson): it must be what serve sends.
    expect(JSON.parse(result.json ?? 'null')).toStrictEqual(result.body);
    const listed = (result.body as ListOf<Obj>).items;
    const actual = await Promise.all(listed.map((item) => w.admin('getMemberInOrganizationById', { params: { ...w.org, userId: item.id } })));
    return { listed, actual };
  }

  it('lists members from their rows alone: no member, user or team-count row is read', async () => {
    const w = await world();
    await w.createTeam('Docs', [w.ada, w.bob]);
    const { reads, reader } = recordingReader(w.store.read());
    const result = await executeOperation({ store: w.store, reader, actor: { userId: w.adminId }, clock: w.clock, ids: w.ids, origin: ORIGIN }, getRoute('listMembersInOrganizationById'), { params: w.org });
    expect((result.body as ListOf).items).toHaveLength(4);
    // The caller's own member record (the access check) is the only one read.
    expect([...new Set(reads.filter((read) => /^(users|members|memberTeams\.n) /.test(read)))]).toEqual([`members ${w.orgId}/${w.adminId}`]);
  });

  it('keeps the copies right when the member record, the user or their teams change, in every order and filter', async () => {
    const w = await world();
    const check = async (query: Record<string, unknown> = {}) => {
      const { listed, actual } = await listedAndActual(w, query);
      expect(listed).toStrictEqual(actual);
      return listed;
    };
    await check();
    await changeMemberRecords(w);
    const docs = await w.createTeam('Docs', [w.ada, w.bob]);
    await w.createTeam('Platform', [w.ada]);
    expect(await check()).toMatchObject([{ id: w.cy, teams: 0 }, { id: w.bob, role: 'admin', sso: true, teams: 1 }, { id: w.ada, lastSeenAt: expect.any(String), teams: 2 }, { id: w.adminId }]);
    await w.admin('deleteMemberFromOrganizationTeamById', { params: { ...w.org, teamId: docs.id, userId: w.ada } });
    await w.store.transact((tx) => {
      const user = getUser(tx, w.bob) as UserRecord;
      putUser(tx, { ...user, displayName: 'Bob B.' });
      for (const { id } of userOrgList.all(tx, w.bob)) refreshTeamRows(tx, id, w.bob);
    });
    expect(await check({ order: 'asc' })).toMatchObject([{ id: w.adminId }, { id: w.ada, teams: 1 }, { id: w.bob, user: { displayName: 'Bob B.' } }, { id: w.cy }]);
    expect(await check({ role: 'admin' })).toHaveLength(2);
    expect(await check({ sort: 'lastSeenAt' })).toMatchObject([{ id: w.ada }]);
  });

  it('lists rows written before the copies existed from the records', async () => {
    const w = await world();
    await w.store.transact((tx) => {
      for (const { id } of orgMemberList.all(tx, w.orgId)) orgMemberList.update(tx, w.orgId, id, null);
    });
    const { listed, actual } = await listedAndActual(w);
    expect(listed).toHaveLength(4);
    expect(listed).toStrictEqual(actual);
  });
});

describe('team member rows copy what a team listing shows', () => {
  type Item = { organization: Obj; team: { role: string } };
  /** The team's listing, each member as `getMemberInOrganizationById` shows them (the records themselves). */
  async function listedAndActual(w: Awaited<ReturnType<typeof world>>, teamId: string) {
    const listed = await w.admin<ListOf<Item>>('listTeamMembersInOrganizationById', { params: { ...w.org, teamId } });
    const actual = await Promise.all(listed.items.map((item) => w.admin('getMemberInOrganizationById', { params: { ...w.org, userId: item.organization.id } })));
    return { listed: listed.items.map((item) => item.organization), actual };
  }

  it('lists a team from its rows alone: no member, user or team-count row of the members is read', async () => {
    const w = await world();
    const team = await w.createTeam('Docs', [w.ada, w.bob, w.cy]);
    const { reads, reader } = recordingReader(w.store.read());
    const result = await executeOperation(
      { store: w.store, reader, actor: { userId: w.adminId }, clock: w.clock, ids: w.ids, origin: ORIGIN },
      getRoute('listTeamMembersInOrganizationById'),
      { params: { ...w.org, teamId: team.id } },
    );
    expect((result.body as ListOf).items).toHaveLength(3);
    // The caller's own member record (the access check, and the handler's role check) is the only one read.
    expect([...new Set(reads.filter((read) => /^(users|members|memberTeams\.n) /.test(read)))]).toEqual([`members ${w.orgId}/${w.adminId}`]);
  });

  it('keeps the copies right when the member record, the user or their teams change', async () => {
    const w = await world();
    const docs = await w.createTeam('Docs', [w.ada, w.bob]);
    const check = async () => {
      const { listed, actual } = await listedAndActual(w, docs.id);
      expect(listed).toStrictEqual(actual);
      return listed;
    };
    await check();
    await changeMemberRecords(w);
    expect(await check()).toMatchObject([
      { id: w.ada, lastSeenAt: expect.any(String), teams: 1 },
      { id: w.bob, role: 'admin', sso: true, teams: 1 },
    ]);
    const platform = await w.createTeam('Platform', [w.ada]);
    await w.admin('addMemberToOrganizationTeamById', { params: { ...w.org, teamId: platform.id, userId: w.bob }, body: {} }, 204);
    expect(await check()).toMatchObject([{ id: w.ada, teams: 2 }, { id: w.bob, teams: 2 }]);
    await w.admin('deleteMemberFromOrganizationTeamById', { params: { ...w.org, teamId: platform.id, userId: w.ada } });
    await w.admin('updateMembersInOrganizationTeam', { params: { ...w.org, teamId: platform.id }, body: { add: [w.cy] } }, 204);
    expect(await check()).toMatchObject([{ id: w.ada, teams: 1 }, { id: w.bob, teams: 2 }]);
    await w.admin('removeTeamFromOrganizationById', { params: { ...w.org, teamId: platform.id } });
    expect(await check()).toMatchObject([{ id: w.ada, teams: 1 }, { id: w.bob, teams: 1 }]);
    // A change to a user (no operation renames one yet) refreshes their rows in each organization.
    await w.store.transact((tx) => {
      const user = getUser(tx, w.ada) as UserRecord;
      putUser(tx, { ...user, displayName: 'Ada L.', photoURL: 'https://x.io/ada.png' });
      for (const { id } of userOrgList.all(tx, w.ada)) refreshTeamRows(tx, id, w.ada);
    });
    expect(await check()).toMatchObject([{ id: w.ada, user: { displayName: 'Ada L.', photoURL: 'https://x.io/ada.png' } }, { id: w.bob }]);
  });

  it('lists rows written before the copies existed from the records', async () => {
    const w = await world();
    const docs = await w.createTeam('Docs', [w.ada, w.bob]);
    await w.store.transact((tx) => {
      for (const { id } of teamMembers.all(tx, docs.id)) teamMembers.put(tx, docs.id, id, { role: 'member' });
    });
    expect(w.store.read().get<TeamMemberRow>(teamMembers.table, `${docs.id}/${w.ada}`)?.member).toBeUndefined();
    const { listed, actual } = await listedAndActual(w, docs.id);
    expect(listed).toStrictEqual(actual);
  });

  it('changes member and user records only where the copies are refreshed (or none exist yet)', () => {
    // A new write path for these records must refresh the team rows (teams-records.ts), then be listed here.
    const writers = (pattern: RegExp) =>
      readdirSync('src', { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
        .flatMap((entry) => {
          const file = join(entry.parentPath, entry.name);
          return readFileSync(file, 'utf8').split('\n').flatMap((line) => (pattern.test(line) ? [`${relative('src', file)}:${line.trim()}`] : []));
        });
    expect(writers(/\.put\(\s*Tables\.members\b/)).toEqual([
      'domain/core-records.ts:tx.put(Tables.members, key, member);', // addMember: a new member is in no team
      'domain/members.ts:tx.put(Tables.members, memberKey(orgId, userId), member);', // putMember: refreshes
    ]);
    expect(writers(/\bputUser\(|\.put\(\s*Tables\.users\b/)).toEqual([
      'domain/core-records.ts:export const putUser = (tx: StoreWriter, user: UserRecord) => tx.put(Tables.users, user.id, user);',
      'domain/core-records.ts:putUser(tx, user);', // ensureUser: a new user is in no team
      'domain/users.ts:putUser(ctx.tx, updated);', // updateUserById: refreshes
    ]);
  });
});
