import { describe, expect, it } from 'vitest';
import { DAY, type List, type Obj, ORIGIN, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

type H = Awaited<ReturnType<typeof setup>>;

/** Every answer checked against the real schema of its kind. */
function valid(schema: string, value: unknown) {
  expect(schemaErrors(schema, value)).toEqual([]);
  return value;
}

async function siteWith(h: H, body: Record<string, unknown> = {}) {
  const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs', ...body } }, 201);
  valid('Site', site);
  const p = { organizationId: h.orgId, siteId: site.id };
  return { site, p };
}

const structureOf = async (h: H, p: Record<string, string>) => {
  const s = await h.admin.ok<{ type: string; structure: Array<Obj & { siteSpaces?: Obj[]; children?: Obj[] }> }>('getSiteStructure', { params: p });
  valid('SiteStructure', s);
  return s;
};

/** `section-title[variant,variant]` per top-level item, groups as `{title: …}`. */
function outline(items: Array<Record<string, unknown>>): string[] {
  return items.map((item) => {
    if (item.object === 'site-section-group') return `{${item.title}: ${outline(item.children as Obj[]).join(' ')}}`;
    const spaces = (item.siteSpaces as Array<{ space: { title: string }; default: boolean }>).map(
      (ss) => `${ss.space.title}${ss.default ? '*' : ''}`,
    );
    return `${item.title}${item.default ? '*' : ''}[${spaces.join(',')}]`;
  });
}

describe('sites', () => {
  it('creates a basic public site with the defaults, 201 and Location, listed by the organization', async () => {
    const h = await setup();
    const res = await h.admin.call('createSite', { params: { organizationId: h.orgId }, body: { title: 'Help Center' } });
    expect(res.status).toBe(201);
    const site = res.body as Obj;
    valid('Site', site);
    expect(res.headers.Location).toBe(`${ORIGIN}/v1/orgs/${h.orgId}/sites/${site.id}`);
    expect(site).toMatchObject({
      object: 'site', type: 'basic', title: 'Help Center', basename: 'help-center', visibility: 'public',
      published: false, siteSpaces: 0, agentsContext: 'included', createdAt: '2026-01-01T00:00:00.000Z',
      urls: { location: `${ORIGIN}/v1/orgs/${h.orgId}/sites/${site.id}`, app: `${ORIGIN}/app/o/${h.orgId}/sites/${site.id}` },
    });
    expect((site.features as Array<{ id: string }>).map((f) => f.id)).toContain('sites-public-visibility');
    expect((site.features as Array<{ id: string }>).map((f) => f.id)).not.toContain('sites-sections');
    const list = await h.admin.ok<List>('listSites', { params: { organizationId: h.orgId } });
    expect(list.items.map((s) => s.id)).toEqual([site.id]);
    expect(list.count).toBe(1);
  });

  it('adds initial spaces at the root; the first is the default; publishes with URLs', async () => {
    const h = await setup();
    const a = await h.createSpace({ title: 'Guide' });
    const b = await h.createSpace({ title: 'API' });
    const { site, p } = await siteWith(h, { type: 'premium', spaces: [a.id, b.id] });
    expect(site.siteSpaces).toBe(2);
    let s = await structureOf(h, p);
    expect(s.type).toBe('siteSpaces');
    expect(s.structure.map((ss) => [ss.path, ss.default])).toEqual([['guide', true], ['api', false]]);
    const published = await h.admin.ok('publishSite', { params: p });
    valid('Site', published);
    expect((published.urls as Record<string, string>).published).toBe(`https://${h.orgId.toLowerCase()}.gitbook.io/docs/`);
    s = await structureOf(h, p);
    expect(s.structure.map((ss) => (ss.urls as { published: string }).published)).toEqual([
      `https://${h.orgId.toLowerCase()}.gitbook.io/docs/`,
      `https://${h.orgId.toLowerCase()}.gitbook.io/docs/api/`,
    ]);
    const unpublished = await h.admin.ok('unpublishSite', { params: p });
    expect(unpublished.published).toBe(false);
    expect(unpublished.urls).not.toHaveProperty('published');
  });

  it('lists sites with the filters of the real API: space, title, published, type', async () => {
    const h = await setup();
    const [a, b] = await Promise.all(['Alpha', 'Beta'].map((title) => h.createSpace({ title })));
    const { site: one, p } = await siteWith(h, { title: 'Public docs', spaces: [a!.id] });
    const { site: two } = await siteWith(h, { title: 'Partner portal', type: 'premium', spaces: [b!.id] });
    await h.admin.ok('publishSite', { params: p });
    const ids = async (query: Record<string, unknown>) =>
      (await h.admin.ok<List>('listSites', { params: { organizationId: h.orgId }, query })).items.map((s) => s.id);
    expect(await ids({})).toEqual([one.id, two.id]);
    expect(await ids({ space: b!.id })).toEqual([two.id]);
    expect(await ids({ title: 'PORTAL' })).toEqual([two.id]);
    expect(await ids({ published: 'true' })).toEqual([one.id]);
    expect(await ids({ type: ['premium', 'ultimate'] })).toEqual([two.id]);
    const page = await h.admin.ok<List>('listSites', { params: { organizationId: h.orgId }, query: { limit: '1' } });
    expect(page.items.map((s) => s.id)).toEqual([one.id]);
    const rest = await h.admin.ok<List>('listSites', { params: { organizationId: h.orgId }, query: { page: page.next?.page } });
    expect(rest.items.map((s) => s.id)).toEqual([two.id]);
  });

  it('refuses what the plan lacks with 403 naming the feature and the plan', async () => {
    const h = await setup();
    const space = await h.createSpace({ title: 'Guide' });
    await h.admin.fails('createSite', { params: { organizationId: h.orgId }, body: { visibility: 'share-link' } }, 403, /sites-share-links.*premium/);
    const { p } = await siteWith(h, { spaces: [space.id] });
    await h.admin.fails('addSectionToSite', { params: p, body: { spaceId: space.id } }, 403, /sites-sections/);
    await h.admin.fails('updateSiteAdaptiveSchema', { params: p, body: { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } } }, 403, /ultimate/);
  });

  it('builds sections with variants, a group, moves, and hands on the default section', async () => {
    const h = await setup();
    const [guide, guideV2, api, blog] = await Promise.all(['Guide', 'Guide v2', 'API', 'Blog'].map((title) => h.createSpace({ title })));
    const { p } = await siteWith(h, { type: 'premium', spaces: [guide!.id] });
    // The first section gathers the root site spaces into a section of their own.
    const apiSection = await h.admin.ok('addSectionToSite', { params: p, body: { spaceId: api!.id, title: 'API reference' } }, 201);
    valid('SiteSection', apiSection);
    expect(apiSection).toMatchObject({ title: 'API reference', path: 'api-reference', default: false });
    let s = await structureOf(h, p);
    expect(s.type).toBe('sections');
    expect(outline(s.structure)).toEqual(['Guide*[Guide*]', 'API reference[API*]']);
    const guideSection = s.structure[0]!;
    const variant = await h.admin.ok('addSpaceToSite', { params: p, body: { spaceId: guideV2!.id, sectionId: guideSection.id } }, 201);
    valid('SiteSpace', variant);
    expect(variant).toMatchObject({ path: 'guide-v2', section: guideSection.id, default: false, title: 'Guide v2' });
    const blogSection = await h.admin.ok('addSectionToSite', { params: p, body: { spaceId: blog!.id } }, 201);
    const group = await h.admin.ok('addSectionGroupToSite', { params: p, body: { title: 'More', sections: [apiSection.id, blogSection.id] } }, 201);
    valid('SiteSectionGroup', group);
    s = await structureOf(h, p);
    expect(outline(s.structure)).toEqual(['Guide*[Guide*,Guide v2]', '{More: API reference[API*] Blog[Blog*]}']);
    await h.admin.ok('moveSiteSection', { params: { ...p, siteSectionId: blogSection.id }, body: { position: { before: { type: 'site-section', siteSection: apiSection.id } } } });
    await h.admin.ok('moveSiteSpace', { params: { ...p, siteSpaceId: variant.id }, body: { position: { before: { type: 'site-space', siteSpace: (guideSection.siteSpaces as Obj[])[0]!.id } } } });
    s = await structureOf(h, p);
    expect(outline(s.structure)).toEqual(['Guide*[Guide v2,Guide*]', '{More: Blog[Blog*] API reference[API*]}']);
    // Deleting the default section makes the next one the default.
    await h.admin.ok('deleteSiteSectionById', { params: { ...p, siteSectionId: guideSection.id } }, 205);
    s = await structureOf(h, p);
    expect(outline(s.structure)).toEqual(['{More: Blog*[Blog*] API reference[API*]}']);
    const site = await h.admin.ok('getSiteById', { params: p });
    expect(site.siteSpaces).toBe(2);
    // Deleting the group puts its sections back at the top level.
    await h.admin.ok('deleteSiteSectionGroupById', { params: { ...p, siteSectionGroupId: group.id } }, 205);
    s = await structureOf(h, p);
    expect(outline(s.structure)).toEqual(['Blog*[Blog*]', 'API reference[API*]']);
  });

  it('rejects bad input with 400/404/409 and changes nothing', async () => {
    const h = await setup();
    const [a, b] = await Promise.all(['Alpha', 'Beta'].map((title) => h.createSpace({ title })));
    const { p } = await siteWith(h, { type: 'premium' });
    const s1 = await h.admin.ok('addSectionToSite', { params: p, body: { spaceId: a!.id } }, 201);
    const s2 = await h.admin.ok('addSectionToSite', { params: p, body: { spaceId: b!.id } }, 201);
    const before = await structureOf(h, p);
    await h.admin.fails('updateSiteSectionById', { params: { ...p, siteSectionId: s2.id }, body: { path: 'alpha' } }, 409, /already used/);
    await h.admin.fails('moveSiteSection', { params: { ...p, siteSectionId: s2.id }, body: { position: { before: { type: 'site-section', siteSection: s1.id }, after: { type: 'site-section', siteSection: s1.id } } } }, 400, /not both/);
    await h.admin.fails('moveSiteSection', { params: { ...p, siteSectionId: s2.id }, body: { position: { before: { type: 'site-section', siteSection: 'nope' } } } }, 400, /Invalid position/);
    await h.admin.fails('addSectionToSite', { params: p, body: { spaceId: 'nope' } }, 404, /Space nope not found/);
    await h.admin.fails('addSectionToSite', { params: p, body: { spaceId: a!.id, title: 'x' } }, 400, /title/);
    await h.admin.fails('getSiteById', { params: { ...p, siteId: 'nope' } }, 404);
    await h.admin.fails('deleteSiteSpaceById', { params: { ...p, siteSpaceId: (s1.siteSpaces as Obj[])[0]!.id } }, 409, /last one of section/);
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const foreign = await h.createSpace({ title: 'Foreign' }, other);
    await h.admin.fails('addSpaceToSite', { params: p, body: { spaceId: foreign.id } }, 404, /not found in organization/);
    await h.admin.fails('getSiteById', { params: { organizationId: other, siteId: p.siteId } }, 404);
    expect(await structureOf(h, p)).toEqual(before);
  });

  it('needs admin to change a site and membership to read it', async () => {
    const h = await setup();
    const { p } = await siteWith(h);
    const editor = await h.member('ed@acme.test', 'create');
    await h.ok(editor, 'getSiteById', { params: p });
    await h.fails(editor, 'updateSiteById', { params: p, body: { title: 'Nope' } }, 403, /"admin" role/);
    await h.fails(editor, 'createSite', { params: { organizationId: h.orgId }, body: {} }, 403);
  });

  it('share links: created with a secret URL shown once, listed without it, deactivated, deleted', async () => {
    const h = await setup();
    const space = await h.createSpace({ title: 'Guide' });
    const { p } = await siteWith(h, { type: 'premium', spaces: [space.id] });
    await h.admin.fails('createSiteShareLink', { params: p, body: { name: 'Partners' } }, 409, /share-link visibility/);
    await h.admin.ok('updateSiteById', { params: p, body: { visibility: 'share-link' } });
    const link = await h.admin.ok<Obj & { urls: { published: string } }>('createSiteShareLink', { params: p, body: { name: 'Partners' } }, 201);
    valid('ShareLink', link);
    const key = /\?share=(.+)$/.exec(link.urls.published)?.[1] as string;
    expect(key.length).toBeGreaterThan(10);
    const list = await h.admin.ok<List>('listSiteShareLinks', { params: p });
    expect(list.items).toEqual([{ object: 'share-link', id: link.id, createdAt: link.createdAt, name: 'Partners', active: true, urls: {} }]);
    expect(JSON.stringify(h.store.read().scan('siteShareLinks'))).not.toContain(key);
    // search (0.202): by the whole secret key as well as by a part of the name; the count is the filtered list's.
    const byKey = await h.admin.ok<List>('listSiteShareLinks', { params: p, query: { search: key } });
    expect([byKey.count, byKey.items.map((item) => item.id)]).toEqual([1, [link.id]]);
    expect((await h.admin.ok<List>('listSiteShareLinks', { params: p, query: { search: key.slice(0, 8) } })).count).toBe(0);
    expect((await h.admin.ok<List>('listSites', { params: { organizationId: h.orgId }, query: { shareKey: key } })).count).toBe(1);
    await h.admin.ok('updateSiteShareLinkById', { params: { ...p, shareLinkId: link.id }, body: { active: false } });
    expect((await h.admin.ok<List>('listSites', { params: { organizationId: h.orgId }, query: { shareKey: key } })).count).toBe(0);
    await h.admin.ok('deleteSiteShareLinkById', { params: { ...p, shareLinkId: link.id } }, 205);
    await h.admin.ok('deleteSiteShareLinkById', { params: { ...p, shareLinkId: link.id } }, 204);
  });

  it('adaptive schema: empty by default, set when valid, 400 naming the problem otherwise', async () => {
    const h = await setup();
    const { p } = await siteWith(h, { type: 'ultimate' });
    const empty = await h.admin.ok('getSiteAdaptiveSchema', { params: p });
    valid('SiteAdaptiveSchema', empty);
    const jsonSchema = {
      type: 'object',
      properties: { isBetaUser: { type: 'boolean', description: 'In the beta' }, plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' } },
      additionalProperties: false,
    };
    const set = await h.admin.ok('updateSiteAdaptiveSchema', { params: p, body: { jsonSchema } });
    valid('SiteAdaptiveSchema', set);
    expect((await h.admin.ok('getSiteAdaptiveSchema', { params: p })).jsonSchema).toEqual(jsonSchema);
    await h.admin.fails('updateSiteAdaptiveSchema', { params: p, body: { jsonSchema: { ...jsonSchema, properties: { x: { type: 'boolean' } } } } }, 400, /jsonSchema\.properties\.x/);
    await h.admin.fails('updateSiteAdaptiveSchema', { params: p, body: { jsonSchema: { ...jsonSchema, properties: { x: { type: 7, description: 'd' } } } } }, 400, /Invalid adaptive schema/);
    expect((await h.admin.ok('getSiteAdaptiveSchema', { params: p })).jsonSchema).toEqual(jsonSchema);
  });

  it('hides the site spaces of a soft-deleted space until restored; a transferred space leaves every site', async () => {
    const h = await setup();
    const [a, b] = await Promise.all(['Alpha', 'Beta'].map((title) => h.createSpace({ title })));
    const { p } = await siteWith(h, { type: 'premium' });
    await h.admin.ok('addSectionToSite', { params: p, body: { spaceId: a!.id } }, 201);
    await h.admin.ok('addSectionToSite', { params: p, body: { spaceId: b!.id } }, 201);
    await h.admin.ok('deleteSpaceById', { params: { spaceId: a!.id } }, 205);
    expect(outline((await structureOf(h, p)).structure)).toEqual(['Beta[Beta*]']);
    expect((await h.admin.ok('getSiteById', { params: p })).siteSpaces).toBe(1);
    await h.admin.ok('restoreSpace', { params: { spaceId: a!.id } });
    expect(outline((await structureOf(h, p)).structure)).toEqual(['Alpha*[Alpha*]', 'Beta[Beta*]']);
    expect((await h.admin.ok('getSiteById', { params: p })).siteSpaces).toBe(2);
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    await h.admin.ok('transferSpace', { params: { spaceId: a!.id }, body: { organization: other } });
    expect(outline((await structureOf(h, p)).structure)).toEqual(['Beta*[Beta*]']);
    expect((await h.admin.ok('getSiteById', { params: p })).siteSpaces).toBe(1);
  });

  it('counts only the site spaces a visitor sees, and publishes only a site that shows one', async () => {
    const h = await setup();
    const [a, b] = await Promise.all(['Alpha', 'Beta'].map((title) => h.createSpace({ title })));
    const { p } = await siteWith(h, { type: 'premium', spaces: [a!.id, b!.id] });
    await h.admin.ok('deleteSpaceById', { params: { spaceId: a!.id } }, 205);
    await h.admin.ok('deleteSpaceById', { params: { spaceId: b!.id } }, 205);
    const listed = await h.admin.ok<{ items: Array<{ id: string; siteSpaces: number }> }>('listSites', { params: { organizationId: p.organizationId } });
    expect(listed.items.find((site) => site.id === p.siteId)?.siteSpaces).toBe(0);
    await h.admin.fails('publishSite', { params: p }, 409, /no content to publish/);
    await h.admin.ok('restoreSpace', { params: { spaceId: b!.id } });
    expect((await h.admin.ok('publishSite', { params: p })).siteSpaces).toBe(1);
  });

  it('a purged space (deleted more than 7 days ago) leaves the site', async () => {
    const h = await setup();
    const [a, b] = await Promise.all(['Alpha', 'Beta'].map((title) => h.createSpace({ title })));
    const { p } = await siteWith(h, { type: 'premium', spaces: [a!.id, b!.id] });
    await h.admin.ok('deleteSpaceById', { params: { spaceId: a!.id } }, 205);
    h.clock.advance(8 * DAY);
    await h.createSpace({ title: 'Trigger purge' });
    expect((await h.admin.ok('getSiteById', { params: p })).siteSpaces).toBe(1);
  });

  it('deleting a site removes everything it owned', async () => {
    const h = await setup();
    const space = await h.createSpace({ title: 'Alpha' });
    const { p } = await siteWith(h, { type: 'premium' });
    await h.admin.ok('addSectionToSite', { params: p, body: { spaceId: space.id } }, 201);
    await h.admin.ok('deleteSiteById', { params: p }, 205);
    await h.admin.ok('deleteSiteById', { params: p }, 204);
    const snapshot = h.store.read();
    for (const table of ['sites', 'siteSections', 'siteSpaceRecords', 'siteStructure', 'siteSpaceOrder', 'siteSpacesOfSpace', 'orgSites']) {
      expect(snapshot.scan(table), table).toEqual([]);
    }
  });

  it('published view: site, structure and default customizations', async () => {
    const h = await setup();
    const space = await h.createSpace({ title: 'Alpha' });
    const { p } = await siteWith(h, { spaces: [space.id] });
    const view = await h.admin.ok('getPublishedContentSite', { params: p });
    valid('PublishedContentSite', view);
    expect(view).toMatchObject({ object: 'published-content-site', structure: { type: 'siteSpaces' }, scripts: [] });
  });
});
