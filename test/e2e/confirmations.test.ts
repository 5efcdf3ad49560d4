/**
 * Confirmations name the object by its title as well as its id (`Delete space
 * "Handbook" (ID)?`, as gh does), on a real terminal and in the error a script gets
 * without one. `config delete` asks like every other delete: --yes without a
 * terminal. Through the built binary on a pseudo-terminal (`script`), locally and
 * against `docsctl serve`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs } from '../helpers/stores.js';
import { onTerminal } from '../helpers/terminal.js';

afterAll(cleanupTempDirs);

describeInBothModes('confirmations', (context) => {
  let cli: BinaryMode;
  let space: string;
  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
  });

  it('without a terminal: exit 2, the question with the title, nothing deleted', async () => {
    const refused = await cli.run(['space', 'delete', space]);
    expect(refused).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `error: Delete space "Handbook" (${space}): confirmation needed (pass --yes to confirm when not running in a terminal)`,
    });
    expect(JSON.parse(await cli.ok(['space', 'get', space, '--json', 'title']))).toEqual({ title: 'Handbook' });
    await cli.ok(['custom-field', 'create', 'tier', '--type', 'text', '--title', 'Support tier']);
    const field = await cli.run(['custom-field', 'delete', 'tier']);
    expect(field.stderr).toBe(
      'error: Delete custom field "Support tier" (tier) and every space\'s value for it: confirmation needed (pass --yes to confirm when not running in a terminal)',
    );
  });

  it('on a terminal: the question shows the title; "no" cancels (130), "yes" deletes', async () => {
    const question = `Delete space "Handbook" (${space})?`;
    const no = await onTerminal(['space', 'delete', space], { env: cli.env, keys: [{ when: /\(y\/N\)/, send: 'n\r' }] });
    expect(no.exitCode).toBe(130);
    expect(no.output).toContain(question);
    expect(no.output).toMatch(/error: Cancelled/);
    const yes = await onTerminal(['space', 'delete', space], { env: cli.env, keys: [{ when: /\(y\/N\)/, send: 'y\r' }] });
    expect(yes.exitCode, yes.output).toBe(0);
    expect(yes.output).toContain(question);
    expect(yes.output).toContain(`Deleted space ${space}`);
  });
});

describe('config delete', { timeout: 300_000 }, () => {
  let cli: BinaryMode;
  beforeAll(async () => {
    cli = await (await import('../helpers/binary.js')).binaryMode('local');
    await cli.ok(['config', 'set', 'staging', '--endpoint', 'https://docs.example.test']);
  });

  it('needs --yes without a terminal, asks on one', async () => {
    const refused = await cli.run(['config', 'delete', 'staging']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe('error: Delete profile "staging", the profile in use: confirmation needed (pass --yes to confirm when not running in a terminal)');
    expect(await cli.ok(['config', 'list', '--format', 'ids'])).toMatch(/^staging$/m);
    const asked = await onTerminal(['config', 'delete', 'staging'], { env: cli.env, keys: [{ when: /\(y\/N\)/, send: 'n\r' }] });
    expect(asked.exitCode).toBe(130);
    expect(asked.output).toContain('Delete profile "staging", the profile in use?');
    const deleted = await cli.run(['config', 'delete', 'staging', '--yes']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: 'Deleted profile "staging"' });
    expect(await cli.ok(['config', 'list', '--format', 'ids'])).not.toMatch(/^staging$/m);
    const again = await cli.run(['config', 'delete', 'staging']);
    expect(again).toEqual({ exitCode: 0, stdout: '', stderr: 'Profile "staging" did not exist: nothing to delete' });
  });
});
