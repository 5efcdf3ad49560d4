/**
 * Generates the sites benchmark store: SECTIONS sections × VARIANTS variants, each
 * variant a space of PAGES pages (10 parts × 20 pages, Markdown bodies), in one
 * premium site, published. The spaces share one content tree (content-addressed,
 * so it is stored once) but are read one by one like any other; with `distinct`, every
 * space has content of its own (same shape, its own words: nothing shared to cache).
 * Usage (bundled by bench/run.mjs): node generate-sites.mjs DIR SECTIONS VARIANTS PAGES [distinct]
 * Prints JSON: {siteId, token, spaces, pages, seconds}.
 */
import type { ContentPage, ContentTree } from '../src/content-model/model.js';
import { newRevisionRecord } from '../src/domain/content/change-request-records.js';
import { saveTree } from '../src/domain/content/storage.js';
import { type SpaceRecord, getSpace, putSpace } from '../src/domain/core-records.js';
import { benchStore } from './bench-store.js';

const [dir, sectionsArg, variantsArg, pagesArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: generate-sites DIR SECTIONS VARIANTS PAGES');
const sections = Number(sectionsArg ?? 50);
const variants = Number(variantsArg ?? 4);
const pages = Number(pagesArg ?? 200);
const distinct = process.argv[6] === 'distinct';
const started = Date.now();
const { store, ids, clock, organization, token, run } = await benchStore(dir);
let n = 0;
const page = (title: string, about: string, children: ContentPage[] = []): ContentPage => ({
  // Page ids as docsctl makes them (20 characters): V8 interns every JSON string of 10 characters
  // or fewer, so 6-character ids (p00001, before 2026-11-29) made reads cost what no store does.
  id: (n++, ids()),
  type: 'document',
  title,
  slug: title.toLowerCase().replace(/\W+/g, '-'),
  markdown: `# ${title}\n\nSome text about ${title}${about}.\n`,
  pages: children,
});
const perPart = Math.max(1, Math.floor(pages / 10) - 1);
const treeOf = (about: string): ContentTree => ({
  pages: Array.from({ length: 10 }, (_, a) => page(`Part ${a}`, about, Array.from({ length: perPart }, (_, b) => page(`Page ${a}.${b}`, about)))),
  files: [],
});
const tree = treeOf('');
// Saved by the first space's transaction, whose revision refers to it (StoreWriter.putObject:
// an object no row of its transaction refers to may be dropped by a checkpoint before it is used).
let content: string | undefined;

const org = { organizationId: organization.id };
const site = await run('createSite', { params: org, body: { title: 'Bench site', type: 'premium' } });
const p = { ...org, siteId: site.id as string };
let spaces = 0;
for (let s = 0; s < sections; s++) {
  for (let v = 0; v < variants; v++) {
    const space = await run('createSpace', { params: org, body: { title: `Product ${s} v${v}` } });
    spaces++;
    await store.transact((tx) => {
      const current = getSpace(tx, space.id as string) as SpaceRecord;
      const id = ids();
      const own = distinct ? saveTree(tx, treeOf(` in ${current.title}`)) : (content ??= saveTree(tx, tree));
      newRevisionRecord(tx, { id, space: current.id, type: 'edits', parents: [current.revision], createdAt: clock().toISOString(), content: own });
      putSpace(tx, { ...current, revision: id });
    });
    if (v === 0) {
      const section = await run('addSectionToSite', { params: p, body: { spaceId: space.id, title: `Product ${s}` } });
      (p as Record<string, unknown>).last = section.id;
    } else {
      await run('addSpaceToSite', { params: p, body: { spaceId: space.id, sectionId: (p as Record<string, unknown>).last } });
    }
  }
}
await run('publishSite', { params: { organizationId: p.organizationId, siteId: p.siteId } });
await store.close();
process.stdout.write(`${JSON.stringify({ siteId: p.siteId, token, spaces, pages: n, seconds: (Date.now() - started) / 1000 })}\n`);
