/**
 * `openapi publish --file -` and `sso edit --certificate-file -` read stdin through
 * the CLI's streams (readTextInput), so a piped document is published as given.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

async function initialisedStore() {
  const home = tempDir('docsctl-stdin-');
  const env = { HOME: home, DOCSCTL_STORE: join(home, 'store'), DOCSCTL_CONFIG_DIR: join(home, 'config') };
  expect((await runCli(['init', '--org', 'Acme'], { env })).exitCode).toBe(0);
  return env;
}

const PETS = 'openapi: 3.0.3\ninfo: {title: Pets, version: "2.1"}\npaths: {}\n';

describe('organization catalog commands read "-" from stdin', () => {
  it('openapi publish --file - publishes the piped document', async () => {
    const env = await initialisedStore();
    const published = await runCli(['openapi', 'publish', 'pets', '--file', '-', '--json'], { env, stdin: PETS });
    expect(published.exitCode).toBe(0);
    expect(JSON.parse(published.stdout)).toMatchObject({ slug: 'pets', processingState: 'complete' });
    expect(JSON.parse(published.stdout)).not.toHaveProperty('lastProcessErrorCode');
  });

  it('sso edit --certificate-file - takes the piped certificate', async () => {
    const env = await initialisedStore();
    const created = await runCli(['sso', 'create', '--label', 'Okta', '--format', 'ids'], { env });
    const id = created.stdout.trim();
    const pem = readFileSync('test/fixtures/saml-idp.pem', 'utf8');
    const edited = await runCli(['sso', 'edit', id, '--certificate-file', '-', '--json'], { env, stdin: pem });
    expect(edited.stderr).toBe('');
    expect(edited.exitCode).toBe(0);
    expect(JSON.parse(edited.stdout).certificate).toBe(pem);
  });

  it('names the flag and the file it cannot read (exit 2)', async () => {
    const env = await initialisedStore();
    const failed = await runCli(['openapi', 'publish', 'pets', '--file', '/nonexistent/pets.yaml'], { env });
    expect(failed.exitCode).toBe(2);
    expect(failed.stderr).toContain('Cannot read --file /nonexistent/pets.yaml: ENOENT');
  });
});
