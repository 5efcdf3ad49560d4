/**
 * End to end: `docsctl site customization …` and `site adaptive-schema set` through the
 * built binary, where ajv loads from a bundle chunk (its CommonJS interop once made
 * `adaptive-schema set` fail with "not a constructor" in the binary only).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let env: Record<string, string>;
let home: string;

const docsctl = (args: string[]) => execa('node', [bin, ...args], { env, extendEnv: false, reject: false, timeout: 30_000 });

beforeAll(() => {
  home = tempDir('docsctl-e2e-customization-');
  env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
});
afterAll(cleanupTempDirs);

describe('docsctl site customization (binary)', () => {
  it('reads the defaults, sets a look from a file and overrides it for a site space', async () => {
    expect((await docsctl(['init', '--org', 'Demo Docs'])).exitCode).toBe(0);
    const space = (await docsctl(['space', 'create', '--title', 'Handbook', '--format', 'ids'])).stdout.trim();
    const site = (await docsctl(['site', 'create', '--title', 'Docs', '--type', 'ultimate', '--space', space, '--format', 'ids'])).stdout.trim();
    const defaults = await docsctl(['site', 'customization', 'get', site, '--json']);
    expect(defaults.exitCode, defaults.stderr).toBe(0);
    const settings = JSON.parse(defaults.stdout) as Record<string, Record<string, unknown>>;
    expect(settings.styling).toMatchObject({ theme: 'clean', font: 'Inter' });

    const file = join(home, 'look.json');
    writeFileSync(file, JSON.stringify({ ...settings, styling: { ...settings.styling, theme: 'gradient' } }));
    const set = await docsctl(['site', 'customization', 'set', site, '--file', file, '--format', 'table']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/THEME\s+gradient/);

    const variant = (await docsctl(['site', 'space', 'list', site, '--format', 'ids'])).stdout.trim();
    const override = await docsctl(['site', 'customization', 'override', site, variant, '--body', '{"styling":{"theme":"bold"}}', '--json']);
    expect(override.exitCode, override.stderr).toBe(0);
    expect(JSON.parse(override.stdout)).toMatchObject({ hasOverrides: true, styling: { theme: 'bold', font: 'Inter' } });
    const bad = await docsctl(['site', 'customization', 'override', site, variant, '--body', '{"styling":{"theme":"neon"}}']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/styling\.theme must be equal to one of the allowed values/);

    const schema = join(home, 'claims.json');
    writeFileSync(schema, JSON.stringify({ type: 'object', properties: { beta: { type: 'boolean', description: 'Beta tester' } }, additionalProperties: false }));
    const adaptive = await docsctl(['site', 'adaptive-schema', 'set', site, '--file', schema, '--json']);
    expect(adaptive.exitCode, adaptive.stderr).toBe(0);
    expect(JSON.parse(adaptive.stdout)).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: { properties: { beta: { type: 'boolean' } } } });
  });
});
