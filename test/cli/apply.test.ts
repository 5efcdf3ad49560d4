/**
 * `docsctl apply -f`, `diff -f` and `export org` through the built binary, locally and against
 * `docsctl serve` (the same requests remote mode sends to any /v1 server): the plan's lines and
 * exit codes, the state it leaves (read back with other commands), a second apply planning
 * nothing, export then apply planning nothing, --prune, a failure part way and the re-run that
 * completes it, and hostile files refused before anything changes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeInBothModes } from '../helpers/binary.js';
import { orgFileHelpers } from '../helpers/org-files.js';
import { onTerminal } from '../helpers/terminal.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

const ORG = `
members:
  - {email: alice@example.com, role: admin}
  - {email: bob@example.com, role: edit}
collections:
  - title: Engineering
    collections: [{title: Handbook}, {title: Runbooks, description: When things break}]
spaces:
  - {title: Onboarding, emoji: "1f680", visibility: in-collection, parent: Engineering/Handbook, customFields: {tier: gold}}
  - {title: Scratchpad, visibility: private, defaultLevel: read}
teams:
  - {title: Writers, members: [bob@example.com, {email: alice@example.com, role: owner}]}
customFields:
  - {name: tier, type: "select:single", title: Tier, options: [gold, silver]}
sites:
  - title: Developer Portal
    type: premium
    visibility: public
    sections: [{title: Guides, space: Engineering/Handbook/Onboarding, path: guides}]
    redirects: [{source: /start, destination: {section: Guides}, permanent: true}]
    customization: {styling: {primaryColor: {light: "#112233"}}}
`;

const EXPECTED_PLAN = [
  '+ custom field tier',
  '    type: "select:single"',
  '    title: "Tier"',
  '    options: ["gold","silver"]',
  '+ member alice@example.com',
  '    role: "admin"',
  '+ member bob@example.com',
  '    role: "edit"',
  '+ collection Engineering',
  '+ collection Engineering/Handbook',
  '+ collection Engineering/Runbooks',
  '    description: "When things break"',
  '+ space Engineering/Handbook/Onboarding',
  '    emoji: "1f680"',
  '    customFields.tier: "gold"',
  '+ space Scratchpad',
  '    defaultLevel: "read"',
  '+ team Writers',
  '    members.bob@example.com: "member"',
  '    members.alice@example.com: "owner"',
  '+ site Developer Portal',
  '    type: "premium"',
  '    visibility: "public"',
  '+ site section Developer Portal/Guides',
  '    space: "Engineering/Handbook/Onboarding"',
  '    path: "guides"',
  '+ redirect Developer Portal/start',
  '    destination: "section Guides"',
  '    permanent: true',
  '+ site customization Developer Portal',
  '    customization.styling.primaryColor.light: "#112233"',
];

interface Listed {
  id: string;
  title: string;
  parent?: string;
  emoji?: string;
  defaultLevel?: string;
  description?: string;
}

describeInBothModes('apply -f / diff -f / export org', (context) => {
  const dir = tempDir('docsctl-apply-');
  const { file, json } = orgFileHelpers(context, dir);

  it('plans the file as + lines and exits 1 (something would change), changing nothing', async () => {
    const result = await context.cli.run(['diff', '-f', file('org.yaml', ORG)]);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stdout.split('\n')).toEqual(EXPECTED_PLAN);
    expect(result.stderr).toContain('Plan: 13 to create, 0 to change, 0 to delete (dry run: nothing changed)');
    expect(await json<unknown[]>(['space', 'list'])).toEqual([]);
  });

  it('applies it in dependency order, and the organization is what the file says', async () => {
    const result = await context.cli.run(['apply', '-f', file('org.yaml', ORG)]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.split('\n').filter((line) => !line.startsWith(' '))).toEqual(EXPECTED_PLAN.filter((line) => !line.startsWith(' ')));
    expect(result.stderr).toContain('Applied: 13 created, 0 changed, 0 deleted');

    const collections = await json<Listed[]>(['collection', 'list']);
    const engineering = collections.find((c) => c.title === 'Engineering') as Listed;
    const handbook = collections.find((c) => c.title === 'Handbook') as Listed;
    expect(engineering.parent).toBeUndefined();
    expect(handbook.parent).toBe(engineering.id);
    expect(collections.find((c) => c.title === 'Runbooks')).toMatchObject({ parent: engineering.id, description: 'When things break' });
    const spaces = await json<Listed[]>(['space', 'list']);
    const onboarding = spaces.find((s) => s.title === 'Onboarding') as Listed;
    expect(onboarding).toMatchObject({ emoji: '1f680', parent: handbook.id, visibility: 'in-collection' });
    expect(spaces.find((s) => s.title === 'Scratchpad')).toMatchObject({ visibility: 'private', defaultLevel: 'read' });
    const fields = await json<Array<{ customField: { name: string }; value?: unknown }>>(['api', 'GET', `/v1/spaces/${onboarding.id}/custom-fields`]);
    expect(fields.map((f) => [f.customField.name, f.value])).toEqual([['tier', 'gold']]);

    const members = await json<Array<{ role: string; user: { email: string } }>>(['member', 'list']);
    expect(Object.fromEntries(members.map((m) => [m.user.email, m.role]))).toMatchObject({ 'alice@example.com': 'admin', 'bob@example.com': 'edit' });
    const team = (await json<Listed[]>(['team', 'list']))[0] as Listed;
    expect(team.title).toBe('Writers');
    const teamMembers = await context.cli.ok(['team', 'members', 'list', team.id, '--json']);
    const byEmail = Object.fromEntries(
      (JSON.parse(teamMembers) as Array<{ organization: { user: { email: string } }; team: { role: string } }>).map((m) => [m.organization.user.email, m.team.role]),
    );
    expect(byEmail).toEqual({ 'bob@example.com': 'member', 'alice@example.com': 'owner' });

    const site = (await json<Array<Listed & { type: string; visibility: string }>>(['site', 'list']))[0] as Listed & { type: string; visibility: string };
    expect(site).toMatchObject({ title: 'Developer Portal', type: 'premium', visibility: 'public' });
    const sections = await json<Array<{ id: string; title: string; path: string; siteSpaces: Array<{ space: { id: string } }> }>>(['site', 'section', 'list', site.id]);
    expect(sections.map((s) => [s.title, s.path, s.siteSpaces[0]?.space.id])).toEqual([['Guides', 'guides', onboarding.id]]);
    const redirects = await json<Array<{ source: string; permanent: boolean; destination: unknown }>>(['site', 'redirect', 'list', site.id]);
    expect(redirects.map((r) => [r.source, r.permanent, r.destination])).toEqual([['/start', true, { kind: 'site-section', siteSectionId: sections[0]?.id }]]);
    const customization = await json<{ styling: { primaryColor: { light: string } } }>(['site', 'customization', 'get', site.id]);
    expect(customization.styling.primaryColor.light).toBe('#112233');
  });

  it('a second apply plans nothing (exit 0, no output)', async () => {
    const diff = await context.cli.run(['diff', '-f', file('org.yaml', ORG)]);
    expect([diff.exitCode, diff.stdout]).toEqual([0, '']);
    expect(diff.stderr).toContain('Nothing to change: the organization matches');
    const apply = await context.cli.run(['apply', '-f', file('org.yaml', ORG)]);
    expect([apply.exitCode, apply.stdout]).toEqual([0, '']);
  });

  it('plans changed fields as ~ lines, and --json gives the plan as data', async () => {
    const changed = ORG.replace('role: edit', 'role: review').replace('emoji: "1f680"', 'emoji: "1f4dd"').replace('{tier: gold}', '{tier: silver}');
    const text = await context.cli.run(['diff', '-f', file('changed.yaml', changed)]);
    expect(text.exitCode).toBe(1);
    expect(text.stdout.split('\n')).toEqual([
      '~ member bob@example.com',
      '    role: "edit" → "review"',
      '~ space Engineering/Handbook/Onboarding',
      '    emoji: "1f680" → "1f4dd"',
      '    customFields.tier: "gold" → "silver"',
    ]);
    const data = await context.cli.run(['diff', '-f', file('changed.yaml', changed), '--json']);
    expect(data.exitCode).toBe(1);
    const plan = JSON.parse(data.stdout) as { dryRun: boolean; summary: unknown; changes: Array<{ op: string; kind: string; name: string; fields: unknown[]; requests: Array<{ route: string }> }> };
    expect(plan.dryRun).toBe(true);
    expect(plan.summary).toEqual({ create: 0, change: 2, delete: 0 });
    expect(plan.changes.map((c) => [c.op, c.kind, c.name, c.requests.map((r) => r.route)])).toEqual([
      ['~', 'member', 'bob@example.com', ['updateMemberInOrganizationById']],
      ['~', 'space', 'Engineering/Handbook/Onboarding', ['updateSpaceById', 'updateSpaceCustomFields']],
    ]);
    expect(plan.changes[1]?.fields).toEqual([
      { field: 'emoji', from: '1f680', to: '1f4dd' },
      { field: 'customFields.tier', from: 'gold', to: 'silver' },
    ]);
  });

  it('renames a pinned object instead of creating another', async () => {
    const spaces = await json<Listed[]>(['space', 'list']);
    const scratch = spaces.find((s) => s.title === 'Scratchpad') as Listed;
    const pinned = ORG.replace('{title: Scratchpad,', `{id: ${scratch.id}, title: Sandbox,`);
    const result = await context.cli.run(['apply', '-f', file('pinned.yaml', pinned)]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.split('\n')).toEqual(['~ space Sandbox', '    title: "Scratchpad" → "Sandbox"']);
    expect((await json<Listed[]>(['space', 'list'])).map((s) => s.title).sort()).toEqual(['Onboarding', 'Sandbox']);
    await context.cli.ok(['apply', '-f', file('org.yaml', ORG.replace('{title: Scratchpad,', `{id: ${scratch.id}, title: Scratchpad,`))]);
  });

  it('stops at a failing step, says what was applied and what was not; a re-run completes it', async () => {
    // The API refuses share links on a public site: the site and its section come first, then the share link fails.
    const failing = `
sites:
  - title: Partner Docs
    type: premium
    visibility: public
    sections: [{title: Intro, space: Scratchpad}]
    shareLinks: [{name: partners}]
`;
    const first = await context.cli.run(['apply', '-f', file('failing.yaml', failing)]);
    expect(first.exitCode).toBe(5); // the 409 of the failing request
    expect(first.stdout.split('\n')).toEqual(['+ site Partner Docs', '    type: "premium"', '    visibility: "public"', '+ site section Partner Docs/Intro', '    space: "Scratchpad"']);
    expect(first.stderr).toMatch(/^error: step 3 of 3 failed \(\+ share link Partner Docs\/partners\): .*share-link.*; 2 applied, 1 not applied \(fix the cause and run apply again/m);
    const fixed = failing.replace('visibility: public', 'visibility: share-link');
    const rerun = await context.cli.run(['apply', '-f', file('fixed.yaml', fixed)]);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stdout.split('\n')).toEqual(['~ site Partner Docs', '    visibility: "public" → "share-link"', '+ share link Partner Docs/partners']);
    expect((await context.cli.run(['diff', '-f', file('fixed.yaml', fixed)])).exitCode).toBe(0);
  });

  it('export then apply plans nothing, and the export is the file applied (round trip of a rich organization)', async () => {
    // Richer: a site without sections (root site spaces with a path) and a redirect to a site space.
    const more = `
sites:
  - title: Handbook Site
    visibility: unlisted
    spaces: [{space: Engineering/Handbook/Onboarding, path: onboarding}]
    redirects: [{source: /old/*, destination: {space: Engineering/Handbook/Onboarding}, captureWildcard: true}]
`;
    // And the organization-wide kinds: a font a site's customization names, SSO, a translation, an OpenAPI spec.
    const kinds = `
fonts: [{fontFamily: Brand, fontFaces: [{weight: 400, storageKey: "https://cdn.example.com/brand.woff2"}]}]
samlProviders: [{label: Okta, ssoURL: "https://acme.okta.com/sso", defaultTeam: Writers, defaultRole: guest}]
translations: [{source: {space: Scratchpad, language: en}, language: de}]
openAPISpecs: [{slug: petstore, source: {file: ${context.mode}-petstore.yaml}, visibility: public}]
sites:
  - {title: Developer Portal, customization: {styling: {font: {fontFamily: Brand}, monospaceFont: FiraCode}}}
`;
    writeFileSync(join(dir, `${context.mode}-petstore.yaml`), 'openapi: 3.0.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n');
    for (const text of [more, kinds]) {
      const applied = await context.cli.run(['apply', '-f', file('more.yaml', text)]);
      expect(applied.exitCode, applied.stderr).toBe(0);
    }
    // Two section groups of one site with one title: the export pins each by id.
    const portal = (await json<Listed[]>(['site', 'list'])).find((s) => s.title === 'Developer Portal') as Listed;
    const groupIds: string[] = [];
    for (let i = 0; i < 2; i += 1) groupIds.push((await json<Listed>(['site', 'section-group', 'add', portal.id, '--title', 'Products'])).id);
    const exported = join(dir, `${context.mode}-export.yaml`);
    const result = await context.cli.run(['export', 'org', '-o', exported]);
    expect(result.exitCode, result.stderr).toBe(0);
    const diff = await context.cli.run(['diff', '-f', exported, '--prune']);
    expect([diff.exitCode, diff.stdout, diff.stderr]).toEqual([0, '', `Nothing to change: the organization matches ${exported}`]);
    const withIds = await context.cli.run(['export', 'org', '-o', `${exported}.json`, '--with-ids']);
    expect(withIds.exitCode, withIds.stderr).toBe(0);
    expect((await context.cli.run(['diff', '-f', `${exported}.json`, '--prune'])).exitCode).toBe(0);

    const { parse } = await import('yaml');
    const text = (await import('node:fs')).readFileSync(exported, 'utf8');
    const data = parse(text) as Record<string, Array<Record<string, unknown>>>;
    expect(data.collections).toEqual([
      {
        title: 'Engineering',
        defaultLevel: 'inherit',
        collections: [
          { title: 'Handbook', defaultLevel: 'inherit' },
          { title: 'Runbooks', description: 'When things break', defaultLevel: 'inherit' },
        ],
      },
    ]);
    expect(data.teams).toEqual([{ title: 'Writers', members: expect.arrayContaining(['bob@example.com', { email: 'alice@example.com', role: 'owner' }]) }]);
    const handbookSite = data.sites?.find((s) => s.title === 'Handbook Site');
    expect(handbookSite).toMatchObject({
      visibility: 'unlisted',
      spaces: [{ space: 'Engineering/Handbook/Onboarding', path: 'onboarding' }],
      redirects: [{ source: '/old/*', destination: { space: 'Engineering/Handbook/Onboarding' }, captureWildcard: true }],
    });
    expect(data.sites?.find((s) => s.title === 'Partner Docs')).toMatchObject({ shareLinks: [{ name: 'partners' }], sections: [{ title: 'Intro', space: 'Scratchpad' }] });
    const developerPortal = data.sites?.find((s) => s.title === 'Developer Portal') as { sectionGroups: unknown[]; customization: { styling: Record<string, unknown> } };
    expect(developerPortal.sectionGroups).toEqual(groupIds.map((id) => ({ id, title: 'Products' })));
    expect(developerPortal.customization.styling).toMatchObject({ font: { fontFamily: 'Brand' }, monospaceFont: 'FiraCode' });
    expect(data.fonts).toEqual([{ fontFamily: 'Brand', fontFaces: [{ weight: 400, storageKey: 'https://cdn.example.com/brand.woff2' }] }]);
    expect(data.samlProviders).toEqual([{ label: 'Okta', ssoURL: 'https://acme.okta.com/sso', defaultTeam: 'Writers', defaultRole: 'guest' }]);
    expect(data.translations).toMatchObject([{ source: { space: 'Scratchpad', language: 'en' }, language: 'de' }]);
    expect(data.openAPISpecs).toEqual([{ slug: 'petstore', visibility: 'public' }]);
  });

  it('--prune deletes what the file does not name, only with --yes when there is no terminal', async () => {
    const pruned = `
spaces:
  - {title: Scratchpad}
  - {title: Onboarding, parent: Engineering/Handbook}
sites:
  - {title: Developer Portal}
  - {title: Handbook Site}
`;
    const path = file('pruned.yaml', pruned);
    const diff = await context.cli.run(['diff', '-f', path, '--prune']);
    expect(diff.exitCode).toBe(1);
    expect(diff.stdout.split('\n')).toEqual(['- site Partner Docs']);
    const refused = await context.cli.run(['apply', '-f', path, '--prune']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/confirmation needed \(pass --yes/);
    // On a terminal it shows the plan and asks; declining changes nothing.
    const declined = await onTerminal(['apply', '-f', path, '--prune'], { env: context.cli.env, keys: [{ when: /deleting 1 object\?/, send: 'n\r' }] });
    expect(declined.output).toContain('- site Partner Docs');
    expect(declined.exitCode).toBe(130);
    expect((await json<Listed[]>(['site', 'list'])).map((s) => s.title).sort()).toEqual(['Developer Portal', 'Handbook Site', 'Partner Docs']);
    const done = await context.cli.run(['apply', '-f', path, '--prune', '--yes']);
    expect(done.exitCode, done.stderr).toBe(0);
    expect((await json<Listed[]>(['site', 'list'])).map((s) => s.title).sort()).toEqual(['Developer Portal', 'Handbook Site']);
    // Without --prune nothing is deleted.
    const kept = await context.cli.run(['diff', '-f', file('one.yaml', 'spaces: [{title: Scratchpad}]\n')]);
    expect([kept.exitCode, kept.stdout]).toEqual([0, '']);
  });

  it('refuses a hostile or wrong file with one line naming the line and key, exit 2, nothing changed', async () => {
    const before = await context.cli.ok(['space', 'list', '--format', 'ids']);
    const typo = await context.cli.run(['apply', '-f', file('typo.yaml', 'spaces:\n  - {title: A}\n  - {title: B}\n  - title: C\n    visibilty: private\n')]);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr.split('\n')[0]).toMatch(/^error: \S+typo\.yaml:5: spaces\[2\]\.visibilty: unknown field; did you mean visibility\? \(the fields here are: id, title, /);
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
    const bomb = await context.cli.run(['apply', '-f', file('laughs.yaml', laughs)]);
    expect(bomb.exitCode).toBe(2);
    expect(bomb.stderr).toMatch(/alias/);
    const reference = await context.cli.run(['apply', '-f', file('ref.yaml', 'spaces:\n  - {title: New, parent: Nowhere/Else}\n')]);
    expect(reference.exitCode).toBe(2);
    expect(reference.stderr).toMatch(/ref\.yaml:2: spaces\[0\]\.parent: no collection "Nowhere\/Else" in the file or the organization/);
    const jsonTypo = await context.cli.run(['diff', '-f', file('typo.json', '{\n  "spaces": [\n    {"title": "A", "emoji": 5}\n  ]\n}\n')]);
    expect(jsonTypo.exitCode).toBe(2);
    expect(jsonTypo.stderr).toMatch(/typo\.json:3: spaces\[0\]\.emoji: expected string, got 5/);
    const big = await context.cli.run(['apply', '-f', '-'], { input: `spaces: []\n${'#'.repeat(9 * 1024 * 1024)}\n` });
    expect(big.exitCode).toBe(2);
    expect(big.stderr).toMatch(/larger than 8 MiB/);
    expect(await context.cli.ok(['space', 'list', '--format', 'ids'])).toBe(before);
  });
});

it('apply --schema prints the JSON Schema of the file', async () => {
  const { execa } = await import('execa');
  const { bin } = await import('../helpers/binary.js');
  const result = await execa('node', [bin, 'apply', '--schema'], { reject: false, env: { HOME: tempDir('docsctl-schema-'), PATH: process.env.PATH ?? '' }, extendEnv: false });
  expect(result.exitCode, result.stderr).toBe(0);
  const schema = JSON.parse(result.stdout) as { properties: Record<string, { items: { properties: Record<string, unknown>; additionalProperties: boolean } }> };
  expect(Object.keys(schema.properties)).toEqual(['organization', 'members', 'customFields', 'collections', 'spaces', 'teams', 'sites', 'fonts', 'samlProviders', 'translations', 'openAPISpecs']);
  expect(Object.keys(schema.properties.spaces?.items.properties ?? {})).toContain('visibility');
  expect(schema.properties.spaces?.items.additionalProperties).toBe(false);
  expect(Object.keys(schema.properties.fonts?.items.properties ?? {})).toEqual(['id', 'fontFamily', 'fontFaces']);
  expect(Object.keys(schema.properties.translations?.items.properties ?? {})).toEqual(['id', 'source', 'language', 'instructions']);
});
