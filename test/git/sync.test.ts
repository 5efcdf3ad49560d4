/**
 * Git Sync through executeOperation on a MemoryStore: import a GitBook-layout
 * repository, export with and without edits, re-import, skip rules (stale
 * timestamp, same commit, force), standalone previews, a moved remote, refused
 * symlinks, and `getSpaceGitInfo`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentPage, ContentTree } from '../../src/content-model/model.js';
import { fileDataHashes, loadTree, saveTree } from '../../src/domain/content/storage.js';
import { newRevisionRecord } from '../../src/domain/content/change-request-records.js';
import { getGitSync, knownBlob } from '../../src/domain/git/state.js';
import { type RevisionRecord, type SpaceRecord, getRevision, getSpace, putSpace } from '../../src/domain/core-records.js';
import { contentSetup, type ContentHarness } from '../domain/content/helpers.js';
import { gitBlobOid } from '../../src/gitsync/blob.js';
import { gitbookExport } from '../gitsync/fixtures.js';
import { pageByTitle } from '../gitsync/helpers.js';
import { git, isolateGit, makeRemote, type TestRemote } from './helpers.js';

let env: ReturnType<typeof isolateGit>;
const remotes: TestRemote[] = [];
beforeAll(() => {
  env = isolateGit();
});
afterAll(() => {
  for (const remote of remotes) remote.cleanup();
  env.cleanup();
});
function remote(files?: Parameters<typeof makeRemote>[0]): TestRemote {
  const made = makeRemote(files);
  remotes.push(made);
  return made;
}

const MAIN = 'refs/heads/main';

function primary(h: ContentHarness, spaceId: string): { revision: RevisionRecord; tree: ContentTree } {
  const reader = h.store.read();
  const space = getSpace(reader, spaceId) as SpaceRecord;
  const revision = getRevision(reader, spaceId, space.revision) as RevisionRecord;
  return { revision, tree: loadTree(reader, revision) };
}

/** Edits the primary content in place (a new `edits` revision), like the editor would. */
async function editPrimary(h: ContentHarness, spaceId: string, edit: (tree: ContentTree) => void): Promise<string> {
  return h.store.transact((tx) => {
    const space = getSpace(tx, spaceId) as SpaceRecord;
    const revision = getRevision(tx, spaceId, space.revision) as RevisionRecord;
    const tree = loadTree(tx, revision);
    const before = loadTree(tx, revision);
    edit(tree);
    const content = saveTree(tx, tree, [before]);
    const id = h.ids();
    newRevisionRecord(tx, { id, space: spaceId, type: 'edits', parents: [space.revision], createdAt: h.clock().toISOString(), content });
    putSpace(tx, { ...space, revision: id });
    return id;
  });
}

function pageByPath(tree: ContentTree, path: string): ContentPage {
  const visit = (list: ContentPage[]): ContentPage | undefined => {
    for (const page of list) {
      if (page.git?.path === path) return page;
      const found = visit(page.pages);
      if (found) return found;
    }
    return undefined;
  };
  const found = visit(tree.pages);
  if (!found) throw new Error(`no page at ${path}`);
  return found;
}

/** The model a round trip must keep: page tree (ids, titles, slugs, front matter fields), files with blob ids. */
function model(tree: ContentTree): unknown {
  const pages = (list: ContentPage[]): unknown[] =>
    list.map((page) => ({
      id: page.id,
      type: page.type,
      title: page.title,
      slug: page.slug,
      description: page.description,
      icon: page.icon,
      hidden: page.hidden,
      noIndex: page.noIndex,
      noRobotsIndex: page.noRobotsIndex,
      layout: page.layout,
      cover: page.cover,
      git: page.git,
      markdown: page.markdown,
      pages: pages(page.pages),
    }));
  return {
    pages: pages(tree.pages),
    files: tree.files.map((file) => ({ id: file.id, name: file.name, contentType: file.contentType, size: file.size, git: file.git })),
  };
}

