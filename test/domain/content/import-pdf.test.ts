import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractPdfText } from '../../helpers/pdf-extract.js';
import { writeZip } from '../../../src/util/zip.js';
import { ORIGIN, contentSetup, writeFixture } from './helpers.js';

type Page = Record<string, unknown> & { id: string; title: string; path: string; pages: Page[]; markdown?: string };
interface ImportResult {
  revision: string;
  importedResources: number;
  totalResources: number;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 2, 0, 0, 0, 3, 8, 2, 0, 0, 0]);

const FIXTURE: Record<string, string | Uint8Array> = {
  'README.md': '# Welcome\n\nStart with [Install](guides/install.md).\n\n![logo](.gitbook/assets/logo.png)\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Install](guides/install.md)\n  * [Linux](guides/linux.md)\n* [Usage](usage.md)\n',
  'guides/install.md': '---\ndescription: How to install\n---\n\n# Install\n\nRun the installer.\n\nSee [Usage](../usage.md) and [Nowhere](../nowhere.md).\n',
  'guides/linux.md': '# Linux\n\napt install it\n',
  'usage.md': '# Usage\n\nUse it daily.\n',
  '.gitbook/assets/logo.png': PNG,
};

const flatten = (pages: Page[]): Page[] => pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
const fileUrl = (p: string) => pathToFileURL(p).href;

