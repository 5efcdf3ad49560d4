/**
 * The official GitBook client against `docsctl serve` for a site's context sources: connections
 * (create, list, get, update, sync, test, delete: 205 then 204) and records (upsert, list with
 * filters, get); every answer checked against the 0.202 schemas; secrets redacted when read back
 * and kept when sent back redacted; a sync at most once an hour (the clock advanced).
 */
import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import type { MemoryStore } from '../../src/store/memory-store.js';
import { checkedCall, clientOperation, compileValidators, refusalOf, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let store: MemoryStore;
let clock: { advance(ms: number): void };

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);
const refusal = (operationId: string, ...args: unknown[]) => refusalOf(api, operationId, ...args);

beforeAll(async () => {
  compileValidators([
    ['createSiteContextConnection', 201],
    ['listSiteContextConnections', 200],
    ['getSiteContextConnectionById', 200],
    ['updateSiteContextConnectionById', 200],
    ['testSiteContextConnection', 200],
    ['listSiteContextRecords', 200],
    ['getSiteContextRecordById', 200],
  ]);
  const served = await servedOrganization();
  ({ server, api, store, clock } = served);
  org = served.boot.organization.id;
});

afterAll(() => server?.close());

describe('the official GitBook client: context sources of a site', () => {
  it('connections: created with their setup, secrets redacted and kept, synced at most once an hour, deleted once', async () => {
    const space = (await call('createSpace', 201, org, { title: 'Guide' })).id as string;
    const site = (await call('createSite', 201, org, { title: 'Docs', spaces: [space] })).id as string;
    const setup = { connector: 'builtin:github-issues', setupSettings: { repository: 'acme/docs', token: 'ghp_secret' } };
    const created = await call('createSiteContextConnection', 201, org, site, { ...setup, filter: 'label:docs' });
    expect(created).toEqual({
      object: 'context-connection',
      id: expect.any(String),
      createdAt: '2026-03-01T10:00:00.000Z',
      filter: 'label:docs',
      status: 'pending',
      records: 0,
      usageSettings: { changeRequests: true, search: true, searchBoost: 'x1.0' },
      urls: { location: `${server.url}/v1/orgs/${org}/sites/${site}/context-connections/${created.id}` },
      connector: 'builtin:github-issues',
      setupSettings: { repository: 'acme/docs', token: '********' },
    });
    expect(await call('listSiteContextConnections', 200, org, site)).toMatchObject({ items: [created] });

    // The setup sent back as read (token "********") keeps the stored token.
    const updated = await call('updateSiteContextConnectionById', 200, org, site, created.id, {
      connector: 'builtin:github-issues',
      setupSettings: { repository: 'acme/handbook', token: '********' },
      label: 'Issues',
    });
    expect(updated).toEqual({ ...created, label: 'Issues', setupSettings: { repository: 'acme/handbook', token: '********' } });
    const stored = store.read().get<{ setupSettings: { token: string } }>('siteContextConnections', `${site}/${created.id}`);
    expect(stored?.setupSettings.token).toBe('ghp_secret');
    expect(await refusal('updateSiteContextConnectionById', org, site, created.id, { connector: 'builtin:api' })).toMatchObject({
      code: 400,
      message: expect.stringMatching(/its connector does not change/),
    });

    expect((await clientOperation(api, 'syncSiteContextConnection')(org, site, created.id)).status).toBe(204);
    expect(await call('getSiteContextConnectionById', 200, org, site, created.id)).toMatchObject({
      status: 'failed',
      failureReason: 'upstream_unavailable',
      syncedAt: '2026-03-01T10:00:00.000Z',
    });
    expect(await refusal('syncSiteContextConnection', org, site, created.id)).toMatchObject({ code: 400, message: expect.stringMatching(/less than an hour ago/) });
    clock.advance(60 * 60 * 1000);
    expect((await clientOperation(api, 'syncSiteContextConnection')(org, site, created.id)).status).toBe(204);
    expect(await call('testSiteContextConnection', 200, org, site, created.id)).toEqual({
      object: 'context-connection-test-result',
      success: false,
      error: expect.stringMatching(/not verified/),
    });

    expect(await refusal('createSiteContextConnection', org, site, { connector: 'builtin:website' })).toMatchObject({ code: 400, message: expect.stringMatching(/setupSettings/) });
    expect(await refusal('createSiteContextConnection', org, site, { connector: 'builtin:youtube', setupSettings: { channelId: 'nope' } })).toMatchObject({ code: 400 });
    const remove = clientOperation(api, 'deleteSiteContextConnectionById');
    expect((await remove(org, site, created.id)).status).toBe(205);
    expect((await remove(org, site, created.id)).status).toBe(204);
    expect(await refusal('getSiteContextConnectionById', org, site, created.id)).toMatchObject({ code: 404 });
  });

  it('records: upserted into the api connection, replaced by source id, filtered, gone with their connection', async () => {
    const space = (await call('createSpace', 201, org, { title: 'Records' })).id as string;
    const site = (await call('createSite', 201, org, { title: 'Help', spaces: [space] })).id as string;
    const upsert = clientOperation(api, 'upsertSiteContextRecords');
    const given = [
      { id: 'ZD-1', type: 'ticket', title: 'Cannot export PDF', body: 'The button is grey.', url: 'https://acme.zendesk.test/tickets/1', metadata: { priority: 'high', votes: 3 } },
      { id: 'KB-7', type: 'document', title: 'Exporting', description: 'How exports work', body: '# Exporting' },
    ];
    expect((await upsert(org, site, given)).status).toBe(204);
    const connections = (await call('listSiteContextConnections', 200, org, site)) as { items: Array<{ id: string; connector: string; records: number }> };
    expect(connections.items).toEqual([expect.objectContaining({ connector: 'builtin:api', status: 'succeeded', records: 2, label: 'API' })]);
    const apiConnection = connections.items[0]?.id;
    const listed = (await call('listSiteContextRecords', 200, org, site)) as { items: Array<Record<string, unknown>>; count: number };
    expect(listed.count).toBe(2);
    expect(listed.items).toEqual([
      {
        object: 'context-record',
        id: expect.any(String),
        title: 'Cannot export PDF',
        type: 'ticket',
        createdAt: expect.any(String),
        processedAt: expect.any(String),
        connection: apiConnection,
        connector: 'builtin:api',
        topics: [],
        urls: { location: `${server.url}/v1/orgs/${org}/sites/${site}/context-records/${listed.items[0]?.id}`, source: 'https://acme.zendesk.test/tickets/1' },
      },
      expect.objectContaining({ title: 'Exporting', description: 'How exports work', type: 'document' }),
    ]);
    const first = listed.items[0]?.id as string;
    expect((await upsert(org, site, [{ id: 'ZD-1', type: 'ticket', title: 'Cannot export PDF (solved)', body: 'Fixed in 2.1' }])).status).toBe(204);
    expect(await call('getSiteContextRecordById', 200, org, site, first)).toMatchObject({ id: first, title: 'Cannot export PDF (solved)' });
    expect(await call('listSiteContextRecords', 200, org, site, { type: 'document' })).toMatchObject({ items: [expect.objectContaining({ title: 'Exporting' })] });
    expect(await call('listSiteContextRecords', 200, org, site, { connection: apiConnection, type: 'ticket' })).toMatchObject({ items: [expect.objectContaining({ id: first })] });
    expect(await call('listSiteContextRecords', 200, org, site, { connector: 'builtin:zendesk' })).toEqual({ items: [] });
    expect(await call('listSiteContextRecords', 200, org, site, { topic: 'anything' })).toEqual({ items: [] });
    expect(await call('listSiteContextRecords', 200, org, site, { limit: 1 })).toMatchObject({ items: [expect.objectContaining({ id: first })], next: { page: expect.any(String) } });

    expect(await refusal('upsertSiteContextRecords', org, site, [{ id: 'x', type: 'email', title: 'T', body: '' }])).toMatchObject({ code: 400 });
    expect((await clientOperation(api, 'deleteSiteContextConnectionById')(org, site, apiConnection)).status).toBe(205);
    expect(await call('listSiteContextRecords', 200, org, site)).toEqual({ count: 0, items: [] });
    expect(await refusal('getSiteContextRecordById', org, site, first)).toMatchObject({ code: 404 });
  });
});
