// Loads the CLI bundle (dist/: CommonJS chunks) with V8's code cache, which Node 20 offers only
// to vm.Script (module.enableCompileCache is Node 22.1+): compiling the ~400 KB a command loads
// was about a third of `space get`'s instructions beyond `node -e 0`.
//
// A cache is bytecode V8 runs as it is, so it is as trusted as the code itself: only the caches
// the build wrote into dist/ are read (scripts/code-cache.mjs), each V8 version in a directory of
// its own. A cache V8 refuses (another V8 or its flags: `cachedDataRejected`) or a missing one
// costs only the compile it would have saved: the chunk is compiled from its source as usual.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { basename, dirname, join } = require('node:path');
const vm = require('node:vm');

/** The directory of dist/'s code caches for this process's V8 (and processor). */
function codeCacheDir(dist) {
  return join(dist, 'code-cache', `v8-${process.versions.v8}-${process.arch}`);
}

/** The file holding the code cache of the chunk `file` (a file of dist/; chunk names are unique). */
function codeCacheFile(dist, file) {
  return join(codeCacheDir(dist), `${basename(file)}.bin`);
}

/** What V8 compiles for a chunk: the function wrapper of Node's own CommonJS loader. */
function wrapChunk(source) {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/**
 * Runs the bundle's entry (an absolute path in dist/) and returns its exports, and the
 * vm.Script of every chunk it has loaded so far (`scripts`, growing as chunks load:
 * scripts/code-cache.mjs writes their caches). `cache: false` compiles every chunk.
 */
function loadBundle(entry, { cache = true } = {}) {
  const dist = dirname(entry);
  // Node's builtins (and a package the bundle leaves out), resolved as from dist/.
  const requireOutside = createRequire(entry);
  const modules = new Map();
  const scripts = [];
  const load = (file) => {
    const loaded = modules.get(file);
    if (loaded !== undefined) return loaded.exports;
    const module = { exports: {} };
    // Registered before it runs, as Node does: chunks that require each other get the exports so far.
    modules.set(file, module);
    const source = readFileSync(file, 'utf8');
    let cachedData;
    if (cache) {
      try {
        cachedData = readFileSync(codeCacheFile(dist, file));
      } catch {
        // no cache for this V8 (another Node than the build's): compile
      }
    }
    const script = new vm.Script(wrapChunk(source), {
      filename: file,
      cachedData,
      importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    scripts.push({ file, script });
    const dir = dirname(file);
    const requireFromChunk = (id) => (id.startsWith('./') || id.startsWith('../') ? load(join(dir, id)) : requireOutside(id));
    script.runInThisContext().call(module.exports, module.exports, requireFromChunk, module, file, dir);
    return module.exports;
  };
  return { exports: load(entry), scripts };
}

module.exports = { codeCacheDir, codeCacheFile, loadBundle, wrapChunk };
