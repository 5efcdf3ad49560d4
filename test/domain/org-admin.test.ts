/**
 * Custom fields (and a space's values), translation settings, SAML providers,
 * OpenAPI specifications and integrations: the rules of each operation, through
 * `executeOperation`, with answers checked against the real schemas where the
 * real API has them.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { getRoute } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import { executeOperation } from '../../src/domain/execute.js';
import { SERVE_POLICY } from '../../src/domain/policy.js';
import { type Harness, ORIGIN, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

const CERT = readFileSync(new URL('../fixtures/saml-idp.pem', import.meta.url), 'utf8');
const VALID_SPEC = 'openapi: 3.0.3\ninfo: {title: Pets, version: "2.1"}\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      responses: {"200": {description: ok}}\n';
const INVALID_SPEC = 'openapi: 3.0.3\ninfo: {title: Pets}\npaths:\n  /pets:\n    get:\n      responses: {}\n';

let h: Harness;
let org: { params: { organizationId: string } };
beforeEach(async () => {
  h = await setup();
  org = { params: { organizationId: h.orgId } };
});

const withOrg = (raw: RawInput): RawInput => ({ ...raw, params: { organizationId: h.orgId, ...raw.params } });

describe('custom fields', () => {
  it('defines fields, lists and reads them, and refuses a duplicate name', async () => {
    const field = await h.admin.ok('createOrganizationCustomField', withOrg({ body: { name: 'team', type: 'select:single', options: ['api', 'web'] } }), 201);
    expect(field).toMatchObject({ name: 'team', title: 'team', type: 'select:single', options: ['api', 'web'], description: '', placeholder: '' });
    expect(field.urls).toEqual({ location: `${ORIGIN}/v1/orgs/${h.orgId}/custom-fields/team` });
    await h.admin.ok('createOrganizationCustomField', withOrg({ body: { name: 'reviewed', type: 'boolean', title: 'Reviewed' } }), 201);
    const list = await h.admin.ok<{ items: Array<{ name: string }>; count: number }>('listOrganizationCustomFields', org);
    expect(list.count).toBe(2);
    expect(list.items.map((f) => f.name)).toEqual(['reviewed', 'team']);
    await h.admin.fails('createOrganizationCustomField', withOrg({ body: { name: 'team', type: 'text' } }), 409, /already exists/);
  });

  it('checks names and options', async () => {
    await h.admin.fails('createOrganizationCustomField', withOrg({ body: { name: 'Has Space', type: 'text' } }), 400, /lowercase/);
    await h.admin.fails('createOrganizationCustomField', withOrg({ body: { name: 'pick', type: 'select:multi' } }), 400, /needs options/);
    await h.admin.fails('createOrganizationCustomField', withOrg({ body: { name: 'txt', type: 'text', options: ['a'] } }), 400, /takes no options/);
    await h.admin.fails('getOrganizationCustomFieldByName', withOrg({ params: { fieldName: 'a/b' } }), 404);
  });

  it('validates the values a space gives them, all or nothing', async () => {
    const space = await h.createSpace({ title: 'Handbook' });
    await h.admin.ok('createOrganizationCustomField', withOrg({ body: { name: 'team', type: 'select:single', options: ['api', 'web'] } }), 201);
    await h.admin.ok('createOrganizationCustomField', withOrg({ body: { name: 'pages', type: 'number' } }), 201);
    await h.admin.ok('createOrganizationCustomField', withOrg({ body: { name: 'tags', type: 'tags' } }), 201);
    const spaceParams = { params: { spaceId: space.id } };
    await h.admin.ok('updateSpaceCustomFields', { ...spaceParams, body: { values: { team: { value: 'api' }, pages: { value: 12 } } } }, 204);
    // One bad value: nothing of the request is written.
    await h.admin.fails('updateSpaceCustomFields', { ...spaceParams, body: { values: { pages: { value: 99 }, team: { value: 'ops' } } } }, 400, /"team".*one of api, web/);
    await h.admin.fails('updateSpaceCustomFields', { ...spaceParams, body: { values: { pages: { value: 'many' } } } }, 400, /expected a number/);
    await h.admin.fails('updateSpaceCustomFields', { ...spaceParams, body: { values: { nope: { value: 'x' } } } }, 400, /Unknown custom field "nope"/);
    const values = await h.admin.ok<Array<{ customField: { name: string }; value?: unknown }>>('getSpaceCustomFields', spaceParams);
    expect(values.map((v) => [v.customField.name, v.value])).toEqual([['pages', 12], ['tags', undefined], ['team', 'api']]);
    // null clears; a field deleted and re-created does not bring its old values back.
    await h.admin.ok('updateSpaceCustomFields', { ...spaceParams, body: { values: { pages: { value: null } } } }, 204);
    await h.admin.ok('deleteOrganizationCustomField', withOrg({ params: { fieldName: 'team' } }), 204);
    await h.admin.ok('createOrganizationCustomField', withOrg({ body: { name: 'team', type: 'text' } }), 201);
    const after = await h.admin.ok<Array<{ customField: { name: string }; value?: unknown }>>('getSpaceCustomFields', spaceParams);
    expect(after.map((v) => [v.customField.name, v.value])).toEqual([['pages', undefined], ['tags', undefined], ['team', undefined]]);
  });

  it('needs admin to define fields and edit to set values', async () => {
    const editor = await h.member('ed@acme.test', 'edit');
    const reader = await h.member('rita@acme.test', 'read');
    const space = await h.createSpace({ title: 'Handbook' });
    await h.fails(editor, 'createOrganizationCustomField', withOrg({ body: { name: 'x', type: 'text' } }), 403, /"admin" role/);
    await h.admin.ok('createOrganizationCustomField', withOrg({ body: { name: 'x', type: 'text' } }), 201);
    await h.ok(editor, 'updateSpaceCustomFields', { params: { spaceId: space.id }, body: { values: { x: { value: 'y' } } } }, 204);
    await h.fails(reader, 'updateSpaceCustomFields', { params: { spaceId: space.id }, body: { values: { x: { value: 'z' } } } }, 403, /"edit" role/);
    const stranger = await h.createOrg('Other', {});
    await h.admin.fails('listOrganizationCustomFields', { params: { organizationId: stranger } }, 404);
  });
});

describe('translation settings', () => {
  it('creates, replaces, lists and deletes settings (205, then 204)', async () => {
    const created = await h.admin.ok('createTranslation', withOrg({ body: { title: 'French', languages: ['fr', 'de'] } }), 201);
    expect(created).toMatchObject({ object: 'translation-settings', title: 'French', languages: ['fr', 'de'], permissions: { edit: true } });
    const params = { params: { organizationId: h.orgId, translationSettingsId: created.id } };
    const updated = await h.admin.ok('updateTranslation', { ...params, body: { title: 'Français' } });
    expect(updated).toMatchObject({ title: 'Français', languages: ['fr', 'de'] });
    await h.admin.fails('createTranslation', withOrg({ body: { title: 'X', languages: ['fr', 'fr'] } }), 400, /listed twice/);
    await h.admin.fails('createTranslation', withOrg({ body: { title: 'X', languages: ['klingon'] } }), 400);
    await h.admin.fails('createTranslation', withOrg({ body: {} }), 400, /Invalid body field "title": required: pass title \(translation settings\), or source and language/);
    expect((await h.admin.ok<{ count: number }>('listTranslations', org)).count).toBe(1);
    expect((await h.admin.call('deleteTranslation', params)).status).toBe(205);
    expect((await h.admin.call('deleteTranslation', params)).status).toBe(204);
    await h.admin.fails('getTranslation', params, 404);
  });

  it("takes the real API's shape too: {source, language} makes a Translation (pending, zero stats), PUT replaces its instructions", async () => {
    const space = await h.admin.ok('createSpace', withOrg({ body: { title: 'Handbook' } }), 201);
    const created = await h.admin.ok('createTranslation', withOrg({ body: { source: { space: space.id, language: 'en' }, language: 'zh-tw' } }), 201);
    expect(created).toEqual({
      object: 'translation',
      id: created.id,
      status: 'pending',
      source: { space: space.id, language: 'en' },
      language: 'zh-tw',
      instructions: { object: 'document', data: {}, nodes: [] },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      stats: { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
      permissions: { view: true, edit: true },
      urls: { location: expect.stringMatching(new RegExp(`/v1/orgs/${h.orgId}/translations/${created.id}$`)) },
    });
    const params = { params: { organizationId: h.orgId, translationSettingsId: created.id } };
    const instructions = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Keep product names', marks: [] }] }] }] };
    expect(await h.admin.ok('updateTranslation', { ...params, body: { instructions } })).toMatchObject({ object: 'translation', instructions });
    expect(await h.admin.ok('getTranslation', params)).toMatchObject({ object: 'translation', language: 'zh-tw', instructions });
    await h.admin.fails('updateTranslation', { ...params, body: { title: 'Chinese' } }, 400, /takes instructions/);
    const settings = await h.admin.ok('createTranslation', withOrg({ body: { title: 'EU' } }), 201);
    await h.admin.fails('updateTranslation', { params: { organizationId: h.orgId, translationSettingsId: settings.id }, body: { instructions } }, 400, /take a title/);
    const listed = await h.admin.ok<{ items: Array<{ id: string; object: string }> }>('listTranslations', org);
    expect(listed.items.map((item) => item.object)).toEqual(expect.arrayContaining(['translation', 'translation-settings']));
    await h.admin.fails('createTranslation', withOrg({ body: { source: { space: 'nope', language: 'en' }, language: 'fr' } }), 404, /Space nope not found/);
    await h.admin.fails('createTranslation', withOrg({ body: { source: { space: space.id, language: 'en' }, language: 'en' } }), 400, /source's language/);
    await h.admin.fails('createTranslation', withOrg({ body: { source: { space: space.id, language: 'en' } } }), 400, /Invalid body field "language"/);
    await h.admin.fails('createTranslation', withOrg({ body: { title: 'Both', source: { space: space.id, language: 'en' }, language: 'fr' } }), 400, /not both/);
    for (const item of listed.items) await h.admin.call('deleteTranslation', { params: { organizationId: h.orgId, translationSettingsId: item.id } });
  });

  it('lets members read but only admins write', async () => {
    const reader = await h.member('rita@acme.test', 'read');
    const created = await h.admin.ok('createTranslation', withOrg({ body: { title: 'French' } }), 201);
    const read = await h.ok(reader, 'getTranslation', { params: { organizationId: h.orgId, translationSettingsId: created.id } });
    expect(read.permissions).toEqual({ view: true, edit: false });
    await h.fails(reader, 'createTranslation', withOrg({ body: { title: 'German' } }), 403, /"admin" role/);
  });
});

describe('SAML providers', () => {
  it('keeps a provider pending until it is fully configured, then lists it for login', async () => {
    const pending = await h.admin.ok('createOrganizationSAMLProvider', withOrg({ body: { label: 'Okta' } }), 201);
    expect(pending).toMatchObject({ object: 'saml-provider', label: 'Okta', status: 'pending', defaultRole: 'read' });
    // The real schema requires these three on every provider; an unconfigured one has them empty.
    expect(pending).toMatchObject({ ssoURL: '', entityID: '', certificate: '' });
    expect((await h.admin.ok<{ items: unknown[] }>('listSSOProviderLoginsInOrganization', org)).items).toEqual([]);
    const params = { params: { organizationId: h.orgId, samlProviderId: pending.id } };
    const active = await h.admin.ok('updateOrganizationSAMLProvider', {
      ...params,
      body: { ssoURL: 'https://idp.acme.test/sso', entityID: 'https://idp.acme.test', certificate: CERT, defaultRole: 'edit' },
    });
    expect(active).toMatchObject({ status: 'active', defaultRole: 'edit', certificate: CERT });
    expect(schemaErrors('OrganizationSAMLProvider', active)).toEqual([]);
    const service = active.service as { acsURL: string; startURL: string };
    expect(service.acsURL).toBe(`${ORIGIN}/app/o/${h.orgId}/saml/${pending.id}/acs`);
    const logins = await h.admin.ok<{ items: unknown[] }>('listSSOProviderLoginsInOrganization', org);
    expect(logins).toEqual({ items: [{ id: pending.id, label: 'Okta', startURL: service.startURL }] });
  });

  it('refuses a certificate that is not a PEM X.509 certificate, changing nothing', async () => {
    await h.admin.fails('createOrganizationSAMLProvider', withOrg({ body: { label: 'Okta', certificate: 'hello' } }), 400, /PEM X\.509/);
    const broken = CERT.replace(/[A-Za-z]{8}/, 'AAAAAAAA');
    await h.admin.fails('createOrganizationSAMLProvider', withOrg({ body: { label: 'Okta', certificate: broken } }), 400, /Invalid certificate/);
    expect((await h.admin.ok<{ count: number }>('listSAMLProvidersInOrganizationById', org)).count).toBe(0);
  });

  it('takes a team of the organization as its default team, shown as the team object', async () => {
    const team = await h.admin.ok<{ id: string }>('createOrganizationTeam', withOrg({ body: { title: 'Support' } }), 201);
    const body = { label: 'Okta', ssoURL: 'https://idp.acme.test/sso', entityID: 'https://idp.acme.test', certificate: CERT, defaultTeam: team.id };
    const created = await h.admin.ok('createOrganizationSAMLProvider', withOrg({ body }), 201);
    expect(created.defaultTeam).toMatchObject({ object: 'team', id: team.id, title: 'Support', members: 0 });
    expect(schemaErrors('OrganizationSAMLProvider', created)).toEqual([]);
    await h.admin.fails('createOrganizationSAMLProvider', withOrg({ body: { label: 'Bad', defaultTeam: 'nope' } }), 400, /Invalid defaultTeam: nope is not a team of organization/);
    expect((await h.admin.ok<{ count: number }>('listSAMLProvidersInOrganizationById', org)).count).toBe(1);
    // A team deleted later is left out rather than shown half-there.
    await h.admin.ok('removeTeamFromOrganizationById', { params: { organizationId: h.orgId, teamId: team.id } }, 205);
    const after = await h.admin.ok('getOrganizationSAMLProviderById', { params: { organizationId: h.orgId, samlProviderId: created.id } });
    expect(after.defaultTeam).toBeUndefined();
  });

  it('is for admins only', async () => {
    const editor = await h.member('ed@acme.test', 'create');
    await h.fails(editor, 'createOrganizationSAMLProvider', withOrg({ body: { label: 'Okta' } }), 403, /"admin" role/);
    await h.fails(editor, 'listSAMLProvidersInOrganizationById', org, 403);
  });
});

describe('OpenAPI specifications', () => {
  it('processes a valid document into a version, and stores an invalid one in its error state', async () => {
    const spec = await h.admin.ok('createOpenAPISpec', withOrg({ body: { slug: 'pets', source: { text: VALID_SPEC } } }), 201);
    expect(spec).toMatchObject({ object: 'openapi-spec', slug: 'pets', processingState: 'complete', permissions: { view: true, edit: true } });
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(schemaErrors('OpenAPISpec', spec)).toEqual([]);

    const params = { params: { organizationId: h.orgId, specSlug: 'pets' } };
    const broken = await h.admin.ok('createOrUpdateOpenAPISpecBySlug', { ...params, body: { source: { text: INVALID_SPEC } } }, 200);
    expect(broken).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastVersion: spec.lastVersion });
    expect(broken.lastProcessedErrors).toEqual(
      expect.arrayContaining([{ message: "must have required property 'version'", path: '/info' }]),
    );
    expect(schemaErrors('OpenAPISpec', broken)).toEqual([]);

    const fixed = await h.admin.ok('createOrUpdateOpenAPISpecBySlug', { ...params, body: { source: { text: VALID_SPEC } } }, 200);
    expect(fixed.lastProcessErrorCode).toBeUndefined();
    expect(fixed.lastVersion).not.toBe(spec.lastVersion);
  });

  it('creates with PUT (201), refuses a second POST of a slug (409), deletes (205 then 204)', async () => {
    const params = { params: { organizationId: h.orgId, specSlug: 'store-api' } };
    await h.admin.ok('createOrUpdateOpenAPISpecBySlug', { ...params, body: { source: { text: VALID_SPEC } } }, 201);
    await h.admin.fails('createOpenAPISpec', withOrg({ body: { slug: 'store-api', source: { text: VALID_SPEC } } }), 409);
    await h.admin.fails('createOpenAPISpec', withOrg({ body: { slug: 'Bad Slug', source: { text: VALID_SPEC } } }), 400);
    expect((await h.admin.call('deleteOpenAPISpecBySlug', params)).status).toBe(205);
    expect((await h.admin.call('deleteOpenAPISpecBySlug', params)).status).toBe(204);
  });

  it('records fetch failures, and under serve refuses private addresses', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/spec.yaml') res.end(VALID_SPEC);
      else if (req.url === '/moved') res.writeHead(302, { location: '/spec.yaml' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const fetched = await h.admin.ok('createOpenAPISpec', withOrg({ body: { slug: 'remote', source: { url: `${base}/moved` } } }), 201);
      expect(fetched).toMatchObject({ sourceURL: `${base}/moved`, processingState: 'complete' });
      expect(fetched.lastVersion).toEqual(expect.any(String));
      const missing = await h.admin.ok('createOpenAPISpec', withOrg({ body: { slug: 'missing', source: { url: `${base}/nope` } } }), 201);
      expect(missing).toMatchObject({ lastProcessErrorCode: 'FETCH_ERROR' });
      expect(missing.lastVersion).toBeUndefined();

      const served = await executeOperation(
        { store: h.store, actor: { userId: h.adminId }, clock: h.clock, ids: h.ids, origin: ORIGIN, policy: SERVE_POLICY },
        getRoute('createOpenAPISpec'),
        withOrg({ body: { slug: 'inside', source: { url: `${base}/spec.yaml` } } }),
      ).catch((error: unknown) => error);
      expect(served).toMatchObject({ status: 403 });
      await h.admin.fails('getOpenAPISpecBySlug', { params: { organizationId: h.orgId, specSlug: 'inside' } }, 404);
    } finally {
      server.close();
    }
  });

  it('lets readers read and creators write', async () => {
    const reader = await h.member('rita@acme.test', 'read');
    await h.fails(reader, 'createOpenAPISpec', withOrg({ body: { slug: 'pets', source: { text: VALID_SPEC } } }), 403, /"create" role/);
    await h.admin.ok('createOpenAPISpec', withOrg({ body: { slug: 'pets', source: { text: VALID_SPEC } } }), 201);
    const seen = await h.ok(reader, 'getOpenAPISpecBySlug', { params: { organizationId: h.orgId, specSlug: 'pets' } });
    expect(seen.permissions).toEqual({ view: true, edit: false });
  });
});

describe('integrations', () => {
  const manifest = (extra: Record<string, unknown> = {}) => ({
    title: 'Slack',
    description: 'Notifications in Slack',
    scopes: ['space:content:read'],
    script: 'export default {}',
    categories: ['collaboration'],
    secrets: { TOKEN: 'xoxb-secret' },
    ...extra,
  });

  it('publishes from a manifest, bumps the version on republish, and never returns secrets', async () => {
    const params = { params: { integrationName: 'slack' } };
    const first = await h.admin.ok('publishIntegration', { ...params, body: manifest({ organization: h.orgId, visibility: 'public' }) });
    expect(first).toMatchObject({ object: 'integration', name: 'slack', version: 1, visibility: 'public', target: 'all', verified: false });
    expect(schemaErrors('Integration', first)).toEqual([]);
    expect(JSON.stringify(first)).not.toContain('xoxb-secret');
    const second = await h.admin.ok('publishIntegration', { ...params, body: manifest({ organization: h.orgId, title: 'Slack 2' }) });
    expect(second).toMatchObject({ version: 2, title: 'Slack 2' });
    expect(JSON.stringify(h.store.read().get('integrations', 'slack'))).not.toContain('xoxb-secret');
  });

  it('filters the catalog and hides private integrations from other organizations', async () => {
    await h.admin.ok('publishIntegration', { params: { integrationName: 'slack' }, body: manifest({ organization: h.orgId, visibility: 'public' }) });
    await h.admin.ok('publishIntegration', {
      params: { integrationName: 'internal-tool' },
      body: manifest({ organization: h.orgId, title: 'Internal', categories: ['analytics'] }),
    });
    const names = async (userId: string, query: Record<string, unknown> = {}) =>
      (await h.ok<{ items: Array<{ name: string }> }>(userId, 'listIntegrations', { query })).items.map((i) => i.name);
    expect(await names(h.adminId)).toEqual(['internal-tool', 'slack']);
    expect(await names(h.adminId, { category: 'analytics' })).toEqual(['internal-tool']);
    expect(await names(h.adminId, { search: 'SLA' })).toEqual(['slack']);
    const outsider = await h.member('out@other.test', 'admin', await h.createOrg('Other', { [h.adminId]: 'admin' }));
    expect(await names(outsider)).toEqual(['slack']);
    await h.fails(outsider, 'getIntegrationByName', { params: { integrationName: 'internal-tool' } }, 404);
  });

  it('refuses a name owned by another organization and non-admin publishers', async () => {
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    await h.admin.ok('publishIntegration', { params: { integrationName: 'slack' }, body: manifest({ organization: h.orgId }) });
    await h.admin.fails('publishIntegration', { params: { integrationName: 'slack' }, body: manifest({ organization: other }) }, 409, /another organization/);
    const editor = await h.member('ed@acme.test', 'edit');
    await h.fails(editor, 'publishIntegration', { params: { integrationName: 'x' }, body: manifest({ organization: h.orgId }) }, 403, /"admin" role/);
    await h.admin.fails('publishIntegration', { params: { integrationName: 'x' }, body: manifest({ organization: 'nowhere' }) }, 404);
  });

  it('unpublishes (205, then 204) and lists installations for the owner', async () => {
    const params = { params: { integrationName: 'slack' } };
    await h.admin.ok('publishIntegration', { ...params, body: manifest({ organization: h.orgId }) });
    expect(await h.admin.ok('listIntegrationInstallations', params)).toEqual({ count: 0, items: [] });
    expect((await h.admin.call('unpublishIntegration', params)).status).toBe(205);
    expect((await h.admin.call('unpublishIntegration', params)).status).toBe(204);
    await h.admin.fails('getIntegrationByName', params, 404);
  });
});
