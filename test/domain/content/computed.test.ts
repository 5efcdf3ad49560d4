/**
 * Computed content (src/domain/content/computed.ts) through executeOperation: builtin:openapi
 * documents and revisions from an OpenAPI specification of the organization, answers checked
 * against the 0.202 schemas; other source kinds are a 400 naming them.
 */
import { describe, expect, it } from 'vitest';
import { contentSetup } from './helpers.js';

const PETSTORE = `openapi: 3.0.0
info:
  title: Petstore
  version: 1.0.0
  description: Pets for everyone.
tags:
  - name: pets
    description: Everything about pets.
paths:
  /pets:
    get:
      summary: List pets
      tags: [pets]
      responses:
        '200': { description: ok }
    post:
      summary: Create a pet
      tags: [pets]
      responses:
        '201': { description: created }
  /health:
    get:
      responses:
        '200': { description: ok }
components:
  schemas:
    Pet: { type: object }
    Error: { type: object }
`;

const spec = { spec: { ref: { kind: 'openapi', spec: 'petstore' } } };

async function withSpec() {
  const h = await contentSetup();
  await h.admin.ok('createOrUpdateOpenAPISpecBySlug', { params: { organizationId: h.orgId, specSlug: 'petstore' }, body: { source: { text: PETSTORE } } });
  const s = await h.createSpace('API');
  const document = (source: Record<string, unknown>, seed = 's1') => h.admin.ok<{ nodes: Array<Record<string, unknown>> }>('getComputedDocument', { params: { spaceId: s.id }, body: { source, seed } });
  const revision = (source: Record<string, unknown>, seed = 's1') =>
    h.admin.ok<{ pages: Array<Record<string, unknown>>; files: unknown[]; reusableContents: unknown[] }>('getComputedRevision', { params: { spaceId: s.id }, body: { source, seed } });
  return { h, s, document, revision };
}

describe('computed content: builtin:openapi', () => {
  it('computes operation, tag, info and models documents from the specification', async () => {
    const { document } = await withSpec();
    const operation = await document({ type: 'builtin:openapi', props: { doc: 'operation', page: '/pets', method: 'post' }, dependencies: spec });
    expect(operation.nodes).toEqual([
      { object: 'block', type: 'openapi-operation', key: expect.any(String), isVoid: true, data: { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets', method: 'post' }, meta: { id: expect.any(String) } },
    ]);
    const tag = await document({ type: 'builtin:openapi', props: { doc: 'operations', page: 'pets' }, dependencies: spec });
    expect(tag.nodes.map((node) => [node.type, (node.data as { method?: string } | undefined)?.method])).toEqual([
      ['paragraph', undefined],
      ['openapi-operation', 'get'],
      ['openapi-operation', 'post'],
    ]);
    const info = await document({ type: 'builtin:openapi', props: { doc: 'info', page: 'Petstore' }, dependencies: spec });
    expect(info.nodes.map((node) => node.type)).toEqual(['heading-1', 'paragraph']);
    const models = await document({ type: 'builtin:openapi', props: { doc: 'models' }, dependencies: spec });
    expect(models.nodes[0]).toMatchObject({ type: 'openapi-schemas', data: { schemas: ['Pet', 'Error'], grouped: true } });
    // The same seed gives the same ids; another seed others.
    expect(await document({ type: 'builtin:openapi', props: { doc: 'operation', page: '/pets', method: 'post' }, dependencies: spec })).toEqual(operation);
    const reseeded = await document({ type: 'builtin:openapi', props: { doc: 'operation', page: '/pets', method: 'post' }, dependencies: spec }, 's2');
    expect(reseeded.nodes[0]?.key).not.toBe(operation.nodes[0]?.key);
  });

  it('computes a revision: a page per tag (or per operation) and the models, each with its document', async () => {
    const { revision } = await withSpec();
    const byTag = await revision({ type: 'builtin:openapi', props: { models: true }, dependencies: spec });
    const blocks = (page: Record<string, unknown> | undefined) => (page?.document as { nodes: Array<{ type: string }> }).nodes.map((node) => node.type);
    expect(byTag.pages.map((page) => [page.title, page.slug, blocks(page)])).toEqual([
      ['pets', 'pets', ['paragraph', 'openapi-operation', 'openapi-operation']],
      ['Other', 'other', ['openapi-operation']],
      ['Models', 'models', ['openapi-schemas']],
    ]);
    expect([byTag.files, byTag.reusableContents]).toEqual([[], []]);
    // Each page carries the document its source gives: the untagged operation is on "Other".
    expect((byTag.pages[1]?.document as { nodes: Array<{ data: { path: string } }> }).nodes.map((node) => node.data.path)).toEqual(['/health']);
    const byOperation = await revision({ type: 'builtin:openapi', props: { models: false, grouping: 'by-operation' }, dependencies: spec });
    expect(byOperation.pages.map((page) => page.title)).toEqual(['List pets', 'Create a pet', 'GET /health']);
  });

  it('answers 400 naming what it cannot compute, and 404 for a specification the organization lacks', async () => {
    const { h, s } = await withSpec();
    const fails = (route: 'getComputedDocument' | 'getComputedRevision', source: Record<string, unknown>, status: number, message: RegExp) =>
      h.fails(h.adminId, route, { params: { spaceId: s.id }, body: { source, seed: 's' } }, status, message);
    await fails('getComputedDocument', { type: 'builtin:translation', props: {}, dependencies: {} }, 400, /builtin:openapi sources only, not translation sources/);
    await fails('getComputedRevision', { type: 'integration:figma:files', props: {} }, 400, /not integration sources/);
    await fails('getComputedDocument', { type: 'builtin:openapi', props: { doc: 'operation', page: '/pets', method: 'delete' }, dependencies: spec }, 400, /has no operation DELETE \/pets/);
    await fails('getComputedDocument', { type: 'builtin:openapi', props: { doc: 'operation' }, dependencies: spec }, 400, /source\.props\.page/);
    await fails('getComputedDocument', { type: 'builtin:openapi', props: { doc: 'models' }, dependencies: {} }, 400, /source\.dependencies\.spec/);
    await fails('getComputedRevision', { type: 'builtin:openapi', props: {}, dependencies: spec }, 400, /source\.props\.models/);
    await fails('getComputedDocument', { type: 'builtin:openapi', props: { doc: 'models' }, dependencies: { spec: { ref: { kind: 'openapi', spec: 'nope' } } } }, 404, /"nope" not found/);
  });
});
