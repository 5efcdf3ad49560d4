/**
 * A large import through `serve` does not stop it answering: while a zip of
 * thousands of pages downloads (streamed to a private temp file) and unzips
 * (entry by entry off the event loop), GETs from another client keep answering.
 * No tight wall-clock bound: the machine may be loaded, so the test asserts that
 * GETs complete *while* the import is in flight, and that none waits seconds.
 */
import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { SERVE_POLICY } from '../../src/domain/policy.js';
import { startServer } from '../../src/server/server.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { writeZip } from '../../src/util/zip.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const PAGES = 1000;
let web: Server;
let zipUrl: string;

beforeAll(async () => {
  process.env.DOCSCTL_CACHE_DIR ??= tempDir('docsctl-cache-');
  const enc = new TextEncoder();
  const entries = [{ path: 'README.md', data: enc.encode('# Home\n') }];
  let summary = '# Summary\n\n* [Home](README.md)\n';
  for (let i = 0; i < PAGES; i++) {
    entries.push({ path: `p${i}.md`, data: enc.encode(`# Page ${i}\n\n${`Words of page ${i}. `.repeat(100)}\n`) });
    summary += `* [Page ${i}](p${i}.md)\n`;
  }
  entries.push({ path: 'SUMMARY.md', data: enc.encode(summary) });
  const zip = writeZip(entries);
  // A slow link: the archive arrives in 20 pieces over ~1 s.
  const sendSlowly = async (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/zip' });
    const piece = Math.ceil(zip.length / 20);
    for (let offset = 0; offset < zip.length; offset += piece) {
      res.write(zip.subarray(offset, offset + piece));
      await sleep(50);
    }
    res.end();
  };
  web = createServer((_req, res) => void sendSlowly(res));
  await new Promise<void>((done) => web.listen(0, '127.0.0.1', done));
  zipUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/docs.zip`;
});
afterAll(async () => {
  await new Promise((done) => web.close(done));
  cleanupTempDirs();
});

describe('serve during a large import', { timeout: 120_000 }, () => {
  it('keeps answering GETs while the import downloads and unzips', async () => {
    const store = new MemoryStore();
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const ids = sequentialIds('x');
    const { token, organization } = await store.transact((tx) =>
      bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://x' }),
    );
    const server = await startServer({ store, clock, ids, port: 0, policy: { ...SERVE_POLICY, privateNetwork: true } });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    try {
      const created = await fetch(`${server.url}/v1/orgs/${organization.id}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Docs' }) });
      const space = (await created.json()) as { id: string };

      let importDone = false;
      const importing = fetch(`${server.url}/v1/spaces/${space.id}/content/import`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: zipUrl, source: 'zip' }),
      }).then(async (res) => {
        importDone = true;
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      });

      const latencies: number[] = [];
      while (!importDone) {
        const started = performance.now();
        const res = await fetch(`${server.url}/v1/spaces/${space.id}`, { headers });
        expect(res.status).toBe(200);
        await res.json();
        if (!importDone) latencies.push(performance.now() - started);
        await sleep(10);
      }
      const imported = await importing;
      expect(imported.status, JSON.stringify(imported.body)).toBe(201);
      // The source's resources: README and the pages (SUMMARY.md is the table of contents, not a page).
      expect(imported.body).toMatchObject({ totalResources: PAGES + 1 });
      // GETs were answered during the import, none of them stuck behind it for seconds.
      expect(latencies.length).toBeGreaterThan(5);
      expect(Math.max(...latencies)).toBeLessThan(5_000);
    } finally {
      await server.close();
    }
  });
});
