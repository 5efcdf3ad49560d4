#!/usr/bin/env node
// docsctl's executable: a shim that answers --version without loading the CLI, then runs the
// bundled CLI (dist/cli.cjs, through V8's code cache: bundle-loader.js) and sets the exit code
// it returns. CommonJS (bin/package.json), as the bundle is: an ES module entry would load
// Node's ES module loader, ~3% of `node -e 0`'s instructions, for nothing.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

// A store commit fsyncs its new objects in parallel (libuv's pool): more threads let a
// large commit (importing thousands of pages) sync them together. Set before first use.
process.env.UV_THREADPOOL_SIZE ??= '32';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { version } = JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  // --debug shows stack traces: map them to src/ through the bundle's source maps, which Node
  // reads only for files its own loader loads (not for a vm.Script): so under --debug Node's
  // require loads the bundle, without the code cache.
  const debug = argv.includes('--debug');
  if (debug) process.setSourceMapsEnabled(true);
  const entry = join(__dirname, '../dist/cli.cjs');
  let cli;
  try {
    cli = debug ? require(entry) : require('./bundle-loader.js').loadBundle(entry).exports;
  } catch (error) {
    const missing = (error?.code === 'ENOENT' && error.path === entry) || (error?.code === 'MODULE_NOT_FOUND' && String(error.message).includes(entry));
    if (!missing) throw error;
    process.stderr.write('error: docsctl is not built (dist/cli.cjs is missing); run "npm install" or "npm run build" in its directory\n');
    process.exit(1);
  }
  cli.run(argv).then((code) => {
    process.exitCode = code;
    // Safety net: a handle left open by a library must not keep a finished command alive.
    setTimeout(() => process.exit(), 3000).unref();
  });
}
