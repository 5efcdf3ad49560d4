/** Fixtures for the Git Sync converter: in-memory repositories and round-trip checks. */
import { expect } from 'vitest';
import type { ContentTree } from '../../src/content-model/model.js';
import { exportRepository, type ExportResult } from '../../src/gitsync/export.js';
import { importRepository, type ImportResult } from '../../src/gitsync/import.js';
import type { RepoSnapshot } from '../../src/gitsync/types.js';
import { sequentialIds } from '../../src/util/ids.js';

export type FixtureValue = string | Uint8Array | { symlink: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** An in-memory repository: path → text, bytes, or `{ symlink: target }`. */
export function repo(files: Record<string, FixtureValue>): RepoSnapshot {
  const snapshot: RepoSnapshot = new Map();
  for (const [path, value] of Object.entries(files)) {
    if (typeof value === 'string') snapshot.set(path, { path, data: encoder.encode(value) });
    else if (value instanceof Uint8Array) snapshot.set(path, { path, data: value });
    else snapshot.set(path, { path, data: encoder.encode(value.symlink), mode: 'symlink', linkTarget: value.symlink });
  }
  return snapshot;
}

export function text(snapshot: RepoSnapshot, path: string): string | undefined {
  const file = snapshot.get(path);
  return file ? decoder.decode(file.data) : undefined;
}

export function writtenText(result: ExportResult, path: string): string | undefined {
  const data = result.writes.get(path);
  return data ? decoder.decode(data) : undefined;
}

/** The repository after an export's writes and deletes. */
export function applyExport(snapshot: RepoSnapshot, result: Pick<ExportResult, 'writes' | 'deletes'>): RepoSnapshot {
  const next: RepoSnapshot = new Map(snapshot);
  for (const path of result.deletes) next.delete(path);
  for (const [path, data] of result.writes) next.set(path, { path, data });
  return next;
}

export function importOf(
  snapshot: RepoSnapshot,
  options: { projectDirectory?: string; previous?: ContentTree; prefix?: string } = {},
): ImportResult {
  return importRepository(snapshot, {
    ids: sequentialIds(options.prefix ?? 'id'),
    ...(options.projectDirectory !== undefined ? { projectDirectory: options.projectDirectory } : {}),
    ...(options.previous ? { previous: options.previous } : {}),
  });
}

/**
 * `exportRepository` of `tree` over `snapshot`, checked against the export that is handed what the
 * space's import of `snapshot` made (ExportOptions.imported, a plan of one export of a branch the
 * space last imported): both must give the same writes, deletes, tree and warnings.
 */
export function exportChecked(tree: ContentTree, snapshot: RepoSnapshot, options: { projectDirectory?: string } = {}): ExportResult {
  const converted = exportRepository(tree, snapshot, options);
  const imported = importOf(snapshot, options).tree;
  expect(exportRepository(tree, snapshot, { ...options, imported })).toEqual(converted);
  return converted;
}

/**
 * The acceptance bar: import then export with no edits writes and deletes
 * nothing; importing the repository again (with the tree as `previous`)
 * gives the same model.
 */
export function expectRoundTrip(snapshot: RepoSnapshot, projectDirectory?: string): ImportResult {
  const options = projectDirectory !== undefined ? { projectDirectory } : {};
  const imported = importOf(snapshot, options);
  const exported = exportChecked(imported.tree, snapshot, options);
  expect([...exported.writes.keys()]).toEqual([]);
  expect(exported.deletes).toEqual([]);
  expect(exported.tree).toEqual(imported.tree);
  const again = importOf(applyExport(snapshot, exported), { ...options, previous: exported.tree, prefix: 'new' });
  expect(again.tree).toEqual(exported.tree);
  return imported;
}

/** Exports an edited tree, then checks that importing the result gives the exported tree back. */
export function exportAndReimport(
  tree: ContentTree,
  snapshot: RepoSnapshot,
  projectDirectory?: string,
): { result: ExportResult; next: RepoSnapshot; reimported: ImportResult } {
  const options = projectDirectory !== undefined ? { projectDirectory } : {};
  const result = exportChecked(tree, snapshot, options);
  const next = applyExport(snapshot, result);
  const reimported = importOf(next, { ...options, previous: result.tree, prefix: 'fresh' });
  expect(reimported.tree).toEqual(result.tree);
  // Exporting what was written changes nothing more.
  const second = exportRepository(result.tree, next, options);
  expect([...second.writes.keys()]).toEqual([]);
  expect(second.deletes).toEqual([]);
  return { result, next, reimported };
}

/** A page of a tree by title (depth-first). */
export function pageByTitle(tree: ContentTree, title: string): ContentTree['pages'][number] {
  const visit = (pages: ContentTree['pages']): ContentTree['pages'][number] | undefined => {
    for (const page of pages) {
      if (page.title === title) return page;
      const found = visit(page.pages);
      if (found) return found;
    }
    return undefined;
  };
  const page = visit(tree.pages);
  if (!page) throw new Error(`no page "${title}"`);
  return page;
}

/** A 1×1 PNG (with a given width in its header, for dimension tests). */
export function png(width = 1, height = 1): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return bytes;
}
