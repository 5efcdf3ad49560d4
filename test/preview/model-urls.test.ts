/**
 * The preview's model and URLs: hostile section, variant, page and file paths from a
 * server stay inside the preview's URL space and the --out directory; links of page
 * content resolve to pages, files and other spaces as GitBook writes them.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RouteId } from '../../src/api/route-id.js';
import { ApiError } from '../../src/api/errors.js';
import type { RawInput } from '../../src/api/validate.js';
import { PreviewSource, safeSegment, siteModel, spaceContent } from '../../src/preview/model.js';
import { Preview } from '../../src/preview/preview.js';
import { writeStaticCopy } from '../../src/preview/static.js';
import { resolveContentUrl, servedUrls, staticUrls } from '../../src/preview/urls.js';
import type { Transport } from '../../src/transport/types.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

describe('safeSegment', () => {
  it.each(['guide', 'install-2', 'v1.2', 'été', '日本語'])('keeps the plain name %s', (name) => {
    expect(safeSegment(name)).toBe(name);
  });
  it.each(['..', '.', '', 'a/b', 'a\\b', '_docsctl', '-x', '.hidden', 'a..b', 'x\u0000', 'a b', '%2e%2e', 'x'.repeat(101)])('replaces %j by a hash', (name) => {
    expect(safeSegment(name)).toMatch(/^~[0-9a-f]{12}$/);
  });
});

const structure = {
  type: 'sections' as const,
  structure: [
    {
      object: 'site-section' as const,
      id: 'sec1',
      title: 'Guides',
      path: 'guides',
      default: true,
      urls: {},
      siteSpaces: [
        { id: 'ss1', path: 'v2', title: 'v2', default: true, space: { id: 'sp1' }, urls: {} },
        { id: 'ss2', path: '../..', title: 'old', space: { id: 'sp2' }, urls: {} },
      ],
    },
  ],
};

const pages = [
  { id: 'p0', title: 'Home', type: 'document', path: 'readme', git: { path: 'README.md' } },
  {
    id: 'p1',
    title: 'Guide',
    type: 'document',
    path: 'guide',
    git: { path: 'guide/README.md' },
    pages: [{ id: 'p2', title: 'Install', type: 'document', path: 'guide/install', git: { path: 'guide/install.md' } }],
  },
  { id: 'p3', title: 'Legacy', type: 'document', path: 'legacy-page' },
];
const files = [{ id: 'f1', name: 'logo.png', contentType: 'image/png', downloadURL: 'http://x/files/h/logo.png', size: 3, git: { path: '.gitbook/assets/logo.png' } }];

describe('links of page content', () => {
  const site = siteModel({ id: 's', title: 'S' }, structure);
  const variant = site.variants[0] as (typeof site.variants)[number];
  const content = spaceContent('sp1', 'r1', pages, files);
  const other = spaceContent('sp2', 'r2', [{ id: 'q1', title: 'Old page', type: 'document', path: 'old' }], []);
  const firstPage = (v: typeof variant) => (v.spaceId === 'sp1' ? content.documents[0] : other.documents[0]);
  const urls = servedUrls(firstPage);
  const resolve = (url: string, from = 'p2', context: 'link' | 'image' = 'link') =>
    resolveContentUrl(url, context, { site, variant, page: content.byId.get(from) as never, content, others: new Map([['sp2', other]]), urls, firstPage });

  it('resolves relative page links against the page file, with anchors and titles', () => {
    expect(resolve('../README.md')).toEqual({ url: '/guides/v2', title: 'Home' });
    expect(resolve('README.md#top')).toEqual({ url: '/guides/v2/guide#top', title: 'Guide' });
    expect(resolve('./')).toEqual({ url: '/guides/v2/guide', title: 'Guide' });
    expect(resolve('../legacy-page.md')).toEqual({ url: '/guides/v2/legacy-page', title: 'Legacy' });
    expect(resolve('install')).toEqual({ url: '/guides/v2/guide/install', title: 'Install' });
    expect(resolve('#setup')).toEqual({ url: '#setup' });
  });

  it('resolves files by their path or name, and nothing above the space', () => {
    expect(resolve('../.gitbook/assets/logo.png', 'p2', 'image')).toEqual({ url: '/_docsctl/files/sp1/f1/logo.png' });
    expect(resolve('logo.png', 'p0', 'image')).toEqual({ url: '/_docsctl/files/sp1/f1/logo.png' });
    expect(resolve('../../../etc/passwd')).toBeUndefined();
    expect(resolve('../../../../etc/passwd.png', 'p2', 'image')).toBeUndefined();
    expect(resolve('missing.md')).toBeUndefined();
  });

  it('resolves app links into a space of the site, and keeps other URLs', () => {
    // Its first page: the variant's root.
    expect(resolve('https://app.gitbook.com/s/sp2/old')).toEqual({ url: `/guides/${safeSegment('../..')}`, title: 'Old page' });
    expect(resolve('https://app.gitbook.com/o/org/s/sp1/guide/install#a')).toEqual({ url: '/guides/v2/guide/install#a', title: 'Install' });
    expect(resolve('https://app.gitbook.com/s/elsewhere/x')).toEqual({ url: 'https://app.gitbook.com/s/elsewhere/x' });
    expect(resolve('https://example.com/')).toEqual({ url: 'https://example.com/' });
  });

  it('writes static links relative to the page, ending in index.html', () => {
    const fromInstall = staticUrls(firstPage, ['guides', 'v2', 'guide', 'install']);
    expect(fromInstall.page(variant, content.byId.get('p1'))).toBe('../index.html');
    expect(fromInstall.page(variant, undefined)).toBe('../../index.html');
    expect(fromInstall.file('sp1', content.filesById.get('f1') as never)).toBe('../../../../_docsctl/files/sp1/f1/logo.png');
    expect(fromInstall.asset('app.js')).toBe('../../../../_docsctl/assets/app.js');
  });
});

/** A /v1 server that answers hostile paths and titles, in process. */
function hostileTransport(): Transport {
  const evilPages = [
    { id: 'e1', title: '<script>alert(1)</script>', type: 'document', path: '../../../escape' },
    { id: 'e2', title: 'Slash', type: 'document', path: 'a/../../b' },
    { id: 'e3', title: 'NUL', type: 'document', path: 'x\u0000y/%2e%2e' },
    { id: 'e4', title: 'Abs', type: 'document', path: '/etc/passwd' },
    { id: 'e5', title: 'Plain', type: 'document', path: 'plain', git: { path: 'plain.md' } },
  ];
  const answers: Partial<Record<RouteId, (input: RawInput) => unknown>> = {
    getSiteById: () => ({ id: 's', title: 'Evil </title><script>x</script>' }),
    getSiteStructure: () => ({
      type: 'sections',
      structure: [
        {
          object: 'site-section',
          id: 'x',
          title: '"><img src=x onerror=alert(1)>',
          path: '../..',
          default: true,
          urls: {},
          siteSpaces: [{ id: 'y', path: '/tmp', title: 'v', default: true, space: { id: '../sp' }, urls: {} }],
        },
      ],
    }),
    getSpaceById: () => ({ id: '../sp', revision: 'r' }),
    listPages: () => ({ pages: evilPages }),
    listFiles: () => ({ items: [{ id: '../../f', name: '../../../evil.png', contentType: 'image/png', downloadURL: 'https://files.example/x', git: { path: 'x/evil.png' } }] }),
    getPageById: (input) => ({ markdown: `![x](x/evil.png)\n\n[up](../../../../../etc/passwd.md) ${String((input.params as Record<string, string>).pageId)}` }),
  };
  return {
    mode: 'remote',
    async request(routeId, input) {
      const answer = answers[routeId];
      if (!answer) throw new ApiError(404, `no ${routeId}`);
      return { status: 200, body: answer(input) };
    },
    async raw() {
      throw new ApiError(404, 'no');
    },
    async close() {},
  };
}

