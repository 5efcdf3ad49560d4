/**
 * `page edit --parent/--position` (updateChangeRequestContent's update_page `into`/`at`): moving a
 * page in a change request, by id or path, under another page or to the top level, and what a
 * merge then publishes and Git Sync exports. Through the built binary, locally and against `docsctl serve`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const root = tempDir('docsctl-page-move-');
const book = join(root, 'book');
mkdirSync(join(book, 'guides'), { recursive: true });
writeFileSync(join(book, 'README.md'), '# Home\n');
writeFileSync(join(book, 'guides', 'README.md'), '# Guides\n');
writeFileSync(join(book, 'guides', 'setup.md'), '# Setup\n\nSteps.\n');
writeFileSync(join(book, 'faq.md'), '# FAQ\n');
writeFileSync(join(book, 'SUMMARY.md'), '# Summary\n\n* [Home](README.md)\n* [Guides](guides/README.md)\n  * [Setup](guides/setup.md)\n* [FAQ](faq.md)\n');

afterAll(cleanupTempDirs);

describeInBothModes('page edit --parent/--position', (context) => {
  let cli: BinaryMode;
  let space: string;
  const paths = async (cr?: string) =>
    (await cli.ok(['page', 'list', space, ...(cr ? ['--cr', cr] : []), '--format', 'tsv'])).split('\n').map((line) => line.split('\t')[3]);
  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    await cli.ok(['git', 'import', space, book]);
  });

  it('moves a page to the top level at a position, then under another page by path; the merge publishes it and the export follows', async () => {
    await cli.ok(['cr', 'create', space, '--subject', 'Reorganise']);
    await cli.ok(['page', 'edit', space, 'guides/setup', '--cr', '1', '--parent', 'root', '--position', '0']);
    expect(await paths('1')).toEqual(['setup', 'readme', 'guides', 'faq']);
    await cli.ok(['page', 'edit', space, 'faq', '--cr', '1', '--parent', 'guides']);
    expect(await paths('1')).toEqual(['setup', 'readme', 'guides', 'guides/faq']);
    expect(await paths()).toEqual(['readme', 'guides', 'guides/setup', 'faq']);
    await cli.ok(['cr', 'merge', space, '1']);
    const bare = join(mkdtempSync(join(root, 'export-')), 'docs.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    await cli.ok(['git', 'export', space, bare, '-m', 'Reorganise']);
    expect(execFileSync('git', ['--git-dir', bare, 'show', 'main:SUMMARY.md'], { encoding: 'utf8' })).toBe(
      // The structure is the new one; each page keeps the file it came from (its git.path), so nothing is renamed.
      '# Summary\n\n* [Setup](guides/setup.md)\n* [Home](README.md)\n* [Guides](guides/README.md)\n  * [FAQ](faq.md)\n',
    );
  });

  it('page edit --slug renames the page in its path, --emoji/--icon set and remove them; a sibling\'s slug is refused (exit 5)', async () => {
    const cr = await cli.ok(['cr', 'create', space, '--subject', 'Slugs', '--format', 'ids']);
    await cli.ok(['page', 'edit', space, 'setup', '--cr', cr, '--slug', 'installation', '--emoji', '1f680', '--icon', 'gear']);
    expect(await paths(cr)).toEqual(['installation', 'readme', 'guides', 'guides/faq']);
    const page = JSON.parse(await cli.ok(['page', 'get', space, 'installation', '--cr', cr, '--json'])) as Record<string, unknown>;
    expect(page).toMatchObject({ title: 'Setup', slug: 'installation', emoji: '1f680', icon: 'gear' });
    await cli.ok(['page', 'edit', space, 'installation', '--cr', cr, '--emoji', 'none']);
    expect(JSON.parse(await cli.ok(['page', 'get', space, 'installation', '--cr', cr, '--json']))).not.toHaveProperty('emoji');
    const clash = await cli.run(['page', 'edit', space, 'installation', '--cr', cr, '--slug', 'guides']);
    expect(clash.exitCode).toBe(5);
    expect(clash.stderr).toMatch(/^error: changes\[0\]\.slug: "guides" is already the slug of page \S+, a sibling: slugs are unique among siblings/);
    const bad = await cli.run(['page', 'edit', space, 'installation', '--cr', cr, '--slug', 'Q & A']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/slug: "Q & A" is not a slug; give lower-case words joined by "-" \(e\.g\. "q-and-a"\)/);
    expect(await paths(cr)).toEqual(['installation', 'readme', 'guides', 'guides/faq']);
    expect(await paths()).toEqual(['setup', 'readme', 'guides', 'guides/faq']);
  });

  it('refuses a move under the page itself (exit 2) and a position that is not a number, changing nothing', async () => {
    await cli.ok(['cr', 'create', space, '--subject', 'Bad moves']);
    const self = await cli.run(['page', 'edit', space, 'guides', '--cr', '2', '--parent', 'guides/faq']);
    expect(self.exitCode).toBe(2);
    expect(self.stderr).toMatch(/into: page \S+ is inside the page: a page cannot move under itself/);
    const position = await cli.run(['page', 'edit', space, 'guides', '--cr', '2', '--position', 'first']);
    expect(position.exitCode).toBe(2);
    expect(position.stderr).toMatch(/--position: expected a zero-based position/);
  });
}, { serveFlags: ['--allow-local', root] });
