// Writes scripts/startup-modules.json: which source modules the build merges into the
// chunks every command loads at start-up (see merge-chunks.mjs). Builds without merging,
// runs `docsctl --help` and a dozen everyday commands (locally and against `serve`) in a
// temporary store, records the files each one loads, and keeps:
//   help:    the modules of the chunks `--help` loads;
//   command: the modules of the other chunks that at least half of the commands load;
//   content: the modules of the chunks beyond those that half of the content commands
//            load (page get, cr merge, site tree, page list; locally and remotely).
// Run it after a change that moves many modules between chunks (a new command module,
// a split of the domain): `node scripts/profile-startup.mjs && npm run build`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/docsctl.js');
const work = mkdtempSync(join(tmpdir(), 'docsctl-profile-'));
const log = join(work, 'loads.log');

// Preloaded: bin/bundle-loader.js compiles each chunk as a vm.Script; this appends the file of each to the log.
const preload = `import vm from 'node:vm';
import { appendFileSync } from 'node:fs';
vm.Script = class extends vm.Script {
  constructor(code, options) {
    super(code, options);
    appendFileSync(${JSON.stringify(log)}, options.filename + '\\n');
  }
};`;

const home = join(work, 'home');
const baseEnv = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), DOCSCTL_STORE: join(work, 'store'), NO_COLOR: '1' };

function docsctl(args, env = baseEnv) {
  return execFileSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' }).trim();
}

/** The dist/ files (relative to the root) one run of `args` loads. */
function loadsOf(args, env = baseEnv) {
  writeFileSync(log, '');
  execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, bin, ...args], { env, stdio: 'ignore' });
  const files = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((file) => relative(root, file));
  return new Set(files);
}

/** The files loaded by at least half of `runs`, leaving out those of `known`. */
function loadedByHalf(runs, known) {
  const count = new Map();
  for (const run of runs) for (const file of run) count.set(file, (count.get(file) ?? 0) + 1);
  return [...count].filter(([file, n]) => n * 2 >= runs.length && !known.has(file)).map(([file]) => file);
}

/**
 * The loads of the content commands, locally and against serve (`remote`): a space with a
 * page (imported through a change request), a page read, a merge of an edit, the tree of
 * a site showing the space.
 */
function contentRuns(remote) {
  const space = docsctl(['space', 'create', '--title', 'Content', '--format', 'ids']);
  const page = join(work, 'README.md');
  const importPage = (text) => {
    writeFileSync(page, text);
    const cr = docsctl(['cr', 'create', space, '--subject', 'Edit', '--format', 'ids']);
    docsctl(['cr', 'import', space, cr, page]);
    return cr;
  };
  docsctl(['cr', 'merge', space, importPage('# Intro\n\nHello.\n')]);
  const pageId = docsctl(['page', 'list', space, '--format', 'ids']).split('\n')[0];
  const site = docsctl(['site', 'create', '--title', 'Docs', '--format', 'ids']);
  docsctl(['site', 'space', 'add', site, space]);
  return [
    loadsOf(['page', 'get', space, pageId]),
    loadsOf(['cr', 'merge', space, importPage('# Intro\n\nHello again.\n')]),
    loadsOf(['site', 'tree', site]),
    loadsOf(['page', 'list', space]),
    loadsOf(['page', 'get', space, pageId], remote),
    loadsOf(['site', 'tree', site], remote),
  ];
}

try {
  const chunkModulesFile = join(work, 'chunk-modules.json');
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { env: { ...process.env, DOCSCTL_MERGE_CHUNKS: '0', DOCSCTL_CHUNK_MODULES: chunkModulesFile }, stdio: 'inherit' });
  const chunkModules = JSON.parse(readFileSync(chunkModulesFile, 'utf8'));

  docsctl(['init', '--org', 'Profile']);
  const space = docsctl(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
  const token = JSON.parse(docsctl(['token', 'create', '--json'])).token;
  const server = spawn(process.execPath, [bin, 'serve', '--port', '0'], { env: baseEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  const endpoint = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /https?:\/\/\S+/.exec(out)?.[0];
      if (url) resolve(url);
    });
    server.on('exit', () => reject(new Error(`serve exited: ${out}`)));
  });
  const remote = { ...baseEnv, DOCSCTL_ENDPOINT: endpoint, DOCSCTL_TOKEN: token };
  let runs;
  try {
    const help = loadsOf(['--help']);
    const local = [['space', 'list'], ['space', 'get', space], ['page', 'list', space], ['cr', 'list', space], ['site', 'list'], ['org', 'list'], ['team', 'list'], ['member', 'list'], ['collection', 'list']];
    const elsewhere = [['space', 'list'], ['space', 'get', space], ['site', 'list']];
    runs = [...local.map((args) => loadsOf(args)), ...elsewhere.map((args) => loadsOf(args, remote))];
    const common = loadedByHalf(runs, help);
    // The content commands (a page, a merge, a site's tree) share the content domain's
    // modules beyond the core: some 30 small chunks, a file each, merged into one. A chunk
    // an everyday command outside content (pages, change requests, sites: their handlers
    // import the content domain) loads stays out: space get would load the whole tier.
    const groups = [...local, ...elsewhere].map((args) => args[0]);
    const outside = runs.filter((_, i) => !['page', 'cr', 'site'].includes(groups[i]));
    const content = loadedByHalf(contentRuns(remote), new Set([...help, ...outside.flatMap((run) => [...run])]));
    const inputsOf = (files) => [...new Set([...files].flatMap((file) => chunkModules[file] ?? []))].sort();
    const tiers = { help: inputsOf(help), command: inputsOf(common), content: inputsOf(content) };
    writeFileSync(join(root, 'scripts/startup-modules.json'), `${JSON.stringify(tiers, null, 1)}\n`);
    console.log(
      `--help loads ${help.size} files; ${common.length} other chunks are loaded by at least half of ${runs.length} commands, ${content.length} more by half of the content commands: ${tiers.help.length} + ${tiers.command.length} + ${tiers.content.length} modules listed`,
    );
  } finally {
    // Gone before its store is removed (it may still be writing as it stops).
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill();
      await exited;
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
