/**
 * The site ads program's rules through executeOperation (the binary's walk-through is
 * test/e2e/site-ads.test.ts): who may submit, which sites are submittable, that a refused
 * move writes nothing, and the partner's list paged, across organizations, each site with its
 * organization's contact.
 */
import { describe, expect, it } from 'vitest';
import { getRoute } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import type { RouteId } from '../../src/api/route-id.js';
import { executeOperation } from '../../src/domain/execute.js';
import { ORIGIN } from './harness.js';
import { contentSetup } from './content/helpers.js';

const KEY = 'k'.repeat(20);

async function programme() {
  const h = await contentSetup();
  const partner = (routeId: RouteId, raw: RawInput, partnerKey: string | undefined = KEY) =>
    executeOperation({ store: h.store, actor: { userId: h.adminId, partnerKey }, clock: h.clock, ids: h.ids, origin: ORIGIN }, getRoute(routeId), raw);
  const publishedSite = async (title: string, body: Record<string, unknown> = {}, org = h.orgId) => {
    const space = await h.admin.ok('createSpace', { params: { organizationId: org }, body: { title } }, 201);
    const site = await h.admin.ok('createSite', { params: { organizationId: org }, body: { title, spaces: [space.id], ...body } }, 201);
    await h.admin.ok('publishSite', { params: { organizationId: org, siteId: site.id } });
    return { organizationId: org, siteId: site.id };
  };
  // docsctl's own route: no spec schema to check its (empty) answer against.
  expect((await h.admin.call('setAdsPartnerKey', { body: { key: KEY } })).status).toBe(204);
  return { h, partner, publishedSite };
}

describe('site ads', () => {
  it('only public, published sites are submittable; a reader cannot submit; a refused move writes nothing', async () => {
    const { h, publishedSite } = await programme();
    const unlisted = await publishedSite('Internal', { visibility: 'unlisted' });
    expect((await h.admin.ok('getSiteById', { params: unlisted })).ads).toEqual({ status: 'pending', submittable: false });
    const gen = h.store.read().gen;
    await h.admin.fails('updateSiteAdsById', { params: unlisted, body: { status: 'in-review', topic: 'webdev' } }, 409, /visibility is unlisted; ads need a public site/);
    await h.admin.fails('updateSiteAdsById', { params: unlisted, body: { topic: 'sports' } }, 400, /topic/);
    expect(h.store.read().gen).toBe(gen);

    const site = await publishedSite('Docs');
    const reader = await h.member('rita@acme.test', 'read');
    await h.fails(reader, 'updateSiteAdsById', { params: site, body: { status: 'in-review', topic: 'webdev' } }, 403);
    await h.admin.ok('updateSiteAdsById', { params: site, body: { status: 'in-review', topic: 'webdev' } }, 204);
    // Asking again for the state it is in changes nothing (no commit).
    const after = h.store.read().gen;
    await h.admin.ok('updateSiteAdsById', { params: site, body: { status: 'in-review', topic: 'webdev' } }, 204);
    expect(h.store.read().gen).toBe(after);
  });

  it("pages the partner's list across organizations, each site with its organization's first admin", async () => {
    const { h, partner, publishedSite } = await programme();
    const other = await h.createOrg('Beta', { [h.adminId]: 'admin' });
    const sites = [await publishedSite('One'), await publishedSite('Two'), await publishedSite('Three', {}, other)];
    for (const site of sites) await h.admin.ok('updateSiteAdsById', { params: site, body: { status: 'in-review', topic: 'crypto' } }, 204);

    const first = (await partner('adsListSites', { query: { limit: 2 } })).body as { items: Array<{ id: string; email: string }>; next?: { page: string }; count: number };
    expect(first.items).toHaveLength(2);
    expect(first.count).toBe(3);
    const second = (await partner('adsListSites', { query: { limit: 2, page: first.next?.page } })).body as { items: Array<{ id: string; email: string }>; next?: unknown };
    expect(second.next).toBeUndefined();
    const all = [...first.items, ...second.items];
    expect(all.map((item) => item.id).sort()).toEqual(sites.map((site) => site.siteId).sort());
    expect(new Set(all.map((item) => item.email))).toEqual(new Set(['ada@acme.test']));

    // Without the key, or with another: nothing listed, nothing changed.
    await expect(partner('adsListSites', {}, '')).rejects.toMatchObject({ status: 401 });
    const gen = h.store.read().gen;
    await expect(partner('adsUpdateSite', { params: { siteId: sites[0]?.siteId ?? '' }, body: { status: 'pending' } }, 'x'.repeat(20))).rejects.toMatchObject({ status: 403 });
    expect(h.store.read().gen).toBe(gen);
  });
});
