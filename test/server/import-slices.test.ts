/**
 * A big import through `serve` on a file store lets the event loop run between small
 * slices of its work, so other clients' GETs are answered meanwhile (issue 21: they
 * waited up to 1.3 s while a 5,000-page zip imported). The wall-clock figure is
 * bench/serve-import.mjs's; this test counts instead, so a loaded machine cannot fail it:
 * every point where the import may pause does pause (util/slices.ts is replaced by one
 * whose slices end at once), and there must be such points for each page in each phase
 * (conversion, merge, staging, search index plan), each giving the event loop a turn.
 * How much CPU the longest turn holds is a timing figure, so it is measured by
 * `npm run bench -- --serve-import` (bench/import-turns.ts, target ≤ 10% of the import's CPU).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { servePolicy } from '../../src/domain/policy.js';
import { startServer } from '../../src/server/server.js';
import { createStore } from '../../src/store/index.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { writeZip } from '../../src/util/zip.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const pauses = vi.hoisted(() => ({ count: 0 }));

vi.mock('../../src/util/slices.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/util/slices.js')>();
  const pause = async (): Promise<number> => {
    pauses.count += 1;
    await new Promise<void>((resolve) => setImmediate(resolve));
    return performance.now();
  };
  return {
    ...real,
    yieldIfDue: pause,
    runInSlices: async <T>(steps: Generator<unknown, T>): Promise<T> => {
      for (;;) {
        const next = steps.next();
        if (next.done === true) return next.value;
        await pause();
      }
    },
  };
});

const PAGES = 1500;

afterAll(() => cleanupTempDirs());

/** A Git Sync zip of `pages` pages of a few KiB of varied words, in folders of 100, listed by SUMMARY.md. */
function manualZip(file: string, pages: number): void {
  const enc = new TextEncoder();
  const words = 'store pack index commit object reader writer checkpoint merge space page site import export revision'.split(' ');
  const entries = [{ path: 'README.md', data: enc.encode('# Home\n') }];
  let summary = '# Summary\n\n* [Home](README.md)\n';
  for (let n = 0; n < pages; n++) {
    const path = `part-${Math.floor(n / 100)}/page-${n}.md`;
    const body = Array.from({ length: 300 }, (_, i) => `${words[(n * 7 + i * 3) % words.length]}${(n + i) % 50}`).join(' ');
    entries.push({ path, data: enc.encode(`# Page ${n}\n\n${body}\n\nSee [the next page](page-${n + 1}.md).\n`) });
    summary += `${n % 100 === 0 ? '*' : '  *'} [Page ${n}](${path})\n`;
  }
  entries.push({ path: 'SUMMARY.md', data: enc.encode(summary) });
  writeFileSync(file, writeZip(entries));
}

describe('serve during a big import on a file store', { timeout: 300_000 }, () => {
  it('pauses for each page of each phase, and lets the event loop turn at each pause', async () => {
    const dir = tempDir('docsctl-slices-');
    const zip = join(dir, 'manual.zip');
    manualZip(zip, PAGES);
    const store = createStore(join(dir, 'store'));
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const ids = sequentialIds('x');
    const { token, organization } = await store.transact((tx) =>
      bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://x' }),
    );
    const policy = await servePolicy({ allowLocal: [dir] });
    const server = await startServer({ store, clock, ids, port: 0, policy });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    try {
      const created = await fetch(`${server.url}/v1/orgs/${organization.id}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Manual' }) });
      const space = (await created.json()) as { id: string };

      // One tick per turn of the event loop.
      let importing = true;
      let turns = 0;
      const tick = (): void => {
        turns += 1;
        if (importing) setImmediate(tick);
      };
      pauses.count = 0;
      setImmediate(tick);
      const res = await fetch(`${server.url}/v1/spaces/${space.id}/content/import`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: pathToFileURL(zip).href, source: 'zip' }),
      });
      importing = false;
      const body = (await res.json()) as { totalResources: number };
      expect(res.status).toBe(201);
      expect(body.totalResources).toBe(PAGES + 1);

      // Conversion (summary items, pages read, links scanned), merge, staging and the index plan: a pause each per page.
      expect(pauses.count).toBeGreaterThanOrEqual(6 * PAGES);
      expect(turns).toBeGreaterThanOrEqual(6 * PAGES);
    } finally {
      await server.close();
      await store.close();
    }
  });
});
