/**
 * Sites end to end through the CLI, in local mode and against `docsctl serve`:
 * two sections (one with two variants), a group, publishing, share links, an
 * adaptive schema, moves, deleting the default section and a space shown by the
 * site; `published` and `tree` after each step. Same stdout and exit codes in
 * both modes, and the values asserted.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../helpers/cli.js';
import { type Step, type Transcript, runTranscript } from '../helpers/scenario.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

let files: { schema: string; bad: string };

beforeAll(() => {
  const dir = tempDir('docsctl-site-fixtures-');
  files = { schema: join(dir, 'schema.json'), bad: join(dir, 'bad.json') };
  writeFileSync(
    files.schema,
    JSON.stringify({
      type: 'object',
      properties: { isBetaUser: { type: 'boolean', description: 'Visitor is in the beta' } },
      additionalProperties: false,
    }),
  );
  writeFileSync(files.bad, JSON.stringify({ type: 'object', properties: { isBetaUser: { type: 'boolean' } }, additionalProperties: false }));
});

/** Steps, each with a label the assertions use. */
const labelled = (): Array<[string, Step]> => [
  ['space guide', { argv: ['space', 'create', '--title', 'Guide', '--format', 'ids'], capture: 'guide' }],
  ['space guide2', { argv: ['space', 'create', '--title', 'Guide v2', '--format', 'ids'], capture: 'guide2' }],
  ['space api', { argv: ['space', 'create', '--title', 'API', '--format', 'ids'], capture: 'api' }],
  ['space blog', { argv: ['space', 'create', '--title', 'Blog', '--format', 'ids'], capture: 'blog' }],
  ['create', { argv: ['site', 'create', '--title', 'Help Center', '--type', 'ultimate', '--format', 'ids'], capture: 'site' }],
  ['section guide', { argv: ['site', 'section', 'add', '{site}', '{guide}', '--format', 'ids'], capture: 'secGuide' }],
  ['section api', { argv: ['site', 'section', 'add', '{site}', '{api}', '--title', 'API reference', '--format', 'ids'], capture: 'secApi' }],
  ['variant', { argv: ['site', 'space', 'add', '{site}', '{guide2}', '--section', '{secGuide}', '--format', 'ids'], capture: 'variant' }],
  ['first variant', { argv: ['site', 'space', 'list', '{site}', '--format', 'ids', '--limit', '1'], capture: 'variant1' }],
  ['section blog', { argv: ['site', 'section', 'add', '{site}', '{blog}', '--format', 'ids'], capture: 'secBlog' }],
  ['group', { argv: ['site', 'section-group', 'add', '{site}', '--title', 'More', '--section', '{secApi}', '--section', '{secBlog}', '--format', 'ids'], capture: 'group' }],
  ['published before', { argv: ['site', 'published', '{site}'] }],
  ['publish', { argv: ['site', 'publish', '{site}', '--format', 'tsv'] }],
  ['published', { argv: ['site', 'published', '{site}'] }],
  ['tree', { argv: ['site', 'tree', '{site}'] }],
  ['move section', { argv: ['site', 'section', 'move', '{site}', '{secBlog}', '--before', '{secApi}', '--format', 'ids'] }],
  ['move variant', { argv: ['site', 'space', 'move', '{site}', '{variant}', '--before', '{variant1}', '--format', 'ids'] }],
  ['tree after moves', { argv: ['site', 'tree', '{site}'] }],
  ['share link refused', { argv: ['site', 'share-link', 'create', '{site}', '--name', 'Partners'] }],
  ['visibility', { argv: ['site', 'edit', '{site}', '--visibility', 'share-link', '--format', 'tsv'] }],
  ['share link', { argv: ['site', 'share-link', 'create', '{site}', '--name', 'Partners', '--format', 'ids'], capture: 'link' }],
  ['share link list', { argv: ['site', 'share-link', 'list', '{site}', '--format', 'tsv'] }],
  ['share link 2', { argv: ['site', 'share-link', 'create', '{site}', '--name', 'Internal team', '--format', 'ids'], capture: 'link2' }],
  ['share link search', { argv: ['site', 'share-link', 'list', '{site}', '--search', 'PART', '--json', 'id,name'] }],
  ['share link search team', { argv: ['site', 'share-link', 'list', '{site}', '--search', 'team', '--json', 'id,name'] }],
  ['share link search none', { argv: ['site', 'share-link', 'list', '{site}', '--search', 'nobody', '--json'] }],
  ['share link off', { argv: ['site', 'share-link', 'edit', '{site}', '{link}', '--inactive', '--format', 'tsv'] }],
  ['schema', { argv: ['site', 'adaptive-schema', 'set', '{site}', '--file', 'SCHEMA', '--format', 'tsv'] }],
  ['bad schema', { argv: ['site', 'adaptive-schema', 'set', '{site}', '--file', 'BAD'] }],
  ['path clash', { argv: ['site', 'section', 'edit', '{site}', '{secApi}', '--path', 'blog'] }],
  ['bad position', { argv: ['site', 'section', 'move', '{site}', '{secApi}', '--before', 'nope'] }],
  ['remove default section', { argv: ['site', 'section', 'remove', '{site}', '{secGuide}', '--yes'] }],
  ['published after remove', { argv: ['site', 'published', '{site}'] }],
  ['delete space', { argv: ['space', 'delete', '{api}', '--yes'] }],
  ['published after space delete', { argv: ['site', 'published', '{site}'] }],
  ['tree at the end', { argv: ['site', 'tree', '{site}'] }],
  ['site json', { argv: ['site', 'get', '{site}', '--json'] }],
  ['list by type', { argv: ['site', 'list', '--type', 'ultimate', '--type', 'premium', '--published', 'true', '--format', 'ids'] }],
  ['list by other type', { argv: ['site', 'list', '--type', 'basic', '--format', 'ids'] }],
];

