/**
 * The official GitBook client of 0.202 against `docsctl serve` for the last non-AI operations
 * that answered 501: organizations by e-mail domain, the notifications token, the raw text of an
 * OpenAPI specification, the default site template, an integration's UI rendered (POST and the
 * lz-string GET) and a storage upload through its signed URL. Every 2xx answer is checked
 * against 0.202's schema and its values asserted.
 */
import type { GitBookAPI } from '@gitbook/api';
import lz from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { responseValidator } from './openapi.js';
import { checkedCall, clientOperation, compileValidators, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let admin: string;

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);

/** An operation the client names differently from its operationId (`createOpenApiSpec`), checked against the operationId's schema. */
async function callNamed(clientName: string, operationId: string, status: number, ...args: unknown[]) {
  const response = await clientOperation(api, clientName)(...args);
  expect(response.status, operationId).toBe(status);
  expect(responseValidator(operationId, status)(response.data).errors, `${operationId} ${status} vs the 0.202 schema`).toEqual([]);
  return response.data;
}

/** Every answer this file checks, by operation and status. */
const CHECKED: Array<[string, number]> = [
  ['updateOrganizationById', 200], ['getOrganizationsForEmailDomain', 200], ['createUserNotificationsToken', 200],
  ['createOpenAPISpec', 201], ['getLatestOpenAPISpecVersionContentRaw', 200], ['createSite', 201], ['applyTemplateToSite', 200],
  ['listSiteSpaces', 200], ['publishIntegration', 200], ['installIntegration', 201], ['createSpace', 201], ['installIntegrationOnSpace', 201],
  ['renderIntegrationUIWithPost', 200], ['renderIntegrationUIWithGet', 200], ['generateStorageUploadURL', 201],
];

beforeAll(async () => {
  compileValidators(CHECKED);
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
  admin = served.boot.user.id;
});

afterAll(() => server?.close());

describe('the official GitBook client 0.202: the last non-AI operations', () => {
  it('lists the organizations of an e-mail domain as their e-mail domains change', async () => {
    expect(await call('getOrganizationsForEmailDomain', 200, 'example.com')).toEqual({ organizations: [] });
    await call('updateOrganizationById', 200, org, { emailDomains: ['example.com'] });
    const found = await call('getOrganizationsForEmailDomain', 200, 'Example.COM');
    expect(found.organizations.map((o: { id: string; title: string }) => [o.id, o.title])).toEqual([[org, 'Acme']]);
  });

  it('creates a notifications JWT naming the user', async () => {
    const { token } = await call('createUserNotificationsToken', 200);
    const claims = JSON.parse(Buffer.from(String(token).split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: admin, aud: 'notifications', iat: 1772359200, exp: 1772362800 });
  });

  it('reads the raw text of the latest version of a specification', async () => {
    const text = '{"openapi":"3.0.3","info":{"title":"Pets","version":"1"},"paths":{}}';
    await callNamed('createOpenApiSpec', 'createOpenAPISpec', 201, org, { slug: 'pets', source: { text } });
    expect(await callNamed('getLatestOpenApiSpecVersionContentRaw', 'getLatestOpenAPISpecVersionContentRaw', 200, org, 'pets')).toEqual({ text, format: 'json' });
  });

  it('applies the default template to an empty site', async () => {
    const site = await call('createSite', 201, org, { title: 'Starter' });
    await call('applyTemplateToSite', 200, org, site.id);
    const listed = await call('listSiteSpaces', 200, org, site.id);
    expect(listed.items.map((item: { title: string; path: string }) => [item.title, item.path])).toEqual([['Starter', 'starter']]);
  });

  it("renders an installed integration's block, by POST and by the lz-string GET", async () => {
    await call('publishIntegration', 200, 'tickets', {
      title: 'Tickets',
      description: 'Shows tickets',
      scopes: ['space:content:read'],
      script: 'export default {}',
      organization: org,
      blocks: [{ id: 'ticket', title: 'Ticket', description: 'A ticket' }],
    });
    const installation = await call('installIntegration', 201, 'tickets', { organization: org });
    const space = await call('createSpace', 201, org, { title: 'Tracker' });
    await call('installIntegrationOnSpace', 201, 'tickets', installation.id, { space: space.id });
    // 0.202's PlainObject (props) has no type, so every string, number or boolean value also matches its first oneOf branch:
    // only props without values can validate; the values are rendered as the e2e tests show.
    const request = { componentId: 'ticket', props: {}, context: { type: 'document', spaceId: space.id, editable: true, theme: 'light' }, action: { action: 'refresh' } };
    const expected = {
      type: 'element',
      element: { type: 'block', children: [{ type: 'card', title: 'Ticket', hint: 'A ticket', children: [] }] },
      state: { lastAction: 'refresh' },
      props: {},
      canAccessVisitorClaims: false,
    };
    const posted = await clientOperation(api, 'renderIntegrationUiWithPost')('tickets', request);
    expect(responseValidator('renderIntegrationUIWithPost', 200)(posted.data).errors).toEqual([]);
    expect(posted.data).toEqual(expected);
    const got = await clientOperation(api, 'renderIntegrationUiWithGet')('tickets', { request: lz.compressToEncodedURIComponent(JSON.stringify(request)) });
    expect(responseValidator('renderIntegrationUIWithGet', 200)(got.data).errors).toEqual([]);
    expect(got.data).toEqual(expected);
    expect((got as unknown as { headers: Headers }).headers.get('cache-control')).toBe('private, max-age=60');
  });

  it('uploads a file through a signed URL', async () => {
    const signed = await callNamed('generateStorageUploadUrl', 'generateStorageUploadURL', 201, org, { file: { name: 'logo.svg', type: 'image/svg+xml', size: 5 }, kind: 'organization_file' });
    expect(signed).toMatchObject({ object: 'storage-signed-url', url: expect.stringMatching(new RegExp(`^${server.url}/uploads/`)) });
    const put = await fetch(signed.url, { method: 'PUT', body: '<svg>', headers: { 'content-type': 'image/svg+xml' } });
    expect(put.status).toBe(200);
    const stored = (await put.json()) as { key: string; downloadURL: string };
    expect(stored.key).toBe(signed.key);
    expect(await (await fetch(stored.downloadURL)).text()).toBe('<svg>');
  });
});
