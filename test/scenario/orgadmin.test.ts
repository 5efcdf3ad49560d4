/**
 * An administrator's script, locally and against `serve`: members with roles,
 * two teams, `team members sync` twice with different files (and a dry run, an
 * unknown e-mail, --invite), the last-admin rule. Same stdout and exit codes in
 * both modes, and the values a script would rely on.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../helpers/cli.js';
import { type Step, type Transcript, runTranscript } from '../helpers/scenario.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const files = tempDir('docsctl-sync-');
const file = (name: string, text: string) => {
  const path = join(files, name);
  writeFileSync(path, text);
  return path;
};
const first = file('first.txt', '# engineering\nada@acme.io owner\ngrace@acme.io\n');
const second = file('second.txt', 'ada@acme.io\nlinus@acme.io owner\n');
const unknown = file('unknown.txt', 'ada@acme.io\nlinus@acme.io owner\nnew@acme.io\nghost@acme.io\n');
const duplicate = file('duplicate.txt', 'ada@acme.io\nADA@acme.io owner\n');

const scenario: Step[] = [
  /* 0 */ { argv: ['member', 'invite', 'ada@acme.io', 'grace@acme.io', 'linus@acme.io', '--role', 'edit'] },
  /* 1 */ { argv: ['member', 'invite', 'guest@acme.io', '--role', 'guest'] },
  /* 2 */ { argv: ['member', 'list', '--format', 'tsv'] },
  /* 3 */ { argv: ['member', 'get', 'ada@acme.io', '--format', 'ids'], capture: 'ada' },
  /* 4 */ { argv: ['member', 'edit', 'grace@acme.io', '--role', 'review', '--json'] },
  /* 5 */ { argv: ['team', 'create', '--title', 'Engineering', '--format', 'ids'], capture: 'eng' },
  /* 6 */ { argv: ['team', 'create', '--title', 'Docs', '--members', 'ada@acme.io', '--format', 'ids'], capture: 'docs' },
  /* 7 */ { argv: ['team', 'list', '--format', 'tsv'] },
  /* 8 */ { argv: ['team', 'members', 'sync', '{eng}', '--file', first, '--dry-run', '--format', 'tsv'] },
  /* 9 */ { argv: ['team', 'members', 'list', '{eng}', '--format', 'tsv'] },
  /* 10 */ { argv: ['team', 'members', 'sync', '{eng}', '--file', first, '--json'] },
  /* 11 */ { argv: ['team', 'members', 'sync', '{eng}', '--file', first, '--json'] },
  /* 12 */ { argv: ['team', 'members', 'sync', '{eng}', '--file', second, '--format', 'tsv'] },
  /* 13 */ { argv: ['team', 'members', 'list', '{eng}', '--format', 'tsv'] },
  /* 14 */ { argv: ['team', 'members', 'sync', '{eng}', '--file', unknown] },
  /* 15 */ { argv: ['team', 'members', 'sync', '{eng}', '--file', unknown, '--dry-run'] },
  /* 16 */ { argv: ['team', 'members', 'sync', '{eng}', '--file', duplicate] },
  /* 17 */ { argv: ['team', 'members', 'list', '{eng}', '--format', 'tsv'] },
  /* 18 */ { argv: ['team', 'members', 'sync', '{eng}', '--file', unknown, '--invite', '--json'] },
  /* 19 */ { argv: ['member', 'teams', 'ada@acme.io', '--format', 'tsv'] },
  /* 20 */ { argv: ['team', 'get', '{eng}', '--format', 'tsv'] },
  /* 21 */ { argv: ['member', 'remove', 'linus@acme.io', '--yes'] },
  /* 22 */ { argv: ['team', 'get', '{eng}', '--json'] },
  /* 23 */ { argv: ['member', 'edit', 'admin@example.com', '--role', 'read'] },
  /* 24 */ { argv: ['member', 'remove', 'admin@example.com', '--yes'] },
  /* 25 */ { argv: ['team', 'edit', '{docs}', '--title', 'Docs team', '--format', 'tsv'] },
  /* 26 */ { argv: ['team', 'delete', '{docs}', '--yes'] },
  /* 27 */ { argv: ['team', 'list', '--format', 'ids'] },
  /* 28 */ { argv: ['member', 'list', '--role', 'guest', '--format', 'tsv'] },
  /* 29 */ { argv: ['member', 'get', 'nobody@acme.io'] },
  /* 30 */ { argv: ['team', 'members', 'add', '{eng}', 'grace@acme.io', '--role', 'owner'] },
  /* 31 */ { argv: ['team', 'members', 'remove', '{eng}', 'ada@acme.io'] },
  /* 32 */ { argv: ['team', 'members', 'list', '{eng}', '--format', 'tsv'] },
];

