/**
 * Generates a benchmark store: an organization with `collections` collections
 * and `spaces` spaces spread over them, then edits until `writes` commits in all.
 * Usage (bundled by bench/run.mjs): node generate.mjs DIR SPACES COLLECTIONS WRITES
 * Prints JSON: {sample: [...space ids...], commits, seconds, token, organization}.
 */
import { benchStore } from './bench-store.js';

const [dir, spacesArg, collectionsArg, writesArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: generate DIR SPACES COLLECTIONS WRITES');
const spaces = Number(spacesArg ?? 1000);
const collections = Number(collectionsArg ?? 100);
const writes = Number(writesArg ?? 10_000);

const started = Date.now();
const { store, organization, token, run } = await benchStore(dir);

let commits = 1;
const collectionIds: string[] = [];
for (let i = 0; i < collections; i++, commits++) {
  const body = await run('createCollection', { params: { organizationId: organization.id }, body: { title: `Collection ${i}` } });
  collectionIds.push(body.id as string);
}
const spaceIds: string[] = [];
for (let i = 0; i < spaces; i++, commits++) {
  const parent = collectionIds[i % collectionIds.length];
  const body = await run('createSpace', {
    params: { organizationId: organization.id },
    body: { title: `Space ${i}`, ...(parent ? { parent } : {}) },
  });
  spaceIds.push(body.id as string);
}
for (let i = 0; commits < writes; i++, commits++) {
  const spaceId = spaceIds[i % spaceIds.length] as string;
  await run('updateSpaceById', { params: { spaceId }, body: { title: `Space ${i % spaceIds.length} v${i}` } });
}
await store.close();
process.stdout.write(
  `${JSON.stringify({ sample: spaceIds.filter((_, i) => i % Math.ceil(spaceIds.length / 20) === 0), commits, seconds: (Date.now() - started) / 1000, token, organization: organization.id })}\n`,
);
