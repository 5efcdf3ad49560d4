/**
 * serve when the disk fills or a client misbehaves with its body (issue 19 §6):
 *
 * - a full disk answers 507 with the store's "disk full: nothing was saved"
 *   message (one log line, no stack), and nothing acknowledged is lost: the
 *   write that failed left no trace, the next one succeeds. Driven through
 *   `serve` by the store's own fault hooks (src/store/fault.ts);
 * - a client that closes its connection mid-body is logged once as a client
 *   abort, without a stack and without a 500;
 * - a body that trickles in is cut after `bodyTimeoutMs` (default 30 s) with a
 *   408 and a closed connection, as Node already bounds the headers.
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/server.js';
import { errnoError, setFaultInjector } from '../../src/store/fault.js';
import { createStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

let server: RunningServer | undefined;
let store: Store | undefined;
afterEach(async () => {
  setFaultInjector(undefined);
  await server?.close();
  await store?.close();
  server = undefined;
  store = undefined;
});
afterAll(cleanupTempDirs);

/** A serve of a file store (the store whose writes can fail), with its log lines. */
async function serveFileStore(extra: Partial<ServerOptions> = {}) {
  store = createStore(join(tempDir('docsctl-serve-faults-'), 'store'));
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const ids = sequentialIds('x');
  const boot = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://unused' }),
  );
  const logged: string[] = [];
  server = await startServer({ store, host: '127.0.0.1', port: 0, clock, ids, log: (line) => logged.push(line), ...extra });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${(server as RunningServer).url}${path}`, {
      method,
      headers: { authorization: `Bearer ${boot.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { server, token: boot.token, orgId: boot.organization.id, logged, api };
}

/** Opens a connection, sends `head`, then `pieces` of the body `everyMs` apart (the rest never), and collects the answer. */
function trickle(port: number, head: string, pieces: string[], everyMs: number, options: { abortAfterMs?: number } = {}) {
  return new Promise<{ text: string; ms: number }>((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(head);
      let i = 0;
      timer = setInterval(() => {
        if (i < pieces.length) socket.write(pieces[i++] as string);
      }, everyMs);
      if (options.abortAfterMs !== undefined) setTimeout(() => socket.destroy(), options.abortAfterMs);
    });
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, ms: Date.now() - started });
    });
  });
}

const post = (orgId: string, token: string, length: number) =>
  [`POST /v1/orgs/${orgId}/spaces HTTP/1.1`, 'Host: x', `Authorization: Bearer ${token}`, 'Content-Type: application/json', `Content-Length: ${length}`, '', ''].join('\r\n');

describe('serve on a full disk', () => {
  it('answers 507 with "disk full: nothing was saved", loses nothing, and saves again once there is room', async () => {
    const { orgId, logged, api } = await serveFileStore();
    expect((await api('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Kept' })).status).toBe(201);

    setFaultInjector((op, file) => (op === 'write' ? errnoError('ENOSPC', op, file) : undefined));
    const full = await api('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Lost' });
    expect(full.status).toBe(507);
    expect(full.body).toEqual({ error: { code: 507, message: expect.stringMatching(/^disk full: nothing was saved \(store unchanged at gen \d+\)$/) } });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^serve: 507 POST \/v1\/orgs\/\S+\/spaces request \S+: disk full: nothing was saved \(store unchanged at gen \d+\)$/);

    setFaultInjector(undefined);
    const titles = async () => ((await api('GET', `/v1/orgs/${orgId}/spaces`)).body.items as Array<{ title: string }>).map((space) => space.title);
    expect(await titles()).toEqual(['Kept']);
    expect((await api('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Later' })).status).toBe(201);
    expect((await titles()).sort()).toEqual(['Kept', 'Later']);
  });

  it('answers 507 for a short write as well (the disk filled mid-file)', async () => {
    const { orgId, api } = await serveFileStore();
    setFaultInjector((op) => (op === 'write' ? 'short' : undefined));
    const full = await api('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Lost' });
    expect(full.status).toBe(507);
    expect(full.body.error).toMatchObject({ message: expect.stringMatching(/^short write to \S+ \(disk full\?\): nothing was saved/) });
  });
});

describe('serve and request bodies', () => {
  it('logs a client that closes mid-body once, as a client abort, without a stack or a 500', async () => {
    const { server: s, token, orgId, logged } = await serveFileStore();
    const answer = await trickle(s.port, post(orgId, token, 1000), ['{"title":'], 10, { abortAfterMs: 200 });
    expect(answer.text).toBe('');
    // The abort reaches the server just after the socket closes on this side.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logged).toEqual([`serve: client aborted POST /v1/orgs/${orgId}/spaces: the client closed the connection before sending its whole request body`]);
  });

  it('cuts a body that trickles in past the body timeout with 408, and closes the connection', async () => {
    const { server: s, token, orgId, logged } = await serveFileStore({ bodyTimeoutMs: 400 });
    // One byte every 50 ms of a 100-byte body: it would take 5 s.
    const answer = await trickle(s.port, post(orgId, token, 100), Array.from({ length: 100 }, () => ' '), 50);
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.text.toLowerCase()).toContain('connection: close');
    expect(answer.text).toContain('{"error":{"code":408,"message":"Request body not received within 400 ms"}}');
    expect(answer.ms).toBeLessThan(4000);
    expect(logged).toEqual([]);
  });

  it('bounds the body time at 30 s unless told otherwise, beside Node\'s 60 s for headers', async () => {
    const { DEFAULT_BODY_TIMEOUT_MS } = await import('../../src/server/server.js');
    expect(DEFAULT_BODY_TIMEOUT_MS).toBe(30_000);
  });
});
