/**
 * GitBook Agent channels of a site through the built binary, in both modes: `site channel
 * add|list|get|edit|delete`. Each tool takes its own list of patterns (`--allow` builds the
 * right one); `edit --allow` replaces the list keeping the type; bad input is one line, exit 2,
 * nothing written; deleting the site deletes its channels.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeInBothModes, expectRefused } from '../helpers/binary.js';

describeInBothModes('site channels (binary)', (context) => {
  let site = '';
  let slack = '';
  const get = async (id: string) => JSON.parse(await context.cli.ok(['site', 'channel', 'get', site, id, '--json'])) as Record<string, unknown>;
  const refused = (args: string[], exitCode: number, message: RegExp) => expectRefused(context.cli, args, exitCode, message);

  beforeAll(async () => {
    const space = await context.cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    site = await context.cli.ok(['site', 'create', '--title', 'Docs', '--space', space, '--format', 'ids']);
  });

  it('adds a channel per tool with the list that tool takes; support is the default role; pending, no answers', async () => {
    slack = await context.cli.ok(['site', 'channel', 'add', site, '--type', 'slack', '--allow', 'support-*, general,support-*', '--format', 'ids']);
    expect(await get(slack)).toEqual({
      object: 'site-channel',
      id: slack,
      type: 'builtin:slack',
      setupSettings: { allowedChannels: ['support-*', 'general'] },
      status: 'pending',
      role: 'support',
      answers: 0,
      createdAt: expect.any(String),
      urls: { location: expect.stringMatching(new RegExp(`/v1/orgs/${context.cli.orgId}/sites/${site}/channels/${slack}$`)) },
    });
    const github = await context.cli.ok(['site', 'channel', 'add', site, '--type', 'github', '--allow', 'my-org/*', '--role', 'collaborator', '--format', 'ids']);
    expect(await get(github)).toMatchObject({ type: 'builtin:github', setupSettings: { allowedRepositories: ['my-org/*'] }, role: 'collaborator' });
    const linear = await context.cli.ok(['site', 'channel', 'add', site, '--type', 'linear', '--format', 'ids']);
    expect(await get(linear)).toMatchObject({ type: 'builtin:linear', setupSettings: {} });
    const listed = await context.cli.ok(['site', 'channel', 'list', site, '--format', 'tsv', '--columns', 'ID,TYPE,ROLE,ALLOWS']);
    expect(listed.split('\n')).toEqual([`${slack}\tbuiltin:slack\tsupport\tsupport-*,general`, `${github}\tbuiltin:github\tcollaborator\tmy-org/*`, `${linear}\tbuiltin:linear\tsupport\t(all)`]);
    await context.cli.ok(['site', 'channel', 'delete', site, github, '--yes']);
    await context.cli.ok(['site', 'channel', 'delete', site, linear, '--yes']);
  });

  it('edit replaces the list within the same tool, or changes the role, and keeps the rest', async () => {
    await context.cli.ok(['site', 'channel', 'edit', site, slack, '--allow', 'docs']);
    expect(await get(slack)).toMatchObject({ type: 'builtin:slack', setupSettings: { allowedChannels: ['docs'] }, role: 'support' });
    await context.cli.ok(['site', 'channel', 'edit', site, slack, '--role', 'collaborator']);
    expect(await get(slack)).toMatchObject({ setupSettings: { allowedChannels: ['docs'] }, role: 'collaborator' });
    await context.cli.ok(['site', 'channel', 'edit', site, slack, '--allow-all']);
    expect(await get(slack)).toMatchObject({ setupSettings: { allowedChannels: [] }, role: 'collaborator' });
  });

  it('refuses bad input with one line, changing nothing', async () => {
    const before = await get(slack);
    await refused(['site', 'channel', 'add', site, '--type', 'teams'], 2, /teams.*Allowed choices are slack, linear, github, discord/);
    await refused(['site', 'channel', 'add', site, '--type', 'github', '--allow', 'no-owner'], 2, /allowedRepositories.*owner\/repository/);
    await refused(['site', 'channel', 'add', site, '--type', 'slack', '--allow', 'bad name'], 2, /allowedChannels.*letters, digits/);
    await refused(['site', 'channel', 'edit', site, slack], 2, /Nothing to change: pass --allow, --allow-all or --role/);
    await refused(['site', 'channel', 'edit', site, slack, '--allow', 'x', '--allow-all'], 2, /Pass --allow or --allow-all, not both/);
    await refused(['site', 'channel', 'get', site, 'n0ch4nn3l'], 4, /Channel n0ch4nn3l not found in site/);
    expect(await get(slack)).toEqual(before);
    expect(await context.cli.ok(['site', 'channel', 'list', site, '--format', 'ids'])).toBe(slack);
  });

  it('the API refuses a list of another tool and a change of tool', async () => {
    const path = `/v1/orgs/${context.cli.orgId}/sites/${site}/channels`;
    const viaApi = await context.cli.run(['api', 'POST', path, '--input', '-'], { input: JSON.stringify({ type: 'builtin:linear', setupSettings: { allowedChannels: ['a'] } }) });
    expect(viaApi.exitCode).toBe(2);
    expect(viaApi.stderr).toMatch(/a builtin:linear channel takes allowedTeams, not allowedChannels/);
    const retype = await context.cli.run(['api', 'PATCH', `${path}/${slack}`, '--input', '-'], { input: JSON.stringify({ type: 'builtin:discord', setupSettings: {} }) });
    expect(retype.exitCode).toBe(2);
    expect(retype.stderr).toMatch(/is a builtin:slack channel; its type does not change/);
    expect(await get(slack)).toMatchObject({ type: 'builtin:slack' });
  });

  it('deleting the site deletes its channels', async () => {
    await context.cli.ok(['site', 'delete', site, '--yes']);
    await refused(['site', 'channel', 'get', site, slack], 4, /not found/);
  });
});
