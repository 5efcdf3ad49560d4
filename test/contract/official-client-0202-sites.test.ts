/**
 * The official GitBook client of 0.202 against `docsctl serve` for what 0.202 added to
 * sites: drafts of sections, section groups and site spaces (left out of the published
 * site until made live) and the redirect flags (draft, captureWildcard, permanent) with
 * the `draft` and `orderBy` list parameters; and the last request fields of sites and
 * organizations (issue 24's ledger): a section or site space on a new space made from a
 * template or empty (`spaceId: null`, `template`, `title`), the page it opens on (`pageId`),
 * a variant's own title, per-language section and group titles, a site's `defaultLevel`, and
 * a new organization's default site shaped by `onboardingPreferences` (the client sends
 * `withDefaultSite` in the query). Every 2xx answer is checked against 0.202's
 * response schema for its operation, and its values asserted.
 */
import { type GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, clientOperation, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;

/** Calls the client's operation, expects `status`, and checks the answer against 0.202's schema for it. */
const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);

beforeAll(async () => {
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
});

afterAll(() => server?.close());

describe('the official GitBook client 0.202: drafts and redirect flags', () => {
  it('creates draft sections, groups and variants, which the published site leaves out until they are live', async () => {
    const space = async (title: string) => (await call('createSpace', 201, org, { title })).id as string;
    const [guide, api2, blog, v2] = [await space('Guide'), await space('API'), await space('Blog'), await space('Guide v2')];
    const site = await call('createSite', 201, org, { title: 'Docs', type: 'ultimate', spaces: [guide] });
    await call('publishSite', 200, org, site.id);
    const section = await call('addSectionToSite', 201, org, site.id, { spaceId: api2, title: 'API', draft: true });
    expect(section).toMatchObject({ draft: true, urls: {} });
    const blogSection = await call('addSectionToSite', 201, org, site.id, { spaceId: blog, title: 'Blog' });
    expect(blogSection).toMatchObject({ draft: false, urls: { published: expect.stringMatching(/\/blog\/$/) } });
    const group = await call('addSectionGroupToSite', 201, org, site.id, { title: 'More', sections: [blogSection.id], draft: true });
    expect(group.draft).toBe(true);
    const guideSection = (await call('listSiteSections', 200, org, site.id)).items.find((s: { title: string }) => s.title === 'Guide');
    const variant = await call('addSpaceToSite', 201, org, site.id, { spaceId: v2, sectionId: guideSection.id, draft: true });
    expect(variant).toMatchObject({ draft: true, urls: {} });

    let published = await call('getPublishedContentSite', 200, org, site.id);
    expect(published.structure.structure.map((item: { id: string }) => item.id)).toEqual([guideSection.id]);
    expect(published.structure.structure[0].siteSpaces.map((s: { id: string }) => s.id)).not.toContain(variant.id);
    // The editors' structure still shows them, as drafts.
    const structure = await call('getSiteStructure', 200, org, site.id);
    expect(structure.structure.map((item: { id: string; draft: boolean }) => [item.id, item.draft])).toEqual([[guideSection.id, false], [section.id, true], [group.id, true]]);

    expect(await call('updateSiteSectionById', 200, org, site.id, section.id, { draft: false })).toMatchObject({ draft: false, urls: { published: expect.any(String) } });
    expect((await call('updateSiteSectionGroupById', 200, org, site.id, group.id, { draft: false })).draft).toBe(false);
    // Group moves: a section out of its group to the top level and back (null / an id), a group under another.
    expect((await call('updateSiteSectionById', 200, org, site.id, blogSection.id, { siteSectionGroupId: null })).sectionGroup).toBeUndefined();
    expect((await call('updateSiteSectionById', 200, org, site.id, blogSection.id, { siteSectionGroupId: group.id })).sectionGroup).toBe(group.id);
    const inner = await call('addSectionGroupToSite', 201, org, site.id, { title: 'Inner' });
    expect((await call('updateSiteSectionGroupById', 200, org, site.id, inner.id, { parentSectionGroupId: group.id })).sectionGroup).toBe(group.id);
    await expect(clientOperation(api, 'updateSiteSectionGroupById')(org, site.id, group.id, { parentSectionGroupId: inner.id })).rejects.toMatchObject({ code: 400 });
    await call('deleteSiteSectionGroupById', 205, org, site.id, inner.id);
    expect((await call('updateSiteSpaceById', 200, org, site.id, variant.id, { draft: false })).draft).toBe(false);
    // hidden: out of the navigation, still published at its URL; false shows it again.
    expect(await call('updateSiteSpaceById', 200, org, site.id, variant.id, { hidden: true })).toMatchObject({ hidden: true, draft: false, urls: { published: expect.any(String) } });
    expect((await call('updateSiteSpaceById', 200, org, site.id, variant.id, { hidden: false })).hidden).toBe(false);
    published = await call('getPublishedContentSite', 200, org, site.id);
    expect(published.structure.structure.map((item: { id: string }) => item.id)).toEqual([guideSection.id, section.id, group.id]);
  });

  it('keeps draft redirects apart, resolves a wildcard with what it matched, keeps permanent, orders by source', async () => {
    const guide = (await call('createSpace', 201, org, { title: 'Manual' })).id;
    const ref = (await call('createSpace', 201, org, { title: 'Reference' })).id;
    const site = await call('createSite', 201, org, { title: 'Help', type: 'premium', spaces: [guide] });
    const section = await call('addSectionToSite', 201, org, site.id, { spaceId: ref, title: 'API reference' });
    const destination = { kind: 'site-section', siteSectionId: section.id };
    const wildcard = await call('createSiteRedirect', 201, org, site.id, { source: '/v1/*', destination, captureWildcard: true, permanent: true });
    expect(wildcard).toMatchObject({ source: '/v1/*', draft: false, captureWildcard: true, permanent: true });
    const draft = await call('createSiteRedirect', 201, org, site.id, { source: '/beta', destination, draft: true });
    const first = await call('createSiteRedirect', 201, org, site.id, { source: '/a-first', destination });

    expect(await call('listSiteRedirects', 200, org, site.id)).toEqual({ items: [first, wildcard], count: 2 });
    expect(await call('listSiteRedirects', 200, org, site.id, { draft: true })).toEqual({ items: [draft], count: 1 });
    expect((await call('listSiteRedirects', 200, org, site.id, { orderBy: 'source' })).items.map((r: { source: string }) => r.source)).toEqual(['/a-first', '/v1/*']);

    const resolved = await call('getSiteRedirectBySource', 200, org, site.id, { source: '/v1/users/list' });
    expect(resolved).toEqual({ redirect: wildcard, target: `https://${org}.gitbook.io/help/api-reference/users/list` });
    const notLive = await clientOperation(api, 'getSiteRedirectBySource')(org, site.id, { source: '/beta' }).catch((error: unknown) => error);
    expect(notLive).toBeInstanceOf(GitBookAPIError);
    expect((notLive as GitBookAPIError).code).toBe(404);

    const live = await call('updateSiteRedirectById', 200, org, site.id, draft.id, { draft: false });
    expect(live).toMatchObject({ id: draft.id, draft: false });
    expect((await call('getSiteRedirectBySource', 200, org, site.id, { source: '/beta' })).redirect.id).toBe(draft.id);
  });

  it('answers Prefer: return=minimal with a 204 where 0.202 takes the prefer header; the change is made', async () => {
    const guide = (await call('createSpace', 201, org, { title: 'Prefer' })).id;
    const other = (await call('createSpace', 201, org, { title: 'Prefer too' })).id;
    const site = await call('createSite', 201, org, { title: 'Minimal', type: 'ultimate', spaces: [guide] });
    const section = await call('addSectionToSite', 201, org, site.id, { spaceId: other, title: 'Other' });
    // The client parses every answer as JSON unless told not to: a 204 has no body to parse.
    const minimal = { headers: { Prefer: 'return=minimal' }, format: undefined };
    const updated = await clientOperation(api, 'updateSiteSectionById')(org, site.id, section.id, { title: 'Renamed' }, minimal);
    expect(updated.status).toBe(204);
    const added = await clientOperation(api, 'addSpaceToSite')(org, site.id, { spaceId: guide, sectionId: section.id, draft: true }, minimal);
    expect(added.status).toBe(204);
    const listed = await call('listSiteSections', 200, org, site.id);
    const renamed = listed.items.find((s: { id: string }) => s.id === section.id);
    expect(renamed).toMatchObject({ title: 'Renamed' });
    expect(renamed.siteSpaces.map((s: { draft: boolean }) => s.draft)).toEqual([false, true]);
    // return=representation, or no preference: the object, as before.
    expect(await call('updateSiteSectionById', 200, org, site.id, section.id, { title: 'Again' }, { headers: { Prefer: 'return=representation' } })).toMatchObject({ title: 'Again' });
  });
});

