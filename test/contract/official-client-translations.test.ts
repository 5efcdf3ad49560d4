/**
 * The official GitBook client of 0.202 against `docsctl serve` for translations: it creates
 * one with `{source, language}` (which answered `400 Invalid body field "title"` before),
 * reads, lists and updates its instructions; every 2xx answer is checked against 0.202's
 * `Translation` and its values asserted. The API doc's settings (`{title}`) keep working beside.
 */
import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, clientOperation, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;

/** Calls the client's operation, expects `status`, and checks the answer against 0.202's schema for it. */
const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);

beforeAll(async () => {
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
});

afterAll(() => server?.close());

describe('the official GitBook client 0.202: translations', () => {
  it('creates a translation with {source, language}, reads, lists and updates its instructions', async () => {
    const space = await call('createSpace', 201, org, { title: 'Handbook' });
    const created = await call('createTranslation', 201, org, { source: { space: space.id, language: 'en' }, language: 'zh-tw' });
    expect(created).toMatchObject({ object: 'translation', status: 'pending', source: { space: space.id, language: 'en' }, language: 'zh-tw', stats: { runs: 0 } });
    expect(await call('getTranslation', 200, org, created.id)).toEqual(created);
    const instructions = { object: 'document', data: {}, nodes: [] };
    expect(await call('updateTranslation', 200, org, created.id, { instructions })).toMatchObject({ id: created.id, instructions });
    const listed = await call('listTranslations', 200, org);
    expect(listed.items.map((item: { id: string }) => item.id)).toEqual([created.id]);
    expect((await clientOperation(api, 'deleteTranslation')(org, created.id)).status).toBe(205);
  });
});
