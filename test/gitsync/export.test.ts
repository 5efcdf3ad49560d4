import { describe, expect, it } from 'vitest';
import type { ContentPage, ContentTree } from '../../src/content-model/model.js';
import { gitBlobOid } from '../../src/gitsync/blob.js';
import { exportRepository } from '../../src/gitsync/export.js';
import { folders, gitbookExport, handWritten, monorepo, symlinks } from './fixtures.js';
import { exportAndReimport, importOf, pageByTitle, png, repo, text, writtenText } from './helpers.js';

function doc(id: string, title: string, markdown: string, pages: ContentPage[] = []): ContentPage {
  return { id, type: 'document', title, markdown, pages };
}

function edit(tree: ContentTree): ContentTree {
  return structuredClone(tree);
}

describe('export: new pages', () => {
  it('names a new page slug.md under its group and adds its line to SUMMARY.md', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    const guides = pageByTitle(tree, 'Guides');
    guides.pages.splice(1, 0, doc('new1', 'Deploying & Hosting', 'Deploy it.\n'));
    const { result, reimported } = exportAndReimport(tree, snapshot);
    expect([...result.writes.keys()].sort()).toEqual(['SUMMARY.md', 'guides/deploying-and-hosting.md']);
    expect(result.deletes).toEqual([]);
    expect(writtenText(result, 'guides/deploying-and-hosting.md')).toBe('# Deploying & Hosting\n\nDeploy it.\n');
    expect(writtenText(result, 'SUMMARY.md')).toBe(
      [
        '# Table of contents',
        '',
        '* [Home](README.md)',
        '* [FAQ \\[updated for 2026\\]](faq.md "FAQ")',
        '',
        '## Get Started <a href="#getting-started" id="getting-started"></a>',
        '',
        '* [Getting started](getting-started/README.md)',
        '  * [Quickstart](getting-started/quickstart.md)',
        '  * [Install `when()`](getting-started/install.md)',
        '  * [Quickstart options](getting-started/quickstart.md#options)',
        '* [Status page](https://status.example.com)',
        '',
        '## Guides',
        '',
        '* [Writing](guides/writing/README.md)',
        '  * [Vue.js no-code email builder](guides/writing/vue.js-no-code-email-builder.md)',
        '* [Deploying & Hosting](guides/deploying-and-hosting.md)',
        '* [Quickstart again](getting-started/quickstart.md)',
        '',
        '***',
        '',
        '* [Changelog](changelog.md)',
        '',
      ].join('\n'),
    );
    const added = pageByTitle(result.tree, 'Deploying & Hosting');
    expect(added.id).toBe('new1');
    expect(added.slug).toBe('deploying-and-hosting');
    expect(added.git).toEqual({ path: 'guides/deploying-and-hosting.md', oid: gitBlobOid(result.writes.get('guides/deploying-and-hosting.md') as Uint8Array) });
    expect(pageByTitle(reimported.tree, 'Deploying & Hosting').id).toBe('new1');
  });

  it('writes a new page with front matter fields in GitBook style', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    const page: ContentPage = {
      ...doc('new2', 'Styled', 'Body.\n'),
      description: 'A short description',
      icon: 'rocket',
      hidden: true,
      layout: { width: 'wide', title: true, outline: false },
    };
    tree.pages.push(page);
    const { result } = exportAndReimport(tree, snapshot);
    expect(writtenText(result, 'styled.md')).toBe(
      [
        '---',
        'description: A short description',
        'icon: rocket',
        'layout:',
        '  width: wide',
        '  title:',
        '    visible: true',
        '  outline:',
        '    visible: false',
        'hidden: true',
        '---',
        '',
        '# Styled',
        '',
        'Body.',
        '',
      ].join('\n'),
    );
  });

  it('adds -1 when the name is taken by a file the space does not own', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    tree.pages.push(doc('new3', 'Orphan', 'Mine.\n'));
    const { result } = exportAndReimport(tree, snapshot);
    expect(result.writes.has('orphan.md')).toBe(false);
    expect(writtenText(result, 'orphan-1.md')).toBe('# Orphan\n\nMine.\n');
    expect(pageByTitle(result.tree, 'Orphan').slug).toBe('orphan-1');
  });

  it('dedupes slugs among siblings', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    tree.pages.push(doc('a', 'Notes', 'One\n'), doc('b', 'Notes', 'Two\n'));
    const { result } = exportAndReimport(tree, snapshot);
    expect(writtenText(result, 'notes.md')).toBe('# Notes\n\nOne\n');
    expect(writtenText(result, 'notes-1.md')).toBe('# Notes\n\nTwo\n');
  });

  it('writes a new page with children as slug/README.md and its children inside', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    tree.pages.push(doc('p', 'Platform', 'Parent\n', [doc('c', 'Child page', 'Child\n')]));
    const { result } = exportAndReimport(tree, snapshot);
    expect(writtenText(result, 'platform/README.md')).toBe('# Platform\n\nParent\n');
    expect(writtenText(result, 'platform/child-page.md')).toBe('# Child page\n\nChild\n');
  });

  it('exports a whole new space into an empty repository', () => {
    const empty = repo({});
    const tree: ContentTree = {
      pages: [
        doc('home', 'Home', 'Welcome to [the guide](guide/start.md).\n', [doc('h1', 'Under home', 'x\n')]),
        { id: 'g', type: 'group', title: 'Guide', slug: 'guide', pages: [doc('s', 'Start', 'Go.\n')] },
        { id: 'l', type: 'link', title: 'Site', target: { kind: 'url', url: 'https://example.com' }, href: 'https://example.com', pages: [] },
      ],
      files: [{ id: 'f', name: 'logo.png', contentType: 'image/png', size: 33, data: png(), dimensions: { width: 1, height: 1 } }],
    };
    const { result } = exportAndReimport(tree, empty);
    expect([...result.writes.keys()].sort()).toEqual([
      '.gitbook/assets/logo.png',
      'README.md',
      'SUMMARY.md',
      'guide/start.md',
      'readme/under-home.md',
    ]);
    expect(writtenText(result, 'SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Home](README.md)\n  * [Under home](readme/under-home.md)\n\n## Guide\n\n* [Start](guide/start.md)\n\n***\n\n* [Site](https://example.com)\n',
    );
  });
});

