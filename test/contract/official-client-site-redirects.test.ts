/**
 * The official GitBook client against `docsctl serve` for site redirects and site MCP
 * servers: the client's own URLs (`/redirects`, `/redirect?source=`, `/mcp-servers`),
 * query strings and bodies, the 205 of a delete, and a duplicate source as GitBookAPIError 409.
 */
import { type GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { clientOperation, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;

const op = (operationId: string) => clientOperation(api, operationId);

beforeAll(async () => {
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
});

afterAll(() => server?.close());

describe('the official GitBook client: site redirects and MCP servers', () => {
  it('creates, lists, resolves, updates and deletes redirects', async () => {
    const guide = (await op('createSpace')(org, { title: 'Guide' })).data;
    const api2 = (await op('createSpace')(org, { title: 'API' })).data;
    const site = (await op('createSite')(org, { title: 'Docs', type: 'premium', spaces: [guide.id] })).data;
    const section = (await op('addSectionToSite')(org, site.id, { spaceId: api2.id, title: 'API reference' })).data;
    const variant = (await op('listSiteSpaces')(org, site.id)).data.items.find((s: { space: { id: string } }) => s.space.id === guide.id);

    const created = await op('createSiteRedirect')(org, site.id, { source: '/old-api', destination: { kind: 'site-section', siteSectionId: section.id } });
    expect(created.status).toBe(201);
    expect(created.data).toEqual({
      object: 'site-redirect',
      id: expect.any(String),
      source: '/old-api',
      // 0.202: live (not a draft), an exact source, temporary unless asked; updatedAt only once changed.
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: 'site-section', siteSectionId: section.id },
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    await op('createSiteRedirect')(org, site.id, { source: '/start', destination: { kind: 'site-space', siteSpaceId: variant.id } });

    const duplicate = await op('createSiteRedirect')(org, site.id, { source: '/old-api', destination: { kind: 'site-space', siteSpaceId: variant.id } }).catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(GitBookAPIError);
    expect((duplicate as GitBookAPIError).code).toBe(409);

    const listed = (await op('listSiteRedirects')(org, site.id, { search: 'old', limit: 10 })).data;
    expect(listed).toEqual({ items: [created.data], count: 1 });
    const resolved = (await op('getSiteRedirectBySource')(org, site.id, { source: '/old-api' })).data;
    expect(resolved).toEqual({ redirect: created.data, target: `https://${org}.gitbook.io/docs/api-reference/` });

    const moved = (await op('updateSiteRedirectById')(org, site.id, created.data.id, { source: '/older-api' })).data;
    expect(moved.source).toBe('/older-api');
    expect((await op('deleteSiteRedirectById')(org, site.id, created.data.id)).status).toBe(205);
    const gone = await op('getSiteRedirectBySource')(org, site.id, { source: '/older-api' }).catch((error: unknown) => error);
    expect((gone as GitBookAPIError).code).toBe(404);
  });

  it('adds an MCP server whose header values only get by id shows, renames it and deletes it', async () => {
    const site = (await op('createSite')(org, { title: 'Help' })).data;
    const created = await op('createSiteMcpServer')(org, site.id, { name: 'Tickets', url: 'https://mcp.acme.example/sse', headers: { Authorization: 'Bearer t0k3n' } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ object: 'site-mcp-server', name: 'Tickets', url: 'https://mcp.acme.example/sse', transport: 'sse', headers: { Authorization: 'Bearer t0k3n' } });
    const listed = (await op('listSiteMcpServers')(org, site.id)).data;
    expect(listed).toEqual({ items: [{ ...created.data, headers: { Authorization: '********' } }], count: 1 });
    expect((await op('getSiteMcpServerById')(org, site.id, created.data.id)).data).toEqual(created.data);
    expect((await op('updateSiteMcpServerById')(org, site.id, created.data.id, { name: 'Support' })).data).toEqual({ ...created.data, name: 'Support' });
    expect((await op('deleteSiteMcpServerById')(org, site.id, created.data.id)).status).toBe(205);
    expect((await op('listSiteMcpServers')(org, site.id)).data).toEqual({ items: [], count: 0 });
  });
});
