/**
 * Prompts and confirmations: asked only on a terminal; without one, missing
 * input is a usage error naming the flag, and destructive commands need --yes.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('is asked for on a terminal', async () => {
    const result = await runCli(['space', 'transfer', spaceId, '--yes'], { env, tty: true, answers: ['unknown-org'] });
    // The prompt was answered; the API then reports the unknown organization.
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/unknown-org/);
  });

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
