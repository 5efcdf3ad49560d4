/**
 * The official GitBook client 0.202 against `docsctl serve` for what issue 24 §2 added to sites:
 * external links, a duplicated site space, redirects in bulk, site search and its prewarm,
 * visitor authentication and preview URLs, custom hostnames, integration scripts and adaptive
 * template conditions, published URLs resolved back to their content. Every answer is checked against the 0.202 schema (`checkedCall`), values asserted.
 */
import { createHmac } from 'node:crypto';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/api/errors.js';
import { getRoute } from '../../src/api/table.js';
import { ensureUser } from '../../src/domain/core-records.js';
import { executeOperation } from '../../src/domain/execute.js';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, clientOperation, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);
const failure = async (operationId: string, ...args: unknown[]) => {
  const error = await clientOperation(api, operationId)(...args).catch((e: unknown) => e);
  expect(error, operationId).toBeInstanceOf(GitBookAPIError);
  return error as GitBookAPIError;
};
const NO_BODY = { format: undefined };

/** A space whose primary content has one page with `markdown`, merged from a change request. */
async function spaceWith(title: string, markdown: string): Promise<{ id: string }> {
  const space = await call('createSpace', 201, org, { title });
  const cr = await call('createChangeRequest', 201, space.id, { subject: 'Write' });
  await call('updateChangeRequestContent', 200, space.id, cr.id, { changes: [{ operation: 'insert_page', document: { markdown } }] });
  await call('mergeChangeRequest', 200, space.id, cr.id);
  return space;
}

beforeAll(async () => {
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
});

afterAll(() => server?.close());

