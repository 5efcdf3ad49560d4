/**
 * Prompts and confirmations: asked only on a terminal; without one, missing
 * input is a usage error naming the flag, and destructive commands need --yes.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedPrompter } from '../../src/cli/prompter.js';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

let env: Record<string, string>;
let spaceId: string;

beforeAll(async () => {
  env = { DOCSCTL_STORE: join(tempDir(), 'store'), DOCSCTL_CONFIG_DIR: join(tempDir(), 'config') };
  expect((await runCli(['init', '--org', 'Acme'], { env })).exitCode).toBe(0);
  spaceId = (await runCli(['space', 'create', '--title', 'Handbook', '--format', 'ids'], { env })).stdout.trim();
});
afterAll(cleanupTempDirs);

describe('missing required input', () => {
  it('is a usage error naming the flag when not on a terminal', async () => {
    const result = await runCli(['space', 'transfer', spaceId, '--yes'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: Missing required flag --to-org/);
  });

  it('offers your organizations for --to-org on a terminal', async () => {
    const orgs = JSON.parse((await runCli(['org', 'list', '--json'], { env })).stdout) as Array<{ id: string; title: string }>;
    const prompter = scriptedPrompter(['unknown-org']);
    const result = await runCli(['space', 'transfer', spaceId, '--yes'], { env, tty: true, prompter });
    expect(prompter.asked).toEqual(['target organization id:']);
    expect(prompter.offered).toEqual([orgs.map((org) => `${org.title} (${org.id})`)]);
    expect(orgs.map((org) => org.title)).toEqual(['Acme']);
    // The choice was made; the API then reports the unknown organization.
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/unknown-org/);
  });

  for (const group of ['space', 'collection']) {
    it(`asks for the title of "${group} create" on a terminal`, async () => {
      const prompter = scriptedPrompter([`Asked ${group}`]);
      const result = await runCli([group, 'create', '--json'], { env, tty: true, prompter });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(prompter.asked).toEqual(['title (max 50 characters):']);
      expect(JSON.parse(result.stdout)).toMatchObject({ title: `Asked ${group}` });
    });

    it(`fails "${group} create" without a title under --no-input (exit 2, naming --title), creating nothing`, async () => {
      const before = (await runCli([`${group}`, 'list', '--format', 'ids'], { env })).stdout;
      const result = await runCli([group, 'create', '--no-input'], { env, tty: true });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/^error: Missing required flag --title/);
      expect((await runCli([`${group}`, 'list', '--format', 'ids'], { env })).stdout).toBe(before);
    });
  }

  it('is never asked for with --no-input, even on a terminal', async () => {
    const result = await runCli(['space', 'transfer', spaceId, '--yes', '--no-input'], { env, tty: true });
    expect(result.exitCode).toBe(2);
  });
});

describe('destructive commands', () => {
  it('ask for confirmation on a terminal and stop when declined (exit 130)', async () => {
    const result = await runCli(['space', 'delete', spaceId], { env, tty: true, answers: [false] });
    expect(result.exitCode).toBe(130);
    expect((await runCli(['space', 'get', spaceId, '--json'], { env })).stdout).not.toContain('deletedAt');
  });

  it('run when confirmed', async () => {
    const result = await runCli(['space', 'delete', spaceId], { env, tty: true, answers: [true] });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/Deleted space/);
  });
});

describe('organization resolution', () => {
  it('uses the only organization of the user when --org is absent', async () => {
    const result = await runCli(['collection', 'create', '--title', 'Guides', '--json'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).title).toBe('Guides');
  });

  it('reports an unknown --org as not found', async () => {
    const result = await runCli(['space', 'list', '--org', 'nope'], { env });
    expect(result.exitCode).toBe(4);
  });
});

describe('usage errors', () => {
  it('reject unknown commands with a suggestion (exit 2)', async () => {
    const result = await runCli(['spaec', 'list'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/unknown command 'spaec'/);
  });

  it('reject a non-numeric --limit (exit 2)', async () => {
    expect((await runCli(['space', 'list', '--limit', 'ten'], { env })).exitCode).toBe(2);
  });

  it('print help with examples (exit 0)', async () => {
    const result = await runCli(['space', 'create', '--help'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/Examples:\n\s+\$ docsctl space create/);
  });
});
