/**
 * Context sources of a site through the built binary, in both modes: `site context
 * add|list|get|edit|sync|test|delete` and `site context-record push|list|get`. Secrets come from
 * the environment and never read back; records pushed go into the site's api connection (made on
 * the first push) and a second push of a source id replaces its record; docsctl reaches no outside
 * service (a sync says so, a test fails); bad input is one line, exit 2, nothing written; deleting
 * a connection deletes its records, deleting the site everything.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBothModes, expectRefused } from '../helpers/binary.js';

describeInBothModes('site context sources (binary)', (context) => {
  let site = '';
  let zendesk = '';
  let api = '';
  const json = async (args: string[]) => JSON.parse(await context.cli.ok([...args, '--json'])) as Record<string, unknown>;
  const refused = (args: string[], exitCode: number, message: RegExp, input?: string) => expectRefused(context.cli, args, exitCode, message, input === undefined ? {} : { input });
  const location = (path: string) => expect.stringMatching(new RegExp(`/v1/orgs/${context.cli.orgId}/sites/${site}/${path}$`));

  const dir = mkdtempSync(join(tmpdir(), 'docsctl-context-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const space = await context.cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    site = await context.cli.ok(['site', 'create', '--title', 'Docs', '--space', space, '--format', 'ids']);
  });

  it('adds a connection with its settings, the secret from the environment, read back redacted', async () => {
    zendesk = await context.cli.ok(
      ['site', 'context', 'add', site, '--connector', 'zendesk', '--setting', 'subdomain=acme', '--setting', 'email=ops@acme.test', '--setting-env', 'apiToken=ZD_TOKEN', '--boost', 'x1.2', '--format', 'ids'],
      { env: { ZD_TOKEN: 'zd-secret-1' } },
    );
    const created = await json(['site', 'context', 'get', site, zendesk]);
    expect(created).toEqual({
      object: 'context-connection',
      id: zendesk,
      createdAt: expect.any(String),
      status: 'pending',
      records: 0,
      usageSettings: { changeRequests: true, search: true, searchBoost: 'x1.2' },
      urls: { location: location(`context-connections/${zendesk}`) },
      connector: 'builtin:zendesk',
      setupSettings: { subdomain: 'acme', email: 'ops@acme.test', apiToken: '********' },
    });
    expect(JSON.stringify(created)).not.toContain('zd-secret-1');
  });

  it('edit changes one setting and keeps the stored secret; usage flags change one field each', async () => {
    const edited = await json(['site', 'context', 'edit', site, zendesk, '--setting', 'subdomain=acme-eu', '--search', 'false', '--label', 'Tickets']);
    expect(edited).toMatchObject({
      label: 'Tickets',
      usageSettings: { changeRequests: true, search: false, searchBoost: 'x1.2' },
      setupSettings: { subdomain: 'acme-eu', email: 'ops@acme.test', apiToken: '********' },
    });
    // The stored secret was kept: an api connection has none, and "********" cannot stand for one there.
    const path = `/v1/orgs/${context.cli.orgId}/sites/${site}/context-connections`;
    const masked = await context.cli.run(['api', 'POST', path, '--input', '-'], { input: JSON.stringify({ connector: 'builtin:intercom', setupSettings: { token: '********' } }) });
    expect(masked.exitCode).toBe(2);
    expect(masked.stderr).toMatch(/setupSettings.token: give the secret itself/);
    await context.cli.ok(['site', 'context', 'edit', site, zendesk, '--label', '']);
    expect(await json(['site', 'context', 'get', site, zendesk])).not.toHaveProperty('label');
  });

  it('a sync reaches no outside service: the connection says why it failed, and a second sync within the hour is refused', async () => {
    expect(await context.cli.ok(['site', 'context', 'sync', site, zendesk])).toBe('');
    expect(await json(['site', 'context', 'get', site, zendesk])).toMatchObject({
      status: 'failed',
      failureReason: 'upstream_unavailable',
      failureMessage: expect.stringMatching(/docsctl reaches no outside service, so it did not read builtin:zendesk/),
      syncedAt: expect.any(String),
    });
    await refused(['site', 'context', 'sync', site, zendesk], 2, /was synced less than an hour ago .*; sync it again after /);
    const tested = await context.cli.run(['site', 'context', 'test', site, zendesk, '--json']);
    expect(tested.exitCode).toBe(1);
    expect(JSON.parse(tested.stdout)).toEqual({ object: 'context-connection-test-result', success: false, error: expect.stringMatching(/were not verified/) });
    expect(tested.stderr).toMatch(/credentials were not verified/);
  });

  it('pushed records go into the api connection made on the first push; a second push of an id replaces its record', async () => {
    const file = join(dir, 'records.json');
    writeFileSync(
      file,
      JSON.stringify([
        { id: 'T-1', type: 'ticket', title: 'Login fails', body: 'SSO loops', url: 'https://support.example.com/t/1', createdAt: '2026-11-01T10:00:00Z' },
        { id: 'D/1', type: 'document', title: 'FAQ', description: 'Frequently asked', body: '# FAQ' },
      ]),
    );
    expect(await context.cli.ok(['site', 'context-record', 'push', site, '--file', file])).toBe('');
    const connections = (await context.cli.ok(['site', 'context', 'list', site, '--format', 'tsv', '--columns', 'ID,CONNECTOR,LABEL,RECORDS'])).split('\n');
    expect(connections).toHaveLength(2);
    api = (connections[1] as string).split('\t')[0] as string;
    expect(connections).toEqual([`${zendesk}\tbuiltin:zendesk\t\t0`, `${api}\tbuiltin:api\tAPI\t2`]);
    const listed = JSON.parse(await context.cli.ok(['site', 'context-record', 'list', site, '--json'])) as Array<Record<string, unknown>>;
    expect(listed.map((record) => [record.type, record.title])).toEqual([
      ['ticket', 'Login fails'],
      ['document', 'FAQ'],
    ]);
    const ticket = listed[0] as { id: string };
    expect(await json(['site', 'context-record', 'get', site, ticket.id])).toEqual({
      object: 'context-record',
      id: ticket.id,
      title: 'Login fails',
      type: 'ticket',
      createdAt: '2026-11-01T10:00:00.000Z',
      processedAt: expect.any(String),
      connection: api,
      connector: 'builtin:api',
      topics: [],
      urls: { location: location(`context-records/${ticket.id}`), source: 'https://support.example.com/t/1' },
    });

    const again = await context.cli.run(['site', 'context-record', 'push', site, '--file', '-'], { input: JSON.stringify([{ id: 'T-1', type: 'ticket', title: 'Login fails (SSO)', body: 'fixed' }]) });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await json(['site', 'context-record', 'get', site, ticket.id])).toMatchObject({ title: 'Login fails (SSO)', createdAt: '2026-11-01T10:00:00.000Z', urls: { location: expect.any(String) } });
    expect(await context.cli.ok(['site', 'context-record', 'list', site, '--type', 'ticket', '--format', 'tsv', '--columns', 'TITLE'])).toBe('Login fails (SSO)');
    expect(await context.cli.ok(['site', 'context-record', 'list', site, '--connection', api, '--type', 'document', '--format', 'tsv', '--columns', 'TITLE'])).toBe('FAQ');
    expect(await context.cli.ok(['site', 'context-record', 'list', site, '--connection', zendesk, '--format', 'ids'])).toBe('');
    expect(await context.cli.ok(['site', 'context-record', 'list', site, '--topic', 't0p1c', '--format', 'ids'])).toBe('');
    expect((await json(['site', 'context', 'get', site, api])).records).toBe(2);
    expect(await json(['site', 'context', 'test', site, api])).toEqual({ object: 'context-connection-test-result', success: true });
    await refused(['site', 'context', 'sync', site, api], 2, /has nothing to sync: its records are pushed/);
  });

  it('refuses bad input with one line, changing nothing', async () => {
    const before = await context.cli.ok(['site', 'context', 'list', site, '--json']);
    const records = await context.cli.ok(['site', 'context-record', 'list', site, '--json']);
    await refused(['site', 'context', 'add', site, '--connector', 'website'], 2, /setupSettings.*required for a builtin:website connection/);
    await refused(['site', 'context', 'add', site, '--connector', 'website', '--setting', 'url=not a url'], 2, /setupSettings.url/);
    await refused(['site', 'context', 'add', site, '--connector', 'github-issues', '--setting', 'repository=acme/docs', '--setting-env', 'token=NO_SUCH_VAR'], 2, /environment variable NO_SUCH_VAR is not set/);
    await refused(['site', 'context', 'add', site, '--connector', 'api', '--setting', 'x=1'], 2, /a builtin:api connection takes no settings/);
    await refused(['site', 'context', 'add', site, '--connector', 'teams'], 2, /connector.*integration:NAME/);
    await refused(['site', 'context', 'edit', site, zendesk], 2, /Nothing to change/);
    await refused(['site', 'context', 'get', site, 'n0c0nn'], 4, /Context connection n0c0nn not found in site/);
    await refused(['site', 'context-record', 'push', site, '--file', '-'], 2, /must hold a JSON array of records, not object/, '{"id":"Z"}');
    const duplicate = await context.cli.run(['site', 'context-record', 'push', site, '--file', '-'], {
      input: JSON.stringify([
        { id: 'X', type: 'ticket', title: 'A', body: '' },
        { id: 'X', type: 'ticket', title: 'B', body: '' },
      ]),
    });
    expect(duplicate.exitCode).toBe(2);
    expect(duplicate.stderr).toMatch(/record id "X" is given twice/);
    const untitled = await context.cli.run(['site', 'context-record', 'push', site, '--file', '-'], { input: JSON.stringify([{ id: 'Y', type: 'ticket', title: '', body: '' }]) });
    expect(untitled.exitCode).toBe(2);
    expect(untitled.stderr).toMatch(/title/);
    expect(await context.cli.ok(['site', 'context', 'list', site, '--json'])).toBe(before);
    expect(await context.cli.ok(['site', 'context-record', 'list', site, '--json'])).toBe(records);
  });

  it("deleting a connection deletes its records (205, then 204); deleting the site deletes everything", async () => {
    await context.cli.ok(['site', 'context', 'delete', site, api, '--yes']);
    expect(await context.cli.ok(['site', 'context-record', 'list', site, '--format', 'ids'])).toBe('');
    await refused(['site', 'context', 'get', site, api], 4, /not found/);
    await context.cli.ok(['site', 'delete', site, '--yes']);
    await refused(['site', 'context', 'get', site, zendesk], 4, /not found/);
  });
});
