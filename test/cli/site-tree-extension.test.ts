/**
 * `site tree` reads the whole tree with one request to docsctl's extension
 * (getSiteTree) locally and against `serve`. Against a server without it (GitBook's
 * API answers 404 for the path) it falls back to getSiteStructure plus one listPages
 * per variant. The three ways print the same bytes, as text and as `--json`.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalTransport } from '../../src/transport/local.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { writeFixture } from '../domain/content/helpers.js';
import { runCli } from '../helpers/cli.js';
import { proxy } from '../helpers/extension-proxy.js';
import { cleanupTempDirs, serveStore, tempDir } from '../helpers/stores.js';

const PAGES = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install/README.md)\n  * [Linux](install/linux.md)\n',
  'install/README.md': '# Install\n\nSteps.\n',
  'install/linux.md': '# Linux\n\nUse the package.\n',
};

const clock = manualClock('2026-03-01T10:00:00.000Z');
const ids = sequentialIds('x');
let store: string;
let site: string;
let token: string;
let org: string;
let ids4: { guides: string; guide: string; v2: string; more: string; api: string; apiVariant: string; guideVariant: string };
let server: Awaited<ReturnType<typeof serveStore>>;

let withExtension: ReturnType<typeof proxy>;
let withoutFormat: ReturnType<typeof proxy>;
let realApi: ReturnType<typeof proxy>;

beforeAll(async () => {
  store = join(tempDir('docsctl-site-tree-ext-'), 'store');
  const docs = writeFixture(PAGES);
  const run = async (argv: string[]) => {
    const result = await runCli(argv, { env: { DOCSCTL_STORE: store }, clock, ids });
    expect(result.exitCode, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout.trim();
  };
  const init = JSON.parse(await run(['init', '--org', 'Acme', '--json'])) as { token: string; organization: { id: string } };
  token = init.token;
  org = init.organization.id;
  const guide = await run(['space', 'create', '--title', 'Guide', '--format', 'ids']);
  const cr = await run(['cr', 'create', guide, '--subject', 'Import', '--format', 'ids']);
  await run(['cr', 'import', guide, cr, docs]);
  await run(['cr', 'merge', guide, cr]);
  const v2 = await run(['space', 'create', '--title', 'Guide v2', '--format', 'ids']);
  const api = await run(['space', 'create', '--title', 'API', '--format', 'ids']);
  site = await run(['site', 'create', '--title', 'Help', '--type', 'premium', '--format', 'ids']);
  const guides = await run(['site', 'section', 'add', site, guide, '--title', 'Guides', '--format', 'ids']);
  const v2Variant = await run(['site', 'space', 'add', site, v2, '--section', guides, '--format', 'ids']);
  const apiSection = await run(['site', 'section', 'add', site, api, '--title', 'API', '--format', 'ids']);
  const more = await run(['site', 'section-group', 'add', site, '--title', 'More', '--section', apiSection, '--format', 'ids']);
  await run(['site', 'publish', site]);
  const structure = JSON.parse(await run(['api', 'GET', `/v1/orgs/${org}/sites/${site}/structure`])) as {
    structure: Array<{ siteSpaces?: Array<{ id: string }>; children?: Array<{ siteSpaces: Array<{ id: string }> }> }>;
  };
  ids4 = {
    guides,
    guide,
    v2: v2Variant,
    more,
    api: apiSection,
    guideVariant: structure.structure[0]?.siteSpaces?.[0]?.id ?? '',
    apiVariant: structure.structure[1]?.children?.[0]?.siteSpaces[0]?.id ?? '',
  };
  server = await serveStore(store, { clock, ids });
  withExtension = proxy(server.url);
  withoutFormat = proxy(server.url, 'format');
  realApi = proxy(server.url, 'extension');
  await Promise.all([withExtension.listen(), withoutFormat.listen(), realApi.listen()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([withExtension?.close(), withoutFormat?.close(), realApi?.close()]);
  await server?.close();
  cleanupTempDirs();
});
afterEach(() => {
  vi.restoreAllMocks();
});

// The organization is given, so that the requests asked are the tree's only.
const MODES = {
  local: () => ({ DOCSCTL_STORE: store, DOCSCTL_ORG: org }),
  serve: () => ({ DOCSCTL_ENDPOINT: withExtension.url(), DOCSCTL_TOKEN: token, DOCSCTL_ORG: org }),
  'a docsctl without the text format': () => ({ DOCSCTL_ENDPOINT: withoutFormat.url(), DOCSCTL_TOKEN: token, DOCSCTL_ORG: org }),
  'a server without the extension': () => ({ DOCSCTL_ENDPOINT: realApi.url(), DOCSCTL_TOKEN: token, DOCSCTL_ORG: org }),
};

const expectedText = () => {
  const base = `https://${org}.gitbook.io/help`;
  return [
    `# Guides  section ${ids4.guides}  /guides  default  ${base}/`,
    `  * Guide  variant ${ids4.guideVariant}  /guide  default  ${base}/`,
    `    Welcome  ${base}/readme`,
    `    Install  ${base}/install`,
    `      Linux  ${base}/install/linux`,
    `  * Guide v2  variant ${ids4.v2}  /guide-v2  ${base}/guide-v2/`,
    `[More]  group ${ids4.more}`,
    `  # API  section ${ids4.api}  /api  ${base}/api/`,
    `    * API  variant ${ids4.apiVariant}  /api  default  ${base}/api/`,
    '',
  ].join('\n');
};

describe('site tree: one read of the extension, or the fallback', () => {
  const outputs: Record<string, { text: string; json: string }> = {};

  for (const [mode, env] of Object.entries(MODES)) {
    it(`prints the expected tree (${mode})`, async () => {
      for (const server of [withExtension, withoutFormat, realApi]) server.paths.length = 0;
      const asked = vi.spyOn(LocalTransport.prototype, 'request');
      const text = await runCli(['site', 'tree', site], { env: env() });
      expect(text.exitCode, text.stderr).toBe(0);
      expect(text.stdout).toBe(expectedText());
      const json = await runCli(['site', 'tree', site, '--json'], { env: env() });
      expect(json.exitCode, json.stderr).toBe(0);
      outputs[mode] = { text: text.stdout, json: json.stdout };
      const routes = asked.mock.calls.map(([route]) => route);
      // The text is asked as text; --json asks for the tree.
      const tree = `/v1/orgs/${org}/sites/${site}/x-docsctl/tree`;
      if (mode === 'local') expect(routes).toEqual(['getSiteTree', 'getSiteTree']);
      else if (mode === 'serve') expect(withExtension.paths).toEqual([`${tree}?format=text`, tree]);
      else if (mode === 'a docsctl without the text format') expect(withoutFormat.paths).toEqual([`${tree}?format=text`, tree]);
      else {
        // Each run: the extension (404), the structure, then the three variants' page trees.
        const run = (read: string) => [read, `/v1/orgs/${org}/sites/${site}/structure`, ...['guide', 'v2', 'api'].map(() => expect.stringMatching(/^\/v1\/spaces\/\w+\/content\/pages\?/))];
        expect(realApi.paths).toEqual([...run(`${tree}?format=text`), ...run(tree)]);
      }
    });
  }

  it('prints the same bytes every way, and --json has each page with its URL', () => {
    expect(Object.keys(outputs)).toHaveLength(4);
    const [first, ...rest] = Object.values(outputs);
    for (const other of rest) expect(other).toEqual(first);
    const tree = JSON.parse(first?.json ?? '[]') as Array<{ variants: Array<{ pages: Array<{ type: string; title: string; path: string; url: string; pages: unknown[] }> }> }>;
    expect(tree[0]?.variants[0]?.pages[1]).toEqual({
      type: 'page',
      id: expect.any(String),
      title: 'Install',
      path: 'install',
      url: `https://${org}.gitbook.io/help/install`,
      pages: [{ type: 'page', id: expect.any(String), title: 'Linux', path: 'install/linux', url: `https://${org}.gitbook.io/help/install/linux`, pages: [] }],
    });
  });

  for (const [mode, env] of Object.entries(MODES)) {
    it(`a site that does not exist is a 404, exit 4 (${mode})`, async () => {
      const result = await runCli(['site', 'tree', 'nosuchsite'], { env: env() });
      expect(result.stderr).toMatch(/^error: .*nosuchsite/m);
      expect(result.exitCode).toBe(4);
    });
  }
});
