/**
 * `cr conversation open|rename|delete` and `cr conversations`: through the built binary, locally
 * and against `docsctl serve`, with expected values (ids, titles, sharing, exit codes).
 */
import { beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';

describeInBothModes('change-request conversations', (context) => {
  let cli: BinaryMode;
  let space: string;
  let cr: string;
  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    cr = await cli.ok(['cr', 'create', space, '--subject', 'Typos', '--format', 'ids']);
  });

  it('opens conversations, lists, renames and deletes them', async () => {
    const opened = JSON.parse(await cli.ok(['cr', 'conversation', 'open', space, '1', 'default', '--json']));
    expect(opened).toMatchObject({ object: 'agent-conversation', id: 'default', shared: true });
    expect(JSON.parse(await cli.ok(['cr', 'conversation', 'open', space, cr, 'default', '--json']))).toEqual(opened);
    await cli.ok(['cr', 'conversation', 'open', space, cr, 'private-1', '--title', 'Mine', '--no-shared']);
    expect(await cli.ok(['cr', 'conversations', space, cr, '--format', 'tsv', '--columns', 'id,title,shared'])).toBe('default\t\ttrue\nprivate-1\tMine\tfalse');
    expect(JSON.parse(await cli.ok(['cr', 'conversation', 'rename', space, cr, 'default', '--title', 'Fix the typos', '--json']))).toMatchObject({ title: 'Fix the typos' });
    await cli.ok(['cr', 'conversation', 'delete', space, cr, 'private-1', '--yes']);
    expect(await cli.ok(['cr', 'conversations', space, cr, '--format', 'ids'])).toBe('default');
    const missing = await cli.run(['cr', 'conversation', 'rename', space, cr, 'private-1', '--title', 'x']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/^error: Conversation private-1 not found in change request #1/);
    const bad = await cli.run(['cr', 'conversation', 'open', space, cr, 'no way']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/Invalid conversation id/);
  });
});
