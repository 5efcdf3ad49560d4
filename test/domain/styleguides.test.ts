/**
 * Style guides' rows (src/domain/sites/styleguide-records.ts) through executeOperation: a style
 * guide purged for good or transferred to another organization leaves its sites (the site
 * record and the index) and its organization's list; a style guide is a few rows, whatever the
 * organization holds; a duplicated style guide is a regular space.
 */
import { describe, expect, it } from 'vitest';
import { orgStyleguides, styleguideSites } from '../../src/domain/sites/styleguide-records.js';
import { DAY, type Obj, setup } from './harness.js';

async function withStyleguide(template?: string) {
  const h = await setup();
  const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs' } }, 201);
  const siteParams = { params: { organizationId: h.orgId, siteId: site.id } };
  const guide = await h.admin.ok('createSiteStyleguideById', { ...siteParams, body: template === undefined ? {} : { template } }, 200);
  return { h, site, siteParams, guide };
}

const siteRecord = (h: Awaited<ReturnType<typeof setup>>, id: string) => h.store.read().get<{ styleguide?: string }>('sites', id);

describe('style guide rows', () => {
  it('records the space as a style guide of its organization, named by its site', async () => {
    const { h, site, guide } = await withStyleguide('plain-language');
    const reader = h.store.read();
    expect(reader.get<{ type?: string }>('spaces', guide.id)?.type).toBe('styleguide');
    expect(orgStyleguides.all(reader, h.orgId).map((entry) => entry.id)).toEqual([guide.id]);
    expect(styleguideSites.all(reader, guide.id).map((entry) => entry.id)).toEqual([site.id]);
    expect(siteRecord(h, site.id)?.styleguide).toBe(guide.id);
  });

  it('a purged style guide leaves its site and its organization', async () => {
    const { h, site, siteParams, guide } = await withStyleguide();
    await h.admin.ok('deleteSpaceById', { params: { spaceId: guide.id } });
    // Soft-deleted: still linked (a restore brings it back), hidden from the site's view.
    expect(siteRecord(h, site.id)?.styleguide).toBe(guide.id);
    expect((await h.admin.ok('getSiteById', siteParams)).styleguide).toBeUndefined();
    h.clock.advance(7 * DAY + 1);
    await h.createSpace({ title: 'a later write purges it' });
    const reader = h.store.read();
    expect(reader.get('spaces', guide.id)).toBeUndefined();
    expect(siteRecord(h, site.id)?.styleguide).toBeUndefined();
    expect(styleguideSites.all(reader, guide.id)).toEqual([]);
    expect(orgStyleguides.all(reader, h.orgId)).toEqual([]);
  });

  it('a style guide transferred to another organization leaves its site and is a style guide of the other organization', async () => {
    const { h, site, siteParams, guide } = await withStyleguide();
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const moved = await h.admin.ok('transferSpace', { params: { spaceId: guide.id }, body: { organization: other } });
    expect(moved).toMatchObject({ organization: other, type: 'styleguide' });
    const reader = h.store.read();
    expect(siteRecord(h, site.id)?.styleguide).toBeUndefined();
    expect(styleguideSites.all(reader, guide.id)).toEqual([]);
    expect(orgStyleguides.all(reader, h.orgId)).toEqual([]);
    expect(await h.admin.ok('listOrganizationStyleguides', { params: { organizationId: other } })).toEqual({ styleguides: [{ space: await h.admin.ok('getSpaceById', { params: { spaceId: guide.id } }), sites: [] }] });
    // The site asks again: a new style guide of its own organization.
    const again = await h.admin.ok('createSiteStyleguideById', { ...siteParams, body: {} });
    expect(again.id).not.toBe(guide.id);
    expect(again.organization).toBe(h.orgId);
  });

  it('a deleted site leaves the index; its style guide stays', async () => {
    const { h, site, guide } = await withStyleguide();
    await h.admin.ok('deleteSiteById', { params: { organizationId: h.orgId, siteId: site.id } });
    const reader = h.store.read();
    expect(styleguideSites.all(reader, guide.id)).toEqual([]);
    expect(orgStyleguides.all(reader, h.orgId).map((entry) => entry.id)).toEqual([guide.id]);
  });

  it('a duplicate of a style guide is a regular space', async () => {
    const { h, guide } = await withStyleguide('api-reference');
    const copy = await h.admin.ok<Obj>('duplicateSpace', { params: { spaceId: guide.id } }, 201);
    expect(copy.type).toBeUndefined();
    expect(orgStyleguides.all(h.store.read(), h.orgId).map((entry) => entry.id)).toEqual([guide.id]);
  });

  it('making a style guide writes the same few rows whatever the organization holds', async () => {
    const h = await setup();
    const rowsWritten = async () => {
      const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs' } }, 201);
      const before = h.store.read();
      await h.admin.ok('createSiteStyleguideById', { params: { organizationId: h.orgId, siteId: site.id }, body: {} }, 200);
      const after = h.store.read();
      let changed = 0;
      for (const table of ['orgStyleguides', 'styleguideSites', 'sites']) {
        const rows = new Map(after.scan(table, {}).map(([key, value]) => [key, JSON.stringify(value)]));
        for (const [key, value] of before.scan(table, {})) if (rows.get(key) === JSON.stringify(value)) rows.delete(key);
        changed += rows.size;
      }
      return changed;
    };
    const first = await rowsWritten();
    for (let i = 0; i < 20; i += 1) await rowsWritten();
    expect(await rowsWritten()).toBe(first);
  });
});
