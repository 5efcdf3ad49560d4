/**
 * The official GitBook client of 0.202 against `docsctl serve` for the organization
 * operations that answered 501 before: audit events (what the client's own writes recorded).
 * Every 2xx answer is checked against 0.202's schema and its values asserted.
 */
import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, clientOperation, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let admin: string;
let clock: Awaited<ReturnType<typeof servedOrganization>>['clock'];

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);

beforeAll(async () => {
  const served = await servedOrganization();
  ({ server, api, clock } = served);
  org = served.boot.organization.id;
  admin = served.boot.user.id;
});

afterAll(() => server?.close());

describe('the official GitBook client 0.202: audit events', () => {
  it('lists what its writes recorded, newest first, filtered, and one event with its payload', async () => {
    const space = await call('createSpace', 201, org, { title: 'Handbook' });
    clock.advance(60_000);
    await call('updateSpaceById', 200, space.id, { title: 'Manual' });
    const listed = await call('listOrganizationAuditEvents', 200, org);
    expect(listed.count).toBe(2);
    expect(listed.items.map((event: { action: string; target: unknown; actor: unknown; source: string; occurredAt: string }) => [event.action, event.target, event.actor, event.source, event.occurredAt])).toEqual([
      ['updateSpaceById', { type: 'space', id: space.id, label: 'Manual' }, { type: 'user', id: admin, label: 'Ada' }, 'api', '2026-03-01T10:01:00.000Z'],
      ['createSpace', { type: 'space', id: space.id, label: 'Handbook' }, { type: 'user', id: admin, label: 'Ada' }, 'api', '2026-03-01T10:00:00.000Z'],
    ]);
    const filtered = await call('listOrganizationAuditEvents', 200, org, { action: 'createSpace', actor: admin, target: space.id, from: '2026-03-01T10:00:00Z', to: '2026-03-01T10:00:30Z', limit: 10 });
    expect(filtered.items.map((event: { action: string }) => event.action)).toEqual(['createSpace']);
    const older = listed.items[1] as { id: string; urls: { location: string } };
    const details = await call('getOrganizationAuditEvent', 200, org, older.id);
    expect(details).toMatchObject({ id: older.id, schemaVersion: 1, payload: { operation: 'createSpace', method: 'POST', fields: ['title'], status: 201 } });
    expect(older.urls.location).toBe(`${server.url}/v1/orgs/${org}/audit-events/${older.id}`);
    const actions = await call('listOrganizationAuditEventActions', 200, org);
    expect(actions.items).toContainEqual({ object: 'audit-event-action', id: 'createSpace', label: 'Create space' });
    await expect(clientOperation(api, 'getOrganizationAuditEvent')(org, '00000000-0000-7000-8000-000000000000')).rejects.toMatchObject({ code: 404 });
  });
});

describe('the official GitBook client 0.202: glossary and translation runs', () => {
  it('updates the glossary in a batch, lists and reads entries, runs a translation', async () => {
    await call('updateGlossaryEntries', 204, org, { operations: [{ type: 'insert', translations: { en: 'Space', fr: 'Espace' } }] });
    const listed = await call('listGlossaryEntries', 200, org, { orderBy: 'fr' });
    expect(listed.items.map((entry: { translations: unknown }) => entry.translations)).toEqual([{ en: 'Space', fr: 'Espace' }]);
    const entry = listed.items[0] as { id: string };
    expect(await call('getGlossaryEntry', 200, org, entry.id)).toMatchObject({ object: 'glossary-entry', id: entry.id, translations: { en: 'Space', fr: 'Espace' } });
    const space = await call('createSpace', 201, org, { title: 'Space guide' });
    const translation = await call('createTranslation', 201, org, { source: { space: space.id, language: 'en' }, language: 'fr' });
    await call('runTranslation', 204, org, translation.id);
    const ran = await call('getTranslation', 200, org, translation.id);
    expect(ran).toMatchObject({ status: 'completed', result: { language: 'fr' }, stats: { runs: 1 } });
    expect(await call('getSpaceById', 200, ran.result.space)).toMatchObject({ title: 'Space guide (fr)', language: 'fr' });
    await call('updateGlossaryEntries', 204, org, { operations: [{ type: 'delete', id: entry.id }] });
    expect((await call('listGlossaryEntries', 200, org)).items).toEqual([]);
  });
});
