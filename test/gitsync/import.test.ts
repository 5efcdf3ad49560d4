import { describe, expect, it } from 'vitest';
import type { ContentPage } from '../../src/content-model/model.js';
import { isReusableContent, walkPages } from '../../src/content-model/model.js';
import { gitBlobOid } from '../../src/gitsync/blob.js';
import { GitSyncError } from '../../src/gitsync/errors.js';
import { edgeCases, folders, gitbookExport, handWritten, monorepo, symlinks } from './fixtures.js';
import { importOf, pageByTitle, png, repo } from './helpers.js';

function outline(pages: ContentPage[]): unknown[] {
  return pages.map((page) => {
    const base =
      page.type === 'document'
        ? `${page.title} <${page.git?.path ?? ''}>`
        : page.type === 'group'
          ? `## ${page.title} #${page.slug ?? ''}`
          : `-> ${page.title}`;
    return page.pages.length > 0 ? [base, outline(page.pages)] : base;
  });
}

describe('import from SUMMARY.md', () => {
  it('builds groups, nested README pages, link pages, and files', () => {
    const { tree, warnings, stats } = importOf(repo(gitbookExport()));
    expect(warnings).toEqual([]);
    expect(outline(tree.pages)).toEqual([
      'Home <README.md>',
      'FAQ [updated for 2026] <faq.md>',
      [
        '## Get Started #getting-started',
        [
          [
            'Getting started <getting-started/README.md>',
            ['Quickstart <getting-started/quickstart.md>', 'Install when() <getting-started/install.md>', '-> Quickstart options'],
          ],
          '-> Status page',
        ],
      ],
      [
        '## Guides #guides',
        [
          ['Writing <guides/writing/README.md>', ['Vue.js no-code email builder <guides/writing/vue.js-no-code-email-builder.md>']],
          '-> Quickstart again',
        ],
      ],
      'Changelog <changelog.md>',
    ]);
    expect(stats).toEqual({ pages: 13, files: 7, reusableContents: 1 });
    // The include is a reusable content: a file of the tree with an rc_ id, not counted as a file.
    expect(tree.files.filter(isReusableContent).map((file) => file.git?.path)).toEqual(['.gitbook/includes/shared.md']);
    // Files: everything under .gitbook/assets (an .md asset is a file, not a page), nothing referenced from code.
    expect(tree.files.filter((file) => !isReusableContent(file)).map((file) => file.git?.path)).toEqual([
      '.gitbook/assets/CleanShot 2023-01-25 at 14.58.44.gif',
      '.gitbook/assets/GITBOOK_ASSISTANT_SKILL (1).md',
      '.gitbook/assets/cover image (1).png',
      '.gitbook/assets/guide.pdf',
      '.gitbook/assets/image.png',
      '.gitbook/assets/logo (2).png',
      '.gitbook/assets/writing.png',
    ]);
    const logo = tree.files.find((file) => file.name === 'logo (2).png');
    expect(logo).toMatchObject({ contentType: 'image/png', size: 33, dimensions: { width: 64, height: 64 } });
    expect(logo?.git?.oid).toBe(gitBlobOid(png(64, 64)));
  });

  it('maps front matter to page fields and keeps the raw text in extra', () => {
    const { tree } = importOf(repo(gitbookExport()));
    const home = pageByTitle(tree, 'Home');
    const cover = tree.files.find((file) => file.name === 'cover image (1).png');
    expect(home).toMatchObject({
      slug: 'readme',
      description: 'Everything about the product.',
      icon: 'house',
      cover: { ref: { kind: 'file', file: cover?.id }, yPos: -42 },
      layout: {
        width: 'wide',
        cover: true,
        coverSize: 'hero',
        title: true,
        description: true,
        tableOfContents: true,
        outline: false,
        pagination: true,
        metadata: true,
      },
    });
    expect(home.markdown?.startsWith('Welcome. See')).toBe(true);
    expect(home.extra?.heading).toBe('\n# Home\n\n');
    expect(String(home.extra?.frontMatter)).toMatch(/^---\ndescription: Everything about the product\.\n[\s\S]*coverY: -42\n---\n$/);
    expect(pageByTitle(tree, 'FAQ [updated for 2026]')).toMatchObject({
      hidden: true,
      noIndex: true,
      description: 'Questions people ask, with a description long enough for GitBook to fold it over two lines.',
      extra: { linkTitle: 'FAQ' },
    });
    expect(pageByTitle(tree, 'Quickstart').noRobotsIndex).toBe(true);
  });

  it('turns anchors, URLs and repeated files into link pages', () => {
    const { tree } = importOf(repo(gitbookExport()));
    const quickstart = pageByTitle(tree, 'Quickstart');
    expect(pageByTitle(tree, 'Quickstart options').target).toEqual({ kind: 'anchor', anchor: 'options', page: quickstart.id });
    expect(pageByTitle(tree, 'Quickstart again').target).toEqual({ kind: 'page', page: quickstart.id });
    expect(pageByTitle(tree, 'Status page')).toMatchObject({
      type: 'link',
      target: { kind: 'url', url: 'https://status.example.com' },
      href: 'https://status.example.com',
    });
  });

  it('makes the occurrence with children the document when a file is listed twice', () => {
    const { tree, warnings } = importOf(repo(edgeCases()));
    const server = pageByTitle(tree, 'Server');
    expect(server.type).toBe('document');
    expect(server.pages[0]).toMatchObject({ type: 'link', title: 'Server', target: { kind: 'page', page: server.id } });
    const config = pageByTitle(tree, 'Config');
    expect(pageByTitle(tree, 'Config again').target).toEqual({ kind: 'page', page: config.id });
    expect(pageByTitle(tree, 'Buttons').target).toEqual({ kind: 'anchor', anchor: 'buttons', page: config.id });
    expect(pageByTitle(tree, 'Local anchor').target).toEqual({ kind: 'anchor', anchor: 'top' });
    // Deep nesting, escaped titles, link titles in single quotes, an empty link text, an empty group.
    expect(pageByTitle(tree, 'Deep 2').git?.path).toBe('server/d2.md');
    expect(pageByTitle(tree, 'Legacy (old)').extra?.linkTitle).toBe('Old one');
    expect(pageByTitle(tree, 'untitled').git?.path).toBe('untitled.md');
    expect(pageByTitle(tree, 'Empty group')).toMatchObject({ type: 'group', slug: 'empty', pages: [] });
    expect(pageByTitle(tree, 'Narrow\u202fspace \u2019quoted\u2019').git?.path).toBe('names/narrow\u202fspace \u2019quoted\u2019.md');
    // A computed item is kept as a link page holding its YAML.
    const api = pageByTitle(tree, 'API reference');
    expect(api.pages[0]).toMatchObject({
      type: 'link',
      extra: { computed: 'type: builtin:openapi\nprops: {models: false, downloadLink: true}\ndependencies: {spec: {ref: {kind: openapi, spec: petstore}}}\n' },
    });
    // *** ends the group: the next pages are at the root.
    expect(tree.pages.map((page) => page.title)).toContain('Café');
    expect(warnings).toContain('SUMMARY.md: line 28: "missing.md" does not exist; not imported');
  });

  it('reads a custom root, readme and summary, and takes titles from SUMMARY.md', () => {
    const { tree, config, warnings } = importOf(repo(handWritten()));
    expect(config).toMatchObject({ root: 'docs', readme: 'docs/what-and-why.md', summary: 'docs/summary.md' });
    expect(outline(tree.pages)).toEqual([
      'What and why? <docs/what-and-why.md>',
      [
        'Usage <docs/usage/index.md>',
        [['Basics <docs/usage/basics.md>', ['Advanced *stuff* <docs/usage/advanced.md>']], 'Images <docs/usage/images and (more).md>'],
      ],
      'Ordered <docs/ordered.md>',
      '-> Mail us',
    ]);
    // The H1 differs from the SUMMARY.md title: both kept.
    expect(pageByTitle(tree, 'What and why?').extra).toEqual({ heading: '# What and why\r\n\r\n', summaryTitle: 'What and why?' });
    // Unknown front matter keys stay in the raw text; invalid front matter is reported and kept.
    expect(pageByTitle(tree, 'Usage').description).toBe('How to use it');
    expect(warnings).toContain(
      'docs/usage/images and (more).md: front matter ignored (Nested mappings are not allowed in compact mappings); kept as written',
    );
    expect(warnings).toContain('docs/usage/images and (more).md: line 3: file "../pics/missing.png" not found');
    // Files referenced from pages: root-relative and percent-encoded paths.
    expect(tree.files.map((file) => file.git?.path)).toEqual(['docs/.gitbook/assets/shot.png', 'docs/pics/a b.png']);
    // Pages not in SUMMARY.md are not pages; the repository README outside root neither.
    const paths = [...walkPages(tree.pages)].map(({ page }) => page.git?.path);
    expect(paths).not.toContain('docs/unlisted.md');
    expect(paths).not.toContain('README.md');
  });

  it('adds the readme first when SUMMARY.md leaves it out', () => {
    const { tree, warnings } = importOf(
      repo({ 'README.md': '# Welcome\n', 'SUMMARY.md': '* [Other](other.md)\n', 'other.md': '# Other\n' }),
    );
    expect(outline(tree.pages)).toEqual(['Welcome <README.md>', 'Other <other.md>']);
    expect(warnings).toEqual(['SUMMARY.md: does not list README.md; added as the first page']);
  });

  it('reads a space in a project directory', () => {
    const { tree } = importOf(repo(monorepo()), { projectDirectory: 'packages/a' });
    expect(outline(tree.pages)).toEqual(['Package A <packages/a/docs/README.md>', 'API <packages/a/docs/api.md>']);
    expect(tree.files.map((file) => file.git?.path)).toEqual(['packages/a/docs/.gitbook/assets/x.png']);
  });
});

