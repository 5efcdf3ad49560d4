/**
 * MCP servers of a site (real API, `site-mcp-servers`): servers the site's assistant
 * may call, each a name, a URL and the headers sent with every request to it. One
 * row per server (`mcpServers`, a KeyedSet per site, listed in creation order).
 *
 * Rules decided here:
 * - The URL is user input that docsctl never fetches: it must parse as an absolute
 *   http(s) URL (`parseHttpUrl`) with no credentials (they would show in every listing; put
 *   them in a header), and is kept as the WHATWG parser serialises it (so tabs and
 *   newlines the parser drops never reach the store).
 * - Headers may hold secrets (an `Authorization` token): a listing shows their names
 *   with the values hidden (`HIDDEN_HEADER_VALUE`); the values are in the answers to
 *   create, update and get by id, which, like every MCP route, need the admin role.
 *   A header whose value is that marker is refused (it was copied from a listing).
 * - Header names are HTTP tokens, once each (whatever the case), not one of those
 *   the HTTP client sets itself (`Host`, `Content-Length`…); values hold no control
 *   character (no CR/LF: no header injection). At most 50 headers.
 * - A PATCH replaces the headers as a whole when it has `headers`.
 */
import { badRequest, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/sites.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { redactUrls } from '../../util/redact.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { parseHttpUrl } from '../http-url.js';
import { apiUrl } from '../urls.js';
import { siteAccess } from './access.js';
import { type McpServerRecord, type SiteRecord, mcpServers } from './site-records.js';

const on = implementer<typeof routes>();

/** What a listing shows instead of a header's value. */
export const HIDDEN_HEADER_VALUE = '********';
const MAX_HEADERS = 50;
const MAX_HEADER_NAME = 256;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers the HTTP client writes for each request: one given here would break or smuggle it. */
const CLIENT_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-connection']);

/** An absolute http(s) URL with a host and no userinfo, serialised by the WHATWG parser. */
export function checkedServerUrl(raw: string): string {
  const url = parseHttpUrl(raw);
  if (url.username !== '' || url.password !== '') {
    throw badRequest(`Invalid URL ${redactUrls(raw)}: it holds credentials, which every listing would show; send them in a header (e.g. Authorization)`);
  }
  return url.href;
}

export function checkedHeaders(headers: Record<string, string>): Record<string, string> {
  const names = Object.keys(headers);
  if (names.length > MAX_HEADERS) throw badRequest(`Invalid headers: at most ${MAX_HEADERS} headers, got ${names.length}`);
  const seen = new Set<string>();
  for (const name of names) {
    const shown = JSON.stringify(name.slice(0, 64));
    if (name.length > MAX_HEADER_NAME || !TOKEN.test(name)) {
      throw badRequest(`Invalid header name ${shown}: a name is up to ${MAX_HEADER_NAME} letters, digits and !#$%&'*+-.^_\`|~`);
    }
    const lower = name.toLowerCase();
    if (CLIENT_HEADERS.has(lower)) throw badRequest(`Invalid header name ${shown}: the HTTP client sets it for each request`);
    if (seen.has(lower)) throw badRequest(`Invalid headers: ${shown} is given twice (header names ignore case)`);
    seen.add(lower);
    const value = headers[name] as string;
    // Field values (RFC 9110 §5.5): visible characters, spaces and tabs; no CR, LF or NUL.
    if (/[\u0000-\u0008\u000A-\u001F\u007F]/.test(value)) throw badRequest(`Invalid value of header ${shown}: it holds a control character`);
    if (value === HIDDEN_HEADER_VALUE) {
      throw badRequest(`Invalid value of header ${shown}: "${HIDDEN_HEADER_VALUE}" is how a listing hides a value; send the real one`);
    }
  }
  return { ...headers };
}

function location(origin: string, site: SiteRecord, id: string): string {
  const seg = encodeURIComponent;
  return apiUrl(origin, `orgs/${seg(site.organization)}/sites/${seg(site.id)}/mcp-servers/${seg(id)}`);
}

/** The API object; `hideValues` for listings. */
export function mcpServerView(origin: string, site: SiteRecord, server: McpServerRecord, hideValues = false) {
  const headers = hideValues ? Object.fromEntries(Object.keys(server.headers).map((name) => [name, HIDDEN_HEADER_VALUE])) : { ...server.headers };
  return {
    object: 'site-mcp-server' as const,
    id: server.id,
    name: server.name,
    url: server.url,
    transport: server.transport ?? 'sse',
    headers,
    ...(server.condition !== undefined ? { condition: server.condition } : {}),
    urls: { location: location(origin, site, server.id) },
  };
}

function requireServer(tx: StoreReader, site: SiteRecord, id: string): McpServerRecord {
  const server = mcpServers.get(tx, site.id, id);
  if (!server) throw notFound(`MCP server ${id} not found in site ${site.id}`);
  return server;
}

/** Deletes every MCP server of a site (the site is being deleted). */
export function removeSiteMcpServers(tx: StoreWriter, siteId: string): void {
  for (const { id } of mcpServers.all(tx, siteId)) mcpServers.remove(tx, siteId, id);
}

export const mcpServerHandlers: Record<string, Handler> = {
  ...on('listSiteMcpServers', (ctx, { params, query }) => {
    const { site } = siteAccess(ctx, params);
    return mcpServers.page(ctx.tx, site.id, query, ({ value }) => mcpServerView(ctx.origin, site, value, true));
  }),

  ...on('createSiteMcpServer', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const now = ctx.clock().toISOString();
    const server: McpServerRecord = {
      id: ctx.ids(),
      name: body.name,
      url: checkedServerUrl(body.url),
      headers: checkedHeaders(body.headers),
      ...(body.transport !== undefined ? { transport: body.transport } : {}),
      ...(typeof body.condition === 'string' ? { condition: body.condition } : {}),
      createdAt: now,
      updatedAt: now,
    };
    mcpServers.put(ctx.tx, site.id, server.id, server);
    const view = mcpServerView(ctx.origin, site, server);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...on('getSiteMcpServerById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    return mcpServerView(ctx.origin, site, requireServer(ctx.tx, site, params.siteMcpServerId));
  }),

  ...on('updateSiteMcpServerById', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const server = requireServer(ctx.tx, site, params.siteMcpServerId);
    if (body.name === undefined && body.url === undefined && body.headers === undefined && body.transport === undefined && body.condition === undefined) {
      throw badRequest('Nothing to update: pass at least one of name, url, headers, transport, condition');
    }
    const next: McpServerRecord = {
      ...server,
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.url !== undefined ? { url: checkedServerUrl(body.url) } : {}),
      ...(body.headers !== undefined ? { headers: checkedHeaders(body.headers) } : {}),
      ...(body.transport !== undefined ? { transport: body.transport } : {}),
      ...(typeof body.condition === 'string' ? { condition: body.condition } : {}),
      updatedAt: ctx.clock().toISOString(),
    };
    if (body.condition === null) delete next.condition;
    mcpServers.put(ctx.tx, site.id, server.id, next);
    return mcpServerView(ctx.origin, site, next);
  }),

  ...on('deleteSiteMcpServerById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    if (!mcpServers.remove(ctx.tx, site.id, params.siteMcpServerId)) return nothingToDelete();
    return deleted();
  }),
};
