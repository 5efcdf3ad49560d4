// Merges the small chunks nearly every command loads into two files, after esbuild, and
// writes the bundle as CommonJS (see the format below).
//
// esbuild splits by reachability: a module goes to a chunk with every module reached
// from the same set of dynamic imports, so a command that loads the store, the domain
// and a command module loads some 50 chunks, most under 2 KB. Each ES module file costs
// Node a read, a compile and a link; measured with farm-bench, merging those of
// `space get` into one file cut its CPU by a fifth. esbuild cannot merge chunks by hand
// (it has no manualChunks); Rollup can, and keeps the source maps chained, so esbuild
// still compiles TypeScript and Rollup only regroups its output.
//
// Which chunks to merge comes from scripts/startup-modules.json (written by
// scripts/profile-startup.mjs from the files real commands load): a chunk holding a
// module of its `help` list (what `docsctl --help` loads) goes to the `base` file, one
// holding a module of its `command` list to the `core` file, the rest stay as esbuild
// made them. A stale list costs speed, never correctness: Rollup rewrites every import.
// Without tiers (DOCSCTL_MERGE_CHUNKS=0) the chunks stay as esbuild made them.
import { basename, dirname, relative, resolve } from 'node:path';
import { rollup } from 'rollup';

const MAP_COMMENT = /\n?\/\/# sourceMappingURL=[^\n]*\s*$/;

/**
 * Rollup puts a manual chunk's static dependencies that no manual chunk claims into that
 * chunk. base and core rely on it (what they import comes along), but a further tier must
 * not take a chunk that commands outside its family load too: `space get` would then load
 * the whole content tier for one 4 KB chunk. So a dependency of a further tier that base
 * and core do not reach stays a file of its own (a manual chunk of its own name).
 */
function keepDependenciesApart(metafile, root, tierOf) {
  const key = (output) => resolve(root, output);
  const staticImports = (output) => (metafile.outputs[output]?.imports ?? []).filter((item) => item.kind === 'import-statement' && !item.external).map((item) => item.path);
  const reach = (starts) => {
    const seen = new Set();
    const queue = [...starts];
    while (queue.length > 0) {
      const output = queue.pop();
      for (const next of staticImports(output)) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    return seen;
  };
  const outputs = Object.keys(metafile.outputs);
  const fromStartup = reach(outputs.filter((output) => ['base', 'core'].includes(tierOf.get(key(output)))));
  const fromFurther = reach(outputs.filter((output) => tierOf.has(key(output)) && !['base', 'core'].includes(tierOf.get(key(output)))));
  for (const output of fromFurther) {
    if (tierOf.has(key(output)) || fromStartup.has(output)) continue;
    tierOf.set(key(output), basename(output, '.js'));
  }
}

/**
 * Regroups esbuild's output files (`write: false`, with its metafile) and returns the
 * files to write: [{ path, text, modules? }], paths absolute, `modules` the source modules of a chunk.
 */
export async function mergeStartupChunks({ outputFiles, metafile, root, outdir, entry, tiers }) {
  const files = new Map(outputFiles.map((file) => [file.path, file.text]));
  const tierOf = new Map();
  const help = new Set(tiers.help ?? []);
  const command = new Set(tiers.command ?? []);
  // Further tiers (a command family's own chunks, merged into one file named after it), in order.
  const extra = Object.entries(tiers).filter(([name]) => name !== 'help' && name !== 'command').map(([name, modules]) => [name, new Set(modules)]);
  for (const [output, info] of Object.entries(metafile.outputs)) {
    // The entry stays the entry (a chunk of its own would add a file, not remove one).
    if (!output.endsWith('.js') || resolve(root, output) === entry.path) continue;
    const inputs = Object.keys(info.inputs);
    const tier = inputs.some((input) => help.has(input)) ? 'base' : inputs.some((input) => command.has(input)) ? 'core' : extra.find(([, modules]) => inputs.some((input) => modules.has(input)))?.[0];
    if (tier) tierOf.set(resolve(root, output), tier);
  }
  keepDependenciesApart(metafile, root, tierOf);
  const inMemory = {
    name: 'esbuild-output',
    resolveId(source, importer) {
      if (importer === undefined) return source;
      if (!source.startsWith('.')) return { id: source, external: true };
      const path = resolve(dirname(importer), source);
      return files.has(path) ? path : { id: source, external: true };
    },
    load(id) {
      const code = files.get(id);
      if (code === undefined) return null;
      const map = files.get(`${id}.map`);
      return { code: code.replace(MAP_COMMENT, '\n'), map: map === undefined ? null : JSON.parse(map) };
    },
  };
  const bundle = await rollup({
    input: { [entry.name]: entry.path },
    plugins: [inMemory],
    treeshake: false,
    // Chunks of esbuild import each other in cycles at times; their order is already right.
    onwarn: (warning, warn) => {
      // (and a builtin's name esbuild imported but the chunk no longer calls is harmless).
      if (!['CIRCULAR_DEPENDENCY', 'EMPTY_BUNDLE', 'UNUSED_EXTERNAL_IMPORT'].includes(warning.code)) warn(warning);
    },
  });
  try {
    const { output } = await bundle.generate({
      dir: outdir,
      // CommonJS, so that bin/bundle-loader.js can compile each file with V8's code cache
      // (vm.Script; Node 20 has none for ES modules). Dynamic imports become require()
      // (dynamicImportInCjs: false): a chunk then needs nothing of Node's ES module loader.
      format: 'cjs',
      dynamicImportInCjs: false,
      entryFileNames: '[name].cjs',
      chunkFileNames: 'chunks/[name]-[hash].cjs',
      manualChunks: (id) => tierOf.get(id),
      sourcemap: true,
      sourcemapExcludeSources: true,
      // Each chunk requires what it imports itself (Rollup would add its importers' imports to it,
      // for browsers loading in parallel).
      hoistTransitiveImports: false,
    });
    const written = [];
    for (const item of output) {
      const path = resolve(outdir, item.fileName);
      if (item.type === 'asset') written.push({ path, text: String(item.source) });
      // A chunk's source modules: those of the esbuild files it holds (a file of re-exports only,
      // such as src/cli/runtime.ts's, has none in its source map).
      else written.push({ path, text: item.code, modules: Object.keys(item.modules).flatMap((id) => Object.keys(metafile.outputs[relative(root, id)]?.inputs ?? {})) });
    }
    return written;
  } finally {
    await bundle.close();
  }
}
