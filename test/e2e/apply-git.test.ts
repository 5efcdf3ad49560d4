/**
 * A space's Git source in an organization file (`git: {url, ref, dir}`), through the built
 * binary: `apply` creates the space and imports the repository (locally, and against
 * `docsctl serve --allow-local`), a second `apply` plans nothing, a changed ref plans
 * `~ space … git:` and imports again; `serve --seed` imports it into the seeded store.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ResultPromise, execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRemote, makeRemote } from '../git/helpers.js';
import { bin } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

let remote: TestRemote;
const home = tempDir('docsctl-apply-git-');
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: home,
  XDG_DATA_HOME: join(home, 'data'),
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
  TMPDIR: join(home, 'tmp'),
  NO_COLOR: '1',
};
mkdirSync(env.TMPDIR as string);

const docsctl = (args: readonly string[], extra: Record<string, string> = {}) =>
  execa('node', [bin, ...args], { env: { ...env, ...extra }, extendEnv: false, reject: false, timeout: 120_000 });

const orgFile = (name: string, ref: string) => {
  const file = join(home, name);
  writeFileSync(file, `spaces:\n  - {title: Docs, git: {url: "${remote.url}", ref: ${ref}, dir: docs}}\n`);
  return file;
};

beforeAll(() => {
  remote = makeRemote();
  remote.commit({
    'docs/README.md': '# Welcome\n\nHello.\n',
    'docs/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n',
    'docs/install.md': '# Install\n\nSteps.\n',
    'src/app.js': 'console.log(1)\n',
  });
  remote.commit({ 'docs/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Upgrade](upgrade.md)\n', 'docs/upgrade.md': '# Upgrade\n\nNew.\n', 'docs/install.md': null }, 'next', 'next');
});

afterAll(() => {
  remote?.cleanup();
  cleanupTempDirs();
});

const pageTitles = async (extra: Record<string, string>) => {
  const spaces = JSON.parse((await docsctl(['space', 'list', '--json', 'id,title'], extra)).stdout) as Array<{ id: string; title: string }>;
  const docs = spaces.find((space) => space.title === 'Docs');
  if (!docs) throw new Error('no space Docs');
  const pages = await docsctl(['page', 'list', docs.id, '--json', 'title'], extra);
  return (JSON.parse(pages.stdout) as Array<{ title: string }>).map((page) => page.title);
};

describe.each(['local', 'serve'] as const)('apply -f with a Git source (%s)', { timeout: 240_000 }, (mode) => {
  let extra: Record<string, string>;
  let serve: ResultPromise | undefined;

  beforeAll(async () => {
    const store = join(home, `store-${mode}`);
    const init = await docsctl(['init', '--org', 'Acme', '--json'], { DOCSCTL_STORE: store });
    const { token } = JSON.parse(init.stdout) as { token: string };
    extra = { DOCSCTL_STORE: store };
    if (mode === 'serve') {
      serve = execa('node', [bin, 'serve', '--port', '0', '--allow-local', remote.root], { env: { ...env, DOCSCTL_STORE: store }, extendEnv: false, reject: false });
      const url = await new Promise<string>((resolve) => {
        let seen = '';
        serve?.stdout?.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const match = /Listening on (\S+)/.exec(seen);
          if (match) resolve(match[1] as string);
        });
      });
      extra = { DOCSCTL_ENDPOINT: url, DOCSCTL_TOKEN: token };
    }
  });

  afterAll(async () => {
    serve?.kill('SIGTERM');
    await serve;
  });

  it('creates the space and imports its project directory; a second apply plans nothing', async () => {
    const file = orgFile(`org-${mode}.yaml`, 'main');
    const applied = await docsctl(['apply', '-f', file], extra);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('+ space Docs');
    expect(applied.stdout).toContain(`git: "${remote.url} refs/heads/main docs/"`);
    expect(await pageTitles(extra)).toEqual(['Welcome', 'Install']);
    const again = await docsctl(['diff', '-f', file], extra);
    expect(again.exitCode, again.stdout).toBe(0);
    expect(again.stderr).toContain('Nothing to change');
  });

  it('a changed ref plans "~ space Docs git: old → new" and imports that branch', async () => {
    const file = orgFile(`org-${mode}-next.yaml`, 'next');
    const diff = await docsctl(['diff', '-f', file], extra);
    expect(diff.exitCode).toBe(1);
    expect(diff.stdout).toContain('~ space Docs');
    expect(diff.stdout).toContain(`git: "${remote.url} refs/heads/main docs/" → "${remote.url} refs/heads/next docs/"`);
    expect((await docsctl(['apply', '-f', file], extra)).exitCode).toBe(0);
    expect(await pageTitles(extra)).toEqual(['Welcome', 'Upgrade']);
    expect((await docsctl(['diff', '-f', file], extra)).exitCode).toBe(0);
  });

  it('export org writes the Git source the space synced with, and that export plans nothing', async () => {
    const written = join(home, `export-${mode}.yaml`);
    expect((await docsctl(['export', 'org', '-o', written], extra)).exitCode).toBe(0);
    const { parse } = await import('yaml');
    const { readFileSync } = await import('node:fs');
    const file = parse(readFileSync(written, 'utf8')) as { spaces: Array<{ title: string; git?: unknown }> };
    expect(file.spaces.find((space) => space.title === 'Docs')?.git).toEqual({ url: remote.url, ref: 'refs/heads/next', dir: 'docs' });
    const diff = await docsctl(['diff', '-f', written, '--prune'], extra);
    expect([diff.exitCode, diff.stdout], diff.stderr).toEqual([0, '']);
  });
});

describe('serve --seed with a Git source', { timeout: 240_000 }, () => {
  it('imports the repository into the seeded store', async () => {
    const file = orgFile('seed.yaml', 'main');
    writeFileSync(file, `organization: {title: Seeded Docs}\n${(await import('node:fs')).readFileSync(file, 'utf8')}`);
    const serve = execa('node', [bin, 'serve', '--seed', file, '--ephemeral', '--print-env', '--port', '0'], { env, extendEnv: false, reject: false });
    const printed = await new Promise<{ endpoint: string; token: string }>((resolve, reject) => {
      let seen = '';
      serve.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('\n')) resolve(JSON.parse(seen.split('\n')[0] as string));
      });
      void serve.then((result) => reject(new Error(`serve ended: ${result.stderr}`)));
    });
    try {
      const remoteEnv = { DOCSCTL_ENDPOINT: printed.endpoint, DOCSCTL_TOKEN: printed.token };
      expect(await pageTitles(remoteEnv)).toEqual(['Welcome', 'Install']);
      // The file's organization title is the seeded organization's.
      const orgs = JSON.parse((await docsctl(['org', 'list', '--json', 'title'], remoteEnv)).stdout) as Array<{ title: string }>;
      expect(orgs).toEqual([{ title: 'Seeded Docs' }]);
    } finally {
      serve.kill('SIGTERM');
      await serve;
    }
  });
});
