/**
 * Generates a benchmark store: an organization with `collections` collections
 * and `spaces` spaces spread over them, then edits until `writes` commits in all.
 * Usage (bundled by bench/run.mjs): node generate.mjs DIR SPACES COLLECTIONS WRITES
 * Prints JSON: {sample: [...space ids...], commits, seconds, token, organization}.
 */
import { getRoute } from '../src/api/table.js';
import { bootstrap } from '../src/domain/bootstrap.js';
import { executeOperation } from '../src/domain/execute.js';
import { createStore } from '../src/store/index.js';
import { systemClock } from '../src/util/clock.js';
import { timeOrderedIds } from '../src/util/ids.js';
import type { RouteId } from '../src/api/route-id.js';

const [dir, spacesArg, collectionsArg, writesArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: generate DIR SPACES COLLECTIONS WRITES');
const spaces = Number(spacesArg ?? 1000);
const collections = Number(collectionsArg ?? 100);
const writes = Number(writesArg ?? 10_000);

const started = Date.now();
// Bulk generation skips fsync (a benchmark fixture, not user data); the measured commands do fsync.
const store = createStore(dir, { durable: false });
const ids = timeOrderedIds();
const clock = systemClock;
const origin = 'http://127.0.0.1:4000';
const { user, organization, token } = await store.transact((tx) =>
  bootstrap(tx, { organizationTitle: 'Bench', userName: 'Bench', email: 'bench@example.com', clock, ids, origin }),
);
const env = { store, actor: { userId: user.id }, clock, ids, origin };
const run = (id: RouteId, input: object) => executeOperation(env, getRoute(id), input);

let commits = 1;
const collectionIds: string[] = [];
for (let i = 0; i < collections; i++, commits++) {
  const { body } = await run('createCollection', { params: { organizationId: organization.id }, body: { title: `Collection ${i}` } });
  collectionIds.push((body as { id: string }).id);
}
const spaceIds: string[] = [];
for (let i = 0; i < spaces; i++, commits++) {
  const parent = collectionIds[i % collectionIds.length];
  const { body } = await run('createSpace', {
    params: { organizationId: organization.id },
    body: { title: `Space ${i}`, ...(parent ? { parent } : {}) },
  });
  spaceIds.push((body as { id: string }).id);
}
for (let i = 0; commits < writes; i++, commits++) {
  const spaceId = spaceIds[i % spaceIds.length] as string;
  await run('updateSpaceById', { params: { spaceId }, body: { title: `Space ${i % spaceIds.length} v${i}` } });
}
await store.close();
process.stdout.write(
  `${JSON.stringify({ sample: spaceIds.filter((_, i) => i % Math.ceil(spaceIds.length / 20) === 0), commits, seconds: (Date.now() - started) / 1000, token, organization: organization.id })}\n`,
);
