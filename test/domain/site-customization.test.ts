/**
 * Site customization: defaults for a site never customized, a PUT checked against
 * the real shape and stored as sent, a site space's overrides merged group by group
 * (null resets one), removed by DELETE, and gone with the site space and the site.
 * Through `executeOperation` on a MemoryStore, answers checked against the real schemas.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- customization settings are deep JSON that the assertions read and change freely */
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CUSTOMIZATIONS as DEFAULT_CUSTOMIZATION } from '../../src/domain/sites/published.js';
import { SiteTables } from '../../src/domain/sites/site-records.js';
import { type Harness, type List, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

let h: Harness;
let site: { organizationId: string; siteId: string };
let variant: { organizationId: string; siteId: string; siteSpaceId: string };

beforeEach(async () => {
  h = await setup();
  const guide = await h.createSpace({ title: 'Guide' });
  const guide2 = await h.createSpace({ title: 'Guide v2' });
  const created = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Help', type: 'ultimate', spaces: [guide.id] } }, 201);
  site = { organizationId: h.orgId, siteId: created.id };
  const sections = await h.admin.ok<List>('listSiteSections', { params: site });
  const added = await h.admin.ok('addSpaceToSite', { params: site, body: { spaceId: guide2.id, sectionId: sections.items[0]?.id } }, 201);
  variant = { ...site, siteSpaceId: added.id };
});

/** A complete settings body: the defaults with a few choices of our own. */
const look = (): Record<string, unknown> => ({
  ...structuredClone(DEFAULT_CUSTOMIZATION),
  title: 'Acme Help',
  styling: { ...(DEFAULT_CUSTOMIZATION.styling as object), theme: 'bold', primaryColor: { light: '#ff0066', dark: '#ff3385' } },
  header: { preset: 'default', links: [{ title: 'Status', to: { kind: 'url', url: 'https://status.acme.test' }, links: [] }] },
  favicon: { emoji: '📘' },
});

describe('site customization', () => {
  it('answers complete defaults for a site never customized', async () => {
    const settings = await h.admin.ok('getSiteCustomizationById', { params: site });
    expect(settings).toEqual(DEFAULT_CUSTOMIZATION);
    expect(schemaErrors('SiteCustomizationSettings', settings)).toEqual([]);
    const shown = await h.admin.ok('getSiteSpaceCustomizationById', { params: variant });
    expect(shown).toEqual({ ...DEFAULT_CUSTOMIZATION, hasOverrides: false });
    expect(schemaErrors('SiteSpaceCustomizationSettings', shown)).toEqual([]);
  });

  it('stores a PUT as sent and answers it back', async () => {
    const body = look();
    const saved = await h.admin.ok('updateSiteCustomizationById', { params: site, body });
    expect(saved).toEqual(body);
    expect(schemaErrors('SiteCustomizationSettings', saved)).toEqual([]);
    expect(await h.admin.ok('getSiteCustomizationById', { params: site, query: { unmasked: 'true' } })).toEqual(body);
    // Site spaces without overrides show the site's settings.
    expect(await h.admin.ok('getSiteSpaceCustomizationById', { params: variant })).toEqual({ ...body, hasOverrides: false });
  });

  it('refuses what the real shape refuses, naming the place, and writes nothing', async () => {
    const gen = h.store.read().gen;
    const bad = (change: (body: Record<string, any>) => void) => {
      const body = look();
      change(body);
      return { params: site, body };
    };
    await h.admin.fails('updateSiteCustomizationById', bad((b) => ((b.styling as Record<string, unknown>).primaryColor = { light: 'red', dark: '#000' })), 400, /styling\.primaryColor\.light must match pattern/);
    await h.admin.fails('updateSiteCustomizationById', bad((b) => ((b.styling as Record<string, unknown>).theme = 'neon')), 400, /styling\.theme must be equal to one of the allowed values \("clean", "muted", "bold", "gradient"\)/);
    await h.admin.fails('updateSiteCustomizationById', bad((b) => ((b.header as Record<string, unknown>).links = [{ title: 'x', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] }])), 400, /Invalid customization settings: header\.links\.0\.to\.url must be an absolute http\(s\) or mailto URL, or a path starting with \//);
    await h.admin.fails('updateSiteCustomizationById', bad((b) => (b.privacyPolicy = { url: 'javascript:alert(1)' })), 400, /privacyPolicy\.url must match format "uri" \(an absolute http\(s\) or mailto URL\)/);
    await h.admin.fails('updateSiteCustomizationById', bad((b) => delete (b as Record<string, unknown>).socialAccounts), 400, /socialAccounts/);
    await h.admin.fails('updateSiteCustomizationById', bad((b) => (b.title = 'A')), 400, /title/);
    expect(h.store.read().gen).toBe(gen);
  });

  it('merges a site space override group by group; null resets one; DELETE removes them', async () => {
    await h.admin.ok('updateSiteCustomizationById', { params: site, body: look() });
    const first = await h.admin.ok<Record<string, any>>('overrideSiteSpaceCustomizationById', {
      params: variant,
      body: { title: 'Help v2', styling: { theme: 'gradient', sidebar: { list: 'pill' } }, feedback: { enabled: true } },
    });
    expect(schemaErrors('SiteSpaceCustomizationSettings', first)).toEqual([]);
    expect(first).toMatchObject({ hasOverrides: true, title: 'Help v2', feedback: { enabled: true } });
    expect(first.styling).toMatchObject({ theme: 'gradient', primaryColor: { light: '#ff0066', dark: '#ff3385' }, sidebar: { background: 'default', list: 'pill' } });

    // A second override adds to the first; null puts the site's value back.
    const second = await h.admin.ok<Record<string, any>>('overrideSiteSpaceCustomizationById', {
      params: variant,
      body: { styling: { theme: null, primaryColor: { light: '#111111', dark: '#eeeeee' } }, favicon: null },
    });
    expect(second.styling).toMatchObject({ theme: 'bold', primaryColor: { light: '#111111', dark: '#eeeeee' }, sidebar: { list: 'pill' } });
    expect(second.favicon).toEqual({ emoji: '📘' });
    expect(second.title).toBe('Help v2');
    expect(h.store.read().get(SiteTables.siteSpaceCustomizations, variant.siteSpaceId)).toEqual({
      title: 'Help v2',
      styling: { sidebar: { list: 'pill' }, primaryColor: { light: '#111111', dark: '#eeeeee' } },
      feedback: { enabled: true },
    });
    expect(await h.admin.ok('getSiteSpaceCustomizationById', { params: variant })).toEqual(second);
    // The site's own settings are untouched.
    expect((await h.admin.ok<Record<string, any>>('getSiteCustomizationById', { params: site })).styling.theme).toBe('bold');

    // Resetting every override one by one leaves none.
    const cleared = await h.admin.ok('overrideSiteSpaceCustomizationById', {
      params: variant,
      body: { title: null, styling: { primaryColor: null, sidebar: { list: null } }, feedback: { enabled: null } },
    });
    expect(cleared).toEqual({ ...look(), hasOverrides: false });
    expect(h.store.read().get(SiteTables.siteSpaceCustomizations, variant.siteSpaceId)).toBeUndefined();

    await h.admin.ok('overrideSiteSpaceCustomizationById', { params: variant, body: { themes: { default: 'dark' } } });
    expect((await h.admin.call('deleteSiteSpaceCustomizationById', { params: variant })).status).toBe(205);
    expect((await h.admin.call('deleteSiteSpaceCustomizationById', { params: variant })).status).toBe(204);
    expect(await h.admin.ok('getSiteSpaceCustomizationById', { params: variant })).toEqual({ ...look(), hasOverrides: false });
  });

  it('checks an override against the real shape', async () => {
    await h.admin.fails('overrideSiteSpaceCustomizationById', { params: variant, body: { styling: { corners: 'wavy' } } }, 400, /styling\.corners/);
    await h.admin.fails('overrideSiteSpaceCustomizationById', { params: variant, body: { socialPreview: { url: 'file:///etc/passwd' } } }, 400, /socialPreview\.url/);
    await h.admin.fails('overrideSiteSpaceCustomizationById', { params: variant, body: { title: 'x' } }, 400, /title/);
  });

  it('names what is missing; DELETE of what is absent is 204', async () => {
    await h.admin.fails('getSiteCustomizationById', { params: { ...site, siteId: 'nope' } }, 404, /nope/);
    await h.admin.fails('getSiteSpaceCustomizationById', { params: { ...variant, siteSpaceId: 'nope' } }, 404, /Site space nope not found in site/);
    await h.admin.fails('overrideSiteSpaceCustomizationById', { params: { ...variant, siteSpaceId: 'a/b' }, body: { feedback: { enabled: true } } }, 404, /Site space a\/b not found/);
    expect((await h.admin.call('deleteSiteSpaceCustomizationById', { params: { ...variant, siteSpaceId: 'nope' } })).status).toBe(204);
  });

  it('lets readers read and only admins change', async () => {
    const editor = await h.member('ed@acme.test', 'create');
    expect(await h.ok(editor, 'getSiteCustomizationById', { params: site })).toEqual(DEFAULT_CUSTOMIZATION);
    await h.fails(editor, 'updateSiteCustomizationById', { params: site, body: look() }, 403, /"admin" role/);
    await h.fails(editor, 'overrideSiteSpaceCustomizationById', { params: variant, body: { feedback: { enabled: true } } }, 403, /"admin" role/);
  });

  it('shows in the published view: the site\'s settings, and each site space with overrides', async () => {
    await h.admin.ok('publishSite', { params: site });
    const before = await h.admin.ok<Record<string, any>>('getPublishedContentSite', { params: site });
    expect(before.customizations).toEqual({ site: { title: 'Help', ...DEFAULT_CUSTOMIZATION }, siteSpaces: {} });
    await h.admin.ok('updateSiteCustomizationById', { params: site, body: look() });
    await h.admin.ok('overrideSiteSpaceCustomizationById', { params: variant, body: { styling: { theme: 'gradient' } } });
    const published = await h.admin.ok<Record<string, any>>('getPublishedContentSite', { params: site });
    expect(schemaErrors('PublishedContentSite', published)).toEqual([]);
    expect(published.customizations.site).toEqual(look());
    expect(Object.keys(published.customizations.siteSpaces)).toEqual([variant.siteSpaceId]);
    expect(published.customizations.siteSpaces[variant.siteSpaceId]).toEqual({ ...look(), styling: { ...(look().styling as object), theme: 'gradient' } });
  });

  it('goes with the site space and the site', async () => {
    await h.admin.ok('updateSiteCustomizationById', { params: site, body: look() });
    await h.admin.ok('overrideSiteSpaceCustomizationById', { params: variant, body: { feedback: { enabled: true } } });
    expect((await h.admin.call('deleteSiteSpaceById', { params: variant })).status).toBe(205);
    expect(h.store.read().get(SiteTables.siteSpaceCustomizations, variant.siteSpaceId)).toBeUndefined();
    expect((await h.admin.call('deleteSiteById', { params: site })).status).toBe(205);
    expect(h.store.read().get(SiteTables.customizations, site.siteId)).toBeUndefined();
  });
});
