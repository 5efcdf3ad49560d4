/**
 * The page trees of `site tree` are read without bodies: `listPages?bodies=false`
 * answers the real listing minus each page's Markdown, and reading a tree (site
 * tree, site inspect's page lists) never loads a page body — locally and against
 * `serve`. `site inspect` reads the body of the one page it shows.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RevisionContent } from '../../src/domain/content/storage.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { responseValidator } from '../contract/openapi.js';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, serveStore, tempDir } from '../helpers/stores.js';

const PAGES = {
  'README.md': '# Welcome\n\nStart **here**.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install/README.md)\n  * [Linux](install/linux.md)\n',
  'install/README.md': '# Install\n\nSteps.\n',
  'install/linux.md': '# Linux\n\nUse the package.\n',
};

interface Page {
  title: string;
  path?: string;
  markdown?: string;
  pages?: Page[];
}

const clock = manualClock('2026-03-01T10:00:00.000Z');
const ids = sequentialIds('t');
let store: string;
let guide: string;
let site: string;
let token: string;
let server: Awaited<ReturnType<typeof serveStore>>;
const modes = () => ({ local: { DOCSCTL_STORE: store }, remote: { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token } });

beforeAll(async () => {
  const dir = tempDir('docsctl-site-pages-');
  store = join(dir, 'store');
  const docs = join(dir, 'docs');
  for (const [path, text] of Object.entries(PAGES)) {
    mkdirSync(join(docs, path, '..'), { recursive: true });
    writeFileSync(join(docs, path), text);
  }
  const run = async (argv: string[]) => {
    const result = await runCli(argv, { env: { DOCSCTL_STORE: store }, clock, ids });
    expect(result.exitCode, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout.trim();
  };
  token = (JSON.parse(await run(['init', '--org', 'Acme', '--json'])) as { token: string }).token;
  guide = await run(['space', 'create', '--title', 'Guide', '--format', 'ids']);
  const cr = await run(['cr', 'create', guide, '--subject', 'Import', '--format', 'ids']);
  await run(['cr', 'import', guide, cr, docs]);
  await run(['cr', 'merge', guide, cr]);
  site = await run(['site', 'create', '--title', 'Help', '--type', 'premium', '--format', 'ids']);
  await run(['site', 'section', 'add', site, guide, '--title', 'Guides']);
  await run(['site', 'publish', site]);
  server = await serveStore(store, { clock, ids });
}, 60_000);
afterAll(async () => {
  await server?.close();
  cleanupTempDirs();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const titlesAndPaths = (pages: Page[]): unknown[] => pages.map((p) => [p.title, p.path, titlesAndPaths(p.pages ?? [])]);
const hasMarkdown = (pages: Page[]): boolean => pages.some((p) => 'markdown' in p || hasMarkdown(p.pages ?? []));
const withoutMarkdown = (pages: Page[]): Page[] =>
  pages.map(({ markdown: _markdown, pages: children, ...rest }) => ({ ...rest, ...(children ? { pages: withoutMarkdown(children) } : {}) }));

describe('listPages?bodies=false', () => {
  for (const mode of ['local', 'remote'] as const) {
    it(`is the listing minus the Markdown, and reads no body (${mode})`, async () => {
      const env = modes()[mode];
      const full = await runCli(['api', 'GET', `/v1/spaces/${guide}/content/pages`], { env });
      expect(full.exitCode, full.stderr).toBe(0);
      const fullPages = (JSON.parse(full.stdout) as { pages: Page[] }).pages;
      expect(hasMarkdown(fullPages)).toBe(true);
      // The full listing is what the real schema describes; the light one is it without bodies.
      expect(responseValidator('listPages', 200)({ pages: fullPages }).errors).toEqual([]);

      const bodyReads = vi.spyOn(RevisionContent.prototype, 'markdown');
      const light = await runCli(['api', 'GET', `/v1/spaces/${guide}/content/pages?bodies=false`], { env });
      expect(light.exitCode, light.stderr).toBe(0);
      const lightPages = (JSON.parse(light.stdout) as { pages: Page[] }).pages;
      expect(bodyReads).not.toHaveBeenCalled();
      expect(hasMarkdown(lightPages)).toBe(false);
      expect(lightPages).toEqual(withoutMarkdown(fullPages));
      expect(titlesAndPaths(lightPages)).toEqual([
        ['Welcome', 'readme', []],
        ['Install', 'install', [['Linux', 'install/linux', []]]],
      ]);

      // The same option on a revision's page listing.
      const revision = (JSON.parse((await runCli(['api', 'GET', `/v1/spaces/${guide}/content`], { env })).stdout) as { id: string }).id;
      bodyReads.mockClear(); // the revision read above carries its pages' bodies
      const byRevision = await runCli(['api', 'GET', `/v1/spaces/${guide}/revisions/${revision}/pages?bodies=false`], { env });
      expect(byRevision.exitCode, byRevision.stderr).toBe(0);
      expect((JSON.parse(byRevision.stdout) as { pages: Page[] }).pages).toEqual(lightPages);
      expect(bodyReads).not.toHaveBeenCalled();
    });
  }

  it('rejects a bodies value that is not a boolean', async () => {
    const result = await runCli(['api', 'GET', `/v1/spaces/${guide}/content/pages?bodies=maybe`], { env: modes().local });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: .*bodies/m);
  });
});

describe('site tree reads page trees without bodies', () => {
  for (const mode of ['local', 'remote'] as const) {
    it(`prints every page with its published URL and loads no body (${mode})`, async () => {
      const bodyReads = vi.spyOn(RevisionContent.prototype, 'markdown');
      const result = await runCli(['site', 'tree', site, '--json'], { env: modes()[mode] });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(bodyReads).not.toHaveBeenCalled();
      const [section] = JSON.parse(result.stdout) as Array<{ title: string; variants: Array<{ pages: Array<Page & { url: string }> }> }>;
      expect(section?.title).toBe('Guides');
      const pages = section?.variants[0]?.pages ?? [];
      expect(pages.map((p) => [p.title, p.url])).toEqual([
        ['Welcome', expect.stringMatching(/^https:\/\/\S+\.gitbook\.io\/help\/readme$/)],
        ['Install', expect.stringMatching(/^https:\/\/\S+\.gitbook\.io\/help\/install$/)],
      ]);
      expect(pages[1]?.pages?.map((p) => p.path)).toEqual(['install/linux']);
      expect(hasMarkdown(pages)).toBe(false);
    });
  }
});
