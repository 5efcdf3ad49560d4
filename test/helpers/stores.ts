/** Temporary store directories and a `serve` on a free loopback port, for tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ORIGIN } from '../../src/cli/session.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import type { InputPolicy } from '../../src/domain/policy.js';
import { startServer } from '../../src/server/server.js';
import { openStore } from '../../src/store/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { Store, StoreReader } from '../../src/store/types.js';
import { type Clock, manualClock } from '../../src/util/clock.js';
import { type IdGenerator, sequentialIds } from '../../src/util/ids.js';

const made: string[] = [];

export function tempDir(prefix = 'docsctl-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A `serve` of the store at `dir`; `policy` as `serve --allow-*` would set it (default: none of them). */
export async function serveStore(dir: string, options: { clock: Clock; ids: IdGenerator; policy?: InputPolicy | undefined }) {
  const store = openStore(dir);
  const server = await startServer({
    store,
    host: '127.0.0.1',
    port: 0,
    origin: DEFAULT_ORIGIN,
    clock: options.clock,
    ids: options.ids,
    policy: options.policy,
  });
  return {
    url: server.url,
    async close() {
      await server.close();
      await store.close();
    },
  };
}

/**
 * A bootstrapped MemoryStore served on a free loopback port (URLs in answers name the
 * bound address), with `api(method, path, body)` calling it with the admin's token.
 */
export async function serveMemoryStore() {
  const store = new MemoryStore();
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const ids = sequentialIds('x');
  const { token, organization } = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://x' }),
  );
  const server = await startServer({ store, clock, ids, port: 0 });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { store, clock, ids, orgId: organization.id, server, api };
}

/**
 * `inner`, telling `seen` each call of the readers it hands out (`get`, `getObject`…,
 * with their arguments): what a test counts to see what serve read.
 */
export function watchedReads(inner: Store, seen: (method: string, args: unknown[]) => void): Store {
  return {
    location: inner.location,
    read: () =>
      new Proxy(inner.read(), {
        get(target, prop) {
          const value = Reflect.get(target, prop, target) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            seen(String(prop), args);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }) as StoreReader,
    transact: (fn, options) => inner.transact(fn, options),
    close: () => inner.close(),
  };
}