describe('export: moves', () => {
  const base = () =>
    repo({
      'README.md': '# Home\n\nSee [the API](api.md) and [setup](guide/setup.md).\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [API](api.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n',
      'api.md': '# API\n\n![diagram](.gitbook/assets/diagram.png) and [home](README.md).\n',
      'guide/README.md': '# Guide\n\n{% content-ref url="../api.md" %}\n[api.md](../api.md)\n{% endcontent-ref %}\n',
      'guide/setup.md': '# Setup\n\nBack to [the guide](./) or [API](../api.md#auth).\n',
      '.gitbook/assets/diagram.png': png(),
    });

  it('moves x.md to x/README.md when the page gains children, rewriting links', () => {
    const snapshot = base();
    const tree = edit(importOf(snapshot).tree);
    pageByTitle(tree, 'API').pages.push(doc('ep', 'Endpoints', 'List.\n'));
    const { result } = exportAndReimport(tree, snapshot);
    expect(result.deletes).toEqual(['api.md']);
    expect([...result.writes.keys()].sort()).toEqual([
      'README.md',
      'SUMMARY.md',
      'api/README.md',
      'api/endpoints.md',
      'guide/README.md',
      'guide/setup.md',
    ]);
    expect(writtenText(result, 'api/README.md')).toBe('# API\n\n![diagram](../.gitbook/assets/diagram.png) and [home](../README.md).\n');
    expect(writtenText(result, 'README.md')).toBe('# Home\n\nSee [the API](api/README.md) and [setup](guide/setup.md).\n');
    expect(writtenText(result, 'guide/README.md')).toBe(
      '# Guide\n\n{% content-ref url="../api/README.md" %}\n[api.md](../api/README.md)\n{% endcontent-ref %}\n',
    );
    expect(writtenText(result, 'guide/setup.md')).toBe('# Setup\n\nBack to [the guide](./) or [API](../api/README.md#auth).\n');
    const api = pageByTitle(result.tree, 'API');
    expect(api.git?.path).toBe('api/README.md');
    expect(api.slug).toBe('api');
  });

  it('moves x/README.md back to x.md when the page loses its children', () => {
    const snapshot = base();
    const tree = edit(importOf(snapshot).tree);
    pageByTitle(tree, 'Guide').pages = [];
    const { result } = exportAndReimport(tree, snapshot);
    expect(result.deletes).toEqual(['guide/README.md', 'guide/setup.md']);
    expect(writtenText(result, 'guide.md')).toBe(
      '# Guide\n\n{% content-ref url="api.md" %}\n[api.md](api.md)\n{% endcontent-ref %}\n',
    );
  });

  it('renames a file when the slug changes', () => {
    const snapshot = base();
    const tree = edit(importOf(snapshot).tree);
    pageByTitle(tree, 'API').slug = 'reference';
    const { result } = exportAndReimport(tree, snapshot);
    expect(result.deletes).toEqual(['api.md']);
    expect(writtenText(result, 'reference.md')).toBe(text(snapshot, 'api.md'));
  });

  it('deletes the file of a removed page, never files the space does not own', () => {
    const snapshot = repo({ ...Object.fromEntries([...base()].map(([k, v]) => [k, new TextDecoder().decode(v.data)])), 'notes.md': '# Not listed\n' });
    const tree = edit(importOf(snapshot).tree);
    tree.pages = tree.pages.filter((page) => page.title !== 'API');
    const { result } = exportAndReimport(tree, snapshot);
    expect(result.deletes).toEqual(['api.md']);
    expect(writtenText(result, 'SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n',
    );
  });
});

describe('export: edits to imported pages', () => {
  it('patches only the changed front matter keys, keeping unknown keys', () => {
    const snapshot = repo(handWritten());
    const tree = edit(importOf(snapshot).tree);
    const usage = pageByTitle(tree, 'Usage');
    usage.description = 'New description';
    usage.hidden = true;
    const { result } = exportAndReimport(tree, snapshot);
    expect([...result.writes.keys()]).toEqual(['docs/usage/index.md']);
    expect(writtenText(result, 'docs/usage/index.md')).toBe(
      '---\nname: usage\ntitle: Usage (front matter title)\ndescriptoin: misspelt key\ndescription: New description\nhidden: true\n---\n# Usage guide\n\nSee [basics](basics.md).',
    );
  });

  it('rewrites the H1 and SUMMARY.md when the title changes', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    pageByTitle(tree, 'Changelog').title = 'Release notes';
    const { result } = exportAndReimport(tree, snapshot);
    expect([...result.writes.keys()].sort()).toEqual(['SUMMARY.md', 'changelog.md']);
    expect(writtenText(result, 'changelog.md')).toBe(text(snapshot, 'changelog.md')?.replace('# Changelog', '# Release notes'));
    expect(writtenText(result, 'SUMMARY.md')).toContain('* [Release notes](changelog.md)\n');
  });

  it('keeps CRLF line endings and missing final newlines of edited pages', () => {
    const snapshot = repo(handWritten());
    const tree = edit(importOf(snapshot).tree);
    const basics = pageByTitle(tree, 'Basics');
    basics.icon = 'star';
    basics.markdown = `${basics.markdown ?? ''}More.\r\n`;
    pageByTitle(tree, 'Advanced *stuff*').markdown = 'Edited, still no final newline';
    const { result } = exportAndReimport(tree, snapshot);
    expect(writtenText(result, 'docs/usage/basics.md')).toBe(
      '---\r\nicon: star\r\n---\r\n\r\n# Basics\r\n\r\nCRLF body with ![img](/.gitbook/assets/shot.png)\r\nMore.\r\n',
    );
    expect(writtenText(result, 'docs/usage/advanced.md')).toBe('Edited, still no final newline');
  });

  it('writes a changed symlinked page to the link target, never over the link', () => {
    const snapshot = repo(symlinks());
    const tree = edit(importOf(snapshot).tree);
    pageByTitle(tree, 'Alias').markdown = 'Changed through the link.\n';
    const result = exportRepository(tree, snapshot, {});
    expect([...result.writes.keys()]).toEqual(['real.md']);
    expect(writtenText(result, 'real.md')).toBe('# Real page\n\nChanged through the link.\n');
    expect(pageByTitle(result.tree, 'Alias').git).toEqual({ path: 'alias.md', oid: gitBlobOid(new TextEncoder().encode('real.md')) });
  });
});

