/**
 * Documents, page meta links and embeds (src/domain/content/documents.ts) through
 * executeOperation: every answer checked against the 0.202 schemas by the harness.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_REVISIONS } from '../../../src/domain/content/documents.js';
import { type Obj, contentSetup, doc, findPage } from './helpers.js';

const HOME = '---\nmetaLinks:\n  canonical: https://docs.example.com/\n  alternates:\n    - https://docs.example.com/de/\n    - guides/setup.md\n    - mailto:x@example.com\n    - ../outside.md\n---\n';

async function handbook() {
  const h = await contentSetup();
  const s = await h.createSpace('Handbook');
  const setup = doc('setup', 'Setup', 'Install it.\n', [], { git: { oid: 'o2', path: 'guides/setup.md' } });
  const home = doc('home', 'Home', 'Welcome.\n\n## Next\n\n```sh\nnpm i\n```\n', [], { git: { oid: 'o1', path: 'README.md' }, extra: { frontMatter: HOME } });
  const group = { id: 'grp', type: 'group' as const, title: 'Guides', slug: 'guides', pages: [setup] };
  const revision = await h.seedSpace(s.id, { pages: [home, group], files: [] });
  return { h, s, revision };
}

describe('documents', () => {
  it('gives each document page a documentId that getDocumentById reads back as a JSON document', async () => {
    const { h, s } = await handbook();
    const page = await h.admin.ok<Obj & { documentId: string }>('getPageById', { params: { spaceId: s.id, pageId: 'home' } });
    expect(page.documentId).toMatch(/^home\.[0-9a-f]{64}$/);
    const document = await h.admin.ok('getDocumentById', { params: { spaceId: s.id, documentId: page.documentId } });
    expect(document).toEqual({
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Welcome.', marks: [] }] }] },
        { object: 'block', type: 'heading-2', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Next', marks: [] }] }] },
        {
          object: 'block',
          type: 'code',
          data: { syntax: 'sh' },
          nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'npm i', marks: [] }] }] }],
        },
      ],
    });
    const group = await h.admin.ok('getPageById', { params: { spaceId: s.id, pageId: 'grp' } });
    expect(group.documentId).toBeUndefined();
  });

  it('keeps the documentId of an unchanged body, gives an edited one a new id, and still reads the old one', async () => {
    const { h, s } = await handbook();
    const before = await h.admin.ok<Obj & { documentId: string }>('getPageById', { params: { spaceId: s.id, pageId: 'home' } });
    const setupBefore = await h.admin.ok<Obj & { documentId: string }>('getPageById', { params: { spaceId: s.id, pageId: 'setup' } });
    const cr = await h.createCR(s.id);
    await h.editChangeRequest(s.id, cr.id, (tree) => {
      findPage(tree, 'home').markdown = 'Welcome back.\n';
    });
    const inCr = await h.admin.ok<Obj & { documentId: string }>('getPageInChangeRequestById', { params: { spaceId: s.id, changeRequestId: cr.id, pageId: 'home' } });
    const setupInCr = await h.admin.ok<Obj & { documentId: string }>('getPageInChangeRequestById', { params: { spaceId: s.id, changeRequestId: cr.id, pageId: 'setup' } });
    expect(inCr.documentId).not.toBe(before.documentId);
    expect(setupInCr.documentId).toBe(setupBefore.documentId);
    // The change request's document is found among the space's revisions, and the primary one still reads.
    const edited = await h.admin.ok<{ nodes: Array<{ nodes: Array<{ leaves: Array<{ text: string }> }> }> }>('getDocumentById', { params: { spaceId: s.id, documentId: inCr.documentId } });
    expect(edited.nodes[0]?.nodes[0]?.leaves[0]?.text).toBe('Welcome back.');
    await h.admin.ok('getDocumentById', { params: { spaceId: s.id, documentId: before.documentId } });
  });

  it("never reads another space's document, even with the same page id and body hash", async () => {
    const { h, s } = await handbook();
    const page = await h.admin.ok<Obj & { documentId: string }>('getPageById', { params: { spaceId: s.id, pageId: 'home' } });
    const other = await h.createSpace('Other');
    await h.fails(h.adminId, 'getDocumentById', { params: { spaceId: other.id, documentId: page.documentId } }, 404, /Document .* not found in space/);
    for (const documentId of ['home', 'home.zz', `setup.${page.documentId.split('.')[1]}`, '../x.0']) {
      await h.fails(h.adminId, 'getDocumentById', { params: { spaceId: s.id, documentId } }, 404);
    }
    const stranger = await h.member('eve@other.test', 'admin', await h.createOrg('Other org', { [h.adminId]: 'admin' }));
    await h.fails(stranger, 'getDocumentById', { params: { spaceId: s.id, documentId: page.documentId } }, 404);
    expect(MAX_DOCUMENT_REVISIONS).toBe(1000);
  });

  it('reads the document of a page in a revision; groups and links have none', async () => {
    const { h, s, revision } = await handbook();
    const document = await h.admin.ok<{ nodes: Array<{ type: string }> }>('getPageDocumentInRevisionById', {
      params: { spaceId: s.id, revisionId: revision, pageId: 'setup' },
      query: { evaluated: 'true', dereferenced: 'reusable-contents' },
    });
    expect(document.nodes.map((node) => node.type)).toEqual(['paragraph']);
    await h.fails(h.adminId, 'getPageDocumentInRevisionById', { params: { spaceId: s.id, revisionId: revision, pageId: 'grp' } }, 404, /page group: it has no document/);
    await h.fails(h.adminId, 'getPageDocumentInRevisionById', { params: { spaceId: s.id, revisionId: revision, pageId: 'nope' } }, 404, /Page nope not found in revision/);
    await h.fails(h.adminId, 'getPageDocumentInRevisionById', { params: { spaceId: s.id, revisionId: revision, pageId: 'home' }, query: { dereferenced: 'maybe' } }, 400);
  });
});

describe('page meta links', () => {
  it("reads a page's canonical and alternate links from its front matter: URLs, and pages by their file path", async () => {
    const { h, s, revision } = await handbook();
    const expected = {
      canonical: { kind: 'url', url: 'https://docs.example.com/' },
      alternates: [
        { kind: 'url', url: 'https://docs.example.com/de/' },
        { kind: 'page', page: 'setup' },
      ],
    };
    expect(await h.admin.ok('listSpacePageMetaLinks', { params: { spaceId: s.id, pageId: 'home' } })).toEqual(expected);
    expect(await h.admin.ok('listRevisionPageMetaLinks', { params: { spaceId: s.id, revisionId: revision, pageId: 'home' } })).toEqual(expected);
    expect(await h.admin.ok('listSpacePageMetaLinks', { params: { spaceId: s.id, pageId: 'setup' } })).toEqual({});
    const cr = await h.createCR(s.id);
    await h.editChangeRequest(s.id, cr.id, (tree) => {
      findPage(tree, 'home').extra = { frontMatter: '---\nmetaLinks:\n  canonical: guides/setup.md\n---\n' };
    });
    expect(await h.admin.ok('listChangeRequestPageMetaLinks', { params: { spaceId: s.id, changeRequestId: cr.id, pageId: 'home' } })).toEqual({
      canonical: { kind: 'page', page: 'setup' },
    });
    await h.fails(h.adminId, 'listSpacePageMetaLinks', { params: { spaceId: s.id, pageId: 'nope' } }, 404, /Page nope not found in this space/);
  });
});

describe('embeds', () => {
  it('embeds content docsctl holds by its title and site, and any other URL as a link built from the URL alone', async () => {
    const { h, s } = await handbook();
    const page = await h.admin.ok<Obj & { urls: { app: string } }>('getPageById', { params: { spaceId: s.id, pageId: 'setup' } });
    expect(await h.admin.ok('getEmbedByUrl', { query: { url: page.urls.app } })).toEqual({ type: 'link', title: 'Setup', site: 'Handbook' });
    expect(await h.admin.ok('getEmbedByUrlInSpace', { params: { spaceId: s.id }, query: { url: page.urls.app } })).toEqual({ type: 'link', title: 'Setup', site: 'Handbook' });
    expect(await h.admin.ok('getEmbedByUrl', { query: { url: 'https://www.example.com/blog/post/?x=1' } })).toEqual({ type: 'link', title: 'example.com/blog/post', site: 'example.com' });
    await h.fails(h.adminId, 'getEmbedByUrl', { query: { url: 'file:///etc/passwd' } }, 400, /only http and https/);
    await h.fails(h.adminId, 'getEmbedByUrl', { query: { url: 'not a url' } }, 400, /not an absolute URL/);
  });

  it('gives a stranger a plain link for content they may not read: nothing about it leaks', async () => {
    const { h, s } = await handbook();
    const page = await h.admin.ok<Obj & { urls: { app: string } }>('getPageById', { params: { spaceId: s.id, pageId: 'setup' } });
    const stranger = await h.member('eve@other.test', 'admin', await h.createOrg('Other org', { [h.adminId]: 'admin' }));
    const embed = await h.ok(stranger, 'getEmbedByUrl', { query: { url: page.urls.app } });
    expect(embed).toMatchObject({ type: 'link', site: new URL(page.urls.app).hostname });
    expect(JSON.stringify(embed)).not.toContain('Setup');
  });
});

describe('reusable contents', () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const INCLUDE = '---\ntitle: "Shared: warning"\n---\n\nBack up first.\n';

  async function withInclude() {
    const h = await contentSetup();
    const s = await h.createSpace('Handbook');
    const page = doc('setup', 'Setup', 'Before.\n\n{% include "../.gitbook/includes/warning.md" %}\n\nAfter.\n', [], { git: { oid: 'o2', path: 'guides/setup.md' } });
    const byUrl = doc('other', 'Other', `{% include "https://app.gitbook.com/s/${s.id}/~/reusable/rc_1/" %}\n`, [], { git: { oid: 'o3', path: 'other.md' } });
    const data = encode(INCLUDE);
    const revision = await h.seedSpace(s.id, {
      pages: [page, byUrl],
      files: [
        { id: 'rc_1', name: 'warning.md', contentType: 'text/markdown', size: data.length, git: { oid: 'g1', path: '.gitbook/includes/warning.md' }, data },
        { id: 'f1', name: 'a.png', contentType: 'image/png', size: 3, git: { oid: 'g2', path: '.gitbook/assets/a.png' }, data: new Uint8Array([1, 2, 3]) },
      ],
    });
    return { h, s, revision };
  }

  it('answers reusable contents in the revision, by id in the space, a revision and a change request; they are not files', async () => {
    const { h, s, revision } = await withInclude();
    const current = await h.admin.ok<{ reusableContents: Array<{ id: string; document: string }>; files: Array<{ id: string }> }>('getCurrentRevision', { params: { spaceId: s.id } });
    expect(current.files.map((file) => file.id)).toEqual(['f1']);
    expect(current.reusableContents).toEqual([
      { id: 'rc_1', title: 'Shared: warning', git: { oid: 'g1', path: '.gitbook/includes/warning.md' }, document: expect.stringMatching(/^rc_1\.[0-9a-f]{64}$/) },
    ]);
    const expected = current.reusableContents[0];
    expect(await h.admin.ok('getReusableContentById', { params: { spaceId: s.id, reusableContentId: 'rc_1' } })).toEqual(expected);
    expect(await h.admin.ok('getReusableContentInRevisionById', { params: { spaceId: s.id, revisionId: revision, reusableContentId: 'rc_1' }, query: { metadata: 'false' } })).toEqual({
      id: 'rc_1',
      title: 'Shared: warning',
      document: expected?.document,
    });
    const cr = await h.createCR(s.id);
    expect(await h.admin.ok('getReusableContentInChangeRequestById', { params: { spaceId: s.id, changeRequestId: cr.id, reusableContentId: 'rc_1' } })).toEqual(expected);
    const files = await h.admin.ok<{ items: Array<{ id: string }>; count: number }>('listFiles', { params: { spaceId: s.id } });
    expect([files.items.map((file) => file.id), files.count]).toEqual([['f1'], 1]);
    await h.fails(h.adminId, 'getFileById', { params: { spaceId: s.id, fileId: 'rc_1' } }, 404);
    await h.fails(h.adminId, 'getReusableContentById', { params: { spaceId: s.id, reusableContentId: 'f1' } }, 404, /Reusable content f1 not found in this space/);
  });

  it('reads its document by documentId and by revision, and expands includes in dereferenced page documents', async () => {
    const { h, s, revision } = await withInclude();
    const rc = await h.admin.ok<{ document: string }>('getReusableContentById', { params: { spaceId: s.id, reusableContentId: 'rc_1' } });
    const text = (document: { nodes: Array<{ nodes: Array<{ leaves: Array<{ text: string }> }> }> }) => document.nodes.map((node) => node.nodes[0]?.leaves[0]?.text);
    expect(text(await h.admin.ok('getDocumentById', { params: { spaceId: s.id, documentId: rc.document } }))).toEqual(['Back up first.']);
    expect(text(await h.admin.ok('getReusableContentDocumentInRevisionById', { params: { spaceId: s.id, revisionId: revision, reusableContentId: 'rc_1' } }))).toEqual(['Back up first.']);
    const params = { spaceId: s.id, revisionId: revision, pageId: 'setup' };
    expect(text(await h.admin.ok('getPageDocumentInRevisionById', { params }))).toEqual(['Before.', '{% include "../.gitbook/includes/warning.md" %}', 'After.']);
    expect(text(await h.admin.ok('getPageDocumentInRevisionById', { params, query: { dereferenced: 'true' } }))).toEqual(['Before.', 'Back up first.', 'After.']);
    expect(text(await h.admin.ok('getPageDocumentInRevisionById', { params: { ...params, pageId: 'other' }, query: { dereferenced: 'reusable-contents' } }))).toEqual(['Back up first.']);
  });
});
