/**
 * A Git import into the file store writes its pages and files ahead of its transaction
 * (staged, outside the lock) and plans its search index there too; the memory store
 * does both in the transaction. Both must give the same content and the same index,
 * for a first import (index built from nothing) and a re-import changing, adding and
 * removing pages (index updated from the one before).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteId } from '../../src/api/route-id.js';
import { getRoute } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { type RevisionRecord, type SpaceRecord, getRevision, getSpace } from '../../src/domain/core-records.js';
import { fileDataHashes, loadTree } from '../../src/domain/content/storage.js';
import { knownBlob } from '../../src/domain/git/state.js';
import { gitBlobOid } from '../../src/gitsync/blob.js';
import { executeOperation } from '../../src/domain/execute.js';
import { createStore, fsck } from '../../src/store/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { Store } from '../../src/store/types.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { ORIGIN } from '../domain/content/helpers.js';
import { gitbookExport } from '../gitsync/fixtures.js';
import { isolateGit, makeRemote, type TestRemote } from './helpers.js';

let env: ReturnType<typeof isolateGit>;
let remote: TestRemote;
let storeDir: string;
beforeAll(() => {
  env = isolateGit();
  remote = makeRemote(gitbookExport());
  storeDir = mkdtempSync(path.join(os.tmpdir(), 'docsctl-staged-import-'));
});
afterAll(() => {
  remote.cleanup();
  env.cleanup();
  rmSync(storeDir, { recursive: true, force: true });
});

/** Bytes of a store's pack files. */
function packBytes(dir: string): number {
  const packs = path.join(dir, 'packs');
  return readdirSync(packs).reduce((sum, name) => sum + statSync(path.join(packs, name)).size, 0);
}

/** A store with a space, and a function that imports the remote's main into it; what the store then holds. */
async function importer(store: Store) {
  const clock = manualClock();
  const ids = sequentialIds();
  const boot = await store.transact((tx) => bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@acme.test', clock, ids, origin: ORIGIN }));
  const call = (id: RouteId, raw: RawInput) => executeOperation({ store, actor: { userId: boot.user.id }, clock, ids, origin: ORIGIN }, getRoute(id), raw);
  const space = (await call('createSpace', { params: { organizationId: boot.organization.id }, body: { title: 'Docs' } })).body as { id: string };
  return async () => {
    expect((await call('importGitRepository', { params: { spaceId: space.id }, body: { url: remote.url, ref: 'refs/heads/main', force: true } })).status).toBe(204);
    const reader = store.read();
    const record = getSpace(reader, space.id);
    return {
      content: getRevision(reader, space.id, record?.revision as string)?.content,
      index: reader.scan('searchIndex', { prefix: `${space.id}/` }),
      state: reader.get<{ pages: number }>('searchIndex.state', space.id)?.pages,
    };
  };
}

describe('a Git import staged ahead of its transaction', () => {
  it('gives the content and the search index the in-transaction import gives, first and again', async () => {
    // An image big enough to see in the packs (pseudo-random: it does not compress).
    const big = new Uint8Array(256 * 1024).map((_, i) => (Math.imul(i, 2654435761) >>> 24) & 255);
    remote.commit({ '.gitbook/assets/big.png': big, 'getting-started/big.md': '# Big\n\n![big](../.gitbook/assets/big.png)\n' });
    const staged = createStore(path.join(storeDir, 'file'));
    const inTransaction = new MemoryStore();
    const [fileImport, memoryImport] = [await importer(staged), await importer(inTransaction)];
    const first = await fileImport();
    expect(first.index.length).toBeGreaterThan(50);
    expect(first).toEqual(await memoryImport());

    remote.commit({
      'README.md': '# Welcome\n\nA rewritten home page about zebras and xylophones.\n',
      'getting-started/new-page.md': '# A new page\n\nQuokkas everywhere.\n',
      'SUMMARY.md': null,
    });
    const before = packBytes(path.join(storeDir, 'file'));
    const second = await fileImport();
    // The images it already had are not written again: the second import's packs hold the changed pages.
    expect(packBytes(path.join(storeDir, 'file')) - before).toBeLessThan(big.byteLength);
    expect(second.content).not.toBe(first.content);
    expect(second.index.some(([key]) => key.includes('/quokkas/'))).toBe(true);
    expect(second).toEqual(await memoryImport());
    await staged.close();
    expect((await fsck(path.join(storeDir, 'file'))).problems).toEqual([]);
  });
});

describe('what a Git import stages as git streams it', () => {
  it('stages the files of the assets folder under root, and an image outside it only when a page links it', async () => {
    const bytes = (seed: number) => new Uint8Array(256 * 1024).map((_, i) => (Math.imul(i + seed, 2654435761) >>> 24) & 255);
    const [used, linked, orphan] = [bytes(1), bytes(2), bytes(3)];
    const rooted = makeRemote({
      '.gitbook.yaml': 'root: ./docs/\n',
      'docs/README.md': '# Home\n\n![used](.gitbook/assets/used.png)\n\n![linked](../.gitbook/assets/linked.png)\n',
      'docs/SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n',
      'docs/.gitbook/assets/used.png': used,
      // Outside root: GitBook never reads this folder; one of its images is linked by a page.
      '.gitbook/assets/linked.png': linked,
      '.gitbook/assets/orphan.png': orphan,
    });
    const dir = path.join(storeDir, 'rooted');
    const store = createStore(dir);
    try {
      const clock = manualClock();
      const ids = sequentialIds();
      const boot = await store.transact((tx) => bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@acme.test', clock, ids, origin: ORIGIN }));
      const call = (id: RouteId, raw: RawInput) => executeOperation({ store, actor: { userId: boot.user.id }, clock, ids, origin: ORIGIN }, getRoute(id), raw);
      const space = (await call('createSpace', { params: { organizationId: boot.organization.id }, body: { title: 'Docs' } })).body as { id: string };
      const before = packBytes(dir);
      expect((await call('importGitRepository', { params: { spaceId: space.id }, body: { url: rooted.url, ref: 'refs/heads/main' } })).status).toBe(204);
      const files = (await call('listFiles', { params: { spaceId: space.id } })).body as { items: Array<{ name: string; size: number }> };
      expect(files.items.map((file) => [file.name, file.size]).sort()).toEqual([
        ['linked.png', linked.byteLength],
        ['used.png', used.byteLength],
      ]);
      // Two images as base64 in the packs (4/3 of their bytes), and not the third.
      const written = packBytes(dir) - before;
      expect(written).toBeGreaterThan((2 * 4 * used.byteLength) / 3);
      expect(written).toBeLessThan((3 * 4 * used.byteLength) / 3);
      // The staged image's blob id is remembered with its data object (an export compares it by that id, unread).
      const reader = store.read();
      const tree = loadTree(reader, getRevision(reader, space.id, (getSpace(reader, space.id) as SpaceRecord).revision) as RevisionRecord);
      const hashes = fileDataHashes(tree);
      const usedFile = tree.files.find((file) => file.name === 'used.png');
      expect(knownBlob(reader, hashes?.get(usedFile?.id ?? '') ?? '')).toBe(gitBlobOid(used));
      await store.close();
      expect((await fsck(dir)).problems).toEqual([]);
    } finally {
      rooted.cleanup();
    }
  });
});
