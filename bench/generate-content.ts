/**
 * Generates the content benchmark store: one space of ~5,000 pages (50 × 10 × 9,
 * with Markdown bodies) and CRS change requests, each editing 10 different pages.
 * Usage (bundled by bench/run.mjs): node generate-content.mjs DIR CRS
 * Prints JSON: {spaceId, crs: [numbers], pageId, pages, seconds}.
 */
import type { ContentPage } from '../src/content-model/model.js';
import { type ChangeRequestRecord, getChangeRequest, newRevisionRecord, putChangeRequest } from '../src/domain/content/change-request-records.js';
import { loadTree, saveTree } from '../src/domain/content/storage.js';
import { type SpaceRecord, getRevision, getSpace, putSpace } from '../src/domain/core-records.js';
import { benchStore } from './bench-store.js';
import { benchContentTree } from './content-tree.js';

const [dir, crsArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: generate-content DIR CRS');
const crs = Number(crsArg ?? 21);
const started = Date.now();
const { store, ids, clock, organization, run } = await benchStore(dir);
const { tree, leaves, pages: n } = benchContentTree();

const space = await run('createSpace', { params: { organizationId: organization.id }, body: { title: 'Big space' } });
const spaceId = space.id as string;
await store.transact((tx) => {
  const current = getSpace(tx, spaceId) as SpaceRecord;
  const content = saveTree(tx, tree);
  const id = ids();
  newRevisionRecord(tx, { id, space: spaceId, type: 'edits', parents: [current.revision], createdAt: clock().toISOString(), content });
  putSpace(tx, { ...current, revision: id });
});

const numbers: number[] = [];
for (let k = 0; k < crs; k++) {
  const cr = await run('createChangeRequest', { params: { spaceId }, body: { subject: `Edit batch ${k}` } });
  numbers.push(cr.number as number);
  await store.transact((tx) => {
    const record = getChangeRequest(tx, spaceId, cr.id as string) as ChangeRequestRecord;
    const revision = getRevision(tx, spaceId, record.revision);
    if (!revision) throw new Error('no revision');
    const content = loadTree(tx, revision);
    const byId = new Map<string, ContentPage>();
    const index = (pages: ContentPage[]) => pages.forEach((p) => (byId.set(p.id, p), index(p.pages)));
    index(content.pages);
    for (let i = 0; i < 10; i++) {
      const target = byId.get((leaves[(k * 10 + i) % leaves.length] as ContentPage).id) as ContentPage;
      target.markdown = `${target.markdown}\nEdited in batch ${k}.\n`;
    }
    const saved = saveTree(tx, content, [content]);
    const id = ids();
    newRevisionRecord(tx, { id, space: spaceId, type: 'edits', parents: [record.revision], createdAt: clock().toISOString(), content: saved });
    putChangeRequest(tx, { ...record, revision: id });
  });
}
await store.close();
process.stdout.write(
  `${JSON.stringify({ spaceId, crs: numbers, pageId: (leaves[2500] as ContentPage).id, pages: n, seconds: (Date.now() - started) / 1000 })}\n`,
);
