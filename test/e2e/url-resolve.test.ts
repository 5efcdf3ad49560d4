/**
 * `url resolve URL` (getContentByUrl, real API): an app URL back to the collection, or the space,
 * change request and page it shows. Through the built binary, locally and against `docsctl serve`,
 * with the `urls.app` values docsctl itself answers and GitBook-shaped URLs; the parser's edges
 * and the access rule (a member of another organization gets 404) through executeOperation.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';
import { contentSetup, doc } from '../domain/content/helpers.js';
import { parseAppUrl } from '../../src/domain/content/by-url.js';

const root = tempDir('docsctl-url-resolve-');
const book = join(root, 'handbook');
mkdirSync(join(book, 'guide'), { recursive: true });
writeFileSync(join(book, 'README.md'), '# Home\n');
writeFileSync(join(book, 'guide', 'install.md'), '# Install\n\nRun it.\n');
writeFileSync(join(book, 'SUMMARY.md'), '# Summary\n\n* [Home](README.md)\n* [Install](guide/install.md)\n');

afterAll(cleanupTempDirs);

describeInBothModes('url resolve', (context) => {
  let cli: BinaryMode;
  let space: string;
  let org: string;
  let installId: string;
  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    await cli.ok(['git', 'import', space, book]);
    org = JSON.parse(await cli.ok(['space', 'get', space, '--json', 'organization'])).organization;
    installId = JSON.parse(await cli.ok(['page', 'get', space, 'install', '--json', 'id'])).id;
  });

  it("resolves a page's own app URL to its space and page, as a table and as JSON", async () => {
    const url = JSON.parse(await cli.ok(['page', 'get', space, 'install', '--json', 'urls'])).urls.app;
    expect(await cli.ok(['url', 'resolve', url, '--format', 'tsv'])).toBe(`page\t${installId}\tInstall\t${space}\t\tinstall`);
    const json = JSON.parse(await cli.ok(['url', 'resolve', url, '--json']));
    expect(json).toMatchObject({ space: { object: 'space', id: space, title: 'Handbook' }, page: { id: installId, title: 'Install', path: 'install' } });
    expect(json.changeRequest).toBeUndefined();
  });

  it('resolves a change request URL (by id or number) with the page as the change request has it, and a collection URL', async () => {
    await cli.ok(['cr', 'create', space, '--subject', 'Rename']);
    const crUrl = JSON.parse(await cli.ok(['cr', 'get', space, '1', '--json', 'urls'])).urls.app;
    const json = JSON.parse(await cli.ok(['url', 'resolve', `${crUrl}/install`, '--json']));
    expect(json).toMatchObject({ space: { id: space }, changeRequest: { number: 1 }, page: { id: installId } });
    const byNumber = JSON.parse(await cli.ok(['url', 'resolve', `https://app.gitbook.com/o/${org}/s/${space}/~/changes/1`, '--json']));
    expect(byNumber.changeRequest.number).toBe(1);
    expect(byNumber.page).toBeUndefined();
    const collection = await cli.ok(['collection', 'create', '--title', 'Engineering', '--format', 'ids']);
    const collectionUrl = JSON.parse(await cli.ok(['collection', 'get', collection, '--json', 'urls'])).urls.app;
    expect(JSON.parse(await cli.ok(['url', 'resolve', collectionUrl, '--json']))).toEqual({ collection: expect.objectContaining({ id: collection, title: 'Engineering' }) });
  });

  it('accepts a GitBook URL without the organization, and refuses what names nothing with exit 2 or 4', async () => {
    expect(JSON.parse(await cli.ok(['url', 'resolve', `https://app.gitbook.com/s/${space}/install`, '--json'])).page.id).toBe(installId);
    const cases: Array<[string, number, RegExp]> = [
      ['ftp://example.com/s/x', 2, /only http and https URLs/],
      ['not a url', 2, /is not an absolute URL/],
      ['https://example.com/docs/intro', 2, /names no space or collection/],
      [`https://app.gitbook.com/s/${space}/nope`, 4, /No page at path "nope"/],
      [`https://app.gitbook.com/o/another/s/${space}`, 4, new RegExp(`Space ${space} not found`)],
      [`https://app.gitbook.com/s/${space}/~/changes/99`, 4, /not found/],
    ];
    for (const [url, exitCode, message] of cases) {
      const result = await cli.run(['url', 'resolve', url]);
      expect(result.exitCode, url).toBe(exitCode);
      expect(result.stderr, url).toMatch(message);
    }
  });
}, { serveFlags: ['--allow-local', root] });

describe('getContentByUrl', () => {
  it('parses app URLs: a base path before /o/ is ignored, ~/changes and ~/revisions, percent-encoded page paths', () => {
    expect(parseAppUrl('http://127.0.0.1:4000/app/o/O1/s/S1/a/b/')).toEqual({ organization: 'O1', space: 'S1', pagePath: 'a/b' });
    expect(parseAppUrl('https://app.gitbook.com/o/O1/s/S1/~/changes/12/guide')).toEqual({ organization: 'O1', space: 'S1', changeRequest: '12', pagePath: 'guide' });
    expect(parseAppUrl('https://app.gitbook.com/s/S1/~/revisions/R1')).toEqual({ space: 'S1', revision: 'R1', pagePath: '' });
    expect(parseAppUrl('https://x/o/O1/c/C1')).toEqual({ organization: 'O1', collection: 'C1', pagePath: '' });
    expect(parseAppUrl('https://x/s/S1/caf%C3%A9')).toEqual({ space: 'S1', pagePath: 'café' });
    expect(() => parseAppUrl('https://x/s/S1/~/edit/x')).toThrow(/after \/~\/ expected changes\/CR or revisions\/REVISION/);
    expect(() => parseAppUrl('https://x/o/O1/c/C1/more')).toThrow(/a collection URL ends with its id/);
  });

  it('answers 404 to a member of another organization, and reads a past revision', async () => {
    const h = await contentSetup();
    const s = await h.createSpace();
    const first = await h.seedSpace(s.id, { pages: [doc('p1', 'Old', '# Old\n', [], { slug: 'old' })], files: [] });
    await h.seedSpace(s.id, { pages: [doc('p2', 'New', '# New\n', [], { slug: 'new' })], files: [] });
    const at = (url: string) => ({ query: { url } });
    expect(await h.ok(h.adminId, 'getContentByUrl', at(`https://x/s/${s.id}/~/revisions/${first}/old`))).toMatchObject({ page: { id: 'p1' } });
    await h.fails(h.adminId, 'getContentByUrl', at(`https://x/s/${s.id}/old`), 404);
    await h.fails(h.adminId, 'getContentByUrl', at(`https://x/s/${s.id}/~/revisions/nope`), 404, /Revision nope not found/);
    const stranger = await h.member('eve@other.test', 'admin', await h.createOrg('Other', { [h.adminId]: 'admin' }));
    await h.fails(stranger, 'getContentByUrl', at(`https://x/s/${s.id}`), 404);
    await h.fails(h.adminId, 'getContentByUrl', at(`https://x/${'a/'.repeat(1100)}`), 400);
  });
});
