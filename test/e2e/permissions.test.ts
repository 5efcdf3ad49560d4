/**
 * `space|collection|site permission …` through the built binary, locally and against
 * `serve`: a read member granted `edit` on a space edits it (and no longer once the
 * grant is removed), `who` says where each role comes from, and bad input is one line
 * with its exit code and changes nothing.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, expect, it } from 'vitest';
import { bin, describeInBothModes } from '../helpers/binary.js';

describeInBothModes('permission commands', (ctx) => {
  let rita: { id: string; token: string };
  let teamId: string;
  let spaceId: string;

  /** Account commands on the store itself (users and tokens are the store owner's). */
  const local = async (args: string[]) => {
    const home = ctx.cli.home;
    const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), DOCSCTL_STORE: join(home, 'store'), NO_COLOR: '1' };
    const result = await execa('node', [bin, ...args], { env, extendEnv: false, reject: false, timeout: 120_000 });
    if (result.exitCode !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
    return result.stdout.trim();
  };
  const asRita = (args: string[]) => ctx.cli.run(args, { env: { DOCSCTL_TOKEN: rita.token } });

  beforeAll(async () => {
    const invited = await local(['member', 'invite', 'rita@acme.io', '--role', 'read', '--format', 'tsv']);
    const id = /users=(\S+)/.exec(invited)?.[1] as string;
    const token = (JSON.parse(await local(['token', 'create', '--user', 'rita@acme.io', '--json'])) as { token: string }).token;
    rita = { id, token };
    teamId = await local(['team', 'create', '--title', 'Writers', '--members', 'rita@acme.io', '--format', 'ids']);
    spaceId = await ctx.cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
  });

  it('grants edit to a read member, who then edits; removing the grant takes it away', async () => {
    const before = await asRita(['cr', 'create', spaceId, '--subject', 'Typos', '--format', 'ids']);
    expect(before.exitCode).toBe(3);
    expect(before.stderr.startsWith(`error: You need the "edit" role or higher on space ${spaceId} to call createChangeRequest (your role there: read)`), before.stderr).toBe(true);
    // Remote mode's hint says the token works and the role is missing (not "check --token").
    if (ctx.mode === 'remote') expect(before.stderr).toMatch(/The token works, but its user lacks that role there/);
    expect(before.stderr).not.toMatch(/token does not allow/);

    const added = await ctx.cli.run(['space', 'permission', 'add', spaceId, 'rita@acme.io', '--role', 'edit']);
    expect(added.exitCode, added.stderr).toBe(0);
    expect(await ctx.cli.ok(['space', 'permission', 'list', spaceId, '--format', 'tsv'])).toBe(`${rita.id}\trita\trita@acme.io\tedit`);
    expect(JSON.parse((await asRita(['space', 'get', spaceId, '--json', 'permissions'])).stdout)).toMatchObject({ permissions: { edit: true, admin: false } });
    const cr = await asRita(['cr', 'create', spaceId, '--subject', 'Typos', '--format', 'ids']);
    expect(cr.exitCode, cr.stderr).toBe(0);

    const removed = await ctx.cli.run(['space', 'permission', 'remove', spaceId, 'rita@acme.io', '--yes']);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(await ctx.cli.ok(['space', 'permission', 'list', spaceId, '--format', 'tsv'])).toBe('');
    expect((await asRita(['cr', 'create', spaceId, '--subject', 'Again'])).exitCode).toBe(3);
  });

  it('shows who has access and why, a team grant included', async () => {
    expect((await ctx.cli.run(['space', 'permission', 'add', spaceId, '--teams', teamId, '--role', 'comment'])).exitCode).toBe(0);
    expect(await ctx.cli.ok(['space', 'permission', 'teams', spaceId, '--format', 'tsv'])).toBe(`${teamId}\tWriters\t1\tcomment`);
    const who = await ctx.cli.ok(['space', 'permission', 'who', spaceId, '--format', 'tsv']);
    expect(who.split('\n')).toEqual([
      `${rita.id}\trita\trita@acme.io\tcomment\tspace ${spaceId} (team ${teamId})`,
      expect.stringMatching(/\tadmin@example\.com\tadmin\torganization role$/),
    ]);
    expect(await ctx.cli.ok(['space', 'permission', 'who', spaceId, '--role', 'comment', '--format', 'ids'])).toBe(rita.id);
    const json = JSON.parse(await ctx.cli.ok(['space', 'permission', 'who', spaceId, '--role', 'comment', '--json']));
    expect(json).toEqual([{ permission: 'comment', user: expect.objectContaining({ id: rita.id }), origin: { type: 'space', space: spaceId, reason: 'team', team: teamId } }]);
    expect((await ctx.cli.run(['space', 'permission', 'remove-team', spaceId, teamId, '--yes'])).exitCode).toBe(0);
  });

  it('collections reach their spaces; sites take grants of their own', async () => {
    const collection = await ctx.cli.ok(['collection', 'create', '--title', 'Guides', '--format', 'ids']);
    const inner = await ctx.cli.ok(['space', 'create', '--title', 'Inner', '--parent', collection, '--format', 'ids']);
    expect((await ctx.cli.run(['collection', 'permission', 'add', collection, rita.id, '--role', 'edit'])).exitCode).toBe(0);
    expect((await asRita(['cr', 'create', inner, '--subject', 'x', '--format', 'ids'])).exitCode).toBe(0);
    expect(await ctx.cli.ok(['collection', 'permission', 'list', collection, '--format', 'ids'])).toBe(rita.id);

    const site = await ctx.cli.ok(['site', 'create', '--title', 'Docs', '--format', 'ids']);
    expect((await asRita(['site', 'edit', site, '--title', 'Mine'])).exitCode).toBe(3);
    expect((await ctx.cli.run(['site', 'permission', 'add', site, 'rita@acme.io', '--role', 'admin'])).exitCode).toBe(0);
    const edited = await asRita(['site', 'edit', site, '--title', 'Mine', '--json', 'title']);
    expect(edited.exitCode, edited.stderr).toBe(0);
    expect(JSON.parse(edited.stdout)).toEqual({ title: 'Mine' });
    expect(await ctx.cli.ok(['site', 'permission', 'list', site, '--format', 'tsv'])).toBe(`${rita.id}\trita\trita@acme.io\tadmin`);
  });

  it('bad input: one line, its exit code, nothing written', async () => {
    const outsider = await ctx.cli.run(['space', 'permission', 'add', spaceId, 'nobody@else.io', '--role', 'read']);
    expect(outsider.exitCode).toBe(4);
    expect(outsider.stderr).toBe(`error: Not members of organization ${ctx.cli.orgId}: nobody@else.io; invite them first`);
    const role = await ctx.cli.run(['space', 'permission', 'add', spaceId, rita.id, '--role', 'owner']);
    expect(role.exitCode).toBe(2);
    expect(role.stderr.split('\n')).toHaveLength(1);
    const nobody = await ctx.cli.run(['space', 'permission', 'add', spaceId, '--role', 'read']);
    expect(nobody.exitCode).toBe(2);
    expect(nobody.stderr).toMatch(/users/);
    const above = await asRita(['space', 'permission', 'add', spaceId, rita.id, '--role', 'admin']);
    expect(above.exitCode).toBe(3);
    expect(await ctx.cli.ok(['space', 'permission', 'list', spaceId, '--format', 'tsv'])).toBe('');
  });
});
