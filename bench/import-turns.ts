/**
 * The longest turn of the event loop during a big import through `serve` on a file store, as a
 * share of the import's CPU time (issue 21: an import must leave room for other clients between
 * small slices of its work). CPU, not wall, so the figure does not depend on other processes.
 * test/server/import-slices.test.ts checks by counting that every phase pauses for every page;
 * this measures how big the slices between those pauses really are.
 * Usage (bundled by bench/run.mjs): node import-turns.mjs DIR ZIP PAGES
 * Prints JSON: {longestMs, totalMs, share, turns}.
 */
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bootstrap } from '../src/domain/bootstrap.js';
import { servePolicy } from '../src/domain/policy.js';
import { startServer } from '../src/server/server.js';
import { createStore } from '../src/store/index.js';
import { systemClock } from '../src/util/clock.js';
import { randomIds } from '../src/util/ids.js';

const [dir, zip, pagesArg] = process.argv.slice(2);
if (!dir || !zip) throw new Error('usage: import-turns DIR ZIP PAGES');
const pages = Number(pagesArg);

const store = createStore(join(dir, 'store'));
const clock = systemClock;
const ids = randomIds();
const { token, organization } = await store.transact((tx) =>
  bootstrap(tx, { organizationTitle: 'Bench', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://x' }),
);
const policy = await servePolicy({ allowLocal: [dirname(zip)] });
const server = await startServer({ store, clock, ids, port: 0, policy });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
try {
  const created = await fetch(`${server.url}/v1/orgs/${organization.id}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Manual' }) });
  const space = (await created.json()) as { id: string };
  let importing = true;
  let longest = 0;
  let turns = 0;
  let last = process.cpuUsage();
  const tick = (): void => {
    const used = process.cpuUsage(last);
    last = process.cpuUsage();
    longest = Math.max(longest, used.user + used.system);
    turns += 1;
    if (importing) setImmediate(tick);
  };
  const before = process.cpuUsage();
  setImmediate(tick);
  const res = await fetch(`${server.url}/v1/spaces/${space.id}/content/import`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: pathToFileURL(zip).href, source: 'zip' }),
  });
  importing = false;
  const spent = process.cpuUsage(before);
  const body = (await res.json()) as { totalResources?: number };
  if (res.status !== 201 || body.totalResources !== pages + 1) throw new Error(`import answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  const total = spent.user + spent.system;
  process.stdout.write(JSON.stringify({ longestMs: longest / 1000, totalMs: total / 1000, share: longest / total, turns }));
} finally {
  await server.close();
  await store.close();
}
