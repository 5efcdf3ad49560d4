/**
 * The versions of an OpenAPI specification and its visibility: every valid
 * document published is a version row, listed newest first, readable by id or as
 * the latest, with its document readable back; an invalid one makes no version;
 * deleting the spec removes its versions. Through `executeOperation` on a
 * MemoryStore, answers checked against the real schemas.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { openApiSpecVersions, orgOpenApiSpecs } from '../../src/domain/openapi-specs.js';
import { serveMemoryStore } from '../helpers/stores.js';
import { type Harness, ORIGIN, type List, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

const PETS_V1 = 'openapi: 3.0.3\ninfo: {title: Pets, version: "1.0"}\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      responses: {"200": {description: ok}}\n';
const PETS_V2_JSON = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Pets', version: '2.0' },
  paths: { '/pets/{id}': { get: { operationId: 'getPet', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } } } },
});
const INVALID = 'openapi: 3.0.3\ninfo: {title: Pets}\npaths: {}\n';

let h: Harness;
let spec: { organizationId: string; specSlug: string };
const publish = (text: string, slug = 'pets') =>
  h.admin.ok('createOrUpdateOpenAPISpecBySlug', { params: { organizationId: h.orgId, specSlug: slug }, body: { source: { text } } });

beforeEach(async () => {
  h = await setup();
  spec = { organizationId: h.orgId, specSlug: 'pets' };
});

describe('OpenAPI specification versions', () => {
  it('keeps one version per valid document, newest first, and none for an invalid one', async () => {
    const first = await publish(PETS_V1);
    h.clock.advance(60_000);
    const broken = await publish(INVALID);
    expect(broken.lastProcessErrorCode).toBe('PARSE_ERROR');
    h.clock.advance(60_000);
    const second = await publish(PETS_V2_JSON);

    const list = await h.admin.ok<List>('listOpenAPISpecVersions', { params: spec });
    expect(list.count).toBe(2);
    expect(list.items.map((v) => v.id)).toEqual([second.lastVersion, first.lastVersion]);
    for (const version of list.items) expect(schemaErrors('OpenAPISpecVersion', version)).toEqual([]);
    const [newest, oldest] = list.items;
    expect(newest).toEqual({
      object: 'openapi-spec-version',
      id: second.lastVersion,
      createdAt: '2026-01-01T00:02:00.000Z',
      url: expect.stringMatching(new RegExp(`^${ORIGIN}/files/[0-9a-f]{64}/pets\\.json$`)),
      urls: { location: `${ORIGIN}/v1/orgs/${h.orgId}/openapi/pets/versions/${second.lastVersion}` },
    });
    expect(oldest).toMatchObject({ createdAt: '2026-01-01T00:00:00.000Z', url: expect.stringMatching(/\/pets\.yaml$/) });

    // Pages newest first with a cursor.
    const page1 = await h.admin.ok<List>('listOpenAPISpecVersions', { params: spec, query: { limit: '1' } });
    expect(page1.items.map((v) => v.id)).toEqual([second.lastVersion]);
    const page2 = await h.admin.ok<List>('listOpenAPISpecVersions', { params: spec, query: { limit: '1', page: page1.next?.page } });
    expect(page2.items.map((v) => v.id)).toEqual([first.lastVersion]);
    expect(page2.next).toBeUndefined();
  });

  it('reads a version by id or as the latest, and its document back', async () => {
    const first = await publish(PETS_V1);
    const second = await publish(PETS_V2_JSON);
    const latest = await h.admin.ok('getLatestOpenAPISpecVersion', { params: spec });
    expect(latest.id).toBe(second.lastVersion);
    expect(schemaErrors('OpenAPISpecVersion', latest)).toEqual([]);
    const old = await h.admin.ok('getOpenAPISpecVersionById', { params: { ...spec, versionId: first.lastVersion as string } });
    expect(old.id).toBe(first.lastVersion);

    const content = await h.admin.ok<{ filesystem: Record<string, unknown>; url: string }>('getLatestOpenAPISpecVersionContent', { params: spec });
    expect(schemaErrors('OpenAPISpecContent', content)).toEqual([]);
    // 0.202 urls: the stored document is its own source; a private spec has no public URL.
    expect(content).toEqual({ filesystem: { 'pets.json': JSON.parse(PETS_V2_JSON) }, url: latest.url, urls: { source: latest.url, public: null } });
    const oldContent = await h.admin.ok<{ filesystem: Record<string, unknown>; url: string }>('getOpenAPISpecVersionContentById', {
      params: { ...spec, versionId: first.lastVersion as string },
    });
    expect(oldContent.filesystem).toEqual({
      'pets.yaml': { openapi: '3.0.3', info: { title: 'Pets', version: '1.0' }, paths: { '/pets': { get: { operationId: 'listPets', responses: { '200': { description: 'ok' } } } } } },
    });
    expect(oldContent.url).toBe(old.url);
    // The url names the stored bytes (what `serve` answers at /files/…): the document exactly as sent.
    const hash = /\/files\/([0-9a-f]{64})\//.exec(old.url as string)?.[1] as string;
    const object = h.store.read().getObject<{ base64: string }>(hash);
    expect(Buffer.from(object.base64, 'base64').toString('utf8')).toBe(PETS_V1);
  });

  it('names a YAML flow mapping .yaml although it starts with "{"', async () => {
    await publish('{openapi: 3.0.3, info: {title: Flow, version: "1"}, paths: {}}');
    const content = await h.admin.ok<{ filesystem: Record<string, unknown> }>('getLatestOpenAPISpecVersionContent', { params: spec });
    expect(content.filesystem).toEqual({ 'pets.yaml': { openapi: '3.0.3', info: { title: 'Flow', version: '1' }, paths: {} } });
  });

  it('answers 404 naming what is missing', async () => {
    await h.admin.fails('listOpenAPISpecVersions', { params: { ...spec, specSlug: 'nope' } }, 404, /OpenAPI specification "nope" not found/);
    await h.admin.ok('createOpenAPISpec', { params: { organizationId: h.orgId }, body: { slug: 'pets', source: { text: INVALID } } }, 201);
    expect(await h.admin.ok<List>('listOpenAPISpecVersions', { params: spec })).toEqual({ count: 0, items: [] });
    await h.admin.fails('getLatestOpenAPISpecVersion', { params: spec }, 404, /"pets" has no version.*PARSE_ERROR/);
    await h.admin.fails('getLatestOpenAPISpecVersionContent', { params: spec }, 404, /"pets" has no version/);
    await publish(PETS_V1);
    await h.admin.fails('getOpenAPISpecVersionById', { params: { ...spec, versionId: 'v404' } }, 404, /Version v404 of OpenAPI specification "pets" not found/);
    await h.admin.fails('getOpenAPISpecVersionContentById', { params: { ...spec, versionId: 'a/b' } }, 404, /Version a\/b of/);
    await h.admin.fails('getOpenAPISpecVersionById', { params: { ...spec, specSlug: 'other', versionId: 'v1' } }, 404, /"other" not found/);
  });

  it('says so when a spec was processed before versions were kept', async () => {
    const published = await publish(PETS_V1);
    // A store written before versions: the spec names a lastVersion that has no row.
    await h.store.transact((tx) => {
      const record = orgOpenApiSpecs.get(tx, h.orgId, 'pets');
      if (record) openApiSpecVersions.remove(tx, record.id, published.lastVersion as string);
    });
    await h.admin.fails('getLatestOpenAPISpecVersion', { params: spec }, 404, /processed before docsctl kept versions: publish the specification again/);
  });

  it('removes the versions with the spec; a spec created again under the slug starts afresh', async () => {
    const first = await publish(PETS_V1);
    await publish(PETS_V2_JSON);
    const specId = first.id;
    expect(openApiSpecVersions.count(h.store.read(), specId)).toBe(2);
    expect((await h.admin.call('deleteOpenAPISpecBySlug', { params: spec })).status).toBe(205);
    const reader = h.store.read();
    expect(openApiSpecVersions.count(reader, specId)).toBe(0);
    expect(reader.scan(openApiSpecVersions.table, { prefix: `${specId}/` })).toEqual([]);
    expect(reader.get(openApiSpecVersions.ends, specId)).toBeUndefined();
    await h.admin.fails('getOpenAPISpecVersionById', { params: { ...spec, versionId: first.lastVersion as string } }, 404);

    const again = await publish(PETS_V1);
    expect(again.id).not.toBe(specId);
    const list = await h.admin.ok<List>('listOpenAPISpecVersions', { params: spec });
    expect(list.items.map((v) => v.id)).toEqual([again.lastVersion]);
  });

  it('lets readers read versions and only creators change visibility', async () => {
    await publish(PETS_V1);
    const reader = await h.member('rita@acme.test', 'read');
    expect((await h.ok<List>(reader, 'listOpenAPISpecVersions', { params: spec })).count).toBe(1);
    expect(await h.ok(reader, 'getLatestOpenAPISpecVersionContent', { params: spec })).toHaveProperty('filesystem');
    await h.fails(reader, 'updateOpenAPISpecBySlug', { params: spec, body: { visibility: 'public' } }, 403, /"create" role/);
  });
});

describe('OpenAPI specification visibility', () => {
  it('is private until made public; a public spec names its published URL', async () => {
    const created = await publish(PETS_V1);
    expect(created.visibility).toBe('private');
    expect(created.urls).not.toHaveProperty('published');

    h.clock.advance(1000);
    const shown = await h.admin.ok('updateOpenAPISpecBySlug', { params: spec, body: { visibility: 'public' } });
    expect(schemaErrors('OpenAPISpec', shown)).toEqual([]);
    const latest = await h.admin.ok('getLatestOpenAPISpecVersion', { params: spec });
    expect(shown).toMatchObject({ visibility: 'public', updatedAt: '2026-01-01T00:00:01.000Z', urls: { published: latest.url } });
    expect(await h.admin.ok('getOpenAPISpecBySlug', { params: spec })).toMatchObject({ visibility: 'public' });

    // Setting the same visibility again writes nothing.
    const gen = h.store.read().gen;
    await h.admin.ok('updateOpenAPISpecBySlug', { params: spec, body: { visibility: 'public' } });
    expect(h.store.read().gen).toBe(gen);

    // A new version moves the published URL to it.
    const next = await publish(PETS_V2_JSON);
    expect((next.urls as { published?: string }).published).toMatch(/\/pets\.json$/);

    const hidden = await h.admin.ok('updateOpenAPISpecBySlug', { params: spec, body: { visibility: 'private' } });
    expect(hidden.visibility).toBe('private');
    expect(hidden.urls).not.toHaveProperty('published');
  });

  it('validates the body and names a missing spec', async () => {
    await publish(PETS_V1);
    await h.admin.fails('updateOpenAPISpecBySlug', { params: spec, body: { visibility: 'unlisted' } }, 400, /visibility/);
    await h.admin.fails('updateOpenAPISpecBySlug', { params: spec, body: {} }, 400, /visibility/);
    await h.admin.fails('updateOpenAPISpecBySlug', { params: { ...spec, specSlug: 'nope' }, body: { visibility: 'public' } }, 404, /"nope" not found/);
  });
});

describe('serve and OpenAPI versions', () => {
  it('routes the version operations (latest before an id) and answers a version url without a token', async () => {
    const { server, orgId, api: call } = await serveMemoryStore();
    try {
      const api = (method: string, path: string, body?: unknown) => call(method, `/v1/orgs/${orgId}/openapi${path}`, body);
      const created = await api('PUT', '/pets', { source: { text: PETS_V1 } });
      expect(created.status).toBe(201);
      const latest = await api('GET', '/pets/versions/latest');
      expect(latest).toMatchObject({ status: 200, body: { id: created.body.lastVersion } });
      const byId = await api('GET', `/pets/versions/${created.body.lastVersion as string}`);
      expect(byId.body).toEqual(latest.body);
      const content = await api('GET', '/pets/versions/latest/content');
      expect(content.body.url).toBe(latest.body.url);
      expect(String(latest.body.url)).toMatch(new RegExp(`^${server.url}/files/[0-9a-f]{64}/pets\\.yaml$`));
      const download = await fetch(String(latest.body.url));
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/yaml');
      expect(await download.text()).toBe(PETS_V1);
      const made = await api('PATCH', '/pets', { visibility: 'public' });
      expect(made.body).toMatchObject({ visibility: 'public', urls: { published: latest.body.url } });
    } finally {
      await server.close();
    }
  });
});
