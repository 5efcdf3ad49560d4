/**
 * Invite links: admins manage them, whoever holds one reads it and joins with it,
 * joining twice changes nothing, and the links stay secret and small in the store.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { RawInput } from '../../src/api/validate.js';
import { orgInviteLinks } from '../../src/domain/invite-links.js';
import { ensureUser, getMember } from '../../src/domain/core-records.js';
import { type Harness, type List, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

let h: Harness;
beforeEach(async () => {
  h = await setup();
});

const org = () => ({ organizationId: h.orgId });
const link = (inviteId: string): RawInput => ({ params: { ...org(), inviteId } });

async function enableLinks(): Promise<void> {
  await h.admin.ok('updateOrganizationById', { params: org(), body: { inviteLinks: true } });
}

async function createLink(role: string | null): Promise<{ id: string; role: string | null; redundant: boolean }> {
  const created = await h.admin.ok<{ id: string; role: string | null; redundant: boolean }>('createOrganizationInvite', { params: org(), body: { role } }, 201);
  expect(schemaErrors('InviteLinkToOrganization', created)).toEqual([]);
  return created;
}

/** A user of the store who is in no organization. */
async function stranger(email: string): Promise<string> {
  return h.store.transact((tx) => ensureUser(tx, { email }, h.ids, h.clock().toISOString()).user.id);
}

describe('invite links', () => {
  it('are created by admins once the organization turns them on, listed, read, changed and deleted', async () => {
    await h.admin.fails('createOrganizationInvite', { params: org(), body: { role: 'edit' } }, 409, /Invite links are disabled.*org edit .* --invite-links/);
    await enableLinks();
    const edit = await createLink('edit');
    expect(edit).toEqual({ object: 'invite', id: expect.any(String), role: 'edit', redundant: true });
    const guest = await createLink(null);
    expect(guest.role).toBeNull();
    const list = await h.admin.ok<List>('listOrganizationInviteLinks', { params: org() });
    expect(list.count).toBe(2);
    expect(list.items.map((item) => [item.id, item.role])).toEqual([
      [edit.id, 'edit'],
      [guest.id, null],
    ]);
    const page = await h.admin.ok<List>('listOrganizationInviteLinks', { params: org(), query: { limit: '1' } });
    expect(page.items.map((item) => item.id)).toEqual([edit.id]);
    const next = await h.admin.ok<List>('listOrganizationInviteLinks', { params: org(), query: { page: page.next?.page } });
    expect(next.items.map((item) => item.id)).toEqual([guest.id]);

    expect(await h.admin.ok('updateOrganizationInviteById', { ...link(edit.id), body: { role: 'read' } })).toMatchObject({ id: edit.id, role: 'read' });
    expect(await h.admin.ok('getOrganizationInviteLink', link(edit.id))).toMatchObject({ role: 'read' });
    await h.admin.fails('updateOrganizationInviteById', { ...link(edit.id), body: { level: 'read' } }, 400, /pass "role", not "level"/);
    await h.admin.fails('updateOrganizationInviteById', { ...link(edit.id), body: {} }, 400, /Nothing to update/);
    await h.admin.fails('updateOrganizationInviteById', { ...link('nope'), body: { role: 'read' } }, 404, /Invite link not found/);

    expect((await h.admin.call('deleteOrganizationInviteById', link(edit.id))).status).toBe(205);
    expect((await h.admin.call('deleteOrganizationInviteById', link(edit.id))).status).toBe(204);
    await h.admin.fails('getOrganizationInviteLink', link(edit.id), 404);
    expect(orgInviteLinks.count(h.store.read(), h.orgId)).toBe(1);
  });

  it('have ids no one can guess: two random ids, never reused', async () => {
    await enableLinks();
    const a = await createLink('read');
    const b = await createLink('read');
    // The harness ids are sequential; in production each half carries ~71 random bits.
    expect(a.id).toMatch(/^id\d{6}id\d{6}$/);
    expect(b.id).not.toBe(a.id);
  });

  it('refuses what is not an organization invite, with messages that say what works', async () => {
    await enableLinks();
    const space = await h.createSpace({ title: 'Handbook' });
    await h.admin.fails('createOrganizationInvite', { params: org(), body: { level: 'read', space: space.id } }, 501, /per-space permissions.*"role"/);
    await h.admin.fails('createOrganizationInvite', { params: org(), body: { level: 'read' } }, 400, /"level" goes with "space" or "collection"/);
    await h.admin.fails('createOrganizationInvite', { params: org(), body: {} }, 400, /Missing "role"/);
    await h.admin.fails('createOrganizationInvite', { params: org(), body: { role: 'owner' } }, 400);
  });

  it('only admins manage them; a reader gets 403 and changes nothing', async () => {
    await enableLinks();
    const created = await createLink('edit');
    const reader = await h.member('reader@acme.test', 'read');
    const gen = h.store.read().gen;
    await h.fails(reader, 'listOrganizationInviteLinks', { params: org() }, 403, /"admin" role/);
    await h.fails(reader, 'createOrganizationInvite', { params: org(), body: { role: 'admin' } }, 403);
    await h.fails(reader, 'updateOrganizationInviteById', { ...link(created.id), body: { role: 'admin' } }, 403);
    await h.fails(reader, 'deleteOrganizationInviteById', link(created.id), 403);
    expect(h.store.read().gen).toBe(gen);
  });
});

