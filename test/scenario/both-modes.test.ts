/**
 * The same commands, run in local mode and against `docsctl serve` (remote
 * mode), print the same stdout and exit with the same code. Both stores start
 * from identical `init`s with the same deterministic ids and clock.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { type RunResult, runCli } from '../helpers/cli.js';
import { cleanupTempDirs, serveStore, tempDir } from '../helpers/stores.js';

type Step = { argv: string[]; capture?: string; advance?: number };

/** `{name}` in an argument is replaced by the output of an earlier step with `capture: name`. */
const scenario: Step[] = [
  { argv: ['user', 'me'] },
  { argv: ['org', 'list'] },
  { argv: ['collection', 'create', '--title', 'Guides', '--format', 'ids'], capture: 'guides' },
  { argv: ['collection', 'create', '--title', 'API', '--format', 'ids'], capture: 'api' },
  { argv: ['collection', 'create', '--title', 'Nested', '--parent', '{guides}', '--format', 'ids'], capture: 'nested' },
  { argv: ['collection', 'list'] },
  { argv: ['collection', 'list', '--no-nested', '--json'] },
  { argv: ['collection', 'edit', '{api}', '--description', 'Reference docs', '--default-level', 'read'] },
  { argv: ['collection', 'edit', '{api}'] },
  { argv: ['space', 'create', '--title', 'Handbook', '--format', 'ids'], capture: 'handbook' },
  { argv: ['space', 'create', '--title', 'Setup', '--parent', '{guides}', '--format', 'ids'], capture: 'setup' },
  { argv: ['space', 'create', '--title', 'Install', '--parent', '{guides}', '--emoji', '📦', '--format', 'ids'], capture: 'install' },
  { argv: ['space', 'list'] },
  { argv: ['space', 'list', '--limit', '2'] },
  { argv: ['space', 'list', '--all', '--limit', '1', '--format', 'ids'] },
  { argv: ['space', 'get', '{handbook}', '--json'] },
  { argv: ['space', 'get', '{handbook}', '--format', 'yaml'] },
  { argv: ['space', 'edit', '{handbook}', '--title', 'Team handbook', '--edit-mode', 'locked'] },
  { argv: ['space', 'edit', '{handbook}', '--title', 'x'.repeat(51)] },
  { argv: ['collection', 'spaces', '{guides}'] },
  { argv: ['space', 'move', '{install}', '--before', 'space:{setup}'] },
  { argv: ['collection', 'spaces', '{guides}', '--format', 'ids'] },
  { argv: ['space', 'move', '{handbook}', '--parent', '{api}'] },
  { argv: ['space', 'move', '{handbook}', '--parent', '{api}'] },
  { argv: ['space', 'move', '{handbook}', '--before', 'space:nope'] },
  { argv: ['space', 'duplicate', '{setup}', '--format', 'ids'], capture: 'copy' },
  { argv: ['space', 'get', '{copy}'] },
  { argv: ['space', 'delete', '{copy}'] },
  { argv: ['space', 'delete', '{copy}', '--yes'] },
  { argv: ['space', 'delete', '{copy}', '--yes', '--json'] },
  { argv: ['space', 'get', '{copy}', '--format', 'tsv'] },
  { argv: ['space', 'restore', '{copy}', '--format', 'ids'] },
  { argv: ['space', 'delete', '{copy}', '--yes'] },
  { argv: ['space', 'restore', '{copy}'], advance: 8 * 86_400_000 },
  { argv: ['space', 'get', 'does-not-exist'] },
  { argv: ['collection', 'get', 'does-not-exist'] },
  { argv: ['space', 'list', '--limit', '5000'] },
  { argv: ['api', 'GET', '/v1/orgs/{org}/spaces', '-f', 'limit=2000'] },
  { argv: ['collection', 'move', '{guides}', '--parent', '{nested}'] },
  { argv: ['collection', 'move', '{nested}', '--parent', 'none'] },
  { argv: ['collection', 'list', '--format', 'ids'] },
  { argv: ['member', 'invite', 'ada@example.com', 'grace@example.com', '--role', 'edit'] },
  { argv: ['member', 'invite', 'ada@example.com'] },
  { argv: ['api', 'GET', '/v1/collections/{guides}/spaces', '--paginate'] },
  { argv: ['api', 'GET', '/v1/orgs/{org}/sites'] },
  { argv: ['collection', 'delete', '{guides}', '--yes'] },
  { argv: ['space', 'get', '{setup}', '--format', 'tsv'] },
  { argv: ['space', 'restore', '{setup}', '--format', 'tsv'] },
];

async function runScenario(mode: 'local' | 'remote'): Promise<Array<RunResult & { argv: string[] }>> {
  const dir = tempDir();
  const store = join(dir, 'store');
  const ids = sequentialIds('x');
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const init = await runCli(['init', '--org', 'Acme', '--json'], { env: { DOCSCTL_STORE: store }, ids, clock });
  expect(init.exitCode, init.stderr).toBe(0);
  const { token, organization } = JSON.parse(init.stdout) as { token: string; organization: { id: string } };
  const captured: Record<string, string> = { org: organization.id };
  const server = mode === 'remote' ? await serveStore(store, { clock, ids }) : undefined;
  const env = server ? { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token } : { DOCSCTL_STORE: store };
  const transcript: Array<RunResult & { argv: string[] }> = [];
  try {
    for (const step of scenario) {
      if (step.advance) clock.advance(step.advance);
      const argv = step.argv.map((arg) => arg.replace(/\{(\w+)\}/g, (_, name: string) => captured[name] ?? `{${name}}`));
      const result = await runCli(argv, { env, ids, clock });
      if (step.capture) captured[step.capture] = result.stdout.trim();
      transcript.push({ argv, ...result });
    }
  } finally {
    await server?.close();
  }
  return transcript;
}

describe('local mode and serve give the same answers', () => {
  let local: Array<RunResult & { argv: string[] }>;
  let remote: Array<RunResult & { argv: string[] }>;

  beforeAll(async () => {
    local = await runScenario('local');
    if (process.env.SHOW_TRANSCRIPT) for (const r of local) process.stderr.write(`$ ${r.argv.join(' ')}  → ${r.exitCode}\n${r.stdout}${r.stderr}`);
    remote = await runScenario('remote');
  });
  afterAll(cleanupTempDirs);

  it.each(scenario.map((step, index) => [step.argv.join(' '), index] as const))('%s', (_name, index) => {
    const a = local[index] as RunResult;
    const b = remote[index] as RunResult;
    expect({ stdout: b.stdout, exitCode: b.exitCode }).toEqual({ stdout: a.stdout, exitCode: a.exitCode });
  });

  it('exercises successes and every error class on the way', () => {
    const codes = new Set(local.map((r) => r.exitCode));
    expect([...codes]).toEqual(expect.arrayContaining([0, 2, 4, 5]));
  });

  it('reports errors as one line on stderr', () => {
    for (const result of local.filter((r) => r.exitCode !== 0)) {
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(/^error: /);
    }
  });
});
