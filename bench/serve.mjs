// serve benchmarks (npm run bench -- --serve): throughput of `docsctl serve` as ratios to a
// bare node:http server measured in the same run (bench/bare-server.mjs answering the same
// bytes), with wrk as the load generator (keep-alive, 10 connections; bench/load.mjs in its own
// process where wrk is not installed); then creates/s and bytes written per create through serve (8 connections) on an
// empty organization and at 3,000 spaces. Beside each throughput ratio, the CPU each process spent per request
// (/proc/<pid>/stat, Linux): on a machine shared with other work req/s follows the scheduler, CPU per request
// much less; the bare server is often limited by wrk, so its CPU ratio is lower than its req/s ratio.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;

/**
 * Starts a process that prints "Listening on URL"; resolves with its URL and a stop function.
 * BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") goes to that node process.
 */
export function startListening(args, env = {}) {
  const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  const child = spawn('node', [...nodeArgs, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk) => {
    err += chunk; if (process.env.TRACE) process.stderr.write(chunk);
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const match = /Listening on (http:\/\/\S+)/.exec(String(chunk));
      if (match) {
        resolve({
          url: match[1],
          pid: child.pid,
          stop: () =>
            new Promise((done) => {
              child.once('exit', done);
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}): ${err}`)));
  });
}

/** Whether wrk (a C load generator: apt-get install wrk) is on the PATH. */
const haveWrk = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return error.status === 1; // wrk --version prints its usage and exits 1
  }
})();

/** The load generator the figures come from (printed with them). */
export const loadGenerator = haveWrk ? 'wrk' : 'bench/load.mjs (wrk not installed)';

/**
 * One load run: wrk when installed (it does not share the CPU with a Node load generator's
 * event loop), else bench/load.mjs in its own process. Answers
 * { perSecond, requests, failed (answers ≥ 300), errors (socket errors) }.
 */
function load(spec) {
  return haveWrk ? wrkLoad(spec) : nodeLoad(spec);
}

function nodeLoad(spec) {
  const out = JSON.parse(execFileSync('node', [join(here, 'load.mjs'), JSON.stringify(spec)], { encoding: 'utf8' }));
  const failed = Object.entries(out.statuses).reduce((sum, [status, count]) => sum + (Number(status) >= 300 ? count : 0), 0);
  return { perSecond: out.perSecond, requests: out.requests, failed, errors: out.errors };
}

function wrkLoad(spec) {
  const script = join(tmpdir(), `docsctl-bench-wrk-${process.pid}.lua`);
  const headers = { ...(spec.token ? { authorization: `Bearer ${spec.token}` } : {}), ...(spec.body ? { 'content-type': 'application/json' } : {}) };
  const lua = [
    `wrk.method = ${JSON.stringify(spec.method ?? 'GET')}`,
    ...Object.entries(headers).map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`),
    ...(spec.body ? [`wrk.body = ${JSON.stringify(spec.body)}`] : []),
  ].join('\n');
  writeFileSync(script, `${lua}\n`);
  const seconds = Math.max(1, Math.round((spec.durationMs ?? 2000) / 1000));
  // A short warm-up run first, as load.mjs does (its answers are not counted).
  const warmOut = execFileSync('wrk', ['-t1', '--timeout', '10s', `-c${spec.connections ?? 10}`, '-d1s', '-s', script, spec.url], { encoding: 'utf8' });
  let out;
  try {
    out = execFileSync('wrk', ['-t1', '--timeout', '10s', `-c${spec.connections ?? 10}`, `-d${seconds}s`, '-s', script, spec.url], { encoding: 'utf8' });
  } finally {
    rmSync(script, { force: true });
  }
  const number = (re) => Number(re.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    perSecond: number(/Requests\/sec:\s+([\d.]+)/),
    requests: number(/(\d+) requests in/),
    warmup: Number(/(\d+) requests in/.exec(warmOut)?.[1] ?? 0),
    failed: number(/Non-2xx or 3xx responses: (\d+)/),
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

/**
 * CPU seconds a process has used so far (Linux: /proc/<pid>/stat utime + stime), undefined
 * elsewhere: CPU per request holds on a loaded machine, where req/s follows the scheduler.
 */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * `load` of `spec` against a server process, with the CPU it spent per request (µs) and the
 * bytes it wrote to storage per request, warm-up requests included (undefined where not measurable).
 */
function measured(spec, pid) {
  const before = cpuSeconds(pid);
  const writtenBefore = storageBytesWritten(pid);
  const result = load(spec);
  const after = cpuSeconds(pid);
  const writtenAfter = storageBytesWritten(pid);
  const all = result.requests + (result.warmup ?? 0);
  return {
    ...result,
    cpuPerRequest: before === undefined || after === undefined || result.requests === 0 ? undefined : ((after - before) * 1e6) / result.requests,
    bytesPerRequest: result.warmup === undefined || writtenBefore === undefined || writtenAfter === undefined || all === 0 ? undefined : (writtenAfter - writtenBefore) / all,
  };
}

/**
 * Throughput of one request against serve and against the bare server, alternating; the
 * median ratio, and the median ratio of CPU per request (bare / serve) where measurable.
 */
async function ratioRow(label, server, request, token, rounds, target) {
  const serveUrl = server.url;
  const sample = await fetch(serveUrl + request.path, {
    method: request.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    ...(request.body ? { body: request.body } : {}),
  });
  const bodyFile = join(request.work, `${label.replace(/\W+/g, '-')}.json`);
  writeFileSync(bodyFile, Buffer.from(await sample.arrayBuffer()));
  const bare = await startListening([join(here, 'bare-server.mjs'), bodyFile]);
  const served = [], plain = [], ratios = [], cpuRatios = [], written = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const spec = { method: request.method ?? 'GET', body: request.body, connections: 10, durationMs: request.durationMs };
      const a = measured({ ...spec, url: serveUrl + request.path, token }, server.pid);
      const b = measured({ ...spec, url: bare.url + request.path }, bare.pid);
      if (a.cpuPerRequest !== undefined && b.cpuPerRequest !== undefined) cpuRatios.push({ ratio: b.cpuPerRequest / a.cpuPerRequest, serve: a.cpuPerRequest, bare: b.cpuPerRequest });
      if (a.bytesPerRequest !== undefined) written.push(a.bytesPerRequest);
      if (a.failed > 0 || a.errors > 0) throw new Error(`${label}: serve answered ${a.failed} of ${a.requests} requests with an error status (${a.errors} socket errors)`);
      served.push(a.perSecond);
      plain.push(b.perSecond);
      ratios.push(a.perSecond / b.perSecond);
    }
  } finally {
    await bare.stop();
  }
  const ratio = median(ratios);
  const verdict = target === undefined ? '' : ratio >= target ? `  ok (target ≥ ${target}×)` : `  UNDER target ≥ ${target}×`;
  console.log(`${label.padEnd(44)} ${median(served).toFixed(0).padStart(7)} req/s   bare ${median(plain).toFixed(0).padStart(6)} req/s   ${ratio.toFixed(2)}×${verdict}`);
  if (cpuRatios.length > 0) {
    const cpu = median(cpuRatios.map((r) => r.ratio));
    const us = (key) => median(cpuRatios.map((r) => r[key])).toFixed(1);
    console.log(`${'  CPU per request (serve, bare)'.padEnd(44)} ${us('serve').padStart(7)} µs     bare ${us('bare').padStart(6)} µs     ${cpu.toFixed(2)}× (bare / serve)`);
  }
  // What a write costs the disk: its commit, and its share of checkpoints and repacks.
  if (request.method !== undefined && request.method !== 'GET' && written.length > 0) {
    console.log(`${'  bytes written per request (serve)'.padEnd(44)} ${(median(written) / 1024).toFixed(1).padStart(7)} KB`);
  }
  return ratio;
}

/** The organization's space count, through serve. */
async function spaceCount(url, info) {
  const response = await fetch(`${url}/v1/orgs/${info.organization}/spaces?limit=1`, { headers: { authorization: `Bearer ${info.token}` } });
  return (await response.json()).count;
}

/**
 * Bytes a process has had written to storage (Linux: /proc/<pid>/io write_bytes, its file
 * writes only, not its sockets); undefined where that is not available.
 */
function storageBytesWritten(pid) {
  try {
    const match = /^write_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates through serve for `durationMs` with 8 connections: creates/s and bytes written per
 * create (what serve wrote to its files, commits, checkpoints and repacks included; where
 * that is not measurable, how much the store grew).
 */
export async function createRun(bin, storeDir, info, durationMs) {
  const server = await startListening([bin, 'serve', '--port', '0'], { DOCSCTL_STORE: storeDir });
  try {
    const bytesBefore = bytesUnder(storeDir);
    const writtenBefore = storageBytesWritten(server.pid);
    const countBefore = await spaceCount(server.url, info);
    const cpuBefore = cpuSeconds(server.pid);
    const result = load({
      url: `${server.url}/v1/orgs/${info.organization}/spaces`,
      method: 'POST',
      token: info.token,
      body: '{"title":"Bench create"}',
      connections: 8,
      durationMs,
    });
    if (result.requests === 0 || result.failed > 0 || result.errors > 0) throw new Error(`creates through serve failed: ${JSON.stringify(result)}`);
    // Every create since `before` (the load's warm-up ones too) wrote bytes: divide by all of them.
    const cpuAfter = cpuSeconds(server.pid);
    const created = (await spaceCount(server.url, info)) - countBefore;
    const writtenAfter = storageBytesWritten(server.pid);
    const written = writtenBefore === undefined || writtenAfter === undefined ? bytesUnder(storeDir) - bytesBefore : writtenAfter - writtenBefore;
    // serve's CPU per create (µs; the count request above is one GET among thousands of creates).
    const cpuPerCreate = cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / created;
    return { perSecond: result.perSecond, bytesPerCreate: written / created, cpuPerCreate };
  } finally {
    await server.stop();
  }
}

/**
 * @param {{ bin: string, work: string, quick: boolean, generate: (dir: string, spaces: number, collections: number, writes: number) => any }} options
 */
export async function serveBench({ bin, work, quick, generate, generator }) {
  const rounds = quick ? 3 : 5;
  const durationMs = quick ? 1500 : 2500;
  console.log(`\nserve: throughput as ratios to a bare node:http server answering the same bytes (${loadGenerator}, ${rounds} alternating rounds, 10 connections):`);
  const dir = join(work, 'serve');
  const info = generate(dir, 1000, 100, 1100);
  const server = await startListening([bin, 'serve', '--port', '0'], { DOCSCTL_STORE: dir });
  try {
    const id = info.sample[Math.floor(info.sample.length / 2)];
    await ratioRow('serve read (GET /v1/spaces/{id})', server, { path: `/v1/spaces/${id}`, work, durationMs }, info.token, rounds, 0.6);
    await ratioRow('serve list (GET …/spaces?limit=20)', server, { path: `/v1/orgs/${info.organization}/spaces?limit=20`, work, durationMs }, info.token, rounds);
    await ratioRow('serve write (PATCH /v1/spaces/{id})', server, { path: `/v1/spaces/${id}`, method: 'PATCH', body: '{"title":"Bench write"}', work, durationMs }, info.token, rounds);
  } finally {
    await server.stop();
  }

  await serveCreatesBench({ bin, work, quick, generate });
  await (await import('./serve-import.mjs')).serveImportBench({ bin, work, quick, generator });
}

/**
 * Creates/s and bytes per create through serve at 0 and 3,000 spaces (also alone: npm run
 * bench -- --serve-creates). Creates wait on fsync, whose latency on a shared disk swings
 * two-fold from one second to the next: the two sizes run in alternating rounds (each on a
 * fresh copy of its store, the order swapped every round), and the ratio is the median of
 * the rounds' ratios.
 */
export async function serveCreatesBench({ bin, work, quick, generate }) {
  const durationMs = quick ? 1500 : 2500;
  const rounds = quick ? 3 : 5;
  console.log(`\nserve: space creates (8 connections) on an empty organization and at 3,000 spaces (${rounds} alternating rounds):`);
  const empty = { dir: join(work, 'serve-empty'), runs: [] };
  const large = { dir: join(work, 'serve-3000'), runs: [] };
  empty.info = generate(empty.dir, 0, 0, 1);
  large.info = generate(large.dir, 3000, 0, 3001);
  const runOn = async (size) => {
    const copy = `${size.dir}-run`;
    rmSync(copy, { recursive: true, force: true });
    cpSync(size.dir, copy, { recursive: true });
    const result = await createRun(bin, copy, size.info, durationMs * 2);
    rmSync(copy, { recursive: true, force: true });
    size.runs.push(result);
    return result;
  };
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    const [first, second] = round % 2 === 0 ? [empty, large] : [large, empty];
    await runOn(first);
    await runOn(second);
    ratios.push(large.runs[round].perSecond / empty.runs[round].perSecond);
  }
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const row = (label, size) => {
    const perSecond = median(size.runs.map((run) => run.perSecond));
    const bytes = median(size.runs.map((run) => run.bytesPerCreate));
    const cpu = size.runs.every((run) => run.cpuPerCreate !== undefined) ? `   serve CPU/create ${median(size.runs.map((run) => run.cpuPerCreate)).toFixed(0)} µs` : '';
    console.log(`${label.padEnd(44)} ${perSecond.toFixed(0).padStart(7)}/s   bytes/create ${kb(bytes)}${cpu}   (rounds: ${size.runs.map((run) => run.perSecond.toFixed(0)).join(', ')})`);
    return bytes;
  };
  const emptyBytes = row('creates/s (empty org)', empty);
  const largeBytes = row('creates/s (3,000 spaces)', large);
  const rate = median(ratios);
  const growth = largeBytes / emptyBytes;
  const verdict = rate >= 0.8 && growth <= 2 && largeBytes <= 64 * 1024 ? 'ok' : 'UNDER target';
  console.log(`  at 3,000 / empty: creates/s ${rate.toFixed(2)}× (median of ${ratios.map((r) => r.toFixed(2)).join(', ')}; target ≥ 0.8×), bytes/create ${growth.toFixed(2)}× (target ≤ 2× and ≤ 64 KB)  ${verdict}`);
}
