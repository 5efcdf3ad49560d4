/**
 * listSpaceIntegrationsBlocks and the integration embeds of getEmbedByUrlInSpace: the blocks
 * of the integrations installed on a space (directly, or on every space of the
 * organization), through executeOperation, answers checked against the 0.202 schemas.
 */
import { describe, expect, it } from 'vitest';
import { type Obj, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

const FIGMA = { id: 'figma-file', title: 'Figma file', icon: 'https://example.com/figma.png', urlUnfurl: ['https://www.figma.com/file/', 'https://figma.com/*/design'] };

async function withIntegrations() {
  const h = await setup();
  const manifest = (title: string, blocks: unknown[]) => ({ title, description: title, scopes: ['space:content:read'], script: 'export default {}', organization: h.orgId, blocks });
  await h.admin.ok('publishIntegration', { params: { integrationName: 'figma' }, body: manifest('Figma', [FIGMA]) });
  await h.admin.ok('publishIntegration', { params: { integrationName: 'slack' }, body: manifest('Slack', []) });
  await h.admin.ok('publishIntegration', { params: { integrationName: 'mermaid' }, body: manifest('Mermaid', [{ id: 'diagram', title: 'Diagram' }]) });
  const space = await h.createSpace({ title: 'Handbook' });
  const other = await h.createSpace({ title: 'Other' });
  const install = async (name: string) => h.admin.ok<Obj>('installIntegration', { params: { integrationName: name }, body: { organization: h.orgId } }, 201);
  const figma = await install('figma');
  await h.admin.ok('installIntegrationOnSpace', { params: { integrationName: 'figma', installationId: figma.id }, body: { space: space.id } }, 201);
  const slack = await install('slack');
  await h.admin.ok('installIntegrationOnSpace', { params: { integrationName: 'slack', installationId: slack.id }, body: { space: space.id } }, 201);
  const mermaid = await install('mermaid');
  return { h, space, other, mermaid };
}

describe('listSpaceIntegrationsBlocks', () => {
  it('lists the blocks of the integrations installed on the space, leaving out integrations without blocks', async () => {
    const { h, space, other, mermaid } = await withIntegrations();
    const blocks = await h.admin.ok<unknown[]>('listSpaceIntegrationsBlocks', { params: { spaceId: space.id } });
    expect(blocks).toEqual([{ name: 'figma', blocks: [FIGMA] }]);
    expect(schemaErrors('SpaceIntegrationBlocks', blocks)).toEqual([]);
    expect(await h.admin.ok('listSpaceIntegrationsBlocks', { params: { spaceId: other.id } })).toEqual([]);
    // An installation for all spaces of the organization covers both.
    await h.admin.ok('updateIntegrationInstallation', { params: { integrationName: 'mermaid', installationId: mermaid.id }, body: { space_selection: 'all' } });
    expect(await h.admin.ok('listSpaceIntegrationsBlocks', { params: { spaceId: other.id } })).toEqual([{ name: 'mermaid', blocks: [{ id: 'diagram', title: 'Diagram' }] }]);
    expect((await h.admin.ok<Array<{ name: string }>>('listSpaceIntegrationsBlocks', { params: { spaceId: space.id } })).map((entry) => entry.name)).toEqual(['figma', 'mermaid']);
    const stranger = await h.member('eve@other.test', 'admin', await h.createOrg('Other org', { [h.adminId]: 'admin' }));
    await h.fails(stranger, 'listSpaceIntegrationsBlocks', { params: { spaceId: space.id } }, 404);
  });

  it('embeds a URL an installed block unfurls as that block, in that space only', async () => {
    const { h, space, other } = await withIntegrations();
    const embed = await h.admin.ok('getEmbedByUrlInSpace', { params: { spaceId: space.id }, query: { url: 'https://www.figma.com/file/abc/Design' } });
    expect(embed).toEqual({ type: 'integration', title: 'Figma file', site: 'Figma', icon: FIGMA.icon, integration: 'figma', block: FIGMA });
    expect(schemaErrors('Embed', embed)).toEqual([]);
    expect(await h.admin.ok('getEmbedByUrlInSpace', { params: { spaceId: space.id }, query: { url: 'https://figma.com/team/design/x' } })).toMatchObject({ type: 'integration' });
    expect(await h.admin.ok('getEmbedByUrlInSpace', { params: { spaceId: other.id }, query: { url: 'https://www.figma.com/file/abc/Design' } })).toEqual({
      type: 'link',
      title: 'figma.com/file/abc/Design',
      site: 'figma.com',
    });
    expect(await h.admin.ok('getEmbedByUrl', { query: { url: 'https://www.figma.com/file/abc/Design' } })).toMatchObject({ type: 'link' });
  });
});
