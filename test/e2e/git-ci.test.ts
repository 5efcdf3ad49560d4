/**
 * Git Sync as CI jobs run it (issue 19 §1), through the built binary, in local mode
 * and against `docsctl serve --allow-local` (every command that talks to the API):
 * shallow checkouts import on the first run; an edited page stays in its project
 * directory; an empty repository gets the layout the space came from; an export into
 * a clone with the branch checked out; CI logs; a YAML alias bomb is a 400; --debug
 * shows the git commands (local mode).
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ResultPromise, execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIT_ENV, git } from '../git/helpers.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
type Mode = 'local' | 'serve';
const MODES: Mode[] = ['local', 'serve'];

let env: Record<string, string>;
let root: string;
let token: string;
let server: { url: string; process: ResultPromise };

function docsctl(mode: Mode, args: string[]) {
  const remote = mode === 'serve' ? { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token } : {};
  return execa('node', [bin, ...args], { env: { ...env, ...remote }, extendEnv: false, reject: false, timeout: 60_000 });
}

async function ok(mode: Mode, args: string[]): Promise<string> {
  const result = await docsctl(mode, args);
  expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout.trim();
}

const newSpace = (mode: Mode) => ok(mode, ['space', 'create', '--title', 'Docs', '--format', 'ids']);

function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** A GitBook-synced repository whose content root is docs/ (`.gitbook.yaml` root: ./docs/), beside code. */
const SUMMARY = [
  '# Table of contents',
  '',
  '* [Welcome](README.md)',
  '* [Installing it](install.md "Install")',
  '* [Usage \\[beta\\]](usage.md)',
  '',
].join('\n');
const DOCS = {
  '.gitbook.yaml': 'root: ./docs/\n',
  'docs/README.md': '# Welcome\n\nHello.\n',
  'docs/SUMMARY.md': SUMMARY,
  'docs/install.md': '# Install\n\nOld steps.\n',
  'docs/usage.md': '# Usage\n\nUse it.\n',
  'src/app.js': 'console.log(1)\n',
};

/** A bare origin (two commits on main, one on a branch `feature`) in a directory of its own. */
function origin(name: string, files: Record<string, string> = DOCS): string {
  const dir = join(root, name);
  const seed = join(dir, 'seed');
  write(seed, files);
  git(dir, 'init', '-q', seed);
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'Docs');
  write(seed, { 'src/app.js': 'console.log(2)\n' });
  git(seed, 'commit', '-q', '-am', 'Code');
  git(seed, 'checkout', '-q', '-b', 'feature');
  write(seed, { 'docs/usage.md': '# Usage\n\nFeature text.\n' });
  git(seed, 'commit', '-q', '-am', 'Feature');
  git(seed, 'checkout', '-q', 'main');
  const bare = join(dir, 'origin.git');
  git(dir, 'clone', '-q', '--bare', seed, bare);
  return bare;
}

const show = (repo: string, spec: string) => git(repo, 'show', spec);
const changedFiles = (repo: string, commit = 'HEAD') => git(repo, 'diff-tree', '--no-commit-id', '--name-only', '-r', `${commit}~1`, commit).split('\n').filter(Boolean);
/** Path → blob id of a commit's tree. */
function blobs(repo: string, commit = 'HEAD'): Record<string, string> {
  return Object.fromEntries(
    git(repo, 'ls-tree', '-r', commit)
      .split('\n')
      .map((line) => {
        const [meta, path] = line.split('\t');
        return [path as string, (meta as string).split(' ')[2] as string];
      }),
  );
}

/** A file to `cr import`: the page at `name`, edited. */
function editedFile(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

/** Imports `repo` into a new space, then edits install.md through a change request. */
async function importedAndEdited(mode: Mode, repo: string, extra: string[] = []): Promise<string> {
  const space = await newSpace(mode);
  await ok(mode, ['git', 'import', space, repo, ...extra]);
  const cr = await ok(mode, ['cr', 'create', space, '--format', 'ids']);
  await ok(mode, ['cr', 'import', space, cr, editedFile(join(root, `edit-${mode}-${space}`), 'install.md', '# Install\n\nNew steps.\n')]);
  await ok(mode, ['cr', 'merge', space, cr]);
  return space;
}

beforeAll(async () => {
  const home = tempDir('docsctl-e2e-git-ci-');
  root = realpathSync(tempDir('docsctl-e2e-git-ci-repos-'));
  env = { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_STORE: join(home, 'store'), DOCSCTL_GIT_CACHE: join(home, 'git-cache'), NO_COLOR: '1', ...GIT_ENV };
  const init = await execa('node', [bin, 'init', '--org', 'Acme', '--json'], { env, extendEnv: false, reject: false });
  expect(init.exitCode, init.stderr).toBe(0);
  token = (JSON.parse(init.stdout) as { token: string }).token;
  const child = execa('node', [bin, 'serve', '--port', '0', '--allow-local', root], { env, extendEnv: false, reject: false });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /Listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve(match[1] as string);
    });
    child.on('exit', () => reject(new Error('serve exited early')));
  });
  server = { url, process: child };
}, 60_000);

