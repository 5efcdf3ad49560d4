import { describe, expect, it } from 'vitest';
import { parseConfig, readConfig } from '../../src/gitsync/config.js';
import { GitSyncError } from '../../src/gitsync/errors.js';
import { repo } from './helpers.js';

describe('.gitbook.yaml', () => {
  it('uses every default when missing or empty', () => {
    const defaults = { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: [] };
    expect(readConfig(repo({}))).toMatchObject({ ...defaults, exists: false, path: '.gitbook.yaml' });
    expect(readConfig(repo({ '.gitbook.yaml': '' }))).toMatchObject({ ...defaults, exists: true });
    expect(readConfig(repo({ '.gitbook.yaml': '# only a comment\n' }))).toMatchObject(defaults);
  });

  it('resolves root, then structure against root, inside the project directory', () => {
    const config = parseConfig('root: ./docs/\nstructure:\n  readme: ./what-and-why.md\n  summary: toc/summary.md\n', {
      projectDirectory: './packages/a/',
    });
    expect(config).toMatchObject({
      projectDirectory: 'packages/a',
      path: 'packages/a/.gitbook.yaml',
      root: 'packages/a/docs',
      readme: 'packages/a/docs/what-and-why.md',
      summary: 'packages/a/docs/toc/summary.md',
    });
  });

  it('keeps redirects in file order', () => {
    const config = parseConfig('redirects:\n  b/old: ./README.md\n  2019: new.md\n  ext: https://example.com\n');
    expect(config.redirects).toEqual([
      { from: 'b/old', to: './README.md' },
      { from: '2019', to: 'new.md' },
      { from: 'ext', to: 'https://example.com' },
    ]);
  });

  it('refuses paths that leave the repository or the project directory', () => {
    expect(() => parseConfig('root: ../elsewhere\n')).toThrow(/\.gitbook\.yaml: root "\.\.\/elsewhere" leaves the repository/);
    expect(() => parseConfig('root: /etc\n')).toThrow(GitSyncError);
    expect(() => parseConfig('structure:\n  readme: ../../x.md\n', { projectDirectory: 'a' })).toThrow(
      /a\/\.gitbook\.yaml: structure\.readme "\.\.\/\.\.\/x\.md" leaves the project directory/,
    );
    expect(() => parseConfig('root: ../b\n', { projectDirectory: 'packages/a' })).toThrow(/leaves the project directory/);
    expect(() => parseConfig(undefined, { projectDirectory: '../up' })).toThrow(/project directory "\.\.\/up" leaves the repository/);
  });

  it('refuses unreadable files with a one-line message naming the file', () => {
    let error: unknown;
    try {
      parseConfig('root: [unclosed\nstructure: {\n');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GitSyncError);
    expect((error as GitSyncError).message).toMatch(/^\.gitbook\.yaml: invalid YAML/);
    expect((error as GitSyncError).message).not.toContain('\n');
    expect((error as GitSyncError).file).toBe('.gitbook.yaml');
    expect(() => parseConfig('- a\n- b\n')).toThrow(/expected a mapping/);
    expect(() => parseConfig('structure: README.md\n')).toThrow(/"structure" must be a mapping/);
    expect(() => parseConfig('root: 3\n')).toThrow(/"root" must be a path/);
  });

  it('refuses a .gitbook.yaml that is a symbolic link leaving the repository', () => {
    expect(() => readConfig(repo({ '.gitbook.yaml': { symlink: '../../etc/config.yaml' } }))).toThrow(
      /\.gitbook\.yaml: symbolic link to "\.\.\/\.\.\/etc\/config\.yaml" points outside the repository/,
    );
  });
});
