/**
 * Search (searchSpaceContent, searchOrganizationContent) over an index the merge
 * keeps current; getUserById; the revision reads getPageInRevisionByPath and
 * listFilesInRevisionById. Every answer validated against the real schema.
 */
import { describe, expect, it } from 'vitest';
import { contentSetup, doc, type ContentHarness } from './content/helpers.js';

type Obj = Record<string, unknown> & { id: string };
type List<T = Obj> = { items: T[]; count?: number; next?: { page: string } };
type PageHit = Obj & { title: string; path: string; sections?: Array<{ title: string; body: string }> };

/** A space whose content arrives by a merge (so the merge indexes it). */
async function indexedSpace(h: ContentHarness, title = 'Docs') {
  const s = await h.createSpace(title);
  const cr = await h.createCR(s.id, 'Content');
  await h.editChangeRequest(s.id, cr.id, (tree) => {
    tree.pages = [
      doc('p-install', 'Install', '# Install\n\nDownload the installer.\n\n## Upgrading\n\nRun the installer again to upgrade.\n'),
      doc('p-guide', 'Guide', '# Guide\n\nAfter you install, read the configuration reference.\n', [
        doc('p-config', 'Configuration', 'Every option of the configuration file.\n'),
      ]),
      doc('p-faq', 'FAQ', 'Questions about upgrading and billing.\n'),
    ];
  });
  await h.admin.ok('mergeChangeRequest', { params: { spaceId: s.id, changeRequestId: cr.id } });
  return s.id;
}

const search = (h: ContentHarness, spaceId: string, query: Record<string, unknown>) =>
  h.admin.ok<List<PageHit>>('searchSpaceContent', { params: { spaceId }, query });

