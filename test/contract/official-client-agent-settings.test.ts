/**
 * The official GitBook client against `docsctl serve` for the AI agent settings: a site's
 * (`getSiteAgentSettingsById`, `updateSiteAgentSettingsById`) and the organization's Docs agent
 * instructions (`getOrganizationAgentInstructions`, `updateOrganizationAgentInstructions`); every
 * answer checked against the 0.202 schemas, the defaults before any write, a bad body refused;
 * and the GitBook Agent channels of a site (create, list, get, update, delete: 205 then 204).
 */
import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, clientOperation, compileValidators, refusalOf, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);
const refusal = (operationId: string, ...args: unknown[]) => refusalOf(api, operationId, ...args);

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
const doc = (...texts: string[]) => ({ object: 'document', data: {}, nodes: texts.map(paragraph) });

beforeAll(async () => {
  compileValidators([
    ['getSiteAgentSettingsById', 200],
    ['updateSiteAgentSettingsById', 200],
    ['getOrganizationAgentInstructions', 200],
    ['updateOrganizationAgentInstructions', 200],
    ['createSiteChannel', 201],
    ['listSiteChannels', 200],
    ['getSiteChannelById', 200],
    ['updateSiteChannelById', 200],
  ]);
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
});

afterAll(() => server?.close());

describe('the official GitBook client: AI agent settings', () => {
  it("a site's settings: defaults, replaced whole, refused when incomplete, gone with the site", async () => {
    const space = (await call('createSpace', 201, org, { title: 'Guide' })).id as string;
    const site = (await call('createSite', 201, org, { title: 'Docs', spaces: [space] })).id as string;
    const location = `${server.url}/v1/orgs/${org}/sites/${site}/agent-settings`;
    expect(await call('getSiteAgentSettingsById', 200, org, site)).toEqual({
      object: 'site-agent-settings',
      urls: { location },
      scans: { topics: 'auto' },
      findings: { changeRequests: 'never' },
      editing: { customInstructions: doc() },
    });
    const settings = { scans: { topics: 'never' }, findings: { changeRequests: 'auto-fixable' }, editing: { customInstructions: doc('Be brief.') } };
    const updated = await call('updateSiteAgentSettingsById', 200, org, site, settings);
    expect(updated).toEqual({ object: 'site-agent-settings', urls: { location }, updatedAt: expect.any(String), updatedBy: expect.any(String), ...settings });
    expect(await call('getSiteAgentSettingsById', 200, org, site)).toEqual(updated);

    expect(await refusal('updateSiteAgentSettingsById', org, site, { scans: { topics: 'never' } })).toMatchObject({ code: 400, message: expect.stringMatching(/findings/) });
    expect(await refusal('updateSiteAgentSettingsById', org, site, { ...settings, scans: { topics: 'daily' } })).toMatchObject({ code: 400 });
    expect(await call('getSiteAgentSettingsById', 200, org, site)).toEqual(updated);

    await clientOperation(api, 'deleteSiteById')(org, site);
    expect(await refusal('getSiteAgentSettingsById', org, site)).toMatchObject({ code: 404 });
  });

  it("the organization's Docs agent instructions: an empty document until set, then the document given", async () => {
    const organization = (await call('getOrganizationById', 200, org)) as { createdAt: string };
    const before = await call('getOrganizationAgentInstructions', 200, org);
    expect(before).toEqual({
      object: 'agent-instructions',
      instructions: doc(),
      updatedAt: organization.createdAt,
      updatedBy: expect.stringMatching(/.+/),
      urls: { location: `${server.url}/v1/orgs/${org}/agent-instructions` },
    });
    const updated = await call('updateOrganizationAgentInstructions', 200, org, { instructions: doc('Answer in British English.', 'Link to the API reference.') });
    expect(updated).toMatchObject({ object: 'agent-instructions', instructions: doc('Answer in British English.', 'Link to the API reference.'), updatedAt: expect.any(String), updatedBy: before.updatedBy });
    expect(await call('getOrganizationAgentInstructions', 200, org)).toEqual(updated);
    expect(await refusal('updateOrganizationAgentInstructions', org, { instructions: { nodes: [] } })).toMatchObject({ code: 400 });
  });

  it('GitBook Agent channels: created pending with the list its tool takes, updated, deleted once', async () => {
    const space = (await call('createSpace', 201, org, { title: 'Channels' })).id as string;
    const site = (await call('createSite', 201, org, { title: 'Docs', spaces: [space] })).id as string;
    const created = await call('createSiteChannel', 201, org, site, { type: 'builtin:github', setupSettings: { allowedRepositories: ['acme/docs'] } });
    expect(created).toEqual({
      object: 'site-channel',
      id: expect.any(String),
      type: 'builtin:github',
      setupSettings: { allowedRepositories: ['acme/docs'] },
      status: 'pending',
      role: 'support',
      answers: 0,
      createdAt: expect.any(String),
      urls: { location: `${server.url}/v1/orgs/${org}/sites/${site}/channels/${created.id}` },
    });
    expect(await call('listSiteChannels', 200, org, site)).toMatchObject({ items: [created] });
    const updated = await call('updateSiteChannelById', 200, org, site, created.id, { role: 'collaborator' });
    expect(updated).toEqual({ ...created, role: 'collaborator' });
    expect(await call('getSiteChannelById', 200, org, site, created.id)).toEqual(updated);
    expect(await refusal('createSiteChannel', org, site, { type: 'builtin:github', setupSettings: { allowedChannels: ['x'] } })).toMatchObject({ code: 400 });
    expect(await refusal('updateSiteChannelById', org, site, created.id, { type: 'builtin:slack', setupSettings: {} })).toMatchObject({ code: 400 });
    const remove = clientOperation(api, 'deleteSiteChannelById');
    expect((await remove(org, site, created.id)).status).toBe(205);
    expect((await remove(org, site, created.id)).status).toBe(204);
    expect(await refusal('getSiteChannelById', org, site, created.id)).toMatchObject({ code: 404 });
  });
});
