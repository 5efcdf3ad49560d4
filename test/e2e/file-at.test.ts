/**
 * `file at SPACE REVISION FILE` (getFileInRevisionById, real API): a file as it is in any
 * revision of a space, the one the space has moved on from included. Through the built
 * binary, locally and against `docsctl serve`; and the operation itself through
 * executeOperation (not found, Git metadata left out on request).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';
import { contentSetup } from '../domain/content/helpers.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0a3b4e40000000049454e44ae426082', 'hex');

/** A Git Sync directory: a README, with the logo it shows or without either. */
const root = tempDir('docsctl-file-at-');

function handbook(withLogo: boolean): string {
  const dir = mkdtempSync(join(root, 'handbook-'));
  if (withLogo) {
    mkdirSync(join(dir, '.gitbook', 'assets'), { recursive: true });
    writeFileSync(join(dir, '.gitbook', 'assets', 'logo.png'), PNG);
  }
  writeFileSync(join(dir, 'README.md'), withLogo ? '# Home\n\n![logo](.gitbook/assets/logo.png)\n' : '# Home\n');
  return dir;
}

afterAll(cleanupTempDirs);

describeInBothModes('file at', (context) => {
  let cli: BinaryMode;
  let space: string;
  let first: string;
  let fileId: string;
  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    await cli.ok(['git', 'import', space, handbook(true)]);
    first = JSON.parse(await cli.ok(['space', 'get', space, '--json', 'revision'])).revision;
    fileId = JSON.parse(await cli.ok(['file', 'list', space, '--json', 'id'])).map((file: { id: string }) => file.id)[0];
    // The space moves on: the logo goes, so only the earlier revision has it.
    await cli.ok(['git', 'import', space, handbook(false)]);
  });

  it('shows a file of an earlier revision, as a table, as JSON, and without its Git metadata', async () => {
    expect(await cli.ok(['file', 'list', space, '--format', 'ids'])).toBe('');
    const table = await cli.ok(['file', 'at', space, first, fileId, '--format', 'tsv']);
    expect(table.split('\n')).toEqual([`${fileId}\tlogo.png\timage/png\t${PNG.length}\t.gitbook/assets/logo.png`]);
    expect(JSON.parse(await cli.ok(['file', 'at', space, first, fileId, '--json']))).toMatchObject({
      id: fileId,
      name: 'logo.png',
      contentType: 'image/png',
      size: PNG.length,
      git: { path: '.gitbook/assets/logo.png' },
    });
    expect(JSON.parse(await cli.ok(['file', 'at', space, first, fileId, '--no-metadata', '--json'])).git).toBeUndefined();
  });

  it('says which object is missing, with exit code 4', async () => {
    const missing = await cli.run(['file', 'at', space, first, 'nofile']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/^error: File nofile not found/);
    const noRevision = await cli.run(['file', 'at', space, 'norevision', fileId]);
    expect(noRevision.exitCode).toBe(4);
    expect(noRevision.stderr).toMatch(/^error: Revision norevision not found in space/);
  });

  it('takes its arguments and flags from the route (help)', async () => {
    const help = await cli.ok(['file', 'at', '--help']);
    expect(help).toContain('Usage: docsctl file at [options] <spaceId> <revisionId> <fileId>');
    expect(help).toContain('--no-metadata');
    expect(help).not.toContain('--computed');
  });
}, { serveFlags: ['--allow-local', root] });

describe('getFileInRevisionById', () => {
  it('needs read access on the space: a reader reads it, a member of another organization gets 404, and so does a missing file', async () => {
    const h = await contentSetup();
    const s = await h.createSpace();
    const revision = await h.seedSpace(s.id, {
      pages: [],
      files: [{ id: 'f1', name: 'a.png', contentType: 'image/png', size: 3, git: { oid: 'g', path: '.gitbook/assets/a.png' }, data: new Uint8Array([1, 2, 3]) }],
    });
    const params = { spaceId: s.id, revisionId: revision, fileId: 'f1' };
    const reader = await h.member('rita@acme.test', 'read');
    expect(await h.ok(reader, 'getFileInRevisionById', { params })).toMatchObject({ id: 'f1', name: 'a.png', size: 3 });
    const stranger = await h.member('eve@other.test', 'admin', await h.createOrg('Other', { [h.adminId]: 'admin' }));
    await h.fails(stranger, 'getFileInRevisionById', { params }, 404);
    await h.fails(h.adminId, 'getFileInRevisionById', { params: { ...params, fileId: 'nope' } }, 404, /File nope not found/);
  });
});
