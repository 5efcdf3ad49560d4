/**
 * Objects with two names are printed by the one the other commands take and
 * accepted by either: a custom field by name or id, an OpenAPI specification by
 * slug or id, a page by id or path, wherever a page is named (`page get`, `page
 * edit`, `cr pdf --page`, `site redirect --page`, `comment add --page`). A delete by
 * the other name deletes (it must not say "nothing to delete" while the object
 * stays). Through the built binary, locally and against `docsctl serve`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const docs = tempDir('docsctl-handles-');
mkdirSync(join(docs, 'guides'));
writeFileSync(join(docs, 'README.md'), '# Welcome\n\nHello.\n');
writeFileSync(join(docs, 'guides', 'setup.md'), '# Setup\n\nRun the installer.\n');
writeFileSync(join(docs, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\n* [Setup](guides/setup.md)\n');
const spec = join(docs, 'pets.yaml');
writeFileSync(spec, 'openapi: 3.0.3\ninfo: {title: Pets, version: "1.0"}\npaths:\n  /pets:\n    get:\n      responses: {"200": {description: ok}}\n');

afterAll(cleanupTempDirs);

describeInBothModes(
  'names and ids',
  (context) => {
    let cli: BinaryMode;
    let space: string;
    let setupId: string;
    beforeAll(async () => {
      ({ cli } = context);
      space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
      const cr = await cli.ok(['cr', 'create', space, '--subject', 'Import', '--format', 'ids']);
      await cli.ok(['cr', 'import', space, cr, docs]);
      await cli.ok(['cr', 'merge', space, cr]);
      setupId = JSON.parse(await cli.ok(['api', 'GET', `/v1/spaces/${space}/content/path/setup`, '--json', 'id'])).id;
    });

    it('custom fields: --format ids prints the name; get, edit and delete take the name or the id', async () => {
      expect(await cli.ok(['custom-field', 'create', 'tier', '--type', 'text', '--format', 'ids'])).toBe('tier');
      const { id } = JSON.parse(await cli.ok(['custom-field', 'get', 'tier', '--json', 'id']));
      expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(await cli.ok(['custom-field', 'list', '--format', 'ids'])).toBe('tier');
      expect(JSON.parse(await cli.ok(['custom-field', 'get', id, '--json', 'name,id']))).toEqual({ name: 'tier', id });
      expect(JSON.parse(await cli.ok(['custom-field', 'edit', id, '--title', 'Tier', '--json', 'name,title']))).toEqual({ name: 'tier', title: 'Tier' });
      const deleted = await cli.run(['custom-field', 'delete', id, '--yes']);
      expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: 'Deleted custom field tier' });
      expect(await cli.ok(['custom-field', 'list', '--format', 'ids'])).toBe('');
      const again = await cli.run(['custom-field', 'delete', id, '--yes']);
      expect(again).toEqual({ exitCode: 0, stdout: '', stderr: `Nothing to delete: custom field ${id} is already deleted or does not exist` });
      const missing = await cli.run(['custom-field', 'get', id]);
      expect(missing.exitCode).toBe(4);
    });

    it('OpenAPI specifications: --format ids prints the slug; get takes the slug or the id', async () => {
      expect(await cli.ok(['openapi', 'publish', 'pets', '--file', spec, '--format', 'ids'])).toBe('pets');
      const { id } = JSON.parse(await cli.ok(['openapi', 'get', 'pets', '--json', 'id']));
      expect(JSON.parse(await cli.ok(['openapi', 'get', id, '--json', 'slug']))).toEqual({ slug: 'pets' });
      expect(await cli.ok(['openapi', 'list', '--format', 'ids'])).toBe('pets');
    });

    it('page get takes a page id or its path', async () => {
      const byPath = await cli.run(['page', 'get', space, 'setup', '--json', 'id,title']);
      expect(byPath.exitCode, byPath.stderr).toBe(0);
      expect(JSON.parse(byPath.stdout)).toEqual({ id: setupId, title: 'Setup' });
      expect(await cli.ok(['page', 'get', space, 'setup', '--format', 'markdown'])).toMatch(/Run the installer\./);
      expect(JSON.parse(await cli.ok(['page', 'get', space, setupId, '--json', 'path']))).toEqual({ path: 'setup' });
      const missing = await cli.run(['page', 'get', space, 'no-such-page']);
      expect(missing.exitCode).toBe(4);
      expect(missing.stderr.split('\n')).toHaveLength(1);
    });

    it('page edit, cr pdf --page and site redirect --page take a path too', async () => {
      const cr = await cli.ok(['cr', 'create', space, '--subject', 'Rename', '--format', 'ids']);
      const edited = await cli.run(['page', 'edit', space, 'setup', '--cr', cr, '--title', 'Set up']);
      expect(edited.exitCode, edited.stderr).toBe(0);
      expect(JSON.parse(await cli.ok(['page', 'get', space, 'setup', '--cr', cr, '--json', 'id,title']))).toEqual({ id: setupId, title: 'Set up' });
      const pdf = await cli.run(['cr', 'pdf', space, cr, '--page', 'setup', '--format', 'ids', '--debug']);
      expect(pdf.exitCode, pdf.stderr).toBe(0);
      expect(pdf.stdout).toMatch(/\.pdf$/);
      // Remotely the request shows the page id the path was looked up to.
      if (context.mode === 'remote') expect(pdf.stderr).toMatch(new RegExp(`→ GET \\S+/pdf\\?page=${setupId}&only=true`));
      expect((await cli.run(['cr', 'pdf', space, cr, '--page', 'no-such-page'])).exitCode).toBe(4);
      const site = await cli.ok(['site', 'create', '--title', 'Docs', '--space', space, '--format', 'ids']);
      const variant = await cli.ok(['site', 'space', 'list', site, '--format', 'ids']);
      const redirect = await cli.run(['site', 'redirect', 'create', site, '/old-setup', '--site-space', variant, '--page', 'setup', '--json', 'destination']);
      expect(redirect.exitCode, redirect.stderr).toBe(0);
      expect(JSON.parse(redirect.stdout)).toEqual({ destination: { kind: 'site-page', siteSpaceId: variant, pageId: setupId } });
    });
  },
  { serveFlags: ['--allow-local', docs] },
);