const steps = (): Step[] =>
  labelled().map(([, step]) => ({
    ...step,
    argv: step.argv.map((arg) => (arg === 'SCHEMA' ? files.schema : arg === 'BAD' ? files.bad : arg)),
  }));
const index = (label: string) => labelled().findIndex(([l]) => l === label);

describe('sites in both modes', () => {
  let local: Transcript;
  let remote: Transcript;
  const at = (label: string): RunResult => local[index(label)] as RunResult;
  const ids = () => Object.fromEntries(labelled().flatMap(([, step], i) => (step.capture ? [[step.capture, local[i]?.stdout.trim()]] : [])));

  beforeAll(async () => {
    local = await runTranscript(steps(), 'local');
    remote = await runTranscript(steps(), 'remote');
  }, 120_000);
  afterAll(cleanupTempDirs);

  it('prints the same stdout and exit codes in both modes', () => {
    steps().forEach((step, i) => {
      const a = local[i] as RunResult;
      const b = remote[i] as RunResult;
      expect({ argv: step.argv, stdout: b.stdout, exitCode: b.exitCode }).toEqual({ argv: step.argv, stdout: a.stdout, exitCode: a.exitCode });
    });
  });

  it('builds the site: every step up to publishing succeeds', () => {
    for (const [label] of labelled().slice(0, index('tree') + 1)) expect(at(label).exitCode, `${label}: ${at(label).stderr}`).toBe(0);
  });

  it('shows no URL before publishing, then one per variant', () => {
    expect(at('published before').stdout).toBe(
      ['Guide\tGuide\ttrue\t', 'Guide\tGuide v2\tfalse\t', 'More / API reference\tAPI\tfalse\t', 'More / Blog\tBlog\tfalse\t', ''].join('\n'),
    );
    const org = /https:\/\/([a-z0-9]+)\.gitbook\.io/.exec(at('published').stdout)?.[1];
    const site = `https://${org}.gitbook.io/help-center`;
    expect(at('published').stdout).toBe(
      [
        `Guide\tGuide\ttrue\t${site}/`,
        `Guide\tGuide v2\tfalse\t${site}/guide-v2/`,
        `More / API reference\tAPI\tfalse\t${site}/api-reference/`,
        `More / Blog\tBlog\tfalse\t${site}/blog/`,
        '',
      ].join('\n'),
    );
  });

  it('draws the tree with groups, sections, variants and URLs; moves reorder it', () => {
    const { secGuide, secApi, secBlog, group } = ids();
    const tree = at('tree').stdout;
    expect(tree.split('\n').map((line) => line.replace(/ {2}(section|variant|group) \w+/, '').replace(/https:\S+/, 'URL'))).toEqual([
      '# Guide  /guide  default  URL',
      '  * Guide  /guide  default  URL',
      '  * Guide v2  /guide-v2  URL',
      '[More]',
      '  # API reference  /api-reference  URL',
      '    * API  /api  default  URL',
      '  # Blog  /blog  URL',
      '    * Blog  /blog  default  URL',
      '',
    ]);
    expect(tree).toContain(`section ${secGuide}`);
    expect(tree).toContain(`group ${group}`);
    const moved = at('tree after moves').stdout;
    expect(moved.indexOf(`section ${secBlog}`)).toBeLessThan(moved.indexOf(`section ${secApi}`));
    expect(moved.indexOf('* Guide v2')).toBeLessThan(moved.indexOf('* Guide  '));
  });

  it('share links need share-link visibility; the secret is never listed', () => {
    expect(at('share link refused').exitCode).toBe(5);
    expect(at('share link refused').stderr).toMatch(/share-link visibility/);
    expect(at('share link').exitCode).toBe(0);
    expect(at('share link list').stdout).toBe(`${ids().link}\tPartners\ttrue\t2026-03-01T10:00:00.000Z\t\n`);
    expect(at('share link off').stdout).toBe(`${ids().link}\tPartners\tfalse\t2026-03-01T10:00:00.000Z\t\n`);
  });

  it('finds share links by a part of their name, in any letter case (--search)', () => {
    expect(JSON.parse(at('share link search').stdout)).toEqual([{ id: ids().link, name: 'Partners' }]);
    expect(JSON.parse(at('share link search team').stdout)).toEqual([{ id: ids().link2, name: 'Internal team' }]);
    expect(JSON.parse(at('share link search none').stdout)).toEqual([]);
  });

  it('sets a valid adaptive schema and refuses an invalid one naming the problem', () => {
    expect(at('schema').exitCode).toBe(0);
    expect(at('schema').stdout).toMatch(/\tisBetaUser\n$/);
    expect(at('bad schema').exitCode).toBe(2);
    expect(at('bad schema').stderr).toMatch(/jsonSchema\.properties\.isBetaUser/);
  });

  it('refuses a path clash (409) and a bad position (400)', () => {
    expect(at('path clash').exitCode).toBe(5);
    expect(at('path clash').stderr).toMatch(/already used/);
    expect(at('bad position').exitCode).toBe(2);
    expect(at('bad position').stderr).toMatch(/Invalid position/);
  });

  it('hands the default to the next section, and hides a deleted space', () => {
    const org = /https:\/\/([a-z0-9]+)\.gitbook\.io/.exec(at('published').stdout)?.[1];
    const site = `https://${org}.gitbook.io/help-center`;
    expect(at('published after remove').stdout).toBe(
      [`More / Blog\tBlog\ttrue\t${site}/`, `More / API reference\tAPI\tfalse\t${site}/api-reference/`, ''].join('\n'),
    );
    expect(at('published after space delete').stdout).toBe(`More / Blog\tBlog\ttrue\t${site}/\n`);
    expect(at('tree at the end').stdout).not.toContain('API reference');
    const json = JSON.parse(at('site json').stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ title: 'Help Center', type: 'ultimate', visibility: 'share-link', published: true });
    expect(at('list by type').stdout).toBe(`${ids().site}\n`);
    expect(at('list by other type').stdout).toBe('');
  });
});
