/**
 * updateChangeRequestContent (page metadata edits in a change request): the
 * `update_page` fields docsctl applies, the link title Git Sync writes, what it
 * refuses (by name), and that a batch is all or nothing.
 */
import { describe, expect, it } from 'vitest';
import { componentValidator } from '../../contract/openapi.js';
import type { ContentPage } from '../../../src/content-model/model.js';
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
    // insert_files is applied (test/e2e/insert-files.test.ts); a file after a bad page change is not kept either.
    await h.admin.fails('updateChangeRequestContent', { params, body: { changes: [{ operation: 'insert_files', files: [{ name: 'a.png', base64: 'AA==', contentType: 'image/png' }] }, { operation: 'delete_page', page: 'nope' }] } }, 404, /changes\[1\]: page nope not found/);
    await h.admin.fails('updateChangeRequestContent', { params, body: { changes: [{ operation: 'revert_page', page: 'p-setup', block: ['b1'] }] } }, 501, /changes\[0\]: block of revert_page is not implemented yet/);
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ page: 'p-setup', document: { nodes: [] } }) }, 501, /changes\[0\]\.document: only \{"markdown": "…"\} is implemented yet/);
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

describe('updateChangeRequestContent: update_page with a document', () => {
  const markdownOf = (h: ContentHarness, spaceId: string, changeRequestId: string, pageId: string) =>
    h.admin.ok<Page>('getPageInChangeRequestById', { params: { spaceId, changeRequestId, pageId }, query: { format: 'markdown' } }).then((p) => p.markdown);

  it('replaces the body; front matter sets the description, icon and flags', async () => {
    const h = await contentSetup();
    const { cr, params, page } = await seeded(h);
    await apply(h, params, edit({ page: 'p-setup', document: { markdown: 'New steps.\n' } }));
    expect(await markdownOf(h, params.spaceId, cr.id, 'p-setup')).toBe('New steps.\n');
    await apply(h, params, edit({ page: 'p-setup', document: { markdown: '---\ndescription: Install it\nhidden: true\n---\nWith front matter.\n' } }));
    expect(await markdownOf(h, params.spaceId, cr.id, 'p-setup')).toBe('With front matter.\n');
    expect(await page('p-setup', cr.id)).toMatchObject({ title: 'Setup', description: 'Install it', hidden: true });
    // Other pages and the space are untouched.
    expect(await markdownOf(h, params.spaceId, cr.id, 'p-intro')).toBe('Hello.\n');
    expect((await h.admin.ok<Page>('getPageById', { params: { spaceId: params.spaceId, pageId: 'p-setup' }, query: { format: 'markdown' } })).markdown).toBe('Steps.\n');
  });

  it('takes a leading `# Heading` as the title, as insert_page and Git Sync do (export then writes one heading, not two)', async () => {
    const h = await contentSetup();
    const { cr, params, page } = await seeded(h);
    await apply(h, params, edit({ page: 'p-intro', document: { markdown: '# Welcome\n\nNew body.\n' } }, { page: 'p-setup', document: { markdown: 'No heading here.\n' } }));
    expect(await page('p-intro', cr.id)).toMatchObject({ title: 'Welcome' });
    expect(await markdownOf(h, params.spaceId, cr.id, 'p-intro')).toBe('New body.\n');
    // Without a heading the title stays.
    expect(await page('p-setup', cr.id)).toMatchObject({ title: 'Setup' });
    expect(await markdownOf(h, params.spaceId, cr.id, 'p-setup')).toBe('No heading here.\n');
  });

  it('refuses a document for a group, invalid front matter, and a body beyond 8 MiB (413)', async () => {
    const h = await contentSetup();
    const { params } = await seeded(h);
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ page: 'p-group', document: { markdown: 'x' } }) }, 400, /changes\[0\]\.document: a page group has no document/);
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ page: 'p-setup', document: { markdown: '---\n: : :\n---\nx' } }) }, 400, /front matter/);
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ page: 'p-setup', document: { markdown: 'x'.repeat(8 * 1024 * 1024 + 1) } }) }, 413, /more than the 8 MiB/);
  });
});

