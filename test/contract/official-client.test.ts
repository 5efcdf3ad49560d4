/**
 * The official GitBook TypeScript client (`GitBookAPI` of @gitbook/api, the version whose
 * OpenAPI document the contract tests use) pointed at `docsctl serve`: what a CI job or an
 * integration written against GitBook does. The client builds its own URLs, query strings
 * and bodies, parses every answer as JSON where the spec says there is one, and throws
 * GitBookAPIError on any non-2xx status, so each step checks that serve speaks the real
 * API's HTTP, and the values check that it does the right thing.
 */
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { clientOperation, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let userId: string;

const op = (operationId: string) => clientOperation(api, operationId);

beforeAll(async () => {
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
  userId = served.boot.user.id;
});

afterAll(() => server?.close());

describe('the official GitBook client against docsctl serve', () => {
  it('reads the authenticated user and their organization', async () => {
    expect((await op('getAuthenticatedUser')()).data).toMatchObject({ object: 'user', id: userId, displayName: 'Ada', email: 'ada@example.com' });
    const orgs = (await op('listOrganizationsForAuthenticatedUser')()).data;
    expect(orgs.items.map((o: { id: string; title: string }) => [o.id, o.title])).toEqual([[org, 'Acme']]);
    expect((await op('getOrganizationById')(org)).data).toMatchObject({ object: 'organization', id: org, title: 'Acme' });
  });

  it('creates, pages through, updates, moves, deletes and restores spaces', async () => {
    const created = [];
    for (const title of ['One', 'Two', 'Three']) {
      const answer = await op('createSpace')(org, { title });
      expect(answer.status).toBe(201);
      created.push(answer.data);
    }
    const first = await op('listSpacesInOrganizationById')(org, { limit: 2 });
    expect(first.data.items.map((s: { title: string }) => s.title)).toEqual(['One', 'Two']);
    expect(first.data.count).toBe(3);
    const second = await op('listSpacesInOrganizationById')(org, { limit: 2, page: first.data.next.page });
    expect(second.data.items.map((s: { title: string }) => s.title)).toEqual(['Three']);
    expect(second.data.next).toBeUndefined();

    const [one] = created;
    expect((await op('updateSpaceById')(one.id, { title: 'Renamed' })).data.title).toBe('Renamed');
    const collection = (await op('createCollection')(org, { title: 'Guides' })).data;
    expect((await op('moveSpace')(one.id, { parent: collection.id })).data).toMatchObject({ id: one.id, parent: collection.id });
    expect((await op('listSpacesInCollectionById')(collection.id)).data.items.map((s: { id: string }) => s.id)).toEqual([one.id]);

    await op('deleteSpaceById')(one.id);
    await expect(op('getSpaceById')(one.id)).resolves.toMatchObject({ data: { id: one.id, deletedAt: expect.any(String) } });
    expect((await op('restoreSpace')(one.id)).data.deletedAt).toBeUndefined();
  });

  it('turns a missing object into GitBookAPIError with the status and serve\'s message', async () => {
    const failure = await op('getSpaceById')('nosuchspace').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GitBookAPIError);
    expect((failure as GitBookAPIError).code).toBe(404);
    expect((failure as Error).message).toMatch(/nosuchspace/);
  });

  it('runs a change request and comments on the space', async () => {
    const space = (await op('createSpace')(org, { title: 'Reviewed' })).data;
    const cr = (await op('createChangeRequest')(space.id, { subject: 'Fix typos' })).data;
    expect(cr).toMatchObject({ object: 'change-request', number: 1, status: 'open', subject: 'Fix typos' });
    expect((await op('listChangeRequestsForSpace')(space.id)).data.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    expect((await op('getChangeRequestById')(space.id, cr.id)).data.subject).toBe('Fix typos');

    const comment = (await op('postCommentInSpace')(space.id, { body: { markdown: 'Looks good' } })).data;
    await op('postCommentReplyInSpace')(space.id, comment.id, { body: { markdown: 'Thanks' } });
    const listed = (await op('listCommentsInSpace')(space.id)).data;
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({ id: comment.id, replies: 1 });
    await op('deleteCommentInSpace')(space.id, comment.id);
    expect((await op('listCommentsInSpace')(space.id)).data.items).toEqual([]);
  });

  it('manages a team and its members', async () => {
    const team = (await op('createOrganizationTeam')(org, { title: 'Writers' })).data;
    expect(team).toMatchObject({ object: 'team', title: 'Writers', members: 0 });
    await op('updateMembersInOrganizationTeam')(org, team.id, { add: [userId] });
    const members = (await op('listTeamMembersInOrganizationById')(org, team.id)).data;
    expect(members.items.map((m: { organization: { id: string } }) => m.organization.id)).toEqual([userId]);
    await op('deleteMemberFromOrganizationTeamById')(org, team.id, userId);
    expect((await op('listTeamMembersInOrganizationById')(org, team.id)).data.items).toEqual([]);
    await op('removeTeamFromOrganizationById')(org, team.id);
    expect((await op('listTeamsInOrganizationById')(org)).data.items).toEqual([]);
  });

  it('builds a site from a space and publishes it', async () => {
    const space = (await op('createSpace')(org, { title: 'Handbook' })).data;
    const site = (await op('createSite')(org, { title: 'Docs' })).data;
    expect(site).toMatchObject({ object: 'site', title: 'Docs' });
    const siteSpace = (await op('addSpaceToSite')(org, site.id, { spaceId: space.id })).data;
    expect(siteSpace).toMatchObject({ object: 'site-space', space: { id: space.id } });
    expect((await op('listSiteSpaces')(org, site.id)).data.items.map((s: { id: string }) => s.id)).toEqual([siteSpace.id]);
    expect((await op('publishSite')(org, site.id)).data.id).toBe(site.id);
    expect((await op('listSites')(org)).data.items.map((s: { id: string }) => s.id)).toContain(site.id);
  });

  it('customizes a site and overrides it for one site space', async () => {
    const space = (await op('createSpace')(org, { title: 'Styled' })).data;
    const site = (await op('createSite')(org, { title: 'Styled docs', spaces: [space.id] })).data;
    const settings = (await op('getSiteCustomizationById')(org, site.id)).data;
    expect(settings.styling).toMatchObject({ theme: 'clean', font: 'Inter' });
    const look = { ...settings, styling: { ...settings.styling, theme: 'muted' }, title: 'Styled Help' };
    expect((await op('updateSiteCustomizationById')(org, site.id, look)).data).toEqual(look);
    const siteSpace = (await op('listSiteSpaces')(org, site.id)).data.items[0].id;
    const overridden = (await op('overrideSiteSpaceCustomizationById')(org, site.id, siteSpace, { styling: { theme: 'bold' } })).data;
    expect(overridden).toMatchObject({ hasOverrides: true, title: 'Styled Help', styling: { theme: 'bold' } });
    expect((await op('getSiteSpaceCustomizationById')(org, site.id, siteSpace)).data).toEqual(overridden);
    expect((await op('deleteSiteSpaceCustomizationById')(org, site.id, siteSpace)).status).toBe(205);
    expect((await op('getSiteSpaceCustomizationById')(org, site.id, siteSpace)).data.hasOverrides).toBe(false);
  });

  it('publishes an OpenAPI document twice and reads its versions back', async () => {
    const text = (version: string) => `openapi: 3.0.3\ninfo: {title: Pets, version: "${version}"}\npaths:\n  /pets: {get: {responses: {"200": {description: ok}}}}\n`;
    const first = await op('createOrUpdateOpenApiSpecBySlug')(org, 'pets', { source: { text: text('1') } });
    expect(first.status).toBe(201);
    const second = (await op('createOrUpdateOpenApiSpecBySlug')(org, 'pets', { source: { text: text('2') } })).data;
    const versions = (await op('listOpenApiSpecVersions')(org, 'pets')).data;
    expect(versions.items.map((v: { id: string }) => v.id)).toEqual([second.lastVersion, first.data.lastVersion]);
    const latest = (await op('getLatestOpenApiSpecVersion')(org, 'pets')).data;
    expect(latest).toEqual(versions.items[0]);
    expect((await op('getOpenApiSpecVersionById')(org, 'pets', first.data.lastVersion)).data).toEqual(versions.items[1]);
    const content = (await op('getLatestOpenApiSpecVersionContent')(org, 'pets')).data;
    expect(content).toMatchObject({ url: latest.url, filesystem: { 'pets.yaml': { info: { title: 'Pets', version: '2' } } } });
    const old = (await op('getOpenApiSpecVersionContentById')(org, 'pets', first.data.lastVersion)).data;
    expect(old.filesystem['pets.yaml'].info.version).toBe('1');
    expect(await (await fetch(latest.url)).text()).toBe(text('2'));
    expect((await op('updateOpenApiSpecBySlug')(org, 'pets', { visibility: 'public' })).data).toMatchObject({ visibility: 'public', urls: { published: latest.url } });
  });
});

