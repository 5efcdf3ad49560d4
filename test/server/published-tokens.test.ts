/**
 * The `apiToken` of a resolved published URL, used as a bearer token against `docsctl serve`:
 * it reads that space's content, nothing else (another space 404, another object or any write
 * 403), for an hour (then 401 with one line, also for a URL whose answer was served before), and
 * a token whose payload or signature was changed is refused (401).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { setup } from '../domain/harness.js';

describe('serve: the published content token of getPublishedContentByUrl', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('reads the resolved space for an hour, and nothing else', async () => {
    const h = await setup();
    const guide = await h.createSpace({ title: 'Guide' });
    const other = await h.createSpace({ title: 'Internal' });
    const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs', spaces: [guide.id] } }, 201);
    await h.admin.ok('publishSite', { params: { organizationId: h.orgId, siteId: site.id } });
    server = await startServer({ store: h.store, port: 0, clock: h.clock, ids: h.ids, rateLimit: { limit: 1000, windowMs: 60_000 } });
    const base = server.url;
    const call = async (method: string, path: string, token: string, body?: object) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as { error?: { message: string } } & Record<string, unknown>) };
    };
    const publishedUrl = (await h.admin.ok<{ urls: { published: string } }>('getSiteById', { params: { organizationId: h.orgId, siteId: site.id } })).urls.published;
    const resolved = await call('GET', `/v1/urls/published?url=${encodeURIComponent(publishedUrl)}`, h.boot.token);
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    const token = resolved.body?.apiToken as string;
    expect(token).toMatch(/^gbpub_[\w-]+\.[\w-]+$/);

    // Reads of the space's content.
    expect((await call('GET', `/v1/spaces/${guide.id}`, token)).body).toMatchObject({ id: guide.id, title: 'Guide' });
    expect((await call('GET', `/v1/spaces/${guide.id}/content`, token)).status).toBe(200);
    const again = await call('GET', `/v1/spaces/${guide.id}`, token);
    expect(again.status).toBe(200);
    // Another space: not found; another object, or any write: forbidden.
    expect((await call('GET', `/v1/spaces/${other.id}`, token)).status).toBe(404);
    const org = await call('GET', `/v1/orgs/${h.orgId}`, token);
    expect(org.status).toBe(403);
    expect(org.body?.error?.message).toContain(`only reads the content of space ${guide.id}`);
    expect((await call('GET', `/v1/spaces/${guide.id}/change-requests`, token)).status).toBe(403);
    expect((await call('GET', `/v1/orgs/${h.orgId}/sites/${site.id}`, token)).status).toBe(403);
    expect((await call('PATCH', `/v1/spaces/${guide.id}`, token, { title: 'Hacked' })).status).toBe(403);
    expect((await call('POST', `/v1/spaces/${guide.id}/change-requests`, token, { subject: 'x' })).status).toBe(403);
    expect((await h.admin.ok<{ title: string }>('getSpaceById', { params: { spaceId: guide.id } })).title).toBe('Guide');

    // A changed payload (another space) or signature: 401.
    const [payload, signature] = token.slice('gbpub_'.length).split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const widened = `gbpub_${Buffer.from(JSON.stringify({ ...claims, p: other.id })).toString('base64url')}.${signature}`;
    expect((await call('GET', `/v1/spaces/${other.id}`, widened)).status).toBe(401);
    const resigned = `gbpub_${payload}.${signature.slice(0, -2)}AA`;
    expect((await call('GET', `/v1/spaces/${guide.id}`, resigned)).status).toBe(401);

    // An hour later: 401, even for the URL answered just before (never kept as bytes).
    h.clock.advance(3600_000);
    const expired = await call('GET', `/v1/spaces/${guide.id}`, token);
    expect(expired.status).toBe(401);
    expect(expired.body?.error?.message).toMatch(/^This published content token expired at .+: resolve the URL again/);
    const fresh = (await call('GET', `/v1/urls/published?url=${encodeURIComponent(publishedUrl)}`, h.boot.token)).body?.apiToken as string;
    expect((await call('GET', `/v1/spaces/${guide.id}`, fresh)).status).toBe(200);

    // Unpublishing the site ends what its tokens read.
    await h.admin.ok('unpublishSite', { params: { organizationId: h.orgId, siteId: site.id } });
    const unpublished = await call('GET', `/v1/spaces/${guide.id}`, fresh);
    expect(unpublished.status).toBe(401);
    expect(unpublished.body?.error?.message).toContain('no longer publishes');
  });
});
