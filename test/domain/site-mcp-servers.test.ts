/**
 * MCP servers of a site (real API `site-mcp-servers`) through executeOperation: every
 * success answer is validated against @gitbook/api 0.202.0 by the harness (`ok`), and
 * the values are asserted: URLs checked (http(s), no credentials) and never fetched,
 * headers checked, their values hidden in listings, rows gone with the site.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HIDDEN_HEADER_VALUE } from '../../src/domain/sites/mcp-servers.js';
import { ORIGIN, type ContentHarness, contentSetup } from './content/helpers.js';

type Server = { object: string; id: string; name: string; url: string; headers: Record<string, string>; urls: { location: string } };
type ServerList = { items: Server[]; count: number; next?: { page: string } };

afterEach(() => {
  vi.restoreAllMocks();
});

async function siteOf(h: ContentHarness) {
  const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs' } }, 201);
  return { p: { organizationId: h.orgId, siteId: site.id } };
}
type Site = Awaited<ReturnType<typeof siteOf>>;

const SECRET = 'Bearer s3cr3t-t0ken';
const add = (h: ContentHarness, s: Site, body: Record<string, unknown>) =>
  h.admin.ok<Server>('createSiteMcpServer', { params: s.p, body: { headers: {}, ...body } }, 201);

describe('site MCP servers', () => {
  it('adds a server (201, Location), shows its headers to get by id and hides their values in listings', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const fetched = vi.spyOn(globalThis, 'fetch');
    const res = await h.admin.call('createSiteMcpServer', {
      params: s.p,
      body: { name: 'Tickets', url: 'https://MCP.Acme.example/sse', headers: { Authorization: SECRET, 'X-Team': 'docs' } },
    });
    expect(res.status).toBe(201);
    const server = res.body as Server;
    const location = `${ORIGIN}/v1/orgs/${h.orgId}/sites/${s.p.siteId}/mcp-servers/${server.id}`;
    expect(server).toEqual({
      object: 'site-mcp-server',
      id: server.id,
      name: 'Tickets',
      url: 'https://mcp.acme.example/sse',
      transport: 'sse',
      headers: { Authorization: SECRET, 'X-Team': 'docs' },
      urls: { location },
    });
    expect(res.headers.Location).toBe(location);
    expect(fetched).not.toHaveBeenCalled();

    expect(await h.admin.ok<Server>('getSiteMcpServerById', { params: { ...s.p, siteMcpServerId: server.id } })).toEqual(server);
    const listed = await h.admin.ok<ServerList>('listSiteMcpServers', { params: s.p });
    expect(listed.count).toBe(1);
    expect(listed.items).toEqual([{ ...server, headers: { Authorization: HIDDEN_HEADER_VALUE, 'X-Team': HIDDEN_HEADER_VALUE } }]);
    expect(JSON.stringify(listed)).not.toContain('s3cr3t');
  });

  it('lists in creation order, a page at a time', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    for (const name of ['One', 'Two', 'Three']) await add(h, s, { name, url: `https://${name.toLowerCase()}.example/mcp` });
    const first = await h.admin.ok<ServerList>('listSiteMcpServers', { params: s.p, query: { limit: '2' } });
    expect(first.items.map((x) => x.name)).toEqual(['One', 'Two']);
    expect(first.count).toBe(3);
    const second = await h.admin.ok<ServerList>('listSiteMcpServers', { params: s.p, query: { limit: '2', page: first.next?.page } });
    expect(second.items.map((x) => x.name)).toEqual(['Three']);
    expect(second.next).toBeUndefined();
  });

  it('refuses URLs that are not http(s), name no host or carry credentials, without echoing a password', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    for (const url of ['ftp://files.example/mcp', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://mcp.example/', 'not a url', '/relative/mcp', `https://example.com/${'a'.repeat(2048)}`]) {
      await h.admin.fails('createSiteMcpServer', { params: s.p, body: { name: 'X', url, headers: {} } }, 400, /url/i);
    }
    const error = await h.admin.fails('createSiteMcpServer', { params: s.p, body: { name: 'X', url: 'https://ada:hunter2@mcp.example/', headers: {} } }, 400, /credentials/);
    expect(error.message).not.toContain('hunter2');
    // Tabs and newlines the URL parser drops never reach the store.
    expect((await add(h, s, { name: 'Tabs', url: 'https://mcp.exa\tmple/s\nse' })).url).toBe('https://mcp.example/sse');
    expect((await add(h, s, { name: 'Plain', url: 'http://localhost:3000/mcp' })).url).toBe('http://localhost:3000/mcp');
  });

  it('refuses header names that are not HTTP tokens, client-set or repeated, and values with control characters or the listing marker', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const withHeaders = (headers: Record<string, string>) => ({ params: s.p, body: { name: 'X', url: 'https://mcp.example/', headers } });
    await h.admin.fails('createSiteMcpServer', withHeaders({ 'Bad Name': 'x' }), 400, /Invalid header name "Bad Name"/);
    await h.admin.fails('createSiteMcpServer', withHeaders({ '': 'x' }), 400, /Invalid header name ""/);
    await h.admin.fails('createSiteMcpServer', withHeaders({ [`X-${'a'.repeat(300)}`]: 'x' }), 400, /Invalid header name/);
    await h.admin.fails('createSiteMcpServer', withHeaders({ Host: 'internal.example' }), 400, /sets it for each request/);
    await h.admin.fails('createSiteMcpServer', withHeaders({ 'Transfer-Encoding': 'chunked' }), 400, /sets it for each request/);
    await h.admin.fails('createSiteMcpServer', withHeaders({ 'X-A': '1', 'x-a': '2' }), 400, /given twice/);
    await h.admin.fails('createSiteMcpServer', withHeaders({ 'X-A': 'ok\r\nX-Injected: 1' }), 400, /control character/);
    await h.admin.fails('createSiteMcpServer', withHeaders({ 'X-A': 'nul\u0000' }), 400, /control character/);
    await h.admin.fails('createSiteMcpServer', withHeaders({ Authorization: HIDDEN_HEADER_VALUE }), 400, /how a listing hides a value/);
    await h.admin.fails('createSiteMcpServer', withHeaders({ 'X-A': '' }), 400, /headers/);
    await h.admin.fails('createSiteMcpServer', withHeaders({ 'X-A': 'a'.repeat(513) }), 400, /headers/);
    await h.admin.fails('createSiteMcpServer', withHeaders(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v']))), 400, /at most 50 headers/);
    await h.admin.fails('createSiteMcpServer', { params: s.p, body: { name: '', url: 'https://mcp.example/', headers: {} } }, 400, /name/);
    await h.admin.fails('createSiteMcpServer', { params: s.p, body: { name: 'X', url: 'https://mcp.example/' } }, 400, /headers/);
    expect((await add(h, s, { name: 'Tab ok', url: 'https://mcp.example/', headers: { 'X-A': 'a\tb' } })).headers).toEqual({ 'X-A': 'a\tb' });
    expect((await h.admin.ok<ServerList>('listSiteMcpServers', { params: s.p })).count).toBe(1);
  });

  it('updates the name alone (headers kept), or replaces the headers as a whole', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const server = await add(h, s, { name: 'Tickets', url: 'https://mcp.example/sse', headers: { Authorization: SECRET } });
    const at = { ...s.p, siteMcpServerId: server.id };
    expect(await h.admin.ok<Server>('updateSiteMcpServerById', { params: at, body: { name: 'Support' } })).toEqual({ ...server, name: 'Support' });
    const replaced = await h.admin.ok<Server>('updateSiteMcpServerById', { params: at, body: { url: 'https://mcp.example/v2', headers: { 'X-Key': 'k' } } });
    expect(replaced).toEqual({ ...server, name: 'Support', url: 'https://mcp.example/v2', headers: { 'X-Key': 'k' } });
    expect(await h.admin.ok<Server>('getSiteMcpServerById', { params: at })).toEqual(replaced);
    await h.admin.fails('updateSiteMcpServerById', { params: at, body: {} }, 400, /Nothing to update/);
    await h.admin.fails('updateSiteMcpServerById', { params: at, body: { url: 'gopher://mcp.example/' } }, 400, /Unsupported URL scheme gopher:/);
    expect(await h.admin.ok<Server>('getSiteMcpServerById', { params: at })).toEqual(replaced);
    await h.admin.fails('updateSiteMcpServerById', { params: { ...s.p, siteMcpServerId: 'nope' }, body: { name: 'Y' } }, 404, new RegExp(`MCP server nope not found in site ${s.p.siteId}`));
    await h.admin.fails('getSiteMcpServerById', { params: { ...s.p, siteMcpServerId: 'a/b' } }, 404);
  });

  it('deletes (205, then 204); deleting the site deletes its servers', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const one = await add(h, s, { name: 'One', url: 'https://one.example/' });
    await add(h, s, { name: 'Two', url: 'https://two.example/' });
    expect((await h.admin.call('deleteSiteMcpServerById', { params: { ...s.p, siteMcpServerId: one.id } })).status).toBe(205);
    expect((await h.admin.call('deleteSiteMcpServerById', { params: { ...s.p, siteMcpServerId: one.id } })).status).toBe(204);
    expect((await h.admin.ok<ServerList>('listSiteMcpServers', { params: s.p })).items.map((x) => x.name)).toEqual(['Two']);
    await h.admin.ok('deleteSiteById', { params: s.p }, 205);
    expect(h.store.read().scan('siteMcpServers', { prefix: `${s.p.siteId}/` })).toEqual([]);
    expect(h.store.read().get('siteMcpServers.n', s.p.siteId)).toBeUndefined();
  });

  it('needs the admin role, reading included (headers may hold secrets)', async () => {
    const h = await contentSetup();
    const s = await siteOf(h);
    const editor = await h.member('editor@acme.test', 'edit');
    const server = await add(h, s, { name: 'One', url: 'https://one.example/', headers: { Authorization: SECRET } });
    await h.fails(editor, 'listSiteMcpServers', { params: s.p }, 403);
    await h.fails(editor, 'getSiteMcpServerById', { params: { ...s.p, siteMcpServerId: server.id } }, 403);
    await h.fails(editor, 'createSiteMcpServer', { params: s.p, body: { name: 'X', url: 'https://x.example/', headers: {} } }, 403);
  });
});
