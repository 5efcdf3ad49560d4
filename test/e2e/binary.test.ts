/**
 * End-to-end: the built binary (bin/docsctl.js → dist/cli.js) run with execa
 * from a clean temporary HOME, as a new user or a script would.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let home: string;
let env: Record<string, string>;
/** From `docsctl init --json`. */
let initResult: { organization: { id: string }; token: string };

const docsctl = (args: string[], extraEnv: Record<string, string> = {}) =>
  execa('node', [bin, ...args], { env: { ...env, ...extraEnv }, extendEnv: false, reject: false, timeout: 30_000 });

beforeAll(() => {
  home = tempDir('docsctl-e2e-');
  env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    NO_COLOR: '1',
  };
});
afterAll(cleanupTempDirs);

describe('docsctl binary', () => {
  it('prints its version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const result = await docsctl(['--version']);
    expect(result.stdout).toBe(pkg.version);
    expect(result.exitCode).toBe(0);
  });

  it('explains that there is no store yet (exit 2)', async () => {
    const result = await docsctl(['space', 'list']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/No docsctl store at .*docsctl\/store.*docsctl init/);
  });

  it('rejects an invalid init with exit 2 and leaves no store behind', async () => {
    const result = await docsctl(['init', '--org', 'X']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: .*organization title/i);
    expect(existsSync(join(home, 'data', 'docsctl', 'store'))).toBe(false);
  });

  it('initializes a store in the user data directory and lists the organization', async () => {
    const init = await docsctl(['init', '--org', 'Demo Docs', '--json']);
    expect(init.exitCode, init.stderr).toBe(0);
    const result = JSON.parse(init.stdout) as { organization: { id: string; title: string }; user: { id: string }; token: string };
    initResult = result;
    expect(result.organization.title).toBe('Demo Docs');
    expect(result.token).toMatch(/^gb_api_/);
    const org = await docsctl(['org', 'list']);
    expect(org.stdout).toMatch(/^\w+\tDemo Docs\tfree\t/m);
  });

  it('refuses a second init and changes nothing (exit 5)', async () => {
    const storeDir = join(home, 'data', 'docsctl', 'store');
    const before = readdirSync(join(storeDir, 'commits')).sort();
    const again = await docsctl(['init', '--org', 'Other']);
    expect(again.exitCode).toBe(5);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(readdirSync(join(storeDir, 'commits')).sort()).toEqual(before);
  });

  it('creates and lists spaces (TSV when piped)', async () => {
    const created = await docsctl(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    expect(created.exitCode, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const list = await docsctl(['space', 'list']);
    expect(list.stdout).toContain(`${id}\tHandbook\tprivate`);
  });

  it('answers 501 (exit 1) for an operation of the real API that docsctl only declares', async () => {
    const cluster = await docsctl(['api', 'GET', '/v1/orgs/o1/sites/s1/topics']);
    expect(cluster.exitCode).toBe(1);
    expect(cluster.stderr).toMatch(/listSiteTopics is not implemented yet/);
  });

  it('comments on a space: add, reply, list as TSV, resolve, delete (with --yes)', async () => {
    const space = (await docsctl(['space', 'create', '--title', 'Discussed', '--format', 'ids'])).stdout.trim();
    const comment = await docsctl(['comment', 'add', space, '--body', 'Is this up to date?', '--format', 'ids']);
    expect(comment.exitCode, comment.stderr).toBe(0);
    const id = comment.stdout.trim();
    expect((await docsctl(['comment', 'reply', space, id, '--body', 'Yes'])).exitCode).toBe(0);
    const list = await docsctl(['comment', 'list', space]);
    expect(list.stdout.trim().split('\t').slice(0, 6)).toEqual([id, 'open', 'Admin', '1', '', 'Is this up to date?']);
    const resolved = await docsctl(['comment', 'resolve', space, id, '--json']);
    expect(JSON.parse(resolved.stdout)).toMatchObject({ id, status: 'resolved' });
    expect((await docsctl(['comment', 'list', space, '--status', 'open'])).stdout).toBe('');
    const refused = await docsctl(['comment', 'delete', space, id]);
    expect(refused.exitCode).toBe(2);
    expect((await docsctl(['comment', 'delete', space, id, '--yes'])).exitCode).toBe(0);
    const search = await docsctl(['search', 'hello', '--space', space]);
    expect([search.exitCode, search.stdout]).toEqual([0, '']);
    const badQuery = await docsctl(['search', '!!', '--space', space]);
    expect(badQuery.exitCode).toBe(2);
    expect(badQuery.stderr).toMatch(/^error: Invalid query "!!": it has no searchable words/);
    const gone = await docsctl(['comment', 'get', space, id]);
    expect(gone.exitCode).toBe(4);
    expect(gone.stderr).toMatch(/^error: Comment \w+ not found in space /);
  });

  it('answers an unknown id with exit 4 and one line', async () => {
    const result = await docsctl(['space', 'get', 'nope']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: .*nope/);
  });

  it('rejects a bad flag with exit 2', async () => {
    const result = await docsctl(['space', 'list', '--bogus']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/unknown option '--bogus'/);
  });

  it('refuses a destructive command without --yes when not on a terminal (exit 2)', async () => {
    const result = await docsctl(['space', 'delete', 'anything']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--yes/);
  });

  /** Starts `docsctl serve` with `args` and resolves with the process and the URL it printed. */
  async function startServe(args: string[]) {
    const server = execa('node', [bin, 'serve', ...args], { env, extendEnv: false, reject: false });
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout?.on('data', (chunk: Buffer) => {
        const match = /Listening on (http:\/\/\S+)/.exec(chunk.toString());
        if (match) resolve(match[1] as string);
      });
      server.on('exit', () => reject(new Error('serve exited early')));
    });
    return { server, url };
  }

  /** Creates a space through `url` and answers its Location header and urls. */
  async function createThrough(url: string) {
    const response = await fetch(`${url}/v1/orgs/${initResult.organization.id}/spaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${initResult.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Through serve' }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; urls: { location: string; app: string } };
    return { location: response.headers.get('location'), body };
  }

  it('serve --port 0 answers URLs on the port it bound; --public-url overrides them', async () => {
    const { server, url } = await startServe(['--port', '0']);
    try {
      expect(url).not.toBe('http://127.0.0.1:4000');
      const { location, body } = await createThrough(url);
      expect(location).toBe(`${url}/v1/spaces/${body.id}`);
      expect(body.urls.location).toBe(location);
      expect(body.urls.app.startsWith(`${url}/app/`)).toBe(true);
      const viaCli = await docsctl(['space', 'get', body.id, '--json'], { DOCSCTL_ENDPOINT: url, DOCSCTL_TOKEN: initResult.token });
      expect((JSON.parse(viaCli.stdout) as { urls: { location: string } }).urls.location).toBe(location);
    } finally {
      server.kill('SIGTERM');
      await server;
    }
    const bad = await docsctl(['serve', '--port', '0', '--public-url', 'ftp://x']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--public-url expects an http\(s\) URL/);
    const custom = await startServe(['--port', '0', '--public-url', 'https://docs.example.test/']);
    try {
      const { location, body } = await createThrough(custom.url);
      expect(location).toBe(`https://docs.example.test/v1/spaces/${body.id}`);
    } finally {
      custom.server.kill('SIGTERM');
      await custom.server;
    }
  });

  it('remote one-shot commands use node:http; --paginate uses undici; both give the same answers', async () => {
    const { server, url } = await startServe(['--port', '0']);
    try {
      const remote = { DOCSCTL_ENDPOINT: url, DOCSCTL_TOKEN: initResult.token };
      const { body } = await createThrough(url);
      const one = await docsctl(['space', 'get', body.id, '--json', 'id,title', '--debug'], remote);
      expect(one.exitCode).toBe(0);
      expect(JSON.parse(one.stdout)).toEqual({ id: body.id, title: 'Through serve' });
      expect(one.stderr).toContain('[debug] remote mode via node:http');
      expect(one.stderr).not.toContain(initResult.token);
      const orgSpaces = `/v1/orgs/${initResult.organization.id}/spaces`;
      const all = await docsctl(['api', 'GET', `${orgSpaces}?limit=1`, '--paginate', '--debug'], remote);
      expect(all.exitCode).toBe(0);
      expect(all.stderr).toContain('[debug] remote mode via undici');
      const titles = (JSON.parse(all.stdout) as Array<{ title: string }>).map((space) => space.title);
      expect(titles).toContain('Through serve');
      expect(titles.length).toBeGreaterThan(1);
      const missing = await docsctl(['space', 'get', 'nope'], remote);
      expect(missing.exitCode).toBe(4);
    } finally {
      server.kill('SIGTERM');
      await server;
    }
  });

  it('serves the store; a wrong token gets exit 3; SIGTERM stops it cleanly', async () => {
    const { server, url } = await startServe(['--port', '0']);
    const wrong = await docsctl(['space', 'list', '--org', 'x'], { DOCSCTL_ENDPOINT: url, DOCSCTL_TOKEN: 'gb_api_wrong' });
    expect(wrong.exitCode).toBe(3);
    expect(wrong.stderr).toMatch(/^error: Invalid API token/);
    server.kill('SIGTERM');
    const ended = await server;
    expect(ended.exitCode).toBe(0);
  });

  it('reports a damaged store file with exit 74, naming the file', async () => {
    const storeDir = join(home, 'data', 'docsctl', 'store');
    const commits = join(storeDir, 'commits');
    // Damage the newest commit's pack: its last bytes are the root object (same length, other content).
    const newest = join(commits, readdirSync(commits).sort().at(-1) as string);
    const bytes = readFileSync(newest);
    bytes.write('~~', bytes.length - 4);
    writeFileSync(newest, bytes);
    const result = await docsctl(['space', 'list']);
    expect(result.exitCode).toBe(74);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(newest);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('profiles', () => {
  it('keeps a remote profile with its token in a 0600 file and redacts the token when shown', async () => {
    const set = await execa('node', [bin, 'config', 'set', 'work', '--endpoint', 'https://api.example.com', '--token-stdin', '--use'], {
      env,
      extendEnv: false,
      reject: false,
      input: 'gb_api_secretsecretsecret1234\n',
    });
    expect(set.exitCode, set.stderr).toBe(0);
    const file = join(home, 'config', 'docsctl', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const show = await docsctl(['config', 'show', '--json']);
    const shown = JSON.parse(show.stdout) as { mode: string; endpoint: string; token: string };
    expect(shown).toMatchObject({ mode: 'remote', endpoint: 'https://api.example.com' });
    expect(shown.token).not.toContain('secretsecret');
    const list = await docsctl(['config', 'list']);
    expect(list.stdout).toMatch(/\*\twork\tremote\thttps:\/\/api.example.com/);
    // --store overrides the remote profile: local mode again.
    const local = await docsctl(['config', 'show', '--json', '--store', join(home, 's')]);
    expect(JSON.parse(local.stdout)).toMatchObject({ mode: 'local' });
    expect((await docsctl(['config', 'delete', 'work', '--yes'])).exitCode).toBe(0);
  });

  it('saves a relative --store as an absolute path: the profile means the same store from anywhere', async () => {
    const first = join(home, 'projects', 'a');
    const elsewhere = join(home, 'projects', 'b');
    mkdirSync(first, { recursive: true });
    mkdirSync(elsewhere, { recursive: true });
    const run = (cwd: string, args: string[]) => execa('node', [bin, ...args], { env, extendEnv: false, reject: false, cwd });
    const set = await run(first, ['config', 'set', 'rel', '--store', './docs-store', '--org', 'org-rel']);
    expect(set.exitCode, set.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(home, 'config', 'docsctl', 'config.json'), 'utf8')) as {
      profiles: Record<string, { store?: string }>;
    };
    expect(saved.profiles.rel?.store).toBe(join(first, 'docs-store'));
    const show = await run(elsewhere, ['config', 'show', '--json', '--profile', 'rel']);
    expect(JSON.parse(show.stdout)).toMatchObject({ mode: 'local', store: join(first, 'docs-store'), org: 'org-rel' });
    // The profile's organization belongs to its store, not to another one.
    const other = await run(elsewhere, ['config', 'show', '--json', '--profile', 'rel', '--store', './other']);
    expect(JSON.parse(other.stdout)).toMatchObject({ mode: 'local', store: './other', org: null });
    expect((await run(elsewhere, ['config', 'delete', 'rel', '--yes'])).exitCode).toBe(0);
  });
});
