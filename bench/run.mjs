// Benchmarks, as ratios to a bare `node -e 0` measured in the same run (pairs
// alternate A/B so machine noise hits both). Usage: npm run bench [-- --quick]
//   start-up: docsctl --version, docsctl --help, space get locally and remotely (against serve)
//   store:    space get / space edit on 1,000 spaces in 100 collections after 10,000 writes,
//             and on a store 10x larger (10,000 spaces, 1,000 collections, 100,000 writes)
//   content:  cr merge of 10 edited pages in a 5,000-page space, page get there, store growth per merge
//   git:      import / re-import / one-page export of a 2,000-page repository, as ratios to `git clone`
//   comments: comment list / comment add on a change request of 1,000 and 10,000 comments, search over 5,000 pages
//   git-assets (--git-assets): cold import of 3,000 pages and 300 images of 100 KB–1 MB, as a ratio to `git clone`
//   git-real: repositories shaped like real GitBook-synced ones (bench/git-shapes.mjs): cold import, re-import, export back
//             and a CI import of a --depth 1 checkout, against `git clone`; peak memory, store files, fsyncs (bench/git-real.mjs)
//   teams:    team members sync of 2,000 lines (100 changes) in an org of 10,000, locally and via serve
//   apply:    diff -f planning an unchanged org of 1,000 spaces, 100 teams, 2,000 members, CPU vs space list (bench/apply.mjs)
//   serve:    read/list/write throughput as ratios to a bare node:http server, creates/s and bytes/create at 0 and 3,000 spaces
//   store-engine (--store-engine): creates/s and bytes per create at 0 and 3,000 spaces in-process, the fairness wait
//   serve-import: slowest GET through serve while a 5,000-page zip imports on a file store (target ≤ 250 ms)
//   emulator (--emulator): serve snapshot save / restore at 10 and 10,000 spaces (O(1): target ≤ 1.2× between them)
// Options: --help, --quick (fewer runs, no 10x store), --sites, --startup, --emulator, --content, --git, --git-real, --serve, --serve-creates, --serve-import, --teams, --apply, --integration-events, --comments or --store-engine (only that part).
// --git-real takes --shapes reference,manual,images,server, --rounds N (default 3, 1 with --quick) and --repo PATH[:DIR] (a repository of your own, repeatable).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'docsctl.js');

// The options: a misspelt one must not start the whole bench (an hour) in its place.
const PARTS = ['--sites', '--store-engine', '--content', '--git-assets', '--git-real', '--git', '--teams', '--apply', '--integration-events', '--serve-creates', '--serve-import', '--serve', '--comments', '--startup', '--emulator'];
const WITH_VALUE = ['--shapes', '--rounds', '--repo'];
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  // The usage is this file's opening comment.
  const text = readFileSync(new URL(import.meta.url), 'utf8');
  console.log(text.split('\n').filter((line, i, lines) => lines.slice(0, i + 1).every((l) => l.startsWith('//'))).map((line) => line.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (WITH_VALUE.includes(arg)) i += 1;
  else if (arg !== '--quick' && !PARTS.includes(arg)) {
    console.error(`bench: unknown option ${arg} (node bench/run.mjs --help lists them)`);
    process.exit(2);
  }
}

const quick = args.includes('--quick');
const runs = quick ? 7 : 21;
const work = mkdtempSync(join(tmpdir(), 'docsctl-bench-'));
// Stores of GBs: a bench stopped with Ctrl-C or a kill removes its work directory too.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    rmSync(work, { recursive: true, force: true });
    process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 })[signal]);
  });
}

