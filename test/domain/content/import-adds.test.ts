/**
 * Content import adds, it never deletes (issue 9 §2): importing one page into a
 * change request of a space with many pages updates the page at the same path,
 * adds the others at the end or under a parent page (the page-level import
 * routes), and a merge then keeps every page. Counts are what happened.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contentSetup } from './helpers.js';

interface Page {
  id: string;
  title: string;
  path: string;
  markdown?: string;
  pages?: Page[];
}
const flatten = (pages: Page[]): Page[] => pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);

function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docsctl-import-adds-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
const url = (dir: string, name?: string) => pathToFileURL(name ? path.join(dir, name) : dir).href;

async function seeded() {
  const h = await contentSetup();
  const { id: spaceId } = await h.createSpace();
  const docs = fixture({
    'README.md': '# Welcome\n',
    'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n* [Usage](usage.md)\n  * [Tips](usage/tips.md)\n',
    'install.md': '# Install\n\nOld steps.\n',
    'usage.md': '# Usage\n',
    'usage/tips.md': '# Tips\n',
  });
  await h.admin.ok('importContent', { params: { spaceId }, body: { url: url(docs), source: 'markdown' } }, 201);
  const pages = async (changeRequestId?: string) =>
    flatten(
      (
        changeRequestId
          ? await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', { params: { spaceId, changeRequestId } })
          : await h.admin.ok<{ pages: Page[] }>('listPages', { params: { spaceId } })
      ).pages,
    );
  return { h, spaceId, pages, before: await pages() };
}

describe('content import never deletes', () => {
  it('one page into a change request updates the page at its path; the merge keeps every other page', async () => {
    const { h, spaceId, pages, before } = await seeded();
    const cr = await h.createCR(spaceId);
    const one = fixture({ 'install.md': '# Install\n\nNew steps.\n' });
    const result = await h.admin.ok<{ importedResources: number; totalResources: number }>(
      'importContentInChangeRequest',
      { params: { spaceId, changeRequestId: cr.id }, body: { url: url(one, 'install.md'), source: 'markdown' } },
      201,
    );
    expect(result).toMatchObject({ importedResources: 1, totalResources: 1 });
    const inCr = await pages(cr.id);
    expect(inCr.map((p) => [p.id, p.title])).toEqual(before.map((p) => [p.id, p.title]));
    expect(inCr.find((p) => p.title === 'Install')?.markdown).toContain('New steps.');

    await h.admin.ok('mergeChangeRequest', { params: { spaceId, changeRequestId: cr.id } });
    const after = await pages();
    expect(after.map((p) => [p.id, p.title])).toEqual(before.map((p) => [p.id, p.title]));
    expect(after.find((p) => p.title === 'Install')?.markdown).toContain('New steps.');
  });

  it('a new file becomes a new page at the end; importing it again changes nothing', async () => {
    const { h, spaceId, pages, before } = await seeded();
    const dir = fixture({ 'faq.md': '# FAQ\n\nAsk.\n' });
    const first = await h.admin.ok<{ importedResources: number; totalResources: number }>(
      'importContent',
      { params: { spaceId }, body: { url: url(dir, 'faq.md'), source: 'markdown' } },
      201,
    );
    expect(first).toMatchObject({ importedResources: 1, totalResources: 1 });
    const after = await pages();
    expect(after.map((p) => p.title)).toEqual([...before.map((p) => p.title), 'FAQ']);
    const again = await h.admin.ok<{ importedResources: number; totalResources: number }>(
      'importContent',
      { params: { spaceId }, body: { url: url(dir, 'faq.md'), source: 'markdown' } },
      201,
    );
    expect(again).toMatchObject({ importedResources: 0, totalResources: 1 });
    expect((await pages()).map((p) => p.id)).toEqual(after.map((p) => p.id));
  });

  it('imports under a page with the page-level routes, in a space and in a change request', async () => {
    const { h, spaceId, pages, before } = await seeded();
    const usage = before.find((p) => p.title === 'Usage') as Page;
    const dir = fixture({ 'advanced.md': '# Advanced\n' });
    await h.admin.ok('importContentInPageById', { params: { spaceId, pageId: usage.id }, body: { url: url(dir, 'advanced.md'), source: 'markdown' } }, 201);
    const after = await pages();
    expect(after.find((p) => p.title === 'Advanced')?.path).toBe('usage/advanced');
    expect(after.filter((p) => p.title !== 'Advanced').map((p) => p.id)).toEqual(before.map((p) => p.id));

    const cr = await h.createCR(spaceId);
    const tips = fixture({ 'tips.md': '# Tips\n\nUpdated tips.\n', 'more.md': '# More\n' });
    const res = await h.admin.ok<{ importedResources: number; totalResources: number }>(
      'importContentInChangeRequestPageById',
      { params: { spaceId, changeRequestId: cr.id, pageId: usage.id }, body: { url: url(tips), source: 'markdown' } },
      201,
    );
    expect(res.totalResources).toBe(2);
    const inCr = await pages(cr.id);
    const tipsPage = inCr.filter((p) => p.title === 'Tips');
    expect(tipsPage).toHaveLength(1);
    expect(tipsPage[0]?.markdown).toContain('Updated tips.');
    expect(inCr.find((p) => p.title === 'More')?.path).toBe('usage/more');
    await h.admin.fails(
      'importContentInPageById',
      { params: { spaceId, pageId: 'nope' }, body: { url: url(dir, 'advanced.md'), source: 'markdown' } },
      404,
      /Page nope not found/,
    );
  });
});