describe('import without SUMMARY.md', () => {
  it('infers the tree from folders: readme first, README.md as the folder page, names in order', () => {
    const { tree } = importOf(repo(folders()));
    expect(outline(tree.pages)).toEqual([
      'Welcome <README.md>',
      ['The guide <guide/README.md>', ['a-first <guide/a-first.md>', 'Second <guide/b-second.md>', 'Inner page <guide/deep/inner.md>']],
      'Introduction <intro.md>',
      'Zebra <Zebra.md>',
    ]);
    expect(tree.files.map((file) => file.name)).toEqual(['pic.png']);
  });
});

describe('import refuses paths that escape', () => {
  const summary = (line: string) => repo({ 'README.md': '# Home\n', 'SUMMARY.md': `# TOC\n\n* [Home](README.md)\n${line}\n` });

  it('refuses ../ and absolute paths in SUMMARY.md', () => {
    expect(() => importOf(summary('* [Out](../outside.md)'))).toThrow('SUMMARY.md: line 4: "../outside.md" leaves the repository');
    expect(() => importOf(summary('* [Abs](/etc/passwd.md)'))).toThrow(/SUMMARY\.md: line 4: absolute path "\/etc\/passwd\.md" is not allowed/);
    expect(() => importOf(summary('* [Out](a/../../x.md)'))).toThrow(GitSyncError);
  });

  it('allows ../ that stays inside the repository, refuses it past the project directory', () => {
    const files = {
      '.gitbook.yaml': 'root: ./docs/\n',
      'docs/README.md': '# Docs\n',
      'docs/SUMMARY.md': '* [Docs](README.md)\n* [Changelog](../CHANGELOG.md)\n',
      'CHANGELOG.md': '# Changelog\n',
    };
    expect(outline(importOf(repo(files)).tree.pages)).toEqual(['Docs <docs/README.md>', 'Changelog <CHANGELOG.md>']);
    const nested = {
      'space/.gitbook.yaml': 'root: ./docs/\n',
      'space/docs/README.md': '# Docs\n',
      'space/docs/SUMMARY.md': '* [Docs](README.md)\n* [Changelog](../../CHANGELOG.md)\n',
      'CHANGELOG.md': '# Changelog\n',
    };
    expect(() => importOf(repo(nested), { projectDirectory: 'space' })).toThrow(
      'space/docs/SUMMARY.md: line 2: "../../CHANGELOG.md" leaves the project directory',
    );
  });

  it('accepts symbolic links inside the repository', () => {
    const { tree } = importOf(repo(symlinks()));
    const alias = pageByTitle(tree, 'Alias');
    expect(alias.markdown).toBe('The target of a link.\n');
    expect(alias.git).toEqual({ path: 'alias.md', oid: gitBlobOid(new TextEncoder().encode('real.md')) });
    expect(pageByTitle(tree, 'Shared').git?.path).toBe('shared/page.md');
    expect(tree.files.map((file) => [file.git?.path, file.dimensions])).toEqual([['images/pic.png', { width: 7, height: 7 }]]);
  });

  it('refuses symbolic links pointing outside the repository', () => {
    const page = repo({ 'README.md': '# Home\n', 'SUMMARY.md': '* [Home](README.md)\n* [Secret](secret.md)\n', 'secret.md': { symlink: '../../etc/passwd' } });
    expect(() => importOf(page)).toThrow('secret.md: symbolic link to "../../etc/passwd" points outside the repository');
    const asset = repo({ 'README.md': '# Home\n', '.gitbook/assets/x.png': { symlink: '/etc/passwd' } });
    expect(() => importOf(asset)).toThrow(/\.gitbook\/assets\/x\.png: symbolic link to "\/etc\/passwd" points outside/);
    const loop = repo({ 'README.md': '# Home\n', 'SUMMARY.md': '* [Loop](a.md)\n', 'a.md': { symlink: 'b.md' }, 'b.md': { symlink: 'a.md' } });
    expect(() => importOf(loop)).toThrow(/a\.md: too many levels of symbolic links/);
  });

  it('reports page links that leave the repository without failing', () => {
    const { warnings } = importOf(repo({ 'README.md': '# Home\n\n![x](../../outside.png)\n' }));
    expect(warnings).toEqual(['README.md: line 3: "../../outside.png" leaves the repository; not imported']);
  });
});

