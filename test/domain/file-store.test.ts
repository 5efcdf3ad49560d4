/**
 * The same handlers on the durable JSON-file store: a short tour of the slice
 * (keys with `/` and `:`, lists, soft delete and restore) survives reopening.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getRoute } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { executeOperation } from '../../src/domain/execute.js';
import { orgMemberList } from '../../src/domain/core-records.js';
import { createStore, openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { ORIGIN } from './harness.js';
import type { RouteId } from '../../src/api/route-id.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('domain on JsonFileStore', () => {
  it('runs the slice and reads it back after reopening', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-domain-'));
    dirs.push(dir);
    const clock = manualClock();
    const ids = sequentialIds();
    let store: Store = createStore(dir);
    const boot = await store.transact((tx) =>
      bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@acme.test', clock, ids, origin: ORIGIN }),
    );
    const call = async (id: RouteId, raw: RawInput) =>
      (await executeOperation({ store, actor: { userId: boot.user.id }, clock, ids, origin: ORIGIN }, getRoute(id), raw)).body as {
        id: string;
      };
    const org = { params: { organizationId: boot.organization.id } };
    const c = await call('createCollection', { ...org, body: { title: 'Guides' } });
    const s = await call('createSpace', { ...org, body: { title: 'Setup', parent: c.id } });
    const d = await call('duplicateSpace', { params: { spaceId: s.id } });
    await call('deleteSpaceById', { params: { spaceId: s.id } });
    await call('restoreSpace', { params: { spaceId: s.id } });
    await call('inviteUsersToOrganization', { ...org, body: { emails: ['bob@acme.test'] } });
    await store.close();

    store = openStore(dir);
    try {
      const list = (await call('listSpacesInCollectionById', { params: { collectionId: c.id } })) as unknown as {
        items: Array<{ id: string }>;
      };
      expect(list.items.map((x) => x.id)).toEqual([d.id, s.id]);
      expect(orgMemberList.count(store.read(), boot.organization.id)).toBe(2);
    } finally {
      await store.close();
    }
  });
});