describe('joining with an invite link', () => {
  it('makes the holder a member with the link role; joining twice changes nothing', async () => {
    await enableLinks();
    const created = await createLink('edit');
    const bob = await stranger('bob@else.test');
    // Before joining, the holder may read the link: joining would give them something.
    expect(await h.ok(bob, 'getOrganizationInviteLink', link(created.id))).toEqual({ object: 'invite', id: created.id, role: 'edit', redundant: false });
    await h.fails(bob, 'getOrganizationById', { params: org() }, 404);

    expect((await h.call(bob, 'joinOrganizationWithInvite', link(created.id))).body).toEqual({});
    expect(getMember(h.store.read(), h.orgId, bob)).toMatchObject({ role: 'edit', disabled: false, sso: false, joinedAt: h.clock().toISOString() });
    expect(await h.ok(bob, 'getOrganizationById', { params: org() })).toMatchObject({ id: h.orgId });
    const members = await h.admin.ok<List>('listMembersInOrganizationById', { params: org() });
    expect(members.items.map((member) => member.id)).toContain(bob);
    expect(await h.ok(bob, 'getOrganizationInviteLink', link(created.id))).toMatchObject({ redundant: true });

    const gen = h.store.read().gen;
    h.clock.advance(60_000);
    expect((await h.call(bob, 'joinOrganizationWithInvite', link(created.id))).status).toBe(200);
    expect(h.store.read().gen).toBe(gen);
  });

  it('raises a lower role to the link role, never lowers one', async () => {
    await enableLinks();
    const reader = await h.member('reader@acme.test', 'read');
    const editor = await h.member('editor@acme.test', 'edit');
    const edit = await createLink('edit');
    const read = await createLink('read');
    await h.ok(reader, 'joinOrganizationWithInvite', link(edit.id));
    expect(getMember(h.store.read(), h.orgId, reader)?.role).toBe('edit');
    await h.ok(editor, 'joinOrganizationWithInvite', link(read.id));
    expect(getMember(h.store.read(), h.orgId, editor)?.role).toBe('edit');
    await h.ok(h.adminId, 'joinOrganizationWithInvite', link(read.id));
    expect(getMember(h.store.read(), h.orgId, h.adminId)?.role).toBe('admin');
  });

  it("a raised role shows in the member's teams (their rows copy the member record)", async () => {
    await enableLinks();
    const reader = await h.member('reader@acme.test', 'read');
    const team = await h.admin.ok('createOrganizationTeam', { params: org(), body: { title: 'Docs', members: [reader] } }, 201);
    const admins = await createLink('admin');
    await h.ok(reader, 'joinOrganizationWithInvite', link(admins.id));
    const members = await h.admin.ok<{ items: Array<{ organization: { id: string; role: string } }> }>('listTeamMembersInOrganizationById', {
      params: { ...org(), teamId: team.id },
    });
    expect(members.items.map((item) => [item.organization.id, item.organization.role])).toEqual([[reader, 'admin']]);
  });

    it('a guest link makes a guest', async () => {
    await enableLinks();
    const created = await createLink(null);
    const carol = await stranger('carol@else.test');
    await h.ok(carol, 'joinOrganizationWithInvite', link(created.id));
    expect(getMember(h.store.read(), h.orgId, carol)?.role).toBeNull();
  });

  it('answers the same 404 for an unknown link and an unknown organization, and writes nothing', async () => {
    await enableLinks();
    const created = await createLink('edit');
    const bob = await stranger('bob@else.test');
    const gen = h.store.read().gen;
    const unknownLink = await h.fails(bob, 'joinOrganizationWithInvite', link('id000001'), 404);
    const hostile = await h.fails(bob, 'joinOrganizationWithInvite', link(`${created.id}/../x`), 404);
    const unknownOrg = await h.fails(bob, 'joinOrganizationWithInvite', { params: { organizationId: 'nope', inviteId: created.id } }, 404);
    expect(unknownLink.message).toBe(`Invite link not found in organization ${h.orgId}: it was deleted, or the link is incomplete`);
    expect(hostile.message).toBe(unknownLink.message);
    expect(unknownOrg.message).toBe('Invite link not found in organization nope: it was deleted, or the link is incomplete');
    await h.fails(bob, 'getOrganizationInviteLink', link('id000001'), 404, /Invite link not found/);
    expect(h.store.read().gen).toBe(gen);
  });

  it('stops working when the link is deleted or the organization turns links off', async () => {
    await enableLinks();
    const created = await createLink('edit');
    const bob = await stranger('bob@else.test');
    await h.admin.ok('updateOrganizationById', { params: org(), body: { inviteLinks: false } });
    await h.fails(bob, 'joinOrganizationWithInvite', link(created.id), 403, /Invite links are disabled/);
    await enableLinks();
    await h.admin.call('deleteOrganizationInviteById', link(created.id));
    await h.fails(bob, 'joinOrganizationWithInvite', link(created.id), 404);
    expect(getMember(h.store.read(), h.orgId, bob)).toBeUndefined();
  });
});
