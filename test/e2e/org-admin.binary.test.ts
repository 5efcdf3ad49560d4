/**
 * The built binary runs the organization administration command groups (custom-field,
 * space fields, translation, sso, openapi, integration), including the lazily
 * loaded chunks they need (the YAML parser, the OpenAPI parser).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let dir: string;
const docsctl = (args: string[]) =>
  execa('node', [bin, '--store', join(dir, 'store'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1' },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });

beforeAll(async () => {
  dir = tempDir('docsctl-catalog-e2e-');
  expect((await docsctl(['init', '--org', 'Acme Docs'])).exitCode).toBe(0);
});
afterAll(cleanupTempDirs);

describe('organization catalog through the binary', () => {
  it('defines a custom field and sets a space value', async () => {
    expect((await docsctl(['custom-field', 'create', 'tier', '--type', 'select:single', '--options', 'gold,silver'])).exitCode).toBe(0);
    const space = (await docsctl(['space', 'create', '--title', 'Handbook', '--format', 'ids'])).stdout.trim();
    expect((await docsctl(['space', 'fields', 'set', space, 'tier=gold'])).exitCode).toBe(0);
    const values = await docsctl(['space', 'fields', space, '--json']);
    expect(values.exitCode, values.stderr).toBe(0);
    expect(JSON.parse(values.stdout)).toMatchObject([{ customField: { name: 'tier' }, value: 'gold' }]);
  });

  it('validates OpenAPI documents offline and publishes one', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'openapi: 3.1.0\ninfo: {title: x}\npaths: {}\n');
    writeFileSync(join(dir, 'good.yaml'), 'openapi: 3.1.0\ninfo: {title: Pets, version: "1"}\npaths:\n  /pets: {get: {responses: {"200": {description: ok}}}}\n');
    const invalid = await docsctl(['openapi', 'validate', join(dir, 'bad.yaml')]);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stdout).toContain("/info\tmust have required property 'version'");
    const published = await docsctl(['openapi', 'publish', 'pets', '--file', join(dir, 'good.yaml'), '--json']);
    expect(published.exitCode, published.stderr).toBe(0);
    expect(JSON.parse(published.stdout)).toMatchObject({ slug: 'pets', processingState: 'complete' });
    const { lastVersion } = JSON.parse(published.stdout) as { lastVersion: string };
    const versions = await docsctl(['openapi', 'versions', 'pets', '--format', 'ids']);
    expect(versions.exitCode, versions.stderr).toBe(0);
    expect(versions.stdout.trim()).toBe(lastVersion);
    const content = await docsctl(['openapi', 'content', 'pets', '--id', lastVersion, '--json', 'filesystem']);
    expect(content.exitCode, content.stderr).toBe(0);
    expect(JSON.parse(content.stdout)).toEqual({
      filesystem: { 'pets.yaml': { openapi: '3.1.0', info: { title: 'Pets', version: '1' }, paths: { '/pets': { get: { responses: { '200': { description: 'ok' } } } } } } },
    });
    const shown = await docsctl(['openapi', 'update', 'pets', '--visibility', 'public', '--format', 'table']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/SLUG\s+pets/);
  });

  it('publishes an integration from a YAML manifest, and manages translations and SSO', async () => {
    writeFileSync(join(dir, 'index.js'), 'export default {}\n');
    writeFileSync(join(dir, 'gitbook-manifest.yaml'), 'name: notes\ntitle: Notes\ndescription: d\nscript: ./index.js\nscopes: []\n');
    const org = (await docsctl(['org', 'list', '--format', 'ids'])).stdout.trim();
    const published = await docsctl(['integration', 'publish', '--file', join(dir, 'gitbook-manifest.yaml'), '--organization', org]);
    expect(published.exitCode, published.stderr).toBe(0);
    expect(published.stdout).toMatch(/^notes\tNotes\t1\tprivate/);
    expect((await docsctl(['translation', 'create', '--title', 'EU', '--language', 'fr'])).exitCode).toBe(0);
    const sso = await docsctl(['sso', 'create', '--label', 'Okta', '--format', 'table']);
    expect(sso.exitCode, sso.stderr).toBe(0);
    expect(sso.stdout).toMatch(/LABEL\s+Okta/);
    expect(sso.stdout).toMatch(/STATUS\s+pending/);
  });
});
