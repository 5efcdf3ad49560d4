/**
 * The official GitBook client of 0.202 against `docsctl serve` for the permissions of
 * spaces, collections and sites (24 operations): invite, list users and teams, the
 * aggregate, update and remove; every answer checked against 0.202's schema for its
 * operation and its values asserted.
 */
import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let admin: string;
let rita: string;
let team: string;

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);
/** The 0.202 client cannot read an empty 204/205 body unless told not to parse it. */
const noBody = { format: undefined };

beforeAll(async () => {
  const { servedOrganization } = await import('./official-client.js');
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
  admin = served.boot.user.id;
  const invited = await call('inviteUsersToOrganization', 200, org, { emails: [{ email: 'rita@example.com', role: 'read' }] });
  rita = invited.users[0];
  team = (await call('createOrganizationTeam', 201, org, { title: 'Writers', members: [rita] })).id;
});

afterAll(() => server?.close());

describe('the official GitBook client 0.202: permissions', () => {
  it('spaces: invite a user and a team, list, aggregate, update, remove', async () => {
    const space = await call('createSpace', 201, org, { title: 'Handbook' });
    await call('inviteToSpace', 204, space.id, { role: 'edit', users: [rita] }, noBody);
    await call('inviteToSpace', 204, space.id, { role: 'comment', teams: [team] }, noBody);
    const users = await call('listUserPermissionsInSpace', 200, space.id);
    expect(users).toMatchObject({ count: 1, items: [{ permission: 'edit', user: { object: 'user', id: rita } }] });
    const teams = await call('listTeamPermissionsInSpace', 200, space.id);
    expect(teams).toMatchObject({ count: 1, items: [{ permission: 'comment', team: { object: 'team', id: team, spaces: 1 } }] });
    const who = await call('listPermissionsAggregateInSpace', 200, space.id);
    expect(who.items.map((item: { user: { id: string }; permission: string }) => [item.user.id, item.permission])).toEqual([
      [rita, 'edit'],
      [admin, 'admin'],
    ]);
    expect((await call('listPermissionsAggregateInSpace', 200, space.id, { role: 'admin' })).items).toHaveLength(1);
    await call('updateUserPermissionInSpace', 204, space.id, rita, { role: 'review' }, noBody);
    await call('updateTeamPermissionInSpace', 204, space.id, team, { role: 'read' }, noBody);
    expect((await call('listUserPermissionsInSpace', 200, space.id)).items[0].permission).toBe('review');
    expect((await call('getSpaceById', 200, space.id)).permissions.admin).toBe(true);
    await call('removeUserFromSpace', 205, space.id, rita, noBody);
    await call('removeUserFromSpace', 204, space.id, rita, noBody);
    await call('removeTeamFromSpace', 205, space.id, team, noBody);
    // Back to her organization role.
    expect((await call('listPermissionsAggregateInSpace', 200, space.id)).items).toMatchObject([{ permission: 'read', user: { id: rita } }, { permission: 'admin' }]);
  });

  it('collections: the same operations', async () => {
    const collection = await call('createCollection', 201, org, { title: 'Guides' });
    await call('inviteToCollection', 204, collection.id, { role: 'create', users: [rita], teams: [team] }, noBody);
    expect((await call('listUserPermissionsInCollection', 200, collection.id)).items).toMatchObject([{ permission: 'create', user: { id: rita } }]);
    expect((await call('listTeamPermissionsInCollection', 200, collection.id)).items).toMatchObject([{ permission: 'create', team: { id: team } }]);
    const who = await call('listPermissionsAggregateInCollection', 200, collection.id, { role: 'create' });
    expect(who.items).toMatchObject([{ permission: 'create', user: { id: rita } }]);
    await call('updateUserPermissionInCollection', 204, collection.id, rita, { role: 'read' }, noBody);
    await call('updateTeamPermissionInCollection', 204, collection.id, team, { role: 'read' }, noBody);
    await call('removeUserFromCollection', 205, collection.id, rita, noBody);
    await call('removeTeamFromCollection', 205, collection.id, team, noBody);
    await call('removeTeamFromCollection', 204, collection.id, team, noBody);
    expect((await call('listUserPermissionsInCollection', 200, collection.id)).count).toBe(0);
  });

  it('sites: grants with their origin in the aggregate', async () => {
    const site = await call('createSite', 201, org, { title: 'Docs' });
    await call('inviteToSite', 204, org, site.id, { role: 'admin', users: [rita] }, noBody);
    await call('inviteToSite', 204, org, site.id, { role: 'edit', teams: [team] }, noBody);
    expect((await call('listUserPermissionsInSite', 200, org, site.id)).items).toMatchObject([{ permission: 'admin', user: { id: rita } }]);
    expect((await call('listTeamPermissionsInSite', 200, org, site.id)).items).toMatchObject([{ permission: 'edit', team: { id: team } }]);
    const who = await call('listPermissionsAggregateInSite', 200, org, site.id, { sort: 'name', order: 'asc' });
    expect(who.items.map((item: { user: { id: string }; permission: string; origin: unknown }) => [item.user.id, item.permission, item.origin])).toEqual([
      [admin, 'admin', { type: 'organization', organization: org }],
      [rita, 'admin', { type: 'site', site: site.id, reason: 'member' }],
    ]);
    expect((await call('listPermissionsAggregateInSite', 200, org, site.id, { team })).items).toMatchObject([{ user: { id: rita } }]);
    await call('updateUserPermissionInSite', 204, org, site.id, rita, { role: 'read' }, noBody);
    await call('updateTeamPermissionInSite', 204, org, site.id, team, { role: 'read' }, noBody);
    expect((await call('listPermissionsAggregateInSite', 200, org, site.id, { role: 'read' })).items).toMatchObject([
      { permission: 'read', origin: { type: 'site', reason: 'member' } },
    ]);
    await call('removeUserFromSite', 205, org, site.id, rita, noBody);
    await call('removeTeamFromSite', 205, org, site.id, team, noBody);
    expect((await call('listUserPermissionsInSite', 200, org, site.id)).count).toBe(0);
  });
});