describe('Git Sync through the API (MemoryStore)', () => {
  it('imports, exports without and with edits, re-imports to the same model, skips and forces', async () => {
    const h = await contentSetup();
    const r = remote(gitbookExport());
    const space = await h.createSpace();
    await h.admin.fails('getSpaceGitInfo', { params: { spaceId: space.id } }, 404, new RegExp(`Git Sync is not set up for space ${space.id}`));

    // ─── Import ───
    const head1 = r.head() as string;
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN } }, 204);
    const imported = primary(h, space.id);
    expect(imported.revision.git).toEqual({ oid: head1, message: 'Initial content', createdByGitBook: false, ref: MAIN });
    expect(imported.revision.type).toBe('edits');
    const titles = imported.tree.pages.map((page) => page.title);
    expect(titles).toEqual(['Home', 'FAQ [updated for 2026]', 'Get Started', 'Guides', 'Changelog']);
    const started = pageByTitle(imported.tree, 'Get Started');
    expect(started.type).toBe('group');
    expect(started.pages.map((page) => page.title)).toContain('Getting started');
    expect(pageByTitle(imported.tree, 'Getting started').git?.path).toBe('getting-started/README.md');
    expect(pageByTitle(imported.tree, 'FAQ [updated for 2026]')).toMatchObject({ hidden: true, noIndex: true });
    const names = imported.tree.files.map((file) => file.name);
    expect(names).toEqual(expect.arrayContaining(['cover image (1).png', 'logo (2).png', 'CleanShot 2023-01-25 at 14.58.44.gif']));
    for (const file of imported.tree.files) expect(file.git?.oid).toMatch(/^[0-9a-f]{40}$/);

    const info = await h.admin.ok<Record<string, unknown>>('getSpaceGitInfo', { params: { spaceId: space.id } }, 200);
    // 0.202's required installation fields: no Git Sync installation here, so the space's own sync stands for it.
    const installation = { installationId: space.id, installationProvider: 'github', installationStatus: 'active' };
    expect(info).toEqual({
      repoName: 'remote',
      url: r.url,
      updatedAt: expect.any(String),
      ...installation,
      repository: r.url,
      ref: MAIN,
      projectDirectory: '',
      // The layout the space remembers (an empty .gitbook.yaml: every default).
      layout: { config: '.gitbook.yaml', root: '', readme: 'README.md', summary: 'SUMMARY.md' },
      commit: head1,
      lastSync: 'import',
    });
    const spaceView = await h.admin.ok<{ gitSync?: unknown }>('getSpaceById', { params: { spaceId: space.id } }, 200);
    expect(spaceView.gitSync).toEqual({ repoName: 'remote', url: r.url, updatedAt: info.updatedAt, ...installation });

    // ─── Same commit again: skipped (no new revision) ───
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN } }, 204);
    expect(h.space(space.id).revision).toBe(imported.revision.id);

    // ─── Export with no edits: no commit, no new revision ───
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Nothing' } }, 204);
    expect(r.head()).toBe(head1);
    expect(h.space(space.id).revision).toBe(imported.revision.id);

    // ─── Edit one page, export: one commit touching only that file ───
    await editPrimary(h, space.id, (tree) => {
      const page = pageByPath(tree, 'getting-started/install.md');
      page.markdown = `${page.markdown ?? ''}\nAnd then run it again.\n`;
    });
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Docs: install' } }, 204);
    const head2 = r.head() as string;
    expect(head2).not.toBe(head1);
    expect(r.changed(head2)).toEqual(['getting-started/install.md']);
    expect(r.show(head2, 'getting-started/install.md')).toContain('And then run it again.');
    const exported = primary(h, space.id);
    expect(exported.revision.git).toEqual({ oid: head2, message: 'Docs: install', createdByGitBook: true, ref: MAIN });
    expect(pageByPath(exported.tree, 'getting-started/install.md').git?.oid).toBe(git(r.bare, 'rev-parse', `${head2}:getting-started/install.md`));
    expect(getGitSync(h.store.read(), space.id)).toMatchObject({ lastOid: head2, lastDirection: 'export', lastExportRevision: exported.revision.id });

    // Exporting again changes nothing.
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Again' } }, 204);
    expect(r.head()).toBe(head2);
    expect(h.space(space.id).revision).toBe(exported.revision.id);

    // ─── Re-import the exported commit (forced: it is the synced one) → the same model ───
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN } }, 204);
    expect(h.space(space.id).revision).toBe(exported.revision.id);
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, force: true } }, 204);
    const reimported = primary(h, space.id);
    expect(reimported.revision.id).not.toBe(exported.revision.id);
    expect(reimported.revision.git).toMatchObject({ oid: head2, createdByGitBook: false });
    expect(model(reimported.tree)).toEqual(model(exported.tree));
    expect(reimported.revision.content).toBe(exported.revision.content);
  });

  it('imports pages read as text as they stream, and exports them back byte for byte: a BOM, CRLF, a page that is not UTF-8', async () => {
    const h = await contentSetup();
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('# Café\n\nCrème brûlée.\n')]);
    const latin1 = new Uint8Array([...new TextEncoder().encode('# Latin\n\nCaf'), 0xe9, 10]);
    const r = remote({ 'README.md': '# Home\n', 'bom.md': bom, 'latin1.md': latin1, 'crlf.md': '# Windows\r\n\r\nLine one\r\n' });
    const space = await h.createSpace();
    const head = r.head() as string;
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN } }, 204);
    const imported = primary(h, space.id);
    expect(pageByPath(imported.tree, 'bom.md').markdown).toContain('Crème brûlée.');
    expect(pageByPath(imported.tree, 'crlf.md').title).toBe('Windows');
    expect(pageByPath(imported.tree, 'latin1.md').markdown).toContain('Caf\ufffd');
    // Nothing edited: the export writes nothing, so every page's bytes were kept exactly.
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Nothing' } }, 204);
    expect(r.head()).toBe(head);
    expect(pageByPath(imported.tree, 'bom.md').git?.oid).toBe(git(r.bare, 'rev-parse', `${head}:bom.md`));
  });

  it('exports an image whose bytes changed (same size) and only it: the images of the branch are compared by blob id', async () => {
    const h = await contentSetup();
    const r = remote(gitbookExport());
    const space = await h.createSpace();
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN } }, 204);
    const head1 = r.head() as string;
    let replaced = new Uint8Array();
    await editPrimary(h, space.id, (tree) => {
      const logo = tree.files.find((file) => file.name === 'logo (2).png');
      if (!logo) throw new Error('fixture has no logo');
      replaced = logo.data.map((byte, i) => (i === logo.data.length - 1 ? byte ^ 0xff : byte));
      logo.data = replaced;
    });
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'New logo' } }, 204);
    const head2 = r.head() as string;
    expect(head2).not.toBe(head1);
    expect(r.changed(head2)).toEqual(['.gitbook/assets/logo (2).png']);
    expect(git(r.bare, 'rev-parse', `${head2}:.gitbook/assets/logo (2).png`).trim()).toBe(gitBlobOid(replaced));
    // The space's file now names the blob it was written as; exporting again writes nothing.
    expect(primary(h, space.id).tree.files.find((file) => file.name === 'logo (2).png')?.git?.oid).toBe(gitBlobOid(replaced));
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Again' } }, 204);
    expect(r.head()).toBe(head2);
  });

  it('compares the files a sync learnt by blob id without their bytes, and writes one back from the store when the branch lost it', async () => {
    const h = await contentSetup();
    const r = remote(gitbookExport());
    const space = await h.createSpace();
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN } }, 204);
    const head1 = r.head() as string;
    // The first export reads and hashes every file (this store staged none at import) and remembers their blob ids.
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Nothing' } }, 204);
    expect(r.head()).toBe(head1);
    const { tree } = primary(h, space.id);
    const hashes = fileDataHashes(tree);
    for (const file of tree.files) expect(knownBlob(h.store.read(), hashes?.get(file.id) ?? '')).toBe(gitBlobOid(file.data));

    // The branch loses an image: the export writes it back, its bytes read from the store, and nothing else.
    const logo = tree.files.find((file) => file.name === 'logo (2).png');
    if (!logo) throw new Error('fixture has no logo');
    const head2 = r.commit({ '.gitbook/assets/logo (2).png': null }, 'Lose the logo');
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Logo back', force: true } }, 204);
    const head3 = r.head() as string;
    expect(head3).not.toBe(head2);
    expect(r.changed(head3)).toEqual(['.gitbook/assets/logo (2).png']);
    expect(git(r.bare, 'rev-parse', `${head3}:.gitbook/assets/logo (2).png`).trim()).toBe(gitBlobOid(logo.data));
    expect(git(r.bare, 'rev-parse', `${head3}^{tree}`).trim()).toBe(git(r.bare, 'rev-parse', `${head1}^{tree}`).trim());
  });

  it('skips out-of-order events, builds standalone previews, refuses to export over a moved branch unless forced', async () => {
    const h = await contentSetup();
    const r = remote(gitbookExport());
    const space = await h.createSpace();
    const T2 = '2026-03-02T00:00:00Z';
    const T1 = '2026-03-01T00:00:00Z';
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, timestamp: T2 } }, 204);
    const first = h.space(space.id).revision;

    // A newer commit, but an older event: skipped.
    const head2 = r.commit({ 'changelog.md': '# Changelog\n\nSecond.\n' });
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, timestamp: T1 } }, 204);
    expect(h.space(space.id).revision).toBe(first);
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'x', timestamp: T1 } }, 204);
    expect(r.head()).toBe(head2);

    // Standalone: a revision with the new content; the primary and the sync state do not move.
    const before = getGitSync(h.store.read(), space.id);
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, standalone: true } }, 204);
    expect(h.space(space.id).revision).toBe(first);
    const after = getGitSync(h.store.read(), space.id);
    expect(after).toMatchObject({ lastOid: before?.lastOid, lastTimestamp: T2, lastStandaloneRevision: { oid: head2, ref: MAIN, url: r.url } });
    const preview = getRevision(h.store.read(), space.id, after?.lastStandaloneRevision?.revision as string) as RevisionRecord;
    expect(preview.git?.oid).toBe(head2);
    expect(preview.parents).toEqual([first]);
    expect(pageByTitle(loadTree(h.store.read(), preview), 'Changelog').markdown).toContain('Second.');

    // The branch moved since the last sync (head2 was never imported): export refused…
    await h.admin.fails(
      'exportToGitRepository',
      { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Overwrite' } },
      409,
      /the remote branch moved since the last sync .*import first, or export with --force/,
    );
    expect(r.head()).toBe(head2);
    // …allowed with force (the export is built on the new head: its Changelog comes back).
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Overwrite', force: true } }, 204);
    const head3 = r.head() as string;
    expect(head3).not.toBe(head2);
    expect(r.changed(head3)).toEqual(['changelog.md']);
    expect(getGitSync(h.store.read(), space.id)?.lastOid).toBe(head3);

    // A later import of a new commit applies.
    const head4 = r.commit({ 'faq.md': '# FAQ\n\nNew answers.\n' });
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, timestamp: '2026-03-03T00:00:00Z' } }, 204);
    expect(primary(h, space.id).revision.git?.oid).toBe(head4);
    expect(getGitSync(h.store.read(), space.id)?.lastTimestamp).toBe('2026-03-03T00:00:00Z');
  });

  it('exports over the commit it last imported as a conversion of it would (a deleted page, a page gaining a child), and reads a branch pushed to since', async () => {
    const h = await contentSetup();
    const r = remote(gitbookExport());
    const space = await h.createSpace();
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN } }, 204);
    const head1 = r.head() as string;
    const summary1 = r.show(head1, 'SUMMARY.md');
    // The branch head is the imported commit: the export takes what the space owns there from that import.
    await editPrimary(h, space.id, (tree) => {
      tree.pages = tree.pages.filter((page) => page.git?.path !== 'changelog.md');
      const faq = pageByPath(tree, 'faq.md');
      faq.pages.push({ id: 'faq-child', type: 'document', title: 'More answers', slug: 'more', markdown: 'More.\n', pages: [] });
    });
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Edits' } }, 204);
    const head2 = r.head() as string;
    // changelog.md is the space's (it imported it): deleted; faq.md moves to faq/README.md as it gains a child.
    expect(r.changed(head2).sort()).toEqual(['SUMMARY.md', 'changelog.md', 'faq.md', 'faq/README.md', 'faq/more.md']);
    const summary2 = r.show(head2, 'SUMMARY.md');
    // The table of contents edited in place: the FAQ item gains its child, the Changelog item goes, nothing else moves.
    expect(summary2).toBe(
      summary1
        .replace('* [FAQ \\[updated for 2026\\]](faq.md "FAQ")\n', '* [FAQ \\[updated for 2026\\]](faq/README.md "FAQ")\n  * [More answers](faq/more.md)\n')
        .replace(/\n+\* \[Changelog\]\(changelog\.md\)\n?$/, ""),
    );

    // The last sync is now this export (its revision is what the space wrote, not a conversion of the head): another
    // export with a page renamed converts the head, and writes that page and the table of contents only.
    await editPrimary(h, space.id, (tree) => {
      pageByPath(tree, 'faq/more.md').title = 'Further answers';
    });
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Rename' } }, 204);
    expect(r.changed(r.head() as string).sort()).toEqual(['SUMMARY.md', 'faq/more.md']);
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Again' } }, 204);
    const head2b = r.head() as string;
    expect(r.changed(head2b).sort()).toEqual(['SUMMARY.md', 'faq/more.md']);
    const summary2b = r.show(head2b, 'SUMMARY.md');

    // Imported again, then someone pushes a page and an export is forced: the pushed head is converted (not taken
    // from the space's last import), so its new page is the branch's, and the space's tree, without it, wins.
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, force: true } }, 204);
    expect(getGitSync(h.store.read(), space.id)).toMatchObject({ lastOid: head2b, lastDirection: 'import' });
    const head3 = r.commit({ 'pushed.md': '# Pushed\n', 'SUMMARY.md': `${summary2b}\n* [Pushed](pushed.md)\n` }, 'Pushed');
    await h.admin.fails('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Over' } }, 409, /moved since the last sync/);
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'Over', force: true } }, 204);
    const head4 = r.head() as string;
    expect(head4).not.toBe(head3);
    expect(r.changed(head4).sort()).toEqual(['SUMMARY.md', 'pushed.md']);
    expect(r.show(head4, 'SUMMARY.md')).toBe(summary2b);
  });

  it('exports into a new branch, and reads a project directory', async () => {
    const h = await contentSetup();
    const files = Object.fromEntries(Object.entries(gitbookExport()).map(([key, value]) => [`docs/${key}`, value]));
    const r = remote({ ...files, 'package.json': '{}\n' });
    const space = await h.createSpace();
    await h.admin.ok('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, repoProjectDirectory: 'docs' } }, 204);
    expect(primary(h, space.id).tree.pages[0]?.git?.path).toBe('docs/README.md');
    const head = r.head();
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN, commitMessage: 'same', repoProjectDirectory: 'docs' } }, 204);
    expect(r.head()).toBe(head);
    await h.admin.ok('exportToGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: 'refs/heads/preview', commitMessage: 'Branch', repoProjectDirectory: 'docs' } }, 204);
    const branch = r.head('preview') as string;
    expect(branch).toMatch(/^[0-9a-f]{40}$/);
    expect(r.show(branch, 'docs/SUMMARY.md')).toContain('[Quickstart](getting-started/quickstart.md)');
  });

  it('refuses a symbolic link out of the repository with a clear 400; a missing ref is a 404', async () => {
    const h = await contentSetup();
    const r = remote({ 'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Secret](secret.md)\n', 'README.md': '# Home\n', 'secret.md': { symlink: '../../../etc/passwd' } });
    const space = await h.createSpace();
    await h.admin.fails('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: MAIN } }, 400, /^Cannot import file:.*secret\.md: symbolic link to "\.\.\/\.\.\/\.\.\/etc\/passwd" points outside the repository$/);
    await h.admin.fails('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: 'refs/heads/nope' } }, 404, /remote ref not found/);
    await h.admin.fails('importGitRepository', { params: { spaceId: space.id }, body: { url: r.url, ref: 'main' } }, 400, /refs\/heads/);
    await h.admin.fails('getSpaceGitInfo', { params: { spaceId: space.id } }, 404);
  });
});

