/**
 * `apply`, `diff` and `export org` against a server without docsctl's extensions (a proxy in
 * front of `serve` answering 404 for every /x-docsctl/ path, as GitBook's API does): the plan,
 * the state it leaves, a second apply planning nothing and the export round trip are those of
 * the other modes, and no request ever goes to an extension (the team memberships a local plan
 * reads in one listing are listed team by team).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BinaryMode, binaryMode } from '../helpers/binary.js';
import { proxy } from '../helpers/extension-proxy.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

// The issue's own example, with more teams than a quarter of which a local plan would read in one listing.
const ORG = `
members:
  - {email: alice@example.com, role: admin}
  - {email: bob@example.com, role: edit}
collections:
  - title: Engineering
    collections: [{title: Handbook}, {title: Runbooks}]
spaces:
  - {title: Onboarding, emoji: "1f680", visibility: in-collection, parent: Engineering/Handbook}
  - {title: Scratchpad, visibility: private}
teams:
  - {title: Writers, members: [bob@example.com]}
  - {title: Owners, members: [{email: alice@example.com, role: owner}, bob@example.com]}
customFields:
  - {name: tier, type: "select:single", title: Tier, options: [gold, silver]}
sites:
  - title: Developer Portal
    type: premium
    visibility: public
    sections: [{title: Guides, space: Engineering/Handbook/Onboarding}]
`;

let cli: BinaryMode;
let realApi: ReturnType<typeof proxy>;
let env: Record<string, string>;
const dir = tempDir('docsctl-apply-no-ext-');

beforeAll(async () => {
  cli = await binaryMode('remote');
  realApi = proxy(cli.env.DOCSCTL_ENDPOINT as string, 'extension');
  await realApi.listen();
  env = { DOCSCTL_ENDPOINT: realApi.url() };
}, 120_000);
afterAll(async () => {
  await realApi?.close();
  await cli?.close();
  cleanupTempDirs();
});

describe('apply against a server without docsctl extensions', { timeout: 300_000 }, () => {
  it('plans, applies, plans nothing again, exports and round-trips with public operations only', async () => {
    const file = join(dir, 'org.yaml');
    writeFileSync(file, ORG);
    const planned = await cli.run(['diff', '-f', file], { env });
    expect(planned.exitCode, planned.stderr).toBe(1);
    expect(planned.stdout).toContain('+ team Owners\n    members.alice@example.com: "owner"\n    members.bob@example.com: "member"');
    const applied = await cli.run(['apply', '-f', file], { env });
    expect(applied.exitCode, applied.stderr).toBe(0);
    const teams = JSON.parse(await cli.ok(['team', 'list', '--json'], { env })) as Array<{ id: string; title: string; members: number }>;
    expect(teams.map((t) => [t.title, t.members]).sort()).toEqual([['Owners', 2], ['Writers', 1]]);
    const owners = teams.find((t) => t.title === 'Owners') as { id: string };
    const members = JSON.parse(await cli.ok(['team', 'members', 'list', owners.id, '--json'], { env })) as Array<{ organization: { user: { email: string } }; team: { role: string } }>;
    expect(members.map((m) => [m.organization.user.email, m.team.role]).sort()).toEqual([['alice@example.com', 'owner'], ['bob@example.com', 'member']]);

    const again = await cli.run(['diff', '-f', file], { env });
    expect([again.exitCode, again.stdout]).toEqual([0, '']);
    const exported = join(dir, 'export.yaml');
    expect((await cli.run(['export', 'org', '-o', exported], { env })).exitCode).toBe(0);
    const roundTrip = await cli.run(['diff', '-f', exported, '--prune'], { env });
    expect([roundTrip.exitCode, roundTrip.stdout]).toEqual([0, '']);
    // Every request was one GitBook's API has: none reached an extension (and none was refused).
    expect(realApi.paths.length).toBeGreaterThan(10);
    expect(realApi.paths.filter((path) => path.includes('/x-docsctl/'))).toEqual([]);
    expect(realApi.paths.filter((path) => /\/teams\/[^/]+\/members/.test(path)).length).toBeGreaterThanOrEqual(2);
  });
});
