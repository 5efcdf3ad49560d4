/**
 * `docsctl audit list|get|actions` (listOrganizationAuditEvents, getOrganizationAuditEvent,
 * listOrganizationAuditEventActions) through the built binary, on a local store and against
 * `docsctl serve`: the writes made before are listed newest first with who, what and when;
 * filters, ages for --since/--until, details, and bad input.
 */
import { createHash } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';

describeInBothModes('audit', (context) => {
  let cli: BinaryMode;
  let user: string;
  let space: string;
  let collection: string;
  beforeAll(async () => {
    ({ cli } = context);
    user = await cli.ok(['user', 'me', '--format', 'ids']);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    collection = await cli.ok(['collection', 'create', '--title', 'Guides', '--format', 'ids']);
    await cli.ok(['space', 'edit', space, '--title', 'Manual']);
  });

  it('lists the writes newest first: action, actor, target (TSV)', async () => {
    const lines = (await cli.ok(['audit', 'list', '--format', 'tsv'])).split('\n').map((line) => line.split('\t'));
    const source = context.mode === 'local' ? 'script' : 'api';
    expect(lines.map((cells) => cells.slice(2))).toEqual([
      ['updateSpaceById', `user ${user} (Admin)`, `space ${space} (Manual)`, source],
      ['createCollection', `user ${user} (Admin)`, `collection ${collection} (Guides)`, source],
      ['createSpace', `user ${user} (Admin)`, `space ${space} (Handbook)`, source],
    ]);
    for (const cells of lines) {
      expect(cells[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(Date.parse(cells[1] as string)).toBeGreaterThan(Date.now() - 600_000);
    }
  });

  it('filters by action, actor, target and age', async () => {
    const actions = async (...flags: string[]) => (JSON.parse(await cli.ok(['audit', 'list', ...flags, '--json'])) as Array<{ action: string }>).map((e) => e.action);
    expect(await actions('--action', 'createSpace')).toEqual(['createSpace']);
    expect(await actions('--target', space)).toEqual(['updateSpaceById', 'createSpace']);
    expect(await actions('--actor', user, '--target', collection)).toEqual(['createCollection']);
    expect(await actions('--actor', 'somebody-else')).toEqual([]);
    expect(await actions('--since', '1h', '--action', 'createCollection')).toEqual(['createCollection']);
    expect(await actions('--until', '1h')).toEqual([]);
    expect(await actions('--since', '2000-01-01T00:00:00Z', '--until', '2000-01-02T00:00:00Z')).toEqual([]);
    const paged = await cli.run(['audit', 'list', '--limit', '1', '--format', 'tsv']);
    expect(paged.stdout.split('\t')[2]).toBe('updateSpaceById');
    expect(paged.stderr).toMatch(/showing 1 of 3; pass --all/);
  });

  it('shows one event with the operation, the objects and the body fields (and the token, remotely)', async () => {
    const [newest] = JSON.parse(await cli.ok(['audit', 'list', '--limit', '1', '--json'])) as Array<{ id: string }>;
    const details = JSON.parse(await cli.ok(['audit', 'get', (newest as { id: string }).id, '--json'])) as Record<string, unknown>;
    expect(details).toMatchObject({
      object: 'audit-event',
      action: 'updateSpaceById',
      target: { type: 'space', id: space, label: 'Manual' },
      schemaVersion: 1,
      payload: {
        operation: 'updateSpaceById',
        method: 'PATCH',
        objects: { spaceId: space },
        fields: ['title'],
        status: 200,
        ...(context.mode === 'remote' ? { tokenId: createHash('sha256').update(cli.token).digest('hex').slice(0, 16) } : {}),
      },
    });
    if (context.mode === 'local') expect(details.payload).not.toHaveProperty('tokenId');
  });

  it('lists the actions an event may record', async () => {
    const rows = (await cli.ok(['audit', 'actions', '--format', 'tsv'])).split('\n');
    expect(rows).toContain('createSpace\tCreate space');
    expect(rows).toContain('deleteCollectionById\tDelete collection by id');
    expect(rows.some((row) => row.startsWith('getSpaceById'))).toBe(false);
  });

  it('refuses a time it cannot read (exit 2) and names an unknown event (exit 4)', async () => {
    const since = await cli.run(['audit', 'list', '--since', 'yesterday']);
    expect(since.exitCode).toBe(2);
    expect(since.stderr).toMatch(/^error: --since expects an ISO 8601 time \(2026-11-28T00:00:00Z\) or an age \(90s, 15m, 24h, 7d\), got "yesterday"/);
    const missing = await cli.run(['audit', 'get', '01a21f94-45ea-7000-8000-000000325f91']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/Audit event 01a21f94-45ea-7000-8000-000000325f91 not found/);
  });
});
