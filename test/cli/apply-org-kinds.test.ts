/**
 * The organization file's fonts, SAML providers, translations and OpenAPI specifications,
 * through the built binary, locally and against `docsctl serve`: the plan's lines, the state
 * it leaves (read back with other commands), a site customization naming a font by family, a
 * second apply planning nothing, changes as `~` lines (a customization's stale copy of a font
 * refreshed), what the file leaves out deleted only with --prune, export then apply planning
 * nothing, and wrong references refused with the line before anything changes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { describeInBothModes } from '../helpers/binary.js';
import { type Named, orgFileHelpers } from '../helpers/org-files.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

const CERTIFICATE = readFileSync(new URL('../fixtures/saml-idp.pem', import.meta.url), 'utf8');
const indented = (text: string, spaces: number) => text.trim().split('\n').map((line) => `${' '.repeat(spaces)}${line}`).join('\n');
const SPEC = 'openapi: 3.0.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n';

const ORG = `
spaces:
  - {title: Guide}
teams:
  - {title: Writers}
fonts:
  - fontFamily: Brand
    fontFaces:
      - {weight: 400, storageKey: "https://cdn.example.com/brand-400.woff2"}
      - {weight: 700, storageKey: "https://cdn.example.com/brand-700.woff"}
samlProviders:
  - label: Okta
    ssoURL: https://acme.okta.com/app/sso/saml
    entityID: http://www.okta.com/exk1
    defaultTeam: Writers
    defaultRole: edit
    certificate: |
${indented(CERTIFICATE, 6)}
translations:
  - {source: {space: Guide, language: en}, language: fr}
openAPISpecs:
  - {slug: petstore, source: {file: specs/petstore.yaml}, visibility: public}
  - {slug: remote, source: {url: "https://127.0.0.1:9/openapi.json"}}
sites:
  - title: Portal
    type: premium
    customization: {styling: {font: {fontFamily: Brand}}}
`;

const EXPECTED_PLAN = [
  '+ space Guide',
  '+ team Writers',
  '+ font Brand',
  '    fontFaces: ["400 https://cdn.example.com/brand-400.woff2","700 https://cdn.example.com/brand-700.woff"]',
  '+ OpenAPI specification petstore',
  '    source: "specs/petstore.yaml"',
  '    visibility: "public"',
  '+ OpenAPI specification remote',
  '    source: "https://127.0.0.1:9/openapi.json"',
  '+ site Portal',
  '    type: "premium"',
  '+ site customization Portal',
  '    customization.styling.font.fontFamily: "Brand"',
  '+ SAML provider Okta',
  '    ssoURL: "https://acme.okta.com/app/sso/saml"',
  '    entityID: "http://www.okta.com/exk1"',
  '    certificate: "(PEM)"',
  '    defaultTeam: "Writers"',
  '    defaultRole: "edit"',
  '+ translation Guide (en → fr)',
];

describeInBothModes('apply -f: fonts, SAML providers, translations, OpenAPI specifications', (context) => {
  const dir = tempDir('docsctl-apply-org-kinds-');
  const { file, json, byTitle } = orgFileHelpers(context, dir);

  it('plans the kinds in dependency order, applies them, and the organization is what the file says', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, `${context.mode}-specs`), { recursive: true });
    writeFileSync(join(dir, `${context.mode}-specs`, 'petstore.yaml'), SPEC);
    const org = ORG.replace('specs/petstore.yaml', `${context.mode}-specs/petstore.yaml`);
    const path = file('org.yaml', org);
    const plan = await context.cli.run(['diff', '-f', path]);
    expect(plan.exitCode, plan.stderr).toBe(1);
    expect(plan.stdout.split('\n')).toEqual(EXPECTED_PLAN.map((line) => line.replace('specs/petstore.yaml', `${context.mode}-specs/petstore.yaml`)));
    const applied = await context.cli.run(['apply', '-f', path]);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('Applied: 9 created, 0 changed, 0 deleted');

    const fonts = await json<Array<{ id: string; fontFamily: string; fontFaces: unknown[] }>>(['font', 'list']);
    expect(fonts.map((f) => [f.fontFamily, f.fontFaces])).toEqual([
      [
        'Brand',
        [
          { weight: 400, sources: [{ url: 'https://cdn.example.com/brand-400.woff2', format: 'woff2' }] },
          { weight: 700, sources: [{ url: 'https://cdn.example.com/brand-700.woff', format: 'woff' }] },
        ],
      ],
    ]);
    const site = await byTitle(['site', 'list'], 'Portal');
    const customization = await json<{ styling: { font: unknown } }>(['site', 'customization', 'get', site]);
    expect(customization.styling.font).toEqual({ id: fonts[0]?.id, custom: true, fontFamily: 'Brand', fontFaces: fonts[0]?.fontFaces });
    const team = await byTitle(['team', 'list'], 'Writers');
    const providers = await json<Array<Record<string, unknown> & { defaultTeam?: { id: string } }>>(['sso', 'list']);
    expect(providers).toHaveLength(1);
    expect(providers[0]).toMatchObject({ label: 'Okta', ssoURL: 'https://acme.okta.com/app/sso/saml', entityID: 'http://www.okta.com/exk1', defaultRole: 'edit', status: 'active', certificate: `${CERTIFICATE.trim()}\n` });
    expect(providers[0]?.defaultTeam?.id).toBe(team);
    const guide = await byTitle(['space', 'list'], 'Guide');
    const translations = await json<Array<{ source: unknown; language: string }>>(['translation', 'list']);
    expect(translations.map((t) => [t.source, t.language])).toEqual([[{ space: guide, language: 'en' }, 'fr']]);
    const specs = await json<Array<{ slug: string; visibility: string; sourceURL?: string }>>(['openapi', 'list']);
    expect(specs.map((s) => [s.slug, s.visibility, s.sourceURL]).sort()).toEqual([
      ['petstore', 'public', undefined],
      ['remote', 'private', 'https://127.0.0.1:9/openapi.json'],
    ]);
    const organization = ((await json<Named[]>(['org', 'list']))[0] as Named).id;
    expect(await json<{ text: string }>(['api', 'GET', `/v1/orgs/${organization}/openapi/petstore/versions/latest/content/raw`])).toMatchObject({ text: SPEC });

    const again = await context.cli.run(['apply', '-f', path]);
    expect([again.exitCode, again.stdout], again.stderr).toEqual([0, '']);
  });

  it('plans changed faces, roles, instructions, spec text and visibility as ~ lines; what the file leaves out goes only with --prune', async () => {
    await context.cli.ok(['font', 'create', '--family', 'Old', '--face', '400=https://cdn.example.com/old.woff2']);
    writeFileSync(join(dir, `${context.mode}-specs`, 'petstore.yaml'), SPEC.replace('"1"', '"2"'));
    const instructions = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [] }] };
    const changed = ORG.replace('specs/petstore.yaml', `${context.mode}-specs/petstore.yaml`)
      .replace('brand-700.woff"', 'brand-700.woff2"')
      .replace('defaultRole: edit', 'defaultRole: guest')
      .replace('visibility: public}', 'visibility: private}')
      .replace('language: fr}', `language: fr, instructions: ${JSON.stringify(instructions)}}`)
      .replace(/ {2}- \{slug: remote.*\n/, '');
    const path = file('changed.yaml', changed);
    const diff = await context.cli.run(['diff', '-f', path]);
    expect(diff.exitCode, diff.stderr).toBe(1);
    const changes = [
      '~ font Brand',
      '    fontFaces: ["400 https://cdn.example.com/brand-400.woff2","700 https://cdn.example.com/brand-700.woff"] → ["400 https://cdn.example.com/brand-400.woff2","700 https://cdn.example.com/brand-700.woff2"]',
      '~ OpenAPI specification petstore',
      `    source: "(a file)" → "${context.mode}-specs/petstore.yaml"`,
      '    visibility: "public" → "private"',
      // The customization keeps a copy of the font's definition: sent again with the new faces.
      '~ site customization Portal',
      '    customization.styling.font.fontFaces: "(an older copy)" → "the faces of Brand"',
      '~ SAML provider Okta',
      '    defaultRole: "edit" → "guest"',
      '~ translation Guide (en → fr)',
      `    instructions: {"object":"document","data":{},"nodes":[]} → ${JSON.stringify(instructions)}`,
    ];
    expect(diff.stdout.split('\n')).toEqual(changes);
    const pruned = await context.cli.run(['diff', '-f', path, '--prune']);
    expect(pruned.stdout.split('\n')).toEqual([...changes, '- OpenAPI specification remote', '- font Old']);
    const applied = await context.cli.run(['apply', '-f', path]);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect((await json<unknown[]>(['font', 'list'])).length).toBe(2); // kept without --prune
    const done = await context.cli.run(['apply', '-f', path, '--prune', '--yes']);
    expect(done.exitCode, done.stderr).toBe(0);
    expect((await json<Array<{ fontFamily: string }>>(['font', 'list'])).map((f) => f.fontFamily)).toEqual(['Brand']);
    expect((await json<Array<{ slug: string }>>(['openapi', 'list'])).map((s) => s.slug)).toEqual(['petstore']);
    expect((await json<Array<{ defaultRole: unknown }>>(['sso', 'list']))[0]?.defaultRole).toBeNull();
    const site = await byTitle(['site', 'list'], 'Portal');
    const customization = await json<{ styling: { font: { fontFaces: Array<{ sources: Array<{ url: string }> }> } } }>(['site', 'customization', 'get', site]);
    expect(customization.styling.font.fontFaces.map((face) => face.sources[0]?.url)).toEqual(['https://cdn.example.com/brand-400.woff2', 'https://cdn.example.com/brand-700.woff2']);
    expect((await context.cli.run(['diff', '-f', path, '--prune'])).exitCode).toBe(0);
  });

  it('export then apply plans nothing; the export names fonts, teams and spaces as the file does', async () => {
    const exported = join(dir, `${context.mode}-export.yaml`);
    const result = await context.cli.run(['export', 'org', '-o', exported]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('OpenAPI specification petstore: published from a file, so its source is left out (the spec is kept)');
    const diff = await context.cli.run(['diff', '-f', exported, '--prune']);
    expect([diff.exitCode, diff.stdout], diff.stderr).toEqual([0, '']);
    const data = parse(readFileSync(exported, 'utf8')) as Record<string, Array<Record<string, unknown>>>;
    expect(data.fonts).toEqual([
      {
        fontFamily: 'Brand',
        fontFaces: [
          { weight: 400, storageKey: 'https://cdn.example.com/brand-400.woff2' },
          { weight: 700, storageKey: 'https://cdn.example.com/brand-700.woff2' },
        ],
      },
    ]);
    expect(data.samlProviders).toEqual([
      { label: 'Okta', ssoURL: 'https://acme.okta.com/app/sso/saml', entityID: 'http://www.okta.com/exk1', certificate: `${CERTIFICATE.trim()}\n`, defaultTeam: 'Writers', defaultRole: 'guest' },
    ]);
    expect(data.translations).toMatchObject([{ source: { space: 'Guide', language: 'en' }, language: 'fr' }]);
    expect(data.openAPISpecs).toEqual([{ slug: 'petstore', visibility: 'private' }]);
    expect((data.sites?.find((s) => s.title === 'Portal')?.customization as { styling: { font: unknown } }).styling.font).toEqual({ fontFamily: 'Brand' });
  });

  it('refuses a font, team or space the organization does not have, and a new spec without a source, naming the line', async () => {
    const cases: Array<[string, RegExp]> = [
      ['sites:\n  - title: Portal\n    customization:\n      styling:\n        font: {fontFamily: Nope}\n', /:5: sites\[0\]\.customization\.styling\.font\.fontFamily: no font "Nope" in the file or the organization/],
      ['samlProviders:\n  - label: Okta\n    defaultTeam: Nobody\n', /:3: samlProviders\[0\]\.defaultTeam: no team "Nobody" in the file or the organization/],
      ['translations:\n  - source: {space: Missing, language: en}\n    language: de\n', /:2: translations\[0\]\.source\.space: no space "Missing" in the file or the organization/],
      ['openAPISpecs:\n  - {slug: fresh}\n', /:2: openAPISpecs\[0\]: OpenAPI specification fresh does not exist and has no source/],
      ['fonts:\n  - {fontFamily: A, fontFaces: [{weight: 400, storageKey: "https://x.example/a.woff2"}]}\n  - {fontFamily: A, fontFaces: [{weight: 400, storageKey: "https://x.example/a.woff2"}]}\n', /:3: fonts\[1\]: font A is listed twice/],
    ];
    for (const [text, error] of cases) {
      const result = await context.cli.run(['apply', '-f', file('bad.yaml', text)]);
      expect([result.exitCode, result.stdout], result.stderr).toEqual([2, '']);
      expect(result.stderr.split('\n')[0]).toMatch(error);
    }
    const stdin = await context.cli.run(['diff', '-f', '-'], { input: 'openAPISpecs:\n  - {slug: fresh, source: {file: x.yaml}}\n' });
    expect(stdin.exitCode).toBe(2);
    expect(stdin.stderr).toMatch(/stdin:2: openAPISpecs\[0\]\.source\.file: a source file needs an organization file on disk \(not stdin\)/);
    expect((await json<unknown[]>(['font', 'list'])).length).toBe(1);
  });
  it('a space apply creates gives its creator what space create gives (no grant; the role their organization role gives)', async () => {
    await context.cli.ok(['apply', '-f', file('creator.yaml', 'members: [{email: carol@example.com, role: create}]\n')]);
    const { token } = await json<{ token: string }>(['token', 'create', '--user', 'carol@example.com']);
    const asCarol = { env: { DOCSCTL_TOKEN: token } };
    const viaCli = JSON.parse((await context.cli.run(['space', 'create', '--title', 'Carol CLI', '--json'], asCarol)).stdout) as Named;
    const applied = await context.cli.run(['apply', '-f', file('carol.yaml', 'spaces: [{title: Carol Apply}]\n')], asCarol);
    expect(applied.exitCode, applied.stderr).toBe(0);
    const viaApply = await byTitle(['space', 'list'], 'Carol Apply');
    const seen = async (id: string) => {
      const space = JSON.parse((await context.cli.run(['space', 'get', id, '--json'], asCarol)).stdout) as { permissions: Record<string, boolean> };
      return { permissions: space.permissions, grants: await json<unknown[]>(['space', 'permission', 'list', id]) };
    };
    const cli = await seen(viaCli.id);
    expect(cli).toMatchObject({ permissions: { view: true, edit: true, admin: true }, grants: [] });
    expect(await seen(viaApply)).toEqual(cli);
  });

  // The spec URL is a closed loopback port (stored, its fetch failed): serve fetches loopback URLs only when allowed.
}, { serveFlags: ['--allow-private-network'] });
