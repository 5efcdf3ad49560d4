/**
 * serve caches token → user by the token's hash, valid while the `tokens` and `users`
 * tables are unchanged: writes elsewhere (space creates) cost no lookup, and a revoked
 * token, or a token whose user is gone, is refused on the very next request.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { issueToken } from '../../src/domain/accounts.js';
import { Tables } from '../../src/domain/core-records.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { createStore } from '../../src/store/index.js';
import type { JsonFileStore } from '../../src/store/json-file-store.js';
import type { Store } from '../../src/store/types.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { watchedReads } from '../helpers/stores.js';
import { cleanupTempDirs, storePath } from '../store/helpers.js';

afterAll(() => cleanupTempDirs());

/** The file store, counting reads of the `tokens` table through the readers serve gets. */
function countingTokenReads(inner: JsonFileStore): { store: Store; lookups: () => number } {
  let lookups = 0;
  const store = watchedReads(inner, (method, [table]) => {
    if (method === 'get' && table === Tables.tokens) lookups += 1;
  });
  return { store, lookups: () => lookups };
}

describe('serve: token lookups cached by hash', () => {
  let server: RunningServer | undefined;
  let inner: JsonFileStore | undefined;
  afterEach(async () => {
    await server?.close();
    await inner?.close();
  });

  it('are not repeated across unrelated writes; a revoked token or a removed user is refused at once', async () => {
    inner = createStore(storePath('tokens'));
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const ids = sequentialIds('t');
    const seed = await inner.transact((tx) =>
      bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://docs.test' }),
    );
    const { store, lookups } = countingTokenReads(inner);
    server = await startServer({ store, port: 0, clock, ids });
    const call = async (method: string, path: string, token: string, body?: object) => {
      const response = await fetch(server?.url + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      await response.arrayBuffer();
      return response.status;
    };

    expect(await call('GET', '/v1/user', seed.token)).toBe(200);
    expect(lookups()).toBe(1);
    const genBefore = inner.read().gen;
    for (let i = 0; i < 3; i += 1) expect(await call('POST', `/v1/orgs/${seed.organization.id}/spaces`, seed.token, { title: `S${i}` })).toBe(201);
    expect(await call('GET', '/v1/user', seed.token)).toBe(200);
    expect(inner.read().gen).toBe(genBefore + 3);
    expect(lookups()).toBe(1); // three new generations, the same tokens and users tables

    // A second token changes the tokens table: the next request looks up again, and both work.
    const second = await inner.transact((tx) => issueToken(tx, seed.user.id, 'second', clock));
    expect(await call('GET', '/v1/user', seed.token)).toBe(200);
    expect(lookups()).toBe(2);
    expect(await call('GET', '/v1/user', second.token)).toBe(200);

    // Revoked through this server (`docsctl token revoke` against it): refused at once.
    expect(await call('DELETE', `/v1/x-docsctl/tokens/${second.row.id}`, seed.token)).toBe(200);
    expect(await call('GET', '/v1/user', second.token)).toBe(401);
    expect(await call('GET', '/v1/user', seed.token)).toBe(200);

    // An unknown token is refused, and is not cached in place of a valid one.
    expect(await call('GET', '/v1/user', 'not-a-token')).toBe(401);
    expect(await call('GET', '/v1/user', seed.token)).toBe(200);

    // The token's user removed: refused at once, though the token row is still there.
    await inner.transact((tx) => tx.delete(Tables.users, seed.user.id));
    expect(await call('GET', '/v1/user', seed.token)).toBe(401);
  });
});
