/**
 * `docsctl auth login|status|logout` through the built binary: against a real
 * `docsctl serve` (token on stdin, and typed at the hidden prompt on a real
 * pseudo-terminal with `script`), and in local mode (a token of the store makes
 * commands act as its user; logout goes back to the owner).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ResultPromise, execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, startServe } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

interface Home {
  env: Record<string, string>;
  configFile: string;
  store: string;
}

function newHome(prefix: string): Home {
  const home = tempDir(prefix);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    NO_COLOR: '1',
  };
  return { env, configFile: join(home, 'config', 'docsctl', 'config.json'), store: join(home, 'data', 'docsctl', 'store') };
}

const run = (home: Home, args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
  execa('node', [bin, ...args], { env: { ...home.env, ...options.env }, extendEnv: false, reject: false, timeout: 60_000, input: options.input ?? '' });

const config = (home: Home) => JSON.parse(readFileSync(home.configFile, 'utf8')) as { currentProfile?: string; profiles: Record<string, Record<string, string>> };

let serverHome: Home;
let server: { url: string; process: ResultPromise };
let adminToken: string;
let orgId: string;

beforeAll(async () => {
  serverHome = newHome('docsctl-auth-server-');
  const init = await run(serverHome, ['init', '--org', 'Acme', '--json']);
  expect(init.exitCode, init.stderr).toBe(0);
  ({ token: adminToken, organization: { id: orgId } } = JSON.parse(init.stdout) as { token: string; organization: { id: string } });
  server = await startServe(serverHome.env);
});

afterAll(async () => {
  server.process.kill('SIGTERM');
  await server.process;
  cleanupTempDirs();
});

describe('auth against docsctl serve', () => {
  it('logs in with --token-stdin, saves the profile with mode 0600, and commands then use it', async () => {
    const home = newHome('docsctl-auth-client-');
    const login = await run(home, ['auth', 'login', '--endpoint', server.url, '--token-stdin'], { input: `${adminToken}\n` });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).toContain(`Logged in to ${server.url} as Admin <admin@example.com>`);
    expect(login.stdout).toContain('admin@example.com');
    expect(login.stdout).not.toContain(adminToken);
    expect(statSync(home.configFile).mode & 0o777).toBe(0o600);
    const profileName = new URL(server.url).host.replace(':', '-');
    expect(config(home)).toEqual({ currentProfile: profileName, profiles: { [profileName]: { endpoint: server.url, token: adminToken } } });

    // No flag, no environment variable: the saved profile.
    const orgs = await run(home, ['org', 'list', '--format', 'ids']);
    expect(orgs.exitCode, orgs.stderr).toBe(0);
    expect(orgs.stdout.trim()).toBe(orgId);

    const status = await run(home, ['auth', 'status', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      mode: 'remote',
      endpoint: server.url,
      profile: profileName,
      tokenSource: 'profile',
      valid: true,
      user: { displayName: 'Admin', email: 'admin@example.com' },
      organizations: [{ id: orgId, title: 'Acme' }],
    });
    expect(status.stdout).not.toContain(adminToken);

    const logout = await run(home, ['auth', 'logout']);
    expect(logout.exitCode, logout.stderr).toBe(0);
    expect(logout.stderr).toContain(`removed the token of profile "${profileName}"`);
    expect(config(home).profiles[profileName]).toEqual({ endpoint: server.url });
    const after = await run(home, ['auth', 'status']);
    expect(after.exitCode).toBe(3);
    expect(after.stderr).toMatch(/^error: Not logged in to http:\/\/127\.0\.0\.1:\d+ \(docsctl auth login --endpoint /);
    // Logging out twice is not an error.
    const again = await run(home, ['auth', 'logout']);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('holds no token');
  });

  it('refuses a bad token with exit 3 and saves nothing', async () => {
    const home = newHome('docsctl-auth-bad-');
    const login = await run(home, ['auth', 'login', '--endpoint', server.url, '--token-stdin'], { input: 'gb_api_not-a-real-token\n' });
    expect(login.exitCode).toBe(3);
    expect(login.stderr).toMatch(/^error: The token was refused by http:\/\/127\.0\.0\.1:\d+ \(401: /);
    expect(() => statSync(home.configFile)).toThrow();
  });

  it('asks for the token with hidden input on a terminal, and never echoes it', async () => {
    const home = newHome('docsctl-auth-pty-');
    const command = `node ${bin} auth login --endpoint ${server.url}`;
    const pty = execa('script', ['-qec', command, '/dev/null'], { env: home.env, extendEnv: false, reject: false, timeout: 60_000 });
    let screen = '';
    pty.stdout?.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      if (screen.includes('Paste an API token') && !screen.includes('typed')) {
        screen += '\n[typed]';
        pty.stdin?.write(`${adminToken}\r`);
      }
    });
    // script ends the session when its stdin ends: keep it open until docsctl has finished.
    const done = await pty;
    expect(done.exitCode, screen).toBe(0);
    expect(screen).toContain(`Paste an API token for ${server.url}`);
    expect(screen).toContain('Logged in to');
    expect(screen).not.toContain(adminToken);
    expect(Object.values(config(home).profiles)[0]).toEqual({ endpoint: server.url, token: adminToken });
  });

  it('says how to pass the token when there is no terminal (exit 2)', async () => {
    const home = newHome('docsctl-auth-noinput-');
    const login = await run(home, ['auth', 'login', '--endpoint', server.url]);
    expect(login.exitCode).toBe(2);
    expect(login.stderr).toBe('error: auth login needs a token: no terminal to ask for it (pass it on stdin: docsctl auth login --token-stdin < token.txt)');
  });

  it('keeps non-interactive use as it was: DOCSCTL_ENDPOINT and DOCSCTL_TOKEN win over a saved profile', async () => {
    const home = newHome('docsctl-auth-env-');
    const login = await run(home, ['auth', 'login', '--endpoint', server.url, '--token-stdin'], { input: adminToken });
    expect(login.exitCode, login.stderr).toBe(0);
    const refused = await run(home, ['org', 'list'], { env: { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: 'gb_api_wrong' } });
    expect(refused.exitCode).toBe(3);
    const status = await run(home, ['auth', 'status', '--json'], { env: { DOCSCTL_TOKEN: 'gb_api_wrong' } });
    expect(status.exitCode).toBe(3);
    expect(JSON.parse(status.stdout)).toMatchObject({ tokenSource: 'environment', valid: false, user: null });
    // Logging in while DOCSCTL_TOKEN is set would save a token that never applies.
    const shadowed = await run(home, ['auth', 'login', '--endpoint', server.url], { env: { DOCSCTL_TOKEN: adminToken } });
    expect(shadowed.exitCode).toBe(2);
    expect(shadowed.stderr).toMatch(/^error: DOCSCTL_TOKEN is set/);
  });

  it('tells an unreachable endpoint apart (exit 6)', async () => {
    const home = newHome('docsctl-auth-down-');
    const status = await run(home, ['auth', 'status', '--endpoint', 'http://127.0.0.1:9', '--token', 'gb_api_x']);
    expect(status.exitCode).toBe(6);
    expect(status.stdout).toMatch(/not working/);
  });
});

describe('auth in local mode', () => {
  it('acts as the store owner without a token; login makes commands act as the token user; logout goes back', async () => {
    const home = newHome('docsctl-auth-local-');
    const init = await run(home, ['init', '--org', 'Local Co', '--json']);
    expect(init.exitCode, init.stderr).toBe(0);
    const owner = await run(home, ['auth', 'status', '--json']);
    expect(owner.exitCode, owner.stderr).toBe(0);
    expect(JSON.parse(owner.stdout)).toMatchObject({ mode: 'local', store: home.store, actingAs: 'owner', token: null, valid: true, user: { email: 'admin@example.com' } });

    const org = (JSON.parse(init.stdout) as { organization: { id: string } }).organization.id;
    expect((await run(home, ['user', 'create', '--email', 'rita@example.com', '--name', 'Rita', '--org', org])).exitCode).toBe(0);
    const issued = await run(home, ['token', 'create', '--user', 'rita@example.com', '--json']);
    expect(issued.exitCode, issued.stderr).toBe(0);
    const ritaToken = (JSON.parse(issued.stdout) as { token: string }).token;

    const login = await run(home, ['auth', 'login', '--token-stdin'], { input: ritaToken });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).toContain(`Logged in to the store at ${home.store} as Rita <rita@example.com>`);
    expect(config(home)).toEqual({ currentProfile: 'local', profiles: { local: { store: home.store, token: ritaToken } } });
    expect(statSync(home.configFile).mode & 0o777).toBe(0o600);
    const me = await run(home, ['user', 'me', '--json', 'email']);
    expect(JSON.parse(me.stdout)).toEqual({ email: 'rita@example.com' });

    // The saved token is this store's: another store does not get it.
    const other = tempDir('docsctl-auth-other-');
    expect((await run(home, ['init', '--org', 'Other', '--store', other])).exitCode).toBe(0);
    const elsewhere = await run(home, ['user', 'me', '--store', other, '--json', 'email']);
    expect(elsewhere.exitCode, elsewhere.stderr).toBe(0);
    expect(JSON.parse(elsewhere.stdout)).toEqual({ email: 'admin@example.com' });

    const logout = await run(home, ['auth', 'logout']);
    expect(logout.exitCode, logout.stderr).toBe(0);
    expect(logout.stderr).toContain('commands act as the store owner again');
    const back = await run(home, ['user', 'me', '--json', 'email']);
    expect(JSON.parse(back.stdout)).toEqual({ email: 'admin@example.com' });
  });

  it('refuses a token the store does not know (exit 3) and explains auth without an endpoint in --help', async () => {
    const home = newHome('docsctl-auth-local-bad-');
    expect((await run(home, ['init', '--org', 'Local Co'])).exitCode).toBe(0);
    const login = await run(home, ['auth', 'login', '--token-stdin'], { input: 'gb_api_unknown' });
    expect(login.exitCode).toBe(3);
    expect(login.stderr).toMatch(/^error: The token was refused by the store at /);
    const help = await run(home, ['auth', '--help']);
    expect(help.stdout).toContain("Without an endpoint (local mode) commands act as the store's owner");
  });
});
