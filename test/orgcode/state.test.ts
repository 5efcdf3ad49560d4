/**
 * How OrgState reads team memberships: locally one listing of every membership when the file
 * names a good part of the teams; one listing per team otherwise and against any server (the
 * public operations GitBook has). Both give the same members, in the same order.
 */
import { describe, expect, it } from 'vitest';
import type { RouteId } from '../../src/api/route-id.js';
import type { RawInput } from '../../src/api/validate.js';
import { OrgState } from '../../src/orgcode/state.js';
import type { ApiResponse, Transport } from '../../src/transport/types.js';

const TEAMS = ['t1', 't2', 't3', 't4'];
const MEMBERS = [
  { id: 'u1', email: 'a@x.io' },
  { id: 'u2', email: 'b@x.io' },
];
/** team → [user, role] */
const MEMBERSHIPS: Record<string, Array<[string, 'owner' | 'member']>> = { t1: [['u1', 'owner'], ['u2', 'member']], t2: [['u2', 'member']], t3: [], t4: [['u1', 'member']] };

function fakeTransport(mode: 'local' | 'remote'): Transport & { calls: string[] } {
  const calls: string[] = [];
  const list = (items: unknown[]): ApiResponse => ({ status: 200, body: { items } });
  return {
    mode,
    calls,
    async request(route: RouteId, input: RawInput): Promise<ApiResponse> {
      const params = (input.params ?? {}) as Record<string, string>;
      calls.push(params.teamId ? `${route} ${params.teamId}` : route);
      switch (route) {
        case 'listMembersInOrganizationById':
          return list(MEMBERS.map((m) => ({ id: m.id, role: 'read', user: { id: m.id, email: m.email } })));
        case 'listTeamsInOrganizationById':
          return list(TEAMS.map((id) => ({ id, title: id.toUpperCase() })));
        case 'listTeamMembersInOrganizationById':
          return list((MEMBERSHIPS[params.teamId as string] ?? []).map(([user, role]) => ({ organization: { id: user, user: { email: MEMBERS.find((m) => m.id === user)?.email } }, team: { role } })));
        case 'listTeamMembershipsInOrganization':
          return list(Object.entries(MEMBERSHIPS).flatMap(([team, members]) => members.map(([user, role]) => ({ team, user, role }))).sort((a, b) => a.user.localeCompare(b.user)));
        default:
          return list([]);
      }
    },
    raw: () => Promise.reject(new Error('not used')),
    close: () => Promise.resolve(),
  };
}

async function membersOf(mode: 'local' | 'remote', prefetch: string[]) {
  const transport = fakeTransport(mode);
  const state = await OrgState.read(transport, 'org');
  state.prefetchTeamMembers(prefetch);
  const members = Object.fromEntries(await Promise.all(TEAMS.map(async (id) => [id, await state.teamMembers(id)] as const)));
  return { members, calls: transport.calls.filter((call) => call.startsWith('listTeamMember')) };
}

describe('OrgState team memberships', () => {
  const expected = {
    t1: [{ id: 'u1', email: 'a@x.io', role: 'owner' }, { id: 'u2', email: 'b@x.io', role: 'member' }],
    t2: [{ id: 'u2', email: 'b@x.io', role: 'member' }],
    t3: [],
    t4: [{ id: 'u1', email: 'a@x.io', role: 'member' }],
  };

  it('reads them locally in one listing of every membership', async () => {
    const { members, calls } = await membersOf('local', TEAMS);
    expect(members).toEqual(expected);
    expect(calls).toEqual(['listTeamMembershipsInOrganization']);
  });

  it('lists each team against a server, and locally when the file names few of the teams', async () => {
    const remote = await membersOf('remote', TEAMS);
    expect(remote.members).toEqual(expected);
    expect(remote.calls).toEqual(TEAMS.map((id) => `listTeamMembersInOrganizationById ${id}`));
    const few = await membersOf('local', ['t1']);
    expect(few.members).toEqual(expected);
    expect(few.calls).not.toContain('listTeamMembershipsInOrganization');
  });
});
