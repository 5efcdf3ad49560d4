// Writes dist/'s V8 code caches (read by bin/bundle-loader.js): the last step of the build.
//
// A code cache holds the bytecode of the functions compiled when it is made. Made right
// after compiling a chunk it would hold only the chunk's top level (V8 compiles a function
// when it first runs), so it is made after running everyday commands in this one process:
// local and remote reads of spaces, pages and sites, a space edit, a merge (the start-up rows
// of the bench), and `diff -f` of an organization file (the apply planning rows). What they ran then starts compiled; a function none of them ran is compiled
// when it first runs, as without a cache. Functions cached but not run cost little: a cache
// made by `space get` alone saved `space get` 0.4% more instructions than this one (callgrind).
//
// The caches are this Node's (this V8's); another Node compiles as before (bundle-loader.js).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeCacheDir, codeCacheFile, loadBundle } from '../bin/bundle-loader.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/docsctl.js');
const entry = join(root, 'dist/cli.cjs');
const dist = dirname(entry);
const work = mkdtempSync(join(tmpdir(), 'docsctl-code-cache-'));
const home = join(work, 'home');
const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache'), DOCSCTL_STORE: join(work, 'store'), NO_COLOR: '1' };
const childEnv = { PATH: process.env.PATH ?? '', ...env };

/** Sets the store up in processes of their own: what runs in this one is what the caches hold. */
function docsctl(...args) {
  return execFileSync(process.execPath, [bin, ...args], { env: childEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** `docsctl serve` on the store: its URL, and the process. */
function serve() {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /Listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`code cache: docsctl serve exited ${code}`)));
  });
}

let server;
try {
  rmSync(join(dist, 'code-cache'), { recursive: true, force: true });
  docsctl('init', '--org', 'Code cache');
  const token = JSON.parse(docsctl('token', 'create', '--json')).token;
  const space = docsctl('space', 'create', '--title', 'Handbook', '--format', 'ids');
  const page = join(work, 'README.md');
  const changeRequest = (text) => {
    writeFileSync(page, text);
    const cr = docsctl('cr', 'create', space, '--subject', 'Edit', '--format', 'ids');
    docsctl('cr', 'import', space, cr, page);
    return cr;
  };
  docsctl('cr', 'merge', space, changeRequest('# Intro\n\nHello.\n'));
  const pageId = docsctl('page', 'list', space, '--format', 'ids').split('\n')[0];
  const site = docsctl('site', 'create', '--title', 'Docs', '--format', 'ids');
  docsctl('site', 'space', 'add', site, space);
  const edit = changeRequest('# Intro\n\nHello again.\n');
  // Organization as code: the files `diff -f` plans (an unchanged organization: exit 0).
  const orgYaml = join(work, 'org.yaml');
  const orgJson = join(work, 'org.json');
  docsctl('export', 'org', '-o', orgYaml);
  docsctl('export', 'org', '-o', orgJson);
  server = await serve();

  // The commands see this environment only (a DOCSCTL_ENDPOINT of the builder's would make them remote).
  for (const name of Object.keys(process.env)) if (name !== 'PATH') delete process.env[name];
  Object.assign(process.env, env);
  const { exports: cli, scripts } = loadBundle(entry, { cache: false });
  // Each run listens for errors on stdout (a closed pipe): a dozen runs are not a leak.
  process.stdout.setMaxListeners(0);
  const run = async (...args) => {
    const code = await cli.run(args);
    // `diff` exits 1 when it plans changes (the space edit above renamed a space the files hold).
    if (code !== 0 && !(args[0] === 'diff' && code === 1)) throw new Error(`code cache: docsctl ${args.join(' ')} exited ${code}`);
  };
  await run('--help');
  await run('space', 'get', space, '--json');
  await run('space', 'edit', space, '--title', 'Handbook 2', '--json');
  await run('space', 'list');
  await run('page', 'get', space, pageId, '--json');
  await run('page', 'list', space);
  await run('cr', 'merge', space, edit);
  await run('site', 'tree', site);
  await run('site', 'published', site);
  await run('diff', '-f', orgYaml);
  await run('diff', '-f', orgJson);
  Object.assign(process.env, { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token });
  await run('space', 'get', space, '--json');
  await run('site', 'tree', site);
  await run('diff', '-f', orgYaml);

  mkdirSync(codeCacheDir(dist), { recursive: true });
  for (const { file, script } of scripts) writeFileSync(codeCacheFile(dist, file), script.createCachedData());
} finally {
  // Gone before its store is removed (it may still be writing as it stops).
  if (server !== undefined && server.child.exitCode === null && server.child.signalCode === null) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill();
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
}
// A library's idle handle (a keep-alive socket of the remote commands) must not hold the build.
process.exit(0);