describe('export: pages from elsewhere', () => {
  it('renders a page this converter did not read in GitBook layout, even at an existing path', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    const install = pageByTitle(tree, 'Install when()');
    delete install.extra;
    install.description = 'Installing';
    const { result } = exportAndReimport(tree, snapshot);
    expect([...result.writes.keys()]).toEqual(['getting-started/install.md']);
    expect(writtenText(result, 'getting-started/install.md')).toBe('---\ndescription: Installing\n---\n\n# Install when()\n\nRun it.\n');
  });
});

describe('export: files', () => {
  it('writes new assets to .gitbook/assets, with " (1)" on a clash', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    tree.files.push(
      { id: 'f1', name: 'image.png', contentType: 'image/png', size: 33, data: png(9, 9), dimensions: { width: 9, height: 9 } },
      { id: 'f2', name: 'diagram (v2).png', contentType: 'image/png', size: 33, data: png(8, 8), dimensions: { width: 8, height: 8 } },
    );
    const { result } = exportAndReimport(tree, snapshot);
    expect([...result.writes.keys()].sort()).toEqual(['.gitbook/assets/diagram (v2).png', '.gitbook/assets/image (1).png']);
    const added = result.tree.files.find((file) => file.id === 'f1');
    expect(added?.name).toBe('image (1).png');
    expect(added?.git?.path).toBe('.gitbook/assets/image (1).png');
  });

  it('rewrites a changed file in place and deletes a removed asset', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    const logo = tree.files.find((file) => file.name === 'logo (2).png');
    if (!logo) throw new Error('no logo');
    logo.data = png(128, 128);
    logo.dimensions = { width: 128, height: 128 };
    tree.files = tree.files.filter((file) => file.name !== 'guide.pdf');
    const result = exportRepository(tree, snapshot, {});
    expect([...result.writes.keys()]).toEqual(['.gitbook/assets/logo (2).png']);
    expect(result.deletes).toEqual(['.gitbook/assets/guide.pdf']);
  });

  it('writes the cover of a page as a path relative to the page', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    const image = tree.files.find((file) => file.name === 'image.png');
    pageByTitle(tree, 'Install when()').cover = { ref: { kind: 'file', file: image?.id ?? '' }, yPos: 10 };
    const { result } = exportAndReimport(tree, snapshot);
    expect(writtenText(result, 'getting-started/install.md')).toBe(
      '---\ncover: ../.gitbook/assets/image.png\ncoverY: 10\n---\n\n# Install `when()`\n\nRun it.\n',
    );
  });
});

