/**
 * getSiteTree (docsctl extension, GET /v1/orgs/{org}/sites/{site}/x-docsctl/tree):
 * the site's structure as getSiteStructure shows it, each variant with its space's
 * page tree as listPages shows it (id, title, path, and the kind of a group or link; children nested), read from
 * the stored page objects without any page body.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContentPage } from '../../src/content-model/model.js';
import { RevisionContent } from '../../src/domain/content/storage.js';
import type { CompactPage, SiteTreeAnswer, SiteTreeTextAnswer } from '../../src/domain/sites/tree-shape.js';
import { siteTreeParts, treeText } from '../../src/domain/sites/tree-text.js';
import { type ContentHarness, contentSetup, doc } from './content/helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const group = (id: string, title: string, pages: ContentPage[]): ContentPage => ({ id, type: 'group', title, slug: title.toLowerCase(), pages });
const link = (id: string, title: string, pages: ContentPage[] = []): ContentPage => ({ id, type: 'link', title, href: 'https://example.com', pages });

/** A guide with a group, a nested page, a page without a slug (it keeps its parent's path), an untitled page and a link. */
const GUIDE = {
  pages: [
    doc('p-intro', 'Intro', '# Intro\n'),
    group('p-basics', 'Basics', [
      doc('p-setup', 'Setup', '# Setup\n', [doc('p-linux', 'Linux', 'Linux\n'), doc('p-noslug', 'No slug', 'x\n', [], { slug: undefined })]),
      doc('p-untitled', '', 'y\n', [], { slug: 'untitled' }),
    ]),
    link('p-link', 'Elsewhere', [doc('p-under-link', 'Under link', 'z\n')]),
  ],
  files: [],
};

const GUIDE_PAGES: CompactPage[] = [
  { id: 'p-intro', title: 'Intro', path: 'intro' },
  {
    id: 'p-basics',
    title: 'Basics',
    type: 'group',
    path: 'basics',
    pages: [
      {
        id: 'p-setup',
        title: 'Setup',
        path: 'basics/setup',
        pages: [
          { id: 'p-linux', title: 'Linux', path: 'basics/setup/linux' },
          { id: 'p-noslug', title: 'No slug', path: 'basics/setup' },
        ],
      },
      { id: 'p-untitled', title: 'Untitled', path: 'basics/untitled' },
    ],
  },
  { id: 'p-link', title: 'Elsewhere', type: 'link' },
];

async function siteOf(h: ContentHarness) {
  const [guide, guide2, api] = [await h.createSpace('Guide'), await h.createSpace('Guide v2'), await h.createSpace('API')];
  await h.seedSpace(guide.id, GUIDE);
  await h.seedSpace(guide2.id, { pages: [doc('q-new', 'New', 'n\n')], files: [] });
  const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs', type: 'premium' } }, 201);
  const p = { organizationId: h.orgId, siteId: site.id };
  const guides = await h.admin.ok('addSectionToSite', { params: p, body: { spaceId: guide.id, title: 'Guides' } }, 201);
  const v2 = await h.admin.ok('addSpaceToSite', { params: p, body: { spaceId: guide2.id, sectionId: guides.id } }, 201);
  const apiSection = await h.admin.ok('addSectionToSite', { params: p, body: { spaceId: api.id, title: 'API' } }, 201);
  const more = await h.admin.ok('addSectionGroupToSite', { params: p, body: { title: 'More', sections: [apiSection.id] } }, 201);
  const structure = await h.admin.ok<{ structure: Array<{ siteSpaces?: Array<{ id: string }>; children?: Array<{ siteSpaces: Array<{ id: string }> }> }> }>(
    'getSiteStructure',
    { params: p },
  );
  const guideVariant = structure.structure[0]!.siteSpaces![0]!.id;
  const apiVariant = structure.structure[1]!.children![0]!.siteSpaces[0]!.id;
  return { p, guide, guide2, api, guides, v2, apiSection, more, guideVariant, apiVariant };
}

const treeOf = async (h: ContentHarness, p: Record<string, string>) => {
  const result = await h.admin.call('getSiteTree', { params: p });
  expect(result.status).toBe(200);
  // Local mode hands the answer over without a JSON round trip: it must be what serve sends.
  expect(JSON.parse(result.json ?? 'null')).toStrictEqual(result.body);
  return result.body as SiteTreeAnswer;
};

