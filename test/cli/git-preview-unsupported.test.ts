/**
 * Against a server without docsctl's preview routes (GitBook answers 404 for a path
 * it does not know): `git export --dry-run` says in one line that the server does
 * not offer it (exit 2); `git import --dry-run` falls back to comparing the
 * repository with the space as the API shows it. Neither sends a change.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestRemote, isolateGit, makeRemote } from '../git/helpers.js';
import { runCli } from '../helpers/cli.js';
import { ScriptedServer, type SeenRequest } from '../helpers/scripted-server.js';
import { cleanupTempDirs } from '../helpers/stores.js';

const NOT_FOUND = { status: 404, body: { error: { code: 404, message: 'Not Found' } } };

let server: ScriptedServer;
let remote: TestRemote;
let isolated: ReturnType<typeof isolateGit>;

beforeEach(async () => {
  server = await ScriptedServer.start();
  isolated = isolateGit();
  remote = makeRemote({ 'README.md': '# Welcome\n', 'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n' });
});
afterEach(async () => {
  await server.close();
  remote.cleanup();
  isolated.cleanup();
});
afterAll(cleanupTempDirs);

const env = () => ({ DOCSCTL_ENDPOINT: server.origin, DOCSCTL_TOKEN: 'gb_api_test', DOCSCTL_CONFIG_DIR: isolated.cacheDir });

describe('previews against a server without the extension', () => {
  it('git export --dry-run: one line, exit 2, nothing sent but the preview and its probes', async () => {
    const posts: SeenRequest[] = [];
    const gets: SeenRequest[] = [];
    server.reply(posts, NOT_FOUND, { times: 2, method: 'POST' });
    server.reply(gets, { body: { object: 'space', id: 'sp1', title: 'Docs' } }, { method: 'GET' });
    const result = await runCli(['git', 'export', 'sp1', remote.url, '-m', 'x', '--dry-run'], { env: env() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: git export --dry-run is not supported by this server: the export preview is a docsctl extension/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
    expect(posts.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/spaces/sp1/x-docsctl/git/export-preview', 'POST /v1/spaces/sp1/x-docsctl/git/export-preview']);
    expect(gets.map((r) => r.path)).toEqual(['/v1/spaces/sp1']);
  });

  it('a missing space stays a missing space (exit 4), not "unsupported"', async () => {
    server.reply([], NOT_FOUND, { times: 2, method: 'POST' });
    server.reply([], NOT_FOUND, { method: 'GET' });
    const result = await runCli(['git', 'export', 'nope', remote.url, '-m', 'x', '--dry-run'], { env: env() });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).not.toMatch(/not supported/);
  });

  it('git import --dry-run compares the repository with the space read through the API', async () => {
    server.reply([], NOT_FOUND, { times: 2, method: 'POST' });
    server.reply([], { body: { object: 'space', id: 'sp1', title: 'Docs' } }, { method: 'GET' });
    const pages: SeenRequest[] = [];
    server.reply(pages, { body: { pages: [], files: [] } }, { method: 'GET' });
    server.reply([], NOT_FOUND, { method: 'GET' });
    const result = await runCli(['git', 'import', 'sp1', remote.url, '--dry-run'], { env: env() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('note: this server has no import preview (a docsctl extension)');
    expect(result.stdout).toMatch(/^added +page readme\n/);
    expect(result.stdout).toMatch(/dry run: 1 change\(s\) from .* refs\/heads\/main \([0-9a-f]{12}\); nothing was imported\n$/);
    expect(pages.map((r) => r.path)).toEqual(['/v1/spaces/sp1/content/pages']);
  });
});
