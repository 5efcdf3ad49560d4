/**
 * updateChangeRequestContent (page metadata edits in a change request): the
 * `update_page` fields docsctl applies, the link title Git Sync writes, what it
 * refuses (by name), and that a batch is all or nothing.
 */
import { describe, expect, it } from 'vitest';
import { componentValidator } from '../../contract/openapi.js';
import { type ContentHarness, contentSetup, doc } from './helpers.js';

type Page = Record<string, unknown> & { id: string };

async function seeded(h: ContentHarness) {
  const s = await h.createSpace();
  await h.seedSpace(s.id, {
    pages: [
      doc('p-intro', 'Intro', 'Hello.\n', [], { extra: { linkTitle: 'Start', heading: '# Intro\n' } }),
      { id: 'p-group', type: 'group', title: 'Guides', slug: 'guides', pages: [doc('p-setup', 'Setup', 'Steps.\n')] },
    ],
    files: [],
  });
  const cr = await h.createCR(s.id);
  const params = { spaceId: s.id, changeRequestId: String(cr.number) };
  const page = (pageId: string, changeRequestId?: string) =>
    changeRequestId
      ? h.admin.ok<Page>('getPageInChangeRequestById', { params: { spaceId: s.id, changeRequestId, pageId } })
      : h.admin.ok<Page>('getPageById', { params: { spaceId: s.id, pageId } });
  return { spaceId: s.id, cr, params, page };
}

/** Applies changes and checks the answer is a ChangeRequest (the operation is newer than the spec we validate against). */
async function apply(h: ContentHarness, params: Record<string, string>, body: unknown) {
  const res = await h.admin.call('updateChangeRequestContent', { params, body });
  expect(res.status).toBe(200);
  expect(componentValidator('ChangeRequest')(res.body).errors).toEqual([]);
  return res.body as { id: string; number: number; revision: string };
}

const edit = (...changes: Array<Record<string, unknown>>) => ({ changes: changes.map((change) => ({ operation: 'update_page', ...change })) });

describe('updateChangeRequestContent: update_page', () => {
  it('sets, changes and removes link titles, titles and descriptions in the change request only', async () => {
    const h = await contentSetup();
    const { cr, params, page } = await seeded(h);
    const body = await apply(h, params, edit({ page: 'p-setup', linkTitle: 'Install', description: 'How to install' }, { page: 'p-intro', linkTitle: null, title: 'Introduction' }));
    expect(body).toMatchObject({ id: cr.id, number: 1 });
    expect(body.revision).not.toBe(cr.revision);

    expect(await page('p-setup', cr.id)).toMatchObject({ title: 'Setup', linkTitle: 'Install', description: 'How to install' });
    const intro = await page('p-intro', cr.id);
    expect(intro).toMatchObject({ title: 'Introduction' });
    expect(intro).not.toHaveProperty('linkTitle');
    // The space is unchanged until the merge.
    expect(await page('p-intro')).toMatchObject({ title: 'Intro', linkTitle: 'Start' });
    expect(await page('p-setup')).not.toHaveProperty('linkTitle');

    await h.admin.ok('mergeChangeRequest', { params });
    expect(await page('p-setup')).toMatchObject({ linkTitle: 'Install' });
  });

  it('keeps the page body and the other pages (only the edited page object changes)', async () => {
    const h = await contentSetup();
    const { cr, params } = await seeded(h);
    await apply(h, params, edit({ page: 'p-setup', linkTitle: 'Install' }));
    const md = await h.admin.ok<Page>('getPageInChangeRequestById', { params: { ...params, changeRequestId: cr.id, pageId: 'p-setup' }, query: { format: 'markdown' } });
    expect(md.markdown).toBe('Steps.\n');
    const { pages } = await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', { params });
    expect(pages.map((p) => p.id)).toEqual(['p-intro', 'p-group']);
  });

  it('an edit that changes nothing makes no new revision', async () => {
    const h = await contentSetup();
    const { cr, params } = await seeded(h);
    const body = await apply(h, params, edit({ page: 'p-intro', linkTitle: 'Start' }));
    expect(body.revision).toBe(cr.revision);
  });

  it('refuses what it cannot do, by name, and applies nothing of a refused batch', async () => {
    const h = await contentSetup();
    const { cr, params, page } = await seeded(h);
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ page: 'p-setup', linkTitle: 'A' }, { page: 'p-group', linkTitle: 'G' }) }, 400, /changes\[1\]\.linkTitle: a page group has no link title/);
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ page: 'p-setup', linkTitle: 'A' }, { page: 'nope', title: 'x' }) }, 404, /changes\[1\]: page nope not found/);
    await h.admin.fails('updateChangeRequestContent', { params, body: { changes: [{ operation: 'delete_page', page: 'p-setup' }] } }, 501, /operation delete_page is not implemented yet/);
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ page: 'p-setup', document: { nodes: [] } }) }, 501, /document of update_page is not implemented yet/);
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ title: 'x' }) }, 400, /changes\[0\]\.page: required/);
    await h.admin.fails('updateChangeRequestContent', { params, body: { changes: [] } }, 400, /changes/);
    expect(await page('p-setup', cr.id)).not.toHaveProperty('linkTitle');
    expect(h.cr(params.spaceId, cr.id).revision).toBe(cr.revision);
  });

  it('needs the edit role and an open change request', async () => {
    const h = await contentSetup();
    const { params } = await seeded(h);
    const reader = await h.member('r@acme.test', 'read');
    await h.fails(reader, 'updateChangeRequestContent', { params, body: edit({ page: 'p-setup', linkTitle: 'A' }) }, 403);
    await h.admin.ok('mergeChangeRequest', { params });
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ page: 'p-setup', linkTitle: 'A' }) }, 409, /is merged: its content cannot change/);
  });
});
