/**
 * Contract tests of invite links, custom fonts, getApiInformation and getSubdomain: every operation
 * is called through `executeOperation` with inputs the real API accepts, and every
 * answer (errors included) is validated against @gitbook/api 0.202.0, with its values
 * asserted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routeInfo } from '../../src/api/catalog.js';
import type { RouteId } from '../../src/api/route-id.js';
import { routes } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import type { ExecuteEnv } from '../../src/domain/execute.js';
import { ensureUser } from '../../src/domain/core-records.js';
import { bootstrappedEnv, expectAnswer } from './answers.js';

const ORIGIN = 'http://127.0.0.1:4000';
const validated = new Set<string>();
let admin: ExecuteEnv;
let joiner: ExecuteEnv;
let orgId: string;

const expectContract = <T = Record<string, unknown> & { id: string }>(id: RouteId, raw: RawInput, status: number, env = admin) =>
  expectAnswer<T>(env, id, raw, status, validated);

beforeAll(async () => {
  ({ env: admin, orgId } = await bootstrappedEnv(ORIGIN));
  const bob = await admin.store.transact((tx) => ensureUser(tx, { email: 'bob@else.example' }, admin.ids, admin.clock().toISOString()).user.id);
  joiner = { ...admin, actor: { userId: bob } };
});

describe('invite links, fonts and API information contract (@gitbook/api 0.202.0)', () => {
  it('invite links: create, list, read, change, join, delete', async () => {
    const o = { organizationId: orgId };
    await expectContract('createOrganizationInvite', { params: o, body: { role: 'edit' } }, 409);
    await expectContract('updateOrganizationById', { params: o, body: { inviteLinks: true } }, 200);
    const invite = await expectContract('createOrganizationInvite', { params: o, body: { role: 'edit' } }, 201);
    expect(invite).toEqual({ object: 'invite', id: expect.stringMatching(/^id\d+id\d+$/), role: 'edit', redundant: true });
    await expectContract('createOrganizationInvite', { params: o, body: { level: 'read', space: 'nope' } }, 501);
    const p = { ...o, inviteId: invite.id };
    const list = await expectContract<{ items: unknown[]; count: number }>('listOrganizationInviteLinks', { params: o, query: { limit: 10 } }, 200);
    expect(list).toEqual({ count: 1, items: [invite] });
    expect(await expectContract('getOrganizationInviteLink', { params: p }, 200, joiner)).toEqual({ ...invite, redundant: false });
    expect(await expectContract('updateOrganizationInviteById', { params: p, body: { role: null } }, 200)).toEqual({ ...invite, role: null });
    await expectContract('updateOrganizationInviteById', { params: p, body: { role: 'read' } }, 200);
    expect(await expectContract('joinOrganizationWithInvite', { params: p }, 200, joiner)).toEqual({});
    expect(await expectContract('getOrganizationInviteLink', { params: p }, 200, joiner)).toEqual({ ...invite, role: 'read', redundant: true });
    await expectContract('joinOrganizationWithInvite', { params: { ...o, inviteId: 'nope' } }, 404, joiner);
    await expectContract('deleteOrganizationInviteById', { params: p }, 205);
    await expectContract('deleteOrganizationInviteById', { params: p }, 204);
    await expectContract('getOrganizationInviteLink', { params: p }, 404, joiner);
  });

  it('custom fonts: create, list, read, update, delete', async () => {
    const o = { organizationId: orgId };
    const url = (weight: number) => `https://cdn.example.com/inter-${weight}.woff2`;
    const created = await expectContract('createCustomFont', { params: o, body: { fontFamily: 'Inter', fontFaces: [{ weight: 400, storageKey: url(400) }] } }, 201);
    expect(created).toEqual({
      id: expect.any(String),
      custom: true,
      fontFamily: 'Inter',
      fontFaces: [{ weight: 400, sources: [{ url: url(400), format: 'woff2' }] }],
      permissions: { edit: true },
    });
    await expectContract('createCustomFont', { params: o, body: { fontFamily: 'Inter', fontFaces: [{ weight: 700, storageKey: url(700) }] } }, 412);
    await expectContract('createCustomFont', { params: o, body: { fontFamily: 'Inter', fontFaces: [{ weight: 400, storageKey: 'uploads/inter.woff2' }] } }, 400);
    const p = { ...o, fontId: created.id };
    expect(await expectContract('listCustomFonts', { params: o }, 200)).toEqual({ count: 1, items: [created] });
    expect(await expectContract('getCustomFont', { params: p }, 200)).toEqual(created);
    const updated = await expectContract<{ fontFaces: Array<{ weight: number }> }>(
      'updateCustomFont',
      { params: p, body: { fontFaces: [{ weight: 700, storageKey: url(700) }] } },
      201,
    );
    expect(updated.fontFaces.map((face) => face.weight)).toEqual([400, 700]);
    await expectContract('updateCustomFont', { params: p, body: { fontFaces: [{ weight: 400, storageKey: null }] } }, 412);
    // Bob joined with a read link (above): a member who may read fonts, not change them.
    expect(await expectContract('getCustomFont', { params: p }, 200, joiner)).toMatchObject({ id: created.id, permissions: { edit: false } });
    await expectContract('deleteCustomFont', { params: p }, 205);
    await expectContract('deleteCustomFont', { params: p }, 204);
    await expectContract('getCustomFont', { params: p }, 404);
  });

  it('getApiInformation: version and build', async () => {
    expect(await expectContract('getApiInformation', {}, 200, joiner)).toEqual({ version: '0.0.0-dev', build: 'development' });
  });

  it('getSubdomain: the organization of a hostname', async () => {
    await expectContract('updateOrganizationById', { params: { organizationId: orgId }, body: { hostname: 'acme-docs' } }, 200);
    expect(await expectContract('getSubdomain', { params: { subdomain: 'acme-docs' } }, 200, joiner)).toEqual({
      object: 'subdomain',
      subdomain: 'acme-docs',
      target: { type: 'organization', organization: orgId },
      isActive: true,
    });
    await expectContract('getSubdomain', { params: { subdomain: 'nobody' } }, 404);
  });

  it('validated a success answer of every operation of these modules', () => {
    const ids = routes.filter((route) => ['invite-links', 'fonts', 'system'].includes(routeInfo(route.id).module)).map((route) => route.id);
    expect(ids).toHaveLength(13);
    expect(ids.filter((id) => !validated.has(id))).toEqual([]);
  });
});