function time(cmd, args, env) {
  const start = process.hrtime.bigint();
  // maxBuffer: site tree of the sites bench prints ~4 MB (the default 1 MB kills the child).
  const result = spawnSync(cmd, args, { env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Runs `args` and `node -e 0` alternately; returns medians and the median of pairwise ratios. */
function paired(label, args, env = {}, target) {
  const a = [], b = [], ratios = [];
  time('node', args, env); // warm the file cache
  for (let i = 0; i < runs; i++) {
    const ms = time('node', args, env);
    const base = time('node', ['-e', '0']);
    a.push(ms); b.push(base); ratios.push(ms / base);
  }
  const ratio = median(ratios);
  const verdict = target === undefined ? '' : ratio <= target ? `  ok (target ≤ ${target}×)` : `  OVER target ≤ ${target}×`;
  console.log(`${label.padEnd(44)} ${median(a).toFixed(1).padStart(7)} ms   node -e 0 ${median(b).toFixed(1).padStart(6)} ms   ${ratio.toFixed(2)}×${verdict}`);
  return ratio;
}

async function generator(name = 'generate') {
  const outfile = join(work, `${name}.mjs`);
  await build({
    entryPoints: [join(root, 'bench', `${name}.ts`)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" }, logLevel: 'warning',
  });
  return outfile;
}

function generate(script, dir, spaces, collections, writes) {
  const out = execFileSync('node', [script, dir, String(spaces), String(collections), String(writes)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const info = JSON.parse(out);
  console.log(`  generated ${spaces} spaces / ${collections} collections / ${info.commits} commits in ${info.seconds.toFixed(1)} s`);
  return info;
}

function storeBench(label, dir, info) {
  const env = { DOCSCTL_STORE: dir };
  const id = info.sample[Math.floor(info.sample.length / 2)];
  const get = paired(`space get (${label})`, [bin, 'space', 'get', id, '--json'], env, 2);
  const edit = paired(`space edit (${label})`, [bin, 'space', 'edit', id, '--title', 'Bench 0', '--json'], env, 2.5);
  return { get, edit };
}

/** Bytes of every file under `dir`. */
function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

async function contentBench() {
  console.log('\ncontent: a space of ~5,000 pages; change requests each editing 10 pages:');
  const script = await generator('generate-content');
  const dir = join(work, 'content');
  const out = execFileSync('node', [script, dir, String(runs + 2)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const info = JSON.parse(out);
  console.log(`  generated ${info.pages} pages and ${info.crs.length} change requests in ${info.seconds.toFixed(1)} s`);
  const env = { DOCSCTL_STORE: dir };
  // The first merge, outside the timing: how much the store grows for one merge of 10 edited pages.
  // The whole store: since packs (format 3) a merge's objects are in its commit file or a pack, not under objects/.
  const before = bytesUnder(dir);
  time('node', [bin, 'cr', 'merge', info.spaceId, String(info.crs[0])], env);
  const added = bytesUnder(dir) - before;
  console.log(`  store growth for one merge of 10 edited pages (of ${info.pages}): ${(added / 1024).toFixed(1)} KiB of store (commit file and packs)`);
  const a = [], b = [], ratios = [];
  for (let i = 1; i <= runs; i++) {
    const ms = time('node', [bin, 'cr', 'merge', info.spaceId, String(info.crs[i]), '--json'], env);
    const base = time('node', ['-e', '0']);
    a.push(ms); b.push(base); ratios.push(ms / base);
  }
  const ratio = median(ratios);
  console.log(`${'cr merge (10 of 5,000 pages, outdated CR)'.padEnd(44)} ${median(a).toFixed(1).padStart(7)} ms   node -e 0 ${median(b).toFixed(1).padStart(6)} ms   ${ratio.toFixed(2)}×${ratio <= 3 ? '  ok (target ≤ 3×)' : '  OVER target ≤ 3×'}`);
  paired('page get (5,000-page space)', [bin, 'page', 'get', info.spaceId, info.pageId, '--json'], env, 3);
}

/**
 * A Git Sync repository of `pages` pages (nested 3 levels) with assets, as a bare remote.
 * `images`: that many more images in `.gitbook/assets/` (random bytes, so git cannot
 * compress them, of `minBytes`–`maxBytes`), spread over the pages that show them.
 */
function makeRepository(dir, pages, images = { count: 0, minBytes: 0, maxBytes: 0 }) {
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  const git = (...args) => execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: work });
  git('init', '-q');
  const lines = ['# Table of contents', '', '* [Home](README.md)'];
  writeFileSync(join(work, 'README.md'), '# Home\n\nWelcome.\n');
  mkdirSync(join(work, '.gitbook', 'assets'), { recursive: true });
  let n = 0;
  for (let a = 0; n < pages; a++) {
    const part = `part-${a}`;
    mkdirSync(join(work, part), { recursive: true });
    writeFileSync(join(work, part, 'README.md'), `# Part ${a}\n\nOverview of part ${a}.\n`);
    lines.push(`* [Part ${a}](${part}/README.md)`);
    n++;
    for (let b = 0; b < 20 && n < pages; b++, n++) {
      const asset = `diagram ${a}-${b}.png`;
      if (b === 0) writeFileSync(join(work, '.gitbook', 'assets', asset), Buffer.alloc(2048, a));
      writeFileSync(
        join(work, part, `page-${b}.md`),
        `---\ndescription: Page ${a}.${b}\n---\n\n# Page ${a}.${b}\n\n${'Some text for the benchmark page. '.repeat(20)}\n\n${b === 0 ? `![diagram](<../.gitbook/assets/${asset}>)\n` : ''}`,
      );
      lines.push(`  * [Page ${a}.${b}](${part}/page-${b}.md)`);
    }
  }
  const every = Math.max(1, Math.floor(pages / Math.max(1, images.count)));
  for (let i = 0; i < images.count; i++) {
    const name = `screenshot ${i}.png`;
    const size = images.minBytes + Math.floor(((images.maxBytes - images.minBytes) * ((i * 7919) % 1000)) / 1000);
    writeFileSync(join(work, '.gitbook', 'assets', name), randomBytes(size));
    // The page that shows it: part-a/page-b of the (i * every)th page.
    const index = i * every;
    const a = Math.floor(index / 21);
    const b = Math.min(19, index % 21);
    const page = join(work, `part-${a}`, `page-${b}.md`);
    if (existsSync(page)) appendFileSync(page, `\n<figure><img src="../.gitbook/assets/${name}" alt=""><figcaption></figcaption></figure>\n`);
  }
  writeFileSync(join(work, 'SUMMARY.md'), `${lines.join('\n')}\n`);
  git('add', '-A');
  git('commit', '-q', '-m', 'Docs');
  execFileSync('git', ['clone', '-q', '--bare', work, join(dir, 'remote.git')]);
  return { url: pathToFileURL(join(dir, 'remote.git')).href, work };
}

async function gitBench() {
  const gitRuns = quick ? 3 : 5;
  console.log(`\ngit: a 2,000-page repository with assets (${gitRuns} runs; ratios to \`git clone\` of the same repository):`);
  const dir = join(work, 'git');
  const { url, work: checkout } = makeRepository(dir, 2000);
  const store = join(dir, 'store');
  const env = { DOCSCTL_STORE: store };
  execFileSync('node', [bin, 'init'], { env: { ...process.env, ...env }, stdio: 'ignore' });
  const first = [], again = [], exported = [], clones = [];
  for (let i = 0; i < gitRuns; i++) {
    const space = execFileSync('node', [bin, 'space', 'create', '--title', `Git ${i}`, '--format', 'ids'], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
    clones.push(time('git', ['clone', '-q', url, join(dir, `clone-${i}`)]));
    // A cold cache for the first import: it clones too.
    const cache = { ...env, DOCSCTL_GIT_CACHE: join(dir, `cache-${i}`) };
    first.push(time('node', [bin, 'git', 'import', space, url, '--ref', 'main'], cache));
    again.push(time('node', [bin, 'git', 'import', space, url, '--ref', 'main'], cache));
    // One page changed in the space (through a change request), then exported.
    const variant = join(dir, `variant-${i}`);
    execFileSync('cp', ['-r', checkout, variant]);
    rmSync(join(variant, '.git'), { recursive: true, force: true });
    writeFileSync(join(variant, 'part-1', 'page-3.md'), `---\ndescription: Page 1.3\n---\n\n# Page 1.3\n\nChanged in run ${i}.\n`);
    const cr = execFileSync('node', [bin, 'cr', 'create', space, '--format', 'ids'], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
    execFileSync('node', [bin, 'cr', 'import', space, cr, variant], { env: { ...process.env, ...env } });
    execFileSync('node', [bin, 'cr', 'merge', space, cr], { env: { ...process.env, ...env } });
    exported.push(time('node', [bin, 'git', 'export', space, url, '--ref', 'main', '-m', `Run ${i}`, '--force'], cache));
  }
  const clone = median(clones);
  const row = (label, values, target, against = clone, unit = 'git clone') => {
    const ratio = median(values) / against;
    console.log(`${label.padEnd(44)} ${median(values).toFixed(1).padStart(7)} ms   ${unit} ${against.toFixed(1).padStart(6)} ms   ${ratio.toFixed(2)}×${ratio <= target ? `  ok (target ≤ ${target}×)` : `  OVER target ≤ ${target}×`}`);
  };
  row('git import (first, cold cache)', first, 2);
  row('git import (unchanged, again)', again, 0.5, median(first), 'first import');
  row('git export (one page changed)', exported, 1);
}

/**
 * git-assets (--git-assets): a cold `git import` of an asset-heavy repository (3,000 pages,
 * 300 images of 100 KB–1 MB) against `git clone` of it, both over file://.
 */
async function gitAssetsBench() {
  const gitRuns = quick ? 2 : 3;
  const dir = join(work, 'git-assets');
  const { url } = makeRepository(dir, 3000, { count: 300, minBytes: 100 * 1024, maxBytes: 1024 * 1024 });
  console.log(`\ngit-assets: 3,000 pages and 300 images of 100 KB–1 MB (${gitRuns} runs; ratio to \`git clone\` of the same repository):`);
  const store = join(dir, 'store');
  const env = { DOCSCTL_STORE: store };
  execFileSync('node', [bin, 'init'], { env: { ...process.env, ...env }, stdio: 'ignore' });
  const first = [], clones = [];
  for (let i = 0; i < gitRuns; i++) {
    const space = execFileSync('node', [bin, 'space', 'create', '--title', `Assets ${i}`, '--format', 'ids'], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
    clones.push(time('git', ['clone', '-q', url, join(dir, `clone-${i}`)]));
    first.push(time('node', [bin, 'git', 'import', space, url, '--ref', 'main'], { ...env, DOCSCTL_GIT_CACHE: join(dir, `cache-${i}`) }));
    rmSync(join(dir, `clone-${i}`), { recursive: true, force: true });
    rmSync(join(dir, `cache-${i}`), { recursive: true, force: true });
  }
  const ratio = median(first) / median(clones);
  console.log(`${'git import (first, cold cache)'.padEnd(44)} ${median(first).toFixed(1).padStart(7)} ms   git clone ${median(clones).toFixed(1).padStart(6)} ms   ${ratio.toFixed(2)}×${ratio <= 2 ? '  ok (target ≤ 2×)' : '  OVER target ≤ 2×'}`);
}

try {
  console.log(`docsctl benchmarks — ${runs} paired runs each, ratios to node -e 0 (median of pairwise ratios)\n`);
  if (process.argv.includes('--sites')) await sitesBench(); // sites only (sitesBench)
  else if (process.argv.includes('--store-engine')) await storeEngineBench();
  else if (process.argv.includes('--content')) await contentBench();
  else if (process.argv.includes('--git-assets')) await gitAssetsBench();
  else if (process.argv.includes('--git-real')) await gitRealBench();
  else if (process.argv.includes('--git')) await gitBench();
  else if (process.argv.includes('--teams')) await (await import('./teams.mjs')).teamsBench({ bin, work, runs, generator, time, median });
  else if (process.argv.includes('--apply')) await (await import('./apply.mjs')).applyBench({ bin, work, runs });
  else if (process.argv.includes('--integration-events')) await (await import('./integration-events.mjs')).integrationEventsBench({ bin, work, runs, generator, time, median });
  else if (process.argv.includes('--serve-creates')) await runServeBench('serveCreatesBench');
  else if (process.argv.includes('--serve-import')) await (await import('./serve-import.mjs')).serveImportBench({ bin, work, quick, generator });
  else if (process.argv.includes('--serve')) await runServeBench();
  else if (process.argv.includes('--comments')) await (await import('./comments.mjs')).commentsBench({ bin, work, generator, paired });
  else if (process.argv.includes('--startup')) await startupBench();
  else if (process.argv.includes('--emulator')) await (await import('./emulator.mjs')).emulatorBench({ bin, work, paired, generator, generate });
  else await startAndStoreBenches();
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The store engine alone (bench/store-engine.ts): grouped creates at 0 and 3,000 spaces, and the fairness wait. */
async function storeEngineBench() {
  const script = await generator('store-engine');
  const engine = (...args) => execFileSync('node', [script, ...args.map(String)], { encoding: 'utf8' }).trim();
  console.log('store engine: space creates from 8 concurrent callers in one process (grouped commits):');
  const at = {};
  for (const preload of [0, 3000]) {
    const results = [];
    for (let i = 0; i < (quick ? 1 : 3); i++) results.push(JSON.parse(engine('creates', join(work, `engine-${preload}-${i}`), preload, 400, 8)));
    const perSecond = median(results.map((r) => r.perSecond));
    const bytes = median(results.map((r) => r.bytesPerCreate));
    at[preload] = { perSecond, bytes };
    console.log(`  at ${String(preload).padStart(5)} spaces: ${perSecond.toFixed(0).padStart(5)} creates/s, ${(bytes / 1024).toFixed(1).padStart(5)} KiB written per create (${results[0].commits} commits for 400 creates)`);
  }
  const speed = at[3000].perSecond / at[0].perSecond;
  const growth = at[3000].bytes / at[0].bytes;
  console.log(`  creates/s at 3,000 / at 0: ${speed.toFixed(2)} (target ≥ 0.8)${speed >= 0.8 ? '  ok' : '  UNDER'}; bytes at 3,000 / at 0: ${growth.toFixed(2)} (target ≤ 2, ≤ 64 KiB)${growth <= 2 && at[3000].bytes <= 65536 ? '  ok' : '  OVER'}`);
  const dir = join(work, 'engine-fair');
  engine('creates', dir, 100, 1, 1);
  const busy = spawn('node', [script, 'busy', dir, '20000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => busy.stdout.once('data', resolve));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const waits = [];
  for (let i = 0; i < 5; i++) waits.push(Number(engine('one', dir)));
  busy.kill('SIGKILL');
  const worst = Math.max(...waits);
  console.log(`  fairness: a second process's create while another keeps 16 in flight waits ${median(waits)} ms (median of 5), ${worst} ms at worst (target ≤ 2,000 ms)${worst <= 2000 ? '  ok' : '  OVER'}`);
}

async function gitRealBench() {
  await (await import('./git-real.mjs')).gitRealBench({ bin, work, quick, median });
}

async function runServeBench(part = 'serveBench') {
  const { [part]: bench } = await import('./serve.mjs');
  const script = await generator();
  await bench({ bin, work, quick, generator, generate: (dir, spaces, collections, writes) => generate(script, dir, spaces, collections, writes) });
}

/**
 * Start-up: the shim's fast path, the CLI's help, and one small read locally and remotely
 * (`space get` on a one-space store, then through `docsctl serve`): what any one-shot
 * command pays before doing its work.
 */
async function startupBench() {
  paired('docsctl --version', [bin, '--version'], {}, 1.3);
  paired('docsctl --help', [bin, '--help'], {}, 1.6);
  const dir = join(work, 'startup');
  const env = { DOCSCTL_STORE: dir, DOCSCTL_CONFIG_DIR: join(work, 'startup-config'), XDG_CACHE_HOME: join(work, 'startup-cache') };
  const run = (...args) => execFileSync('node', [bin, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  const { token } = JSON.parse(run('init', '--org', 'Bench', '--json'));
  const { id } = JSON.parse(run('space', 'create', '--title', 'Start-up', '--json'));
  paired('space get (local, 1 space)', [bin, 'space', 'get', id, '--json'], env, 2);
  const { startListening } = await import('./serve.mjs');
  const server = await startListening([bin, 'serve', '--port', '0'], env);
  try {
    const remote = { DOCSCTL_CONFIG_DIR: env.DOCSCTL_CONFIG_DIR, DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token };
    paired('space get (remote, against serve)', [bin, 'space', 'get', id, '--json'], remote, 2.5);
  } finally {
    await server.stop();
  }
}

async function startAndStoreBenches() {
  await startupBench();

  const script = await generator();
  console.log('\nstore of 1,000 spaces in 100 collections after 10,000 writes:');
  const small = join(work, 'small');
  const smallInfo = generate(script, small, 1000, 100, 10_000);
  const s = storeBench('1k spaces', small, smallInfo);
  await sitesBench();
  await contentBench();
  await gitBench();
  await gitRealBench();
  await (await import('./teams.mjs')).teamsBench({ bin, work, runs, generator, time, median });
  await (await import('./apply.mjs')).applyBench({ bin, work, runs });
  await (await import('./integration-events.mjs')).integrationEventsBench({ bin, work, runs, generator, time, median });
  await runServeBench();
  if (!quick) {
    console.log('\nstore 10x larger: 10,000 spaces in 1,000 collections after 100,000 writes:');
    const large = join(work, 'large');
    const largeInfo = generate(script, large, 10_000, 1000, 100_000);
    const l = storeBench('10k spaces', large, largeInfo);
    console.log(`\nflatness (10x store / 1x store): get ${(l.get / s.get).toFixed(2)}, edit ${(l.edit / s.edit).toFixed(2)} (1.00 = flat)`);
  }
}

/** `docsctl serve` on `store`; resolves with its URL and a stop function. */
function startServe(store) {
  const child = spawn('node', [bin, 'serve', '--port', '0'], { env: { ...process.env, DOCSCTL_STORE: store }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      const url = /http:\/\/[\d.:]+/.exec(String(chunk))?.[0];
      if (url) resolve({ url, stop: () => child.kill('SIGTERM') });
    });
  });
}

/** sites (--sites): site published / site tree of 50 sections × 4 variants × 200 pages, locally and against serve. */
async function sitesBench() {
  console.log('\nsites: one site of 50 sections × 4 variants, each space 200 pages:');
  const script = await generator('generate-sites');
  const dir = join(work, 'sites');
  const info = JSON.parse(execFileSync('node', [script, dir, '50', '4', '200'], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  console.log(`  generated ${info.spaces} spaces of ${info.pages} pages in ${info.seconds.toFixed(1)} s`);
  const local = { DOCSCTL_STORE: dir };
  paired('site published (local)', [bin, 'site', 'published', info.siteId], local, 3);
  paired('site tree (local)', [bin, 'site', 'tree', info.siteId], local, 3);
  const server = await startServe(dir);
  try {
    const remote = { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: info.token };
    paired('site published (against serve)', [bin, 'site', 'published', info.siteId], remote, 3);
    paired('site tree (against serve)', [bin, 'site', 'tree', info.siteId], remote, 3);
  } finally {
    server.stop();
  }
  // The same site where every space's content differs: every page of every space read from the packs.
  const distinctDir = join(work, 'sites-distinct');
  const distinct = JSON.parse(execFileSync('node', [script, distinctDir, '50', '4', '200', 'distinct'], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  console.log(`  generated ${distinct.spaces} spaces of distinct content (${distinct.pages} pages) in ${distinct.seconds.toFixed(1)} s`);
  paired('site tree (local, every space distinct)', [bin, 'site', 'tree', distinct.siteId], { DOCSCTL_STORE: distinctDir }, 3);
}
