/**
 * The AI agents in the organization file, through the built binary, locally and against
 * `docsctl serve`: the organization's agent instructions, a site's agent settings and its
 * GitBook Agent channels. The plan's lines, the state apply leaves (read back with the
 * commands of each operation), a second apply planning nothing, changes as `~` lines,
 * channels the file leaves out deleted only with --prune, export then apply planning
 * nothing, and a wrong list of patterns or a wrong pin refused with the line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { describeInBothModes } from '../helpers/binary.js';
import { type Named, orgFileHelpers } from '../helpers/org-files.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

interface Channel {
  id: string;
  type: string;
  role: string;
  setupSettings: Record<string, string[]>;
}
interface Leaf {
  text: string;
}
const paragraphs = (document: { nodes: Array<{ type: string; nodes: Array<{ leaves: Leaf[] }> }> }) =>
  document.nodes.map((block) => `${block.type}: ${block.nodes.flatMap((node) => node.leaves.map((leaf) => leaf.text)).join('')}`);

describeInBothModes('apply -f: agent instructions, site agent settings, site channels', (context) => {
  const dir = tempDir('docsctl-apply-agents-');
  const { file, json, byTitle } = orgFileHelpers(context, dir);
  let orgTitle = '';
  const org = (body: string) => `organization:\n  title: ${JSON.stringify(orgTitle)}\n${body}`;

  const FIRST = () =>
    org(`  agentInstructions: |
    Answer in English.

    Link to the API reference.
sites:
  - title: Docs
    agentSettings:
      scans: {topics: never}
      findings: {changeRequests: auto-fixable}
      editing:
        customInstructions: Prefer short sentences.
    channels:
      - type: builtin:slack
        setupSettings: {allowedChannels: [support-*, docs]}
      - type: builtin:github
        role: collaborator
        setupSettings: {allowedRepositories: [my-org/docs]}
`);

  it('plans, applies and reads back what the file says; a second apply plans nothing', async () => {
    orgTitle = ((await json<Named[]>(['org', 'list']))[0] as Named).title;
    const path = file('agents.yaml', FIRST());
    const plan = await context.cli.run(['diff', '-f', path]);
    expect(plan.exitCode, plan.stderr).toBe(1);
    expect(plan.stdout.split('\n')).toEqual([
      `~ organization ${orgTitle}`,
      '    agentInstructions: "(none)" → "Answer in English.\\n\\nLink to the API reference."',
      '+ site Docs',
      '+ site agent settings Docs',
      '    agentSettings.scans.topics: "never"',
      '    agentSettings.findings.changeRequests: "auto-fixable"',
      '    agentSettings.editing.customInstructions: "Prefer short sentences."',
      '+ site channel Docs/builtin:slack',
      '    allowedChannels: ["support-*","docs"]',
      '+ site channel Docs/builtin:github',
      '    role: "collaborator"',
      '    allowedRepositories: ["my-org/docs"]',
    ]);
    const applied = await context.cli.run(['apply', '-f', path]);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('Applied: 4 created, 1 changed, 0 deleted');

    const instructions = await json<{ instructions: Parameters<typeof paragraphs>[0] }>(['org', 'agent-instructions', 'get']);
    expect(paragraphs(instructions.instructions)).toEqual(['paragraph: Answer in English.', 'paragraph: Link to the API reference.']);
    const site = await byTitle(['site', 'list'], 'Docs');
    const settings = await json<{ scans: unknown; findings: unknown; editing: { customInstructions: Parameters<typeof paragraphs>[0] } }>(['site', 'agent', 'get', site]);
    expect([settings.scans, settings.findings]).toEqual([{ topics: 'never' }, { changeRequests: 'auto-fixable' }]);
    expect(paragraphs(settings.editing.customInstructions)).toEqual(['paragraph: Prefer short sentences.']);
    const channels = await json<Channel[]>(['site', 'channel', 'list', site]);
    expect(channels.map((c) => [c.type, c.role, c.setupSettings])).toEqual([
      ['builtin:slack', 'support', { allowedChannels: ['support-*', 'docs'] }],
      ['builtin:github', 'collaborator', { allowedRepositories: ['my-org/docs'] }],
    ]);

    const again = await context.cli.run(['apply', '-f', path]);
    expect([again.exitCode, again.stdout], again.stderr).toEqual([0, '']);
  });

  it('plans changes as ~ lines, keeps groups the file leaves out, and deletes a channel the file drops only with --prune', async () => {
    const path = file(
      'changed.yaml',
      FIRST()
        .replace('Link to the API reference.', 'Link to the reference.')
        .replace('      scans: {topics: never}\n', '')
        .replace('Prefer short sentences.', '"Prefer short sentences.\\n\\nNo emoji."')
        .replace(/ {6}- type: builtin:slack\n.*\n/, '')
        .replace('[my-org/docs]', '[my-org/docs, my-org/api]')
        .replace('role: collaborator', 'role: support'),
    );
    const changes = [
      `~ organization ${orgTitle}`,
      '    agentInstructions: "Answer in English.\\n\\nLink to the API reference." → "Answer in English.\\n\\nLink to the reference."',
      '~ site agent settings Docs',
      '    agentSettings.editing.customInstructions: "Prefer short sentences." → "Prefer short sentences.\\n\\nNo emoji."',
      '~ site channel Docs/builtin:github',
      '    role: "collaborator" → "support"',
      '    allowedRepositories: ["my-org/docs"] → ["my-org/docs","my-org/api"]',
    ];
    const diff = await context.cli.run(['diff', '-f', path]);
    expect([diff.exitCode, diff.stdout.split('\n')], diff.stderr).toEqual([1, changes]);
    const pruned = await context.cli.run(['diff', '-f', path, '--prune']);
    expect(pruned.stdout.split('\n')).toEqual([...changes, '- site channel Docs/builtin:slack']);

    expect((await context.cli.run(['apply', '-f', path])).exitCode).toBe(0);
    const site = await byTitle(['site', 'list'], 'Docs');
    const settings = await json<{ scans: unknown; editing: { customInstructions: Parameters<typeof paragraphs>[0] } }>(['site', 'agent', 'get', site]);
    expect(settings.scans).toEqual({ topics: 'never' }); // the file left scans out: kept
    expect(paragraphs(settings.editing.customInstructions)).toEqual(['paragraph: Prefer short sentences.', 'paragraph: No emoji.']);
    expect((await json<Channel[]>(['site', 'channel', 'list', site])).map((c) => c.type)).toEqual(['builtin:slack', 'builtin:github']);

    const done = await context.cli.run(['apply', '-f', path, '--prune', '--yes']);
    expect(done.exitCode, done.stderr).toBe(0);
    const left = await json<Channel[]>(['site', 'channel', 'list', site]);
    expect(left.map((c) => [c.type, c.role, c.setupSettings])).toEqual([['builtin:github', 'support', { allowedRepositories: ['my-org/docs', 'my-org/api'] }]]);
    expect((await context.cli.run(['diff', '-f', path, '--prune'])).exitCode).toBe(0);
  });

  it('export then apply plans nothing; instructions are exported as text, channels with their list', async () => {
    const exported = join(dir, `${context.mode}-export.yaml`);
    const result = await context.cli.run(['export', 'org', '-o', exported]);
    expect(result.exitCode, result.stderr).toBe(0);
    const diff = await context.cli.run(['diff', '-f', exported, '--prune']);
    expect([diff.exitCode, diff.stdout], diff.stderr).toEqual([0, '']);
    const data = parse(readFileSync(exported, 'utf8')) as { organization: Record<string, unknown>; sites: Array<Record<string, unknown>> };
    expect(data.organization.agentInstructions).toBe('Answer in English.\n\nLink to the reference.');
    const docs = data.sites.find((s) => s.title === 'Docs');
    expect(docs?.agentSettings).toEqual({ scans: { topics: 'never' }, findings: { changeRequests: 'auto-fixable' }, editing: { customInstructions: 'Prefer short sentences.\n\nNo emoji.' } });
    expect(docs?.channels).toEqual([{ type: 'builtin:github', role: 'support', setupSettings: { allowedRepositories: ['my-org/docs', 'my-org/api'] } }]);
    // A site that never set its agent settings exports none (the defaults are the server's).
    await context.cli.ok(['site', 'create', '--title', 'Plain']);
    await context.cli.ok(['export', 'org', '-o', exported]);
    const plain = (parse(readFileSync(exported, 'utf8')) as typeof data).sites.find((s) => s.title === 'Plain');
    expect(plain && ['agentSettings' in plain, 'channels' in plain]).toEqual([false, false]);
    // Instructions that are more than paragraphs go out as the document, and come back unchanged.
    const heading = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'heading-1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Tone', marks: [] }] }] }] };
    await context.cli.ok(['site', 'agent', 'set', await byTitle(['site', 'list'], 'Plain'), '--instructions-file', file('heading.json', JSON.stringify(heading))]);
    await context.cli.ok(['export', 'org', '-o', exported]);
    const rich = (parse(readFileSync(exported, 'utf8')) as typeof data).sites.find((s) => s.title === 'Plain');
    expect(rich?.agentSettings).toEqual({ scans: { topics: 'auto' }, findings: { changeRequests: 'never' }, editing: { customInstructions: { object: 'document', nodes: heading.nodes } } });
    const again = await context.cli.run(['diff', '-f', exported, '--prune']);
    expect([again.exitCode, again.stdout], again.stderr).toEqual([0, '']);
  });

  it("refuses another tool's list of patterns and a wrong pin, naming the line, before anything changes", async () => {
    const site = await byTitle(['site', 'list'], 'Docs');
    const github = ((await json<Channel[]>(['site', 'channel', 'list', site]))[0] as Channel).id;
    const cases: Array<[string, RegExp]> = [
      [
        'sites:\n  - title: Docs\n    channels:\n      - type: builtin:slack\n        setupSettings: {allowedRepositories: [my-org/docs]}\n',
        /:5: sites\[0\]\.channels\[0\]\.setupSettings\.allowedRepositories: a builtin:slack channel takes allowedChannels, not allowedRepositories/,
      ],
      ['sites:\n  - title: Docs\n    channels:\n      - {id: nope, type: builtin:slack}\n', /:4: sites\[0\]\.channels\[0\]\.id: no channel with id nope in site "Docs"/],
      [`sites:\n  - title: Docs\n    channels:\n      - {id: ${github}, type: builtin:linear}\n`, /:4: sites\[0\]\.channels\[0\]\.type: channel \S+ is a builtin:github channel; the API cannot change its tool/],
      ['sites:\n  - title: Docs\n    agentSettings: {scans: {topics: sometimes}}\n', /:3: sites\[0\]\.agentSettings\.scans\.topics: .*auto.*never/],
      ['sites:\n  - title: Docs\n    channels:\n      - {type: builtin:slack, setupSettings: {allowedChannels: ["no spaces"]}}\n', /:4: sites\[0\]\.channels\[0\]\.setupSettings\.allowedChannels\[0\]/],
    ];
    for (const [text, error] of cases) {
      const result = await context.cli.run(['apply', '-f', file('bad.yaml', text), '--prune', '--yes']);
      expect([result.exitCode, result.stdout], result.stderr).toEqual([2, '']);
      expect(result.stderr.split('\n')[0]).toMatch(error);
    }
    expect((await json<Channel[]>(['site', 'channel', 'list', site])).map((c) => c.id)).toEqual([github]);
  });
});