describe('a hostile server', () => {
  it('cannot make --out write outside its directory, nor inject markup into the navigation', async () => {
    const transport = hostileTransport();
    const source = new PreviewSource(transport, { kind: 'site', organizationId: 'o', siteId: 's' }, undefined);
    const preview = new Preview(source, await source.fingerprint());
    const root = tempDir('docsctl-preview-hostile-');
    const out = join(root, 'out');
    const copy = await writeStaticCopy(preview, out, { fileBytes: async () => new Uint8Array([1, 2, 3]), concurrency: 2 });
    expect(copy.pages).toBe(5);
    // Everything written is inside out/, under safe names.
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [relative(out, join(dir, name))]));
    const written = walk(out);
    expect(readdirSync(root)).toEqual(['out']);
    for (const path of written) expect(path.split('/').every((part) => part !== '..' && part !== '' && !part.includes('\u0000'))).toBe(true);
    expect(written.filter((path) => path.endsWith('index.html'))).toHaveLength(6);
    expect(written).toContain(`_docsctl/files/${safeSegment('../sp')}/${safeSegment('../../f')}/${safeSegment('../../../evil.png')}`);
    const { readFileSync } = await import('node:fs');
    const html = written.filter((path) => path.endsWith('.html')).map((path) => readFileSync(join(out, path), 'utf8')).join('\n');
    expect(html).not.toMatch(/<script>alert|<img src=x|<\/title><script>/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/href="[^"]*\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/etc/);
  });
});