describe('the official GitBook client 0.202: the last site and organization fields', () => {
  it('adds sections and variants on new spaces, opening on a chosen page, with titles per language', async () => {
    const guide = (await call('createSpace', 201, org, { title: 'Guide' })).id as string;
    const site = await call('createSite', 201, org, { title: 'Docs', type: 'ultimate', spaces: [guide] });
    const section = await call('addSectionToSite', 201, org, site.id, { spaceId: null, template: { id: 'api-reference' }, title: 'API' });
    const apiSpace = section.siteSpaces[0].space.id as string;
    expect(section.siteSpaces[0].space.title).toBe('API');
    const pages = (await call('listPages', 200, apiSpace)).pages as Array<{ id: string; title: string }>;
    expect(pages.map((p) => p.title)).toEqual(['API reference', 'Authentication', 'Errors', 'Changelog']);
    await expect(clientOperation(api, 'addSectionToSite')(org, site.id, { spaceId: null, pageId: pages[0]?.id, title: 'Other' })).rejects.toMatchObject({ code: 400 });

    const errors = pages.find((p) => p.title === 'Errors')?.id as string;
    const reference = await call('addSectionToSite', 201, org, site.id, { spaceId: apiSpace, title: 'Reference', pageId: errors });
    expect(reference.siteSpaces[0].pageId).toBe(errors);

    const variant = await call('addSpaceToSite', 201, org, site.id, { spaceId: null, sectionId: section.id, title: 'Release notes' });
    expect(variant).toMatchObject({ title: 'Release notes', space: { title: 'Release notes' } });
    const titled = await call('addSpaceToSite', 201, org, site.id, { spaceId: guide, sectionId: section.id, title: 'The guide' });
    expect(titled).toMatchObject({ title: 'The guide', space: { id: guide, title: 'Guide' } });
    const first = (await call('listPages', 200, guide)).pages as Array<{ id: string }>;
    expect(first).toEqual([]);
    await expect(clientOperation(api, 'updateSiteSpaceById')(org, site.id, titled.id, { pageId: errors })).rejects.toMatchObject({ code: 400 });
    expect((await call('updateSiteSpaceById', 200, org, site.id, reference.siteSpaces[0].id, { pageId: null })).pageId).toBeUndefined();

    const localized = await call('updateSiteSectionById', 200, org, site.id, section.id, { localizedTitle: { fr: 'Référence' }, localizedDescription: { de: 'Alles' } });
    expect(localized).toMatchObject({ localizedTitle: { fr: 'Référence' }, localizedDescription: { de: 'Alles' } });
    const group = await call('addSectionGroupToSite', 201, org, site.id, { title: 'More' });
    expect((await call('updateSiteSectionGroupById', 200, org, site.id, group.id, { localizedTitle: { es: 'Más' } })).localizedTitle).toEqual({ es: 'Más' });
    await call('publishSite', 200, org, site.id);
    const published = await call('getPublishedContentSite', 200, org, site.id);
    expect(published.structure.structure.find((s: { id: string }) => s.id === section.id).localizedTitle).toEqual({ fr: 'Référence' });
  });

  it("sets a site's default level, and makes a new organization's default site from its onboarding preferences", async () => {
    const space = (await call('createSpace', 201, org, { title: 'Levels' })).id as string;
    const site = await call('createSite', 201, org, { title: 'Levels', spaces: [space] });
    expect(site.defaultLevel).toBe('inherit');
    expect((await call('updateSiteById', 200, org, site.id, { defaultLevel: 'read' })).defaultLevel).toBe('read');
    expect((await call('getSiteById', 200, org, site.id)).defaultLevel).toBe('read');
    expect((await call('updateSiteById', 200, org, site.id, { defaultLevel: null })).defaultLevel).toBeNull();

    const created = await call('createOrganization', 201, { title: 'Onboarded', onboardingPreferences: { source: 'template', audience: 'protected', interests: ['api-docs'] } }, { withDefaultSite: true });
    const sites = await call('listSites', 200, created.id);
    expect(sites.items).toHaveLength(1);
    expect(sites.items[0]).toMatchObject({ title: 'Onboarded', visibility: 'unlisted', siteSpaces: 1 });
  });
});
