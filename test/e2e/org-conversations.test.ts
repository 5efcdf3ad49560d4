/**
 * Conversations with the organization's Docs agent through the built binary, in both modes:
 * `org conversation open|list|rename|delete`. Provisioning twice changes nothing; a rename is
 * the creator's or an admin's; deleting it again finds nothing (exit 4); a hostile id is
 * refused in one line.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeInBothModes, expectRefused } from '../helpers/binary.js';

describeInBothModes('org agent conversations (binary)', (context) => {
  const list = async () => JSON.parse(await context.cli.ok(['org', 'conversation', 'list', '--json'])) as Array<Record<string, unknown>>;

  beforeAll(async () => {
    for (const { id } of await list()) await context.cli.ok(['org', 'conversation', 'delete', String(id), '--yes']);
  });

  it('open provisions a conversation once, untitled and shared; list shows it', async () => {
    expect(await context.cli.ok(['org', 'conversation', 'open', 'help-desk-1'])).toBe('');
    const [first] = await list();
    expect(await context.cli.ok(['org', 'conversation', 'open', 'help-desk-1'])).toBe('');
    expect(await list()).toEqual([{ object: 'agent-conversation', id: 'help-desk-1', shared: true, createdAt: expect.any(String), updatedAt: first?.updatedAt }]);
  });

  it('rename sets its title; delete removes it, and a second delete finds nothing (exit 4)', async () => {
    const renamed = JSON.parse(await context.cli.ok(['org', 'conversation', 'rename', 'help-desk-1', '--title', 'SSO setup', '--json'])) as Record<string, unknown>;
    expect(renamed).toMatchObject({ id: 'help-desk-1', title: 'SSO setup', shared: true });
    expect(await list()).toEqual([renamed]);
    const gone = await context.cli.run(['org', 'conversation', 'delete', 'help-desk-1', '--yes']);
    expect(gone.exitCode, gone.stderr).toBe(0);
    expect(gone.stderr).toMatch(/Deleted conversation help-desk-1/);
    await expectRefused(context.cli, ['org', 'conversation', 'delete', 'help-desk-1', '--yes'], 4, /Conversation help-desk-1 not found/);
    expect(await list()).toEqual([]);
  });

  it('refuses a hostile id and a missing conversation in one line', async () => {
    await expectRefused(context.cli, ['org', 'conversation', 'open', '--', '-rf'], 2, /Invalid conversation id "-rf"/);
    await expectRefused(context.cli, ['org', 'conversation', 'rename', 'nope', '--title', 'X'], 4, /Conversation nope not found/);
    expect(await list()).toEqual([]);
  });
});
