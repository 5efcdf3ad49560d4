// `team members sync` benchmark (npm run bench -- --teams): a 2,000-line file against a team
// of 2,000 members in an organization of 10,000, 100 changes per run (two files applied
// alternately), locally and against `docsctl serve`; wall time as a ratio to `node -e 0`.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** @param {{ bin: string, work: string, runs: number, generator: (name: string) => Promise<string>, time: Function, median: Function }} h */
export async function teamsBench({ bin, work, runs, generator, time, median }) {
  console.log('\nteam members sync: 2,000-line file, team of 2,000, organization of 10,000, 100 changes per run:');
  const script = await generator('generate-teams');
  const dir = join(work, 'teams');
  const info = JSON.parse(execFileSync('node', [script, dir, '10000', '2000'], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  console.log(`  generated in ${info.seconds.toFixed(1)} s`);
  const store = join(dir, 'store');
  const measure = (label, env) => {
    const a = [], b = [], ratios = [];
    for (let i = 0; i < runs; i++) {
      const file = info.files[(i + 1) % 2]; // the store starts as file A: the first run applies B
      const ms = time('node', [bin, 'team', 'members', 'sync', info.teamId, '--file', file, '--org', info.organizationId, '--json'], env);
      const base = time('node', ['-e', '0']);
      a.push(ms); b.push(base); ratios.push(ms / base);
    }
    if (runs % 2 === 1) time('node', [bin, 'team', 'members', 'sync', info.teamId, '--file', info.files[0], '--org', info.organizationId], env);
    const ratio = median(ratios);
    console.log(`${label.padEnd(44)} ${median(a).toFixed(1).padStart(7)} ms   node -e 0 ${median(b).toFixed(1).padStart(6)} ms   ${ratio.toFixed(2)}×${ratio <= 4 ? '  ok (target ≤ 4×)' : '  OVER target ≤ 4×'}`);
  };
  measure('team members sync (local)', { DOCSCTL_STORE: store });

  const server = spawn('node', [bin, 'serve', '--port', '0'], { env: { ...process.env, DOCSCTL_STORE: store }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((resolve, reject) => {
      server.stdout.on('data', (chunk) => {
        const match = /Listening on (http:\/\/\S+)/.exec(String(chunk));
        if (match) resolve(match[1]);
      });
      server.on('exit', () => reject(new Error('serve exited early')));
    });
    const env = { DOCSCTL_ENDPOINT: url, DOCSCTL_TOKEN: info.token };
    // One batch request per sync: count the requests of one run in the --debug log.
    const debug = spawnSync('node', [bin, '--debug', 'team', 'members', 'sync', info.teamId, '--file', info.files[1], '--org', info.organizationId], { env: { ...process.env, ...env }, encoding: 'utf8' });
    const requests = debug.stderr.split('\n').filter((line) => /^\[debug\] → (GET|PUT|POST|PATCH|DELETE) /.test(line));
    console.log(`  requests of one remote sync: ${requests.map((line) => line.split(' ')[2]).join(', ')} (${requests.filter((l) => / PUT /.test(l)).length} batch)`);
    time('node', [bin, 'team', 'members', 'sync', info.teamId, '--file', info.files[0], '--org', info.organizationId], env);
    measure('team members sync (against serve)', env);
  } finally {
    server.kill('SIGTERM');
  }
}