afterAll(async () => {
  server?.process.kill('SIGTERM');
  await server?.process;
  cleanupTempDirs();
});

describe.each(MODES)('git sync in CI (%s)', { timeout: 180_000 }, (mode) => {
  it('imports a shallow checkout on the first run: --depth 1, --depth 2, a detached HEAD, a branch', async () => {
    const repo = origin(`shallow-${mode}`);
    const url = `file://${repo}`;
    const head = git(repo, 'rev-parse', 'main');
    const one = join(root, `shallow-${mode}`, 'depth1');
    git(root, 'clone', '-q', '--depth', '1', url, one);
    const two = join(root, `shallow-${mode}`, 'depth2');
    git(root, 'clone', '-q', '--depth', '2', url, two);
    const detached = join(root, `shallow-${mode}`, 'detached');
    git(root, 'clone', '-q', '--depth', '1', url, detached);
    git(detached, 'checkout', '-q', '--detach');
    write(detached, { 'docs/install.md': '# Install\n\nPull request text.\n' });
    git(detached, 'commit', '-q', '-am', 'PR');
    const branch = join(root, `shallow-${mode}`, 'branch');
    git(root, 'clone', '-q', '--depth', '1', '--branch', 'feature', url, branch);
    const cases: Array<[string, string[], string, string]> = [
      [one, [], head, 'Old steps.'],
      [two, [], head, 'Old steps.'],
      [detached, [], git(detached, 'rev-parse', 'HEAD'), 'Pull request text.'],
      [branch, ['--ref', 'feature'], git(repo, 'rev-parse', 'feature'), 'Feature text.'],
    ];
    for (const [workspace, flags, commit, text] of cases) {
      const space = await newSpace(mode);
      const result = await docsctl(mode, ['git', 'import', space, workspace, ...flags, '--json']);
      expect(result.exitCode, `${workspace}: ${result.stderr}`).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ commit, changed: true });
      const page = text === 'Feature text.' ? 'usage' : 'install';
      expect(await ok(mode, ['api', 'GET', `/v1/spaces/${space}/content/path/${page}?format=markdown`])).toContain(text);
    }
  });

  it('exports an edited page at its own path: the commit changes exactly that file, SUMMARY.md untouched', async () => {
    const repo = origin(`edit-${mode}`);
    const before = blobs(repo, 'main');
    const space = await importedAndEdited(mode, repo);
    expect(await ok(mode, ['page', 'list', space])).toMatch(/Installing it\tinstall\tdocs\/install\.md/);
    const exported = JSON.parse(await ok(mode, ['git', 'export', space, repo, '-m', 'Edit install', '--json'])) as { files: string[] };
    expect(exported.files).toEqual(['docs/install.md']);
    expect(changedFiles(repo, 'main')).toEqual(['docs/install.md']);
    expect(show(repo, 'main:docs/install.md')).toBe('# Install\n\nNew steps.');
    const after = blobs(repo, 'main');
    expect({ ...after, 'docs/install.md': '' }).toEqual({ ...before, 'docs/install.md': '' });

    // A page added through a change request: one new line in SUMMARY.md, the page inside docs/.
    const cr = await ok(mode, ['cr', 'create', space, '--format', 'ids']);
    await ok(mode, ['cr', 'import', space, cr, editedFile(join(root, `faq-${mode}`), 'faq.md', '# FAQ\n\nAsk.\n')]);
    await ok(mode, ['cr', 'merge', space, cr]);
    await ok(mode, ['git', 'export', space, repo, '-m', 'Add FAQ']);
    expect(changedFiles(repo, 'main').sort()).toEqual(['docs/SUMMARY.md', 'docs/faq.md']);
    expect(show(repo, 'main:docs/SUMMARY.md') + '\n').toBe(`${SUMMARY}* [FAQ](faq.md)\n`);
  });

  it('exports into a new, empty repository with the layout the space came from', async () => {
    const repo = origin(`layout-${mode}`);
    const space = await newSpace(mode);
    await ok(mode, ['git', 'import', space, repo]);
    const empty = join(root, `layout-${mode}`, 'new.git');
    git(root, 'init', '-q', '--bare', empty);
    await ok(mode, ['git', 'export', space, empty, '-m', 'First']);
    const { 'src/app.js': _code, ...content } = blobs(repo, 'main');
    expect(blobs(empty, 'main')).toEqual(content);
    const info = JSON.parse(await ok(mode, ['git', 'info', space, '--json'])) as Record<string, unknown>;
    expect(info.layout).toEqual({ config: '.gitbook.yaml', root: 'docs', readme: 'docs/README.md', summary: 'docs/SUMMARY.md' });
  });

  it('exports into a clone with the branch checked out: the commit on the branch, a clean work tree moved; changes refused, --dry-run alike', async () => {
    const repo = origin(`workcopy-${mode}`);
    const clone = join(root, `workcopy-${mode}`, 'clone');
    git(root, 'clone', '-q', `file://${repo}`, clone);
    const space = await importedAndEdited(mode, clone);
    const head = git(clone, 'rev-parse', 'HEAD');

    // --dry-run needs no -m, and says what the export would write.
    const preview = await docsctl(mode, ['git', 'export', space, clone, '--dry-run']);
    expect(preview.exitCode, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/^change {3}docs\/install\.md\ndry run: 1 file\(s\) to write/);
    const noMessage = await docsctl(mode, ['git', 'export', space, clone]);
    expect(noMessage.exitCode).toBe(2);
    expect(noMessage.stderr).toMatch(/-m, --message/);

    // A work tree with changes: both refuse, with the reason, and nothing moves.
    writeFileSync(join(clone, 'docs/README.md'), '# Welcome\n\nLocal change.\n');
    for (const args of [['--dry-run'], ['-m', 'Edit']]) {
      const refused = await docsctl(mode, ['git', 'export', space, clone, ...args]);
      expect(refused.exitCode, refused.stderr).toBe(5);
      expect(refused.stderr).toMatch(/^error: Cannot export to .* at refs\/heads\/main: the branch is checked out in .*clone and its work tree has unstaged changes/);
    }
    expect(git(clone, 'rev-parse', 'HEAD')).toBe(head);

    git(clone, 'checkout', '-q', '--', 'docs/README.md');
    const done = await docsctl(mode, ['git', 'export', space, clone, '-m', 'Edit install']);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(git(clone, 'log', '-1', '--format=%s')).toBe('Edit install');
    expect(git(clone, 'rev-parse', 'HEAD^')).toBe(head);
    expect(git(clone, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(clone, 'docs/install.md'), 'utf8')).toBe('# Install\n\nNew steps.\n');
    expect(git(clone, 'for-each-ref', 'refs/docsctl')).toBe('');
  });

  it('CI logs: one line off a terminal, the files with --verbose or --json; --author; --ref names what was given; a directory is not HEAD', async () => {
    const pages: Record<string, string> = { 'README.md': '# Home\n' };
    for (let i = 1; i <= 12; i += 1) pages[`page-${i}.md`] = `# Page ${i}\n`;
    pages['SUMMARY.md'] = `# Table of contents\n\n${Object.keys(pages).map((path) => `* [${path}](${path})`).join('\n')}\n`;
    const directory = join(root, `logs-${mode}`, 'handbook');
    write(directory, pages);
    const space = await newSpace(mode);
    const imported = await docsctl(mode, ['git', 'import', space, directory]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^Imported the directory .*handbook into space \S+: new revision \S+$/);
    expect(imported.stdout + imported.stderr).not.toMatch(/HEAD/);
    expect(JSON.parse(await ok(mode, ['git', 'import', space, directory, '--json']))).toMatchObject({ ref: null });

    const missing = await docsctl(mode, ['git', 'import', space, origin(`logs-${mode}-ref`), '--ref', 'nosuchbranch']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/^error: Cannot fetch file:\/\/.*origin\.git: no branch or tag "nosuchbranch" \(list its branches and tags with: git ls-remote file:\/\/.*\)$/);

    const targets = ['one', 'two', 'three'].map((name) => {
      const bare = join(root, `logs-${mode}`, `${name}.git`);
      git(root, 'init', '-q', '--bare', bare);
      return bare;
    });
    const line = await docsctl(mode, ['git', 'export', space, targets[0] as string, '-m', 'All', '--author', 'Docs Bot <bot@acme.io>']);
    expect(line.exitCode, line.stderr).toBe(0);
    expect(line.stdout).toMatch(/^Committed [0-9a-f]{12} to file:\/\/.*one\.git refs\/heads\/main: 14 file\(s\) changed \(--verbose lists them\)$/);
    expect(git(targets[0] as string, 'log', '-1', '--format=%an <%ae>', 'main')).toBe('Docs Bot <bot@acme.io>');
    const verbose = await ok(mode, ['git', 'export', space, targets[1] as string, '-m', 'All', '--verbose']);
    expect(verbose.split('\n')).toHaveLength(15);
    expect(verbose).toContain('\n  page-12.md');
    const json = JSON.parse(await ok(mode, ['git', 'export', space, targets[2] as string, '-m', 'All', '--json'])) as { files: string[] };
    expect(json.files).toHaveLength(14);
    const bad = await docsctl(mode, ['git', 'export', space, targets[2] as string, '-m', 'x', '--author', 'no email']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/Invalid --author "no email": give it as "Name <email>"/);
  });

  it('lists the files on a terminal (a pseudo-terminal, as a person runs it)', async () => {
    const repo = origin(`tty-${mode}`);
    const space = await newSpace(mode);
    await ok(mode, ['git', 'import', space, repo]);
    const empty = join(root, `tty-${mode}`, 'new.git');
    git(root, 'init', '-q', '--bare', empty);
    const remote = mode === 'serve' ? { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token } : {};
    const command = ['node', bin, 'git', 'export', space, empty, '-m', 'First', '--quiet'].map((word) => `'${word}'`).join(' ');
    const result = await execa('script', ['-qec', command, '/dev/null'], { env: { ...env, ...remote }, extendEnv: false, reject: false, timeout: 60_000 });
    expect(result.exitCode, result.stdout).toBe(0);
    // stdout and stderr share the terminal: the report follows the "Exporting…" line.
    const all = result.stdout.replace(/\r/g, '').trim().split('\n');
    const lines = all.slice(all.findIndex((line) => line.startsWith('Committed')));
    expect(lines[0]).toMatch(/^Committed [0-9a-f]{12} to .*new\.git refs\/heads\/main: 5 file\(s\) changed$/);
    expect(lines.slice(1)).toEqual(['  .gitbook.yaml', '  docs/README.md', '  docs/SUMMARY.md', '  docs/install.md', '  docs/usage.md']);
  });

  it('refuses a YAML alias bomb in front matter with a 400 naming the file (exit 2), and keeps serving', async () => {
    const lines = ['---', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i += 1) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    const bomb = origin(`bomb-${mode}`, {
      'README.md': '# Home\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Page](page.md)\n',
      'page.md': `${lines.join('\n')}\n---\n# Page\n`,
      'src/app.js': '1\n',
      'docs/usage.md': '# Usage\n',
    });
    const space = await newSpace(mode);
    const result = await docsctl(mode, ['git', 'import', space, bomb]);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^error: Cannot import file:\/\/.*: page\.md: front matter refused: its YAML aliases expand past 100 uses/);
    expect(await ok(mode, ['space', 'get', space, '--json', 'id'])).toContain(space);
  });
});

describe('--debug in local mode', () => {
  it('shows each git command Git Sync runs', { timeout: 60_000 }, async () => {
    const repo = origin('debug');
    const space = await newSpace('local');
    const result = await docsctl('local', ['git', 'import', space, repo, '--debug']);
    expect(result.exitCode, result.stderr).toBe(0);
    const commands = result.stderr.split('\n').filter((line) => line.startsWith('[debug] git '));
    expect(commands.some((line) => / fetch --no-tags .*--end-of-options .*origin\.git/.test(line))).toBe(true);
    expect(commands.some((line) => / cat-file --batch/.test(line))).toBe(true);
    expect(commands.every((line) => line.includes('-c core.hooksPath=/dev/null'))).toBe(true);
  });
});
