// importRepository with `consume` (what a Git import asks, issue 21: import peak memory): each
// page file's bytes are let go from the snapshot once decoded, the result is the one without it,
// and the bytes other parts of the import read (assets, reusable contents, .gitbook.yaml, the
// table of contents, a page reached twice through a symbolic link) are left as they were.
import { describe, expect, it } from 'vitest';
import { walkPages } from '../../src/content-model/model.js';
import { importRepository } from '../../src/gitsync/import.js';
import type { RepoSnapshot } from '../../src/gitsync/types.js';
import { sequentialIds } from '../../src/util/ids.js';
import { edgeCases, gitbookExport, monorepo, symlinks } from './fixtures.js';
import { type FixtureValue, repo } from './helpers.js';

function both(files: Record<string, FixtureValue>, projectDirectory?: string) {
  const options = projectDirectory === undefined ? {} : { projectDirectory };
  const kept = repo(files);
  const consumed = repo(files);
  const plain = importRepository(kept, { ids: sequentialIds('id'), ...options });
  const released = importRepository(consumed, { ids: sequentialIds('id'), ...options, consume: true });
  return { kept, consumed, plain, released };
}

/** Paths whose entry in `after` holds no bytes where `before`'s had some. */
function emptied(after: RepoSnapshot, before: RepoSnapshot): string[] {
  return [...after.values()].filter((file) => file.data.byteLength === 0 && (before.get(file.path)?.data.byteLength ?? 0) > 0).map((file) => file.path).sort();
}

describe('importRepository with consume', () => {
  it('gives the same result and lets the bytes of every page file go, and only those', () => {
    const { kept, consumed, plain, released } = both(gitbookExport());
    expect(released).toEqual(plain);
    expect(emptied(kept, repo(gitbookExport()))).toEqual([]);
    const pages = [...walkPages(plain.tree.pages)].flatMap(({ page }) => (page.git ? [page.git.path] : []));
    expect(pages.length).toBeGreaterThan(5);
    // The pages' files (an orphan file no page reads keeps its bytes).
    expect(emptied(consumed, kept)).toEqual(pages.sort());
    expect(consumed.get('orphan.md')?.data.byteLength).toBeGreaterThan(0);
    // What the space keeps as files, and the files the layout is read from, keep their bytes.
    expect(consumed.get('.gitbook/includes/shared.md')?.data).toEqual(kept.get('.gitbook/includes/shared.md')?.data);
    expect(consumed.get('SUMMARY.md')?.data).toEqual(kept.get('SUMMARY.md')?.data);
    // An emptied entry keeps the blob id of the bytes it had.
    const readme = plain.tree.pages[0];
    expect(consumed.get('README.md')?.oid).toBe(readme?.git?.oid);
  });

  it('reads a page reached again through a symbolic link, in a project directory, and odd files, as without it', () => {
    for (const [files, dir] of [
      [symlinks(), undefined],
      [monorepo(), 'packages/a'],
      [edgeCases(), undefined],
    ] as const) {
      const { kept, consumed, plain, released } = both(files, dir);
      expect(released).toEqual(plain);
      expect(emptied(consumed, kept).length).toBeGreaterThan(0);
    }
  });
});