describe('updateChangeRequestContent: revert_page', () => {
  /** A space with an intro and a guides group (setup, faq), a change request that edits, moves, adds and removes pages. */
  async function diverged(h: ContentHarness) {
    const s = await h.createSpace();
    await h.seedSpace(s.id, {
      pages: [
        doc('p-intro', 'Intro', 'Hello.\n'),
        { id: 'p-group', type: 'group', title: 'Guides', slug: 'guides', pages: [doc('p-setup', 'Setup', 'Steps.\n'), doc('p-faq', 'FAQ', 'Questions.\n', [doc('p-more', 'More', 'More.\n')])] },
      ],
      files: [],
    });
    const primary = h.space(s.id).revision;
    const cr = await h.createCR(s.id);
    await h.editChangeRequest(s.id, cr.id, (tree) => {
      const [intro, group] = tree.pages as [ContentPage, ContentPage];
      intro.title = 'Welcome';
      intro.markdown = 'Hi.\n';
      const [setup, faq] = group.pages as [ContentPage, ContentPage];
      // Setup moves to the root (after the intro); the FAQ and its subpage go; a new page comes.
      group.pages = [doc('p-new', 'New', 'New.\n')];
      tree.pages = [intro, setup, group];
      void faq;
    });
    const params = { spaceId: s.id, changeRequestId: cr.id };
    const tree = async () => (await h.admin.ok<{ pages: Array<Page & { pages: Page[] }> }>('listPagesInChangeRequest', { params })).pages;
    const ids = (pages: Array<Page & { pages?: Page[] }>): unknown => pages.map((p) => (p.pages && p.pages.length > 0 ? { [p.id]: ids(p.pages as Array<Page & { pages?: Page[] }>) } : p.id));
    return { spaceId: s.id, primary, cr, params, tree, ids };
  }

  const revert = (page: string, revision?: string) => ({ changes: [{ operation: 'revert_page', page, ...(revision ? { revision } : {}) }] });

  it('puts back a page as the revision has it: content, title, and its place among its siblings', async () => {
    const h = await contentSetup();
    const { params, primary, tree, ids } = await diverged(h);
    await apply(h, params, revert('p-intro', primary));
    await apply(h, params, revert('p-setup', primary));
    const pages = await tree();
    expect(ids(pages)).toEqual(['p-intro', { 'p-group': ['p-setup', 'p-new'] }]);
    expect(pages[0]).toMatchObject({ title: 'Intro', markdown: 'Hello.\n' });
  });

  it('restores a page the change request removed (without its subpages), and removes one the revision does not have', async () => {
    const h = await contentSetup();
    const { params, primary, tree, ids } = await diverged(h);
    await apply(h, params, revert('p-faq', primary));
    // Its previous sibling there (p-setup) is elsewhere now: it goes at its index (1).
    expect(ids(await tree())).toEqual(['p-intro', 'p-setup', { 'p-group': ['p-new', 'p-faq'] }]);
    // The revision has no p-new: reverting it removes it. Without `revision`, the base (here the same revision).
    await apply(h, params, revert('p-new'));
    expect(ids(await tree())).toEqual(['p-intro', 'p-setup', { 'p-group': ['p-faq'] }]);
  });

  it('refuses to restore a page whose parent is gone, and an unknown page or revision', async () => {
    const h = await contentSetup();
    const { params, primary } = await diverged(h);
    await h.admin.fails('updateChangeRequestContent', { params, body: revert('p-more', primary) }, 409, /p-more cannot be restored: its parent p-faq is not in change request #1/);
    await h.admin.fails('updateChangeRequestContent', { params, body: revert('nope', primary) }, 404, /page nope is neither in change request #1 nor in the revision/);
    await h.admin.fails('updateChangeRequestContent', { params, body: revert('p-intro', 'no-such-revision') }, 404, /changes\[0\]\.revision: no revision no-such-revision in space/);
    await h.admin.fails('updateChangeRequestContent', { params, body: { changes: [{ operation: 'revert_page', page: 'p-intro', block: ['b1'] }] } }, 501, /block of revert_page is not implemented yet/);
  });
});

describe('updateChangeRequestContent: insert_page, delete_page, moves, and the compat=false answer', () => {
  type Outcome = { object: string; ref?: string; page: string | { id: string; urls: { location: string } } };
  async function applyFull(h: ContentHarness, params: Record<string, string>, changes: Array<Record<string, unknown>>) {
    const res = await h.admin.call('updateChangeRequestContent', { params, query: { compat: 'false' }, body: { changes } });
    expect(res.status).toBe(200);
    expect(componentValidator('ChangeRequestContentUpdate')(res.body).errors).toEqual([]);
    return res.body as { changeRequest: { id: string; revision: string }; changes: Outcome[] };
  }
  const pages = async (h: ContentHarness, spaceId: string, changeRequestId: string) =>
    (await h.admin.ok<{ pages: Array<{ id: string; title: string; slug: string; pages: Array<{ id: string; title: string; slug: string }> }> }>('listPagesInChangeRequest', { params: { spaceId, changeRequestId } })).pages;

  it('inserts pages titled by their heading (else title), with unique slugs, at a place, and answers one outcome per page', async () => {
    const h = await contentSetup();
    const { spaceId, cr, params, page } = await seeded(h);
    const answer = await applyFull(h, params, [
      { operation: 'insert_page', ref: 'faq', document: { markdown: '# FAQ\n\nAsk away.\n' }, title: 'Ignored' },
      { operation: 'insert_page', document: { markdown: 'No heading.\n' }, title: 'Setup', into: 'p-group', at: 0 },
      { operation: 'update_page', page: 'p-intro', title: 'Welcome' },
    ]);
    expect(answer.changeRequest.id).toBe(cr.id);
    const [faq, setup2, intro] = answer.changes;
    expect(faq).toMatchObject({ object: 'created_page', ref: 'faq' });
    expect(setup2).toMatchObject({ object: 'created_page' });
    expect(intro).toMatchObject({ object: 'updated_page', page: { id: 'p-intro' } });
    const faqId = (faq?.page as { id: string }).id;
    expect((faq?.page as { urls: { location: string } }).urls.location).toMatch(new RegExp(`/change-requests/${cr.id}/content/page/${faqId}$`));
    const tree = await pages(h, spaceId, cr.id);
    expect(tree.map((p) => p.title)).toEqual(['Welcome', 'Guides', 'FAQ']);
    expect(tree[1]?.pages.map((p) => [p.title, p.slug])).toEqual([['Setup', 'setup-1'], ['Setup', 'setup']]);
    expect(await page(faqId, cr.id)).toMatchObject({ title: 'FAQ', slug: 'faq', markdown: 'Ask away.\n' });
    // The primary content does not change until the change request is merged.
    expect((await h.admin.ok<{ pages: unknown[] }>('listPages', { params: { spaceId } })).pages).toHaveLength(2);
  });

  it('sets a slug unique among the siblings (a collision is refused, not renamed), an emoji and an icon ("" removes them)', async () => {
    const h = await contentSetup();
    const { spaceId, cr, params, page } = await seeded(h);
    await apply(h, params, edit({ page: 'p-setup', slug: 'installation', emoji: '1f680', icon: 'gear' }));
    expect(await page('p-setup', cr.id)).toMatchObject({ slug: 'installation', path: 'guides/installation', emoji: '1f680', icon: 'gear' });
    expect(await h.admin.ok('getPageByPath', { params: { spaceId, pagePath: 'guides/setup' } })).toMatchObject({ id: 'p-setup' });
    await apply(h, params, edit({ page: 'p-setup', emoji: '', icon: '' }));
    const cleared = await page('p-setup', cr.id);
    expect(cleared).not.toHaveProperty('emoji');
    expect(cleared).not.toHaveProperty('icon');
    // The intro's slug taken by a page moved beside it: refused, and nothing of the batch applied.
    const before = h.cr(spaceId, cr.id).revision;
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ page: 'p-setup', into: null, slug: 'intro' }) }, 409, /changes\[0\]\.slug: "intro" is already the slug of page p-intro, a sibling/);
    await h.admin.fails('updateChangeRequestContent', { params, body: edit({ page: 'p-setup', slug: 'Not A Slug' }) }, 400, /changes\[0\]\.slug: "Not A Slug" is not a slug; give lower-case words joined by "-" \(e\.g\. "not-a-slug"\)/);
    expect(h.cr(spaceId, cr.id).revision).toBe(before);
    // insert_page takes one too, checked the same way.
    const inserted = await applyFull(h, params, [{ operation: 'insert_page', document: { markdown: '# FAQ\n' }, slug: 'questions' }]);
    expect(await page((inserted.changes[0]?.page as { id: string }).id, cr.id)).toMatchObject({ title: 'FAQ', slug: 'questions' });
    await h.admin.fails('updateChangeRequestContent', { params, body: { changes: [{ operation: 'insert_page', document: { markdown: '# Again\n' }, slug: 'questions' }] } }, 409, /slug: "questions" is already the slug of page/);
    await h.admin.ok('mergeChangeRequest', { params });
    expect(await h.admin.ok('getPageByPath', { params: { spaceId, pagePath: 'guides/installation' } })).toMatchObject({ id: 'p-setup' });
  });

  it('deletes a page with its subpages, and moves a page under another or to the root', async () => {
    const h = await contentSetup();
    const { spaceId, cr, params } = await seeded(h);
    const moved = await applyFull(h, params, [{ operation: 'update_page', page: 'p-intro', into: 'p-group', at: 1 }]);
    expect(moved.changes).toEqual([expect.objectContaining({ object: 'updated_page' })]);
    let tree = await pages(h, spaceId, cr.id);
    expect(tree.map((p) => p.id)).toEqual(['p-group']);
    expect(tree[0]?.pages.map((p) => p.id)).toEqual(['p-setup', 'p-intro']);
    await applyFull(h, params, [{ operation: 'update_page', page: 'p-setup', into: null, at: 0 }]);
    tree = await pages(h, spaceId, cr.id);
    expect(tree.map((p) => p.id)).toEqual(['p-setup', 'p-group']);
    const removed = await applyFull(h, params, [{ operation: 'delete_page', page: 'p-group' }]);
    expect(removed.changes.map((c) => [c.object, c.page])).toEqual([['deleted_page', 'p-group'], ['deleted_page', 'p-intro']]);
    expect((await pages(h, spaceId, cr.id)).map((p) => p.id)).toEqual(['p-setup']);
  });

  it('refuses a move under itself, an unknown parent, a repeated ref and links to a ref, applying nothing', async () => {
    const h = await contentSetup();
    const { cr, params } = await seeded(h);
    const fails = (changes: Array<Record<string, unknown>>, status: number, message: RegExp) =>
      h.admin.fails('updateChangeRequestContent', { params, body: { changes } }, status, message);
    await fails([{ operation: 'update_page', page: 'p-group', into: 'p-setup' }], 400, /changes\[0\]\.into: page p-setup is inside the page/);
    await fails([{ operation: 'update_page', page: 'p-group', into: 'p-group' }], 400, /is the page itself/);
    await fails([{ operation: 'insert_page', document: { markdown: 'x' }, into: 'nope' }], 404, /changes\[0\]\.into: page nope not found/);
    await fails([{ operation: 'insert_page', title: 'No body' }], 400, /changes\[0\]\.document: required/);
    await fails([{ operation: 'delete_page', page: 'nope' }], 404, /changes\[0\]: page nope not found/);
    await fails([{ operation: 'insert_page', ref: 'a', document: { markdown: 'x' } }, { operation: 'insert_page', ref: 'a', document: { markdown: 'y' } }], 400, /changes\[1\]\.ref: "a" is already the ref/);
    await fails([{ operation: 'insert_page', ref: 'a', document: { markdown: 'x' } }, { operation: 'insert_page', document: { markdown: 'See [A](./a.md)' } }], 501, /links to the batch ref "a"/);
    expect(h.cr(params.spaceId, cr.id).revision).toBe(cr.revision);
  });
});
