/**
 * The official GitBook client against `docsctl serve` for conversations with the organization's
 * agent: provision (204, twice), list, rename, delete (205, then 404); answers checked against the
 * 0.202 schemas; another member may not rename or delete someone else's conversation (403), an
 * admin may.
 */
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, clientOperation, compileValidators, memberClient, refusalOf, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let adminToken: string;
let clock: { advance(ms: number): void };

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);

beforeAll(async () => {
  compileValidators([
    ['listOrganizationAgentConversations', 200],
    ['updateOrganizationAgentConversation', 200],
  ]);
  const served = await servedOrganization();
  ({ server, api, clock } = served);
  org = served.boot.organization.id;
  adminToken = served.boot.token;
});

afterAll(() => server?.close());

describe("the official GitBook client: conversations with the organization's agent", () => {
  it('provisions once, lists, renames and deletes (205, then 204)', async () => {
    const provision = clientOperation(api, 'provisionOrganizationAgentConversation');
    expect((await provision(org, 'c-1')).status).toBe(204);
    clock.advance(1000);
    expect((await provision(org, 'c-1')).status).toBe(204);
    const listed = await call('listOrganizationAgentConversations', 200, org);
    expect(listed).toEqual({
      items: [{ object: 'agent-conversation', id: 'c-1', shared: true, createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:00.000Z' }],
    });
    expect(await call('updateOrganizationAgentConversation', 200, org, 'c-1', { title: 'SSO setup' })).toEqual({
      object: 'agent-conversation',
      id: 'c-1',
      title: 'SSO setup',
      shared: true,
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:01.000Z',
    });
    const remove = clientOperation(api, 'deleteOrganizationAgentConversation');
    expect((await remove(org, 'c-1')).status).toBe(205);
    expect(await refusalOf(api, 'deleteOrganizationAgentConversation', org, 'c-1')).toMatchObject({ code: 404 });
    expect(await call('listOrganizationAgentConversations', 200, org)).toEqual({ items: [] });
    expect(await refusalOf(api, 'updateOrganizationAgentConversation', org, 'c-1', { title: 'X' })).toMatchObject({ code: 404 });
    expect(await refusalOf(api, 'provisionOrganizationAgentConversation', org, '-rf')).toMatchObject({ code: 400, message: expect.stringMatching(/Invalid conversation id "-rf"/) });
  });

  it("only its creator or an admin renames or deletes a conversation", async () => {
    const bo = await memberClient(server, adminToken, org, { email: 'bo@example.com', displayName: 'Bo', role: 'edit' });
    expect((await clientOperation(api, 'provisionOrganizationAgentConversation')(org, 'ada-1')).status).toBe(204);
    expect((await clientOperation(bo, 'provisionOrganizationAgentConversation')(org, 'bo-1')).status).toBe(204);
    // Everyone sees every conversation (they are shared).
    expect((await checkedCall(bo, 'listOrganizationAgentConversations', 200, org)).items.map((item: { id: string }) => item.id)).toEqual(['ada-1', 'bo-1']);
    expect(await refusalOf(bo, 'updateOrganizationAgentConversation', org, 'ada-1', { title: 'Mine' })).toMatchObject({ code: 403 });
    expect(await refusalOf(bo, 'deleteOrganizationAgentConversation', org, 'ada-1')).toMatchObject({ code: 403 });
    expect(await checkedCall(bo, 'updateOrganizationAgentConversation', 200, org, 'bo-1', { title: 'Bo asks' })).toMatchObject({ title: 'Bo asks' });
    expect((await clientOperation(api, 'deleteOrganizationAgentConversation')(org, 'bo-1')).status).toBe(205);
  });
});
