/**
 * Flag names keep one meaning on every command (the rule at the top of
 * src/cli/commands/flags.ts): `--org` is the organization, `--cursor` a list's
 * position, `--page` a page of content, `--body` a JSON request body and `--text`
 * text a person writes. Former spellings still work, hidden from help. Every list
 * says its default page size in --help and sends it, so it is the same against
 * any server. Through the built binary, locally and against `docsctl serve`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BinaryMode, type Mode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

describeInBothModes('flag names', (context) => {
  let space: string;
  let cli: BinaryMode;
  let mode: Mode;
  beforeAll(async () => {
    ({ cli, mode } = context);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
  });

  it('integration publish takes --org, and --organization still works', async () => {
    const dir = tempDir('docsctl-flags-');
    writeFileSync(join(dir, 'index.js'), 'export default {}\n');
    const manifest = join(dir, 'gitbook-manifest.yaml');
    writeFileSync(manifest, 'name: notify\ntitle: Notify\ndescription: Posts changes\nscript: ./index.js\nscopes: [space:content:read]\nvisibility: public\n');
    const help = await cli.run(['integration', 'publish', '--help']);
    expect(help.stdout).toMatch(/^ {2}--org <organizationId> /m);
    expect(help.stdout).not.toContain('--organization');
    const published = await cli.run(['integration', 'publish', '--file', manifest, '--org', cli.orgId, '--query', '[name, owner.id]']);
    expect(published.exitCode, published.stderr).toBe(0);
    expect(JSON.parse(published.stdout)).toEqual(['notify', cli.orgId]);
    const old = await cli.run(['integration', 'publish', '--file', manifest, '--organization', cli.orgId, '--json', 'name']);
    expect(old.exitCode, old.stderr).toBe(0);
    expect(JSON.parse(old.stdout)).toEqual({ name: 'notify' });
    // Without --org: the manifest says none, so it is the user's only organization.
    const defaulted = await cli.run(['integration', 'publish', '--file', manifest, '--query', 'owner.id']);
    expect(defaulted.exitCode, defaulted.stderr).toBe(0);
    expect(JSON.parse(defaulted.stdout)).toBe(cli.orgId);
  });

  it('comments take --text / --text-file; --body / --body-file still work, hidden', async () => {
    const help = await cli.run(['comment', 'add', '--help']);
    expect(help.stdout).toMatch(/--text <markdown>/);
    expect(help.stdout).toMatch(/--text-file <file>/);
    expect(help.stdout).not.toMatch(/--body/);
    const added = await cli.run(['comment', 'add', space, '--text', 'Is this current?', '--json', 'body']);
    expect(added.exitCode, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({ body: expect.objectContaining({ markdown: 'Is this current?' }) });
    const old = await cli.run(['comment', 'add', space, '--body', 'Old spelling', '--format', 'ids']);
    expect(old.exitCode, old.stderr).toBe(0);
    const fromStdin = await cli.run(['comment', 'reply', space, old.stdout.trim(), '--text-file', '-', '--json', 'body'], { input: 'From stdin\n' });
    expect(fromStdin.exitCode, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout).body.markdown).toBe('From stdin\n');
    const both = await cli.run(['comment', 'add', space, '--text', 'a', '--text-file', '-']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/^error: Pass either --text or --text-file, not both/);
    const review = await cli.run(['cr', 'review', '--help']);
    expect(review.stdout).toMatch(/--text <markdown>/);
    expect(review.stdout).not.toMatch(/--body/);
  });

  it('lists page with --limit and --cursor (--page is the old spelling), say the default limit, and send it', async () => {
    for (const title of ['B', 'C']) await cli.ok(['space', 'create', '--title', title]);
    const help = await cli.run(['space', 'list', '--help']);
    expect(help.stdout).toMatch(/--limit <n>\s+items per page, 0 to 1000 \(default 50;/);
    expect(help.stdout).toMatch(/--cursor <cursor>/);
    expect(help.stdout).not.toMatch(/--page/);
    const first = await cli.run(['space', 'list', '--limit', '2', '--format', 'ids']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout.trim().split('\n')).toHaveLength(2);
    const cursor = /--cursor (\S+) for the next page/.exec(first.stderr)?.[1];
    expect(first.stderr).toMatch(/^note: showing 2 of 3; pass --all for every item, or --cursor \S+ for the next page$/m);
    const next = await cli.run(['space', 'list', '--limit', '2', '--cursor', cursor as string, '--format', 'ids']);
    const viaPage = await cli.run(['space', 'list', '--limit', '2', '--page', cursor as string, '--format', 'ids']);
    expect(next.stdout.trim().split('\n')).toHaveLength(1);
    expect(viaPage.stdout).toBe(next.stdout);
    const all = await cli.run(['space', 'list', '--all', '--format', 'ids']);
    expect(all.stdout.trim().split('\n').sort()).toEqual([...first.stdout.trim().split('\n'), next.stdout.trim()].sort());
    // comment list: --page is a page of content there, and --cursor its position.
    const comments = await cli.run(['comment', 'list', '--help']);
    expect(comments.stdout).toMatch(/--page <page>\s+only the comments on this page/);
    expect(comments.stdout).toMatch(/--cursor <cursor>/);
    if (mode === 'remote') {
      const debug = await cli.run(['space', 'list', '--debug']);
      expect(debug.stderr).toMatch(new RegExp(`→ GET http://\\S+/v1/orgs/${cli.orgId}/spaces\\?limit=50$`, 'm'));
    }
  });
});
