/**
 * Comments end to end through the CLI, in local mode and against `docsctl serve`:
 * a change request discussed (comments, a reply, resolve/reopen), its `comments`
 * counter at each step, the merge that deletes a page someone commented on, and
 * bad input. Same stdout and exit codes in both modes, and the expected values.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_POLICY } from '../../src/domain/policy.js';
import type { RunResult } from '../helpers/cli.js';
import { type Step, type Transcript, runTranscript } from '../helpers/scenario.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

function writeTree(dir: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const base = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n* [Usage](usage.md)\n',
  'install.md': '# Install\n\nRun the installer.\n',
  'usage.md': '# Usage\n\nRun it.\n',
};
const withoutUsage = {
  'README.md': base['README.md'],
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n',
  'install.md': '# Install\n\nRun the installer, then run it.\n',
};

let fixtures: Record<string, string>;
let fixtureRoot: string;
beforeAll(() => {
  const root = tempDir('docsctl-comment-fixtures-');
  fixtureRoot = root;
  fixtures = {
    base: writeTree(join(root, 'base'), base),
    withoutUsage: writeTree(join(root, 'b'), withoutUsage),
    rules: writeTree(join(root, 'r'), { 'rules.json': JSON.stringify({ mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] } }) }),
  };
});

/** Named steps, so the assertions read by name rather than by index. */
const named = (): Array<[string, Step]> => [
  ['space', { argv: ['space', 'create', '--title', 'Docs', '--format', 'ids'], capture: 'space' }],
  ['cr1', { argv: ['cr', 'create', '{space}', '--subject', 'Import', '--format', 'ids'], capture: 'cr1' }],
  ['import', { argv: ['cr', 'import', '{space}', '{cr1}', fixtures.base as string, '--format', 'ids'] }],
  ['merge1', { argv: ['cr', 'merge', '{space}', '{cr1}', '--format', 'ids'] }],
  ['onInstall', { argv: ['comment', 'add', '{space}', '--body', 'Check the install steps', '--page', 'install', '--format', 'ids'], capture: 'c1', advance: 1000 }],
  ['onUsage', { argv: ['comment', 'add', '{space}', '--body', 'Usage needs examples', '--page', 'usage', '--format', 'ids'], capture: 'c2', advance: 1000 }],
  ['cr2', { argv: ['cr', 'create', '{space}', '--subject', 'Fold usage into install', '--format', 'ids'], capture: 'cr2' }],
  ['import2', { argv: ['cr', 'import', '{space}', '{cr2}', fixtures.withoutUsage as string, '--format', 'ids'] }],
  ['crCount0', { argv: ['cr', 'get', '{space}', '{cr2}', '--json'] }],
  ['ask', { argv: ['comment', 'add', '{space}', '--cr', '{cr2}', '--body', 'Why remove the usage page?', '--format', 'ids'], capture: 'k1', advance: 1000 }],
  ['nit', { argv: ['comment', 'add', '{space}', '--cr', '{cr2}', '--body', 'Typo: "then run it"', '--page', 'install', '--format', 'ids'], capture: 'k2', advance: 1000 }],
  ['crCount2', { argv: ['cr', 'get', '{space}', '{cr2}', '--json'] }],
  ['reply', { argv: ['comment', 'reply', '{space}', '{k1}', '--cr', '{cr2}', '--body', 'It moved into install', '--format', 'ids'], capture: 'r1', advance: 1000 }],
  ['react', { argv: ['comment', 'react', '{space}', '{k1}', '👍', '--cr', '{cr2}', '--format', 'tsv'] }],
  ['crList', { argv: ['comment', 'list', '{space}', '--cr', '{cr2}', '--format', 'tsv'] }],
  ['resolve', { argv: ['comment', 'resolve', '{space}', '{k1}', '--cr', '{cr2}', '--format', 'tsv'], advance: 1000 }],
  ['crCount1', { argv: ['cr', 'get', '{space}', '{cr2}', '--json'] }],
  ['openOnly', { argv: ['comment', 'list', '{space}', '--cr', '{cr2}', '--status', 'open', '--format', 'ids'] }],
  ['reopen', { argv: ['comment', 'reopen', '{space}', '{k1}', '--cr', '{cr2}', '--format', 'tsv'] }],
  ['resolveAgain', { argv: ['comment', 'resolve', '{space}', '{k1}', '--cr', '{cr2}', '--format', 'ids'] }],
  ['resolveNit', { argv: ['comment', 'resolve', '{space}', '{k2}', '--cr', '{cr2}', '--format', 'ids'] }],
  ['crCountZero', { argv: ['cr', 'get', '{space}', '{cr2}', '--json'] }],
  ['changes', { argv: ['cr', 'changes', '{space}', '{cr2}'] }],
  ['rules', { argv: ['api', 'PATCH', '/v1/spaces/{space}', '--input', join(fixtures.rules as string, 'rules.json')] }],
  ['mergeRefused', { argv: ['cr', 'merge', '{space}', '{cr2}'] }],
  ['requestChanges', { argv: ['cr', 'review', '{space}', '{cr2}', '--request-changes', '--body', 'Keep a usage example', '--format', 'tsv'], advance: 1000 }],
  ['crCountReview', { argv: ['cr', 'get', '{space}', '{cr2}', '--json'] }],
  ['mergeStillRefused', { argv: ['cr', 'merge', '{space}', '{cr2}'] }],
  ['approve', { argv: ['cr', 'review', '{space}', '{cr2}', '--approve', '--format', 'tsv'], advance: 1000 }],
  ['reviews', { argv: ['cr', 'review', '{space}', '{cr2}', '--format', 'tsv'] }],
  ['merge2', { argv: ['cr', 'merge', '{space}', '{cr2}', '--format', 'ids'] }],
  // Imports into a change request only add and update; mirroring the directory removes the usage page.
  ['mirror', { argv: ['git', 'import', '{space}', fixtures.withoutUsage as string, '--format', 'ids'] }],
  ['search', { argv: ['search', 'installer', '--space', '{space}', '--format', 'tsv'] }],
  ['searchOrg', { argv: ['search', 'welcome', '--format', 'tsv'] }],
  ['spaceList', { argv: ['comment', 'list', '{space}', '--format', 'tsv'] }],
  ['outdated', { argv: ['comment', 'get', '{space}', '{c2}', '--json'] }],
  ['byPage', { argv: ['comment', 'list', '{space}', '--page', 'install', '--format', 'ids'] }],
  ['replyToReply', { argv: ['comment', 'reply', '{space}', '{r1}', '--cr', '{cr2}', '--body', 'nested?'] }],
  ['empty', { argv: ['comment', 'add', '{space}', '--body', ' '] }],
  ['unknown', { argv: ['comment', 'get', '{space}', 'nope'] }],
  ['deleteNoYes', { argv: ['comment', 'delete', '{space}', '{c1}'] }],
  ['delete', { argv: ['comment', 'delete', '{space}', '{c1}', '--yes'] }],
  ['spaceAfter', { argv: ['space', 'get', '{space}', '--json'] }],
];

