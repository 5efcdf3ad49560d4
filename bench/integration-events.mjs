// Integration events (npm run bench -- --integration-events): listing the newest page and
// appending one event, with 10 events (1×) and 10,000 (1,000×, the cap an integration keeps),
// through the binary on a file store; wall time as a ratio to `node -e 0`, and the 1,000×/1×
// ratio (1.00 = flat: a listing reads its page, an append a few rows, whatever the count).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** @param {{ bin: string, work: string, runs: number, generator: (name: string) => Promise<string>, time: Function, median: Function }} h */
export async function integrationEventsBench({ bin, work, runs, generator, time, median }) {
  console.log('\nintegration events: newest page of 50, and one append, at 10 and 10,000 events:');
  const script = await generator('generate-events');
  const results = {};
  for (const count of [10, 10_000]) {
    const dir = join(work, `events-${count}`);
    const info = JSON.parse(execFileSync('node', [script, dir, String(count)], { encoding: 'utf8', maxBuffer: 1 << 26 }));
    const env = { DOCSCTL_STORE: join(dir, 'store') };
    const measure = (label, args) => {
      const a = [], b = [], ratios = [];
      for (let i = 0; i < runs; i++) {
        const ms = time('node', [bin, ...args], env);
        const base = time('node', ['-e', '0']);
        a.push(ms); b.push(base); ratios.push(ms / base);
      }
      console.log(`${`${label} (${count.toLocaleString('en')} events)`.padEnd(44)} ${median(a).toFixed(1).padStart(7)} ms   node -e 0 ${median(b).toFixed(1).padStart(6)} ms   ${median(ratios).toFixed(2)}×`);
      return median(ratios);
    };
    results[count] = {
      list: measure('integration events --limit 50', ['integration', 'events', 'notify', '--limit', '50', '--json']),
      append: measure('integration task (one event)', ['integration', 'task', 'notify', '--task', '{"n":1}']),
    };
    console.log(`  generated ${count} events in ${info.seconds.toFixed(1)} s`);
  }
  const flat = (key) => (results[10_000][key] / results[10][key]).toFixed(2);
  console.log(`  flatness (10,000 / 10 events): list ${flat('list')}, append ${flat('append')} (1.00 = flat)`);
}
