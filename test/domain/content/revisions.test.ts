import { describe, expect, it } from 'vitest';
import type { ContentTree } from '../../../src/content-model/model.js';
import { ORIGIN, contentSetup, doc } from './helpers.js';

type Page = Record<string, unknown> & { id: string; pages: Page[] };

const TREE: ContentTree = {
  pages: [
    doc('home', 'Home', '# Welcome\n\nHello **there**.\n\n```js\nconst a = 1;\n```\n\n---\n\n## Next\n', [], {
      git: { oid: 'b1', path: 'README.md' },
      emoji: '🏠',
    }),
    {
      id: 'grp',
      type: 'group',
      title: 'Guides',
      slug: 'guides',
      pages: [
        doc('setup', 'Setup', 'Install it.\n', [doc('deep', 'Deep', 'Deep text\n')], { layout: { width: 'wide', outline: false }, hidden: true }),
        { id: 'ext', type: 'link', title: 'Website', target: { kind: 'url', url: 'https://example.com' }, pages: [] },
      ],
    },
  ],
  files: Array.from({ length: 3 }, (_, i) => ({
    id: `file${i}`,
    name: `pic${i}.png`,
    contentType: 'image/png',
    size: 4,
    dimensions: { width: 10, height: 20 },
    git: { oid: `g${i}`, path: `.gitbook/assets/pic${i}.png` },
    data: new Uint8Array([1, 2, 3, i]),
  })),
};

async function seeded() {
  const h = await contentSetup();
  const s = await h.createSpace();
  const revision = await h.seedSpace(s.id, TREE);
  return { h, spaceId: s.id, revision };
}

describe('space content reads', () => {
  it('listPages: the tree in API shapes (document/group/link), paths, layouts completed, markdown bodies', async () => {
    const { h, spaceId } = await seeded();
    const { pages } = await h.admin.ok<{ pages: Page[] }>('listPages', { params: { spaceId } });
    expect(pages.map((p) => [p.id, p.type, p.kind, p.path])).toEqual([
      ['home', 'document', 'sheet', 'home'],
      ['grp', 'group', 'group', 'guides'],
    ]);
    const home = pages[0] as Page;
    expect(home).toMatchObject({
      title: 'Home',
      emoji: '🏠',
      slug: 'home',
      urls: { app: `${ORIGIN}/app/o/${h.orgId}/s/${spaceId}/home` },
      git: { oid: 'b1', path: 'README.md' },
      layout: { width: 'default', cover: true, coverSize: 'full', title: true, description: true, tableOfContents: true, outline: true, pagination: true, metadata: true },
      pages: [],
    });
    expect(home.markdown).toContain('# Welcome');
    const setup = (pages[1] as Page).pages[0] as Page;
    expect(setup).toMatchObject({ id: 'setup', path: 'guides/setup', hidden: true, layout: { width: 'wide', outline: false, title: true } });
    expect(setup.pages[0]).toMatchObject({ id: 'deep', path: 'guides/setup/deep' });
    expect((pages[1] as Page).pages[1]).toEqual({
      id: 'ext',
      title: 'Website',
      kind: 'link',
      type: 'link',
      target: { kind: 'url', url: 'https://example.com' },
    });
  });

  it('getPageById: markdown by default and with format=markdown; format=document gives a JSON document; metadata=false drops git', async () => {
    const { h, spaceId } = await seeded();
    const params = { spaceId, pageId: 'home' };
    const plain = await h.admin.ok<Page>('getPageById', { params });
    expect(plain.markdown).toContain('Hello');
    const asDoc = await h.admin.ok<Page & { document: { nodes: Array<{ type: string }> } }>('getPageById', {
      params,
      query: { format: 'document', metadata: 'false' },
    });
    expect(asDoc.markdown).toBeUndefined();
    expect(asDoc.git).toBeUndefined();
    expect(asDoc.document.nodes.map((n) => n.type)).toEqual(['heading-1', 'paragraph', 'code', 'divider', 'heading-2']);
    const group = await h.admin.ok<Page>('getPageById', { params: { spaceId, pageId: 'grp' } });
    expect(group).toMatchObject({ type: 'group', path: 'guides', pages: [{ id: 'setup' }, { id: 'ext' }] });
    const link = await h.admin.ok<Page>('getPageById', { params: { spaceId, pageId: 'ext' } });
    expect(link.type).toBe('link');
    await h.admin.fails('getPageById', { params: { spaceId, pageId: 'nope' } }, 404, /Page nope not found/);
  });

  it('getPageByPath: nested paths with "/", groups; links and unknown paths are 404', async () => {
    const { h, spaceId } = await seeded();
    const deep = await h.admin.ok<Page>('getPageByPath', { params: { spaceId, pagePath: 'guides/setup/deep' } });
    expect(deep).toMatchObject({ id: 'deep', path: 'guides/setup/deep', markdown: 'Deep text\n' });
    expect((await h.admin.ok<Page>('getPageByPath', { params: { spaceId, pagePath: 'guides' } })).id).toBe('grp');
    expect((await h.admin.ok<Page>('getPageByPath', { params: { spaceId, pagePath: '/guides/setup/' } })).id).toBe('setup');
    await h.admin.fails('getPageByPath', { params: { spaceId, pagePath: 'guides/nope' } }, 404);
  });

  it('listFiles paginates in id order; getFileById; downloadURL', async () => {
    const { h, spaceId } = await seeded();
    const first = await h.admin.ok<{ items: Array<Record<string, unknown>>; next?: { page: string }; count: number }>('listFiles', {
      params: { spaceId },
      query: { limit: '2' },
    });
    expect(first.count).toBe(3);
    expect(first.items.map((f) => f.id)).toEqual(['file0', 'file1']);
    const rest = await h.admin.ok<{ items: Array<Record<string, unknown>> }>('listFiles', {
      params: { spaceId },
      query: { limit: '2', page: first.next?.page },
    });
    expect(rest.items.map((f) => f.id)).toEqual(['file2']);
    const file = await h.admin.ok<Record<string, unknown>>('getFileById', { params: { spaceId, fileId: 'file1' } });
    expect(file).toMatchObject({
      id: 'file1',
      name: 'pic1.png',
      contentType: 'image/png',
      size: 4,
      dimensions: { width: 10, height: 20 },
      git: { oid: 'g1', path: '.gitbook/assets/pic1.png' },
    });
    expect(file.downloadURL).toMatch(new RegExp(`^${ORIGIN}/files/[0-9a-f]{64}/pic1.png$`));
    const bare = await h.admin.ok<Record<string, unknown>>('getFileById', { params: { spaceId, fileId: 'file1' }, query: { metadata: 'false' } });
    expect(bare.git).toBeUndefined();
    await h.admin.fails('getFileById', { params: { spaceId, fileId: 'nope' } }, 404);
  });

  it('getCurrentRevision / getRevisionById: Revision with pages, files; the empty initial revision', async () => {
    const { h, spaceId, revision } = await seeded();
    const current = await h.admin.ok<Record<string, unknown> & { pages: Page[]; files: unknown[]; parents: string[] }>('getCurrentRevision', {
      params: { spaceId },
      query: { computed: 'false' },
    });
    expect(current).toMatchObject({ object: 'revision', id: revision, type: 'edits', reusableContents: [] });
    expect(current.pages).toHaveLength(2);
    expect(current.files).toHaveLength(3);
    const initialId = current.parents[0] as string;
    const initial = await h.admin.ok<Record<string, unknown>>('getRevisionById', { params: { spaceId, revisionId: initialId } });
    expect(initial).toMatchObject({ id: initialId, pages: [], files: [], parents: [] });
    await h.admin.fails('getRevisionById', { params: { spaceId, revisionId: 'nope' } }, 404);
  });

  it('reads the pages of any revision by id (listPagesInRevisionById, getPageInRevisionById)', async () => {
    const { h, spaceId, revision } = await seeded();
    const cr = await h.createCR(spaceId);
    const crRevision = await h.editChangeRequest(spaceId, cr.id, (tree) => {
      tree.pages.pop();
    });
    const old = await h.admin.ok<{ pages: Page[] }>('listPagesInRevisionById', { params: { spaceId, revisionId: revision } });
    expect(old.pages.map((p) => p.id)).toEqual(['home', 'grp']);
    const changed = await h.admin.ok<{ pages: Page[] }>('listPagesInRevisionById', { params: { spaceId, revisionId: crRevision } });
    expect(changed.pages.map((p) => p.id)).toEqual(['home']);
    const deep = await h.admin.ok<Page>('getPageInRevisionById', { params: { spaceId, revisionId: revision, pageId: 'deep' }, query: { format: 'markdown' } });
    expect(deep).toMatchObject({ path: 'guides/setup/deep', markdown: 'Deep text\n' });
    await h.admin.fails('getPageInRevisionById', { params: { spaceId, revisionId: crRevision, pageId: 'deep' } }, 404);
    await h.admin.fails('listPagesInRevisionById', { params: { spaceId, revisionId: 'nope' } }, 404);
  });

  it('soft-deleted spaces answer 404 with a hint', async () => {
    const { h, spaceId } = await seeded();
    await h.admin.call('deleteSpaceById', { params: { spaceId } });
    await h.admin.fails('listPages', { params: { spaceId } }, 404, /restore it first/);
  });
});

