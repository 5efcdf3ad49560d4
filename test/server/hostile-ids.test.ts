/**
 * Every path parameter of every route is hostile (issue 8 §1: no input yields a 5xx).
 * One parameter at a time gets a value that names nothing, the others name real objects,
 * so the request goes as deep into its handler as such a value can take it: an id with an
 * encoded "/" once reached a KeyedSet's key check and answered 500.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifest } from '../../src/api/manifest.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';

const HOSTILE = ['a%2Fb', '%2F', 'a%2F..%2F..', '..', '%2E%2E', '%00', '-rf', 'x'.repeat(2000)];

let server: RunningServer;
let token: string;
const fixture: Record<string, string> = {};

/** One request sent as written (node:http keeps the path's dot segments; a WHATWG URL would resolve them). */
function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const url = new URL(server.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // not JSON: only the status matters here
          }
          resolve({ status: res.statusCode ?? 0, json: { ...json, text } });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

beforeAll(async () => {
  const store = new MemoryStore();
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const ids = sequentialIds('h');
  const boot = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://unused' }),
  );
  token = boot.token;
  server = await startServer({ store, host: '127.0.0.1', port: 0, clock, ids });
  const org = boot.organization.id;
  fixture.organizationId = org;
  fixture.userId = (await call('GET', '/v1/user')).json.id as string;
  fixture.spaceId = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Space' })).json.id as string;
  fixture.collectionId = (await call('POST', `/v1/orgs/${org}/collections`, { title: 'Collection' })).json.id as string;
  fixture.teamId = (await call('PUT', `/v1/orgs/${org}/teams`, { title: 'Team' })).json.id as string;
  fixture.changeRequestId = (await call('POST', `/v1/spaces/${fixture.spaceId}/change-requests`, { subject: 'CR' })).json.id as string;
  fixture.commentId = (await call('POST', `/v1/spaces/${fixture.spaceId}/comments`, { body: { markdown: 'hi' } })).json.id as string;
  for (const [name, id] of Object.entries(fixture)) expect(id, name).toMatch(/^\w+$/);
});

afterAll(() => server?.close());

const cases = manifest.flatMap((route) =>
  [...route.path.matchAll(/\{(\w+)\}/g)].map(([, param]) => ({ id: route.id, method: route.method, path: route.path, param: param as string })),
);

describe('a hostile path parameter', () => {
  it.each(cases)('$id with a hostile $param answers what names nothing gets, never a 5xx', async ({ method, path, param }) => {
    for (const value of HOSTILE) {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (name === param ? value : (fixture[name] ?? 'nosuch')));
      const answer = await call(method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
      if (answer.status !== 501) expect(answer.status, `${method} ${url}: ${String(answer.json.text).slice(0, 200)}`).toBeLessThan(500);
      // A DELETE of what is not there is done already (204, docs/architecture.md); anything else names nothing.
      if (method !== 'DELETE') expect(answer.status, `${method} ${url}`).toBeGreaterThanOrEqual(400);
    }
  });
});
