/**
 * Site redirects (real API `site-redirects`) through executeOperation: every success
 * answer is validated against @gitbook/api 0.202.0 by the harness (`ok`), and the
 * values are asserted: sources in normal form, one redirect per source, destinations
 * checked when written, targets resolved to published URLs, and rows gone with the site.
 */
import { describe, expect, it } from 'vitest';
import { redirectStatus } from '../../src/domain/sites/redirects.js';
import { type ContentHarness, contentSetup, doc } from './content/helpers.js';

type Redirect = { object: string; id: string; source: string; destination: Record<string, string> };
type RedirectList = { items: Redirect[]; count: number; next?: { page: string } };

/**
 * A premium site "Docs": section Guide (default; variants Guide, the default, and Guide v2)
 * and section API reference. Guide's content has Intro and Setup › Linux.
 */
async function siteOf(h: ContentHarness) {
  const guide = await h.createSpace('Guide');
  const guide2 = await h.createSpace('Guide v2');
  const api = await h.createSpace('API');
  await h.seedSpace(guide.id, { pages: [doc('p-intro', 'Intro', '# Intro\n'), doc('p-setup', 'Setup', '# Setup\n', [doc('p-linux', 'Linux', 'Linux\n')])], files: [] });
  const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs', type: 'premium', spaces: [guide.id] } }, 201);
  const p = { organizationId: h.orgId, siteId: site.id };
  const apiSection = await h.admin.ok('addSectionToSite', { params: p, body: { spaceId: api.id, title: 'API reference' } }, 201);
  const sections = await h.admin.ok<{ items: Array<{ id: string; siteSpaces: Array<{ id: string }> }> }>('listSiteSections', { params: p });
  const guideSection = sections.items[0] as { id: string; siteSpaces: Array<{ id: string }> };
  const guideVariant = guideSection.siteSpaces[0]?.id as string;
  const v2 = await h.admin.ok('addSpaceToSite', { params: p, body: { spaceId: guide2.id, sectionId: guideSection.id } }, 201);
  const base = `https://${h.orgId}.gitbook.io/docs`;
  return { p, base, api, guide, apiSection: apiSection.id, guideSection: guideSection.id, guideVariant, v2: v2.id };
}

type Site = Awaited<ReturnType<typeof siteOf>>;

const create = (h: ContentHarness, s: Site, source: string, destination: Record<string, string>) =>
  h.admin.ok<Redirect>('createSiteRedirect', { params: s.p, body: { source, destination } }, 201);
const resolve = (h: ContentHarness, s: Site, source: string) =>
  h.admin.ok<{ redirect: Redirect; target: string }>('getSiteRedirectBySource', { params: s.p, query: { source } });
const list = (h: ContentHarness, s: Site, query: Record<string, unknown> = {}) => h.admin.ok<RedirectList>('listSiteRedirects', { params: s.p, query });

