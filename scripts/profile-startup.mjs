// Writes scripts/startup-modules.json: which source modules the build merges into the
// chunks every command loads at start-up (see merge-chunks.mjs). Builds without merging,
// runs `docsctl --help` and a dozen everyday commands (locally and against `serve`) in a
// temporary store, records the files each one loads, and keeps:
//   help:    the modules of the chunks `--help` loads;
//   command: the modules of the other chunks that at least half of the commands load.
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
const metafilePath = join(work, 'meta.json');
const log = join(work, 'loads.log');

// Module hooks run in their own thread: they append every dist/ file a command loads to the log.
const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.includes('/dist/')) appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;

const home = join(work, 'home');
const baseEnv = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), DOCSCTL_STORE: join(work, 'store'), NO_COLOR: '1' };

function docsctl(args, env = baseEnv) {
  return execFileSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' }).trim();
}

/** The dist/ files (relative to the root) one run of `args` loads. */
function loadsOf(args, env = baseEnv) {
  writeFileSync(log, '');
  execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, bin, ...args], { env, stdio: 'ignore' });
  const files = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((url) => relative(root, fileURLToPath(url)));
  return new Set(files);
}

try {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { env: { ...process.env, DOCSCTL_MERGE_CHUNKS: '0', DOCSCTL_METAFILE: metafilePath }, stdio: 'inherit' });
  const metafile = JSON.parse(readFileSync(metafilePath, 'utf8'));

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
    runs = [
      ...[['space', 'list'], ['space', 'get', space], ['page', 'list', space], ['cr', 'list', space], ['site', 'list'], ['org', 'list'], ['team', 'list'], ['member', 'list'], ['collection', 'list']].map((args) => loadsOf(args)),
      ...[['space', 'list'], ['space', 'get', space], ['site', 'list']].map((args) => loadsOf(args, remote)),
    ];
    const count = new Map();
    for (const run of runs) for (const file of run) count.set(file, (count.get(file) ?? 0) + 1);
    const common = [...count].filter(([file, n]) => n * 2 >= runs.length && !help.has(file)).map(([file]) => file);
    const inputsOf = (files) => [...new Set([...files].filter((file) => file.endsWith('.js')).flatMap((file) => Object.keys(metafile.outputs[file]?.inputs ?? {})))].sort();
    const tiers = { help: inputsOf(help), command: inputsOf(common) };
    writeFileSync(join(root, 'scripts/startup-modules.json'), `${JSON.stringify(tiers, null, 1)}\n`);
    console.log(`--help loads ${help.size} files; ${common.length} other chunks are loaded by at least half of ${runs.length} commands: ${tiers.help.length} + ${tiers.command.length} modules listed`);
  } finally {
    server.kill();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
