/**
 * What a command loads at start-up, through the built binary: every chunk of dist/ it
 * loads, mapped back to src/ modules through the chunk's source map. Start-up time is
 * mostly modules loaded (benchmarks measure the time; this guards what the time is made
 * of): `--version` loads no chunk, top-level `--help` neither the route catalog nor the
 * session, and `space get` none of the change-request conflict commands; and each chunk
 * `space get` and `--help` load runs from its V8 code cache (bin/bundle-loader.js).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
/** A preload recording each chunk compiled and its code cache's fate (test/helpers/record-scripts.cjs). */
const recordScripts = fileURLToPath(new URL('../helpers/record-scripts.cjs', import.meta.url));

let work: string;
let env: Record<string, string>;
let spaceId: string;
let siteId: string;

interface Loaded {
  /** The src/ and node_modules/ modules of the chunks loaded (through their source maps). */
  modules: Set<string>;
  /** How many files of dist/ were loaded, and their bytes. */
  chunks: number;
  bytes: number;
  fileOf: Map<string, string>;
  /** Per file of dist/: whether V8 refused its code cache (undefined: there was none). */
  cacheRejected: Map<string, boolean | undefined>;
}

/** What `docsctl args` loads: every chunk of dist/ bin/bundle-loader.js compiles (a vm.Script each), with its code cache's fate. */
function loaded(args: readonly string[], options: { env?: Record<string, string>; nodeArgs?: readonly string[] } = {}): Loaded {
  const log = join(work, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  execFileSync('node', [...(options.nodeArgs ?? []), '--require', recordScripts, bin, ...args], {
    env: { ...env, ...options.env, DOCSCTL_LOADED_LOG: log },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const modules = new Set<string>();
  const fileOf = new Map<string, string>();
  const cacheRejected = new Map<string, boolean | undefined>();
  let chunks = 0;
  let bytes = 0;
  for (const line of new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))) {
    const [file = '', rejected] = line.split('\t');
    if (!file.startsWith(dist)) continue;
    chunks++;
    bytes += statSync(file).size;
    cacheRejected.set(file, rejected === 'undefined' ? undefined : rejected === 'true');
    const { sources } = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const source of sources) {
      const module = source.replace(/^(\.\.\/)+/, '');
      modules.add(module);
      fileOf.set(module, file);
    }
  }
  return { modules, chunks, bytes, fileOf, cacheRejected };
}

beforeAll(() => {
  work = tempDir('docsctl-startup-modules-');
  env = { PATH: process.env.PATH ?? '', HOME: work, XDG_CONFIG_HOME: join(work, 'config'), DOCSCTL_STORE: join(work, 'store'), NO_COLOR: '1' };
  execFileSync('node', [bin, 'init', '--org', 'Acme'], { env, stdio: 'ignore' });
  spaceId = execFileSync('node', [bin, 'space', 'create', '--title', 'Start-up', '--format', 'ids'], { env, encoding: 'utf8' }).trim();
  siteId = execFileSync('node', [bin, 'site', 'create', '--title', 'Start-up', '--space', spaceId, '--format', 'ids'], { env, encoding: 'utf8' }).trim();
});

afterAll(() => cleanupTempDirs());

describe('modules loaded at start-up (bin/docsctl.js)', () => {
  it('--version is answered by the shim: no chunk of dist/ is loaded', () => {
    expect(loaded(['--version']).chunks).toBe(0);
  });

  it('top-level --help lists groups and tools without the route catalog, the session or any command', () => {
    const { modules } = loaded(['--help']);
    expect(modules).toContain('src/cli/main.ts');
    for (const heavy of ['src/api/manifest.ts', 'src/api/catalog.ts', 'src/cli/operation.ts', 'src/cli/session.ts', 'src/output/columns.ts', 'src/output/render.ts']) {
      expect(modules, heavy).not.toContain(heavy);
    }
    expect([...modules].filter((m) => m.startsWith('src/cli/commands/') && m !== 'src/cli/commands/index.ts' && m !== 'src/cli/commands/tools.ts')).toEqual([]);
  });

  it('space get loads its group, not the conflict commands of cr (content model, tree reads), zod or route modules', () => {
    const { modules } = loaded(['space', 'get', spaceId, '--json']);
    expect(modules).toContain('src/cli/commands/spaces.ts');
    expect(modules).toContain('src/domain/spaces.ts');
    for (const unneeded of ['src/cli/commands/cr-conflicts.ts', 'src/cli/commands/cr-resolve.ts', 'src/cli/content-fetch.ts', 'src/content-model/model.ts']) {
      expect(modules, unneeded).not.toContain(unneeded);
    }
    expect([...modules].filter((m) => m.includes('node_modules/zod/') || m.startsWith('src/api/routes/') || m.startsWith('src/api/schemas/'))).toEqual([]);
  });

  it('a page read loads the content domain as one file (the content tier of scripts/startup-modules.json), not a file per module', () => {
    const { fileOf } = loaded(['page', 'list', spaceId, '--json']);
    const content = ['src/domain/content/storage.ts', 'src/domain/content/common.ts', 'src/domain/content/views.ts', 'src/domain/content/change-requests.ts', 'src/content-model/markdown.ts'];
    for (const module of content) expect(fileOf.get(module), module).toBe(fileOf.get('src/domain/content/storage.ts'));
    expect(fileOf.get('src/domain/content/storage.ts')).toMatch(/\/content-[^/]*\.cjs$/);
  });

  it('space get and --help run every chunk they load from its code cache (none missing, none refused by V8)', () => {
    for (const args of [['space', 'get', spaceId, '--json'], ['--help']]) {
      const { cacheRejected, chunks } = loaded(args);
      expect(chunks, args.join(' ')).toBeGreaterThan(1);
      expect([...cacheRejected].filter(([, rejected]) => rejected !== false).map(([file]) => file)).toEqual([]);
    }
  });

  it('--debug loads the bundle with Node\'s require (for source maps), not through the code cache', () => {
    expect(loaded(['space', 'get', spaceId, '--json', '--debug']).chunks).toBe(0);
  });

  it('what --help, space get and site tree load stays within bounds (a stale startup-modules.json or a heavy import shows here)', () => {
    // Measured when written: --help 2 files / 68 KB, space get 14 / 402 KB, site tree 22 / 642 KB.
    // Site tree 25 since 2026-11-29: the site area's handlers delete a site's Insights through a
    // 550-byte shared chunk (src/domain/sites/insights-tables.ts, kept apart from the query engine);
    // 701 KB then (tree18's per-variant lines and the site context and insights deletions).
    const bounds: Array<[string[], number, number]> = [
      [['--help'], 2, 80_000],
      [['space', 'get', spaceId, '--json'], 16, 440_000],
      [['site', 'tree', siteId], 25, 720_000],
    ];
    for (const [args, files, bytes] of bounds) {
      const { chunks, bytes: loadedBytes } = loaded(args);
      expect(chunks, `${args[0]} ${args[1] ?? ''}: files`).toBeLessThanOrEqual(files);
      expect(loadedBytes, `${args[0]} ${args[1] ?? ''}: bytes`).toBeLessThanOrEqual(bytes);
    }
  });

  it('the cr group still registers its hand-written conflict commands', () => {
    const { modules } = loaded(['cr', '--help']);
    expect(modules).toContain('src/cli/commands/cr-conflicts.ts');
    expect(modules).toContain('src/cli/commands/cr-resolve.ts');
  });
});
