import { describe, expect, it } from 'vitest';
import type { ContentTree } from '../../../src/content-model/model.js';
import { ORIGIN, contentSetup, doc, findPage } from './helpers.js';

type Location = Record<string, unknown> & { kind: string };
interface Usage {
  status: string;
  relation: string;
  targetReference?: Location;
  locationReferences: Location[];
}
interface Links {
  items: Usage[];
  count: number;
  stats: { total: number; broken: { total: number; changeRequest?: number } };
  next?: { page: string };
}

const git = (path: string) => ({ git: { oid: path, path } });

/** A Git Sync–like space: README, guides/ with links of every kind, one asset. */
const TREE: ContentTree = {
  pages: [
    doc('readme', 'Home', 'See [setup](guides/setup.md) and [the site](https://example.com).\n', [], git('README.md')),
    doc(
      'guides',
      'Guides',
      '{% content-ref url="setup.md" %}\n[setup.md](setup.md)\n{% endcontent-ref %}\n\n[Missing](missing.md)\n',
      [
        doc(
          'setup',
          'Setup',
          [
            'Back [home](../README.md), [app](https://app.gitbook.com/o/x/s/y), [local app](' + ORIGIN + '/app/o/x).',
            '![logo](../.gitbook/assets/logo.png)',
            '[anchor](#install) and [gone](../.gitbook/assets/gone.pdf)',
            '`[not a link](nowhere.md)`',
          ].join('\n'),
          [],
          git('guides/setup.md'),
        ),
      ],
      git('guides/README.md'),
    ),
  ],
  files: [
    {
      id: 'logo',
      name: 'logo.png',
      contentType: 'image/png',
      size: 1,
      git: { oid: 'x', path: '.gitbook/assets/logo.png' },
      data: new Uint8Array([1]),
    },
  ],
};

const key = (usage: Usage) => {
  const target = usage.targetReference;
  if (!target) return `${usage.status}:?`;
  if (target.kind === 'page') return `${usage.status}:page:${(target.page as { id: string }).id}`;
  if (target.kind === 'file') return `${usage.status}:file:${(target.file as { id: string }).id}`;
  return `${usage.status}:url:${String(target.url)}`;
};
const from = (usage: Usage) => usage.locationReferences.map((l) => (l.page as { id: string }).id);

async function seeded() {
  const h = await contentSetup();
  const s = await h.createSpace();
  await h.seedSpace(s.id, TREE);
  return { h, spaceId: s.id };
}

describe('links', () => {
  it('listSpaceLinks: one item per target with its locations; ok / broken / in-app; stats; status filter', async () => {
    const { h, spaceId } = await seeded();
    const links = await h.admin.ok<Links>('listSpaceLinks', { params: { spaceId } });
    expect(links.items.map((u) => [key(u), from(u)])).toEqual([
      ['ok:page:setup', ['readme', 'guides']],
      ['ok:url:https://example.com', ['readme']],
      ['broken:url:missing.md', ['guides']],
      ['ok:page:readme', ['setup']],
      ['in-app:url:https://app.gitbook.com/o/x/s/y', ['setup']],
      [`in-app:url:${ORIGIN}/app/o/x`, ['setup']],
      ['ok:file:logo', ['setup']],
      ['broken:url:../.gitbook/assets/gone.pdf', ['setup']],
    ]);
    expect(links.stats).toEqual({ total: 8, broken: { total: 2 } });
    expect(links.items[0]).toMatchObject({
      relation: 'reference',
      targetReference: { kind: 'page', organization: { id: h.orgId }, space: { id: spaceId }, page: { id: 'setup', path: 'guides/setup', pages: [] } },
    });
    const broken = await h.admin.ok<Links>('listSpaceLinks', { params: { spaceId }, query: { status: 'broken' } });
    expect(broken.items.map(key)).toEqual(['broken:url:missing.md', 'broken:url:../.gitbook/assets/gone.pdf']);
    expect(broken.stats.total).toBe(8);
    const limited = await h.admin.ok<Links>('listSpaceLinks', { params: { spaceId }, query: { limit: '3' } });
    expect(limited.items).toHaveLength(3);
    expect(limited.next).toBeDefined();
  });

  it('listPageLinksInSpace: the links of one page; 404 for an unknown page', async () => {
    const { h, spaceId } = await seeded();
    const links = await h.admin.ok<Links>('listPageLinksInSpace', { params: { spaceId, pageId: 'guides' } });
    expect(links.items.map(key)).toEqual(['ok:page:setup', 'broken:url:missing.md']);
    expect(links.stats).toEqual({ total: 2, broken: { total: 1 } });
    const ok = await h.admin.ok<Links>('listPageLinksInSpace', { params: { spaceId, pageId: 'guides' }, query: { status: 'ok' } });
    expect(ok.items.map(key)).toEqual(['ok:page:setup']);
    await h.admin.fails('listPageLinksInSpace', { params: { spaceId, pageId: 'nope' } }, 404);
  });

  it('backlinks of a page and of a file', async () => {
    const { h, spaceId } = await seeded();
    const pageBacklinks = await h.admin.ok<{ items: Location[]; count: number }>('listSpacePageBacklinks', {
      params: { spaceId, pageId: 'setup' },
    });
    expect(pageBacklinks.items.map((l) => [l.kind, (l.page as { id: string }).id])).toEqual([
      ['page', 'readme'],
      ['page', 'guides'],
    ]);
    const fileBacklinks = await h.admin.ok<{ items: Location[] }>('listSpaceFileBacklinks', { params: { spaceId, fileId: 'logo' } });
    expect(fileBacklinks.items.map((l) => (l.page as { id: string }).id)).toEqual(['setup']);
    expect((await h.admin.ok<{ items: Location[] }>('listSpacePageBacklinks', { params: { spaceId, pageId: 'readme' } })).items).toHaveLength(1);
    await h.admin.fails('listSpaceFileBacklinks', { params: { spaceId, fileId: 'nope' } }, 404);
  });

  it('change request links: its own content, newly broken links counted, brokenContext; file backlinks; page links', async () => {
    const { h, spaceId } = await seeded();
    const cr = await h.createCR(spaceId);
    await h.editChangeRequest(spaceId, cr.id, (tree) => {
      findPage(tree, 'readme').markdown = 'See [setup](guides/setup.md) and [old](guides/old.md).\n';
    });
    const p = { spaceId, changeRequestId: cr.id };
    const links = await h.admin.ok<Links>('listChangeRequestLinks', { params: p });
    expect(links.stats).toEqual({ total: 8, broken: { total: 3, changeRequest: 1 } });
    expect(links.items[0]?.locationReferences[0]).toMatchObject({ versionContext: { type: 'changeRequest', changeRequest: { id: cr.id } } });
    const onlyNew = await h.admin.ok<Links>('listChangeRequestLinks', { params: p, query: { status: 'broken', brokenContext: 'change-request' } });
    expect(onlyNew.items.map(key)).toEqual(['broken:url:guides/old.md']);
    const pageLinks = await h.admin.ok<Links>('listPageLinksInChangeRequest', { params: { ...p, pageId: 'readme' } });
    expect(pageLinks.items.map(key)).toEqual(['ok:page:setup', 'broken:url:guides/old.md']);
    const backlinks = await h.admin.ok<{ items: Location[] }>('listChangeRequestFileBacklinks', { params: { ...p, fileId: 'logo' } });
    expect(backlinks.items.map((l) => (l.page as { id: string }).id)).toEqual(['setup']);
  });
});