describe('the official GitBook client 0.202: site structure additions', () => {
  it('adds, updates and deletes external links, shown in the structure where they stand and left out of the published site as drafts', async () => {
    const guide = await call('createSpace', 201, org, { title: 'Guide' });
    const api2 = await call('createSpace', 201, org, { title: 'API' });
    const simple = await call('createSite', 201, org, { title: 'Simple', type: 'ultimate', spaces: [guide.id] });
    expect((await failure('addExternalLinkToSite', org, simple.id, { title: 'Status', url: 'https://status.acme.com' })).code).toBe(400);

    const site = await call('createSite', 201, org, { title: 'Docs', type: 'ultimate', spaces: [guide.id] });
    await call('addSectionToSite', 201, org, site.id, { spaceId: api2.id, title: 'API reference' });
    const group = await call('addSectionGroupToSite', 201, org, site.id, { title: 'More' });
    const link = await call('addExternalLinkToSite', 201, org, site.id, { title: 'Status', url: 'https://status.acme.com', icon: 'signal' });
    expect(link).toEqual({ object: 'site-external-link', id: expect.any(String), title: 'Status', icon: 'signal', url: 'https://status.acme.com/', draft: false });
    const blog = await call('addExternalLinkToSite', 201, org, site.id, { title: 'Blog', url: 'https://acme.com/blog', parent: group.id, draft: true });
    expect(blog).toMatchObject({ sectionGroup: group.id, draft: true });

    const structure = await call('getSiteStructure', 200, org, site.id);
    expect(structure.structure.map((item: { object: string; title: string }) => `${item.object}:${item.title}`)).toEqual([
      'site-section:Guide',
      'site-section:API reference',
      'site-section-group:More',
      'site-external-link:Status',
    ]);
    expect(structure.structure[2].children).toEqual([blog]);

    const moved = await call('updateSiteExternalLinkById', 200, org, site.id, link.id, { parent: group.id, title: 'Service status', icon: null });
    expect(moved).toEqual({ ...link, title: 'Service status', sectionGroup: group.id, icon: undefined });
    await call('publishSite', 200, org, site.id);
    const published = await call('getPublishedContentSite', 200, org, site.id);
    const more = published.structure.structure.find((item: { object: string }) => item.object === 'site-section-group');
    expect(more.children.map((c: { title: string }) => c.title)).toEqual(['Service status']);

    expect((await failure('updateSiteExternalLinkById', org, site.id, link.id, { url: 'https://user:pw@acme.com' })).code).toBe(400);
    expect((await clientOperation(api, 'deleteSiteExternalLinkById')(org, site.id, link.id, NO_BODY)).status).toBe(205);
    expect((await clientOperation(api, 'deleteSiteExternalLinkById')(org, site.id, link.id, NO_BODY)).status).toBe(204);
    // Deleting the group puts its link back at the top level.
    await clientOperation(api, 'deleteSiteSectionGroupById')(org, site.id, group.id, NO_BODY);
    const after = await call('getSiteStructure', 200, org, site.id);
    expect(after.structure.map((item: { id: string }) => item.id)).toContain(blog.id);
    expect(after.structure.find((item: { id: string }) => item.id === blog.id).sectionGroup).toBeUndefined();
  });

  it('duplicates a site space with a copy of its space, and writes redirects in bulk with a result per row', async () => {
    const guide = await spaceWith('Handbook', '# Install\n\nRun the installer.\n');
    const site = await call('createSite', 201, org, { title: 'Handbook site', type: 'ultimate', spaces: [guide.id] });
    const [variant] = (await call('listSiteSpaces', 200, org, site.id)).items;
    const copy = await call('duplicateSiteSpace', 201, org, site.id, variant.id, { draft: true });
    expect(copy).toMatchObject({ object: 'site-space', title: 'Handbook (copy)', path: 'handbook-copy', draft: true, space: { title: 'Handbook (copy)' } });
    expect(copy.space.id).not.toBe(guide.id);
    const pages = await call('listPages', 200, copy.space.id);
    expect(pages.pages.map((p: { title: string }) => p.title)).toContain('Install');

    const results = await call('bulkUpsertSiteRedirects', 200, org, site.id, {
      redirects: [
        { source: '/old', destination: { kind: 'site-space', siteSpaceId: variant.id } },
        { source: '/next', intent: 'draft', destination: { kind: 'site-space', siteSpaceId: copy.id }, permanent: true },
        { source: '/next', intent: 'publish' },
        { source: '/old', destination: { kind: 'site-space', siteSpaceId: copy.id } },
        { source: '/missing', destination: { kind: 'site-space', siteSpaceId: 'nope' } },
        { source: '/never', destination: null },
      ],
    });
    const [created, draft, published, updated, missing, never] = results.results;
    expect(created).toEqual({ status: 'created', source: '/old', draft: false, id: expect.any(String) });
    expect(draft).toEqual({ status: 'created', source: '/next', draft: true, id: expect.any(String) });
    expect(published).toEqual({ status: 'published', source: '/next', draft: false, id: draft.id });
    expect(updated).toEqual({ status: 'updated', source: '/old', draft: false, id: created.id });
    expect(missing).toMatchObject({ status: 'error', source: '/missing', error: expect.stringContaining('nope') });
    expect(never).toMatchObject({ status: 'error', source: '/never' });
    const live = await call('listSiteRedirects', 200, org, site.id, { orderBy: 'source' });
    expect(live.items.map((r: { source: string; permanent: boolean; destination: { siteSpaceId: string } }) => [r.source, r.destination.siteSpaceId, r.permanent])).toEqual([
      ['/next', copy.id, true],
      ['/old', copy.id, false],
    ]);
    expect((await failure('bulkUpsertSiteRedirects', org, site.id, { redirects: [] })).code).toBe(400);
  });
});

