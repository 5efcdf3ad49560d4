#!/usr/bin/env node
// docsctl's executable: a shim that answers --version without loading the CLI,
// then runs the bundled CLI (dist/cli.js) and sets the exit code it returns.
import { readFileSync } from 'node:fs';

// A store commit fsyncs its new objects in parallel (libuv's pool): more threads let a
// large commit (importing thousands of pages) sync them together. Set before first use.
process.env.UV_THREADPOOL_SIZE ??= '32';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  // --debug shows stack traces: map them to src/ through the bundle's source maps. Enabled
  // before the bundle loads (Node reads a file's map when it loads it); off otherwise (free).
  if (argv.includes('--debug')) process.setSourceMapsEnabled(true);
  let cli;
  try {
    cli = await import('../dist/cli.js');
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    process.stderr.write('error: docsctl is not built (dist/cli.js is missing); run "npm install" or "npm run build" in its directory\n');
    process.exit(1);
  }
  process.exitCode = await cli.run(argv);
  // Safety net: a handle left open by a library must not keep a finished command alive.
  setTimeout(() => process.exit(), 3000).unref();
}