describe('change request content reads', () => {
  it('reads the CR revision, pages by id and path, files; its URLs point into the CR', async () => {
    const { h, spaceId } = await seeded();
    const cr = await h.createCR(spaceId);
    await h.editChangeRequest(spaceId, cr.id, (tree) => {
      tree.pages.push(doc('added', 'Added', 'In the CR only\n'));
      tree.files.shift();
    });
    const p = (extra: Record<string, string> = {}) => ({ params: { spaceId, changeRequestId: String(cr.number), ...extra } });
    const revision = await h.admin.ok<{ pages: Page[]; files: unknown[] }>('getRevisionOfChangeRequestById', p());
    expect(revision.pages.map((x) => x.id)).toEqual(['home', 'grp', 'added']);
    expect(revision.files).toHaveLength(2);
    const { pages } = await h.admin.ok<{ pages: Page[] }>('listPagesInChangeRequest', p());
    expect(pages[2]).toMatchObject({ id: 'added', urls: { app: `${ORIGIN}/app/o/${h.orgId}/s/${spaceId}/~/changes/${cr.id}/added` } });
    expect((await h.admin.ok<Page>('getPageInChangeRequestById', p({ pageId: 'added' }))).markdown).toBe('In the CR only\n');
    expect((await h.admin.ok<Page>('getPageInChangeRequestByPath', p({ pagePath: 'guides/setup/deep' }))).id).toBe('deep');
    const files = await h.admin.ok<{ items: Array<{ id: string }> }>('listFilesInChangeRequestById', p());
    expect(files.items.map((f) => f.id)).toEqual(['file1', 'file2']);
    await h.admin.fails('getFileInChangeRequestById', p({ fileId: 'file0' }), 404);
    expect((await h.admin.ok<Record<string, unknown>>('getFileInChangeRequestById', p({ fileId: 'file2' }))).name).toBe('pic2.png');
    // The primary content is untouched.
    await h.admin.fails('getPageById', { params: { spaceId, pageId: 'added' } }, 404);
  });
});
