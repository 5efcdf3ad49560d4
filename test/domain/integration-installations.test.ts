/**
 * Integration installations (0.202): installing on an organization, its spaces and
 * sites; who may do what; installation tokens that reach only what the installation
 * covers (a hostile token holder); the events what happens records, newest first;
 * development mode; the listings by organization, space and site. Through
 * `executeOperation`, answers checked against the 0.202 schemas.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { getRoute } from '../../src/api/table.js';
import type { RouteId } from '../../src/api/catalog.js';
import type { RawInput } from '../../src/api/validate.js';
import { ApiError } from '../../src/api/errors.js';
import { actorForToken, userIdForToken } from '../../src/domain/auth.js';
import { executeOperation } from '../../src/domain/execute.js';
import { developmentMode } from '../../src/domain/integration-installations.js';
import { MAX_EVENTS, listEvents, recordEvent } from '../../src/domain/integration-events.js';
import { type Harness, ORIGIN, type Obj, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

let h: Harness;
const NAME = 'slack';
const at = (extra: Record<string, unknown> = {}) => ({ integrationName: NAME, ...extra });

const manifest = (organization: string, extra: Record<string, unknown> = {}) => ({
  title: 'Slack',
  description: 'Notifications in Slack',
  scopes: ['space:content:read'],
  script: 'export default {}',
  organization,
  ...extra,
});

async function publish(extra: Record<string, unknown> = {}, name = NAME) {
  await h.admin.ok('publishIntegration', { params: { integrationName: name }, body: manifest(h.orgId, extra) });
}

async function install(org = h.orgId) {
  return h.admin.ok<Obj & { spaces: number }>('installIntegration', { params: at(), body: { organization: org } }, 201);
}

interface EventItem {
  id: string;
  installationId?: string;
  payload: Record<string, unknown> & { type: string };
}

async function events(query: Record<string, unknown> = {}) {
  return h.admin.ok<{ items: EventItem[]; count: number; next?: { page: string } }>('listIntegrationEvents', { params: at(), query });
}

const types = async () => (await events()).items.map((event) => event.payload.type);

beforeEach(async () => {
  h = await setup();
});

describe('installing on an organization', () => {
  it('installs once, reads, updates and uninstalls, each step an event', async () => {
    await publish();
    const installation = await install();
    expect(installation).toMatchObject({ status: 'active', space_selection: 'selected', site_selection: 'selected', spaces: 0, configuration: {}, externalIds: [], target: { organization: h.orgId } });
    expect(installation.urls).toMatchObject({ location: `${ORIGIN}/v1/integrations/slack/installations/${installation.id}` });
    expect(schemaErrors('IntegrationInstallation', installation)).toEqual([]);
    // Installing again answers the installation there is (200), writing nothing.
    const gen = h.store.read().gen;
    expect(await h.admin.ok('installIntegration', { params: at(), body: { organization: h.orgId } }, 200)).toEqual(installation);
    expect(h.store.read().gen).toBe(gen);

    const params = at({ installationId: installation.id });
    expect(await h.admin.ok('getIntegrationInstallationById', { params })).toEqual(installation);
    h.clock.advance(1000);
    const updated = await h.admin.ok('updateIntegrationInstallation', { params, body: { externalIds: ['T1', 'T1', 'T2'], configuration: { channel: '#docs' }, space_selection: 'all' } });
    expect(updated).toMatchObject({ externalIds: ['T1', 'T2'], configuration: { channel: '#docs' }, space_selection: 'all', spaces: 0 });
    expect(updated.updatedAt).not.toBe(installation.updatedAt);
    // With all spaces selected, it manages every space of the organization.
    await h.createSpace({ title: 'A' });
    expect(await h.admin.ok('getIntegrationInstallationById', { params })).toMatchObject({ spaces: 1 });
    expect((await h.admin.ok<{ items: Obj[] }>('listIntegrationInstallations', { params: at(), query: { externalId: 'T2' } })).items.map((i) => i.id)).toEqual([installation.id]);
    expect((await h.admin.ok<{ items: Obj[]; count: number }>('listIntegrationInstallations', { params: at(), query: { externalId: 'nope' } })).count).toBe(0);

    expect((await h.admin.call('uninstallIntegration', { params })).status).toBe(205);
    expect((await h.admin.call('uninstallIntegration', { params })).status).toBe(204);
    await h.admin.fails('getIntegrationInstallationById', { params }, 404);
    expect(await types()).toEqual(['installation_deleted', 'installation_setup', 'installation_setup']);
    const [deleted, setup2] = (await events()).items;
    expect(deleted?.payload).toMatchObject({ installationId: installation.id, previous: { configuration: { channel: '#docs' } } });
    expect(setup2?.payload).toMatchObject({ status: 'active', previous: { status: 'active', configuration: {} } });
    for (const item of (await events()).items) expect(schemaErrors('IntegrationEvent', item)).toEqual([]);
  });

  it('needs admin where it installs; a private integration stays in its organization', async () => {
    await publish();
    const editor = await h.member('ed@acme.test', 'edit');
    await h.fails(editor, 'installIntegration', { params: at(), body: { organization: h.orgId } }, 403, /"admin" role in organization/);
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    await h.admin.fails('installIntegration', { params: at(), body: { organization: other } }, 403, /private to organization/);
    await h.admin.fails('installIntegration', { params: at(), body: { organization: 'nowhere' } }, 404);
    await h.admin.fails('installIntegration', { params: at({ integrationName: 'missing' }), body: { organization: h.orgId } }, 404);
    // Public: installable in another organization, where its admins manage it and the publisher reads it.
    await publish({ visibility: 'public' });
    const installed = await install(other);
    const outsider = await h.member('out@other.test', 'admin', other);
    const params = at({ installationId: installed.id });
    expect((await h.ok(outsider, 'getIntegrationInstallationById', { params })).id).toBe(installed.id);
    const stranger = await h.member('st@third.test', 'admin', await h.createOrg('Third', { [h.adminId]: 'admin' }));
    await h.fails(stranger, 'getIntegrationInstallationById', { params }, 404);
    expect((await h.call(stranger, 'uninstallIntegration', { params })).status).toBe(204);
    // An editor of the installing organization may not read it.
    const otherEditor = await h.member('oe@other.test', 'edit', other);
    await h.fails(otherEditor, 'getIntegrationInstallationById', { params }, 403);
  });
});

describe('installing on spaces and sites', () => {
  it('installs on a space of its organization, lists, updates and uninstalls', async () => {
    await publish();
    const installation = await install();
    const space = await h.createSpace({ title: 'Handbook' });
    const params = at({ installationId: installation.id });
    const onSpace = await h.admin.ok<Obj & { space: unknown }>('installIntegrationOnSpace', { params, body: { space: space.id } }, 201);
    expect(onSpace).toMatchObject({ integration: NAME, installation: installation.id, status: 'active', space: space.id, externalIds: [], configuration: {} });
    expect(schemaErrors('IntegrationSpaceInstallation', onSpace)).toEqual([]);
    expect(await h.admin.ok('installIntegrationOnSpace', { params, body: { space: space.id } }, 200)).toEqual(onSpace);
    const extended = await h.admin.ok<{ space: Obj }>('getIntegrationSpaceInstallation', { params: { ...params, spaceId: space.id }, query: { extended: 'true' } });
    expect(extended.space).toMatchObject({ object: 'space', id: space.id, title: 'Handbook' });
    expect(schemaErrors('IntegrationSpaceInstallation', extended)).toEqual([]);
    expect(await h.admin.ok('getIntegrationInstallationById', { params })).toMatchObject({ spaces: 1 });

    const list = await h.admin.ok<{ items: Obj[]; count: number }>('listIntegrationInstallationSpaces', { params });
    expect(list.count).toBe(1);
    expect(list.items.map((i) => i.space)).toEqual([space.id]);
    const updated = await h.admin.ok('updateIntegrationSpaceInstallation', { params: { ...params, spaceId: space.id }, body: { externalIds: ['C9'] } });
    expect(updated).toMatchObject({ externalIds: ['C9'] });
    expect((await h.admin.ok<{ items: Obj[] }>('listIntegrationSpaceInstallations', { params: at(), query: { externalId: 'C9' } })).items).toHaveLength(1);
    expect((await h.admin.ok<{ items: Obj[]; count: number }>('listIntegrationSpaceInstallations', { params: at(), query: { externalId: 'C0' } })).count).toBe(0);
    expect((await h.admin.ok<{ items: Array<{ name: string }> }>('listSpaceIntegrations', { params: { spaceId: space.id } })).items.map((i) => i.name)).toEqual([NAME]);

    expect((await h.admin.call('uninstallIntegrationFromSpace', { params: { ...params, spaceId: space.id } })).status).toBe(205);
    expect((await h.admin.call('uninstallIntegrationFromSpace', { params: { ...params, spaceId: space.id } })).status).toBe(204);
    expect(await h.admin.ok('getIntegrationInstallationById', { params })).toMatchObject({ spaces: 0 });
    expect((await h.admin.ok<{ count: number }>('listSpaceIntegrations', { params: { spaceId: space.id } })).count).toBe(0);
    expect(await types()).toEqual(['space_installation_deleted', 'space_installation_setup', 'space_installation_setup', 'installation_setup']);
    expect((await events()).items[0]?.payload).toMatchObject({ spaceId: space.id, installationId: installation.id, previous: { configuration: {} } });
  });

  it('refuses spaces of another organization, a target the integration does not have, and non-admins', async () => {
    await publish({ target: 'site' });
    const installation = await install();
    const params = at({ installationId: installation.id });
    const space = await h.createSpace({ title: 'Handbook' });
    await h.admin.fails('installIntegrationOnSpace', { params, body: { space: space.id } }, 400, /sites only/);
    await publish({ target: 'all' });
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const foreign = await h.createSpace({ title: 'Theirs' }, other);
    await h.admin.fails('installIntegrationOnSpace', { params, body: { space: foreign.id } }, 404, /not found in organization/);
    await h.admin.fails('installIntegrationOnSpace', { params, body: { space: '../x' } }, 404);
    const editor = await h.member('ed@acme.test', 'edit');
    await h.fails(editor, 'installIntegrationOnSpace', { params, body: { space: space.id } }, 403, /"admin" role/);
    expect(await types()).toEqual(['installation_setup']);
  });

  it('installs on a site, and lists what is installed where in the organization', async () => {
    await publish();
    const installation = await install();
    const params = at({ installationId: installation.id });
    const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs' } }, 201);
    const onSite = await h.admin.ok('installIntegrationOnSite', { params, body: { siteId: site.id } }, 201);
    expect(onSite).toMatchObject({ site: site.id, installation: installation.id });
    expect(schemaErrors('IntegrationSiteInstallation', onSite)).toEqual([]);
    const extended = await h.admin.ok<{ site: Obj }>('getIntegrationSiteInstallation', { params: { ...params, siteId: site.id }, query: { extended: 'true' } });
    expect(extended.site).toMatchObject({ object: 'site', id: site.id });
    expect(schemaErrors('IntegrationSiteInstallation', extended)).toEqual([]);
    expect((await h.admin.ok<{ items: Obj[] }>('listIntegrationInstallationSites', { params })).items.map((i) => i.site)).toEqual([site.id]);
    expect((await h.admin.ok<{ items: Obj[] }>('listSiteIntegrations', { params: { organizationId: h.orgId, siteId: site.id } })).items.map((i) => i.name)).toEqual([NAME]);
    const space = await h.createSpace({ title: 'Handbook' });
    await h.admin.ok('installIntegrationOnSpace', { params, body: { space: space.id } }, 201);

    const statuses = async (query: Record<string, unknown> = {}) =>
      (await h.admin.ok<{ items: Array<{ target: Record<string, string>; status: string }>; count: number }>('listOrganizationIntegrationsStatus', { params: { organizationId: h.orgId }, query })).items.map(
        (item) => `${item.target.type}:${item.target.spaceId ?? item.target.siteId ?? item.target.organizationId}`,
      );
    expect(await statuses()).toEqual([`organization:${h.orgId}`, `site:${site.id}`, `space:${space.id}`]);
    expect(await statuses({ target: 'space' })).toEqual([`space:${space.id}`]);
    expect(await statuses({ site: site.id })).toEqual([`site:${site.id}`]);
    await h.admin.fails('listOrganizationIntegrationsStatus', { params: { organizationId: h.orgId }, query: { site: site.id, space: space.id } }, 400, /not both/);
    await h.admin.fails('listOrganizationIntegrationsStatus', { params: { organizationId: h.orgId }, query: { target: 'site', space: space.id } }, 400);
    expect(await h.admin.ok('getOrganizationIntegrationStatus', { params: { organizationId: h.orgId, integrationName: NAME } })).toEqual({ status: 'active' });
    const installed = await h.admin.ok<{ items: Array<{ integration: Obj; installation: Obj }> }>('listOrganizationInstallations', { params: { organizationId: h.orgId } });
    expect(installed.items.map((item) => [item.integration.name, item.installation.id])).toEqual([[NAME, installation.id]]);
    expect((await h.admin.ok<{ count: number }>('listOrganizationInstallations', { params: { organizationId: h.orgId }, query: { search: 'zzz' } })).count).toBe(0);

    // Uninstalling the organization's installation takes its space and site installations with it.
    await h.admin.call('uninstallIntegration', { params });
    expect(await statuses()).toEqual([]);
    expect((await h.admin.ok<{ count: number }>('listIntegrationSiteInstallations', { params: at() })).count).toBe(0);
    await h.admin.fails('getOrganizationIntegrationStatus', { params: { organizationId: h.orgId, integrationName: NAME } }, 404, /not installed/);
  });

  it('lists the integrations an organization can install: public ones and its own', async () => {
    await publish();
    await publish({ visibility: 'public' }, 'public-one');
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const names = async (org: string) =>
      (await h.admin.ok<{ items: Array<{ name: string }> }>('listOrganizationIntegrations', { params: { organizationId: org } })).items.map((i) => i.name);
    expect(await names(h.orgId)).toEqual(['public-one', NAME]);
    expect(await names(other)).toEqual(['public-one']);
  });
});

describe('events', () => {
  it('records space_content_updated when the content of a covered space changes, and visibility changes', async () => {
    await publish();
    const installation = await install();
    const covered = await h.createSpace({ title: 'Covered' });
    const other = await h.createSpace({ title: 'Not covered' });
    await h.admin.ok('installIntegrationOnSpace', { params: at({ installationId: installation.id }), body: { space: covered.id } }, 201);
    const dir = mkdtempSync(join(os.tmpdir(), 'docsctl-integ-events-'));
    const page = join(dir, 'guide.md');
    writeFileSync(page, '# Guide\n\nSteps.\n');
    const edit = async (spaceId: string) => {
      await h.admin.ok('importContent', { params: { spaceId }, body: { url: pathToFileURL(page).href, source: 'markdown' } }, 201);
    };
    await edit(other.id);
    expect(await types()).toEqual(['space_installation_setup', 'installation_setup']);
    await edit(covered.id);
    const [updated] = (await events()).items;
    expect(updated?.payload).toMatchObject({ type: 'space_content_updated', spaceId: covered.id, installationId: installation.id });
    expect((updated?.payload.updatedBy as Obj[]).map((user) => user.id)).toEqual([h.adminId]);
    expect(updated?.payload.revisionId).toBe((await h.admin.ok<{ revision: string }>('getSpaceById', { params: { spaceId: covered.id } })).revision);
    expect(schemaErrors('IntegrationEvent', updated)).toEqual([]);

    // With all spaces selected, every space is covered; moving one out of its collection changes its visibility.
    const collection = await h.createCollection({ title: 'Guides' });
    const inside = await h.createSpace({ title: 'Inside', parent: collection.id });
    expect(inside.visibility).toBe('in-collection');
    await h.admin.ok('updateIntegrationInstallation', { params: at({ installationId: installation.id }), body: { space_selection: 'all' } });
    await edit(other.id);
    expect((await events()).items[0]?.payload).toMatchObject({ type: 'space_content_updated', spaceId: other.id });
    await h.admin.ok('moveSpace', { params: { spaceId: inside.id }, body: { parent: null } });
    const [moved] = (await events()).items;
    expect(moved?.payload).toMatchObject({ type: 'space_visibility_updated', spaceId: inside.id, previousVisibility: 'in-collection', visibility: 'private' });
    expect(schemaErrors('IntegrationEvent', moved)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('pages newest first, reads one by id with its (empty) trace, and keeps the newest MAX_EVENTS', async () => {
    await publish();
    const installation = await install();
    for (let i = 0; i < 4; i++) {
      h.clock.advance(1000);
      await h.admin.ok('queueIntegrationTask', { params: at(), body: { task: { n: i } } }, 204);
    }
    const first = await events({ limit: 2 });
    expect(first.count).toBe(5);
    expect(first.items.map((e) => (e.payload.task as { n: number }).n)).toEqual([3, 2]);
    const second = await events({ limit: 2, page: first.next?.page });
    expect(second.items.map((e) => e.payload.type)).toEqual(['task', 'task']);
    const third = await events({ limit: 2, page: second.next?.page });
    expect(third.items.map((e) => e.payload.type)).toEqual(['installation_setup']);
    expect(third.next).toBeUndefined();
    const one = await h.admin.ok<{ event: EventItem; trace: { logs: unknown[] } }>('getIntegrationEvent', { params: at({ eventId: third.items[0]?.id }) });
    expect(one.event).toEqual(third.items[0]);
    expect(one.trace).toEqual({ logs: [] });
    expect(one.event.installationId).toBe(installation.id);
    await h.admin.fails('getIntegrationEvent', { params: at({ eventId: 'nope/..' }) }, 404);
    await h.admin.fails('queueIntegrationTask', { params: at(), body: { task: { blob: 'x'.repeat(20_000) } } }, 400, /16 KiB/);

    // The cap: one more append past MAX_EVENTS drops the oldest, so the count stays bounded.
    await h.store.transact((tx) => {
      for (let i = 0; i < MAX_EVENTS; i++) recordEvent(h, tx, NAME, { type: 'task', task: { bulk: i } });
    });
    const page = listEvents(h.store.read(), NAME, { limit: 1 });
    expect(page.count).toBe(MAX_EVENTS);
    expect((page.items[0]?.payload.task as { bulk: number }).bulk).toBe(MAX_EVENTS - 1);
    await h.admin.fails('getIntegrationEvent', { params: at({ eventId: one.event.id }) }, 404, /newest 10000 events/);
  });

  it('are read by the publisher only', async () => {
    await publish({ visibility: 'public' });
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const outsider = await h.member('out@other.test', 'admin', other);
    await h.fails(outsider, 'listIntegrationEvents', { params: at() }, 403, /"admin" role/);
    const editor = await h.member('ed@acme.test', 'edit');
    await h.fails(editor, 'getIntegrationEvent', { params: at({ eventId: 'x' }) }, 403);
  });
});

describe('development mode', () => {
  it('records the tunnel and forgets it; the publisher only', async () => {
    await publish();
    expect((await h.admin.call('setIntegrationDevelopmentMode', { params: at(), body: { tunnelUrl: 'https://dev.example.test', all: true } })).status).toBe(204);
    expect(developmentMode(h.store.read(), NAME)).toMatchObject({ tunnelUrl: 'https://dev.example.test', all: true, by: h.adminId });
    await h.admin.fails('setIntegrationDevelopmentMode', { params: at(), body: { tunnelUrl: 'not a url' } }, 400);
    const editor = await h.member('ed@acme.test', 'edit');
    await h.fails(editor, 'setIntegrationDevelopmentMode', { params: at(), body: { tunnelUrl: 'https://x.test' } }, 403);
    expect((await h.admin.call('disableIntegrationDevelopmentMode', { params: at() })).status).toBe(205);
    expect(developmentMode(h.store.read(), NAME)).toBeUndefined();
  });
});

describe('installation tokens: a hostile holder reaches only what the installation covers', () => {
  async function tokenFor(installationId: string) {
    const { token } = await h.admin.ok<{ token: string }>('createIntegrationInstallationToken', { params: at({ installationId }) });
    expect(schemaErrors('APITemporaryToken', { token })).toEqual([]);
    return token;
  }
  const asToken = (token: string) => {
    const call = (routeId: RouteId, raw: RawInput = {}) => {
      const actor = actorForToken(h.store.read(), token);
      if (!actor) throw new ApiError(401, 'Invalid API token');
      return executeOperation({ store: h.store, actor, clock: h.clock, ids: h.ids, origin: ORIGIN }, getRoute(routeId), raw);
    };
    const fails = async (routeId: RouteId, raw: RawInput, status: number, message?: RegExp) => {
      const error = await call(routeId, raw).then(
        (result) => new Error(`expected ${status}, got ${result.status}`),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      if (message) expect((error as ApiError).message).toMatch(message);
    };
    return { call, fails };
  };

  it('reads a covered space, nothing else, and writes only with a write scope', async () => {
    await publish();
    const installation = await install();
    const covered = await h.createSpace({ title: 'Covered' });
    const hidden = await h.createSpace({ title: 'Hidden' });
    const params = at({ installationId: installation.id });
    await h.admin.ok('installIntegrationOnSpace', { params, body: { space: covered.id } }, 201);
    const token = await tokenFor(installation.id);
    expect(userIdForToken(h.store.read(), token)).toBeUndefined(); // not a user token anywhere else
    const t = asToken(token);
    const before = JSON.stringify(h.store.read().scan('spaces', {}));

    expect((await t.call('getSpaceById', { params: { spaceId: covered.id } })).body).toMatchObject({ id: covered.id });
    await t.fails('getSpaceById', { params: { spaceId: hidden.id } }, 404);
    await t.fails('getSpaceById', { params: { spaceId: '../../etc' } }, 404);
    await t.fails('updateSpaceById', { params: { spaceId: covered.id }, body: { title: 'Pwned' } }, 403, /no space:…:write scope/);
    await t.fails('deleteSpaceById', { params: { spaceId: covered.id } }, 403);
    await t.fails('listSpacesInOrganizationById', { params: { organizationId: h.orgId } }, 403, /outside it/);
    await t.fails('getAuthenticatedUser', {}, 403, /outside it/);
    await t.fails('createIntegrationInstallationToken', { params }, 403, /outside it/);
    await t.fails('installIntegrationOnSpace', { params, body: { space: hidden.id } }, 403, /outside it/);
    await t.fails('uninstallIntegration', { params }, 403, /outside it/);
    await t.fails('publishIntegration', { params: at(), body: manifest(h.orgId) }, 403, /outside it/);
    await t.fails('listIntegrationEvents', { params: at() }, 403, /outside it/);
    expect(JSON.stringify(h.store.read().scan('spaces', {}))).toBe(before);
    // Its own installation: read it, and configure it.
    expect((await t.call('getIntegrationInstallationById', { params })).body).toMatchObject({ id: installation.id });
    expect((await t.call('updateIntegrationInstallation', { params, body: { externalIds: ['X'] } })).body).toMatchObject({ externalIds: ['X'] });

    // With a write scope it edits the covered space (as its installer could), still nothing else.
    await publish({ scopes: ['space:content:read', 'space:metadata:write'] });
    expect((await t.call('updateSpaceById', { params: { spaceId: covered.id }, body: { title: 'Renamed' } })).body).toMatchObject({ title: 'Renamed' });
    await t.fails('updateSpaceById', { params: { spaceId: hidden.id }, body: { title: 'Pwned' } }, 404);
  });

  it('stops working once it expires or its installation is uninstalled', async () => {
    await publish();
    const installation = await install();
    const space = await h.createSpace({ title: 'Covered' });
    const params = at({ installationId: installation.id });
    await h.admin.ok('installIntegrationOnSpace', { params, body: { space: space.id } }, 201);
    const t = asToken(await tokenFor(installation.id));
    expect((await t.call('getSpaceById', { params: { spaceId: space.id } })).status).toBe(200);
    h.clock.advance(60 * 60 * 1000);
    await t.fails('getSpaceById', { params: { spaceId: space.id } }, 401, /expired/);
    const fresh = asToken(await tokenFor(installation.id));
    await h.admin.call('uninstallIntegrationFromSpace', { params: { ...params, spaceId: space.id } });
    await fresh.fails('getSpaceById', { params: { spaceId: space.id } }, 404);
    await h.admin.call('uninstallIntegration', { params });
    await fresh.fails('getSpaceById', { params: { spaceId: space.id } }, 401, /uninstalled/);
  });
});
