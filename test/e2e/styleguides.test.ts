/**
 * Writing style guides through the built binary, in both modes: `styleguide templates`,
 * `site styleguide create|runs`, `styleguide list`, `site edit --styleguide`. A style guide is a space of type
 * `styleguide` seeded with the template's Markdown; asking again answers the same space;
 * deleting the space hides it from its site, deleting the site leaves the space naming no site;
 * refusals are one line with their exit codes (2 usage, 4 not found).
 */
import { expect, it } from 'vitest';
import { describeInBothModes, expectRefused } from '../helpers/binary.js';

type Json = Record<string, unknown>;

describeInBothModes('style guides (binary)', (context) => {
  const json = async (args: string[]) => JSON.parse(await context.cli.ok([...args, '--json'])) as Json;
  const listed = async () => JSON.parse(await context.cli.ok(['styleguide', 'list', '--json'])) as Array<{ space: Json; sites: Json[] }>;
  const newSite = async (title: string) => String((await json(['site', 'create', '--title', title])).id);

  it('styleguide templates lists the three built-in templates (TSV; --json with their Markdown)', async () => {
    const tsv = await context.cli.ok(['styleguide', 'templates', '--format', 'tsv']);
    expect(tsv.split('\n').map((line) => line.split('\t').slice(0, 2))).toEqual([
      ['technical-writing', 'Technical writing'],
      ['api-reference', 'API reference'],
      ['plain-language', 'Plain language'],
    ]);
    const templates = JSON.parse(await context.cli.ok(['styleguide', 'templates', '--json'])) as Array<{ id: string; markdown: string }>;
    expect(templates.find((t) => t.id === 'plain-language')?.markdown).toMatch(/^# Plain language style guide\n[\s\S]*## Sentences\n/);
    expect(templates.find((t) => t.id === 'api-reference')?.markdown).toContain('| `limit` | integer | no |');
  });

  it('site styleguide create makes a styleguide space seeded from the template, once; styleguide list shows it with its site', async () => {
    const site = await newSite('Docs');
    const made = await json(['site', 'styleguide', 'create', site, '--template', 'technical-writing']);
    expect(made).toMatchObject({ object: 'space', type: 'styleguide', title: 'Docs style guide', organization: context.cli.orgId });
    const space = String(made.id);
    expect(await context.cli.ok(['page', 'list', space, '--format', 'tsv', '--columns', 'title'])).toBe('Technical writing style guide');
    expect(await context.cli.ok(['page', 'get', space, 'readme', '--format', 'markdown'])).toContain('## Voice and tone');
    // Again, with another template: the same space.
    expect(await json(['site', 'styleguide', 'create', site, '--template', 'plain-language'])).toEqual(made);
    expect(await json(['site', 'get', site])).toMatchObject({ styleguide: { kind: 'space', space } });
    expect(await json(['space', 'get', space])).toMatchObject({ id: space, type: 'styleguide' });
    expect((await listed()).find((entry) => entry.space.id === space)?.sites.map((s) => s.id)).toEqual([site]);
    expect(await context.cli.ok(['styleguide', 'list', '--format', 'tsv', '--columns', 'space,title,sites'])).toContain(`${space}\tDocs style guide\t${site}`);
    // No runs: an empty list, exit 0.
    const runs = await context.cli.run(['site', 'styleguide', 'runs', site, '--json']);
    expect([runs.exitCode, JSON.parse(runs.stdout)]).toEqual([0, []]);
  });

  it('without --template the style guide is blank; a regular space has no type', async () => {
    const site = await newSite('Blank');
    const made = await json(['site', 'styleguide', 'create', site]);
    expect(made).toMatchObject({ type: 'styleguide', title: 'Blank style guide' });
    expect(await context.cli.ok(['page', 'list', String(made.id), '--json'])).toBe('[]');
    const regular = await json(['space', 'create', '--title', 'Handbook']);
    expect(regular.type).toBeUndefined();
  });

  it('site edit --styleguide shares a style guide with another site; none detaches it', async () => {
    const docs = await newSite('Shared docs');
    const blog = await newSite('Shared blog');
    const guide = String((await json(['site', 'styleguide', 'create', docs, '--template', 'api-reference'])).id);
    expect((await json(['site', 'edit', blog, '--styleguide', guide])).styleguide).toEqual({ kind: 'space', space: guide });
    expect((await listed()).find((entry) => entry.space.id === guide)?.sites.map((s) => s.id).sort()).toEqual([docs, blog].sort());
    expect((await json(['site', 'edit', blog, '--styleguide', 'none'])).styleguide).toBeUndefined();
    expect((await listed()).find((entry) => entry.space.id === guide)?.sites.map((s) => s.id)).toEqual([docs]);
    const regular = String((await json(['space', 'create', '--title', 'Not a guide'])).id);
    await expectRefused(context.cli, ['site', 'edit', blog, '--styleguide', regular], 2, new RegExp(`space ${regular} is not a style guide`));
  });

  it('deleting the style guide space hides it from its site; deleting the site leaves the space naming no site', async () => {
    const site = await newSite('Guide');
    const first = String((await json(['site', 'styleguide', 'create', site, '--template', 'api-reference'])).id);
    await context.cli.ok(['space', 'delete', first, '--yes']);
    expect((await json(['site', 'get', site])).styleguide).toBeUndefined();
    expect((await listed()).map((entry) => entry.space.id)).not.toContain(first);
    const second = String((await json(['site', 'styleguide', 'create', site])).id);
    expect(second).not.toBe(first);
    await context.cli.ok(['site', 'delete', site, '--yes']);
    expect((await listed()).find((entry) => entry.space.id === second)).toMatchObject({ space: { id: second, type: 'styleguide' }, sites: [] });
  });

  it('refuses an unknown template, site or organization in one line', async () => {
    const site = await newSite('Refusals');
    await expectRefused(context.cli, ['site', 'styleguide', 'create', site, '--template', 'nope'], 2, /--template.*technical-writing, api-reference, plain-language/);
    await expectRefused(context.cli, ['api', 'POST', `/v1/orgs/${context.cli.orgId}/sites/${site}/styleguide`, '-f', 'template=nope'], 2, /Invalid body field "template".*"technical-writing"\|"api-reference"\|"plain-language"/);
    await expectRefused(context.cli, ['site', 'styleguide', 'create', 'n0s1te'], 4, /Site n0s1te not found/);
    await expectRefused(context.cli, ['site', 'styleguide', 'runs', 'n0s1te'], 4, /Site n0s1te not found/);
    await expectRefused(context.cli, ['styleguide', 'list', '--org', 'n0org'], 4, /not found/);
    expect((await json(['site', 'get', site])).styleguide).toBeUndefined();
  });
});
