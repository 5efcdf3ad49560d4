/**
 * The layout a space was synced with, which the space remembers (GitBook keeps it in
 * the space's Git Sync configuration): the project directory, `.gitbook.yaml` and
 * SUMMARY.md as they were. The README and SUMMARY locations and the content root
 * follow from them (config.ts).
 *
 * An export into a repository (or project directory) that holds nothing yet writes
 * this layout: the same `.gitbook.yaml`, pages under the same root, and SUMMARY.md
 * edited from the remembered one (unchanged items keep their lines), so a space
 * imported from `root: ./docs/` exports to a new repository as it came.
 */
import { type GitBookConfig, parseConfig, readConfig } from './config.js';
import { pageDecoder } from './page.js';
import { isInside, joinPath, relativePath, resolveFile } from './paths.js';
import type { RepoSnapshot } from './types.js';

export interface SyncLayout {
  /** The project directory ('' for the repository root). */
  projectDirectory: string;
  /** `.gitbook.yaml` as it was; absent when there was none. */
  config?: string;
  /** The table of contents as it was; absent when there was none (pages came from folders). */
  summary?: string;
}

/** The layout a snapshot has in `projectDirectory` (normalised). */
export function layoutOf(snapshot: RepoSnapshot, projectDirectory: string): SyncLayout {
  const config = readConfig(snapshot, projectDirectory);
  const layout: SyncLayout = { projectDirectory };
  const configFile = resolveFile(snapshot, config.path);
  if (configFile) layout.config = pageDecoder.decode(configFile.file.data);
  const summary = resolveFile(snapshot, config.summary);
  if (summary) layout.summary = pageDecoder.decode(summary.file.data);
  return layout;
}

/** The configuration a layout gives in `projectDirectory` (its own by default). */
export function configOfLayout(layout: SyncLayout, projectDirectory = layout.projectDirectory): GitBookConfig {
  return parseConfig(layout.config, { projectDirectory });
}

/** Whether the snapshot holds no file in the project directory (a new repository, branch or directory). */
export function isEmptyAt(snapshot: RepoSnapshot, projectDirectory: string): boolean {
  for (const path of snapshot.keys()) if (isInside(path, projectDirectory)) return false;
  return true;
}

/**
 * Moves a repository path from one layout to another: below the old content root to
 * the same place below the new one, else below the old project directory to the same
 * place below the new one. Undefined when it was in neither (it is not the space's).
 */
export function rebasePath(path: string, from: Pick<GitBookConfig, 'root' | 'projectDirectory'>, to: Pick<GitBookConfig, 'root' | 'projectDirectory'>): string | undefined {
  if (isInside(path, from.root)) return joinPath(to.root, relativePath(from.root, path));
  if (isInside(path, from.projectDirectory)) return joinPath(to.projectDirectory, relativePath(from.projectDirectory, path));
  return undefined;
}
