/**
 * The AI agent settings through the built binary, in both modes: `site agent get|set` (a site's
 * scans, change requests for findings and the editing agent's instructions; `set` keeps what it
 * is not given) and `org agent-instructions get|set` (the Docs agent's instructions as text or a
 * JSON document). Bad input: one line, exit 2, nothing written.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeInBothModes, expectRefused } from '../helpers/binary.js';

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
const doc = (...texts: string[]) => ({ object: 'document', data: {}, nodes: texts.map(paragraph) });

describeInBothModes('AI agent settings (binary)', (context) => {
  let site = '';
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-agent-'));
  const settings = async () => JSON.parse(await context.cli.ok(['site', 'agent', 'get', site, '--json'])) as Record<string, unknown>;
  const instructions = async () => JSON.parse(await context.cli.ok(['org', 'agent-instructions', 'get', '--json'])) as Record<string, unknown>;
  const refused = (args: string[], exitCode: number, message: RegExp) => expectRefused(context.cli, args, exitCode, message);

  beforeAll(async () => {
    const space = await context.cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    site = await context.cli.ok(['site', 'create', '--title', 'Docs', '--space', space, '--format', 'ids']);
  });

  it('a site starts with topics scanned, no agent change requests and no instructions', async () => {
    expect(await settings()).toEqual({
      object: 'site-agent-settings',
      urls: { location: expect.stringMatching(new RegExp(`/v1/orgs/${context.cli.orgId}/sites/${site}/agent-settings$`)) },
      scans: { topics: 'auto' },
      findings: { changeRequests: 'never' },
      editing: { customInstructions: doc() },
    });
    expect(await context.cli.ok(['site', 'agent', 'get', site, '--format', 'tsv'])).toBe('auto\tnever');
  });

  it('set changes what it is given and keeps the rest', async () => {
    await context.cli.ok(['site', 'agent', 'set', site, '--scan-topics', 'never']);
    await context.cli.ok(['site', 'agent', 'set', site, '--instructions', 'Be brief.\n\n  Use British English.  \n']);
    const after = await settings();
    expect(after).toMatchObject({ scans: { topics: 'never' }, findings: { changeRequests: 'never' }, editing: { customInstructions: doc('Be brief.', 'Use British English.') } });
    expect(after.updatedAt).toEqual(expect.any(String));
    await context.cli.ok(['site', 'agent', 'set', site, '--change-requests', 'auto-fixable']);
    expect(await context.cli.ok(['site', 'agent', 'get', site, '--columns', 'SCAN TOPICS,CHANGE REQUESTS,INSTRUCTIONS', '--format', 'tsv'])).toBe('never\tauto-fixable\tBe brief. ¶ Use British English.');
  });

  it('instructions from a JSON document file, from stdin as text, and cleared', async () => {
    const file = join(dir, 'doc.json');
    writeFileSync(file, JSON.stringify(doc('From a file.')));
    await context.cli.ok(['site', 'agent', 'set', site, '--instructions-file', file]);
    expect((await settings()).editing).toEqual({ customInstructions: doc('From a file.') });
    await context.cli.ok(['site', 'agent', 'set', site, '--instructions-file', '-'], { input: 'From stdin.\n' });
    expect((await settings()).editing).toEqual({ customInstructions: doc('From stdin.') });
    await context.cli.ok(['site', 'agent', 'set', site, '--instructions', '']);
    expect(await settings()).toMatchObject({ scans: { topics: 'never' }, findings: { changeRequests: 'auto-fixable' }, editing: { customInstructions: doc() } });
  });

  it('refuses bad input with one line and exit 2, changing nothing', async () => {
    const before = await settings();
    await refused(['site', 'agent', 'set', site], 2, /Nothing to change: pass --scan-topics/);
    await refused(['site', 'agent', 'set', site, '--scan-topics', 'daily'], 2, /daily.*Allowed choices are auto, never/);
    await refused(['site', 'agent', 'set', site, '--instructions', 'a', '--instructions-file', '-'], 2, /Pass --instructions or --instructions-file, not both/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"object": "document", "nodes": [');
    await refused(['site', 'agent', 'set', site, '--instructions-file', broken], 2, /starts like JSON but is not valid JSON/);
    writeFileSync(broken, '{"title": "not a document"}');
    await refused(['site', 'agent', 'set', site, '--instructions-file', broken], 2, /is JSON but not a document/);
    await refused(['site', 'agent', 'set', site, '--instructions-file', join(dir, 'missing.txt')], 2, /Cannot read --instructions-file .*ENOENT/);
    expect(await settings()).toEqual(before);
  });

  it("the organization's Docs agent instructions: empty until set, text or a document, never half-written", async () => {
    expect(await instructions()).toMatchObject({ object: 'agent-instructions', instructions: doc(), updatedAt: expect.any(String), updatedBy: expect.any(String) });
    await context.cli.ok(['org', 'agent-instructions', 'set', '--text', 'Answer politely.\n\nLink to the reference.']);
    expect((await instructions()).instructions).toEqual(doc('Answer politely.', 'Link to the reference.'));
    expect(await context.cli.ok(['org', 'agent-instructions', 'get', '--format', 'tsv', '--columns', 'INSTRUCTIONS'])).toBe('Answer politely. ¶ Link to the reference.');
    const file = join(dir, 'org.json');
    writeFileSync(file, JSON.stringify(doc('From a document.')));
    await context.cli.ok(['org', 'agent-instructions', 'set', '--file', file]);
    expect((await instructions()).instructions).toEqual(doc('From a document.'));
    await refused(['org', 'agent-instructions', 'set'], 2, /Missing the instructions: pass --text TEXT or --text-file FILE/);
    await refused(['org', 'agent-instructions', 'set', '--text', 'x', '--text-file', file], 2, /Pass --text or --text-file, not both/);
    expect((await instructions()).instructions).toEqual(doc('From a document.'));
  });

  it("deleting the site deletes its settings", async () => {
    await context.cli.ok(['site', 'delete', site, '--yes']);
    await refused(['site', 'agent', 'get', site], 4, /not found/);
  });
});
