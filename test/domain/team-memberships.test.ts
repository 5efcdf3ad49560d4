/**
 * listTeamMembershipsInOrganization (docsctl extension, GET /v1/orgs/{organizationId}/x-docsctl/team-members):
 * every team membership of an organization in one list, as `apply` reads it locally. The role
 * each member's team set keeps follows every change of it; rows written before the set kept
 * the role read it from the team's member row; other organizations' memberships never show.
 */
import { describe, expect, it } from 'vitest';
import { memberTeams, memberTeamsOwner } from '../../src/domain/teams-records.js';
import { type Obj, setup } from './harness.js';

interface Membership {
  team: string;
  user: string;
  role: 'owner' | 'member';
}
interface Listed {
  items: Membership[];
  next?: { page: string };
}

async function world() {
  const h = await setup();
  const org = { organizationId: h.orgId };
  const ada = await h.member('ada@x.io', 'edit');
  const bob = await h.member('bob@x.io', 'read');
  const team = (title: string, members: string[]) => h.ok<Obj>(h.adminId, 'createOrganizationTeam', { params: org, body: { title, members } }, 201);
  const list = (query: Record<string, unknown> = {}, as = h.adminId) => h.ok<Listed>(as, 'listTeamMembershipsInOrganization', { params: org, query });
  /** Every membership, page by page. */
  const all = async (limit: number) => {
    const out: Membership[] = [];
    let page: string | undefined;
    do {
      const answer = await list({ limit, ...(page ? { page } : {}) });
      out.push(...answer.items);
      page = answer.next?.page;
    } while (page);
    return out;
  };
  const sorted = (items: Membership[]) => [...items].sort((a, b) => `${a.user}/${a.team}`.localeCompare(`${b.user}/${b.team}`));
  return { ...h, org, ada, bob, team, list, all, sorted };
}

describe('listTeamMembershipsInOrganization', () => {
  it("lists every membership with its team role, page by page, and follows adds, role changes and removals", async () => {
    const w = await world();
    const docs = await w.team('Docs', [w.ada, w.bob]);
    const ops = await w.team('Ops', [w.bob]);
    await w.ok(w.adminId, 'updateMembersInOrganizationTeam', { params: { ...w.org, teamId: docs.id }, body: { memberships: { [w.ada]: { role: 'owner' } } } }, 204);
    expect(w.sorted((await w.list()).items)).toEqual(
      w.sorted([
        { team: docs.id as string, user: w.ada, role: 'owner' },
        { team: docs.id as string, user: w.bob, role: 'member' },
        { team: ops.id as string, user: w.bob, role: 'member' },
      ]),
    );
    expect(await w.all(1)).toEqual((await w.list()).items);

    await w.ok(w.adminId, 'updateMembersInOrganizationTeam', { params: { ...w.org, teamId: docs.id }, body: { remove: [w.bob], memberships: { [w.ada]: { role: 'member' } } } }, 204);
    await w.ok(w.adminId, 'removeTeamFromOrganizationById', { params: { ...w.org, teamId: ops.id } });
    expect((await w.list()).items).toEqual([{ team: docs.id, user: w.ada, role: 'member' }]);
    // A member who leaves the organization leaves its teams.
    await w.ok(w.adminId, 'removeMemberFromOrganizationById', { params: { ...w.org, userId: w.ada } });
    expect((await w.list()).items).toEqual([]);
  });

  it('reads the role of a row written before the team sets kept it from the team member row', async () => {
    const w = await world();
    const docs = await w.team('Docs', [w.ada, w.bob]);
    await w.ok(w.adminId, 'updateMembersInOrganizationTeam', { params: { ...w.org, teamId: docs.id }, body: { memberships: { [w.bob]: { role: 'owner' } } } }, 204);
    await w.store.transact((tx) => {
      for (const user of [w.ada, w.bob]) memberTeams.put(tx, memberTeamsOwner(w.orgId, user), docs.id as string, null);
    });
    expect(w.sorted((await w.list()).items)).toEqual(w.sorted([{ team: docs.id as string, user: w.ada, role: 'member' }, { team: docs.id as string, user: w.bob, role: 'owner' }]));
  });

  it("shows only the organization asked for, to its members with a role (a guest gets 403, an outsider 404)", async () => {
    const w = await world();
    const docs = await w.team('Docs', [w.ada]);
    const other = await w.createOrg('Other', { [w.adminId]: 'admin', [w.bob]: 'read' });
    const theirs = await w.ok<Obj>(w.adminId, 'createOrganizationTeam', { params: { organizationId: other }, body: { title: 'Theirs', members: [w.bob] } }, 201);
    expect((await w.list({}, w.ada)).items).toEqual([{ team: docs.id, user: w.ada, role: 'member' }]);
    expect((await w.ok<Listed>(w.bob, 'listTeamMembershipsInOrganization', { params: { organizationId: other } })).items).toEqual([{ team: theirs.id, user: w.bob, role: 'member' }]);
    const guest = await w.member('guest@x.io', null);
    await w.fails(guest, 'listTeamMembershipsInOrganization', { params: w.org }, 403);
    await w.fails(w.ada, 'listTeamMembershipsInOrganization', { params: { organizationId: other } }, 404);
  });
});