describe('the official GitBook client 0.202: search, publishing, hostnames', () => {
  it("searches each section's default variant (or a scope), paged, after a prewarm that indexes the site's spaces", async () => {
    const guide = await spaceWith('Guide', '# Install\n\nInstall with helm upgrade.\n');
    const other = await spaceWith('Other', '# Helm\n\nHelm charts live here.\n');
    const site = await call('createSite', 201, org, { title: 'Searchable', type: 'ultimate', spaces: [guide.id] });
    const [variant] = (await call('listSiteSpaces', 200, org, site.id)).items;
    const second = await call('addSpaceToSite', 201, org, site.id, { spaceId: other.id });
    expect((await clientOperation(api, 'prewarmSiteSearch')(org, site.id, NO_BODY)).status).toBe(204);

    const byDefault = await call('searchSiteContent', 200, org, site.id, { query: 'helm' });
    expect(byDefault.items.map((r: { type: string; id: string }) => [r.type, r.id])).toEqual([['space', guide.id]]);
    expect(byDefault.items[0].pages[0]).toMatchObject({ title: 'Install', path: 'install', rank: 1 });
    const all = await call('searchSiteContent', 200, org, site.id, { query: 'helm', scope: { mode: 'all' } });
    expect(all.items.map((r: { id: string }) => r.id).sort()).toEqual([guide.id, other.id].sort());
    const specific = await call('searchSiteContent', 200, org, site.id, { query: 'helm', scope: { mode: 'specific', siteSpaceIds: [second.id] } });
    expect(specific.items.map((r: { id: string }) => r.id)).toEqual([other.id]);
    const others = await call('searchSiteContent', 200, org, site.id, { query: 'helm', scope: { mode: 'default', currentSiteSpace: variant.id, restrictTo: 'otherSiteSpaces' } });
    expect(others.items).toEqual([]);
    const deprecated = await call('searchSiteContent', 200, org, site.id, { query: 'helm', mode: 'all' });
    expect(deprecated.items).toHaveLength(2);
    const paged = await call('searchSiteContent', 200, org, site.id, { query: 'helm', scope: { mode: 'all' } }, { limit: 1 });
    expect(paged.items).toHaveLength(1);
    expect(paged.next?.page).toEqual(expect.any(String));
    expect((await failure('searchSiteContent', org, site.id, { query: 'helm', scope: { mode: 'specific', siteSpaceIds: ['nope'] } })).code).toBe(404);
  });

  it('sets up visitor authentication, regenerates its key, and answers preview URLs', async () => {
    const site = await call('createSite', 201, org, { title: 'Private', type: 'ultimate' });
    expect((await failure('getSitePublishingAuthById', org, site.id)).code).toBe(400);
    const auth = await call('updateSitePublishingAuthById', 200, org, site.id, { backend: 'custom', fallbackURL: 'https://acme.com/login' });
    expect(auth).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.stringMatching(/^[\w-]{43}$/), fallbackURL: 'https://acme.com/login' });
    expect(await call('getSitePublishingAuthById', 200, org, site.id)).toEqual(auth);
    const regenerated = await call('regenerateSitePublishingAuthById', 200, org, site.id);
    expect(regenerated).toEqual({ ...auth, privateKey: expect.stringMatching(/^[\w-]{43}$/) });
    expect(regenerated.privateKey).not.toBe(auth.privateKey);
    const unset = await call('updateSitePublishingAuthById', 200, org, site.id, { backend: 'custom', fallbackURL: null, logoutURL: 'https://acme.com/logout' });
    expect(unset).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: regenerated.privateKey, logoutURL: 'https://acme.com/logout' });
    expect((await failure('updateSitePublishingAuthById', org, site.id, { backend: 'integration' })).code).toBe(400);

    const preview = await call('getSitePublishingPreviewById', 200, org, site.id, { draft: false, target: '/guide/install' });
    expect(preview.url).toMatch(new RegExp(`/o/${org}/sites/${site.id}/preview\\?target=%2Fguide%2Finstall&draft=false$`));
    expect((await failure('getSitePublishingPreviewById', org, site.id, { target: 'https://elsewhere.example/x' })).code).toBe(400);
  });

  it('reads, revalidates and removes a custom hostname a site took; hostile names are refused', async () => {
    const home = await call('createSpace', 201, org, { title: 'Home' });
    const site = await call('createSite', 201, org, { title: 'Custom', type: 'ultimate', spaces: [home.id] });
    const edited = await call('updateSiteById', 200, org, site.id, { hostname: 'Docs.Acme.com' });
    expect(edited.hostname).toBe('docs.acme.com');
    const inactive = await call('getCustomHostname', 200, 'docs.acme.com');
    expect(inactive).toEqual({ object: 'custom-hostname', hostname: 'docs.acme.com', target: { type: 'site', site: site.id }, isActive: false, urls: { location: expect.stringMatching(/\/v1\/custom-hostnames\/docs\.acme\.com$/) } });
    expect((await failure('dnsRevalidateCustomHostname', 'docs.acme.com')).code).toBe(400);
    await call('publishSite', 200, org, site.id);
    expect(await call('getCustomHostname', 200, 'docs.acme.com')).toMatchObject({ isActive: true, status: 'live' });
    expect((await clientOperation(api, 'dnsRevalidateCustomHostname')('docs.acme.com', NO_BODY)).status).toBe(204);
    expect((await call('getSiteById', 200, org, site.id)).urls.published).toBe('https://docs.acme.com/');

    const other = await call('createSite', 201, org, { title: 'Other', type: 'ultimate' });
    expect((await failure('updateSiteById', org, other.id, { hostname: 'docs.acme.com' })).code).toBe(409);
    for (const hostname of ['10.0.0.12', 'acme.com', 'x.docs.gitbook.io', 'a.b.localhost', 'docs..acme.com', 'docs.acme.com.']) {
      expect((await failure('updateSiteById', org, other.id, { hostname })).code, hostname).toBe(400);
    }
    expect((await clientOperation(api, 'removeCustomHostname')('docs.acme.com', NO_BODY)).status).toBe(205);
    expect((await clientOperation(api, 'removeCustomHostname')('docs.acme.com', NO_BODY)).status).toBe(204);
    expect((await failure('getCustomHostname', 'docs.acme.com')).code).toBe(404);
    expect((await call('updateSiteById', 200, org, other.id, { hostname: 'docs.acme.com' })).hostname).toBe('docs.acme.com');
  });

  it("lists the scripts of integrations installed on a site, and template conditions from its visitor schema", async () => {
    const site = await call('createSite', 201, org, { title: 'Scripts', type: 'ultimate' });
    expect(await call('listSiteIntegrationScripts', 200, org, site.id)).toEqual([]);
    await call('publishIntegration', 200, 'tracker', {
      title: 'Tracker',
      description: 'Counts visits',
      scopes: ['site:script:inject', 'site:script:cookies'],
      script: 'export default {}',
      organization: org,
      contentSecurityPolicy: { 'script-src': 'https://cdn.tracker.example' },
    });
    await call('publishIntegration', 200, 'quiet', { title: 'Quiet', description: 'No script', scopes: ['site:metadata:read'], script: 'export default {}', organization: org });
    for (const name of ['tracker', 'quiet']) {
      const installation = await call('installIntegration', 201, name, { organization: org });
      await call('installIntegrationOnSite', 201, name, installation.id, { siteId: site.id });
    }
    const scripts = await call('listSiteIntegrationScripts', 200, org, site.id);
    expect(scripts).toEqual([{ script: expect.stringMatching(/\/integrations\/tracker\/installations\/[^/]+\/sites\/[^/]+\/script\.js\?v=[0-9a-f]{16}$/), contentSecurityPolicy: 'script-src https://cdn.tracker.example', cookies: true }]);

    // The published content carries them too.
    expect((await call('getPublishedContentSite', 200, org, site.id)).scripts).toEqual(scripts);

    expect(await call('listSiteAdaptiveTemplateConditions', 200, org, site.id)).toEqual({ items: [] });
    await call('updateSiteAdaptiveSchema', 200, org, site.id, {
      jsonSchema: {
        type: 'object',
        properties: {
          isBeta: { type: 'boolean', description: 'Beta tester' },
          plan: { type: 'string', description: 'Plan', enum: ['free', 'pro'] },
        },
        additionalProperties: false,
      },
    });
    expect((await call('listSiteAdaptiveTemplateConditions', 200, org, site.id)).items).toEqual([
      { description: 'Visitors for whom "Beta tester" holds', condition: 'visitor.claims.isBeta' },
      { description: 'Visitors for whom "Beta tester" does not hold', condition: '!visitor.claims.isBeta' },
      { description: 'Plan: free', condition: 'visitor.claims.plan === "free"' },
      { description: 'Plan: pro', condition: 'visitor.claims.plan === "pro"' },
    ]);
  });
});