describe('export: structure', () => {
  it('keeps SUMMARY.md as written while the structure is the same', () => {
    const snapshot = repo(handWritten());
    const tree = edit(importOf(snapshot).tree);
    pageByTitle(tree, 'Images').markdown = 'Only the body changed: ![a](../pics/a%20b.png)\n';
    const { result } = exportAndReimport(tree, snapshot);
    expect([...result.writes.keys()]).toEqual(['docs/usage/images and (more).md']);
  });

  it('edits a hand-written SUMMARY.md when a page moves: only the moved page\'s line changes, in the file\'s style', () => {
    const snapshot = repo(handWritten());
    const tree = edit(importOf(snapshot).tree);
    const usage = pageByTitle(tree, 'Usage');
    const images = usage.pages.pop() as ContentPage;
    tree.pages.push(images);
    const { result } = exportAndReimport(tree, snapshot);
    expect([...result.writes.keys()]).toEqual(['docs/summary.md']);
    expect(writtenText(result, 'docs/summary.md')).toBe(
      [
        '# Summary',
        '',
        '- [What and why?](what-and-why.md)',
        '- [Usage](usage/index.md)',
        '    - [Basics](usage/basics.md)',
        '        + [Advanced *stuff*](usage/advanced.md)',
        '1. [Ordered](ordered.md)',
        '',
        'Some text that is not an item.',
        '',
        '### Not a group',
        '',
        '- Plain text item',
        '- [Mail us](mailto:team@example.com)',
        '- [Images](<usage/images and (more).md>)',
      ].join('\n'),
    );
  });

  it('writes a SUMMARY.md for a folder-inferred space only once its structure changes', () => {
    const snapshot = repo(folders());
    const tree = edit(importOf(snapshot).tree);
    pageByTitle(tree, 'Zebra').markdown = 'Stripes.\n';
    expect([...exportRepository(tree, snapshot, {}).writes.keys()]).toEqual(['Zebra.md']);
    tree.pages.push(doc('n', 'New one', 'x\n'));
    const { result } = exportAndReimport(tree, snapshot);
    expect(writtenText(result, 'SUMMARY.md')).toBe(
      [
        '# Table of contents',
        '',
        '* [Welcome](README.md)',
        '* [The guide](guide/README.md)',
        '  * [a-first](guide/a-first.md)',
        '  * [Second](guide/b-second.md)',
        '  * [Inner page](guide/deep/inner.md)',
        '* [Introduction](intro.md)',
        '* [Zebra](Zebra.md)',
        '* [New one](new-one.md)',
        '',
      ].join('\n'),
    );
  });
});

