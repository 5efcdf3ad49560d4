/**
 * GitBook's own CLI (`@gitbook/cli` 0.25, the `gitbook` command integration developers
 * use) pointed at `docsctl serve` with GITBOOK_ENDPOINT/GITBOOK_TOKEN: `gitbook whoami`,
 * and `gitbook tail`, which lists the integration's two newest events
 * (listIntegrationEvents) and reads each (getIntegrationEvent), printing them oldest
 * first. Before 0.202's integration events were implemented, tail failed with a 501.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, servedOrganization } from './official-client.js';

const require = createRequire(import.meta.url);
const gitbook = join(dirname(require.resolve('@gitbook/cli/package.json')), 'cli.js');

let server: RunningServer;
let token: string;
let dir: string;

beforeAll(async () => {
  const served = await servedOrganization();
  server = served.server;
  token = served.boot.token;
  dir = mkdtempSync(join(os.tmpdir(), 'docsctl-gitbook-cli-'));
  writeFileSync(join(dir, 'gitbook-manifest.yaml'), 'name: notify\ntitle: Notify\ndescription: Tells a channel\nscript: ./index.js\nscopes:\n  - space:content:read\norganization: acme\n');
  writeFileSync(join(dir, 'index.js'), 'export default {}\n');
  const org = served.boot.organization.id;
  const { api } = served;
  await checkedCall(api, 'publishIntegration', 200, 'notify', { title: 'Notify', description: 'Tells a channel', scopes: ['space:content:read'], script: 'export default {}', organization: org });
  const installation = await checkedCall(api, 'installIntegration', 201, 'notify', { organization: org });
  const space = await checkedCall(api, 'createSpace', 201, org, { title: 'Handbook' });
  await checkedCall(api, 'installIntegrationOnSpace', 201, 'notify', installation.id, { space: space.id });
  await checkedCall(api, 'updateIntegrationInstallation', 200, 'notify', installation.id, { configuration: { channel: '#docs' } });
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `gitbook ARGS` in the manifest's directory, with a clean HOME, against serve. */
function run(args: string[]) {
  return execa('node', [gitbook, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), GITBOOK_ENDPOINT: server.url, GITBOOK_TOKEN: token, NO_COLOR: '1', CI: '1' },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
}

describe("GitBook's CLI against docsctl serve", { timeout: 120_000 }, () => {
  it('gitbook whoami names the token holder', async () => {
    const result = await run(['whoami']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('Ada');
  });

  it("gitbook tail prints the integration's two newest events, oldest first, each with its (empty) logs", async () => {
    const tail = run(['tail']);
    let seen = '';
    const done = new Promise<void>((resolve) => {
      tail.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if ((seen.match(/No logs/g) ?? []).length >= 2) resolve();
      });
      void tail.then(() => resolve());
    });
    await done;
    tail.kill('SIGINT');
    await tail;
    const lines = seen.split('\n').filter((line) => line.startsWith('['));
    expect(lines).toHaveLength(2);
    const events = lines.map((line) => {
      const match = /^\[success\]\[(\d{4}-\d\d-\d\dT[\d:.]+Z)\] (\{.*\})$/.exec(line);
      expect(match, line).not.toBeNull();
      return JSON.parse((match as RegExpExecArray)[2] as string) as { type: string; previous?: { configuration?: unknown } };
    });
    // Oldest of the two first: the space installation, then the installation's update.
    expect(events.map((event) => event.type)).toEqual(['space_installation_setup', 'installation_setup']);
    expect(events[1]?.previous).toEqual({ status: 'active', configuration: {} });
    expect(seen).not.toMatch(/501|not implemented/i);
  });
});
