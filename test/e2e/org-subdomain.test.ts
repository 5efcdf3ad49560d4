/**
 * `org subdomain NAME` (getSubdomain, real API) and `org edit --hostname`: the organization a
 * `<hostname>.gitbook.io` subdomain belongs to. Through the built binary, locally and against
 * `docsctl serve`; the answer against 0.202's `Subdomain` and a hostname given up through executeOperation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { contentSetup } from '../domain/content/helpers.js';

describeInBothModes('org subdomain', (context) => {
  let cli: BinaryMode;
  let org: string;
  beforeAll(async () => {
    ({ cli } = context);
    org = (await cli.ok(['org', 'list', '--format', 'ids'])).split('\n')[0] as string;
  });

  it('names the organization of a hostname it set, in any letter case, as a table and as JSON', async () => {
    await cli.ok(['org', 'edit', org, '--hostname', 'acme-docs']);
    expect(await cli.ok(['org', 'subdomain', 'acme-docs', '--format', 'tsv'])).toBe(`acme-docs\t${org}\ttrue`);
    expect(JSON.parse(await cli.ok(['org', 'subdomain', 'ACME-Docs', '--json']))).toEqual({
      object: 'subdomain',
      subdomain: 'acme-docs',
      target: { type: 'organization', organization: org },
      isActive: true,
    });
  });

  it('says how to take a subdomain nobody has (exit 4), and refuses an invalid hostname (exit 2)', async () => {
    const missing = await cli.run(['org', 'subdomain', 'nobody-here']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/^error: No organization has the subdomain "nobody-here": an organization takes one with "docsctl org edit ORG --hostname NAME"/);
    const invalid = await cli.run(['org', 'edit', org, '--hostname', 'Not_Valid']);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/Invalid hostname "Not_Valid"/);
  });
});

describe('getSubdomain', () => {
  it('answers 0.202 Subdomain to any caller, and 404 once the organization takes another hostname', async () => {
    const h = await contentSetup();
    await h.admin.ok('updateOrganizationById', { params: { organizationId: h.orgId }, body: { hostname: 'first' } });
    const stranger = await h.member('eve@other.test', 'admin', await h.createOrg('Other', { [h.adminId]: 'admin' }));
    expect(await h.ok(stranger, 'getSubdomain', { params: { subdomain: 'first' } })).toMatchObject({ target: { organization: h.orgId } });
    await h.admin.ok('updateOrganizationById', { params: { organizationId: h.orgId }, body: { hostname: 'second' } });
    await h.fails(h.adminId, 'getSubdomain', { params: { subdomain: 'first' } }, 404);
    expect(await h.admin.ok('getSubdomain', { params: { subdomain: 'second' } })).toMatchObject({ subdomain: 'second' });
  });
});