describe('export: other cases', () => {
  it('writes inside the project directory of a monorepo and leaves other spaces alone', () => {
    const snapshot = repo(monorepo());
    const tree = edit(importOf(snapshot, { projectDirectory: 'packages/a' }).tree);
    tree.pages.push(doc('n', 'Errors', 'E\n'));
    const { result } = exportAndReimport(tree, snapshot, 'packages/a');
    expect([...result.writes.keys()].sort()).toEqual(['packages/a/docs/SUMMARY.md', 'packages/a/docs/errors.md']);
    expect(writtenText(result, 'packages/a/docs/SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Package A](README.md)\n* [API](api.md)\n* [Errors](errors.md)\n',
    );
  });

  it('drops a link page whose target page is gone, with a warning', () => {
    const snapshot = repo(gitbookExport());
    const tree = edit(importOf(snapshot).tree);
    const group = pageByTitle(tree, 'Get Started');
    const gettingStarted = pageByTitle(tree, 'Getting started');
    gettingStarted.pages = gettingStarted.pages.filter((page) => page.title !== 'Quickstart');
    const result = exportRepository(tree, snapshot, {});
    expect(result.deletes).toEqual(['getting-started/quickstart.md']);
    expect(result.warnings).toContain('link page "Quickstart options" has no target that can be written; left out of SUMMARY.md');
    expect(writtenText(result, 'SUMMARY.md')).not.toContain('quickstart.md');
    expect(group.pages.length).toBe(2);
  });

  it('never deletes orphan files, includes, or files under .gitbook it did not import', () => {
    const snapshot = repo(gitbookExport());
    const tree: ContentTree = { pages: [doc('only', 'Only page', 'x\n')], files: [] };
    const result = exportRepository(tree, snapshot, {});
    expect(result.deletes).not.toContain('orphan.md');
    expect(result.deletes).not.toContain('.gitbook/includes/shared.md');
    expect(result.deletes).not.toContain('scripts/build.sh');
    expect(result.deletes).toContain('faq.md');
    expect(result.deletes).toContain('.gitbook/assets/guide.pdf');
    // The first page takes README.md, which the space owned.
    expect(writtenText(result, 'README.md')).toBe('# Only page\n\nx\n');
  });
});
