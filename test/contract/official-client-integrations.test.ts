/**
 * The official GitBook client of 0.202 against `docsctl serve` for integration
 * installations: install on the organization, a space and a site, read, list, update,
 * statuses, a token that acts for the installation, events (what `gitbook tail` reads),
 * development mode, tasks, uninstall. Every 2xx answer is checked against 0.202's schema
 * for its operation, and its values asserted.
 */
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, clientOperation, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let user: string;

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);
/** The client throws on an empty 204/205 body unless told not to parse one. */
const NO_BODY = { format: undefined };

beforeAll(async () => {
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
  user = served.boot.user.id;
});

afterAll(() => server?.close());

describe('the official GitBook client 0.202: integration installations and events', () => {
  it('installs on the organization, a space and a site; reads, lists, updates; events newest first; uninstalls', async () => {
    await call('publishIntegration', 200, 'notify', {
      title: 'Notify',
      description: 'Tells a channel',
      scopes: ['space:content:read', 'site:metadata:read'],
      script: 'export default {}',
      organization: org,
    });
    const installation = await call('installIntegration', 201, 'notify', { organization: org });
    expect(installation).toMatchObject({ status: 'active', space_selection: 'selected', spaces: 0, target: { organization: org } });
    const space = await call('createSpace', 201, org, { title: 'Handbook' });
    const site = await call('createSite', 201, org, { title: 'Docs' });

    const onSpace = await call('installIntegrationOnSpace', 201, 'notify', installation.id, { space: space.id });
    expect(onSpace).toMatchObject({ integration: 'notify', installation: installation.id, space: space.id, status: 'active' });
    const onSite = await call('installIntegrationOnSite', 201, 'notify', installation.id, { siteId: site.id }, { extended: true });
    expect(onSite.site).toMatchObject({ object: 'site', id: site.id, title: 'Docs' });

    expect(await call('getIntegrationInstallationById', 200, 'notify', installation.id)).toMatchObject({ id: installation.id, spaces: 1 });
    expect(await call('updateIntegrationInstallation', 200, 'notify', installation.id, { externalIds: ['T1'], configuration: { channel: '#docs' } })).toMatchObject({
      externalIds: ['T1'],
      configuration: { channel: '#docs' },
    });
    expect((await call('getIntegrationSpaceInstallation', 200, 'notify', installation.id, space.id, { extended: true })).space).toMatchObject({ id: space.id, title: 'Handbook' });
    expect(await call('updateIntegrationSpaceInstallation', 200, 'notify', installation.id, space.id, { externalIds: ['C1'] })).toMatchObject({ externalIds: ['C1'] });
    expect(await call('getIntegrationSiteInstallation', 200, 'notify', installation.id, site.id)).toMatchObject({ site: site.id });
    expect(await call('updateIntegrationSiteInstallation', 200, 'notify', installation.id, site.id, { configuration: { tracking: 'G-1' } })).toMatchObject({ configuration: { tracking: 'G-1' } });

    expect((await call('listIntegrationInstallationSpaces', 200, 'notify', installation.id)).items.map((i: { space: string }) => i.space)).toEqual([space.id]);
    expect((await call('listIntegrationInstallationSites', 200, 'notify', installation.id)).items.map((i: { site: string }) => i.site)).toEqual([site.id]);
    expect((await call('listIntegrationSpaceInstallations', 200, 'notify', { externalId: 'C1' })).items).toHaveLength(1);
    expect((await call('listIntegrationSiteInstallations', 200, 'notify')).count).toBe(1);
    expect((await call('listSpaceIntegrations', 200, space.id)).items.map((i: { name: string }) => i.name)).toEqual(['notify']);
    expect((await call('listSiteIntegrations', 200, org, site.id)).items.map((i: { name: string }) => i.name)).toEqual(['notify']);
    expect((await call('listOrganizationIntegrations', 200, org)).items.map((i: { name: string }) => i.name)).toEqual(['notify']);
    expect((await call('listOrganizationInstallations', 200, org)).items.map((i: { installation: { id: string } }) => i.installation.id)).toEqual([installation.id]);
    expect(await call('getOrganizationIntegrationStatus', 200, org, 'notify')).toEqual({ status: 'active' });
    const statuses = await call('listOrganizationIntegrationsStatus', 200, org);
    expect(statuses.items.map((i: { target: { type: string } }) => i.target.type)).toEqual(['organization', 'site', 'space']);

    await call('updateSpaceById', 200, space.id, { title: 'Handbook 2' });
    expect((await clientOperation(api, 'queueIntegrationTask')('notify', { task: { kind: 'sync' } }, NO_BODY)).status).toBe(204);
    const events = await call('listIntegrationEvents', 200, 'notify', { limit: 2 });
    expect(events.items.map((e: { payload: { type: string } }) => e.payload.type)).toEqual(['task', 'site_installation_setup']);
    expect(events.next).toBeDefined();
    const all = await call('listIntegrationEvents', 200, 'notify', { limit: 100 });
    expect(all.items.map((e: { payload: { type: string } }) => e.payload.type)).toEqual([
      'task',
      'site_installation_setup',
      'space_installation_setup',
      'installation_setup',
      'site_installation_setup',
      'space_installation_setup',
      'installation_setup',
    ]);
    const one = await call('getIntegrationEvent', 200, 'notify', all.items[3].id);
    expect(one).toEqual({ event: all.items[3], trace: { logs: [] } });
    expect(one.event.payload).toMatchObject({ type: 'installation_setup', installationId: installation.id, previous: { status: 'active', configuration: {} } });

    expect((await clientOperation(api, 'setIntegrationDevelopmentMode')('notify', { tunnelUrl: 'https://dev.example.test' }, NO_BODY)).status).toBe(204);
    expect((await clientOperation(api, 'disableIntegrationDevelopmentMode')('notify', NO_BODY)).status).toBe(205);

    // A token for the installation: it reads the covered space, and nothing of the organization.
    const { token } = await call('createIntegrationInstallationToken', 200, 'notify', installation.id);
    const asInstallation = new GitBookAPI({ endpoint: server.url, authToken: token });
    expect((await checkedCall(asInstallation, 'getSpaceById', 200, space.id)).title).toBe('Handbook 2');
    await expect(clientOperation(asInstallation, 'listSpacesInOrganizationById')(org)).rejects.toMatchObject({ code: 403 });
    await expect(clientOperation(asInstallation, 'getUserById')(user)).rejects.toMatchObject({ code: 403 });

    expect((await clientOperation(api, 'uninstallIntegrationFromSpace')('notify', installation.id, space.id, NO_BODY)).status).toBe(205);
    expect((await clientOperation(api, 'uninstallIntegrationFromSite')('notify', installation.id, site.id, NO_BODY)).status).toBe(205);
    expect((await clientOperation(api, 'uninstallIntegration')('notify', installation.id, NO_BODY)).status).toBe(205);
    await expect(clientOperation(asInstallation, 'getSpaceById')(space.id)).rejects.toMatchObject({ code: 401 });
    expect((await call('listIntegrationEvents', 200, 'notify', { limit: 3 })).items.map((e: { payload: { type: string } }) => e.payload.type)).toEqual([
      'installation_deleted',
      'site_installation_deleted',
      'space_installation_deleted',
    ]);
  });
});