describe('ids', () => {
  it('keeps ids across re-imports: by git.path, then by path of slugs; new pages get new ids', () => {
    const first = importOf(repo(gitbookExport()));
    const files = gitbookExport();
    // Move quickstart.md to a new file (same slug path), rename changelog's file (new slug), add a page.
    files['getting-started/quickstart/README.md'] = files['getting-started/quickstart.md'] as string;
    delete files['getting-started/quickstart.md'];
    files['SUMMARY.md'] = String(files['SUMMARY.md'])
      .replaceAll('getting-started/quickstart.md', 'getting-started/quickstart/README.md')
      .replace('changelog.md', 'history.md')
      .concat('* [Brand new](new.md)\n');
    files['history.md'] = files['changelog.md'] as string;
    files['new.md'] = '# Brand new\n';
    const second = importOf(repo(files), { previous: first.tree, prefix: 'second' });
    expect(pageByTitle(second.tree, 'Quickstart').id).toBe(pageByTitle(first.tree, 'Quickstart').id);
    expect(pageByTitle(second.tree, 'Home').id).toBe(pageByTitle(first.tree, 'Home').id);
    expect(pageByTitle(second.tree, 'Get Started').id).toBe(pageByTitle(first.tree, 'Get Started').id);
    expect(pageByTitle(second.tree, 'Quickstart again').id).toBe(pageByTitle(first.tree, 'Quickstart again').id);
    expect(pageByTitle(second.tree, 'Changelog').id).toMatch(/^second/);
    expect(pageByTitle(second.tree, 'Brand new').id).toMatch(/^second/);
    expect(second.tree.files.map((file) => file.id)).toEqual(first.tree.files.map((file) => file.id));
  });
});
