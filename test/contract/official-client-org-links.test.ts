/**
 * The official GitBook client against `docsctl serve` for invite links, custom fonts and
 * the API's information: the client's own URLs, methods (a font is created with PUT and
 * updated with POST) and bodies, and a second user joining with the link.
 */
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/domain/accounts.js';
import { ensureUser } from '../../src/domain/core-records.js';
import type { RunningServer } from '../../src/server/server.js';
import { BUILD, VERSION } from '../../src/version.js';
import { clientOperation, servedOrganization } from './official-client.js';

let server: RunningServer;
let admin: GitBookAPI;
let bob: GitBookAPI;
let bobId: string;
let org: string;

beforeAll(async () => {
  const served = await servedOrganization();
  const { store, clock, ids } = served;
  const other = await store.transact((tx) => {
    const { user } = ensureUser(tx, { email: 'bob@else.example' }, ids, clock().toISOString());
    return { id: user.id, token: issueToken(tx, user.id, 'test', clock).token };
  });
  ({ server, api: admin } = served);
  bob = new GitBookAPI({ endpoint: server.url, authToken: other.token });
  bobId = other.id;
  org = served.boot.organization.id;
});

afterAll(() => server?.close());

describe('the official GitBook client: invite links, fonts, API information', () => {
  it('creates an invite link that another user reads and joins with, once', async () => {
    const asAdmin = (id: string) => clientOperation(admin, id);
    const asBob = (id: string) => clientOperation(bob, id);
    await asAdmin('updateOrganizationById')(org, { inviteLinks: true });
    const created = await asAdmin('createOrganizationInvite')(org, { role: 'edit' });
    expect(created.status).toBe(201);
    expect(created.data).toEqual({ object: 'invite', id: expect.any(String), role: 'edit', redundant: true });
    const link = created.data.id as string;
    expect((await asAdmin('listOrganizationInviteLinks')(org, { limit: 10 })).data).toEqual({ count: 1, items: [created.data] });
    expect((await asBob('getOrganizationInviteLink')(org, link)).data).toMatchObject({ id: link, redundant: false });
    expect((await asBob('joinOrganizationWithInvite')(org, link)).data).toEqual({});
    expect((await asBob('joinOrganizationWithInvite')(org, link)).status).toBe(200);
    expect((await asAdmin('getMemberInOrganizationById')(org, bobId)).data).toMatchObject({ id: bobId, role: 'edit' });
    expect((await asAdmin('updateOrganizationInviteById')(org, link, { role: 'read' })).data.role).toBe('read');
    expect((await asAdmin('deleteOrganizationInviteById')(org, link)).status).toBe(205);
    const gone = await asBob('joinOrganizationWithInvite')(org, link).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(GitBookAPIError);
    expect((gone as GitBookAPIError).code).toBe(404);
  });

  it('creates (PUT), lists, reads, updates (POST) and deletes a custom font', async () => {
    const call = (id: string) => clientOperation(admin, id);
    const url = (weight: number) => `https://cdn.example.com/inter-${weight}.woff2`;
    const created = await call('createCustomFont')(org, { fontFamily: 'Inter', fontFaces: [{ weight: 400, storageKey: url(400) }] });
    expect(created.status).toBe(201);
    const font = created.data;
    expect(font).toEqual({ id: expect.any(String), custom: true, fontFamily: 'Inter', fontFaces: [{ weight: 400, sources: [{ url: url(400), format: 'woff2' }] }], permissions: { edit: true } });
    expect((await call('listCustomFonts')(org)).data.items).toEqual([font]);
    expect((await call('getCustomFont')(org, font.id)).data).toEqual(font);
    const updated = await call('updateCustomFont')(org, font.id, { fontFaces: [{ weight: 700, storageKey: url(700) }] });
    expect(updated.status).toBe(201);
    expect(updated.data.fontFaces.map((face: { weight: number }) => face.weight)).toEqual([400, 700]);
    const refused = await call('updateCustomFont')(org, font.id, { fontFaces: [{ weight: 400, storageKey: null }] }).catch((error: unknown) => error);
    expect((refused as GitBookAPIError).code).toBe(412);
    expect((await call('deleteCustomFont')(org, font.id)).status).toBe(205);
  });

  it("answers the API's version and build", async () => {
    expect((await clientOperation(admin, 'getApiInformation')()).data).toEqual({ version: VERSION, build: BUILD });
  });
});
