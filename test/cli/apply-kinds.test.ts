/**
 * The organization file's organization settings, site section groups (and the sections in
 * them) and permissions on collections, spaces and sites, through the built binary, locally and
 * against `docsctl serve`: the plan's lines, the state it leaves (read back with other
 * commands), a second apply planning nothing, moves between groups and role changes as `~`
 * lines, grants and groups the file leaves out removed only with --prune, a failure part way
 * and the re-run that completes it, export then apply planning nothing, and wrong references
 * refused with the line before anything changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { describeInBothModes } from '../helpers/binary.js';
import { type Named, orgFileHelpers } from '../helpers/org-files.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

const ORG = `
organization: {title: Acme Docs}
members:
  - {email: alice@example.com, role: admin}
  - {email: bob@example.com, role: edit}
collections:
  - title: Engineering
    permissions: [{team: Writers, role: edit}]
spaces:
  - {title: Guide, parent: Engineering, permissions: [{user: bob@example.com, role: review}]}
  - {title: API}
teams:
  - {title: Writers, members: [bob@example.com]}
sites:
  - title: Portal
    type: premium
    visibility: public
    sections: [{title: Start, space: API}]
    sectionGroups:
      - title: Products
        icon: box
        sections: [{title: Guides, space: Engineering/Guide, path: guides}]
        sectionGroups: [{title: Legacy}]
    permissions: [{user: alice@example.com, role: admin}, {team: Writers, role: read}]
`;

const EXPECTED_PLAN = [
  '~ organization Acme',
  '    title: "Acme" → "Acme Docs"',
  '+ member alice@example.com',
  '    role: "admin"',
  '+ member bob@example.com',
  '    role: "edit"',
  '+ collection Engineering',
  '+ space Engineering/Guide',
  '+ space API',
  '+ team Writers',
  '    members.bob@example.com: "member"',
  '+ site Portal',
  '    type: "premium"',
  '    visibility: "public"',
  '+ section group Portal/Products',
  '    icon: "box"',
  '+ section group Portal/Legacy',
  '    parent: "Products"',
  '+ site section Portal/Start',
  '    space: "API"',
  '+ site section Portal/Guides',
  '    space: "Engineering/Guide"',
  '    path: "guides"',
  '    group: "Products"',
  '+ collection permission Engineering: team Writers',
  '    role: "edit"',
  '+ space permission Engineering/Guide: bob@example.com',
  '    role: "review"',
  '+ site permission Portal: alice@example.com',
  '    role: "admin"',
  '+ site permission Portal: team Writers',
  '    role: "read"',
];

describeInBothModes('apply -f: organization, section groups, permissions', (context) => {
  const dir = tempDir('docsctl-apply-kinds-');
  const { file, json, byTitle } = orgFileHelpers(context, dir);

  it('plans the new kinds in dependency order, applies them, and the organization is what the file says', async () => {
    const organization = await json<Array<Named>>(['org', 'list']);
    await context.cli.ok(['org', 'edit', (organization[0] as Named).id, '--title', 'Acme']);
    const plan = await context.cli.run(['diff', '-f', file('org.yaml', ORG)]);
    expect(plan.exitCode, plan.stderr).toBe(1);
    expect(plan.stdout.split('\n')).toEqual(EXPECTED_PLAN);
    const applied = await context.cli.run(['apply', '-f', file('org.yaml', ORG)]);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('Applied: 15 created, 1 changed, 0 deleted');

    expect((await json<Named[]>(['org', 'list'])).map((o) => o.title)).toEqual(['Acme Docs']);
    const site = await byTitle(['site', 'list'], 'Portal');
    const { items: groups } = await json<{ items: Array<Named & { icon?: string; sectionGroup?: string }> }>(['api', 'GET', `/v1/orgs/${(organization[0] as Named).id}/sites/${site}/section-groups`]);
    const products = groups.find((g) => g.title === 'Products');
    expect(products).toMatchObject({ icon: 'box' });
    expect(groups.find((g) => g.title === 'Legacy')).toMatchObject({ sectionGroup: products?.id });
    const sections = await json<Array<Named & { path: string; sectionGroup?: string }>>(['site', 'section', 'list', site]);
    expect(sections.map((s) => [s.title, s.path, s.sectionGroup === products?.id]).sort()).toEqual([
      ['Guides', 'guides', true],
      ['Start', 'start', false],
    ]);
    const teams = await json<Array<{ permission: string; team: Named }>>(['site', 'permission', 'teams', site]);
    expect(teams.map((t) => [t.team.title, t.permission])).toEqual([['Writers', 'read']]);
    const users = await json<Array<{ permission: string; user: { email: string } }>>(['site', 'permission', 'list', site]);
    expect(users.map((u) => [u.user.email, u.permission])).toEqual([['alice@example.com', 'admin']]);
    const guide = await byTitle(['space', 'list'], 'Guide');
    const spaceUsers = await json<Array<{ permission: string; user: { email: string } }>>(['space', 'permission', 'list', guide]);
    expect(spaceUsers.map((u) => [u.user.email, u.permission])).toEqual([['bob@example.com', 'review']]);
    const engineering = await byTitle(['collection', 'list'], 'Engineering');
    const collectionTeams = await json<Array<{ permission: string; team: Named }>>(['collection', 'permission', 'teams', engineering]);
    expect(collectionTeams.map((t) => [t.team.title, t.permission])).toEqual([['Writers', 'edit']]);

    const again = await context.cli.run(['apply', '-f', file('org.yaml', ORG)]);
    expect([again.exitCode, again.stdout]).toEqual([0, '']);
  });

  it('plans moves between groups and role changes as ~ lines; grants and groups it leaves out go only with --prune', async () => {
    const changed = `
sites:
  - title: Portal
    sections: [{title: Guides, space: Engineering/Guide, path: guides}]
    sectionGroups:
      - {title: Products, icon: star, sections: [{title: Start, space: API}]}
    permissions: [{user: alice@example.com, role: edit}]
`;
    const path = file('changed.yaml', changed);
    const diff = await context.cli.run(['diff', '-f', path]);
    expect(diff.exitCode).toBe(1);
    const changes = [
      '~ section group Portal/Products',
      '    icon: "box" → "star"',
      '~ site section Portal/Guides',
      '    group: "Products" → (none)',
      '~ site section Portal/Start',
      '    group: (none) → "Products"',
      '~ site permission Portal: alice@example.com',
      '    role: "admin" → "edit"',
    ];
    expect(diff.stdout.split('\n')).toEqual(changes);
    const pruned = await context.cli.run(['diff', '-f', path, '--prune']);
    expect(pruned.stdout.split('\n')).toEqual([...changes, '- section group Portal/Legacy', '- site permission Portal: team Writers', '    role: "read"']);
    expect((await context.cli.run(['apply', '-f', path])).exitCode).toBe(0);
    const site = await byTitle(['site', 'list'], 'Portal');
    expect((await json<unknown[]>(['site', 'permission', 'teams', site])).length).toBe(1); // kept without --prune
    const done = await context.cli.run(['apply', '-f', path, '--prune', '--yes']);
    expect(done.exitCode, done.stderr).toBe(0);
    // The plan, shown before the deletions are confirmed, then each step as it is done.
    const deletions = ['- section group Portal/Legacy', '- site permission Portal: team Writers', '    role: "read"'];
    expect(done.stdout.split('\n')).toEqual([...deletions, ...deletions]);
    expect(await json<unknown[]>(['site', 'permission', 'teams', site])).toEqual([]);
    expect((await context.cli.run(['diff', '-f', path, '--prune'])).exitCode).toBe(0);
  });

  it('stops at a failing step (section groups on a basic site); a re-run continues from what exists', async () => {
    const failing = `
sites:
  - title: Basic Docs
    sectionGroups: [{title: Products}]
    permissions: [{user: bob@example.com, role: comment}]
`;
    const first = await context.cli.run(['apply', '-f', file('failing.yaml', failing)]);
    expect(first.exitCode).toBe(3); // the 403 of a basic site
    expect(first.stdout.split('\n')).toEqual(['+ site Basic Docs']);
    expect(first.stderr).toMatch(/^error: step 2 of 3 failed \(\+ section group Basic Docs\/Products\): .*; 1 applied, 2 not applied/m);
    const fixed = failing.replace('    sectionGroups: [{title: Products}]\n', '');
    const rerun = await context.cli.run(['apply', '-f', file('fixed.yaml', fixed)]);
    expect([rerun.exitCode, rerun.stdout], rerun.stderr).toEqual([0, '+ site permission Basic Docs: bob@example.com\n    role: "comment"']);
  });

  it('export then apply plans nothing, and the export holds the organization, groups and permissions', async () => {
    const exported = join(dir, `${context.mode}-export.yaml`);
    const result = await context.cli.run(['export', 'org', '-o', exported]);
    expect(result.exitCode, result.stderr).toBe(0);
    const diff = await context.cli.run(['diff', '-f', exported, '--prune']);
    expect([diff.exitCode, diff.stdout], diff.stderr).toEqual([0, '']);
    const data = parse(readFileSync(exported, 'utf8')) as Record<string, Array<Record<string, unknown>>> & { organization: unknown };
    expect(data.organization).toMatchObject({ title: 'Acme Docs' });
    expect(data.collections).toEqual([{ title: 'Engineering', defaultLevel: 'inherit', permissions: [{ team: 'Writers', role: 'edit' }] }]);
    expect(data.spaces?.find((s) => s.title === 'Guide')?.permissions).toEqual([{ user: 'bob@example.com', role: 'review' }]);
    const portal = data.sites?.find((s) => s.title === 'Portal');
    expect(portal).toMatchObject({
      sections: [{ title: 'Guides', space: 'Engineering/Guide', path: 'guides' }],
      sectionGroups: [{ title: 'Products', icon: 'star', sections: [{ title: 'Start', space: 'API', path: 'start' }] }],
      permissions: [{ user: 'alice@example.com', role: 'edit' }],
    });
    expect(data.sites?.find((s) => s.title === 'Basic Docs')?.permissions).toEqual([{ user: 'bob@example.com', role: 'comment' }]);
  });

  it('refuses a grant to someone the organization does not have, naming the line, before anything changes', async () => {
    const bad = 'spaces:\n  - title: API\n    permissions:\n      - {team: Nobody, role: read}\n';
    const result = await context.cli.run(['apply', '-f', file('bad.yaml', bad)]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(/bad\.yaml:4: spaces\[0\]\.permissions\[0\]\.team: no team "Nobody" in the file or the organization/);
    const twice = 'sites:\n  - title: Portal\n    sections: [{title: Start, space: API}]\n    sectionGroups: [{title: G, sections: [{title: Start, space: API}]}]\n';
    const dup = await context.cli.run(['apply', '-f', file('twice.yaml', twice)]);
    expect(dup.exitCode).toBe(2);
    expect(dup.stderr).toMatch(/twice\.yaml:4: sites\[0\]\.sectionGroups\[0\]\.sections\[0\]\.title: section of site "Portal" "Start" is listed twice/);
  });
});
