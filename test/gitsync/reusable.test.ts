/**
 * Reusable contents in Git Sync: `.gitbook/includes/*.md` become files of the tree with `rc_`
 * ids, exported back byte for byte; a tree without any (a space imported before docsctl read
 * them) does not own the folder, so an export never deletes a repository's includes.
 */
import { describe, expect, it } from 'vitest';
import { isReusableContent } from '../../src/content-model/model.js';
import { exportRepository } from '../../src/gitsync/export.js';
import { applyExport, expectRoundTrip, exportChecked, importOf, repo } from './helpers.js';

const INCLUDE = '---\ntitle: Shared warning\n---\n\n{% hint style="warning" %}\nBack up first.\n{% endhint %}\n';

const docs = () =>
  repo({
    'docs/.gitbook.yaml': 'root: ./\n',
    'docs/README.md': '# Home\n\n{% include ".gitbook/includes/warning.md" %}\n',
    'docs/guides/setup.md': '# Setup\n\n{% include "../.gitbook/includes/warning.md" %}\n',
    'docs/SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Setup](guides/setup.md)\n',
    'docs/.gitbook/includes/warning.md': INCLUDE,
    'docs/.gitbook/includes/unused-but-kept....md': 'Kept.\r\n',
    'docs/.gitbook/includes/nested/not-an-include.md': 'Not read.\n',
  });

describe('reusable contents (.gitbook/includes)', () => {
  it('imports each include as a file with an rc_ id and exports the repository back unchanged', () => {
    const imported = expectRoundTrip(docs(), 'docs');
    const includes = imported.tree.files.filter(isReusableContent);
    expect(includes.map((file) => [file.id.slice(0, 3), file.git?.path])).toEqual([
      ['rc_', 'docs/.gitbook/includes/unused-but-kept....md'],
      ['rc_', 'docs/.gitbook/includes/warning.md'],
    ]);
    expect(new TextDecoder().decode(includes[1]?.data)).toBe(INCLUDE);
    expect(imported.tree.files.filter((file) => !isReusableContent(file))).toEqual([]);
  });

  it('keeps their ids on a re-import and deletes an include the space no longer has', () => {
    const snapshot = docs();
    const first = importOf(snapshot, { projectDirectory: 'docs' });
    const again = importOf(snapshot, { projectDirectory: 'docs', previous: first.tree, prefix: 'again' });
    expect(again.tree.files.map((file) => file.id)).toEqual(first.tree.files.map((file) => file.id));
    const without = { ...first.tree, files: first.tree.files.filter((file) => !file.git?.path.endsWith('unused-but-kept....md')) };
    const result = exportChecked(without, snapshot, { projectDirectory: 'docs' });
    expect(result.deletes).toEqual(['docs/.gitbook/includes/unused-but-kept....md']);
    expect([...applyExport(snapshot, result).keys()]).toContain('docs/.gitbook/includes/warning.md');
  });

  it('never deletes the includes of a repository from a tree that has none', () => {
    const snapshot = docs();
    const imported = importOf(snapshot, { projectDirectory: 'docs' });
    const old = { ...imported.tree, files: [] };
    const result = exportRepository(old, snapshot, { projectDirectory: 'docs' });
    expect(result.deletes).toEqual([]);
    expect([...result.writes.keys()]).toEqual([]);
    // Also when the export is handed the import of this commit, which read the includes: the tree decides.
    const handed = exportRepository(old, snapshot, { projectDirectory: 'docs', imported: imported.tree });
    expect(handed.deletes).toEqual([]);
    expect([...handed.writes.keys()]).toEqual([]);
  });
});
