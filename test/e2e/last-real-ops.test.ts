/**
 * The last non-AI operations of 0.202 through the built binary, on a local store and against
 * `docsctl serve`: `openapi raw`, `org joinable` (the e-mail domain index kept by org writes),
 * `user notifications-token`, `site template`, `integration render` and `storage upload`
 * (a real upload through the signed URL in remote mode), with expected values and bad input
 * as one line with its exit code.
 */
import { writeFileSync } from 'node:fs';
import lz from 'lz-string';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { lzBomb } from '../helpers/lz-bomb.js';

const SPEC = 'openapi: 3.0.3\ninfo:\n  title: Petstore\n  version: 1.0.0\npaths: {}\n';

describeInBothModes('the last real-API operations', (context) => {
  let cli: BinaryMode;
  beforeAll(() => {
    ({ cli } = context);
  });

  it('openapi raw prints the published text byte for byte; --json gives text and format', async () => {
    writeFileSync(join(cli.home, 'petstore.yaml'), SPEC);
    await cli.ok(['openapi', 'publish', 'petstore', '--file', join(cli.home, 'petstore.yaml')]);
    expect(`${await cli.ok(['openapi', 'raw', 'petstore'])}\n`).toBe(SPEC);
    expect(JSON.parse(await cli.ok(['openapi', 'raw', 'petstore', '--json']))).toEqual({ text: SPEC, format: 'yaml' });
    const missing = await cli.run(['openapi', 'raw', 'nope']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/^error: OpenAPI specification "nope" not found/);
  });

  it('user notifications-token gives a one-hour HS256 JWT naming the user', async () => {
    const me = await cli.ok(['user', 'me', '--format', 'ids']);
    const token = await cli.ok(['user', 'notifications-token', '--format', 'ids']);
    const [head, payload, signature] = token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: me, aud: 'notifications' });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
    expect(signature).toMatch(/^[\w-]{43}$/);
    expect(await cli.ok(['user', 'notifications-token', '--format', 'ids'])).not.toBe(token);
  });

  it('site template fills an empty site with a product-docs space, once', async () => {
    const site = await cli.ok(['site', 'create', '--title', 'Help Center', '--format', 'ids']);
    const listed = (await cli.ok(['site', 'template', site])).split('\t');
    expect(listed[1]).toBe('Help Center');
    const space = (await cli.ok(['space', 'list', '--format', 'tsv'])).split('\n').find((line) => line.split('\t')[1] === 'Help Center')?.split('\t')[0] as string;
    expect((await cli.ok(['page', 'list', space, '--format', 'tsv'])).split('\n').map((line) => line.split('\t')[3])).toEqual([
      'readme',
      'getting-started',
      'getting-started/quickstart',
      'getting-started/installation',
      'guides',
      'guides/first-guide',
    ]);
    const again = await cli.run(['site', 'template', site]);
    expect(again.exitCode).toBe(5);
    expect(again.stderr).toBe(`error: Site ${site} already has content: the template is for an empty site (docsctl site tree ${site} shows what it has)`);
  });

  it("integration render answers from the block's declaration where the integration is installed", async () => {
    writeFileSync(join(cli.home, 'index.js'), 'export default {};\n');
    writeFileSync(
      join(cli.home, 'gitbook-manifest.yaml'),
      'name: tickets\ntitle: Tickets\ndescription: Shows tickets\nscript: ./index.js\nscopes:\n  - space:content:read\nblocks:\n  - id: ticket\n    title: Ticket\n    description: A ticket of the tracker\n  - id: snippet\n    title: Snippet\n    markdown:\n      codeblock: tickets\n      body: text\n',
    );
    await cli.ok(['integration', 'publish', '--file', join(cli.home, 'gitbook-manifest.yaml'), '--organization', cli.orgId]);
    const installation = await cli.ok(['integration', 'install', 'tickets', '--organization', cli.orgId, '--format', 'ids']);
    const space = await cli.ok(['space', 'create', '--title', 'Tracker', '--format', 'ids']);
    const missing = await cli.run(['integration', 'render', 'tickets', '--block', 'ticket', '--space', space]);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toBe(`error: Integration tickets is not installed on space ${space} (docsctl integration space install tickets INSTALLATION ${space})`);
    await cli.ok(['integration', 'space', 'install', 'tickets', installation, space]);
    expect(await cli.ok(['integration', 'render', 'tickets', '--block', 'ticket', '--space', 'Tracker', '--prop', 'id=42', '--url', 'https://t.example/42'])).toBe(
      'Ticket\n\nA ticket of the tracker\n\n**id**: 42\n\n**url**: <https://t.example/42>',
    );
    expect(JSON.parse(await cli.ok(['integration', 'render', 'tickets', '--block', 'snippet', '--space', space, '--prop', 'text=a```b', '--json']))).toEqual({
      type: 'element',
      element: { type: 'block', children: [{ type: 'markdown', content: '````tickets\na```b\n````' }] },
      state: {},
      props: { text: 'a```b' },
      canAccessVisitorClaims: false,
    });
    const unknown = await cli.run(['integration', 'render', 'tickets', '--block', 'nope', '--space', space]);
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toBe('error: Integration tickets has no block "nope": its blocks are ticket, snippet');
    const nowhere = await cli.run(['integration', 'render', 'tickets', '--block', 'ticket']);
    expect(nowhere.exitCode).toBe(2);
    // The GET form: lz-string's output grows with the square of its input, so its size is checked before it is decoded.
    const request = (body: unknown) => `/v1/integrations/tickets/render?request=${lz.compressToEncodedURIComponent(JSON.stringify(body))}`;
    const get = JSON.parse(await cli.ok(['api', 'GET', request({ componentId: 'ticket', props: { id: '7' }, context: { type: 'document', spaceId: space } })])) as Record<string, unknown>;
    expect(get).toMatchObject({ type: 'element', props: { id: '7' } });
    const bomb = `/v1/integrations/tickets/render?request=${lzBomb(7750)}`; // 15 KB: 30 million characters
    const refused = await cli.run(['api', 'GET', bomb]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/Invalid request: it decompresses to more than 1048576 characters; send a smaller request, or the POST form/);
  });

  it('storage upload stores the bytes as an organization file (in remote mode through the signed URL)', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 10]);
    writeFileSync(join(cli.home, 'blob.bin'), bytes);
    const file = JSON.parse(await cli.ok(['storage', 'upload', '--file', join(cli.home, 'blob.bin'), '--json'])) as Record<string, unknown>;
    expect(file).toMatchObject({ object: 'storage-file', organization: cli.orgId, name: 'blob.bin', type: 'application/octet-stream', size: 7, kind: 'organization_file' });
    expect(file.key).toMatch(/^organization_file\/\w+\/blob\.bin$/);
    expect(file.downloadURL).toMatch(/\/files\/[0-9a-f]{64}\/blob\.bin$/);
    if (context.mode === 'remote') expect(Buffer.from(await (await fetch(file.downloadURL as string)).arrayBuffer())).toEqual(bytes);
    expect(await cli.ok(['storage', 'upload', '--file', join(cli.home, 'blob.bin'), '--kind', 'import_file', '--format', 'ids'])).toMatch(/^import_file\/\w+\/blob\.bin$/);
    const bad = await cli.run(['storage', 'upload', '--file', join(cli.home, 'blob.bin'), '--name', '../x']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe('error: Invalid file.name "../x": give a file name without "/", "\\" or control characters');
  });

  it('a signed upload URL takes exactly the declared bytes, once', async () => {
    if (context.mode !== 'remote') return;
    writeFileSync(join(cli.home, 'upload.json'), JSON.stringify({ file: { name: 'a.txt', type: 'text/plain', size: 3 }, kind: 'organization_file' }));
    const signed = JSON.parse(await cli.ok(['api', 'POST', `/v1/orgs/${cli.orgId}/storage/upload`, '--input', join(cli.home, 'upload.json')])) as { object: string; url: string; key: string };
    expect(signed.object).toBe('storage-signed-url');
    const short = await fetch(signed.url, { method: 'PUT', body: 'ab' });
    expect(short.status).toBe(400);
    expect(((await short.json()) as { error: { message: string } }).error.message).toBe('The upload declared 3 bytes and got 2: send the whole file');
    const put = await fetch(signed.url, { method: 'PUT', body: 'abc' });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { key: string }).key).toBe(signed.key);
    expect((await fetch(signed.url, { method: 'PUT', body: 'abc' })).status).toBe(404);
    expect((await fetch(signed.url, { method: 'GET' })).status).toBe(405);
  });
  it("translation create takes the real API's shape (--space, --to) and still the settings' (--title)", async () => {
    const space = await cli.ok(['space', 'create', '--title', 'Guide', '--format', 'ids']);
    const created = JSON.parse(await cli.ok(['translation', 'create', '--space', 'Guide', '--to', 'fr', '--json'])) as Record<string, unknown>;
    expect(created).toMatchObject({ source: { space, language: 'en' }, language: 'fr', status: 'pending' });
    expect(JSON.parse(await cli.ok(['translation', 'create', '--title', 'EU', '--language', 'de', '--json']))).toMatchObject({ title: 'EU' });
    const neither = await cli.run(['translation', 'create']);
    expect(neither.exitCode).toBe(2);
    expect(neither.stderr).toBe('error: Pass --title TITLE (translation settings) or --space SPACE --to LANGUAGE (a translation of a space)');
    const noTarget = await cli.run(['translation', 'create', '--space', space]);
    expect(noTarget.exitCode).toBe(2);
    expect(noTarget.stderr).toBe('error: --space needs --to LANGUAGE: the language to translate it into');
  });

  it('site mcp-server add and edit take a transport and a condition', async () => {
    const site = await cli.ok(['site', 'create', '--title', 'Assist', '--format', 'ids']);
    const added = JSON.parse(await cli.ok(['site', 'mcp-server', 'add', site, '--name', 'Tickets', '--url', 'https://mcp.example/', '--transport', 'http', '--condition', 'visitor.claims.beta', '--json'])) as { id: string };
    expect(added).toMatchObject({ transport: 'http', condition: 'visitor.claims.beta' });
    const edited = JSON.parse(await cli.ok(['site', 'mcp-server', 'edit', site, added.id, '--condition', 'none', '--transport', 'sse', '--json'])) as Record<string, unknown>;
    expect(edited).toMatchObject({ transport: 'sse' });
    expect(edited).not.toHaveProperty('condition');
  });

  // Last: it makes a second organization, after which commands need --org.
  it('org joinable follows the organizations whose e-mail domains change, for your own domain only', async () => {
    expect(await cli.ok(['org', 'joinable', 'example.com', '--format', 'ids'])).toBe('');
    await cli.ok(['org', 'edit', cli.orgId, '--email-domains', 'Example.com,acme.org']);
    const beta = await cli.ok(['org', 'create', '--title', 'Beta', '--email-domains', 'example.com', '--format', 'ids']);
    expect((await cli.ok(['org', 'joinable', 'EXAMPLE.COM', '--format', 'ids'])).split('\n').sort()).toEqual([cli.orgId, beta].sort());
    await cli.ok(['org', 'edit', cli.orgId, '--email-domains', 'acme.org']);
    expect(await cli.ok(['org', 'joinable', 'example.com', '--format', 'ids'])).toBe(beta);
    const other = await cli.run(['org', 'joinable', 'acme.org']);
    expect(other.exitCode).toBe(3);
    // (remote mode adds the generic 403 hint about the token)
    expect(other.stderr).toMatch(/^error: You may look up only your own e-mail domain \(example\.com\), not "acme\.org"/);
  });
});

