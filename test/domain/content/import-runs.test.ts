/**
 * Import runs and space templates, over the content import: a run records what the
 * import did (completed with the revision, counts and pages; failed with the reason
 * when the source cannot be imported), lists newest first with its filters, and a
 * finished run cannot be cancelled. A template's pages are added to the space or a
 * change request, with the content references it takes filled in.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ORIGIN } from '../harness.js';
import { contentSetup } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docsctl-import-runs-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
const url = (dir: string, name?: string) => pathToFileURL(name ? path.join(dir, name) : dir).href;

interface Page {
  id: string;
  title: string;
  path: string;
  markdown?: string;
  pages?: Page[];
}
const flatten = (pages: Page[]): Page[] => pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
type Run = Record<string, unknown> & { id: string; status: string };

describe('import runs', () => {
  it('a run imports, records the revision, counts and pages; lists newest first with filters; a finished run is not cancelled', async () => {
    const h = await contentSetup();
    const org = { organizationId: h.orgId };
    // The run's reads (test/contract/official-client-git-imports.test.ts checks them against 0.202).
    const read = async <T>(routeId: 'listImportRuns' | 'getImportRun', raw: Parameters<typeof h.call>[2]) => (await h.call(h.adminId, routeId, raw)).body as T;
    const { id: spaceId } = await h.createSpace('Docs');
    const { id: otherId } = await h.createSpace('Other');
    const docs = fixture({
      'README.md': '# Welcome\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n',
      'install.md': '# Install\n\nSteps.\n',
    });
    const run = await h.admin.ok<Run>('startImportRun', { params: org, body: { source: { type: 'website', url: url(docs) }, target: { space: spaceId } } }, 201);
    expect(run).toEqual({
      object: 'import-run',
      id: expect.any(String),
      status: 'completed',
      source: { type: 'website', url: url(docs) },
      target: { space: spaceId },
      createdBy: h.adminId,
      createdAt: expect.any(String),
      startedAt: expect.any(String),
      updatedAt: expect.any(String),
      completedAt: expect.any(String),
      revision: expect.any(String),
      importedResources: 2,
      totalResources: 2,
      pages: [
        { id: expect.any(String), type: 'page', status: 'complete', sourceURL: `${url(docs)}/README.md` },
        { id: expect.any(String), type: 'page', status: 'complete', sourceURL: `${url(docs)}/install.md` },
      ],
      urls: { location: `${ORIGIN}/v1/org/${h.orgId}/imports/${run.id}` },
    });
    const space = await h.admin.ok<{ revision: string }>('getSpaceById', { params: { spaceId } });
    expect(space.revision).toBe(run.revision);
    const pages = flatten((await h.admin.ok<{ pages: Page[] }>('listPages', { params: { spaceId } })).pages);
    expect(pages.map((page) => page.title)).toEqual(['Welcome', 'Install']);
    expect((run.pages as Array<{ id: string }>).map((page) => page.id)).toEqual(pages.map((page) => page.id));

    // Two files into a change request, one after the other; then a source that is not there fails the run.
    const cr = (await h.createCR(otherId)).id;
    const a = fixture({ 'faq.md': '# FAQ\n' });
    const b = fixture({ 'help.md': '# Help\n' });
    const files = await h.admin.ok<Run>('startImportRun', { params: org, body: { source: { type: 'file', files: [url(a, 'faq.md'), url(b, 'help.md')] }, target: { space: otherId, changeRequest: cr } } }, 201);
    expect(files).toMatchObject({ status: 'completed', importedResources: 2, totalResources: 2, target: { space: otherId, changeRequest: cr } });
    const crPages = flatten((await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', { params: { spaceId: otherId, changeRequestId: cr } })).pages);
    expect(crPages.map((page) => page.title)).toContain('FAQ');
    expect(crPages.map((page) => page.title)).toContain('Help');
    const failed = await h.admin.ok<Run>('startImportRun', { params: org, body: { source: { type: 'website', url: url(docs, 'missing.md') }, target: { space: spaceId } } }, 201);
    expect(failed).toMatchObject({ status: 'failed', reason: expect.stringMatching(/missing\.md: no such file or directory/), importedResources: 0, pages: [] });
    expect(failed.completedAt).toBeUndefined();

    // Request errors are not runs: an unknown space, a source that is not a URL.
    await h.admin.fails('startImportRun', { params: org, body: { source: { type: 'website', url: url(docs) }, target: { space: 'nope' } } }, 404);
    await h.admin.fails('startImportRun', { params: org, body: { source: { type: 'file', files: ['not a url'] }, target: { space: spaceId } } }, 400, /file key is the file's URL/);

    const all = await read<{ items: Run[]; count: number }>('listImportRuns', { params: org });
    expect(all.count).toBe(3);
    expect(all.items.map((item) => item.id)).toEqual([failed.id, files.id, run.id]);
    const page1 = await read<{ items: Run[]; next?: { page: string } }>('listImportRuns', { params: org, query: { limit: 2 } });
    const page2 = await read<{ items: Run[]; next?: { page: string } }>('listImportRuns', { params: org, query: { limit: 2, page: page1.next?.page } });
    expect([...page1.items, ...page2.items].map((item) => item.id)).toEqual([failed.id, files.id, run.id]);
    expect(page2.next).toBeUndefined();
    expect((await read<{ items: Run[]; count: number }>('listImportRuns', { params: org, query: { space: spaceId } })).items.map((item) => item.id)).toEqual([failed.id, run.id]);
    expect((await read<{ items: Run[] }>('listImportRuns', { params: org, query: { status: 'failed' } })).items.map((item) => item.id)).toEqual([failed.id]);
    expect((await read<{ items: Run[] }>('listImportRuns', { params: org, query: { changeRequest: cr } })).items.map((item) => item.id)).toEqual([files.id]);
    expect((await read<{ items: Run[] }>('listImportRuns', { params: org, query: { status: 'active' } })).items).toEqual([]);

    expect(await read('getImportRun', { params: { ...org, importRunId: run.id } })).toEqual(run);
    await h.admin.fails('getImportRun', { params: { ...org, importRunId: 'nope' } }, 404);
    await h.admin.fails('cancelImportRun', { params: { ...org, importRunId: run.id } }, 400, /is completed: only a pending or in-progress run can be cancelled/);
  });
});

describe('applyTemplateToSpace', () => {
  it("adds the template's pages with the references filled in, to the space or a change request", async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace('Docs');
    const { id: apiSpace } = await h.createSpace('Public API');
    const result = await h.admin.call('applyTemplateToSpace', {
      params: { spaceId },
      body: { id: 'api-reference', params: { contentRefs: { api: { kind: 'space', space: apiSpace } } } },
    });
    expect(result.status).toBe(201);
    const pages = flatten((await h.admin.ok<{ pages: Page[] }>('listPages', { params: { spaceId } })).pages);
    expect(pages.map((page) => page.title)).toEqual(['API reference', 'Authentication', 'Errors', 'Changelog']);
    const readme = await h.admin.ok<{ markdown: string }>('getPageByPath', { params: { spaceId, pagePath: 'authentication' }, query: { format: 'markdown' } });
    expect(readme.markdown).toContain(`[Public API](https://app.gitbook.com/s/${apiSpace}/)`);

    const cr = (await h.createCR(spaceId)).id;
    await h.admin.call('applyTemplateToSpace', { params: { spaceId }, body: { id: 'knowledge-base', changeRequestId: cr, params: { contentRefs: { support: { kind: 'url', url: 'https://help.acme.test' } } } } });
    const crPages = flatten((await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', { params: { spaceId, changeRequestId: cr } })).pages);
    expect(crPages.map((page) => page.title)).toEqual(expect.arrayContaining(['FAQ', 'Troubleshooting']));
    expect(flatten((await h.admin.ok<{ pages: Page[] }>('listPages', { params: { spaceId } })).pages).map((page) => page.title)).not.toContain('FAQ');

    await h.admin.fails('applyTemplateToSpace', { params: { spaceId }, body: { id: 'nope' } }, 404, /docsctl's templates are product-docs, api-reference, knowledge-base/);
    await h.admin.fails('applyTemplateToSpace', { params: { spaceId }, body: { id: 'api-reference', params: { contentRefs: { other: { kind: 'url', url: 'https://x.test' } } } } }, 400, /takes no content reference "other": it takes api/);
    await h.admin.fails('applyTemplateToSpace', { params: { spaceId }, body: { id: 'api-reference', params: { contentRefs: { api: { kind: 'url', url: 'javascript:alert(1)' } } } } }, 400, /give an http\(s\) URL/);
    await h.admin.fails('applyTemplateToSpace', { params: { spaceId }, body: { id: 'api-reference', params: { contentRefs: { api: { kind: 'space', space: 'nope' } } } } }, 404, /space nope not found/);
  });
});

describe('templates prepared against content that then moves', () => {
  async function prepared(h: Awaited<ReturnType<typeof contentSetup>>, id: 'applyTemplateToSpace' | 'createChangeRequest', input: Record<string, unknown>) {
    const { findHandler } = await import('../../../src/domain/handler-registry.js');
    const { LOCAL_POLICY } = await import('../../../src/domain/policy.js');
    const handler = (await findHandler(id)) as import('../../../src/domain/handler.js').TwoPhaseHandler;
    const base = { actor: { userId: h.adminId }, access: { userId: h.adminId, organizationId: h.orgId, role: 'admin' as const }, clock: h.clock, ids: h.ids, origin: ORIGIN, artifacts: { save: async () => '' }, policy: LOCAL_POLICY };
    const full = { query: {}, ...input };
    const state = await handler.prepare({ ...base, reader: h.store.read() }, full as never);
    return () => h.store.transact((tx) => handler.run({ ...base, tx }, full as never, state));
  }

  it('applyTemplateToSpace answers 409 and leaves the newer content as it is', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace('Docs');
    const run = await prepared(h, 'applyTemplateToSpace', { params: { spaceId }, body: { id: 'product-docs' } });
    // Meanwhile another template lands in the space's primary content.
    await h.admin.ok('applyTemplateToSpace', { params: { spaceId }, body: { id: 'knowledge-base', params: { contentRefs: { support: { kind: 'url', url: 'https://help.acme.test' } } } } }, 201);
    const before = flatten((await h.admin.ok<{ pages: Page[] }>('listPages', { params: { spaceId } })).pages).map((page) => page.title);
    await expect(run()).rejects.toMatchObject({ status: 409, message: `The content of space ${spaceId} changed while the template was prepared: apply the template again` });
    expect(flatten((await h.admin.ok<{ pages: Page[] }>('listPages', { params: { spaceId } })).pages).map((page) => page.title)).toEqual(before);
    expect(before).toEqual(expect.arrayContaining(['FAQ', 'Troubleshooting']));
  });

  it("applyTemplateToSpace into a change request answers 409 when the change request's content moved", async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace('Docs');
    const cr = await h.createCR(spaceId);
    const run = await prepared(h, 'applyTemplateToSpace', { params: { spaceId }, body: { id: 'product-docs', changeRequestId: cr.id } });
    await h.admin.ok('applyTemplateToSpace', { params: { spaceId }, body: { id: 'knowledge-base', changeRequestId: cr.id, params: { contentRefs: { support: { kind: 'url', url: 'https://help.acme.test' } } } } }, 201);
    await expect(run()).rejects.toMatchObject({ status: 409, message: `The content of change request #${cr.number} of space ${spaceId} changed while the template was prepared: apply the template again` });
  });

  it('createChangeRequest with a template answers 409 when the primary content moved', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace('Docs');
    const run = await prepared(h, 'createChangeRequest', { params: { spaceId }, body: { subject: 'From a template', template: { id: 'product-docs' } } });
    await h.admin.ok('applyTemplateToSpace', { params: { spaceId }, body: { id: 'knowledge-base', params: { contentRefs: { support: { kind: 'url', url: 'https://help.acme.test' } } } } }, 201);
    await expect(run()).rejects.toMatchObject({ status: 409, message: `The content of space ${spaceId} changed while the template was prepared: create the change request again` });
  });
});