describe('site redirects', () => {
  it('creates a redirect of each kind, lists them newest first and resolves each to its published URL', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const toSection = await create(h, s, '/old-api', { kind: 'site-section', siteSectionId: s.apiSection });
    expect(toSection).toEqual({
      object: 'site-redirect',
      id: toSection.id,
      source: '/old-api',
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: 'site-section', siteSectionId: s.apiSection },
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const toDefault = await create(h, s, '/start', { kind: 'site-space', siteSpaceId: s.guideVariant });
    const toVariant = await create(h, s, '/guide/next', { kind: 'site-space', siteSpaceId: s.v2 });
    const toPage = await create(h, s, '/install/linux', { kind: 'site-page', siteSpaceId: s.guideVariant, pageId: 'p-linux' });
    expect(toPage.destination).toEqual({ kind: 'site-page', siteSpaceId: s.guideVariant, pageId: 'p-linux' });

    const all = await list(h, s);
    expect(all.count).toBe(4);
    // 0.202's default order (orderBy=createdAt): the most recently created first.
    expect(all.items.map((r) => r.source)).toEqual(['/install/linux', '/guide/next', '/start', '/old-api']);
    expect(all.next).toBeUndefined();

    // The default section and its default variant are the site's root; other items add their paths.
    expect(await resolve(h, s, '/old-api')).toEqual({ redirect: toSection, target: `${s.base}/api-reference/` });
    expect((await resolve(h, s, '/start')).target).toBe(`${s.base}/`);
    expect((await resolve(h, s, '/guide/next')).target).toBe(`${s.base}/guide-v2/`);
    expect((await resolve(h, s, '/install/linux')).target).toBe(`${s.base}/setup/linux`);
    expect((await resolve(h, s, '/start')).redirect.id).toBe(toDefault.id);
    expect((await resolve(h, s, '/guide/next')).redirect.id).toBe(toVariant.id);
  });

  it('pages with a key cursor and filters by a part of the source, whatever its case', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    for (const source of ['/a', '/Legacy/b', '/c', '/legacy/d', '/e']) await create(h, s, source, { kind: 'site-section', siteSectionId: s.apiSection });
    const first = await list(h, s, { limit: '2' });
    expect(first.items.map((r) => r.source)).toEqual(['/e', '/legacy/d']);
    expect(first.count).toBe(5);
    const second = await list(h, s, { limit: '2', page: first.next?.page });
    expect(second.items.map((r) => r.source)).toEqual(['/c', '/Legacy/b']);
    const third = await list(h, s, { limit: '2', page: second.next?.page });
    expect(third.items.map((r) => r.source)).toEqual(['/a']);
    expect(third.next).toBeUndefined();
    const legacy = await list(h, s, { search: 'LEGACY', limit: '1' });
    expect(legacy.items.map((r) => r.source)).toEqual(['/legacy/d']);
    expect(legacy.count).toBe(2);
    expect((await list(h, s, { search: 'LEGACY', limit: '1', page: legacy.next?.page })).items.map((r) => r.source)).toEqual(['/Legacy/b']);
    expect((await list(h, s, { search: 'LEGACY' })).items.map((r) => r.source)).toEqual(['/legacy/d', '/Legacy/b']);
    // orderBy=source: alphabetical (code points: upper case first), pages with the same cursor kind.
    const bySource = await list(h, s, { orderBy: 'source', limit: '3' });
    expect(bySource.items.map((r) => r.source)).toEqual(['/Legacy/b', '/a', '/c']);
    expect((await list(h, s, { orderBy: 'source', limit: '3', page: bySource.next?.page })).items.map((r) => r.source)).toEqual(['/e', '/legacy/d']);
    expect((await list(h, s, { orderBy: 'source', search: 'legacy' })).items.map((r) => r.source)).toEqual(['/Legacy/b', '/legacy/d']);
    // orderBy=updatedAt: the most recently changed first, then the newest created.
    const c = first.items.length > 0 ? (await list(h, s, { search: '/c' })).items[0] : undefined;
    h.clock.advance(1000);
    await h.admin.ok('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: c?.id as string }, body: { permanent: true } });
    expect((await list(h, s, { orderBy: 'updatedAt' })).items.map((r) => r.source)).toEqual(['/c', '/e', '/legacy/d', '/Legacy/b', '/a']);
    await h.admin.fails('listSiteRedirects', { params: s.p, query: { orderBy: 'title' } }, 400, /orderBy/);
    expect((await list(h, s, { search: 'nothing' })).items).toEqual([]);
  });

  it('0.202 drafts: listed apart (draft=true), never resolved, one per source beside a live one, made live once the live one is gone', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const section = { kind: 'site-section', siteSectionId: s.apiSection };
    const live = await create(h, s, '/old', { kind: 'site-space', siteSpaceId: s.v2 });
    const draft = await h.admin.ok<Redirect & { draft: boolean }>('createSiteRedirect', { params: s.p, body: { source: '/old', destination: section, draft: true } }, 201);
    expect(draft).toMatchObject({ source: '/old', draft: true, captureWildcard: false, permanent: false });
    await h.admin.fails('createSiteRedirect', { params: s.p, body: { source: '/old', destination: section, draft: true } }, 409, new RegExp(`already has a draft redirect from /old \\(${draft.id}\\)`));
    expect((await list(h, s)).items.map((r) => r.id)).toEqual([live.id]);
    expect(await list(h, s, { draft: 'true' })).toEqual({ items: [draft], count: 1 });
    // Resolving reads the live one only.
    expect((await resolve(h, s, '/old')).redirect.id).toBe(live.id);
    await h.admin.fails('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: draft.id }, body: { draft: false } }, 409, new RegExp(`already has a redirect from /old \\(${live.id}\\)`));
    expect((await h.admin.call('deleteSiteRedirectById', { params: { ...s.p, siteRedirectId: live.id } })).status).toBe(205);
    await h.admin.fails('getSiteRedirectBySource', { params: s.p, query: { source: '/old' } }, 404, /No redirect from \/old/);
    h.clock.advance(1000);
    const promoted = await h.admin.ok<Redirect & { draft: boolean; updatedAt?: string }>('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: draft.id }, body: { draft: false } });
    expect(promoted).toMatchObject({ id: draft.id, draft: false, updatedAt: expect.any(String) });
    expect(await resolve(h, s, '/old')).toEqual({ redirect: promoted, target: `${s.base}/api-reference/` });
    expect(await list(h, s, { draft: 'true' })).toEqual({ items: [], count: 0 });
    // Back to a draft: not resolved any more; deleting a draft frees its source.
    await h.admin.ok('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: draft.id }, body: { draft: true } });
    await h.admin.fails('getSiteRedirectBySource', { params: s.p, query: { source: '/old' } }, 404, /No redirect/);
    expect((await h.admin.call('deleteSiteRedirectById', { params: { ...s.p, siteRedirectId: draft.id } })).status).toBe(205);
    expect((await h.admin.call('deleteSiteRedirectById', { params: { ...s.p, siteRedirectId: draft.id } })).status).toBe(204);
    expect(h.store.read().scan('siteDraftRedirects', { prefix: `${s.p.siteId}/` })).toEqual([]);
    expect(h.store.read().scan('siteRedirectSources', { prefix: `${s.p.siteId}/` })).toEqual([]);
  });

  it('0.202 wildcards: a source ending in * matches the paths it prefixes, the longest first; captureWildcard carries the rest', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const section = { kind: 'site-section', siteSectionId: s.apiSection };
    const docs = await h.admin.ok<Redirect>('createSiteRedirect', { params: s.p, body: { source: '/docs/*', destination: section, captureWildcard: true } }, 201);
    const v1 = await h.admin.ok<Redirect>('createSiteRedirect', { params: s.p, body: { source: '/docs/v1*', destination: { kind: 'site-space', siteSpaceId: s.v2 } } }, 201);
    const exact = await create(h, s, '/docs/v1/start', { kind: 'site-page', siteSpaceId: s.guideVariant, pageId: 'p-intro' });
    expect(await resolve(h, s, '/docs/users/list')).toEqual({ redirect: docs, target: `${s.base}/api-reference/users/list` });
    expect((await resolve(h, s, '/docs')).target).toBe(`${s.base}/api-reference/`);
    expect((await resolve(h, s, '/docs/caf%c3%a9')).target).toBe(`${s.base}/api-reference/caf%C3%A9`);
    // The longer prefix wins (no capture: its destination as it is); an exact source wins over both.
    expect(await resolve(h, s, '/docs/v1/anything')).toEqual({ redirect: v1, target: `${s.base}/guide-v2/` });
    expect((await resolve(h, s, '/docs/v1beta')).redirect.id).toBe(v1.id);
    expect((await resolve(h, s, '/docs/v1/start')).redirect.id).toBe(exact.id);
    // A wildcard is looked up as written, and only at the end of a source.
    expect((await resolve(h, s, '/docs/*')).redirect.id).toBe(docs.id);
    await h.admin.fails('getSiteRedirectBySource', { params: s.p, query: { source: '/doc' } }, 404, /No redirect/);
    for (const source of ['/*', '/a*b', '/a/*/b', '/**']) {
      await h.admin.fails('createSiteRedirect', { params: s.p, body: { source, destination: section } }, 400, /source/);
    }
    // Turning the capture off: the destination as it is.
    await h.admin.ok('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: docs.id }, body: { captureWildcard: false } });
    expect((await resolve(h, s, '/docs/users/list')).target).toBe(`${s.base}/api-reference/`);
  });

  it('0.202 permanent: kept and answered; served as 308 only when permanent and live to public traffic, 307 otherwise', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const made = await h.admin.ok<Redirect & { permanent: boolean }>('createSiteRedirect', { params: s.p, body: { source: '/moved', destination: { kind: 'site-section', siteSectionId: s.apiSection }, permanent: true } }, 201);
    expect(made.permanent).toBe(true);
    expect((await resolve(h, s, '/moved')).redirect).toMatchObject({ permanent: true });
    expect(redirectStatus({ permanent: true }, true)).toBe(308);
    expect(redirectStatus({ permanent: true }, false)).toBe(307);
    expect(redirectStatus({ permanent: true, draft: true }, true)).toBe(307);
    expect(redirectStatus({}, true)).toBe(307);
    const edited = await h.admin.ok<Redirect & { permanent: boolean }>('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: made.id }, body: { permanent: false } });
    expect(edited.permanent).toBe(false);
  });

  it('keeps sources in normal form: one redirect per source, found in any spelling of it', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const section = { kind: 'site-section', siteSectionId: s.apiSection };
    const made = await create(h, s, '/%7eada/caf%c3%a9', section);
    expect(made.source).toBe('/~ada/caf%C3%A9');
    expect((await resolve(h, s, '/~ada/caf%C3%A9')).redirect.id).toBe(made.id);
    expect((await resolve(h, s, '/%7Eada/caf%c3%a9')).redirect.id).toBe(made.id);
    await h.admin.fails('createSiteRedirect', { params: s.p, body: { source: '/~ada/caf%C3%A9', destination: section } }, 409, new RegExp(`already has a redirect from /~ada/caf%C3%A9 \\(${made.id}\\)`));
    // Paths differ by case: another source.
    expect((await create(h, s, '/~Ada/caf%C3%A9', section)).source).toBe('/~Ada/caf%C3%A9');
    await h.admin.fails('getSiteRedirectBySource', { params: s.p, query: { source: '/nowhere' } }, 404, /No redirect from \/nowhere in site/);
  });

  it('refuses sources the real API refuses, and those no browser would ask for', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const section = { kind: 'site-section', siteSectionId: s.apiSection };
    for (const source of ['old', '/', '/old/', '/a//b', '/old?x=1', '/old#top', '/caf\u00e9', '/a b', '/%zz', `/${'a'.repeat(512)}`, 'https://example.com/old']) {
      await h.admin.fails('createSiteRedirect', { params: s.p, body: { source, destination: section } }, 400, /source/);
    }
    await h.admin.fails('createSiteRedirect', { params: s.p, body: { source: '/a/../b', destination: section } }, 400, /"\." and "\.\." segments/);
    await h.admin.fails('createSiteRedirect', { params: s.p, body: { source: '/%2e%2E/etc', destination: section } }, 400, /"\." and "\.\." segments/);
    await h.admin.fails('createSiteRedirect', { params: s.p, body: { source: '/a%00b', destination: section } }, 400, /control character/);
    await h.admin.fails('createSiteRedirect', { params: s.p, body: { source: '/ok', destination: { kind: 'url', url: 'https://evil.example' } } }, 400, /destination/);
    expect((await create(h, s, `/${'a'.repeat(511)}`, section)).source).toHaveLength(512);
    expect((await list(h, s)).count).toBe(1);
  });

  it('checks the destination exists in the site, and that it does not lead back to the source', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const other = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Other', type: 'premium', spaces: [s.api.id] } }, 201);
    const otherSpace = (await h.admin.ok<{ items: Array<{ id: string }> }>('listSiteSpaces', { params: { organizationId: h.orgId, siteId: other.id } })).items[0]?.id as string;
    const body = (destination: Record<string, string>) => ({ params: s.p, body: { source: '/x', destination } });
    await h.admin.fails('createSiteRedirect', body({ kind: 'site-section', siteSectionId: 'nope' }), 404, new RegExp(`Site section nope not found in site ${s.p.siteId}`));
    await h.admin.fails('createSiteRedirect', body({ kind: 'site-space', siteSpaceId: otherSpace }), 404, new RegExp(`Site space ${otherSpace} not found in site ${s.p.siteId}`));
    await h.admin.fails('createSiteRedirect', body({ kind: 'site-page', siteSpaceId: s.guideVariant, pageId: 'p-gone' }), 404, new RegExp(`Page p-gone not found in space ${s.guide.id}`));
    await h.admin.fails('createSiteRedirect', body({ kind: 'site-page', siteSpaceId: s.guideVariant, pageId: '../p-linux' }), 404, /Page \.\.\/p-linux not found/);
    await h.admin.fails('createSiteRedirect', { params: s.p, body: { source: '/api-reference', destination: { kind: 'site-section', siteSectionId: s.apiSection } } }, 400, /lead to its own source/);
    await h.admin.fails('createSiteRedirect', { params: s.p, body: { source: '/setup/linux', destination: { kind: 'site-page', siteSpaceId: s.guideVariant, pageId: 'p-linux' } } }, 400, /lead to its own source/);
    await h.admin.fails('createSiteRedirect', { params: { ...s.p, siteId: 'nope' }, body: { source: '/x', destination: { kind: 'site-section', siteSectionId: s.apiSection } } }, 404, /Site nope not found/);
    expect((await list(h, s)).count).toBe(0);
  });

  it('updates the source (the old one is free again) or the destination; a taken source is a 409 that changes nothing', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const a = await create(h, s, '/a', { kind: 'site-section', siteSectionId: s.apiSection });
    const b = await create(h, s, '/b', { kind: 'site-space', siteSpaceId: s.v2 });
    const moved = await h.admin.ok<Redirect>('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: a.id }, body: { source: '/A%2fnew' } });
    expect(moved).toEqual({ ...a, source: '/A%2Fnew' });
    await h.admin.fails('getSiteRedirectBySource', { params: s.p, query: { source: '/a' } }, 404);
    expect((await resolve(h, s, '/A%2Fnew')).redirect.id).toBe(a.id);
    expect((await create(h, s, '/a', { kind: 'site-space', siteSpaceId: s.v2 })).source).toBe('/a');

    const redirected = await h.admin.ok<Redirect>('updateSiteRedirectById', {
      params: { ...s.p, siteRedirectId: b.id },
      body: { destination: { kind: 'site-page', siteSpaceId: s.guideVariant, pageId: 'p-setup' } },
    });
    expect(redirected).toEqual({ ...b, destination: { kind: 'site-page', siteSpaceId: s.guideVariant, pageId: 'p-setup' } });
    expect((await resolve(h, s, '/b')).target).toBe(`${s.base}/setup`);

    await h.admin.fails('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: b.id }, body: { source: '/A%2Fnew' } }, 409, new RegExp(a.id));
    expect((await resolve(h, s, '/b')).redirect.id).toBe(b.id);
    await h.admin.fails('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: b.id }, body: {} }, 400, /Nothing to update/);
    await h.admin.fails('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: 'nope' }, body: { source: '/z' } }, 404, new RegExp(`Site redirect nope not found in site ${s.p.siteId}`));
    await h.admin.fails('updateSiteRedirectById', { params: { ...s.p, siteRedirectId: `${s.p.siteId}/${b.id}` }, body: { source: '/z' } }, 404);
  });

  it('deletes (205, then 204) and frees the source', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const a = await create(h, s, '/a', { kind: 'site-section', siteSectionId: s.apiSection });
    expect((await h.admin.call('deleteSiteRedirectById', { params: { ...s.p, siteRedirectId: a.id } })).status).toBe(205);
    expect((await h.admin.call('deleteSiteRedirectById', { params: { ...s.p, siteRedirectId: a.id } })).status).toBe(204);
    expect((await h.admin.call('deleteSiteRedirectById', { params: { ...s.p, siteRedirectId: 'a/b' } })).status).toBe(204);
    expect((await list(h, s)).count).toBe(0);
    await h.admin.fails('getSiteRedirectBySource', { params: s.p, query: { source: '/a' } }, 404);
    expect((await create(h, s, '/a', { kind: 'site-space', siteSpaceId: s.v2 })).source).toBe('/a');
  });

  it('says when a destination is gone or hidden, and keeps listing the redirect', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const a = await create(h, s, '/old-api', { kind: 'site-section', siteSectionId: s.apiSection });
    await create(h, s, '/next', { kind: 'site-space', siteSpaceId: s.v2 });
    await h.admin.ok('deleteSiteSectionById', { params: { ...s.p, siteSectionId: s.apiSection } }, 205);
    await h.admin.fails('getSiteRedirectBySource', { params: s.p, query: { source: '/old-api' } }, 404, new RegExp(`Redirect ${a.id} from /old-api leads to site section ${s.apiSection}, which no longer exists`));
    expect((await list(h, s)).items.map((r) => r.source)).toEqual(['/next', '/old-api']);
    const v2Space = (await h.admin.ok<{ items: Array<{ id: string; space: { id: string } }> }>('listSiteSpaces', { params: s.p })).items.find((ss) => ss.id === s.v2)?.space.id as string;
    await h.admin.ok('deleteSpaceById', { params: { spaceId: v2Space } }, 205);
    await h.admin.fails('getSiteRedirectBySource', { params: s.p, query: { source: '/next' } }, 404, /no longer exists, is hidden or is a draft/);
  });

  it('lets members read and resolve, admins change; an invalid share key is a 400', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const reader = await h.member('reader@acme.test', 'read');
    await create(h, s, '/a', { kind: 'site-section', siteSectionId: s.apiSection });
    expect((await h.ok<RedirectList>(reader, 'listSiteRedirects', { params: s.p })).count).toBe(1);
    expect((await h.ok<{ target: string }>(reader, 'getSiteRedirectBySource', { params: s.p, query: { source: '/a' } })).target).toBe(`${s.base}/api-reference/`);
    await h.fails(reader, 'createSiteRedirect', { params: s.p, body: { source: '/b', destination: { kind: 'site-section', siteSectionId: s.apiSection } } }, 403);
    await h.admin.fails('getSiteRedirectBySource', { params: s.p, query: { source: '/a', shareKey: 'guess' } }, 400, /Invalid shareKey/);
  });

  it('deleting the site deletes its redirects and their source rows', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    await create(h, s, '/a', { kind: 'site-section', siteSectionId: s.apiSection });
    await create(h, s, '/b', { kind: 'site-space', siteSpaceId: s.v2 });
    await h.admin.ok('deleteSiteById', { params: s.p }, 205);
    const reader = h.store.read();
    expect(reader.scan('siteRedirects', { prefix: `${s.p.siteId}/` })).toEqual([]);
    expect(reader.scan('siteRedirectSources', { prefix: `${s.p.siteId}/` })).toEqual([]);
    expect(reader.get('siteRedirects.n', s.p.siteId)).toBeUndefined();
  });
});
