/**
 * An administrator's script over custom fields, translation settings, SSO,
 * OpenAPI specifications and integrations: run locally and against `serve`, the
 * two print the same and exit the same — and what they print is what it should be.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../helpers/cli.js';
import { type Step, inBothModes } from '../helpers/scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'docsctl-catalog-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const good = file('pets.yaml', 'openapi: 3.0.3\ninfo: {title: Pets, version: "2.1"}\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      responses: {"200": {description: ok}}\n');
const petsV2 = { openapi: '3.1.0', info: { title: 'Pets', version: '3.0' }, paths: { '/pets': { get: { responses: { '200': { description: 'ok' } } } } } };
const goodV2 = file('pets-v2.json', JSON.stringify(petsV2));
const bad = file('broken.yaml', 'openapi: 3.0.3\ninfo: {title: Broken}\npaths: {}\n');
const notOpenApi = file('notes.md', '# Just notes\n');
file('index.js', 'export default {}\n');
const manifest = file(
  'gitbook-manifest.yaml',
  'name: slack-notify\ntitle: Slack notify\ndescription: Posts changes to Slack\nscript: ./index.js\nscopes: [space:content:read]\nvisibility: public\ncategories: [collaboration]\nsecrets:\n  TOKEN: xoxb-never-shown\n',
);
const cert = resolve('test/fixtures/saml-idp.pem');

const steps: Step[] = [
  { argv: ['space', 'create', '--title', 'Handbook', '--format', 'ids'], capture: 'space' },
  /* 1 */ { argv: ['custom-field', 'create', 'tier', '--type', 'select:single', '--options', 'gold,silver'] },
  /* 2 */ { argv: ['custom-field', 'create', 'pages', '--type', 'number', '--title', 'Page budget'] },
  /* 3 */ { argv: ['custom-field', 'create', 'Bad Name', '--type', 'text'] },
  /* 4 */ { argv: ['custom-field', 'list'] },
  /* 5 */ { argv: ['space', 'fields', 'set', '{space}', 'tier=gold', 'pages:=120'] },
  /* 6 */ { argv: ['space', 'fields', 'set', '{space}', 'tier=tin'] },
  /* 7 */ { argv: ['space', 'fields', '{space}'] },
  /* 8 */ { argv: ['space', 'fields', '{space}', '--json'] },
  /* 9 */ { argv: ['translation', 'create', '--title', 'EU', '--language', 'fr,de', '--format', 'ids'], capture: 'tr' },
  /* 10 */ { argv: ['translation', 'edit', '{tr}', '--title', 'Europe'] },
  /* 11 */ { argv: ['translation', 'list'] },
  /* 12 */ { argv: ['sso', 'create', '--label', 'Okta', '--format', 'ids'], capture: 'sso' },
  /* 13 */ { argv: ['sso', 'logins', '--json'] },
  /* 14 */ { argv: ['sso', 'edit', '{sso}', '--sso-url', 'https://idp.acme.test/sso', '--entity-id', 'https://idp.acme.test', '--certificate-file', cert] },
  /* 15 */ { argv: ['sso', 'edit', '{sso}', '--certificate-file', notOpenApi] },
  /* 16 */ { argv: ['sso', 'logins', '--format', 'ids'] },
  /* 17 */ { argv: ['openapi', 'publish', 'pets', '--file', good] },
  /* 18 */ { argv: ['openapi', 'publish', 'broken', '--file', bad] },
  /* 19 */ { argv: ['openapi', 'list'] },
  /* 20 */ { argv: ['openapi', 'validate', bad] },
  /* 21 */ { argv: ['openapi', 'validate', good] },
  /* 22 */ { argv: ['openapi', 'delete', 'broken', '--yes'] },
  /* 23 */ { argv: ['integration', 'publish', '--file', manifest, '--organization', '{org}'] },
  /* 24 */ { argv: ['integration', 'publish', '--file', manifest, '--organization', '{org}', '--json'] },
  /* 25 */ { argv: ['integration', 'list', '--category', 'collaboration', '--format', 'ids'] },
  /* 26 */ { argv: ['integration', 'installations', 'slack-notify'] },
  /* 27 */ { argv: ['integration', 'unpublish', 'slack-notify', '--yes'] },
  /* 28 */ { argv: ['integration', 'get', 'slack-notify'] },
  /* 29 */ { argv: ['openapi', 'publish', 'pets', '--file', goodV2, '--json', 'lastVersion'], advance: 60_000 },
  /* 30 */ { argv: ['openapi', 'versions', 'pets', '--format', 'ids'], capture: 'firstVersion', pick: (out) => out.trim().split('\n').at(-1) ?? '' },
  /* 31 */ { argv: ['openapi', 'versions', 'pets'] },
  /* 32 */ { argv: ['openapi', 'version', 'pets', '--json', 'id,createdAt'] },
  /* 33 */ { argv: ['openapi', 'version', 'pets', '--id', '{firstVersion}', '--json', 'id,createdAt'] },
  /* 34 */ { argv: ['openapi', 'content', 'pets', '--json', 'filesystem'] },
  /* 35 */ { argv: ['openapi', 'content', 'pets', '--id', '{firstVersion}'] },
  /* 36 */ { argv: ['openapi', 'update', 'pets', '--visibility', 'public', '--json', 'slug,visibility'] },
  /* 37 */ { argv: ['openapi', 'version', 'pets', '--id', 'nope'] },
  /* 38 */ { argv: ['openapi', 'versions', 'nope'] },
];

