// `docsctl diff -f` planning benchmark (npm run bench -- --apply): an unchanged organization of
// 1,000 spaces in 20 collections, 100 teams of 20 and 2,000 members, made with `docsctl apply`
// itself and exported with `docsctl export org` (YAML and JSON); the plan's CPU (user + sys, from
// /usr/bin/time) as a ratio to `docsctl space list` on the same store, pairs alternated, locally
// and against `docsctl serve`. Target ≤ 3× (issue 22: one read per list, not one per object).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The organization file: MEMBERS members, COLLECTIONS collections holding SPACES spaces, TEAMS teams of TEAM_SIZE. */
export function benchOrganization({ members = 2000, collections = 20, spaces = 1000, teams = 100, teamSize = 20 } = {}) {
  const emails = Array.from({ length: members }, (_, i) => `user${String(i).padStart(5, '0')}@bench.example`);
  return {
    members: emails.map((email, i) => ({ email, role: i % 10 === 0 ? 'edit' : 'read' })),
    collections: Array.from({ length: collections }, (_, c) => ({ title: `Collection ${c}` })),
    spaces: Array.from({ length: spaces }, (_, s) => ({ title: `Space ${s}`, parent: `Collection ${s % collections}` })),
    teams: Array.from({ length: teams }, (_, t) => ({ title: `Team ${t}`, members: emails.slice((t * teamSize) % members, ((t * teamSize) % members) + teamSize) })),
  };
}

/** CPU seconds (user + sys) of one run of node BIN ARGS. */
function cpu(args, env) {
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S', 'node', ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.status !== 0) throw new Error(`docsctl ${args.slice(1).join(' ')} failed (${result.status}): ${result.stderr.slice(-500)}`);
  const [user, sys] = result.stderr.trim().split('\n').pop().split(' ').map(Number);
  return user + sys;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** @param {{ bin: string, work: string, runs: number }} h */
export async function applyBench({ bin, work, runs }) {
  console.log('\napply planning: diff -f on an unchanged organization of 1,000 spaces / 20 collections, 100 teams of 20, 2,000 members (CPU vs space list):');
  const dir = join(work, 'apply');
  mkdirSync(dir, { recursive: true });
  const env = { HOME: dir, DOCSCTL_CONFIG_DIR: join(dir, 'config'), DOCSCTL_STORE: join(dir, 'store') };
  const run = (args, extra = env) => execFileSync('node', [bin, ...args], { env: { ...process.env, ...extra }, encoding: 'utf8', maxBuffer: 1 << 28 });
  const { token } = JSON.parse(run(['init', '--org', 'Bench', '--json']));
  const source = join(dir, 'source.json');
  writeFileSync(source, JSON.stringify(benchOrganization()));
  const started = Date.now();
  run(['apply', '-f', source]);
  console.log(`  applied in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const yaml = join(dir, 'org.yaml');
  const json = join(dir, 'org.json');
  run(['export', 'org', '-o', yaml]);
  run(['export', 'org', '-o', json]);

  const measure = (label, file, extra) => {
    const ratios = [], plan = [], list = [];
    for (let i = 0; i < runs; i++) {
      const a = cpu([bin, 'diff', '-f', file], extra);
      const b = cpu([bin, 'space', 'list'], extra);
      plan.push(a); list.push(b); ratios.push(a / b);
    }
    const ratio = median(ratios);
    console.log(`${label.padEnd(44)} ${(median(plan) * 1000).toFixed(0).padStart(6)} ms CPU   space list ${(median(list) * 1000).toFixed(0).padStart(5)} ms   ${ratio.toFixed(2)}×${ratio <= 3 ? '  ok (target ≤ 3×)' : '  OVER target ≤ 3×'}`);
  };
  measure('diff -f org.json (local)', json, env);
  measure('diff -f org.yaml (local)', yaml, env);
  const { startListening } = await import('./serve.mjs');
  const server = await startListening([bin, 'serve', '--port', '0'], env);
  try {
    const remote = { HOME: dir, DOCSCTL_CONFIG_DIR: env.DOCSCTL_CONFIG_DIR, DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token };
    measure('diff -f org.json (against serve)', json, remote);
    measure('diff -f org.yaml (against serve)', yaml, remote);
  } finally {
    await server.stop();
  }
}
