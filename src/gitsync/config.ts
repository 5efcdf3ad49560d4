/**
 * `.gitbook.yaml`: where a space's content lives in its repository. Looked up
 * in the project directory; a missing or empty file means every default
 * (`root: ./`, `structure.readme: README.md`, `structure.summary: SUMMARY.md`).
 * `root` resolves against the project directory and `structure.*` against
 * `root`; none may leave the project directory.
 */
import { isMap, isScalar, parseDocument } from 'yaml';
import { GitSyncError } from './errors.js';
import { yamlData } from './frontmatter.js';
import { joinPath, normalizePath, normalizeProjectDirectory, resolveFile } from './paths.js';

// Where it lived first (callers import it from either): paths.ts has no YAML parser to load.
export { normalizeProjectDirectory };
import type { RepoSnapshot } from './types.js';

export interface GitBookConfig {
  /** The project directory, from the repository root ('' for the root). */
  projectDirectory: string;
  /** Repository path of `.gitbook.yaml` (whether or not it exists). */
  path: string;
  /** Whether the file exists. */
  exists: boolean;
  /** The content root, from the repository root. */
  root: string;
  /** Repository path of the first page. */
  readme: string;
  /** Repository path of the table of contents. */
  summary: string;
  /** `redirects:` in file order: old path (no leading slash, no `.md`) → target as written. */
  redirects: Array<{ from: string; to: string }>;
}

const decoder = new TextDecoder('utf-8');

/** Reads `.gitbook.yaml` from the project directory of a snapshot. */
export function readConfig(snapshot: RepoSnapshot, projectDirectory?: string): GitBookConfig {
  const dir = normalizeProjectDirectory(projectDirectory);
  const path = joinPath(dir, '.gitbook.yaml');
  const found = resolveFile(snapshot, path);
  return parseConfig(found ? decoder.decode(found.file.data) : undefined, { projectDirectory: dir });
}

/** Parses the text of `.gitbook.yaml` (undefined: the file does not exist). */
export function parseConfig(text: string | undefined, options: { projectDirectory?: string } = {}): GitBookConfig {
  const dir = normalizeProjectDirectory(options.projectDirectory);
  const path = joinPath(dir, '.gitbook.yaml');
  let data: Record<string, unknown> = {};
  let redirectsNode: unknown;
  if (text !== undefined && text.trim() !== '') {
    const doc = parseDocument(text, { prettyErrors: false });
    const problem = doc.errors[0];
    if (problem) {
      const line = problem.linePos?.[0]?.line;
      throw new GitSyncError(
        `${path}: invalid YAML${line !== undefined ? ` at line ${line}` : ''}: ${problem.message.split('\n')[0] ?? ''}`,
        { file: path },
      );
    }
    const { value, error } = yamlData(doc);
    if (error !== undefined) throw new GitSyncError(`${path}: ${error}`, { file: path });
    if (value !== null && value !== undefined) {
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new GitSyncError(`${path}: expected a mapping of settings (root, structure, redirects)`, { file: path });
      }
      data = value as Record<string, unknown>;
      redirectsNode = doc.get('redirects', true);
    }
  }
  const setting = (value: unknown, name: string, fallback: string): string => {
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string' || value.trim() === '') {
      throw new GitSyncError(`${path}: "${name}" must be a path`, { file: path });
    }
    return value.trim();
  };
  const inside = (base: string, value: string, name: string): string => {
    const resolved = value.startsWith('/') ? null : normalizePath(joinPath(base, value));
    if (resolved === null || !(dir === '' || resolved === dir || resolved.startsWith(`${dir}/`))) {
      throw new GitSyncError(`${path}: ${name} "${value}" leaves the ${dir ? 'project directory' : 'repository'}`, {
        file: path,
      });
    }
    return resolved;
  };
  const root = inside(dir, setting(data.root, 'root', './'), 'root');
  const structure = data.structure ?? {};
  if (typeof structure !== 'object' || structure === null || Array.isArray(structure)) {
    throw new GitSyncError(`${path}: "structure" must be a mapping (readme, summary)`, { file: path });
  }
  const { readme: readmeValue, summary: summaryValue } = structure as Record<string, unknown>;
  const readme = inside(root, setting(readmeValue, 'structure.readme', 'README.md'), 'structure.readme');
  const summary = inside(root, setting(summaryValue, 'structure.summary', 'SUMMARY.md'), 'structure.summary');
  if (readme === root || summary === root) {
    throw new GitSyncError(`${path}: structure.readme and structure.summary must name files`, { file: path });
  }
  const redirects: Array<{ from: string; to: string }> = [];
  const rawRedirects = data.redirects;
  if (rawRedirects !== undefined && rawRedirects !== null) {
    if (typeof rawRedirects !== 'object' || Array.isArray(rawRedirects) || !isMap(redirectsNode)) {
      throw new GitSyncError(`${path}: "redirects" must be a mapping of old path to target`, { file: path });
    }
    // In file order (a plain object would move keys such as "2019" first).
    for (const pair of redirectsNode.items) {
      const from: unknown = isScalar(pair.key) ? pair.key.value : pair.key;
      const to: unknown = isScalar(pair.value) ? pair.value.value : pair.value;
      if ((typeof from === 'string' || typeof from === 'number') && typeof to === 'string') {
        redirects.push({ from: String(from), to });
      }
    }
  }
  return { projectDirectory: dir, path, exists: text !== undefined, root, readme, summary, redirects };
}