describe('organization catalog script, locally and through serve', () => {
  const { at, transcripts } = inBothModes(steps);

  it('defines fields and refuses bad names and values with usage errors, changing nothing', () => {
    expect(at(3).exitCode).toBe(2);
    expect(at(3).stderr).toMatch(/lowercase letters/);
    expect(at(4).stdout).toBe('pages\tnumber\tPage budget\t\ntier\tselect:single\ttier\tgold,silver\n');
    expect(at(5).exitCode).toBe(0);
    expect(at(6).exitCode).toBe(2);
    expect(at(6).stderr).toMatch(/"tier".*expected one of gold, silver, got "tin"/);
    expect(at(7).stdout).toBe('pages\tnumber\t120\ntier\tselect:single\tgold\n');
    expect(JSON.parse(at(8).stdout).map((v: { customField: { name: string }; value: unknown }) => [v.customField.name, v.value])).toEqual([
      ['pages', 120],
      ['tier', 'gold'],
    ]);
  });

  it('keeps translation settings, and lists an SSO provider for login only once configured', () => {
    expect(at(11).stdout).toMatch(/^\S+\tEurope\tfr,de\t\t\n$/); // SOURCE and STATUS: today's Translation only
    expect(JSON.parse(at(13).stdout)).toEqual([]);
    expect(at(14).stdout).toMatch(/\tOkta\tactive\tread\t/);
    expect(at(15).exitCode).toBe(2);
    expect(at(15).stderr).toMatch(/PEM X\.509/);
    expect(at(16).stdout.trim()).toBe(at(12).stdout.trim());
  });

  it('publishes a valid spec, stores an invalid one in its error state with exit 1, and validates offline', () => {
    expect(at(17).exitCode).toBe(0);
    expect(at(18).exitCode).toBe(1);
    expect(at(18).stderr).toMatch(/broken was stored but did not process \(PARSE_ERROR\): must have required property 'version'/);
    expect(at(19).stdout).toMatch(/^broken\tPARSE_ERROR\t\t.*\npets\tok\t\S+\t/);
    expect(at(20).exitCode).toBe(1);
    expect(at(20).stdout).toBe(`${bad}\t/info\tmust have required property 'version'\n`);
    expect(at(21).exitCode).toBe(0);
    expect(at(22).exitCode).toBe(0);
  });

  it('publishes an integration from its manifest without ever showing its secrets', () => {
    expect(at(23).stdout).toMatch(/^slack-notify\tSlack notify\t1\tpublic\t/);
    const republished = JSON.parse(at(24).stdout);
    expect(republished).toMatchObject({ name: 'slack-notify', version: 2, categories: ['collaboration'] });
    const { local, remote } = transcripts();
    for (const result of [...local, ...remote]) expect(result.stdout + result.stderr).not.toContain('xoxb-never-shown');
    expect(at(25).stdout).toBe('slack-notify\n');
    expect(at(27).exitCode).toBe(0);
    expect(at(28).exitCode).toBe(4);
  });

  it('keeps each valid document as a version, newest first, readable back in both modes', () => {
    const { local, remote } = transcripts();
    for (const transcript of [local, remote]) {
      const at = (i: number) => transcript[i] as RunResult;
      const latest = JSON.parse(at(29).stdout).lastVersion as string;
      const ids = at(30).stdout.trim().split('\n');
      expect(ids).toHaveLength(2);
      expect(ids[0]).toBe(latest);
      const first = ids[1] as string;
      const file = (name: string) => `http://127\\.0\\.0\\.1:4000/files/[0-9a-f]{64}/${name}`;
      expect(at(31).stdout).toMatch(new RegExp(`^${latest}\t[^\t]+\t${file('pets\\.json')}\n${first}\t[^\t]+\t${file('pets\\.yaml')}\n$`));
      expect(JSON.parse(at(32).stdout)).toEqual({ id: latest, createdAt: expect.any(String) });
      expect(JSON.parse(at(33).stdout).id).toBe(first);
      expect(JSON.parse(at(34).stdout)).toEqual({ filesystem: { 'pets.json': petsV2 } });
      expect(at(35).stdout).toMatch(new RegExp(`^pets\\.yaml\t${file('pets\\.yaml')}\n$`));
      expect(JSON.parse(at(36).stdout)).toEqual({ slug: 'pets', visibility: 'public' });
      expect(at(37).exitCode).toBe(4);
      expect(at(37).stderr).toMatch(/Version nope of OpenAPI specification "pets" not found/);
      expect(at(38).exitCode).toBe(4);
      expect(at(38).stderr).toMatch(/OpenAPI specification "nope" not found/);
    }
  });
});
