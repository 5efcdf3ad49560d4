/**
 * `site link …`, `site space duplicate`, `site redirect apply`, `site search`, `site search-prewarm`,
 * `site auth …`, `site preview-url`, `site edit --hostname` with `site hostname …`,
 * `site integration-scripts`, `site adaptive-schema conditions` and `url published`: through the
 * built binary, locally and against `docsctl serve`, with expected values; bad input exits 2 with one line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const root = tempDir('docsctl-site-publishing-');
const book = join(root, 'handbook');
mkdirSync(join(book, 'guide'), { recursive: true });
writeFileSync(join(book, 'README.md'), '# Home\n\nWelcome.\n');
writeFileSync(join(book, 'guide', 'install.md'), '# Install\n\nInstall the chart with helm upgrade.\n');
writeFileSync(join(book, 'SUMMARY.md'), '# Summary\n\n* [Home](README.md)\n* [Install](guide/install.md)\n');
const redirectsFile = join(root, 'redirects.json');

afterAll(cleanupTempDirs);

describeInBothModes('site links, search, publishing and hostnames', (context) => {
  let cli: BinaryMode;
  let site: string;
  let guide: string;
  let variant: string;
  beforeAll(async () => {
    ({ cli } = context);
    guide = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    await cli.ok(['git', 'import', guide, book]);
    const api = await cli.ok(['space', 'create', '--title', 'API', '--format', 'ids']);
    site = await cli.ok(['site', 'create', '--title', 'Docs', '--type', 'ultimate', '--space', guide, '--format', 'ids']);
    variant = await cli.ok(['site', 'space', 'list', site, '--format', 'ids']);
    await cli.ok(['site', 'section', 'add', site, api, '--title', 'API']);
  });

  it('adds, edits and removes an external link, which the published table lists', async () => {
    const link = await cli.ok(['site', 'link', 'add', site, 'https://status.acme.com', '--title', 'Status', '--format', 'ids']);
    expect(await cli.ok(['site', 'link', 'edit', site, link, '--title', 'Service status', '--format', 'tsv'])).toBe(`${link}\tService status\thttps://status.acme.com/\t\tfalse`);
    await cli.ok(['site', 'publish', site]);
    expect(await cli.ok(['site', 'published', site, '--format', 'tsv'])).toContain('Service status\t\tfalse\thttps://status.acme.com/');
    const bad = await cli.run(['site', 'link', 'add', site, 'ftp://files.acme.com', '--title', 'Files']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: Unsupported URL scheme ftp:/)]);
    expect((await cli.run(['site', 'link', 'remove', site, link, '--yes'])).exitCode).toBe(0);
    expect(await cli.ok(['site', 'published', site, '--format', 'tsv'])).not.toContain('Service status');
  });

  it('gives an external link a title and description per language, of the API\'s languages only', async () => {
    const link = await cli.ok(['site', 'link', 'add', site, 'https://acme.com/blog', '--title', 'Blog', '--localized-title', 'fr=Journal', '--format', 'ids']);
    expect(JSON.parse(await cli.ok(['site', 'link', 'edit', site, link, '--localized-description', 'de=Neuigkeiten', '--json', 'localizedTitle,localizedDescription']))).toEqual({
      localizedTitle: { fr: 'Journal' },
      localizedDescription: { de: 'Neuigkeiten' },
    });
    // A key that is not one of 0.202's TranslationLanguage codes is refused, not stored.
    const bad = await cli.run(['site', 'link', 'edit', site, link, '--localized-title', 'klingon=Qapla']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringContaining('localizedTitle')]);
    expect(JSON.parse(await cli.ok(['site', 'link', 'edit', site, link, '--localized-title', 'none', '--json', 'localizedTitle']))).toEqual({ localizedTitle: {} });
    await cli.ok(['site', 'link', 'remove', site, link, '--yes']);
  });

  it('searches what the site publishes, after indexing it', async () => {
    expect((await cli.run(['site', 'search-prewarm', site])).exitCode).toBe(0);
    const found = await cli.ok(['site', 'search', site, 'helm', '--format', 'tsv']);
    expect(found).toBe(`Handbook\tInstall\tinstall\t1\t${guide}`);
    expect(JSON.parse(await cli.ok(['site', 'search', site, 'helm', '--scope', 'all', '--json', 'id']))).toEqual([{ id: guide }]);
    const missing = await cli.run(['site', 'search', site, 'helm', '--site-space', 'nope']);
    expect(missing.exitCode).toBe(4);
  });

  it('duplicates a variant and applies redirects in bulk (exit 1 naming the rows that failed)', async () => {
    const copy = JSON.parse(await cli.ok(['site', 'space', 'duplicate', site, variant, '--draft', '--json', 'title,draft,path']));
    expect(copy).toEqual({ title: 'Handbook (copy)', draft: true, path: 'handbook-copy' });
    writeFileSync(
      redirectsFile,
      JSON.stringify({ redirects: [{ source: '/start', destination: { kind: 'site-space', siteSpaceId: variant } }, { source: '/x', destination: { kind: 'site-space', siteSpaceId: 'nope' } }] }),
    );
    const applied = await cli.run(['site', 'redirect', 'apply', site, '--body', `@${redirectsFile}`, '--format', 'tsv']);
    expect(applied.exitCode).toBe(1);
    expect(applied.stdout).toMatch(/^created\t\/start\tfalse\t\w+\t\nerror\t\/x\tfalse\t\tSite space nope not found/);
    expect(applied.stderr).toMatch(/1 of 2 redirects failed/);
    expect(await cli.ok(['site', 'redirect', 'list', site, '--format', 'tsv'])).toMatch(/\t\/start\tsite-space /);
  });

  it('sets up visitor authentication and regenerates its key; prints preview URLs', async () => {
    const none = await cli.run(['site', 'auth', 'get', site]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/no visitor authentication set up/);
    const set = JSON.parse(await cli.ok(['site', 'auth', 'edit', site, '--backend', 'custom', '--fallback-url', 'https://acme.com/login', '--json']));
    expect(set).toMatchObject({ backend: 'custom', fallbackURL: 'https://acme.com/login' });
    const key = JSON.parse(await cli.ok(['site', 'auth', 'regenerate', site, '--yes', '--query', 'privateKey']));
    expect(key).toMatch(/^[\w-]{43}$/);
    expect(key).not.toBe(set.privateKey);
    expect(await cli.ok(['site', 'auth', 'get', site, '--format', 'tsv'])).toBe(`custom\t\thttps://acme.com/login\t\t${key}`);
    expect(await cli.ok(['site', 'preview-url', site, '--no-draft', '--target', '/guide/install'])).toMatch(new RegExp(`/sites/${site}/preview\\?target=%2Fguide%2Finstall&draft=false$`));
  });

  it('publishes at a custom hostname, shows, revalidates and removes it; refuses hostile ones', async () => {
    expect(JSON.parse(await cli.ok(['site', 'edit', site, '--hostname', 'docs.acme.com', '--json', 'hostname,urls'])).urls.published).toBe('https://docs.acme.com/');
    expect(await cli.ok(['site', 'hostname', 'get', 'docs.acme.com', '--format', 'tsv'])).toBe(`docs.acme.com\t${site}\ttrue\tlive`);
    expect((await cli.run(['site', 'hostname', 'revalidate', 'docs.acme.com'])).exitCode).toBe(0);
    for (const hostname of ['127.0.0.1', 'docs.gitbook.io', 'evil..acme.com']) {
      const refused = await cli.run(['site', 'edit', site, '--hostname', hostname]);
      expect(refused.exitCode, hostname).toBe(2);
      expect(refused.stderr).toMatch(/^error: Invalid hostname/);
    }
    expect((await cli.run(['site', 'hostname', 'remove', 'docs.acme.com', '--yes'])).exitCode).toBe(0);
    const gone = await cli.run(['site', 'hostname', 'get', 'docs.acme.com']);
    expect(gone.exitCode).toBe(4);
  });

  it('suggests conditions from the adaptive schema; no integration injects a script', async () => {
    await cli.ok(['site', 'edit', site, '--adaptive-content', 'true']);
    const schema = { type: 'object', properties: { plan: { type: 'string', description: 'Plan', enum: ['free', 'pro'] } }, additionalProperties: false };
    const schemaFile = join(root, 'schema.json');
    writeFileSync(schemaFile, JSON.stringify(schema));
    await cli.ok(['site', 'adaptive-schema', 'set', site, '--file', schemaFile]);
    expect(await cli.ok(['site', 'adaptive-schema', 'conditions', site, '--format', 'tsv'])).toBe('visitor.claims.plan === "free"\tPlan: free\nvisitor.claims.plan === "pro"\tPlan: pro');
    expect(await cli.ok(['site', 'integration-scripts', site, '--json'])).toBe('[]');
  });
  it('resolves a published URL back to its site, variant and page, and follows redirects', async () => {
    await cli.ok(['site', 'edit', site, '--hostname', 'manual.acme.com']);
    await cli.ok(['site', 'publish', site]);
    const resolved = JSON.parse(await cli.ok(['url', 'published', 'https://manual.acme.com/install', '--json', 'space,pathname,siteSpace,canonicalUrl']));
    expect(resolved).toEqual({ space: guide, pathname: 'install', siteSpace: variant, canonicalUrl: 'https://manual.acme.com/install' });
    expect(JSON.parse(await cli.ok(['url', 'published', 'https://manual.acme.com/start', '--json']))).toEqual({ target: 'content', redirect: 'https://manual.acme.com/' });
    const missing = await cli.run(['url', 'published', 'https://manual.acme.com/nope']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/No page at path "nope"/);
    expect((await cli.run(['url', 'published', 'not a url'])).exitCode).toBe(2);
    await cli.ok(['site', 'hostname', 'remove', 'manual.acme.com', '--yes']);
  });
}, { serveFlags: ['--allow-local', root] });