describe('organization administration, locally and against serve', () => {
  let local: Transcript;
  let remote: Transcript;

  beforeAll(async () => {
    local = await runTranscript(scenario, 'local');
    remote = await runTranscript(scenario, 'remote');
  });
  afterAll(cleanupTempDirs);

  it.each(scenario.map((step, index) => [step.argv.join(' ').replace(files, '…'), index] as const))('%s', (_name, index) => {
    const a = local[index] as RunResult;
    const b = remote[index] as RunResult;
    expect({ stdout: b.stdout, exitCode: b.exitCode }).toEqual({ stdout: a.stdout, exitCode: a.exitCode });
  });

  const out = (index: number) => (local[index] as RunResult).stdout;
  const err = (index: number) => (local[index] as RunResult).stderr;
  const code = (index: number) => (local[index] as RunResult).exitCode;
  const column = (index: number, n: number) => out(index).trim().split('\n').map((line) => line.split('\t')[n]);

  it('lists members newest first with their roles', () => {
    expect(column(2, 2)).toEqual(['guest@acme.io', 'linus@acme.io', 'grace@acme.io', 'ada@acme.io', 'admin@example.com']);
    expect(column(2, 3)).toEqual(['guest', 'edit', 'edit', 'edit', 'admin']);
    expect(JSON.parse(out(4))).toMatchObject({ role: 'review', user: { email: 'grace@acme.io' } });
    expect(column(7, 1)).toEqual(['Engineering', 'Docs']);
    expect(column(7, 2)).toEqual(['0', '1']);
  });

  it('plans without changing on --dry-run, applies once, and says so when nothing is left to do', () => {
    expect(out(8)).toBe('+\tada@acme.io\towner\n+\tgrace@acme.io\tmember\n');
    expect(err(8)).toMatch(/Dry run, nothing changed: would be 2 added/);
    expect(out(9)).toBe('');
    expect(JSON.parse(out(10))).toMatchObject({ added: 2, removed: 0, changed: 0, unchanged: 0, dryRun: false });
    expect(JSON.parse(out(11))).toMatchObject({ added: 0, removed: 0, changed: 0, unchanged: 2, changes: [] });
    expect(err(11)).toMatch(/Nothing to change/);
    expect(out(12)).toBe('~\tada@acme.io\towner → member\n+\tlinus@acme.io\towner\n-\tgrace@acme.io\tmember\n');
    expect(column(13, 2).sort()).toEqual(['ada@acme.io', 'linus@acme.io']);
  });

  it('fails the whole sync on people outside the organization (exit 4, listing them) and on duplicate lines (exit 2)', () => {
    expect(code(14)).toBe(4);
    expect(err(14)).toMatch(/^error: Not members of organization \w+: new@acme\.io, ghost@acme\.io; nothing was changed \(pass --invite/);
    expect(code(15)).toBe(4);
    expect(code(16)).toBe(2);
    expect(err(16)).toMatch(/listed twice: ADA@acme\.io \(lines 1 and 2\)/);
    expect(out(17)).toBe(out(13));
    expect(JSON.parse(out(18))).toMatchObject({ added: 2, removed: 0, changed: 0, unchanged: 2 });
  });

  it('keeps counters right as people join teams and leave the organization', () => {
    expect(out(19)).toMatch(/\tEngineering\tmember\n/);
    expect(out(19)).toMatch(/\tDocs\tmember\n/);
    expect(column(20, 2)).toEqual(['4']);
    expect(JSON.parse(out(22))).toMatchObject({ title: 'Engineering', members: 3 });
    expect(code(23)).toBe(5);
    expect(err(23)).toMatch(/last admin/);
    expect(code(24)).toBe(5);
    expect(column(25, 1)).toEqual(['Docs team']);
    expect(out(27).trim().split('\n')).toHaveLength(1);
    expect(column(28, 2)).toEqual(['guest@acme.io']);
    expect(code(29)).toBe(4);
    expect(code(30)).toBe(0);
    expect(column(32, 2).sort()).toEqual(['ghost@acme.io', 'grace@acme.io', 'new@acme.io']);
    expect(out(32)).toMatch(/grace@acme\.io\towner/);
  });

  it('reports errors as one line on stderr', () => {
    for (const result of local.filter((r) => r.exitCode !== 0)) {
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(/^error: /);
    }
  });
});
