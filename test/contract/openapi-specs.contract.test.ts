/**
 * Contract tests of the OpenAPI specification operations (API doc §4.15 and the
 * real API's visibility and `openapi-versions` operations): each is called through
 * `executeOperation` with inputs the real API accepts, and every answer (errors
 * included) is validated against @gitbook/api 0.202.0, with its values checked.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routeInfo } from '../../src/api/catalog.js';
import type { RouteId } from '../../src/api/route-id.js';
import { routes } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import { contractHarness } from './harness.js';

const PETS = 'openapi: 3.0.3\ninfo: {title: Pets, version: "1.0"}\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      responses: {"200": {description: ok}}\n';
const PETS_2 = PETS.replace('"1.0"', '"2.0"');

type Body = Record<string, unknown> & { id: string };
let h: Awaited<ReturnType<typeof contractHarness>>;
const expectContract = <T = Record<string, unknown> & { id: string }>(id: RouteId, raw: RawInput, status: number) => h.expectContract<T>(id, raw, status);

beforeAll(async () => {
  h = await contractHarness('2026-03-01T09:00:00.000Z');
});

describe('OpenAPI specifications contract (@gitbook/api 0.202.0)', () => {
  it('answers every OpenAPI specification operation with bodies the real schemas accept', async () => {
    const o = { organizationId: h.orgId };
    const p = { ...o, specSlug: 'pets' };
    const created = await expectContract('createOpenAPISpec', { params: o, body: { slug: 'pets', source: { text: PETS } } }, 201);
    expect(created).toMatchObject({ object: 'openapi-spec', slug: 'pets', processingState: 'complete', visibility: 'private', createdAt: '2026-03-01T09:00:00.000Z' });
    await expectContract('createOpenAPISpec', { params: o, body: { slug: 'pets', source: { text: PETS } } }, 409);
    await expectContract('createOpenAPISpec', { params: o, body: { slug: 'Pets!', source: { text: PETS } } }, 400);
    h.clock.advance(60_000);
    const updated = await expectContract('createOrUpdateOpenAPISpecBySlug', { params: p, body: { source: { text: PETS_2 } } }, 200);
    expect(updated.lastVersion).not.toBe(created.lastVersion);
    await expectContract('createOrUpdateOpenAPISpecBySlug', { params: { ...o, specSlug: 'store' }, body: { source: { text: PETS } } }, 201);

    const list = await expectContract<{ items: Body[]; count: number }>('listOpenAPISpecs', { params: o }, 200);
    expect(list.items.map((spec) => spec.slug)).toEqual(['pets', 'store']);
    expect((await expectContract('getOpenAPISpecBySlug', { params: p }, 200)).lastVersion).toBe(updated.lastVersion);
    await expectContract('getOpenAPISpecBySlug', { params: { ...o, specSlug: 'nope' } }, 404);

    const shown = await expectContract<Body & { urls: { published?: string } }>('updateOpenAPISpecBySlug', { params: p, body: { visibility: 'public' } }, 200);
    expect(shown.visibility).toBe('public');
    await expectContract('updateOpenAPISpecBySlug', { params: p, body: { visibility: 'secret' } }, 400);
    await expectContract('updateOpenAPISpecBySlug', { params: { ...o, specSlug: 'nope' }, body: { visibility: 'public' } }, 404);

    const versions = await expectContract<{ items: Body[]; count: number }>('listOpenAPISpecVersions', { params: p }, 200);
    expect(versions.count).toBe(2);
    expect(versions.items.map((v) => [v.id, v.createdAt])).toEqual([
      [updated.lastVersion, '2026-03-01T09:01:00.000Z'],
      [created.lastVersion, '2026-03-01T09:00:00.000Z'],
    ]);
    await expectContract('listOpenAPISpecVersions', { params: { ...o, specSlug: 'nope' } }, 404);

    const latest = await expectContract('getLatestOpenAPISpecVersion', { params: p }, 200);
    expect(latest).toEqual(versions.items[0]);
    expect(shown.urls.published).toBe(latest.url);
    const first = await expectContract('getOpenAPISpecVersionById', { params: { ...p, versionId: created.lastVersion as string } }, 200);
    expect(first).toEqual(versions.items[1]);
    await expectContract('getOpenAPISpecVersionById', { params: { ...p, versionId: 'nope' } }, 404);

    const content = await expectContract<{ filesystem: Record<string, { info: unknown }>; url: string }>('getLatestOpenAPISpecVersionContent', { params: p }, 200);
    expect(content.url).toBe(latest.url);
    expect(content.filesystem['pets.yaml']?.info).toEqual({ title: 'Pets', version: '2.0' });
    const firstContent = await expectContract<{ filesystem: Record<string, { info: unknown }>; url: string }>(
      'getOpenAPISpecVersionContentById',
      { params: { ...p, versionId: created.lastVersion as string } },
      200,
    );
    expect(firstContent.filesystem['pets.yaml']?.info).toEqual({ title: 'Pets', version: '1.0' });
    await expectContract('getOpenAPISpecVersionContentById', { params: { ...p, versionId: 'nope' } }, 404);
    // The raw text is the last published document exactly as sent.
    expect(await expectContract('getLatestOpenAPISpecVersionContentRaw', { params: p }, 200)).toEqual({ text: PETS_2, format: PETS_2.trimStart().startsWith('{') ? 'json' : 'yaml' });
    await expectContract('getLatestOpenAPISpecVersionContentRaw', { params: { ...o, specSlug: 'nope' } }, 404);

    await expectContract('deleteOpenAPISpecBySlug', { params: p }, 205);
    await expectContract('deleteOpenAPISpecBySlug', { params: p }, 204);
    await expectContract('getLatestOpenAPISpecVersion', { params: p }, 404);
  });

  it('validated a success answer of every OpenAPI specification route', () => {
    const specRoutes = routes.filter((route) => route.path.includes('/openapi') && routeInfo(route.id).module !== 'declared').map((route) => route.id);
    expect(specRoutes.length).toBe(12);
    expect(specRoutes.filter((id) => !h.validated.has(id))).toEqual([]);
  });
});
