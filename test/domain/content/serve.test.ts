/** `serve` answers the URLs the content operations hand out: PDF artifacts and file downloads. */
import { describe, expect, it } from 'vitest';
import { saveTree } from '../../../src/domain/content/storage.js';
import { getRevision, getSpace, putRevision } from '../../../src/domain/core-records.js';
import { serveMemoryStore } from '../../helpers/stores.js';
import { doc } from './helpers.js';

describe('serve: artifacts and files', () => {
  it('answers a PDF URL and a file downloadURL without a token, 404 for unknown ones', async () => {
    const { store, server, orgId, api: call } = await serveMemoryStore();
    try {
      const api = async (method: string, path: string, body?: unknown) => (await call(method, path, body)).body;
      const space = await api('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Docs' });
      const spaceId = space.id as string;
      await store.transact((tx) => {
        const record = getSpace(tx, spaceId);
        const revision = record && getRevision(tx, spaceId, record.revision);
        if (!revision) throw new Error('no revision');
        const content = saveTree(tx, {
          pages: [doc('p', 'Page', '# Page\n\nHello PDF\n')],
          files: [{ id: 'f', name: 'hello.txt', contentType: 'text/plain', size: 5, data: new TextEncoder().encode('hello') }],
        });
        putRevision(tx, { ...revision, ...(content ? { content } : {}) });
      });
      const file = await api('GET', `/v1/spaces/${spaceId}/content/files/f`);
      expect(String(file.downloadURL).startsWith(`${server.url}/files/`)).toBe(true);
      const download = await fetch(String(file.downloadURL));
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await download.text()).toBe('hello');

      const pdf = await api('GET', `/v1/spaces/${spaceId}/pdf`);
      expect(String(pdf.url)).toMatch(new RegExp(`^${server.url}/artifacts/.+\\.pdf$`));
      const answer = await fetch(String(pdf.url));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await answer.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');

      expect((await fetch(`${server.url}/artifacts/nope.pdf`)).status).toBe(404);
      expect((await fetch(`${server.url}/files/${'0'.repeat(64)}/x.txt`)).status).toBe(404);
      expect((await fetch(String(pdf.url), { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});