describe('import', () => {
  it('imports a Git Sync directory into a CR, reads it, merges it: the primary has the pages and files', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace();
    const cr = await h.createCR(spaceId, 'Import');
    const dir = writeFixture(FIXTURE);
    const res = await h.admin.call('importContentInChangeRequest', {
      params: { spaceId, changeRequestId: cr.id },
      body: { url: fileUrl(dir), source: 'markdown' },
    });
    expect(res.status).toBe(201);
    const body = res.body as ImportResult;
    expect(res.headers.Location).toBe(`${ORIGIN}/v1/spaces/${spaceId}/revisions/${body.revision}`);
    expect(body).toMatchObject({ importedResources: 6, totalResources: 6 });
    const refreshed = await h.admin.ok<{ revision: string }>('getChangeRequestById', { params: { spaceId, changeRequestId: cr.id } });
    expect(refreshed.revision).toBe(body.revision);

    const { pages } = await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', { params: { spaceId, changeRequestId: cr.id } });
    expect(flatten(pages).map((p) => [p.type, p.title, p.path])).toEqual([
      ['document', 'Welcome', 'readme'],
      ['group', 'Guides', 'guides'],
      ['document', 'Install', 'guides/install'],
      ['document', 'Linux', 'guides/install/linux'],
      ['document', 'Usage', 'guides/usage'],
    ]);
    const install = flatten(pages).find((p) => p.title === 'Install') as Page;
    expect(install).toMatchObject({ description: 'How to install' });
    // A content import is not a Git Sync: a new page has no file in the space's repository until an export
    // places it (the source's own path, relative to the imported directory, is not a repository path).
    expect(install.git).toBeUndefined();
    expect(install.markdown).toContain('Run the installer.');
    const files = await h.admin.ok<{ items: Array<Record<string, unknown>> }>('listFilesInChangeRequestById', {
      params: { spaceId, changeRequestId: cr.id },
    });
    expect(files.items).toHaveLength(1);
    expect(files.items[0]).toMatchObject({ name: 'logo.png', contentType: 'image/png', size: PNG.length });

    // Broken link detection on the imported fixture.
    const links = await h.admin.ok<{ items: Array<{ status: string; targetReference?: { url?: string } }>; stats: unknown }>(
      'listChangeRequestLinks',
      { params: { spaceId, changeRequestId: cr.id }, query: { status: 'broken' } },
    );
    expect(links.items.map((u) => u.targetReference?.url)).toEqual(['../nowhere.md']);

    const merged = await h.admin.ok<{ result: string }>('mergeChangeRequest', { params: { spaceId, changeRequestId: cr.id } });
    expect(merged.result).toBe('merge');
    const primary = await h.admin.ok<{ pages: Page[] }>('listPages', { params: { spaceId } });
    expect(flatten(primary.pages).map((p) => p.id)).toEqual(flatten(pages).map((p) => p.id));
    expect((await h.admin.ok<{ count: number }>('listFiles', { params: { spaceId } })).count).toBe(1);
    const backlinks = await h.admin.ok<{ items: Array<{ page: { id: string } }> }>('listSpacePageBacklinks', {
      params: { spaceId, pageId: install.id },
    });
    expect(backlinks.items.map((l) => l.page.id)).toEqual([flatten(pages)[0]?.id]);
  });

  it('re-importing keeps page ids (previous) and writes only what changed', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace();
    const cr = await h.createCR(spaceId);
    const p = { params: { spaceId, changeRequestId: cr.id } };
    await h.admin.ok('importContentInChangeRequest', { ...p, body: { url: fileUrl(writeFixture(FIXTURE)), source: 'markdown' } }, 201);
    const before = flatten((await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', p)).pages);
    const changed = { ...FIXTURE, 'usage.md': '# Usage\n\nUse it hourly.\n' };
    await h.admin.ok('importContentInChangeRequest', { ...p, body: { url: fileUrl(writeFixture(changed)), source: 'markdown' } }, 201);
    const after = flatten((await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', p)).pages);
    expect(after.map((x) => x.id)).toEqual(before.map((x) => x.id));
    expect(after.find((x) => x.title === 'Usage')?.markdown).toContain('hourly');
  });

  it('imports one Markdown file as one page, and a zip archive (with a wrapping folder)', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace();
    const dir = writeFixture({ 'guide.md': '# The guide\n\nOne page.\n' });
    const one = await h.admin.ok<ImportResult>('importContent', { params: { spaceId }, body: { url: fileUrl(path.join(dir, 'guide.md')), source: 'markdown' } }, 201);
    expect(one).toMatchObject({ importedResources: 1, totalResources: 1 });
    const space = h.space(spaceId);
    expect(space.revision).toBe(one.revision);
    const { pages } = await h.admin.ok<{ pages: Page[] }>('listPages', { params: { spaceId } });
    expect(pages.map((p) => [p.title, p.markdown])).toEqual([['The guide', expect.stringContaining('One page.')]]);

    const zip = writeZip(Object.entries(FIXTURE).map(([name, data]) => ({ path: `docs-main/${name}`, data: typeof data === 'string' ? new TextEncoder().encode(data) : data })));
    const zipDir = writeFixture({ 'docs.zip': zip });
    const cr = await h.createCR(spaceId);
    const res = await h.admin.ok<ImportResult>(
      'importContentInChangeRequest',
      { params: { spaceId, changeRequestId: cr.id }, body: { url: fileUrl(path.join(zipDir, 'docs.zip')), source: 'zip' } },
      201,
    );
    expect(res).toMatchObject({ importedResources: 6, totalResources: 6 });
    const crPages = await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', { params: { spaceId, changeRequestId: cr.id } });
    // The import adds: the page imported before stays, the archive's pages come after it.
    expect(flatten(crPages.pages).map((p) => p.title)).toEqual(['The guide', 'Welcome', 'Guides', 'Install', 'Linux', 'Usage']);
  });

  it('fetches http(s) URLs', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/page.md') {
        res.writeHead(200, { 'content-type': 'text/markdown' });
        res.end('# Remote page\n\nFetched.\n');
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const h = await contentSetup();
      const { id: spaceId } = await h.createSpace();
      const cr = await h.createCR(spaceId);
      const p = { params: { spaceId, changeRequestId: cr.id } };
      await h.admin.ok('importContentInChangeRequest', { ...p, body: { url: `${base}/page.md`, source: 'markdown' } }, 201);
      const { pages } = await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', p);
      expect(pages.map((x) => x.title)).toEqual(['Remote page']);
      await h.admin.fails('importContentInChangeRequest', { ...p, body: { url: `${base}/missing.md`, source: 'markdown' } }, 400, /HTTP 404/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses unsupported sources (400 naming the supported ones), unreadable URLs, bad archives, merged CRs and locked spaces', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace();
    const cr = await h.createCR(spaceId);
    const p = { params: { spaceId, changeRequestId: cr.id } };
    const dir = writeFixture({ 'a.md': '# A\n', 'bad.zip': 'not a zip' });
    const gen = h.store.read().gen;
    await h.admin.fails('importContentInChangeRequest', { ...p, body: { url: fileUrl(dir), source: 'docx' } }, 400, /"docx".*"markdown" and "zip"/);
    await h.admin.fails('importContentInChangeRequest', { ...p, body: { url: fileUrl(path.join(dir, 'nope')), source: 'markdown' } }, 400, /no such file/);
    await h.admin.fails('importContentInChangeRequest', { ...p, body: { url: fileUrl(path.join(dir, 'bad.zip')), source: 'zip' } }, 400, /archive/);
    await h.admin.fails('importContentInChangeRequest', { ...p, body: { url: fileUrl(dir), source: 'zip' } }, 400, /directory/);
    await h.admin.fails('importContentInChangeRequest', { ...p, body: { url: 'ftp://example.com/x.md', source: 'markdown' } }, 400, /scheme/);
    await h.admin.fails('importContentInChangeRequest', { ...p, body: { source: 'markdown' } }, 400);
    expect(h.store.read().gen).toBe(gen);
    const reader = await h.member('r@acme.test', 'read');
    await h.fails(reader, 'importContentInChangeRequest', { ...p, body: { url: fileUrl(dir), source: 'markdown' } }, 403);

    await h.admin.ok('updateSpaceById', { params: { spaceId }, body: { editMode: 'locked' } });
    await h.admin.fails('importContent', { params: { spaceId }, body: { url: fileUrl(dir), source: 'markdown' } }, 409, /locked/);
    await h.admin.ok('mergeChangeRequest', p);
    await h.admin.fails('importContentInChangeRequest', { ...p, body: { url: fileUrl(dir), source: 'markdown' } }, 409, /merged/);
  });
});

describe('PDF', () => {
  it('renders a change request, or one page with only=true, and answers the artifact URL', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace('Handbook');
    const cr = await h.createCR(spaceId, 'Import');
    const p = { params: { spaceId, changeRequestId: cr.id } };
    await h.admin.ok('importContentInChangeRequest', { ...p, body: { url: fileUrl(writeFixture(FIXTURE)), source: 'markdown' } }, 201);

    const whole = await h.admin.ok<{ url: string }>('getChangeRequestPDF', p);
    expect(whole.url).toMatch(new RegExp(`^${ORIGIN}/artifacts/.+\\.pdf$`));
    const name = decodeURIComponent(whole.url.split('/').pop() as string);
    const saved = h.artifacts.get(name);
    expect(saved?.contentType).toBe('application/pdf');
    const text = extractPdfText(saved?.data as Uint8Array);
    for (const expected of ['Handbook: Import', 'Welcome', 'Run the installer.', 'apt install it', 'Use it daily.']) expect(text).toContain(expected);

    const pages = flatten((await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', p)).pages);
    const install = pages.find((x) => x.title === 'Install') as Page;
    const only = await h.admin.ok<{ url: string }>('getChangeRequestPDF', { ...p, query: { only: 'true', page: install.id } });
    const onlyText = extractPdfText(h.artifacts.get(decodeURIComponent(only.url.split('/').pop() as string))?.data as Uint8Array);
    expect(onlyText).toContain('Run the installer.');
    expect(onlyText).not.toContain('apt install it');
    const subtree = await h.admin.ok<{ url: string }>('getChangeRequestPDF', { ...p, query: { page: install.id } });
    expect(extractPdfText(h.artifacts.get(decodeURIComponent(subtree.url.split('/').pop() as string))?.data as Uint8Array)).toContain('apt install it');

    await h.admin.fails('getChangeRequestPDF', { ...p, query: { only: 'true' } }, 400, /needs "page"/);
    await h.admin.fails('getChangeRequestPDF', { ...p, query: { page: 'nope' } }, 404);
    // The space's own PDF (empty primary content) still renders.
    expect((await h.admin.ok<{ url: string }>('getSpacePDF', { params: { spaceId } })).url).toMatch(/\.pdf$/);
  });
});
