/** Content on the durable JSON-file store: survives reopening; fsck is clean; gc keeps every content object. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getRoute } from '../../../src/api/table.js';
import type { RawInput } from '../../../src/api/validate.js';
import { bootstrap } from '../../../src/domain/bootstrap.js';
import { saveTree } from '../../../src/domain/content/storage.js';
import { executeOperation } from '../../../src/domain/execute.js';
import { getRevision, getSpace, putRevision } from '../../../src/domain/core-records.js';
import { createStore, fsck, gc, openStore } from '../../../src/store/index.js';
import type { Store } from '../../../src/store/types.js';
import { manualClock } from '../../../src/util/clock.js';
import { sequentialIds } from '../../../src/util/ids.js';
import { ORIGIN, doc } from './helpers.js';
import type { RouteId } from '../../../src/api/route-id.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('content on JsonFileStore', () => {
  it('merges a change request, reopens, and keeps every object through fsck and gc', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-content-store-'));
    dirs.push(dir);
    const clock = manualClock();
    const ids = sequentialIds();
    let store: Store = createStore(dir);
    const boot = await store.transact((tx) =>
      bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@acme.test', clock, ids, origin: ORIGIN }),
    );
    const call = async <T>(id: RouteId, raw: RawInput) =>
      (await executeOperation({ store, actor: { userId: boot.user.id }, clock, ids, origin: ORIGIN }, getRoute(id), raw)).body as T;
    const space = await call<{ id: string }>('createSpace', { params: { organizationId: boot.organization.id }, body: { title: 'Docs' } });
    await store.transact((tx) => {
      const record = getSpace(tx, space.id);
      const revision = record && getRevision(tx, space.id, record.revision);
      if (!revision) throw new Error('no revision');
      const content = saveTree(tx, { pages: [doc('a', 'A', 'one\ntwo\n'), doc('b', 'B', 'three\n')], files: [] });
      putRevision(tx, { ...revision, ...(content ? { content } : {}) });
    });
    const cr = await call<{ id: string }>('createChangeRequest', { params: { spaceId: space.id }, body: { subject: 'x' } });
    const merged = await call<{ result: string }>('mergeChangeRequest', { params: { spaceId: space.id, changeRequestId: cr.id } });
    expect(merged.result).toBe('merge');
    await store.close();
    store = openStore(dir);
    const page = await call<{ markdown: string }>('getPageById', { params: { spaceId: space.id, pageId: 'b' } });
    expect(page.markdown).toBe('three\n');
    await store.close();
    expect((await fsck(dir)).problems).toEqual([]);
    await gc(dir, { keepCommits: 1, minAgeMs: 0 });
    expect((await fsck(dir)).problems).toEqual([]);
    store = openStore(dir);
    const pages = await call<{ pages: Array<{ id: string }> }>('listPages', { params: { spaceId: space.id } });
    expect(pages.pages.map((p) => p.id)).toEqual(['a', 'b']);
    await store.close();
  });
});
