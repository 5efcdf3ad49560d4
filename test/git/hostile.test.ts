/**
 * Hostile repository URLs and refs (issue 8 §1): refused before git runs, in
 * local mode (the CLI) and under serve's policy (the handler, and over HTTP);
 * no git process ever gets an argument from user input it could read as an
 * option; every git process has a timeout; a cache directory someone else
 * controls is refused.
 */
import { chownSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { getRoute } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import { executeOperation } from '../../src/domain/execute.js';
import { type InputPolicy, LOCAL_POLICY, SERVE_POLICY } from '../../src/domain/policy.js';
import { RepoUrlError, parseRepoUrl } from '../../src/git/credentials.js';
import { startServer } from '../../src/server/server.js';
import { contentSetup } from '../domain/content/helpers.js';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';
import { type GitLog, gitLog, optionLikeUserArgs } from './git-log.js';
import { git, isolateGit, makeRemote, openMirror, type TestRemote } from './helpers.js';
import type { RouteId } from '../../src/api/route-id.js';

let env: ReturnType<typeof isolateGit>;
let log: GitLog;
let savedPath: string | undefined;
let remote: TestRemote;
beforeAll(() => {
  env = isolateGit();
  log = gitLog();
  savedPath = process.env.PATH;
  process.env.PATH = `${log.bin}${path.delimiter}${savedPath ?? ''}`;
  remote = makeRemote({ 'README.md': '# Hi\n' });
});
afterAll(() => {
  process.env.PATH = savedPath;
  log.cleanup();
  remote.cleanup();
  env.cleanup();
  cleanupTempDirs();
});
beforeEach(() => log.clear());

/** URLs that must never reach git, whatever the policy: each carries the marker "pwned". */
const INJECTIONS: Array<[string, RegExp]> = [
  ['--upload-pack=touch pwned;', /starts with "-"/],
  ['-u touch pwned', /starts with "-"/],
  ['--config=core.sshCommand=touch pwned', /starts with "-"/],
  ['ext::sh -c touch% pwned', /remote helpers/],
  ['fd::17/pwned', /remote helpers/],
  ['git://example.com/pwned.git', /Unsupported repository URL scheme "git:\/\/"/],
  ['ftp://example.com/pwned.git', /Unsupported/],
  ['ssh://-oProxyCommand=touch%20pwned/x', /must not start with "-"/],
  ['ssh://git@-oProxyCommand=pwned/x', /must not start with "-"/],
  ['-oProxyCommand=pwned@host:x', /starts with "-"/],
  ['user@-oProxyCommand=pwned:x', /must not start with "-"/],
  ['git@host:-pwned', /must not start with "-"/],
  ['https://host/pwned\n--upload-pack=x', /control characters/],
];

/** Refs that must never reach git. */
const BAD_REFS = ['--upload-pack=pwned', '-pwned', 'refs/heads/a..pwned', 'refs/heads/x pwned', 'refs/heads/pwned.lock', 'pwned'];

/** What serve's default policy refuses (403), though the URL itself is well formed. */
const OFF_LIMITS: Array<[string, RegExp]> = [
  ['file:///etc/passwd', /Local paths and file:\/\/ URLs are not allowed/],
  ['/etc', /Local paths/],
  ['http://example.com/docs.git', /plain http:\/\//],
  ['https://10.0.0.1/docs.git', /private/],
  ['https://169.254.169.254/latest/meta-data', /private/],
  ['https://[::1]/docs.git', /private/],
  ['https://localhost/docs.git', /private/],
  ['http://127.0.0.1:9/docs.git', /private/],
  ['ssh://git@127.0.0.1/docs.git', /private/],
  ['git@10.1.2.3:docs.git', /private/],
];

describe('the repository URL parser', () => {
  it.each(INJECTIONS)('refuses %j', (url, message) => {
    expect(() => parseRepoUrl(url)).toThrow(RepoUrlError);
    expect(() => parseRepoUrl(url)).toThrow(message);
  });

  it('never echoes a password, even of a URL it cannot parse', () => {
    for (const url of ['https://bob:Pa/ss-77@host/x.git', 'https://bob:Pa/ss-77@host:bad/x.git', 'ftp://bob:Pa/ss-77@host/x']) {
      const error = (() => {
        try {
          parseRepoUrl(url);
        } catch (e) {
          return e as Error;
        }
        throw new Error(`${url} was accepted`);
      })();
      expect(error.message).not.toMatch(/Pa\/ss|ss-77/);
    }
  });

  it('gives git an absolute path for a local path, so a directory named "-x" is not an option', () => {
    const repo = parseRepoUrl('-x'.replace('-', './-'));
    expect(repo.kind).toBe('path');
    expect(path.isAbsolute(repo.gitUrl)).toBe(true);
  });
});

describe('git sync handlers', () => {
  let h: Awaited<ReturnType<typeof contentSetup>>;
  let spaceId: string;
  beforeAll(async () => {
    h = await contentSetup();
    spaceId = (await h.createSpace()).id;
  });
  const call = (policy: InputPolicy, routeId: RouteId, raw: RawInput) =>
    executeOperation({ store: h.store, actor: { userId: h.adminId }, clock: h.clock, ids: h.ids, origin: 'http://127.0.0.1:4000', policy }, getRoute(routeId), raw);
  async function status(policy: InputPolicy, routeId: RouteId, body: Record<string, unknown>): Promise<{ status: number; message: string }> {
    try {
      const result = await call(policy, routeId, { params: { spaceId }, body });
      return { status: result.status, message: '' };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { status: error.status, message: error.message };
    }
  }
  const routes: Array<[RouteId, Record<string, unknown>]> = [
    ['importGitRepository', {}],
    ['exportToGitRepository', { commitMessage: 'x' }],
  ];

  it.each(routes)('%s refuses injections with 400 under every policy, without running git', async (routeId, extra) => {
    for (const policy of [LOCAL_POLICY, SERVE_POLICY]) {
      for (const [url] of INJECTIONS) {
        const answer = await status(policy, routeId, { url, ref: 'refs/heads/main', ...extra });
        expect(answer.status, url).toBe(400);
      }
      for (const ref of BAD_REFS) {
        const answer = await status(policy, routeId, { url: remote.url, ref, ...extra });
        expect(answer.status, ref).toBe(400);
      }
    }
    expect(log.calls()).toEqual([]);
  });

  it.each(routes)("%s refuses the server's disk and network under serve's policy (403), without running git", async (routeId, extra) => {
    for (const [url, message] of OFF_LIMITS) {
      const answer = await status(SERVE_POLICY, routeId, { url, ref: 'refs/heads/main', ...extra });
      expect(answer, url).toEqual({ status: 403, message: expect.stringMatching(message) });
    }
    expect(log.calls()).toEqual([]);
  });

  it('allows a local repository below --allow-local, and only there', async () => {
    const inside: InputPolicy = { ...SERVE_POLICY, localRoots: [remote.root] };
    expect(await status(inside, 'importGitRepository', { url: remote.url, ref: 'refs/heads/main' })).toEqual({ status: 204, message: '' });
    const elsewhere: InputPolicy = { ...SERVE_POLICY, localRoots: [tempDir('docsctl-allowed-')] };
    expect((await status(elsewhere, 'importGitRepository', { url: remote.url, ref: 'refs/heads/main', force: true })).status).toBe(403);
    // The import ran git with one transport (file) allowed, and no hooks.
    const fetch = log.calls().find((argv) => argv.includes('fetch')) as string[];
    expect(fetch).toEqual(expect.arrayContaining(['protocol.allow=never', 'protocol.file.allow=always', 'core.hooksPath=/dev/null', 'credential.helper=']));
    expect(fetch.indexOf('--end-of-options')).toBeLessThan(fetch.indexOf(remote.bare));
  });
});

describe('what an export adds (issue 19 §1)', () => {
  let h: Awaited<ReturnType<typeof contentSetup>>;
  let spaceId: string;
  beforeAll(async () => {
    h = await contentSetup();
    spaceId = (await h.createSpace()).id;
  });
  const exportTo = async (url: string, extra: Record<string, unknown> = {}, policy: InputPolicy = LOCAL_POLICY) => {
    try {
      const result = await executeOperation(
        { store: h.store, actor: { userId: h.adminId }, clock: h.clock, ids: h.ids, origin: 'http://127.0.0.1:4000', policy },
        getRoute('exportToGitRepository'),
        { params: { spaceId }, body: { url, ref: 'refs/heads/main', commitMessage: 'x', ...extra } },
      );
      return { status: result.status, message: '' };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { status: error.status, message: error.message };
    }
  };

  it('refuses an author git would cut or read otherwise (400), before any git runs', async () => {
    for (const author of ['pwned', 'Bad\nName <a@b>', 'A <a@b> <c@d>', '<a@b>', 'A <a b@c>', 'A <a@b\u0000>']) {
      expect(await exportTo(remote.url, { author }), JSON.stringify(author)).toEqual({ status: 400, message: expect.stringMatching(/^Invalid author .*: give it as "Name <email>"$/) });
    }
    expect(log.calls()).toEqual([]);
  });

  it('never updates a work tree outside the repository it was allowed to name: a linked work tree elsewhere is a 409 naming it', async () => {
    const base = tempDir('docsctl-worktree-');
    const repo = path.join(base, 'allowed', 'repo');
    mkdirSync(repo, { recursive: true });
    const outside = path.join(base, 'elsewhere');
    git(repo, 'init', '-q');
    writeFileSync(path.join(repo, 'README.md'), '# Hi\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'one');
    git(repo, 'checkout', '-q', '-b', 'other');
    git(repo, 'worktree', 'add', '-q', outside, 'main');
    const before = git(outside, 'rev-parse', 'HEAD');
    const policy: InputPolicy = { ...SERVE_POLICY, localRoots: [realpathSync(path.join(base, 'allowed'))] };
    const answer = await exportTo(repo, { force: true }, policy);
    expect(answer).toEqual({ status: 409, message: expect.stringMatching(/the branch is checked out in another work tree \(.*elsewhere\)/) });
    expect(git(outside, 'rev-parse', 'HEAD')).toBe(before);
    expect(readFileSync(path.join(outside, 'README.md'), 'utf8')).toBe('# Hi\n');
  });
});

describe('through serve', () => {
  it('answers 400 to the upload-pack injection of issue 8 and runs no git', async () => {
    const h = await contentSetup();
    const spaceId = (await h.createSpace()).id;
    const token = 'hostile-test-token';
    const server = await startServer({ store: h.store, port: 0, clock: h.clock, ids: h.ids, resolveActor: (t) => (t === token ? h.adminId : undefined) });
    try {
      for (const [url] of INJECTIONS.slice(0, 6)) {
        const response = await fetch(`${server.url}/v1/spaces/${spaceId}/git/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url, ref: 'refs/heads/main' }),
        });
        expect(response.status, url).toBe(400);
        const body = (await response.json()) as { error: { message: string } };
        expect(body.error.message).toMatch(/Invalid repository URL|Unsupported/);
      }
    } finally {
      await server.close();
    }
    expect(log.calls()).toEqual([]);
  });
});

describe('the CLI in local mode', () => {
  it('never gives git an option-like argument from its input', async () => {
    const store = path.join(tempDir('docsctl-hostile-cli-'), 'store');
    const cliEnv = { DOCSCTL_STORE: store };
    expect((await runCli(['init', '--org', 'Acme'], { env: cliEnv })).exitCode).toBe(0);
    const created = await runCli(['space', 'create', '--title', 'Docs', '--format', 'ids'], { env: cliEnv });
    const spaceId = created.stdout.trim();
    const attempts = [
      ['git', 'import', spaceId, '--', '--upload-pack=touch pwned;'],
      ['git', 'import', spaceId, '--', '-u pwned'],
      ['git', 'import', spaceId, remote.url, '--ref=--upload-pack=pwned'],
      ['git', 'import', spaceId, remote.url, '--ref', 'x..pwned'],
      ['git', 'export', spaceId, '--', '--receive-pack=pwned', '-m', 'x'],
      ['git', 'import', spaceId, 'ext::sh -c pwned', '--dry-run'],
      ['git', 'export', spaceId, 'ssh://-oProxyCommand=pwned/x', '-m', 'x', '--dry-run'],
    ];
    for (const argv of attempts) {
      const result = await runCli(argv, { env: cliEnv });
      expect(result.exitCode, `${argv.join(' ')}: ${result.stderr}`).not.toBe(0);
      expect(result.stderr).toMatch(/^error: /);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    // A path that looks like an option is a path: git got it as an absolute path after --end-of-options.
    expect(optionLikeUserArgs(log.calls(), 'pwned')).toEqual([]);
  });
});

describe('git processes', () => {
  it('are killed after DOCSCTL_GIT_TIMEOUT seconds (504, a network failure)', async () => {
    const saved = { ssh: process.env.GIT_SSH_COMMAND, timeout: process.env.DOCSCTL_GIT_TIMEOUT };
    process.env.GIT_SSH_COMMAND = 'sleep 5;:';
    process.env.DOCSCTL_GIT_TIMEOUT = '1';
    try {
      const mirror = await openMirror('ssh://git@example.invalid/docs.git');
      const error = await mirror.fetch('refs/heads/main').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(504);
      expect((error as ApiError).message).toMatch(/timed out after 1s/);
    } finally {
      for (const [key, value] of [['GIT_SSH_COMMAND', saved.ssh], ['DOCSCTL_GIT_TIMEOUT', saved.timeout]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  }, 20_000);
});

describe('the mirror cache', () => {
  it('is refused when it is a symbolic link or owned by someone else', async () => {
    const base = tempDir('docsctl-planted-');
    mkdirSync(path.join(base, 'real'));
    symlinkSync(path.join(base, 'real'), path.join(base, 'link'));
    await expect(openMirror(remote.url, { cacheDir: path.join(base, 'link') })).rejects.toThrow(/not a directory \(a symlink or a file\)/);
    if (process.getuid?.() === 0) {
      const foreign = path.join(base, 'foreign');
      mkdirSync(foreign, { mode: 0o700 });
      chownSync(foreign, 12345, 12345);
      await expect(openMirror(remote.url, { cacheDir: foreign })).rejects.toThrow(/owned by another user/);
    }
    expect(log.calls()).toEqual([]);
  });

  it('is created private (0700) under the cache directory by default', async () => {
    const mirror = await openMirror(remote.url);
    expect(mirror.dir.startsWith(env.cacheDir)).toBe(true);
    const { statSync } = await import('node:fs');
    expect(statSync(env.cacheDir).mode & 0o077).toBe(0);
  });
});
