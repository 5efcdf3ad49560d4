// Bundles the CLI into dist/ with esbuild: one entry chunk that starts fast,
// and separate chunks for what only some commands load (undici, the server,
// prompts, tables, the store and domain). See notes/perf.md: bundling removes
// most of the module-loading cost of a large CLI.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { build } from 'esbuild';
import { generate } from './generate.mjs';

const root = new URL('..', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

/**
 * The build date getApiInformation answers: SOURCE_DATE_EPOCH when set (reproducible
 * builds), else the date of the commit built, else now (a tree outside git).
 */
function buildDate() {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  if (Number.isInteger(epoch) && epoch > 0) return new Date(epoch * 1000).toISOString();
  try {
    const committed = execFileSync('git', ['log', '-1', '--format=%cI'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (committed) return new Date(committed).toISOString();
  } catch {
    // not a git checkout (an npm install from the registry): fall through
  }
  return new Date().toISOString();
}

/**
 * commander requires node:child_process at load for executable subcommands, which docsctl
 * does not use; loading it (with net, dgram…) costs every command ~4 ms. Give commander a
 * stand-in that loads the real module on first use.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'lazy-child-process', namespace: 'docsctl-lazy' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'docsctl-lazy' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

await generate();
rmSync(new URL('dist', root), { recursive: true, force: true });
const result = await build({
  absWorkingDir: root.pathname,
  entryPoints: { cli: 'src/cli/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __DOCSCTL_VERSION__: JSON.stringify(version), __DOCSCTL_BUILD__: JSON.stringify(buildDate()) },
  // Some dependencies are CommonJS and call require(): the bundle is CommonJS in the end
  // (merge-chunks.mjs), and each chunk's require is its loader's (no createRequire banner:
  // 60 of them ran in `space get`, ~2% of `site tree`'s instructions).
  plugins: [lazyChildProcessForCommander],
  legalComments: 'none',
  // Source maps ship beside the chunks (without the sources: paths and lines are enough) and
  // are read only under --debug (bin/docsctl.js enables them), so stack traces name src/ files;
  // without --debug Node never reads them.
  sourcemap: 'linked',
  sourcesContent: false,
  minify: process.env.DOCSCTL_MINIFY !== '0',
  logLevel: 'warning',
  write: false,
  metafile: true,
});

// Then Rollup writes the bundle as CommonJS, merging the chunks nearly every command loads into
// two files (see merge-chunks.mjs); DOCSCTL_MERGE_CHUNKS=0 keeps esbuild's chunks as they are
// (scripts/profile-startup.mjs needs them).
const tiersFile = new URL('scripts/startup-modules.json', root);
const merge = process.env.DOCSCTL_MERGE_CHUNKS !== '0' && existsSync(tiersFile);
const { mergeStartupChunks } = await import('./merge-chunks.mjs');
const files = await mergeStartupChunks({
  outputFiles: result.outputFiles.map((file) => ({ path: file.path, text: file.text })),
  metafile: result.metafile,
  root: root.pathname,
  outdir: new URL('dist', root).pathname,
  entry: { name: 'cli', path: new URL('dist/cli.js', root).pathname },
  tiers: merge ? JSON.parse(readFileSync(tiersFile, 'utf8')) : {},
});
for (const file of files) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.text);
}
// The source modules of each file of dist/, for scripts/profile-startup.mjs.
if (process.env.DOCSCTL_CHUNK_MODULES) {
  const modules = Object.fromEntries(files.filter((file) => file.modules !== undefined).map((file) => [relative(root.pathname, file.path), file.modules]));
  writeFileSync(process.env.DOCSCTL_CHUNK_MODULES, JSON.stringify(modules));
}

// Last, V8's code caches of the chunks, made by running everyday commands (scripts/code-cache.mjs).
// Without them docsctl works and starts slower: a build that cannot make them says so and goes on
// (test/e2e/code-cache.test.ts fails on a checkout built without them).
try {
  execFileSync(process.execPath, [new URL('scripts/code-cache.mjs', root).pathname], { stdio: ['ignore', 'ignore', 'pipe'] });
} catch (error) {
  const reason = String(error.stderr ?? error.message).trim().split('\n').slice(-1)[0];
  process.stderr.write(`build: warning: no V8 code caches written (docsctl starts slower): ${reason}\n`);
}