describe('searchSpaceContent', () => {
  it('finds pages by title and text, best first: more query words, then title matches', async () => {
    const h = await contentSetup();
    const spaceId = await indexedSpace(h);
    expect(h.store.read().get('searchIndex.state', spaceId)).toEqual({ revision: h.space(spaceId).revision, pages: 4, format: 3 });
    const install = await search(h, spaceId, { query: 'install' });
    expect(install.items.map((p) => p.id)).toEqual(['p-install', 'p-guide']);
    expect(install.items[0]).toMatchObject({ title: 'Install', path: 'install', urls: { app: expect.stringContaining('/install') } });
    const both = await search(h, spaceId, { query: 'Upgrading installer' });
    expect(both.items.map((p) => p.id)).toEqual(['p-install', 'p-faq']);
    expect(both.items[0]?.sections?.map((s) => s.title)).toEqual(['Install', 'Upgrading']);
    expect((await search(h, spaceId, { query: 'CONFIGURATION' })).items.map((p) => [p.id, p.path])).toEqual([
      ['p-config', 'guide/configuration'],
      ['p-guide', 'guide'],
    ]);
    // 0.202: score (best first), one-based rank kept across pages, ancestors top-level first, sections scored.
    const configuration = await search(h, spaceId, { query: 'configuration', limit: 1 });
    expect(configuration.items[0]).toMatchObject({ id: 'p-config', rank: 1, description: '', ancestors: [{ title: 'Guide' }] });
    const second = await search(h, spaceId, { query: 'configuration', limit: 1, page: configuration.next?.page });
    expect(second.items[0]).toMatchObject({ id: 'p-guide', rank: 2, ancestors: [] });
    expect(configuration.items[0]?.score as number).toBeGreaterThan(second.items[0]?.score as number);
    expect(both.items[0]?.sections?.map((s) => (s as { score?: number }).score)).toEqual([1, 1]);
    expect((await search(h, spaceId, { query: 'kubernetes' })).items).toEqual([]);
  });

  it('follows merges: edited and removed pages leave the index, new ones enter it', async () => {
    const h = await contentSetup();
    const spaceId = await indexedSpace(h);
    const cr = await h.createCR(spaceId, 'Edit');
    await h.editChangeRequest(spaceId, cr.id, (tree) => {
      tree.pages = tree.pages.filter((page) => page.id !== 'p-faq');
      (tree.pages[0] as { markdown?: string }).markdown = '# Install\n\nUse the package manager.\n';
      tree.pages.push(doc('p-k8s', 'Kubernetes', 'Deploy with Helm.\n'));
    });
    await h.admin.ok('mergeChangeRequest', { params: { spaceId, changeRequestId: cr.id } });
    expect((await search(h, spaceId, { query: 'billing' })).items).toEqual([]);
    expect((await search(h, spaceId, { query: 'helm' })).items.map((p) => p.id)).toEqual(['p-k8s']);
    expect((await search(h, spaceId, { query: 'upgrade' })).items).toEqual([]);
    expect((await search(h, spaceId, { query: 'package' })).items.map((p) => p.id)).toEqual(['p-install']);
    expect(h.store.read().get('searchIndex.state', spaceId)).toMatchObject({ pages: 4 });
    expect(h.store.read().scan('searchIndex', { prefix: `${spaceId}/billing/` })).toEqual([]);
  });

  it('keeps a word of many pages in a few rows cut by page hash, a rare word in one: an edit rewrites one row', async () => {
    const h = await contentSetup();
    const s = await h.createSpace('Big');
    const cr = await h.createCR(s.id, 'Pages');
    await h.editChangeRequest(s.id, cr.id, (tree) => {
      tree.pages = Array.from({ length: 300 }, (_, i) => doc(`page-${i}`, `Page ${i}`, `Common text ${i}${i < 2 ? ' rare' : ''}\n`));
    });
    await h.admin.ok('mergeChangeRequest', { params: { spaceId: s.id, changeRequestId: cr.id } });
    const rows = (word = 'common') => h.store.read().scan<Array<string | number>>('searchIndex', { prefix: `${s.id}/${word}/` });
    // 300 postings cut into rows of about 64 (at most 128), keyed by the smallest page hash they hold.
    expect(rows().length).toBeGreaterThanOrEqual(3);
    expect(rows().length).toBeLessThanOrEqual(6);
    expect(rows()[0]?.[0]).toBe(`${s.id}/common/00000000`);
    expect(rows().every(([key, row]) => /\/[0-9a-f]{8}$/.test(key) && row.length / 3 <= 128)).toBe(true);
    // Flat rows: [pageId, count in text, count in title, …].
    expect(rows().every(([, row]) => Array.isArray(row) && row.length % 3 === 0)).toBe(true);
    expect(rows().reduce((sum, [, row]) => sum + row.length / 3, 0)).toBe(300);
    expect(rows('rare').map(([key]) => key)).toEqual([`${s.id}/rare/00000000`]);
    expect(new Set(rows('rare')[0]?.[1])).toEqual(new Set(['page-0', 'page-1', 1, 0]));
    expect((await search(h, s.id, { query: 'common', limit: '1000' })).count).toBe(300);

    const before = new Map(rows());
    const edit = await h.createCR(s.id, 'Edit one page');
    await h.editChangeRequest(s.id, edit.id, (tree) => {
      (tree.pages[7] as { markdown?: string }).markdown = 'Common, common text\n';
    });
    await h.admin.ok('mergeChangeRequest', { params: { spaceId: s.id, changeRequestId: edit.id } });
    expect([...rows().map(([key]) => key)]).toEqual([...before.keys()]);
    const changed = rows().filter(([key, row]) => JSON.stringify(row) !== JSON.stringify(before.get(key)));
    const postingOf = (row: Array<string | number>, pageId: string) => row.slice(row.indexOf(pageId) + 1, row.indexOf(pageId) + 3);
    expect(changed.map(([, row]) => postingOf(row, 'page-7'))).toEqual([[2, 0]]);

    // A rare word that grows past 128 pages over merges is cut where it stands; every page is found once.
    const grow = await h.createCR(s.id, 'Rare everywhere');
    await h.editChangeRequest(s.id, grow.id, (tree) => {
      for (const [i, page] of tree.pages.entries()) if (i < 200) (page as { markdown?: string }).markdown = `Common text ${i} rare\n`;
    });
    await h.admin.ok('mergeChangeRequest', { params: { spaceId: s.id, changeRequestId: grow.id } });
    expect(rows('rare').length).toBeGreaterThanOrEqual(2);
    expect(rows('rare').every(([, row]) => row.length / 3 <= 128)).toBe(true);
    expect(rows('rare').flatMap(([, row]) => row.filter((_, i) => i % 3 === 0)).sort()).toEqual(Array.from({ length: 200 }, (_, i) => `page-${i}`).sort());
    expect((await search(h, s.id, { query: 'rare', limit: '1000' })).count).toBe(200);
  });

  it('holds the same rows whether the index was built in one commit or kept up to date over several', async () => {
    const h = await contentSetup();
    const pages = (edited: boolean) => [
      doc('p-a', 'Alpha', `# Alpha\n\nShared words here. ${edited ? 'Edited text about gamma.' : 'Original text about beta.'}\n`),
      ...Array.from({ length: 150 }, (_, i) => doc(`p-${i}`, `Page ${i}`, `Shared words and word${i % 7} and item${i}.\n`)),
      ...(edited ? [doc('p-new', 'New', 'Shared words, brand new page.\n')] : [doc('p-gone', 'Gone', 'Shared words of a page removed later.\n')]),
    ];
    const rowsOf = (spaceId: string) => h.store.read().scan<Array<string | number>>('searchIndex', { prefix: `${spaceId}/` }).map(([key, row]): [string, string[]] => {
      const postings: string[] = [];
      for (let i = 0; i < row.length; i += 3) postings.push(`${String(row[i])}:${String(row[i + 1])}:${String(row[i + 2])}`);
      return [key.slice(spaceId.length), postings];
    }).reduce((byWord, [key, postings]) => {
      // By word: where a word's rows are cut depends on the order pages came.
      const word = key.slice(0, key.lastIndexOf('/') + 1);
      return byWord.set(word, [...(byWord.get(word) ?? []), ...postings].sort());
    }, new Map<string, string[]>());
    const merge = async (spaceId: string, title: string, edited: boolean) => {
      const cr = await h.createCR(spaceId, title);
      await h.editChangeRequest(spaceId, cr.id, (tree) => {
        tree.pages = pages(edited);
      });
      await h.admin.ok('mergeChangeRequest', { params: { spaceId, changeRequestId: cr.id } });
    };
    const kept = (await h.createSpace('Kept')).id;
    await merge(kept, 'First', false);
    await merge(kept, 'Edit', true);
    const built = (await h.createSpace('Built')).id;
    await merge(built, 'All at once', true);
    expect(rowsOf(kept)).toEqual(rowsOf(built));
    // Every page of the final tree is in the rows of "shared", once; the removed page in none.
    const shared = [...rowsOf(built)].filter(([key]) => key.startsWith('/shared/')).flatMap(([, postings]) => postings.map((p) => p.split(':')[0]));
    expect(shared.sort()).toEqual(pages(true).map((page) => page.id).sort());
    expect([...rowsOf(kept).values()].flat().some((p) => p.startsWith('p-gone:'))).toBe(false);
    expect(h.store.read().get('searchIndex.state', kept)).toMatchObject({ pages: 152 });
  });

  it('reads rows written as objects by earlier versions, and rewrites a row it touches as a flat array', async () => {
    const h = await contentSetup();
    const spaceId = await indexedSpace(h);
    const expected = await search(h, spaceId, { query: 'install configuration' });
    // What an earlier version wrote: each row an object {pageId: [count in text, count in title]}.
    await h.store.transact((tx) => {
      for (const [key, row] of tx.scan<Array<string | number>>('searchIndex', { prefix: `${spaceId}/` })) {
        const object: Record<string, [number, number]> = {};
        for (let i = 0; i < row.length; i += 3) object[row[i] as string] = [row[i + 1] as number, row[i + 2] as number];
        tx.put('searchIndex', key, object);
      }
    });
    expect(await search(h, spaceId, { query: 'install configuration' })).toEqual(expected);
    const cr = await h.createCR(spaceId, 'Touch');
    await h.editChangeRequest(spaceId, cr.id, (tree) => {
      tree.pages.push(doc('p-new', 'New page', 'How to install the configuration.\n'));
    });
    await h.admin.ok('mergeChangeRequest', { params: { spaceId, changeRequestId: cr.id } });
    const rows = h.store.read().scan<unknown>('searchIndex', { prefix: `${spaceId}/install/` });
    expect(rows.length).toBeGreaterThan(0);
    // The rows of the words of the new page were rewritten as arrays, keeping the older postings.
    const touched = rows.filter(([, row]) => Array.isArray(row));
    expect(touched.length).toBeGreaterThan(0);
    const found = await search(h, spaceId, { query: 'install configuration' });
    expect(found.items.map((p) => p.id).sort()).toEqual(['p-new', ...expected.items.map((p) => p.id)].sort());
    expect(found.count).toBe((expected.count ?? 0) + 1);
  });

  it('rebuilds an index of the older format (one row per page and word) at the next merge, and searches without it until then', async () => {
    const h = await contentSetup();
    const spaceId = await indexedSpace(h);
    const expected = (await search(h, spaceId, { query: 'install' })).items.map((p) => p.id);
    await h.store.transact((tx) => {
      for (const [key] of tx.scan('searchIndex', { prefix: `${spaceId}/` })) tx.delete('searchIndex', key);
      tx.put('searchIndex', `${spaceId}/install/p-faq`, [9, 9]); // stale and of the old shape: must not be read
      tx.put('searchIndex.state', spaceId, { revision: h.space(spaceId).revision, pages: 4 });
    });
    expect((await search(h, spaceId, { query: 'install' })).items.map((p) => p.id)).toEqual(expected);
    const cr = await h.createCR(spaceId, 'Touch');
    await h.editChangeRequest(spaceId, cr.id, (tree) => {
      tree.pages.push(doc('p-new', 'New page', 'Nothing to install here.\n'));
    });
    await h.admin.ok('mergeChangeRequest', { params: { spaceId, changeRequestId: cr.id } });
    expect(h.store.read().get('searchIndex.state', spaceId)).toMatchObject({ pages: 5, format: 3 });
    expect(h.store.read().get('searchIndex', `${spaceId}/install/p-faq`)).toBeUndefined();
    expect((await search(h, spaceId, { query: 'install' })).items.map((p) => p.id)).toEqual([...expected, 'p-new']);
  });

  it('reads an index of format 2 as it is, and rebuilds it in the current format at the next merge', async () => {
    const h = await contentSetup();
    const spaceId = await indexedSpace(h);
    await h.store.transact((tx) => {
      for (const [key] of tx.scan('searchIndex', { prefix: `${spaceId}/` })) tx.delete('searchIndex', key);
      // Format 2: 64 rows per word named by a page group; a posting no page holds shows the index is read.
      tx.put('searchIndex', `${spaceId}/install/0a`, ['p-install', 2, 1]);
      tx.put('searchIndex', `${spaceId}/install/1f`, ['p-guide', 1, 0]);
      tx.put('searchIndex', `${spaceId}/kubernetes/03`, ['p-faq', 1, 0]);
      tx.put('searchIndex.state', spaceId, { revision: h.space(spaceId).revision, pages: 4, format: 2 });
    });
    expect((await search(h, spaceId, { query: 'install' })).items.map((p) => p.id)).toEqual(['p-install', 'p-guide']);
    expect((await search(h, spaceId, { query: 'kubernetes' })).items.map((p) => p.id)).toEqual(['p-faq']);
    const cr = await h.createCR(spaceId, 'Touch');
    await h.editChangeRequest(spaceId, cr.id, (tree) => {
      tree.pages.push(doc('p-new', 'New page', 'Nothing to install here.\n'));
    });
    await h.admin.ok('mergeChangeRequest', { params: { spaceId, changeRequestId: cr.id } });
    expect(h.store.read().get('searchIndex.state', spaceId)).toMatchObject({ pages: 5, format: 3 });
    expect(h.store.read().scan('searchIndex', { prefix: `${spaceId}/install/` }).map(([key]) => key)).toEqual([`${spaceId}/install/00000000`]);
    expect((await search(h, spaceId, { query: 'kubernetes' })).items).toEqual([]);
    expect((await search(h, spaceId, { query: 'install' })).items.map((p) => p.id)).toEqual(['p-install', 'p-guide', 'p-new']);
  });

  it('paginates, and answers the same without an index (content put there another way)', async () => {
    const h = await contentSetup();
    const s = await h.createSpace();
    await h.seedSpace(s.id, { pages: [doc('a', 'Alpha', 'shared word\n'), doc('b', 'Beta', 'shared word\n'), doc('c', 'Gamma', 'shared\n')], files: [] });
    const first = await search(h, s.id, { query: 'shared word', limit: '2' });
    expect(first.items.map((p) => p.id)).toEqual(['a', 'b']);
    expect(first.count).toBe(3);
    const second = await search(h, s.id, { query: 'shared word', limit: '2', page: first.next?.page });
    expect(second.items.map((p) => p.id)).toEqual(['c']);
  });

  it('refuses a query without searchable words; 404 for an unknown space', async () => {
    const h = await contentSetup();
    const spaceId = await indexedSpace(h);
    await h.admin.fails('searchSpaceContent', { params: { spaceId }, query: { query: '!!! the' } }, 400, /no searchable words/);
    await h.admin.fails('searchSpaceContent', { params: { spaceId }, query: {} }, 400);
    await h.admin.fails('searchSpaceContent', { params: { spaceId: 'nope' }, query: { query: 'x1' } }, 404);
  });
});

