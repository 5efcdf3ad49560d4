/**
 * The official GitBook client against `docsctl serve` for writing style guides: the built-in
 * templates, a site's style guide made from one (a space of type `styleguide` whose page is the
 * template's Markdown; asked again: the same space), the organization's style guides with the
 * sites naming them, one attached to another site (`updateSiteById`'s `styleguide`), a site's runs
 * (an empty list: runs need GitBook's agent), and what deleting the space or the site leaves;
 * every answer checked against the 0.202 schemas.
 */
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, clientOperation, compileValidators, memberClient, refusalOf, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let adminToken: string;

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);

beforeAll(async () => {
  compileValidators([
    ['listStyleguideTemplates', 200],
    ['createSiteStyleguideById', 200],
    ['listOrganizationStyleguides', 200],
    ['listSiteStyleguideRuns', 200],
    ['createSite', 201],
    ['getSiteById', 200],
    ['getSpaceById', 200],
    ['listSpacesInOrganizationById', 200],
    ['listPages', 200],
    ['getPageById', 200],
    ['updateSiteById', 200],
  ]);
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
  adminToken = served.boot.token;
});

afterAll(() => server?.close());

describe('the official GitBook client: style guides', () => {
  it('lists the built-in templates with their Markdown', async () => {
    const { templates } = await call('listStyleguideTemplates', 200, org);
    expect(templates.map((template: { id: string }) => template.id)).toEqual(['technical-writing', 'api-reference', 'plain-language']);
    for (const template of templates) {
      expect(template).toEqual({ id: expect.any(String), title: expect.any(String), subtitle: expect.any(String), emoji: expect.any(String), markdown: expect.stringMatching(/^# .+ style guide\n/) });
      expect(template.markdown.match(/^## /gm)?.length).toBeGreaterThanOrEqual(4);
    }
    expect(templates[0].markdown).toContain('## Voice and tone');
    expect(await refusalOf(api, 'listStyleguideTemplates', 'a/b')).toMatchObject({ code: 404 });
  });

  it("makes a site's style guide from a template, once; lists it with its site; runs are an empty list", async () => {
    const site = await call('createSite', 201, org, { title: 'Docs' });
    expect(await call('listOrganizationStyleguides', 200, org)).toEqual({ styleguides: [] });
    const made = await call('createSiteStyleguideById', 200, org, site.id, { template: 'technical-writing' });
    expect(made).toMatchObject({ object: 'space', type: 'styleguide', title: 'Docs style guide', organization: org, visibility: 'private' });
    // Seeded: one page, the template's Markdown.
    const { pages } = await call('listPages', 200, made.id);
    expect(pages.map((page: { title: string }) => page.title)).toEqual(['Technical writing style guide']);
    const page = await call('getPageById', 200, made.id, pages[0].id, { format: 'markdown' });
    expect(page.markdown).toContain('## Voice and tone');
    expect(page.markdown).toContain('Use sentence case');
    // Again (another template or none): the same space, nothing new.
    expect(await call('createSiteStyleguideById', 200, org, site.id, { template: 'plain-language' })).toEqual(made);
    expect(await call('createSiteStyleguideById', 200, org, site.id)).toEqual(made);
    expect((await call('getSiteById', 200, org, site.id)).styleguide).toEqual({ kind: 'space', space: made.id });
    expect(await call('getSpaceById', 200, made.id)).toEqual(made);
    const listed = await call('listOrganizationStyleguides', 200, org);
    expect(listed.styleguides).toHaveLength(1);
    expect(listed.styleguides[0].space).toEqual(made);
    expect(listed.styleguides[0].sites.map((s: { id: string; styleguide: unknown }) => [s.id, s.styleguide])).toEqual([[site.id, { kind: 'space', space: made.id }]]);
    expect(await call('listSiteStyleguideRuns', 200, org, site.id)).toMatchObject({ items: [] });
    // A blank one for another site: no pages; a regular space has no type.
    const other = await call('createSite', 201, org, { title: 'Blog' });
    const blank = await call('createSiteStyleguideById', 200, org, other.id);
    expect(blank).toMatchObject({ type: 'styleguide', title: 'Blog style guide' });
    expect((await call('listPages', 200, blank.id)).pages).toEqual([]);
    const spaces = (await call('listSpacesInOrganizationById', 200, org)).items as Array<{ id: string; type?: string }>;
    expect(spaces.filter((space) => space.type === 'styleguide').map((space) => space.id).sort()).toEqual([made.id, blank.id].sort());
    const regular = (await clientOperation(api, 'createSpace')(org, { title: 'Handbook' })).data as { id: string };
    expect((await call('getSpaceById', 200, regular.id)).type).toBeUndefined();
  });

  it('refuses an unknown template (400 naming the field and the ids) and an unknown site (404)', async () => {
    const site = await call('createSite', 201, org, { title: 'Refusals' });
    const refused = await refusalOf(api, 'createSiteStyleguideById', org, site.id, { template: 'nope' });
    expect(refused.code).toBe(400);
    expect(refused.message).toMatch(/template/);
    expect(refused.message).toMatch(/technical-writing.*api-reference.*plain-language/);
    expect((await call('getSiteById', 200, org, site.id)).styleguide).toBeUndefined();
    expect(await refusalOf(api, 'createSiteStyleguideById', org, 'n0s1te', {})).toMatchObject({ code: 404 });
    expect(await refusalOf(api, 'listSiteStyleguideRuns', org, 'n0s1te')).toMatchObject({ code: 404 });
    expect(await refusalOf(api, 'createSiteStyleguideById', 'a/b', site.id, {})).toMatchObject({ code: 404 });
  });

  it('a reader lists style guides and runs but may not make one (403)', async () => {
    const rea = await memberClient(server, adminToken, org, { email: 'rea@example.com', displayName: 'Rea', role: 'read' });
    const site = await call('createSite', 201, org, { title: 'Readers' });
    expect(await refusalOf(rea, 'createSiteStyleguideById', org, site.id, {})).toMatchObject({ code: 403 });
    expect((await checkedCall(rea, 'listOrganizationStyleguides', 200, org)).styleguides.length).toBeGreaterThan(0);
    expect(await checkedCall(rea, 'listSiteStyleguideRuns', 200, org, site.id)).toMatchObject({ items: [] });
  });

  it('updateSiteById attaches a style guide of the organization to another site (null detaches it)', async () => {
    const docs = await call('createSite', 201, org, { title: 'Shared docs' });
    const blog = await call('createSite', 201, org, { title: 'Shared blog' });
    const guide = await call('createSiteStyleguideById', 200, org, docs.id, { template: 'plain-language' });
    expect((await call('updateSiteById', 200, org, blog.id, { styleguide: guide.id })).styleguide).toEqual({ kind: 'space', space: guide.id });
    const entry = async () => (await call('listOrganizationStyleguides', 200, org)).styleguides.find((e: { space: { id: string } }) => e.space.id === guide.id);
    expect((await entry()).sites.map((site: { id: string }) => site.id).sort()).toEqual([docs.id, blog.id].sort());
    // Asking for the blog's style guide now answers the shared one.
    expect((await call('createSiteStyleguideById', 200, org, blog.id)).id).toBe(guide.id);
    expect((await call('updateSiteById', 200, org, blog.id, { styleguide: null })).styleguide).toBeUndefined();
    expect((await entry()).sites.map((site: { id: string }) => site.id)).toEqual([docs.id]);
    // Only a style guide of the organization.
    const regular = (await clientOperation(api, 'createSpace')(org, { title: 'Plain space' })).data as { id: string };
    expect(await refusalOf(api, 'updateSiteById', org, blog.id, { styleguide: regular.id })).toMatchObject({ code: 400, message: expect.stringMatching(/is not a style guide/) });
    expect(await refusalOf(api, 'updateSiteById', org, blog.id, { styleguide: 'n0sp4ce' })).toMatchObject({ code: 404 });
    expect((await call('getSiteById', 200, org, blog.id)).styleguide).toBeUndefined();
  });

  it('deleting the style guide hides it (a new one may be made); deleting the site unlinks it', async () => {
    const site = await call('createSite', 201, org, { title: 'Guide' });
    const first = await call('createSiteStyleguideById', 200, org, site.id, { template: 'api-reference' });
    expect((await clientOperation(api, 'deleteSpaceById')(first.id)).status).toBe(205);
    expect((await call('getSiteById', 200, org, site.id)).styleguide).toBeUndefined();
    const ids = async () => (await call('listOrganizationStyleguides', 200, org)).styleguides.map((entry: { space: { id: string } }) => entry.space.id);
    expect(await ids()).not.toContain(first.id);
    const second = await call('createSiteStyleguideById', 200, org, site.id);
    expect(second.id).not.toBe(first.id);
    expect((await call('getSiteById', 200, org, site.id)).styleguide).toEqual({ kind: 'space', space: second.id });
    // Restored, the first is a style guide again, named by no site.
    expect((await clientOperation(api, 'restoreSpace')(first.id)).status).toBe(200);
    const restored = (await call('listOrganizationStyleguides', 200, org)).styleguides.find((entry: { space: { id: string } }) => entry.space.id === first.id);
    expect(restored).toMatchObject({ space: { id: first.id, type: 'styleguide' }, sites: [] });
    // The site deleted: its style guide stays, naming no site.
    expect((await clientOperation(api, 'deleteSiteById')(org, site.id)).status).toBe(205);
    const kept = (await call('listOrganizationStyleguides', 200, org)).styleguides.find((entry: { space: { id: string } }) => entry.space.id === second.id);
    expect(kept).toMatchObject({ space: { id: second.id, type: 'styleguide' }, sites: [] });
  });
});