describe('the official GitBook client 0.202: published URLs', () => {
  it('resolves a published URL (gitbook.io, custom hostname, preview) to site, section, variant and page path; follows redirects; 404 for what is not there', async () => {
    const manual = await spaceWith('Manual', '# Install\n\nRun it.\n');
    const reference = await spaceWith('Reference', '# Auth\n\nTokens.\n');
    const site = await call('createSite', 201, org, { title: 'Manual site', type: 'ultimate', spaces: [manual.id] });
    const section = await call('addSectionToSite', 201, org, site.id, { spaceId: reference.id, title: 'Reference' });
    await call('publishSite', 200, org, site.id);
    const structure = (await call('getSiteStructure', 200, org, site.id)).structure;
    const [home, ref] = structure as Array<{ id: string; siteSpaces: Array<{ id: string }> }>;
    const published: string = (await call('getSiteById', 200, org, site.id)).urls.published;
    expect(published).toBe(`https://${org.toLowerCase()}.gitbook.io/manual-site/`);

    expect(await call('getPublishedContentByUrl', 200, { url: `${published}install` })).toEqual({
      site: site.id,
      siteSection: home?.id,
      siteSpace: home?.siteSpaces[0]?.id,
      space: manual.id,
      pathname: 'install',
      basePath: '/manual-site/',
      siteBasePath: '/manual-site/',
      apiToken: expect.stringMatching(/^gbpub_/),
      organization: org,
      complete: true,
      canonicalUrl: `${published}install`,
    });
    // Its apiToken is a bearer token of the official client that reads that space's content, and nothing else.
    const { apiToken } = await call('getPublishedContentByUrl', 200, { url: `${published}install` });
    const reader = new GitBookAPI({ endpoint: server.url, authToken: apiToken });
    expect((await checkedCall(reader, 'getSpaceById', 200, manual.id)).title).toBe('Manual');
    await expect(clientOperation(reader, 'updateSpaceById')(manual.id, { title: 'Changed' })).rejects.toMatchObject({ code: 403 });
    await expect(clientOperation(reader, 'getSpaceById')(reference.id)).rejects.toMatchObject({ code: 404 });
    expect(await call('getPublishedContentByUrl', 200, { url: `${published}reference/auth` })).toMatchObject({
      siteSection: section.id,
      siteSpace: ref?.siteSpaces[0]?.id,
      space: reference.id,
      pathname: 'auth',
      basePath: '/manual-site/reference/',
    });

    await call('updateSiteById', 200, org, site.id, { hostname: 'manual.acme.com' });
    expect(await call('resolvePublishedContentByUrl', 200, { url: 'https://manual.acme.com/reference/auth' })).toMatchObject({
      space: reference.id,
      pathname: 'auth',
      basePath: '/reference/',
      siteBasePath: '/',
      canonicalUrl: 'https://manual.acme.com/reference/auth',
    });
    await call('createSiteRedirect', 201, org, site.id, { source: '/old-auth', destination: { kind: 'site-section', siteSectionId: section.id } });
    expect(await call('getPublishedContentByUrl', 200, { url: 'https://manual.acme.com/old-auth' })).toEqual({ target: 'content', redirect: 'https://manual.acme.com/reference/' });

    const preview = (await call('getSitePublishingPreviewById', 200, org, site.id)).url as string;
    expect(await call('getPublishedContentByUrl', 200, { url: `${preview.replace(/\?.*$/, '')}/reference/auth` })).toMatchObject({ space: reference.id, preview: true, revision: expect.any(String) });

    for (const url of ['https://manual.acme.com/reference/nope', 'https://unknown.example.com/install', `https://${org.toLowerCase()}.gitbook.io/no-such-site/`]) {
      expect((await failure('getPublishedContentByUrl', { url })).code, url).toBe(404);
    }
    expect((await failure('getPublishedContentByUrl', { url: 'ftp://manual.acme.com/' })).code).toBe(400);
  });

  it('shows outsiders only published sites, share-link sites with their key, visitor-auth sites with a token signed by the site key', async () => {
    const served = await servedOrganization();
    try {
      const local = (operationId: string, status: number, ...args: unknown[]) => checkedCall(served.api, operationId, status, ...args);
      const orgId = served.boot.organization.id;
      const space = await local('createSpace', 201, orgId, { title: 'Private docs' });
      const site = await local('createSite', 201, orgId, { title: 'Private', type: 'ultimate', spaces: [space.id] });
      const url = `https://${orgId.toLowerCase()}.gitbook.io/private/`;
      const outsider = await served.store.transact((tx) => ensureUser(tx, { email: 'eve@example.net' }, served.ids, '2026-03-01T10:00:00.000Z').user.id);
      const asOutsider = async (raw: Record<string, unknown>) => {
        try {
          return (await executeOperation({ store: served.store, actor: { userId: outsider }, clock: served.clock, ids: served.ids, origin: 'http://unused' }, getRoute('getPublishedContentByUrl'), { query: raw })).body;
        } catch (error) {
          return { status: (error as ApiError).status };
        }
      };
      expect(await asOutsider({ url })).toEqual({ status: 404 });
      // A member resolves it unpublished.
      expect(await local('getPublishedContentByUrl', 200, { url })).toMatchObject({ space: space.id });
      await local('publishSite', 200, orgId, site.id);
      expect(await asOutsider({ url })).toMatchObject({ space: space.id });

      await local('updateSiteById', 200, orgId, site.id, { visibility: 'share-link' });
      expect(await asOutsider({ url })).toEqual({ status: 404 });
      const link = await local('createSiteShareLink', 201, orgId, site.id, { name: 'Partners' });
      const shared = link.urls.published as string;
      expect(await asOutsider({ url: shared })).toMatchObject({ space: space.id, shareKey: new URL(shared).searchParams.get('share') });

      await local('updateSiteById', 200, orgId, site.id, { visibility: 'visitor-auth' });
      const auth = await local('updateSitePublishingAuthById', 200, orgId, site.id, { backend: 'custom', fallbackURL: 'https://acme.com/login' });
      const sign = (claims: object, key: string) => {
        const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
        const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
        return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
      };
      const later = Date.parse('2026-03-01T11:00:00.000Z') / 1000;
      expect(await asOutsider({ url })).toEqual({ status: 401 });
      expect(await asOutsider({ url, redirectOnError: 'true' })).toEqual({ target: 'application', redirect: 'https://acme.com/login' });
      expect(await asOutsider({ url, visitorAuthToken: sign({ exp: later }, 'not-the-key') })).toEqual({ status: 401 });
      expect(await asOutsider({ url, visitorAuthToken: sign({ exp: later - 7200 }, auth.privateKey) })).toEqual({ status: 401 });
      expect(await asOutsider({ url, visitorAuthToken: sign({ exp: later, plan: 'pro' }, auth.privateKey) })).toMatchObject({ space: space.id });
      await local('regenerateSitePublishingAuthById', 200, orgId, site.id);
      expect(await asOutsider({ url, visitorAuthToken: sign({ exp: later }, auth.privateKey) })).toEqual({ status: 401 });
    } finally {
      await served.server.close();
    }
  });
});
