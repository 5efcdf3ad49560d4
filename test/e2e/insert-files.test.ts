/**
 * `insert_files` of updateChangeRequestContent through the built binary (`docsctl api`), on a
 * local store and against `docsctl serve`: inline base64 and a URL (a loopback server the test
 * starts: fetched locally, refused by serve's input policy), a page of the same batch pointing
 * at a file by its ref, and bad input as one line.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';

let files: Server;
let fileUrl: string;
beforeAll(async () => {
  files = createServer((_req, res) => res.end('PNGDATA'));
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  fileUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/logo.png`;
});
afterAll(() => new Promise<void>((resolve) => files.close(() => resolve())));

describeInBothModes('insert_files in a change request', (context) => {
  let cli: BinaryMode;
  let space: string;
  let cr: string;
  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Files', '--format', 'ids']);
    cr = JSON.parse(await cli.ok(['cr', 'create', space, '--subject', 'Files', '--json'])).id as string;
  });

  const post = async (changes: unknown[]) => {
    const input = join(cli.home, 'changes.json');
    writeFileSync(input, JSON.stringify({ changes }));
    return cli.run(['api', 'POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, '--input', input]);
  };

  it('inserts inline bytes and points a page of the batch at the file by its ref', async () => {
    const result = await post([
      { operation: 'insert_page', document: { markdown: '# Logo\n\n![Logo](./logo)\n' } },
      { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.svg', contentType: 'image/svg+xml', base64: Buffer.from('<svg/>').toString('base64') }] },
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as { insertedFiles: Array<{ id: string; name: string; contentType: string; size: number }>; changes: Array<{ object: string; page: { id: string } }> };
    expect(answer.insertedFiles).toMatchObject([{ name: 'logo.svg', contentType: 'image/svg+xml', size: 6 }]);
    const file = answer.insertedFiles[0]?.id as string;
    const page = JSON.parse(await cli.ok(['api', 'GET', `/v1/spaces/${space}/change-requests/${cr}/content/page/${answer.changes[0]?.page.id}?format=markdown`])) as { markdown: string };
    expect(page.markdown).toContain(`![Logo](/files/${file})`);
    const shown = JSON.parse(await cli.ok(['api', 'GET', `/v1/spaces/${space}/change-requests/${cr}/content/files/${file}`])) as { name: string; size: number };
    expect(shown).toMatchObject({ name: 'logo.svg', size: 6 });
  });

  it('fetches a URL locally; serve refuses a private address unless its operator allows it', async () => {
    const result = await post([{ operation: 'insert_files', files: [{ name: 'logo.png', url: fileUrl }] }]);
    if (context.mode === 'local') {
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).insertedFiles).toMatchObject([{ name: 'logo.png', contentType: 'image/png', size: 7 }]);
    } else {
      expect(result.exitCode).toBe(3);
      expect(result.stderr).toMatch(/^error: .*(private|loopback)/i);
    }
  });

  it('refuses bad files in one line, writing nothing', async () => {
    const both = await post([{ operation: 'insert_files', files: [{ name: 'a.txt', url: fileUrl, base64: 'YQ==' }] }]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/^error: changes\[0\]\.files\[0\]: set exactly one of url and base64/);
    const type = await post([{ operation: 'insert_files', files: [{ name: 'a.txt', base64: 'YQ==' }] }]);
    expect(type.exitCode).toBe(2);
    expect(type.stderr).toMatch(/^error: changes\[0\]\.files\[0\]\.contentType: required with base64/);
    const name = await post([{ operation: 'insert_files', files: [{ name: '../a.txt', contentType: 'text/plain', base64: 'YQ==' }] }]);
    expect(name.exitCode).toBe(2);
  });
});