/** listPages' answer projected to the compact page (what the tree must equal). */
function project(pages: Array<Record<string, unknown>>): CompactPage[] {
  return pages.map((page) => {
    const out: CompactPage = { id: page.id as string, title: page.title as string };
    if (page.type !== 'document') out.type = page.type as CompactPage['type'];
    if (typeof page.path === 'string') out.path = page.path;
    const children = project((page.pages as Array<Record<string, unknown>> | undefined) ?? []);
    if (children.length > 0) out.pages = children;
    return out;
  });
}

describe('getSiteTree', () => {
  it('is the structure with each variant’s page tree, and the published URLs', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    await h.admin.ok('publishSite', { params: s.p });
    const answer = await treeOf(h, s.p);
    const base = `https://${h.orgId}.gitbook.io/docs`; // an organization without a hostname: its id
    expect(answer).toEqual({
      object: 'x-docsctl-site-tree',
      site: s.p.siteId,
      tree: [
        {
          type: 'section',
          id: s.guides.id,
          title: 'Guides',
          path: 'guides',
          default: true,
          url: `${base}/`,
          variants: [
            { type: 'variant', id: s.guideVariant, title: 'Guide', path: 'guide', default: true, spaceId: s.guide.id, url: `${base}/`, pages: GUIDE_PAGES },
            {
              type: 'variant',
              id: s.v2.id,
              title: 'Guide v2',
              path: 'guide-v2',
              default: false,
              spaceId: s.guide2.id,
              url: `${base}/guide-v2/`,
              pages: [{ id: 'q-new', title: 'New', path: 'new' }],
            },
          ],
        },
        {
          type: 'group',
          id: s.more.id,
          title: 'More',
          children: [
            {
              type: 'section',
              id: s.apiSection.id,
              title: 'API',
              path: 'api',
              default: false,
              url: `${base}/api/`,
              variants: [{ type: 'variant', id: s.apiVariant, title: 'API', path: 'api', default: true, spaceId: s.api.id, url: `${base}/api/`, pages: [] }],
            },
          ],
        },
      ],
    });
  });

  it('gives every variant the pages listPages gives, without reading a body', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const markdown = vi.spyOn(RevisionContent.prototype, 'markdown');
    const answer = await treeOf(h, s.p);
    expect(markdown).not.toHaveBeenCalled();
    markdown.mockRestore();
    const variants = answer.tree.flatMap((node) =>
      node.type === 'section' ? node.variants : node.type === 'group' ? node.children.flatMap((c) => (c.type === 'section' ? c.variants : [])) : [node],
    );
    expect(variants).toHaveLength(3);
    for (const variant of variants) {
      const listed = await h.admin.ok<{ pages: Array<Record<string, unknown>> }>('listPages', { params: { spaceId: variant.spaceId } });
      expect(variant.pages).toEqual(project(listed.pages));
    }
  });

  it('has no URLs while unpublished, hides the variants of deleted spaces, and lists root site spaces', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    await h.admin.ok('deleteSpaceById', { params: { spaceId: s.guide.id } }, 205);
    const answer = await treeOf(h, s.p);
    expect(JSON.stringify(answer)).not.toMatch(/"url"/);
    const guides = answer.tree[0] as Extract<SiteTreeAnswer['tree'][number], { type: 'section' }>;
    expect(guides.variants.map((v) => v.title)).toEqual(['Guide v2']);

    const guide = await h.createSpace('Handbook');
    await h.seedSpace(guide.id, { pages: [doc('h-1', 'Start', 's\n')], files: [] });
    const root = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Hand', spaces: [guide.id] } }, 201);
    const rootTree = await treeOf(h, { organizationId: h.orgId, siteId: root.id });
    expect(rootTree.tree).toEqual([
      { type: 'variant', id: expect.any(String), title: 'Handbook', path: 'handbook', default: true, spaceId: guide.id, pages: [{ id: 'h-1', title: 'Start', path: 'start' }] },
    ]);
  });

  it('with format=text, is the text site tree prints: a line per section, group and variant, each page with its URL', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    await h.admin.ok('publishSite', { params: s.p });
    const result = await h.admin.call('getSiteTree', { params: s.p, query: { format: 'text' } });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.json ?? 'null')).toStrictEqual(result.body);
    const base = `https://${h.orgId}.gitbook.io/docs`;
    const answer = result.body as SiteTreeTextAnswer;
    expect(answer).toMatchObject({ object: 'x-docsctl-site-tree-text', site: s.p.siteId });
    expect(treeText(answer)).toBe(
      [
        `# Guides  section ${s.guides.id}  /guides  default  ${base}/`,
        `  * Guide  variant ${s.guideVariant}  /guide  default  ${base}/`,
        `    Intro  ${base}/intro`,
        `    Basics  ${base}/basics`,
        `      Setup  ${base}/basics/setup`,
        `        Linux  ${base}/basics/setup/linux`,
        `        No slug  ${base}/basics/setup`,
        `      Untitled  ${base}/basics/untitled`,
        '    Elsewhere',
        `  * Guide v2  variant ${s.v2.id}  /guide-v2  ${base}/guide-v2/`,
        `    New  ${base}/guide-v2/new`,
        `[More]  group ${s.more.id}`,
        `  # API  section ${s.apiSection.id}  /api  ${base}/api/`,
        `    * API  variant ${s.apiVariant}  /api  default  ${base}/api/`,
        '',
      ].join('\n'),
    );
    // A content one variant alone shows is drawn as its lines, URL included (no pieces to join).
    expect(answer.pieces).toEqual([]);
    expect(answer.parts.every((part) => typeof part === 'string')).toBe(true);
  });

  it('with format=text, draws from the tries what the tree answer draws: each content once per level, published or not', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    // The guide's content again (same pages: the same root hash) beside it, and one level deeper (in the group's section).
    const [twin, deeper] = [await h.createSpace('Guide twin'), await h.createSpace('Guide deeper')];
    await h.seedSpace(twin.id, GUIDE);
    await h.seedSpace(deeper.id, GUIDE);
    await h.admin.ok('addSpaceToSite', { params: s.p, body: { spaceId: twin.id, sectionId: s.guides.id } }, 201);
    await h.admin.ok('addSpaceToSite', { params: s.p, body: { spaceId: deeper.id, sectionId: s.apiSection.id } }, 201);
    const sameAsTree = async () => {
      const text = (await h.admin.call('getSiteTree', { params: s.p, query: { format: 'text' } })).body as SiteTreeTextAnswer;
      const tree = await treeOf(h, s.p);
      expect(text).toMatchObject({ object: 'x-docsctl-site-tree-text', site: s.p.siteId });
      expect(treeText(text)).toBe(treeText(siteTreeParts(tree.tree)));
      return text;
    };
    const unpublished = await sameAsTree();
    // Guide and its twin share pieces (joined with each one's URL); the deeper copy (two more spaces of indent) and
    // Guide v2 are each shown by one variant: drawn as their lines; API shows no page.
    expect(unpublished.pieces).toHaveLength(1);
    const variantParts = unpublished.parts.filter((part) => typeof part !== 'string' || part.includes('Intro') || part.includes('New'));
    expect(variantParts.map((part) => (typeof part === 'string' ? part.split('\n')[0] : part[0]))).toEqual([0, '    New  new', 0, '      Intro  intro']);
    expect(treeText(unpublished)).toContain('\n        Linux  basics/setup/linux\n');
    await h.admin.ok('publishSite', { params: s.p });
    await h.admin.ok('deleteSpaceById', { params: { spaceId: s.guide2.id } }, 205);
    const published = await sameAsTree();
    expect(treeText(published)).toContain(`\n          Linux  https://${h.orgId}.gitbook.io/docs/api/guide-deeper/basics/setup/linux\n`);
    expect(treeText(published)).not.toContain('Guide v2');
  });

  it('with format=text, is empty for a site that shows no space; an unknown format is a 400', async () => {
    const h = await contentSetup();
    const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Empty' } }, 201);
    const p = { organizationId: h.orgId, siteId: site.id };
    expect((await h.admin.call('getSiteTree', { params: p, query: { format: 'text' } })).body).toEqual({ object: 'x-docsctl-site-tree-text', site: site.id, parts: [], pieces: [] });
    await h.admin.fails('getSiteTree', { params: p, query: { format: 'html' } }, 400, /format/);
  });

  it('answers 404 for a site of another organization or none, as getSiteStructure does', async () => {
    const h = await contentSetup();
    await h.admin.fails('getSiteTree', { params: { organizationId: h.orgId, siteId: 'nope' } }, 404, /nope/);
    const structure = await h.admin.call('getSiteStructure', { params: { organizationId: h.orgId, siteId: 'nope' } }).catch((e: Error) => e.message);
    const tree = await h.admin.call('getSiteTree', { params: { organizationId: h.orgId, siteId: 'nope' } }).catch((e: Error) => e.message);
    expect(tree).toBe(structure);
  });
});
