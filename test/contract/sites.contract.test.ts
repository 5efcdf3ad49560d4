/**
 * Contract tests of the sites area (API doc §4.3–4.7, publish/unpublish and the
 * structure routes): every operation is called through `executeOperation` with
 * inputs the real API accepts, and every answer (errors included) is validated
 * against @gitbook/api 0.202.0.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routeInfo } from '../../src/api/catalog.js';
import type { RouteId } from '../../src/api/route-id.js';
import { routes } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import { contractHarness } from './harness.js';

let h: Awaited<ReturnType<typeof contractHarness>>;
let orgId: string;
const expectContract = <T = Record<string, unknown> & { id: string }>(id: RouteId, raw: RawInput, status: number) => h.expectContract<T>(id, raw, status);

beforeAll(async () => {
  h = await contractHarness('2026-02-01T09:00:00.000Z');
  orgId = h.orgId;
});

describe('sites contract (@gitbook/api 0.202.0)', () => {
  it('answers every site operation with bodies the real schemas accept', async () => {
    const space = async (title: string) => (await expectContract('createSpace', { params: { organizationId: orgId }, body: { title } }, 201)).id;
    const [guide, guide2, api, blog] = [await space('Guide'), await space('Guide v2'), await space('API'), await space('Blog')];
    const o = { organizationId: orgId };
    const site = await expectContract('createSite', { params: o, body: { title: 'Help Center', type: 'ultimate', visibility: 'public', spaces: [guide] } }, 201);
    const p = { ...o, siteId: site.id };
    await expectContract('listSites', { params: o, query: { published: 'false', type: ['ultimate'] } }, 200);
    await expectContract('getSiteById', { params: p }, 200);
    // The default template goes into an empty site only: this one has a site space (409); a new one gets a space.
    await expectContract('applyTemplateToSite', { params: p }, 409);
    const empty = await expectContract('createSite', { params: o, body: { title: 'Starter' } }, 201);
    await expectContract('applyTemplateToSite', { params: { ...o, siteId: empty.id } }, 200);
    expect(await expectContract('listSiteSpaces', { params: { ...o, siteId: empty.id } }, 200)).toMatchObject({ items: [{ title: 'Starter', path: 'starter' }] });
    // No space of the site syncs with Git yet: an empty listing, valid against 0.202.
    expect(await expectContract('listSiteGitSyncInstallations', { params: p }, 200)).toMatchObject({ items: [] });
    const apiSection = await expectContract('addSectionToSite', { params: p, body: { spaceId: api, title: 'API reference', icon: 'code' } }, 201);
    const sections = await expectContract<{ items: Array<{ id: string }> }>('listSiteSections', { params: p }, 200);
    const guideSection = sections.items[0]!.id;
    const variant = await expectContract('addSpaceToSite', { params: p, body: { spaceId: guide2, sectionId: guideSection } }, 201);
    await expectContract('listSiteSpaces', { params: p, query: { default: 'false' } }, 200);
    await expectContract('updateSiteSpaceById', { params: { ...p, siteSpaceId: variant.id }, body: { path: 'v2', condition: 'visitor.claims.isBetaUser' } }, 200);
    await expectContract('moveSiteSpace', { params: { ...p, siteSpaceId: variant.id }, body: {} }, 200);
    const blogSection = await expectContract('addSectionToSite', { params: p, body: { spaceId: blog } }, 201);
    const group = await expectContract('addSectionGroupToSite', { params: p, body: { title: 'More', sections: [apiSection.id] } }, 201);
    const nested = await expectContract('addSectionGroupToSite', { params: p, body: { title: 'Nested', parent: group.id } }, 201);
    await expectContract('addSectionToGroup', { params: { ...p, siteSectionGroupId: nested.id }, body: { sectionId: blogSection.id } }, 201);
    await expectContract('listSiteSectionGroups', { params: p }, 200);
    await expectContract('updateSiteSectionGroupById', { params: { ...p, siteSectionGroupId: group.id }, body: { title: 'Products', icon: 'box' } }, 200);
    await expectContract('moveSiteSectionGroup', { params: { ...p, siteSectionGroupId: group.id }, body: { position: { before: { type: 'site-section', id: guideSection } } } }, 200);
    await expectContract('updateSiteSectionById', { params: { ...p, siteSectionId: apiSection.id }, body: { description: 'Endpoints', condition: 'true', path: 'api' } }, 200);
    await expectContract('moveSiteSection', { params: { ...p, siteSectionId: guideSection }, body: { position: { before: { type: 'site-section', siteSection: apiSection.id } } } }, 200);
    await expectContract('sortSiteStructure', { params: p, body: { item: { type: 'site-section-group', id: group.id }, position: {} } }, 200);
    await expectContract('sortSiteStructure', { params: p, body: { item: { type: 'site-space', id: variant.id }, position: { after: { type: 'site-space', id: variant.id } } } }, 400);
    await expectContract('getSiteStructure', { params: p }, 200);
    await expectContract('publishSite', { params: p }, 200);
    await expectContract('getPublishedContentSite', { params: p }, 200);
    await expectContract('updateSiteById', { params: p, body: { visibility: 'share-link', basename: 'help', agentsContext: 'excluded', adaptiveContent: { enabled: true }, proxy: 'acme.com/docs', defaultSiteSection: guideSection } }, 200);
    const link = await expectContract('createSiteShareLink', { params: p, body: { name: 'Partners' } }, 201);
    await expectContract('listSiteShareLinks', { params: p }, 200);
    await expectContract('updateSiteShareLinkById', { params: { ...p, shareLinkId: link.id }, body: { active: false } }, 200);
    // Redirects: the site is served under the proxy acme.com/docs now, and the API section's path is `api`.
    const redirect = await expectContract('createSiteRedirect', { params: p, body: { source: '/old-api', destination: { kind: 'site-section', siteSectionId: apiSection.id } } }, 201);
    expect(redirect).toEqual({
      object: 'site-redirect',
      id: redirect.id,
      source: '/old-api',
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: 'site-section', siteSectionId: apiSection.id },
      createdAt: '2026-02-01T09:00:00.000Z',
    });
    await expectContract('createSiteRedirect', { params: p, body: { source: '/old-api', destination: { kind: 'site-space', siteSpaceId: variant.id } } }, 409);
    const redirects = await expectContract<{ items: unknown[]; count: number }>('listSiteRedirects', { params: p, query: { search: 'API' } }, 200);
    expect(redirects).toEqual({ items: [redirect], count: 1 });
    const resolved = await expectContract('getSiteRedirectBySource', { params: p, query: { source: '/old-api' } }, 200);
    expect(resolved).toEqual({ redirect, target: 'https://acme.com/docs/api/' });
    await expectContract('getSiteRedirectBySource', { params: p, query: { source: '/nowhere' } }, 404);
    const redirected = await expectContract('updateSiteRedirectById', { params: { ...p, siteRedirectId: redirect.id }, body: { destination: { kind: 'site-space', siteSpaceId: variant.id } } }, 200);
    expect(redirected).toEqual({ ...redirect, destination: { kind: 'site-space', siteSpaceId: variant.id } });
    // MCP servers: a listing hides header values; get by id shows them.
    const mcp = await expectContract('createSiteMcpServer', { params: p, body: { name: 'Tickets', url: 'https://mcp.acme.example/sse', headers: { Authorization: 'Bearer t0k3n' } } }, 201);
    expect(mcp).toMatchObject({ object: 'site-mcp-server', name: 'Tickets', url: 'https://mcp.acme.example/sse', headers: { Authorization: 'Bearer t0k3n' } });
    const servers = await expectContract<{ items: Array<Record<string, unknown>>; count: number }>('listSiteMcpServers', { params: p }, 200);
    expect(servers).toEqual({ items: [{ ...mcp, headers: { Authorization: '********' } }], count: 1 });
    await expectContract('getSiteMcpServerById', { params: { ...p, siteMcpServerId: mcp.id } }, 200);
    const renamed = await expectContract('updateSiteMcpServerById', { params: { ...p, siteMcpServerId: mcp.id }, body: { name: 'Support' } }, 200);
    expect(renamed).toEqual({ ...mcp, name: 'Support' });
    await expectContract('getSiteMcpServerById', { params: { ...p, siteMcpServerId: 'nope' } }, 404);
    await expectContract('createSiteMcpServer', { params: p, body: { name: 'Files', url: 'file:///etc/passwd', headers: {} } }, 400);
    await expectContract('deleteSiteRedirectById', { params: { ...p, siteRedirectId: redirect.id } }, 205);
    await expectContract('deleteSiteRedirectById', { params: { ...p, siteRedirectId: redirect.id } }, 204);
    await expectContract('deleteSiteMcpServerById', { params: { ...p, siteMcpServerId: mcp.id } }, 205);
    await expectContract('deleteSiteMcpServerById', { params: { ...p, siteMcpServerId: mcp.id } }, 204);
    // The AI agent settings: the defaults, then replaced whole; an incomplete body is refused.
    const doc = { object: 'document', data: {}, nodes: [] };
    await expectContract('getSiteAgentSettingsById', { params: p }, 200);
    const agent = { scans: { topics: 'never' }, findings: { changeRequests: 'always' }, editing: { customInstructions: doc } };
    await expectContract('updateSiteAgentSettingsById', { params: p, body: agent }, 200);
    await expectContract('updateSiteAgentSettingsById', { params: p, body: { scans: { topics: 'auto' } } }, 400);
    // GitBook Agent channels.
    const channel = await expectContract('createSiteChannel', { params: p, body: { type: 'builtin:slack', setupSettings: { allowedChannels: ['support-*'] }, role: 'support' } }, 201);
    await expectContract('createSiteChannel', { params: p, body: { type: 'builtin:linear', setupSettings: { allowedChannels: ['x'] } } }, 400);
    await expectContract('listSiteChannels', { params: p }, 200);
    await expectContract('getSiteChannelById', { params: { ...p, siteChannelId: channel.id } }, 200);
    await expectContract('updateSiteChannelById', { params: { ...p, siteChannelId: channel.id }, body: { role: 'collaborator' } }, 200);
    await expectContract('getSiteChannelById', { params: { ...p, siteChannelId: 'nope' } }, 404);
    await expectContract('deleteSiteChannelById', { params: { ...p, siteChannelId: channel.id } }, 205);
    await expectContract('deleteSiteChannelById', { params: { ...p, siteChannelId: channel.id } }, 204);
    await expectContract('getSiteAdaptiveSchema', { params: p }, 200);
    await expectContract('updateSiteAdaptiveSchema', { params: p, body: { jsonSchema: { type: 'object', properties: { beta: { type: 'boolean', description: 'Beta' } }, additionalProperties: false } } }, 200);
    await expectContract('updateSiteAdaptiveSchema', { params: p, body: { jsonSchema: { type: 'object', properties: { beta: { type: 'boolean' } }, additionalProperties: false } } }, 400);
    const defaults = await expectContract('getSiteCustomizationById', { params: p, query: { unmasked: 'false' } }, 200);
    const look = { ...defaults, title: 'Acme Help', styling: { ...(defaults.styling as object), theme: 'muted', corners: 'circular' } };
    expect(await expectContract('updateSiteCustomizationById', { params: p, body: look }, 200)).toEqual(look);
    await expectContract('updateSiteCustomizationById', { params: p, body: { ...look, ai: { mode: 'genius' } } }, 400);
    const sp = { ...p, siteSpaceId: variant.id };
    const overridden = await expectContract('overrideSiteSpaceCustomizationById', { params: sp, body: { title: 'Help v2', styling: { theme: 'bold' }, feedback: { enabled: true } } }, 200);
    expect(overridden).toMatchObject({ hasOverrides: true, title: 'Help v2', styling: { theme: 'bold', corners: 'circular' }, feedback: { enabled: true } });
    expect(await expectContract('getSiteSpaceCustomizationById', { params: sp }, 200)).toEqual(overridden);
    await expectContract('deleteSiteSpaceCustomizationById', { params: sp }, 205);
    await expectContract('deleteSiteSpaceCustomizationById', { params: sp }, 204);
    expect(await expectContract('getSiteSpaceCustomizationById', { params: sp }, 200)).toEqual({ ...look, hasOverrides: false });
    await expectContract('getSiteById', { params: { ...p, siteId: 'nope' } }, 404);
    await expectContract('removeSectionFromGroup', { params: { ...p, siteSectionGroupId: nested.id, siteSectionId: blogSection.id } }, 205);
    await expectContract('removeSectionFromGroup', { params: { ...p, siteSectionGroupId: nested.id, siteSectionId: blogSection.id } }, 204);
    await expectContract('deleteSiteSectionGroupById', { params: { ...p, siteSectionGroupId: group.id } }, 205);
    await expectContract('deleteSiteSpaceById', { params: { ...p, siteSpaceId: variant.id } }, 205);
    await expectContract('deleteSiteSectionById', { params: { ...p, siteSectionId: blogSection.id } }, 205);
    await expectContract('deleteSiteShareLinkById', { params: { ...p, shareLinkId: link.id } }, 205);
    // Grants on the site (routes/permissions.ts; their effect: test/domain/object-permissions.test.ts).
    const member = (await expectContract<{ users: string[] }>('inviteUsersToOrganization', { params: o, body: { emails: [{ email: 'sam@example.com', role: 'read' }] } }, 200)).users[0]!;
    const team = await expectContract('createOrganizationTeam', { params: o, body: { title: 'Support', members: [member] } }, 201);
    await expectContract('inviteToSite', { params: p, body: { role: 'edit', users: [member], teams: [team.id] } }, 204);
    await expectContract('listUserPermissionsInSite', { params: p }, 200);
    await expectContract('listTeamPermissionsInSite', { params: p }, 200);
    expect(await expectContract('listPermissionsAggregateInSite', { params: p, query: { role: 'edit' } }, 200)).toMatchObject({ items: [{ permission: 'edit', origin: { type: 'site', reason: 'member' } }] });
    await expectContract('updateUserPermissionInSite', { params: { ...p, userId: member }, body: { role: 'read' } }, 204);
    await expectContract('updateTeamPermissionInSite', { params: { ...p, teamId: team.id }, body: { role: 'admin' } }, 204);
    await expectContract('removeUserFromSite', { params: { ...p, userId: member } }, 205);
    await expectContract('removeTeamFromSite', { params: { ...p, teamId: team.id } }, 205);
    await expectContract('removeTeamFromSite', { params: { ...p, teamId: team.id } }, 204);
    await expectContract('unpublishSite', { params: p }, 200);
    await expectContract('deleteSiteById', { params: p }, 205);
    await expectContract('deleteSiteById', { params: p }, 204);
  });

  it('validated a success answer of every site route', () => {
    // The hand-written site routes (the real API's other site operations are declared, answering 501).
    // docsctl's extensions (getSiteTree) have no schema in the real API: test/domain/site-tree.test.ts specifies them.
    // Integration installations on sites are validated with the rest of the integrations (official-client-integrations.test.ts),
    // 0.202's site additions by official-client-0202-site-publishing.test.ts (every answer checked against the schema),
    // the ads program by official-client-site-ads.test.ts, context sources by official-client-site-context.test.ts,
    // insights by official-client-site-insights.test.ts, style guides by official-client-styleguides.test.ts.
    const ads = ['updateSiteAdsById', 'adsListSites', 'adsUpdateSite'];
    const siteRoutes = routes
      .filter(
        (route) =>
          route.path.includes('/sites') &&
          !['declared', 'integrations', 'site-structure', 'site-publishing', 'site-context', 'site-insights', 'styleguides'].includes(routeInfo(route.id).module) &&
          route.source !== 'docsctl' &&
          !ads.includes(route.id),
      )
      .map((route) => route.id);
    expect(siteRoutes.length).toBeGreaterThanOrEqual(33);
    expect(siteRoutes.filter((id) => !h.validated.has(id))).toEqual([]);
  });
});