describe('comments in both modes', () => {
  let local: Transcript;
  let remote: Transcript;
  const at = (t: Transcript, name: string) => t[named().findIndex(([n]) => n === name)] as RunResult;
  beforeAll(async () => {
    local = await runTranscript(named().map(([, step]) => step), 'local');
    // As `serve --allow-local <fixtures>`: the server may read the imported directories, nothing else.
    remote = await runTranscript(named().map(([, step]) => step), 'remote', { policy: { ...SERVE_POLICY, localRoots: [fixtureRoot] } });
  }, 180_000);
  afterAll(cleanupTempDirs);

  it('prints the same stdout and exit codes in both modes', () => {
    named().forEach(([name], index) => {
      const a = local[index] as RunResult;
      const b = remote[index] as RunResult;
      expect({ name, stdout: b.stdout, exitCode: b.exitCode }).toEqual({ name, stdout: a.stdout, exitCode: a.exitCode });
    });
  });

  it('succeeds where it should', () => {
    for (const [name] of named()) {
      if (['replyToReply', 'empty', 'unknown', 'deleteNoYes', 'mergeRefused', 'mergeStillRefused'].includes(name)) continue;
      expect(at(local, name).exitCode, `${name}: ${at(local, name).stderr}`).toBe(0);
    }
  });

  it('keeps the change request counter equal to its open comments at each step', () => {
    const count = (name: string) => (JSON.parse(at(local, name).stdout) as { comments: number }).comments;
    expect([count('crCount0'), count('crCount2'), count('crCount1'), count('crCountZero')]).toEqual([0, 2, 1, 0]);
    expect(at(local, 'openOnly').stdout.trim().split('\n')).toEqual([at(local, 'nit').stdout.trim()]);
  });

  it('lists the change request thread newest first, with replies and reactions counted', () => {
    const rows = at(local, 'crList').stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(rows.map((r) => [r[1], r[2], r[3], r[4], r[5]])).toEqual([
      ['open', 'Admin', '0', 'install', 'Typo: "then run it"'],
      ['open', 'Admin', '1', '', 'Why remove the usage page?'],
    ]);
    expect(at(local, 'resolve').stdout).toMatch(/\tresolved\tAdmin\t1\t/);
    expect(at(local, 'reopen').stdout).toMatch(/\topen\tAdmin\t1\t/);
  });

  it('reviews: merge rules refuse the merge (exit 5, naming the rule) until a review approves', () => {
    expect(at(local, 'changes').stdout).toBe('edited   install\n');
    expect(at(local, 'mergeRefused').exitCode).toBe(5);
    expect(at(local, 'mergeRefused').stderr).toMatch(/^error: Change request #2 cannot be merged yet: .*at least one approving review is required/);
    expect(at(local, 'requestChanges').stdout).toMatch(/^\w+\tchanges-requested\tAdmin\tfalse\tKeep a usage example\t/);
    expect((JSON.parse(at(local, 'crCountReview').stdout) as { comments: number }).comments).toBe(1);
    expect(at(local, 'mergeStillRefused').exitCode).toBe(5);
    const reviews = at(local, 'reviews').stdout.trim().split('\n').map((line) => line.split('\t').slice(1, 4));
    expect(reviews).toEqual([
      ['approved', 'Admin', 'false'],
      ['changes-requested', 'Admin', 'true'],
    ]);
  });

  it('searches the merged content, in the space and across the organization', () => {
    expect(at(local, 'search').stdout).toMatch(/^\w+\tInstall\tinstall\tRun the installer, then run it\.\n$/);
    expect(at(local, 'searchOrg').stdout).toMatch(/^Docs\t\w+\tWelcome\t/);
  });

  it('keeps a comment whose page a later import deleted, marked outdated', () => {
    expect(at(local, 'spaceList').stdout).toMatch(/\topen\tAdmin\t0\tusage \(outdated\)\tUsage needs examples\t/);
    expect(at(local, 'spaceList').stdout).toMatch(/\topen\tAdmin\t0\tinstall\tCheck the install steps\t/);
    const comment = JSON.parse(at(local, 'outdated').stdout) as { target: { page: Record<string, unknown> } };
    expect(comment.target.page).toMatchObject({ title: 'Usage', path: 'usage', outdated: true });
    expect(at(local, 'byPage').stdout.trim()).toBe(at(local, 'onInstall').stdout.trim());
  });

  it('refuses bad input with one line and the documented exit code, changing nothing', () => {
    expect(at(local, 'replyToReply').exitCode).toBe(2);
    expect(at(local, 'replyToReply').stderr).toMatch(/^error: .* is a reply, and replies have no replies: reply to its comment/);
    expect(at(local, 'empty').exitCode).toBe(2);
    expect(at(local, 'unknown').exitCode).toBe(4);
    expect(at(local, 'unknown').stderr).toMatch(/^error: Comment nope not found in space /);
    expect(at(local, 'deleteNoYes').exitCode).toBe(2);
    expect(at(local, 'delete').stderr).toMatch(/^Deleted comment /);
    // One open space comment remains (the outdated one).
    expect((JSON.parse(at(local, 'spaceAfter').stdout) as { comments: number }).comments).toBe(1);
  });
});
