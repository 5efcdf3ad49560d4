/**
 * The same commands, run in local mode and against `docsctl serve` (remote
 * mode), print the same stdout and exit with the same code. Both stores start
 * from identical `init`s with the same deterministic ids and clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../helpers/cli.js';
import { type Step, type Transcript, runTranscript } from '../helpers/scenario.js';
import { cleanupTempDirs } from '../helpers/stores.js';

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
  // A conflict (exit 5): the second space move above, to where the space already is, now
  // exits 0 ("nothing to change", issue 19), so a name taken twice is the conflict here.
  { argv: ['custom-field', 'create', 'tier', '--type', 'text', '--format', 'ids'] },
  { argv: ['custom-field', 'create', 'tier', '--type', 'text'] },
];

describe('local mode and serve give the same answers', () => {
  let local: Transcript;
  let remote: Transcript;

  beforeAll(async () => {
    local = await runTranscript(scenario, 'local');
    remote = await runTranscript(scenario, 'remote');
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
