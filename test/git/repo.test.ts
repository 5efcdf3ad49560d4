/** The git driver: mirror cache, reading trees, writing commits without a checkout, pushing. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { authEnv, parseRepoUrl, providerOf, repoNameOf, scrubber } from '../../src/git/credentials.js';
import { filesContaining, git, isolateGit, makeRemote, openMirror, type TestRemote } from './helpers.js';

const decoder = new TextDecoder();
let env: ReturnType<typeof isolateGit>;
const remotes: TestRemote[] = [];
beforeAll(() => {
  env = isolateGit();
});
afterAll(() => {
  for (const remote of remotes) remote.cleanup();
  env.cleanup();
});
function remote(files?: Parameters<typeof makeRemote>[0]): TestRemote {
  const made = makeRemote(files);
  remotes.push(made);
  return made;
}

describe('credentials', () => {
  it('splits credentials off http URLs and redacts them everywhere', () => {
    const repo = parseRepoUrl('https://ada:s3cr%40t@github.com/acme/docs.git?x=1');
    expect(repo).toMatchObject({ kind: 'http', gitUrl: 'https://github.com/acme/docs.git', redacted: 'https://github.com/acme/docs.git', username: 'ada', password: 's3cr@t' });
    expect(repoNameOf(repo)).toBe('acme/docs');
    expect(providerOf(repo)).toBe('github');
    expect(providerOf(parseRepoUrl('https://gitlab.com/a/b'))).toBe('gitlab');
    expect(providerOf(parseRepoUrl('https://git.example.com/a/b'))).toBeUndefined();
    const auth = authEnv(repo);
    expect(auth.GIT_CONFIG_KEY_0).toBe('http.extraHeader');
    expect(auth.GIT_CONFIG_VALUE_0).toBe(`Authorization: Basic ${Buffer.from('ada:s3cr@t').toString('base64')}`);
    expect(scrubber(parseRepoUrl('https://host/x.git'))('fatal: unable to access https://ada:tok@host/x.git and http://u@h/y')).toBe(
      'fatal: unable to access https://***@host/x.git and http://***@h/y',
    );
    const scrub = scrubber(repo);
    expect(scrub(`bad s3cr@t ${Buffer.from('ada:s3cr@t').toString('base64')}`)).toBe('bad *** ***');
  });

  it('accepts file://, ssh://, scp-like and plain paths', () => {
    expect(parseRepoUrl('file:///tmp/my%20repo.git')).toMatchObject({ kind: 'file', gitUrl: '/tmp/my repo.git' });
    expect(repoNameOf(parseRepoUrl('file:///tmp/my%20repo.git'))).toBe('my repo');
    expect(parseRepoUrl('ssh://git@github.com/acme/docs.git')).toMatchObject({ kind: 'ssh', gitUrl: 'ssh://git@github.com/acme/docs.git', redacted: 'ssh://github.com/acme/docs.git' });
    const scp = parseRepoUrl('git@gitlab.com:acme/docs.git');
    expect(scp).toMatchObject({ kind: 'scp', host: 'gitlab.com' });
    expect(repoNameOf(scp)).toBe('acme/docs');
    expect(providerOf(scp)).toBe('gitlab');
    expect(parseRepoUrl('/x/y').kind).toBe('path');
    expect(() => parseRepoUrl('ftp://host/x')).toThrow(/Unsupported/);
    expect(authEnv(parseRepoUrl('https://github.com/a/b'))).toEqual({});
  });
});

describe('mirror', () => {
  it('fetches into a cached bare mirror and reads a tree: files, symlinks, executables, Unicode paths, submodules skipped', async () => {
    const r = remote({
      'README.md': '# Hi\n',
      'café/é.md': 'accent\n',
      'a (1) b.png': new Uint8Array([0, 1, 2, 255]),
      'link.md': { symlink: 'README.md' },
      'run.sh': '#!/bin/sh\n',
    });
    git(r.work, 'update-index', '--chmod=+x', 'run.sh');
    git(r.work, 'update-index', '--add', '--cacheinfo', `160000,${r.head() as string},sub`);
    git(r.work, 'commit', '--quiet', '-m', 'exec + submodule');
    git(r.work, 'push', '--quiet', 'origin', 'HEAD:refs/heads/main');
    const mirror = await openMirror(r.url);
    expect(mirror.dir.startsWith(env.cacheDir)).toBe(true);
    // Private to docsctl: git never collects garbage in it on its own.
    expect(git(mirror.dir, '--git-dir', mirror.dir, 'config', '--get', 'gc.auto')).toBe('0');
    // Told when git's process has started (an import loads its converter then, beside the fetch, not before it).
    const started: string[] = [];
    const oid = await mirror.fetch('refs/heads/main', undefined, () => started.push('git'));
    expect(oid).toBe(r.head());
    expect(started).toEqual(['git']);
    const snapshot = await mirror.readSnapshot(oid as string);
    expect([...snapshot.keys()].sort()).toEqual(['README.md', 'a (1) b.png', 'café/é.md', 'link.md', 'run.sh']);
    expect(snapshot.get('link.md')).toMatchObject({ mode: 'symlink', linkTarget: 'README.md' });
    expect([...(snapshot.get('a (1) b.png')?.data ?? [])]).toEqual([0, 1, 2, 255]);
    // Not normalised: the NFC path stays NFC (and an NFD one would stay NFD).
    expect([...snapshot.keys()].some((key) => key === 'café/é.md'.normalize('NFC'))).toBe(true);
    // Reused: same directory, one mirror in the cache.
    const again = await openMirror(r.url);
    expect(again.dir).toBe(mirror.dir);
    expect(readdirSync(path.dirname(mirror.dir)).filter((name) => name.endsWith('.git'))).toHaveLength(1);
    expect(await again.fetch('refs/heads/nope')).toBeUndefined();
    // The branch's commit is read from its loose ref file; once the refs are packed (no loose file), git answers.
    git(mirror.dir, '--git-dir', mirror.dir, 'pack-refs', '--all');
    expect(readdirSync(path.join(mirror.dir, 'refs', 'heads'))).toEqual([]);
    expect(await again.fetch('refs/heads/main')).toBe(r.head());
  });

  it('reads the files it is asked to as text while they stream, exactly: a file that is not UTF-8 keeps its bytes, a BOM stays', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('# Café\r\n')]);
    const latin1 = new Uint8Array([...new TextEncoder().encode('# Caf'), 0xe9, 10]); // é in Latin-1: not UTF-8
    const long = `# Long\n\n${'Ünïcödé line, long enough to cross pipe chunks.\n'.repeat(4000)}`; // ~200 KB
    const r = remote({ 'bom.md': bom, 'latin1.md': latin1, 'long.md': long, 'same.md': long, 'notes.txt': 'plain\n', 'link.md': { symlink: 'long.md' } });
    const mirror = await openMirror(r.url);
    const snapshot = await mirror.readSnapshot((await mirror.fetch('refs/heads/main')) as string, '', undefined, (file) => file.endsWith('.md'));
    expect(snapshot.get('bom.md')?.text).toBe('\ufeff# Café\r\n');
    expect(snapshot.get('bom.md')?.size).toBe(bom.byteLength);
    // Its bytes, for a reader that asks, are the file's exactly.
    expect(Buffer.from(snapshot.get('bom.md')?.data ?? []).equals(Buffer.from(bom))).toBe(true);
    expect(snapshot.get('latin1.md')?.text).toBeUndefined();
    expect(Buffer.from(snapshot.get('latin1.md')?.data ?? []).equals(Buffer.from(latin1))).toBe(true);
    expect(snapshot.get('long.md')?.text).toBe(long);
    expect(snapshot.get('same.md')?.text).toBe(long);
    expect(snapshot.get('long.md')?.oid).toBe(git(r.work, 'rev-parse', 'HEAD:long.md').trim());
    // Not asked for, or a link: bytes as always.
    expect(snapshot.get('notes.txt')?.text).toBeUndefined();
    expect(decoder.decode(snapshot.get('notes.txt')?.data)).toBe('plain\n');
    expect(snapshot.get('link.md')).toMatchObject({ mode: 'symlink', linkTarget: 'long.md' });
    expect(snapshot.get('link.md')?.text).toBeUndefined();
  });

  it('reads large and empty binary blobs byte for byte (the cat-file stream crosses pipe chunks)', async () => {
    const big = new Uint8Array(700 * 1024).map((_, i) => (i * 7919) % 256);
    const newlines = new Uint8Array(200 * 1024).fill(10);
    const r = remote({ 'big.png': big, 'empty.bin': new Uint8Array(), 'newlines.bin': newlines, 'tail.md': 'tail\n' });
    const mirror = await openMirror(r.url);
    const snapshot = await mirror.readSnapshot((await mirror.fetch('refs/heads/main')) as string);
    expect(Buffer.from(snapshot.get('big.png')?.data ?? []).equals(Buffer.from(big))).toBe(true);
    expect(snapshot.get('empty.bin')?.data.byteLength).toBe(0);
    expect(Buffer.from(snapshot.get('newlines.bin')?.data ?? []).equals(Buffer.from(newlines))).toBe(true);
    expect(new TextDecoder().decode(snapshot.get('tail.md')?.data)).toBe('tail\n');
  });

  it('gives the blobs a sink takes to it as they stream, keeping only what it answers; pauses while it asks', async () => {
    const big = new Uint8Array(300 * 1024).map((_, i) => (i * 31) % 256);
    const shared = new Uint8Array([9, 8, 7]);
    const r = remote({
      'README.md': '# Home\n',
      '.gitbook/assets/big.png': big,
      '.gitbook/assets/copy.png': big, // the same blob twice: given once
      '.gitbook/assets/shared.bin': shared,
      'files/shared.bin': shared, // the same blob at a path the sink does not take: kept for both
      '.gitbook/assets/link.png': { symlink: 'big.png' }, // links are always kept
    });
    const mirror = await openMirror(r.url);
    const given: Array<[string, number]> = [];
    let waits = 0;
    const snapshot = await mirror.readSnapshot((await mirror.fetch('refs/heads/main')) as string, '', {
      takes: (file) => file.startsWith('.gitbook/assets/'),
      put: (oid, data) => {
        given.push([oid, data.byteLength]);
        return { oid, size: data.byteLength, dimensions: { width: 1, height: 2 } };
      },
      ready: () => {
        waits += 1;
        return new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    const bigOid = git(r.work, 'rev-parse', 'HEAD:.gitbook/assets/big.png').trim();
    expect(given).toEqual([[bigOid, big.byteLength]]);
    expect(waits).toBeGreaterThan(0);
    for (const file of ['.gitbook/assets/big.png', '.gitbook/assets/copy.png']) {
      expect(snapshot.get(file)).toEqual({ path: file, data: new Uint8Array(0), mode: 'file', oid: bigOid, stored: { oid: bigOid, size: big.byteLength, dimensions: { width: 1, height: 2 } } });
    }
    // Every file carries the blob id git gave (nothing hashes the bytes again).
    expect(snapshot.get('README.md')?.oid).toBe(git(r.work, 'rev-parse', 'HEAD:README.md').trim());
    expect([...(snapshot.get('.gitbook/assets/shared.bin')?.data ?? [])]).toEqual([9, 8, 7]);
    expect(snapshot.get('.gitbook/assets/shared.bin')?.stored).toBeUndefined();
    expect(snapshot.get('.gitbook/assets/link.png')).toMatchObject({ mode: 'symlink', linkTarget: 'big.png' });
    expect(decoder.decode(snapshot.get('README.md')?.data)).toBe('# Home\n');
  });

  it('measures the blobs a measuring sink takes without reading their bytes (sizes from --batch-check)', async () => {
    const big = new Uint8Array(200 * 1024).map((_, i) => (i * 7) % 256);
    const shared = new Uint8Array([9, 8, 7]);
    const r = remote({
      'README.md': '# Home\n',
      '.gitbook/assets/big.png': big,
      '.gitbook/assets/copy.png': big,
      '.gitbook/assets/empty.png': new Uint8Array(0),
      '.gitbook/assets/shared.bin': shared,
      'files/shared.bin': shared, // also at a path the sink does not take: read as bytes for both
      '.gitbook/assets/link.png': { symlink: 'big.png' },
    });
    const mirror = await openMirror(r.url);
    const measured: Array<[string, number]> = [];
    const snapshot = await mirror.readSnapshot((await mirror.fetch('refs/heads/main')) as string, '', {
      takes: (file) => file.startsWith('.gitbook/assets/'),
      put: () => {
        throw new Error('a measuring sink is given no bytes');
      },
      ready: () => undefined,
      measure: (oid, size) => {
        measured.push([oid, size]);
        return { oid, size };
      },
    });
    const oidOf = (file: string) => git(r.work, 'rev-parse', `HEAD:${file}`).trim();
    const bigOid = oidOf('.gitbook/assets/big.png');
    expect(measured.sort()).toEqual([[bigOid, 200 * 1024], [oidOf('.gitbook/assets/empty.png'), 0]].sort());
    expect(snapshot.get('.gitbook/assets/copy.png')).toEqual({ path: '.gitbook/assets/copy.png', data: new Uint8Array(0), mode: 'file', oid: bigOid, stored: { oid: bigOid, size: 200 * 1024 } });
    expect([...(snapshot.get('.gitbook/assets/shared.bin')?.data ?? [])]).toEqual([9, 8, 7]);
    expect(snapshot.get('.gitbook/assets/link.png')).toMatchObject({ mode: 'symlink', linkTarget: 'big.png' });
    expect(decoder.decode(snapshot.get('README.md')?.data)).toBe('# Home\n');
  });

  it('reads only the project directory of a monorepo, unless a link leads out of it', async () => {
    const r = remote({
      'docs/README.md': 'docs\n',
      'docs/.gitbook/assets/a.png': new Uint8Array([1, 2]),
      'docs/self.md': { symlink: 'README.md' },
      'site/README.md': 'site\n',
      'site/big.bin': new Uint8Array(64 * 1024),
      'README.md': 'root\n',
    });
    const mirror = await openMirror(r.url);
    const head = (await mirror.fetch('refs/heads/main')) as string;
    expect([...(await mirror.readSnapshot(head, 'docs')).keys()].sort()).toEqual(['docs/.gitbook/assets/a.png', 'docs/README.md', 'docs/self.md']);
    expect((await mirror.readSnapshot(head, '')).size).toBe(6);

    // A link below the project directory that points out of it: the whole tree, as links need it.
    r.commit({ 'docs/shared.md': { symlink: '../site/README.md' } });
    const linked = (await mirror.fetch('refs/heads/main')) as string;
    const whole = await mirror.readSnapshot(linked, 'docs');
    expect(whole.size).toBe(7);
    expect(decoder.decode(whole.get('site/README.md')?.data)).toBe('site\n');

    // The project directory itself behind a link: the whole tree too.
    const r2 = remote({ 'real/README.md': 'real\n', 'docs': { symlink: 'real' } });
    const mirror2 = await openMirror(r2.url);
    const behind = await mirror2.readSnapshot((await mirror2.fetch('refs/heads/main')) as string, 'docs');
    expect([...behind.keys()].sort()).toEqual(['docs', 'real/README.md']);
  });

  it('writes a commit without a checkout, keeps symlinks and modes, skips empty commits, pushes fast-forward only', async () => {
    const r = remote({ 'a.md': 'a\n', 'l.md': { symlink: 'a.md' }, 'x/run.sh': '#!/bin/sh\n', 'gone.md': 'bye\n' });
    git(r.work, 'update-index', '--chmod=+x', 'x/run.sh');
    git(r.work, 'commit', '--quiet', '-m', 'exec');
    git(r.work, 'push', '--quiet', 'origin', 'HEAD:refs/heads/main');
    const mirror = await openMirror(r.url);
    const head = (await mirror.fetch('refs/heads/main')) as string;
    expect(await mirror.commit({ parent: head, writes: new Map([['a.md', new TextEncoder().encode('a\n')]]), deletes: [], message: 'noop' })).toBeUndefined();
    const commit = await mirror.commit({
      parent: head,
      writes: new Map([
        ['x/run.sh', new TextEncoder().encode('#!/bin/sh\necho\n')],
        ['new dir/ü (1).md', new TextEncoder().encode('new\n')],
      ]),
      deletes: ['gone.md'],
      message: 'Export',
    });
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    await mirror.push(commit as string, 'refs/heads/main');
    expect(r.head()).toBe(commit);
    const tree = git(r.bare, 'ls-tree', '-r', '--full-tree', commit as string);
    expect(tree).toMatch(/^120000 blob \w+\tl\.md$/m);
    expect(tree).toMatch(/^100755 blob \w+\tx\/run\.sh$/m);
    expect(tree).not.toMatch(/gone\.md/);
    expect(git(r.bare, 'log', '-1', '--format=%an <%ae>|%s', commit as string)).toBe('Test Author <author@test.invalid>|Export');
    const snapshot = await mirror.readSnapshot(commit as string);
    expect(decoder.decode(snapshot.get('new dir/ü (1).md')?.data)).toBe('new\n');

    // The remote moves: a commit on the old head is refused (409), then forced.
    r.commit({ 'b.md': 'b\n' });
    const stale = (await mirror.commit({ parent: commit as string, writes: new Map([['c.md', new Uint8Array([99])]]), deletes: [], message: 'stale' })) as string;
    const error = await mirror.push(stale, 'refs/heads/main').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    await mirror.push(stale, 'refs/heads/main', { force: true });
    expect(r.head()).toBe(stale);
  });

  it('creates a branch by pushing a root commit to a missing ref', async () => {
    const r = remote({ 'a.md': 'a\n' });
    const mirror = await openMirror(r.url);
    expect(await mirror.fetch('refs/heads/docs')).toBeUndefined();
    const commit = (await mirror.commit({ writes: new Map([['README.md', new Uint8Array([104, 10])]]), deletes: [], message: 'first' })) as string;
    await mirror.push(commit, 'refs/heads/docs');
    expect(r.head('docs')).toBe(commit);
  });

  it('answers one-line errors without credentials: missing repository, unreachable host', async () => {
    const missing = await (await openMirror(`file://${env.cacheDir}/nothing-here.git`)).fetch('refs/heads/main').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).status).toBe(404);
    expect((missing as ApiError).message).toMatch(/^Cannot fetch file:\/\/.*nothing-here\.git at refs\/heads\/main: repository not found$/);
    const unreachable = await (await openMirror('http://ada:hunter22@127.0.0.1:9/acme/docs.git')).fetch('refs/heads/main').catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(ApiError);
    const message = (unreachable as ApiError).message;
    expect(message).toMatch(/^Cannot fetch http:\/\/127\.0\.0\.1:9\/acme\/docs\.git at refs\/heads\/main: /);
    expect(message).not.toMatch(/hunter22|ada:/);
    expect(message).not.toMatch(/\n/);
    // Nothing with the credentials on disk in the cache either.
    expect(filesContaining(env.cacheDir, 'hunter22')).toEqual([]);
    expect(filesContaining(env.cacheDir, Buffer.from('ada:hunter22').toString('base64'))).toEqual([]);
  });
});
