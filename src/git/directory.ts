/**
 * A directory on disk as a RepoSnapshot: what `git import` of a plain directory
 * and a content import of a directory both read. Every file under the directory
 * (`.git` skipped, entries in name order), symbolic links kept as links (their
 * text, never followed), keyed by `/`-separated path. The caller's limits stop
 * the walk as soon as they are passed, with the caller's error.
 */
import { readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { RepoFile, RepoSnapshot } from '../gitsync/types.js';

export interface DirectoryLimits {
  maxBytes: number;
  maxFiles: number;
  /** The error for a directory past `maxBytes` (all files together). */
  tooLarge: () => Error;
  /** The error for a directory past `maxFiles`. */
  tooMany: () => Error;
}

export async function readDirectorySnapshot(dir: string, limits: DirectoryLimits): Promise<RepoSnapshot> {
  const snapshot: RepoSnapshot = new Map();
  let bytes = 0;
  const walk = async (abs: string, rel: string): Promise<void> => {
    const entries = await readdir(abs, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const childAbs = path.join(abs, entry.name);
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        await walk(childAbs, childRel);
        continue;
      }
      let file: RepoFile;
      if (entry.isSymbolicLink()) {
        const target = await readlink(childAbs);
        file = { path: childRel, data: new Uint8Array(Buffer.from(target, 'utf8')), mode: 'symlink', linkTarget: target };
      } else if (entry.isFile()) {
        file = { path: childRel, data: new Uint8Array(await readFile(childAbs)) };
      } else {
        continue;
      }
      bytes += file.data.byteLength;
      if (bytes > limits.maxBytes) throw limits.tooLarge();
      if (snapshot.size >= limits.maxFiles) throw limits.tooMany();
      snapshot.set(childRel, file);
    }
  };
  await walk(dir, '');
  return snapshot;
}