describe('searchOrganizationContent', () => {
  it('groups the matching pages by space, best space first', async () => {
    const h = await contentSetup();
    const docs = await indexedSpace(h, 'Docs');
    const other = await h.createSpace('Notes');
    await h.seedSpace(other.id, { pages: [doc('n1', 'Upgrading', 'upgrading notes\n')], files: [] });
    const found = await h.admin.ok<List<Obj & { title: string; pages: PageHit[] }>>('searchOrganizationContent', {
      params: { organizationId: h.orgId },
      query: { query: 'upgrading' },
    });
    expect(found.items.map((s) => [s.id, s.title, s.pages.map((p) => p.id)])).toEqual([
      [other.id, 'Notes', ['n1']],
      [docs, 'Docs', ['p-faq', 'p-install']], // same score: by id
    ]);
  });
});

describe('getUserById and revision reads', () => {
  it('shows users who share an organization; hides others', async () => {
    const h = await contentSetup();
    const bob = await h.member('bob@acme.test', 'read');
    expect(await h.ok(bob, 'getUserById', { params: { userId: h.adminId } })).toMatchObject({ object: 'user', id: h.adminId });
    expect(await h.admin.ok('getUserById', { params: { userId: bob } })).toMatchObject({ id: bob, email: 'bob@acme.test' });
    const stranger = await h.createOrg('Elsewhere', {});
    expect(stranger).toBeTruthy();
    await h.admin.fails('getUserById', { params: { userId: 'nobody' } }, 404, /User nobody not found/);
  });

  it('reads a page of a past revision by path, and its files', async () => {
    const h = await contentSetup();
    const spaceId = await indexedSpace(h);
    const revision = h.space(spaceId).revision;
    const page = await h.admin.ok<Obj>('getPageInRevisionByPath', { params: { spaceId, revisionId: revision, pagePath: 'guide/configuration' } });
    expect(page).toMatchObject({ id: 'p-config', title: 'Configuration' });
    await h.admin.fails('getPageInRevisionByPath', { params: { spaceId, revisionId: revision, pagePath: 'nope' } }, 404);
    expect(await h.admin.ok<List>('listFilesInRevisionById', { params: { spaceId, revisionId: revision } })).toMatchObject({ items: [] });
  });
});
