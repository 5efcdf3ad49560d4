/**
 * Commands a script can re-run: setting something to what it already is exits 0,
 * says "Nothing to change" on stderr and prints the object as it is (so
 * `--format ids` / `--json` read the same answer), without a write. A move or
 * transfer to where the object already is (the API's 409 "would not result in any
 * update"), an edit with the same values (read first, compared field by field), and
 * the commands whose body does not mirror the object (publish, restore, resolve).
 * Through the built binary, locally and against `docsctl serve`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

describeInBothModes('re-running a change that changes nothing', (context) => {
  let space: string;
  let collection: string;
  let cli: BinaryMode;
  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    collection = await cli.ok(['collection', 'create', '--title', 'Guides', '--format', 'ids']);
  });

  /** Runs `args` twice: the first changes something, the second nothing; answers the second run. */
  async function twice(args: string[]) {
    const first = await cli.run(args);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).not.toMatch(/Nothing to change/);
    return cli.run(args);
  }

  it('space move to its parent: exit 0, "nothing to change", the space printed', async () => {
    const again = await twice(['space', 'move', space, '--parent', collection, '--format', 'ids']);
    expect(again).toEqual({ exitCode: 0, stdout: space, stderr: `Nothing to change: moving space ${space} would not result in any update` });
    expect(JSON.parse(await cli.ok(['space', 'get', space, '--json', 'parent']))).toEqual({ parent: collection });
    // The raw API keeps the 409 (exit 5): only commands read it as "nothing to change".
    const raw = await cli.run(['api', 'POST', `/v1/spaces/${space}/move`, '-F', `parent=${collection}`]);
    expect(raw.exitCode).toBe(5);
    expect(raw.stderr).toMatch(/would not result in any update/);
  });

  it('collection move and space transfer to where they are', async () => {
    const moved = await cli.run(['collection', 'move', collection, '--parent', 'none', '--json', 'id']);
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect(moved.stderr).toBe(`Nothing to change: moving collection ${collection} would not result in any update`);
    expect(JSON.parse(moved.stdout)).toEqual({ id: collection });
    const transfer = await cli.run(['space', 'transfer', space, '--to-org', cli.orgId, '--collection', collection, '--yes', '--format', 'ids']);
    expect(transfer.exitCode, transfer.stderr).toBe(0);
    expect(transfer.stdout).toBe(space);
    expect(transfer.stderr).toMatch(/^Nothing to change: transferring space \w+ \(it is already there\) would not result in any update$/);
  });

  it('an edit with the same values writes nothing; a real edit still goes through', async () => {
    const before = JSON.parse(await cli.ok(['space', 'get', space, '--json', 'title,updatedAt']));
    const same = await cli.run(['space', 'edit', space, '--title', 'Handbook', '--edit-mode', 'live', '--json', 'title']);
    expect(same).toEqual({ exitCode: 0, stdout: JSON.stringify({ title: 'Handbook' }, null, 2), stderr: `Nothing to change: space ${space} is already as asked` });
    expect(JSON.parse(await cli.ok(['space', 'get', space, '--json', 'title,updatedAt']))).toEqual(before);
    const dryRun = await cli.run(['space', 'edit', space, '--title', 'Handbook', '--dry-run', '--format', 'ids']);
    expect(dryRun).toEqual({ exitCode: 0, stdout: space, stderr: `Nothing to change: space ${space} is already as asked` });
    const changed = await cli.run(['space', 'edit', space, '--title', 'Manual', '--json', 'title']);
    expect(changed).toEqual({ exitCode: 0, stdout: JSON.stringify({ title: 'Manual' }, null, 2), stderr: '' });
    const collectionSame = await cli.run(['collection', 'edit', collection, '--title', 'Guides', '--format', 'ids']);
    expect(collectionSame).toEqual({ exitCode: 0, stdout: collection, stderr: `Nothing to change: collection ${collection} is already as asked` });
    const me = JSON.parse(await cli.ok(['member', 'list', '--json', 'id,role']))[0] as { id: string; role: string };
    expect(me.role).toBe('admin');
    const member = await cli.run(['member', 'edit', me.id, '--role', 'admin', '--format', 'ids']);
    expect(member).toEqual({ exitCode: 0, stdout: me.id, stderr: `Nothing to change: member ${me.id} is already as asked` });
    const team = await cli.ok(['team', 'create', '--title', 'Docs team', '--format', 'ids']);
    const teamSame = await cli.run(['team', 'edit', team, '--title', 'Docs team', '--format', 'ids']);
    expect(teamSame).toEqual({ exitCode: 0, stdout: team, stderr: `Nothing to change: team ${team} is already as asked` });
  });

  it('publish, unpublish, restore and resolve report what already is', async () => {
    const site = await cli.ok(['site', 'create', '--title', 'Docs', '--type', 'premium', '--space', space, '--format', 'ids']);
    const published = await twice(['site', 'publish', site, '--format', 'ids']);
    expect(published).toEqual({ exitCode: 0, stdout: site, stderr: `Nothing to change: site ${site} is already published` });
    const unpublished = await twice(['site', 'unpublish', site, '--format', 'ids']);
    expect(unpublished).toEqual({ exitCode: 0, stdout: site, stderr: `Nothing to change: site ${site} is not published` });
    // A section put into the group it is in (the API's 409 "would not result in any update").
    const other = await cli.ok(['space', 'create', '--title', 'API', '--format', 'ids']);
    const section = await cli.ok(['site', 'section', 'add', site, other, '--format', 'ids']);
    const group = await cli.ok(['site', 'section-group', 'add', site, '--title', 'More', '--format', 'ids']);
    const added = await twice(['site', 'section-group', 'add-section', site, group, section, '--format', 'ids']);
    expect(added).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `Nothing to change: adding section ${section} to group ${group} (it is already there) would not result in any update`,
    });
    const restored = await cli.run(['space', 'restore', space, '--format', 'ids']);
    expect(restored).toEqual({ exitCode: 0, stdout: space, stderr: `Nothing to change: space ${space} is not deleted` });
    const comment = await cli.ok(['comment', 'add', space, '--text', 'Still true?', '--format', 'ids']);
    const resolved = await twice(['comment', 'resolve', space, comment, '--format', 'ids']);
    expect(resolved).toEqual({ exitCode: 0, stdout: comment, stderr: `Nothing to change: comment ${comment} is already resolved` });
    const reopened = await twice(['comment', 'reopen', space, comment, '--format', 'ids']);
    expect(reopened).toEqual({ exitCode: 0, stdout: comment, stderr: `Nothing to change: comment ${comment} is already open` });
  });
});
