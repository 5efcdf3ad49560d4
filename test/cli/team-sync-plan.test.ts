import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { batchBody, parseSyncFile, planSync, summarize } from '../../src/cli/commands/team-sync-plan.js';

describe('team sync file', () => {
  it('reads one person per line with an optional role; comments and blank lines are ignored', () => {
    const text = '# engineering\nada@acme.io owner\n\n  grace@acme.io   # on leave soon\nU123 member\n';
    expect(parseSyncFile(text, 'team.txt', 'member')).toEqual([
      { ref: 'ada@acme.io', role: 'owner', line: 2 },
      { ref: 'grace@acme.io', role: 'member', line: 4 },
      { ref: 'U123', role: 'member', line: 5 },
    ]);
    expect(parseSyncFile('ada@acme.io\n', 'f', 'owner')[0]?.role).toBe('owner');
  });

  it('reads a JSON array of {email|user, role}', () => {
    const text = JSON.stringify([{ email: 'ada@acme.io', role: 'owner' }, { user: 'U123' }]);
    expect(parseSyncFile(text, 'team.json', 'member')).toEqual([
      { ref: 'ada@acme.io', role: 'owner', line: 1 },
      { ref: 'U123', role: 'member', line: 2 },
    ]);
  });

  it('refuses duplicates (e-mails compared without case), bad roles and extra words, naming the line', () => {
    expect(() => parseSyncFile('ada@acme.io\nADA@acme.io owner\n', 'team.txt', 'member')).toThrow(/listed twice: ADA@acme\.io \(lines 1 and 2\)/);
    expect(() => parseSyncFile('ada@acme.io admin\n', 'team.txt', 'member')).toThrow(/team\.txt:1: invalid team role "admin"/);
    expect(() => parseSyncFile('ada@acme.io owner now\n', 'team.txt', 'member')).toThrow(/team\.txt:1: expected/);
    expect(() => parseSyncFile('[{"role":"owner"}]', 'team.json', 'member')).toThrow(UsageError);
    expect(() => parseSyncFile('[1,', 'team.json', 'member')).toThrow(/invalid JSON/);
  });
});

describe('team sync plan', () => {
  const current = [
    { id: 'U1', email: 'ada@acme.io', role: 'owner' as const },
    { id: 'U2', email: 'grace@acme.io', role: 'member' as const },
    { id: 'U3', email: 'linus@acme.io', role: 'member' as const },
  ];

  it('adds, removes and changes roles; matches people by id or e-mail', () => {
    const wanted = parseSyncFile('Ada@acme.io member\nU2\nnew@acme.io owner\n', 'f', 'member');
    const plan = planSync(wanted, current);
    expect(plan.steps).toEqual([
      { op: '~', user: 'ada@acme.io', id: 'U1', role: 'member', from: 'owner' },
      { op: '+', user: 'new@acme.io', role: 'owner' },
      { op: '-', user: 'linus@acme.io', id: 'U3', role: 'member' },
    ]);
    expect(summarize(plan)).toEqual({ added: 1, removed: 1, changed: 1, unchanged: 1 });
    expect(batchBody(plan)).toEqual({
      add: ['new@acme.io'],
      remove: ['U3'],
      memberships: { U1: { role: 'member' }, 'new@acme.io': { role: 'owner' } },
    });
  });

  it('is empty when the team already matches', () => {
    const plan = planSync(parseSyncFile('ada@acme.io owner\ngrace@acme.io\nU3\n', 'f', 'member'), current);
    expect(plan.steps).toEqual([]);
    expect(summarize(plan)).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 3 });
    expect(batchBody(plan)).toEqual({});
  });
});
