/**
 * `space changes SPACE REVISION` (getRevisionSemanticChanges, real API): what one revision of a
 * space changed against the revision before it, with the change request a merge came from.
 * Through the built binary, locally and against `docsctl serve`; the answer's shape against the
 * 0.202 schema and the access rule through executeOperation.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';
import { contentSetup, doc } from '../domain/content/helpers.js';

const root = tempDir('docsctl-space-changes-');
writeFileSync(join(root, 'README.md'), '# Home\n');
writeFileSync(join(root, 'install.md'), '# Install\n\nRun it.\n');
writeFileSync(join(root, 'SUMMARY.md'), '# Summary\n\n* [Home](README.md)\n* [Install](install.md)\n');

afterAll(cleanupTempDirs);

describeInBothModes('space changes', (context) => {
  let cli: BinaryMode;
  let space: string;
  const revision = async () => JSON.parse(await cli.ok(['space', 'get', space, '--json', 'revision'])).revision as string;
  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
  });

  it('lists the pages an import added, then the page a merged change request edited, naming the change request', async () => {
    await cli.ok(['git', 'import', space, root]);
    const imported = await cli.run(['space', 'changes', space, await revision(), '--format', 'tsv']);
    expect(imported.stdout.split('\n').filter(Boolean)).toEqual(['added    readme', 'added    install']);

    await cli.ok(['cr', 'create', space, '--subject', 'Better title']);
    await cli.ok(['page', 'edit', space, 'install', '--cr', '1', '--title', 'Install it']);
    await cli.ok(['cr', 'merge', space, '1']);
    const merged = await cli.run(['space', 'changes', space, await revision()]);
    expect(merged.stdout.trim()).toBe('edited   install');
    expect(merged.stderr).toContain('merge of change request #1: Better title');
    const json = JSON.parse(await cli.ok(['space', 'changes', space, await revision(), '--json']));
    expect(json.mergedFrom).toMatchObject({ number: 1, subject: 'Better title', status: 'merged' });
    expect(json.changes).toEqual([expect.objectContaining({ type: 'page_edited', page: expect.objectContaining({ title: 'Install it', path: 'install' }), attributes: { title: { before: 'Install', after: 'Install it' } } })]);
  });

  it('counts what it leaves out past --limit, and exit 4 for a revision the space does not have', async () => {
    const first = await cli.ok(['space', 'create', '--title', 'Other', '--format', 'ids']);
    await cli.ok(['git', 'import', first, root]);
    const rev = JSON.parse(await cli.ok(['space', 'get', first, '--json', 'revision'])).revision;
    const limited = JSON.parse(await cli.ok(['space', 'changes', first, rev, '--limit', '1', '--json']));
    expect(limited.changes).toHaveLength(1);
    expect(limited.more).toBe(1);
    const missing = await cli.run(['space', 'changes', first, 'norevision']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/^error: Revision norevision not found/);
  });
}, { serveFlags: ['--allow-local', root] });

describe('getRevisionSemanticChanges', () => {
  it('diffs a revision against its first parent, in the 0.202 shape, and hides the space from another organization', async () => {
    const h = await contentSetup();
    const s = await h.createSpace();
    await h.seedSpace(s.id, { pages: [doc('a', 'Alpha', '# Alpha\n')], files: [] });
    const second = await h.seedSpace(s.id, { pages: [doc('a', 'Alpha', '# Alpha, again\n'), doc('b', 'Beta', '# Beta\n')], files: [] });
    const params = { spaceId: s.id, revisionId: second };
    const answer = await h.ok<{ changes: Array<{ type: string; page: { id: string } }>; mergedFrom?: unknown }>(h.adminId, 'getRevisionSemanticChanges', { params });
    expect(answer.changes.map((c) => [c.type, c.page.id])).toEqual([['page_edited', 'a'], ['page_created', 'b']]);
    expect(answer.mergedFrom).toBeUndefined();
    const stranger = await h.member('eve@other.test', 'admin', await h.createOrg('Other', { [h.adminId]: 'admin' }));
    await h.fails(stranger, 'getRevisionSemanticChanges', { params }, 404);
  });
});
