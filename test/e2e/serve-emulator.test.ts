/**
 * `docsctl serve` as a CI emulator, through the built binary: `--seed FILE` (an apply file)
 * with `--ephemeral` and `--print-env` (a token per seeded user), `--exec -- CMD` (a real
 * child: node calling the API, GitBook's CLI), snapshots and reset over HTTP and on a local
 * store, and the one-line errors of bad input with nothing left behind.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type ResultPromise, execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const require = createRequire(import.meta.url);
const gitbook = join(dirname(require.resolve('@gitbook/cli/package.json')), 'cli.js');

const SEED = `
members:
  - {email: alice@example.com, role: admin}
  - {email: bob@example.com, role: read}
collections:
  - title: Engineering
    collections: [{title: Handbook}]
spaces:
  - {title: Onboarding, parent: Engineering/Handbook}
  - {title: Scratchpad, visibility: private}
teams:
  - {title: Writers, members: [bob@example.com]}
openAPISpecs:
  - {slug: petstore, source: {file: specs/petstore.yaml}}
`;

const home = tempDir('docsctl-emulator-');
const seedFile = join(home, 'org.yaml');
writeFileSync(seedFile, SEED);
// A file the seed names is read relative to the seed file.
mkdirSync(join(home, 'specs'));
writeFileSync(join(home, 'specs', 'petstore.yaml'), 'openapi: 3.0.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n');
const baseEnv: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: home,
  XDG_DATA_HOME: join(home, 'data'),
  XDG_CONFIG_HOME: join(home, 'config'),
  TMPDIR: join(home, 'tmp'),
  NO_COLOR: '1',
};
mkdirSync(baseEnv.TMPDIR as string);

afterAll(cleanupTempDirs);

function docsctl(args: readonly string[], env: Record<string, string> = {}) {
  return execa('node', [bin, ...args], { env: { ...baseEnv, ...env }, extendEnv: false, reject: false, timeout: 120_000 });
}

interface PrintedEnv {
  endpoint: string;
  token: string;
  organizationId: string;
  store: string;
  users: Array<{ email: string; id: string; role: string; token: string }>;
}

describe('serve --seed --ephemeral --print-env', { timeout: 180_000 }, () => {
  let serve: ResultPromise;
  let printed: PrintedEnv;
  const as = (token: string) => ({ DOCSCTL_ENDPOINT: printed.endpoint, DOCSCTL_TOKEN: token });
  const spaces = async (token: string) => (await docsctl(['space', 'list', '--json', 'title'], as(token))).stdout;

  beforeAll(async () => {
    serve = execa('node', [bin, 'serve', '--seed', seedFile, '--ephemeral', '--print-env', '--port', '0'], { env: baseEnv, extendEnv: false, reject: false });
    printed = await new Promise<PrintedEnv>((resolve, reject) => {
      let seen = '';
      serve.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('\n')) resolve(JSON.parse(seen.split('\n')[0] as string) as PrintedEnv);
      });
      serve.on('exit', () => reject(new Error(`serve exited early: ${seen}`)));
    });
  });

  afterAll(async () => {
    serve?.kill('SIGTERM');
    await serve;
  });

  it('prints the endpoint, the owner token and one token per seeded member with their roles', () => {
    expect(printed.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(printed.token).toMatch(/^gb_api_/);
    expect(printed.users.map(({ email, role }) => ({ email, role }))).toEqual([
      { email: 'alice@example.com', role: 'admin' },
      { email: 'bob@example.com', role: 'read' },
    ]);
    expect(new Set([printed.token, ...printed.users.map((user) => user.token)]).size).toBe(3);
    expect(printed.store.startsWith(baseEnv.TMPDIR as string)).toBe(true);
  });

  it('serves the seeded organization, each token acting as its role', async () => {
    expect(JSON.parse(await spaces(printed.token))).toEqual([{ title: 'Onboarding' }, { title: 'Scratchpad' }]);
    const [alice, bob] = printed.users as [PrintedEnv['users'][0], PrintedEnv['users'][0]];
    const whoami = await docsctl(['api', 'GET', '/v1/user', '--json', 'email'], as(bob.token));
    expect(JSON.parse(whoami.stdout)).toEqual({ email: 'bob@example.com' });
    const refused = await docsctl(['collection', 'create', '--title', 'Nope'], as(bob.token));
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toContain('your role: read');
    const created = await docsctl(['collection', 'create', '--title', 'Allowed', '--format', 'ids'], as(alice.token));
    expect(created.exitCode, created.stderr).toBe(0);
    const teams = await docsctl(['team', 'list', '--json', 'title'], as(alice.token));
    expect(JSON.parse(teams.stdout)).toEqual([{ title: 'Writers' }]);
  });

  it('apply -f of the seed file against it plans nothing', async () => {
    const specs = await docsctl(['openapi', 'list', '--json', 'slug,processingState'], as(printed.token));
    expect(JSON.parse(specs.stdout)).toEqual([{ slug: 'petstore', processingState: 'complete' }]);
    const diff = await docsctl(['diff', '-f', seedFile], as(printed.token));
    expect(diff.stderr).toContain('Nothing to change');
    expect(diff.exitCode).toBe(0);
  });

  it('saves, lists and restores snapshots, and resets to the seed', async () => {
    const owner = as(printed.token);
    const saved = await docsctl(['serve', 'snapshot', 'save', 'clean', '--json', 'object,name'], owner);
    expect(JSON.parse(saved.stdout)).toEqual({ object: 'snapshot', name: 'clean' });
    expect((await docsctl(['space', 'create', '--title', 'Added'], owner)).exitCode).toBe(0);
    expect(JSON.parse(await spaces(printed.token))).toContainEqual({ title: 'Added' });
    const listed = await docsctl(['serve', 'snapshot', 'list', '--json', 'name'], owner);
    expect(JSON.parse(listed.stdout)).toEqual([{ name: 'clean' }]);
    const restored = await docsctl(['serve', 'snapshot', 'restore', 'clean'], owner);
    expect(restored.exitCode, restored.stderr).toBe(0);
    expect(JSON.parse(await spaces(printed.token))).not.toContainEqual({ title: 'Added' });
    expect(JSON.parse(await spaces(printed.token))).toHaveLength(2);

    // A token created after the seed is gone after a reset; the seeded users' still work.
    expect((await docsctl(['space', 'create', '--title', 'Later'], owner)).exitCode).toBe(0);
    const reset = await docsctl(['serve', 'reset'], owner);
    expect(reset.exitCode, reset.stderr).toBe(0);
    expect(JSON.parse(await spaces(printed.token))).toEqual([{ title: 'Onboarding' }, { title: 'Scratchpad' }]);
    const collections = await docsctl(['collection', 'list', '--json', 'title'], as((printed.users[0] as { token: string }).token));
    expect(JSON.parse(collections.stdout).map((c: { title: string }) => c.title)).not.toContain('Allowed');
    // Snapshots outlive a reset.
    expect(JSON.parse((await docsctl(['serve', 'snapshot', 'list', '--json', 'name'], owner)).stdout)).toEqual([{ name: 'clean' }]);
  });

  it('refuses snapshots to anyone but the store owner, and names an unknown snapshot', async () => {
    const bob = await docsctl(['serve', 'snapshot', 'save', 'mine'], as((printed.users[1] as { token: string }).token));
    expect(bob.exitCode).toBe(3);
    expect(bob.stderr).toContain("Only the store's owner");
    const unknown = await docsctl(['serve', 'snapshot', 'restore', 'nope'], as(printed.token));
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr.trim().split('\n')).toEqual(['error: No snapshot named "nope": "docsctl serve snapshot list" shows the saved ones']);
    const badName = await docsctl(['serve', 'snapshot', 'save', '../x'], as(printed.token));
    expect(badName.exitCode).toBe(2);
  });

  it('stops on SIGTERM with exit 0 and removes its temporary store', async () => {
    expect(existsSync(printed.store)).toBe(true);
    serve.kill('SIGTERM');
    const result = await serve;
    expect(result.exitCode).toBe(0);
    expect(existsSync(printed.store)).toBe(false);
  });
});

describe('serve --exec', { timeout: 180_000 }, () => {
  const apiCall = `fetch(process.env.DOCSCTL_ENDPOINT + '/v1/orgs', { headers: { authorization: 'Bearer ' + process.env.GITBOOK_TOKEN } })
    .then((r) => r.json())
    .then((j) => { console.log(JSON.stringify({ title: j.items[0].title, org: j.items[0].id === process.env.DOCSCTL_ORG, same: process.env.GITBOOK_ENDPOINT === process.env.DOCSCTL_ENDPOINT })); process.exit(3); })`;

  it("runs the command against the seeded serve, then stops and exits with the command's code", async () => {
    const result = await docsctl(['serve', '--seed', seedFile, '--ephemeral', '--exec', '--', 'node', '-e', apiCall]);
    expect(result.exitCode, result.stderr).toBe(3);
    expect(JSON.parse(result.stdout.split('\n').find((line) => line.startsWith('{')) as string)).toEqual({ title: 'Emulator', org: true, same: true });
    expect(readdirSync(baseEnv.TMPDIR as string).filter((name) => name.startsWith('docsctl-serve-'))).toEqual([]);
  });

  it('exits 128+N when a signal ends the command, 127 when it cannot start', async () => {
    const killed = await docsctl(['serve', '--ephemeral', '--exec', '--', 'node', '-e', 'process.kill(process.pid, "SIGTERM")']);
    expect(killed.exitCode).toBe(143);
    const missing = await docsctl(['serve', '--ephemeral', '--exec', '--', 'no-such-command-docsctl']);
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr).toContain('--exec: no command "no-such-command-docsctl" on PATH');
  });

  it("passes the arguments as given, no shell: GitBook's CLI (gitbook whoami) finds serve through GITBOOK_ENDPOINT/GITBOOK_TOKEN", async () => {
    const literal = await docsctl(['serve', '--ephemeral', '--exec', '--', 'node', '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '$HOME', 'a b', '*']);
    expect(literal.exitCode, literal.stderr).toBe(0);
    expect(literal.stdout).toContain(JSON.stringify(['$HOME', 'a b', '*']));
    const whoami = await docsctl(['serve', '--seed', seedFile, '--ephemeral', '--exec', '--', 'node', gitbook, 'whoami'], { CI: '1' });
    expect(whoami.exitCode, whoami.stderr).toBe(0);
    expect(whoami.stdout).toContain('Authenticated as Emulator Owner');
  });

  it('ends its command on SIGTERM and exits 143', async () => {
    const serve = execa('node', [bin, 'serve', '--ephemeral', '--exec', '--', 'node', '-e', 'console.log("up"); setInterval(() => {}, 1000)'], { env: baseEnv, extendEnv: false, reject: false });
    await new Promise<void>((resolve) => {
      let seen = '';
      serve.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('up')) resolve();
      });
    });
    serve.kill('SIGTERM');
    expect((await serve).exitCode).toBe(143);
  });
});

describe('serve snapshots on a local store, and bad input', { timeout: 180_000 }, () => {
  const store = join(home, 'local-store');

  it('saves and restores a local store; reset without a seed is a one-line 404', async () => {
    const env = { DOCSCTL_STORE: store };
    expect((await docsctl(['init', '--org', 'Acme'], env)).exitCode).toBe(0);
    expect((await docsctl(['space', 'create', '--title', 'Kept'], env)).exitCode).toBe(0);
    expect((await docsctl(['serve', 'snapshot', 'save', 'one'], env)).exitCode).toBe(0);
    expect((await docsctl(['space', 'create', '--title', 'Dropped'], env)).exitCode).toBe(0);
    expect((await docsctl(['serve', 'snapshot', 'restore', 'one'], env)).exitCode).toBe(0);
    expect(JSON.parse((await docsctl(['space', 'list', '--json', 'title'], env)).stdout)).toEqual([{ title: 'Kept' }]);
    const reset = await docsctl(['serve', 'reset'], env);
    expect(reset.exitCode).toBe(4);
    expect(reset.stderr.trim().split('\n')).toHaveLength(1);
    expect(reset.stderr).toContain('no seed');
    expect((await docsctl(['serve', 'snapshot', 'delete', 'one'], env)).exitCode).toBe(0);
    expect(JSON.parse((await docsctl(['serve', 'snapshot', 'list', '--json'], env)).stdout)).toEqual([]);
  });

  it('a wrong seed file, a seed over an existing store, --exec without a command: exit 2, one line, nothing created', async () => {
    const bad = join(home, 'bad.yaml');
    writeFileSync(bad, 'members:\n  - {emial: x@example.com}\n');
    const fresh = join(home, 'never-created');
    const wrong = await docsctl(['serve', '--seed', bad], { DOCSCTL_STORE: fresh });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toContain('bad.yaml:2');
    expect(existsSync(fresh)).toBe(false);
    const over = await docsctl(['serve', '--seed', seedFile], { DOCSCTL_STORE: store });
    expect(over.exitCode).toBe(2);
    expect(over.stderr).toContain('already holds one');
    const noCommand = await docsctl(['serve', '--ephemeral', '--exec']);
    expect(noCommand.exitCode).toBe(2);
    expect(readdirSync(baseEnv.TMPDIR as string).filter((name) => name.startsWith('docsctl-serve-'))).toEqual([]);
  });
});
