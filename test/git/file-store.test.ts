/**
 * Git Sync on the durable JSON-file store, against a smart-HTTP server that
 * wants basic auth: the credentials in the URL reach the server (as a header,
 * never in a request URL) and never the store, `getSpaceGitInfo`, the mirror
 * cache or an error message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { getRoute } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { executeOperation } from '../../src/domain/execute.js';
import { getRevision, getSpace } from '../../src/domain/core-records.js';
import { createStore, fsck, openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { ORIGIN } from '../domain/content/helpers.js';
import { gitbookExport } from '../gitsync/fixtures.js';
import { filesContaining, isolateGit, makeRemote, type TestRemote } from './helpers.js';
import { type GitHttpServer, gitHttpServer } from './http-server.js';
import type { RouteId } from '../../src/api/route-id.js';

const USER = 'ci-bot';
const PASSWORD = 'tok3n-Sup3rS3cret';
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

let env: ReturnType<typeof isolateGit>;
let remote: TestRemote;
let server: GitHttpServer;
let storeDir: string;
beforeAll(async () => {
  env = isolateGit();
  remote = makeRemote(gitbookExport());
  server = await gitHttpServer(remote.root, USER, PASSWORD);
  storeDir = mkdtempSync(path.join(os.tmpdir(), 'docsctl-git-store-'));
});
afterAll(async () => {
  await server.close();
  remote.cleanup();
  env.cleanup();
  rmSync(storeDir, { recursive: true, force: true });
});

describe('Git Sync on the JSON-file store with credentials in the URL', () => {
  it('imports and exports over authenticated HTTP; no credential anywhere on disk or in answers', async () => {
    const clock = manualClock();
    const ids = sequentialIds();
    let store: Store = createStore(storeDir);
    const boot = await store.transact((tx) =>
      bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@acme.test', clock, ids, origin: ORIGIN }),
    );
    const call = (id: RouteId, raw: RawInput) => executeOperation({ store, actor: { userId: boot.user.id }, clock, ids, origin: ORIGIN }, getRoute(id), raw);
    const space = (await call('createSpace', { params: { organizationId: boot.organization.id }, body: { title: 'Docs' } })).body as { id: string };
    const secretUrl = `http://${USER}:${PASSWORD}@${server.origin.slice('http://'.length)}/remote.git`;
    const plainUrl = `${server.origin}/remote.git`;

    // Wrong password: a one-line error without any credential.
    const denied = await call('importGitRepository', {
      params: { spaceId: space.id },
      body: { url: `http://${USER}:wrong-${PASSWORD}@${server.origin.slice(7)}/remote.git`, ref: 'refs/heads/main' },
    }).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(ApiError);
    expect((denied as ApiError).status).toBe(400);
    expect((denied as ApiError).message).toMatch(new RegExp(`^Cannot fetch ${plainUrl.replace(/[.]/g, '\\.')} at refs/heads/main: authentication failed`));
    expect((denied as ApiError).message).not.toContain(PASSWORD);
    expect((denied as ApiError).message).not.toContain(USER + ':');

    expect((await call('importGitRepository', { params: { spaceId: space.id }, body: { url: secretUrl, ref: 'refs/heads/main' } })).status).toBe(204);
    const info = (await call('getSpaceGitInfo', { params: { spaceId: space.id } })).body as Record<string, unknown>;
    expect(info).toMatchObject({ repoName: 'remote', url: plainUrl, repository: plainUrl, updatedAt: expect.any(String) });

    expect(
      (await call('exportToGitRepository', { params: { spaceId: space.id }, body: { url: secretUrl, ref: 'refs/heads/exported', commitMessage: 'Export' } })).status,
    ).toBe(204);
    expect(remote.head('exported')).toMatch(/^[0-9a-f]{40}$/);

    // Credentials went as a header, never in a URL the server saw.
    expect(server.requests.some((request) => request.authorization === `Basic ${BASIC}`)).toBe(true);
    for (const request of server.requests) expect(request.url).not.toContain(PASSWORD);

    await store.close();
    store = openStore(storeDir);
    const reader = store.read();
    const record = getSpace(reader, space.id);
    expect(record?.gitSync?.url).toBe(plainUrl);
    expect(getRevision(reader, space.id, record?.revision as string)?.git?.ref).toBe('refs/heads/main');
    await store.close();
    expect((await fsck(storeDir)).problems).toEqual([]);
    for (const needle of [PASSWORD, BASIC, `${USER}:`]) {
      expect(filesContaining(storeDir, needle), needle).toEqual([]);
      expect(filesContaining(env.cacheDir, needle), needle).toEqual([]);
    }
  });
});
