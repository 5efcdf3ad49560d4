/**
 * Names wherever an id is expected (issue 23 §1), through the built binary in both modes:
 * spaces by title or collection path, collections by title path, sites by title, sections
 * and variants by title or path, teams by title, members by e-mail; an ambiguous name is
 * exit 2 listing the candidates, an unknown one exit 4 with the closest names (as data with
 * --json). Remote mode: a loopback proxy in front of `serve` counts the requests a name costs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { type BinaryMode, bin, binaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

/** Files the page tests import (serve may read them: --allow-local). */
const files = tempDir('docsctl-names-files-');

interface World {
  engineering: string;
  platform: string;
  engHandbook: string;
  salesHandbook: string;
  roadmap: string;
  site: string;
  section: string;
  team: string;
  adminId: string;
}

async function build(cli: BinaryMode): Promise<World> {
  const ids = (args: string[]) => cli.ok([...args, '--format', 'ids']);
  const engineering = await ids(['collection', 'create', '--title', 'Engineering']);
  const platform = await ids(['collection', 'create', '--title', 'Platform', '--parent', engineering]);
  const sales = await ids(['collection', 'create', '--title', 'Sales']);
  const engHandbook = await ids(['space', 'create', '--title', 'Handbook', '--parent', engineering]);
  const salesHandbook = await ids(['space', 'create', '--title', 'Handbook', '--parent', sales]);
  const roadmap = await ids(['space', 'create', '--title', 'Roadmap']);
  const site = await ids(['site', 'create', '--title', 'Help Center', '--type', 'premium']);
  // Spaces and sites given by name from here on.
  const section = await ids(['site', 'section', 'add', 'Help Center', 'Engineering/Handbook', '--title', 'Guides']);
  const team = await ids(['team', 'create', '--title', 'Writers']);
  const adminId = JSON.parse(await cli.ok(['member', 'get', 'admin@example.com', '--json', 'id'])).id as string;
  return { engineering, platform, engHandbook, salesHandbook, roadmap, site, section, team, adminId };
}

describeInBothModes('names wherever an id is expected', (context) => {
  let cli: BinaryMode;
  let w: World;
  beforeAll(async () => {
    ({ cli } = context);
    w = await build(cli);
  });

  const idOf = async (args: string[]) => JSON.parse(await cli.ok([...args, '--json', 'id'])).id as string;

  it('finds a space by title, by collection path, and still by id', async () => {
    expect(await idOf(['space', 'get', 'Roadmap'])).toBe(w.roadmap);
    expect(await idOf(['space', 'get', 'roadmap'])).toBe(w.roadmap);
    expect(await idOf(['space', 'get', 'Engineering/Handbook'])).toBe(w.engHandbook);
    expect(await idOf(['space', 'get', 'Sales/Handbook'])).toBe(w.salesHandbook);
    expect(await idOf(['space', 'get', w.salesHandbook])).toBe(w.salesHandbook);
    // A change by name: the object is named before the request is sent.
    expect(JSON.parse(await cli.ok(['space', 'edit', 'Roadmap', '--emoji', '1f680', '--json', 'id,emoji']))).toEqual({ id: w.roadmap, emoji: '1f680' });
  });

  it('finds collections by title path, sites and teams by title, members by e-mail, sections by title or path', async () => {
    expect(await idOf(['collection', 'get', 'Engineering'])).toBe(w.engineering);
    expect(await idOf(['collection', 'get', 'Engineering/Platform'])).toBe(w.platform);
    expect(await idOf(['site', 'get', 'Help Center'])).toBe(w.site);
    expect(await idOf(['site', 'get', 'help center'])).toBe(w.site);
    expect(await idOf(['team', 'get', 'Writers'])).toBe(w.team);
    expect(await idOf(['member', 'get', 'ADMIN@example.com'])).toBe(w.adminId);
    const edited = JSON.parse(await cli.ok(['site', 'section', 'edit', 'Help Center', 'Guides', '--title', 'How-to guides', '--json', 'id,title']));
    expect(edited).toEqual({ id: w.section, title: 'How-to guides' });
    const path = JSON.parse(await cli.ok(['site', 'section', 'list', 'Help Center', '--json', 'path']))[0].path as string;
    expect(JSON.parse(await cli.ok(['site', 'section', 'edit', 'Help Center', path, '--title', 'Guides', '--json', 'id'])).id).toBe(w.section);
  });

  it('takes names in hand-written commands and in body arguments', async () => {
    const tree = await cli.ok(['site', 'inspect', 'Help Center', '--no-input', '--format', 'tsv']);
    expect(tree).toContain('Guides');
    const added = JSON.parse(await cli.ok(['site', 'space', 'add', 'Help Center', 'Roadmap', '--json', 'space']));
    expect(added.space.id ?? added.space).toBe(w.roadmap);
  });

  it('takes names in flags whose value names an object (--parent <collectionId>, --space <spaceId...>)', async () => {
    const child = JSON.parse(await cli.ok(['space', 'create', '--title', 'Runbooks', '--parent', 'Engineering/Platform', '--json', 'id,parent']));
    expect(child.parent).toBe(w.platform);
    const other = await cli.ok(['site', 'create', '--title', 'Status', '--type', 'premium', '--space', 'Roadmap,Sales/Handbook', '--format', 'ids']);
    const spaces = JSON.parse(await cli.ok(['site', 'space', 'list', 'Status', '--json', 'space'])) as Array<{ space: { id: string } | string }>;
    expect(spaces.map((s) => (typeof s.space === 'string' ? s.space : s.space.id)).sort()).toEqual([w.roadmap, w.salesHandbook].sort());
    await cli.ok(['site', 'delete', other, '--yes']);
    await cli.ok(['space', 'delete', 'Engineering/Platform/Runbooks', '--yes']);
  });

  it('takes a page path where a route takes a page id (cr import --parent PATH)', async () => {
    const dir = files;
    writeFileSync(`${dir}/README.md`, '# Home\n');
    writeFileSync(`${dir}/install.md`, '# Install\n');
    writeFileSync(`${dir}/SUMMARY.md`, '# Summary\n\n* [Home](README.md)\n* [Install](install.md)\n');
    await cli.ok(['git', 'import', 'Roadmap', dir]);
    const cr = JSON.parse(await cli.ok(['cr', 'create', 'Roadmap', '--subject', 'More', '--json', 'number'])).number as number;
    writeFileSync(`${dir}/linux.md`, '# Linux\n\nOn Linux.\n');
    await cli.ok(['cr', 'import', 'Roadmap', String(cr), `${dir}/linux.md`, '--parent', 'install']);
    const installId = JSON.parse(await cli.ok(['page', 'get', 'Roadmap', 'install', '--json', 'id'])).id as string;
    const page = JSON.parse(await cli.ok(['page', 'get', 'Roadmap', 'install/linux', '--cr', String(cr), '--json', 'id,title']));
    expect(page.title).toBe('Linux');
    expect(installId).not.toBe(page.id);
    const missing = await cli.run(['cr', 'import', 'Roadmap', String(cr), `${dir}/linux.md`, '--parent', 'no/such/page']);
    expect(missing.exitCode).toBe(4);
  });

  it('refuses an ambiguous name with exit 2, listing each candidate with its id and path', async () => {
    const result = await cli.run(['space', 'get', 'Handbook']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('error: "Handbook" names 2 spaces: give an id or a path instead');
    expect(lines.slice(1).sort()).toEqual([`  ${w.engHandbook}  Engineering/Handbook`, `  ${w.salesHandbook}  Sales/Handbook`].sort());
    const json = await cli.run(['space', 'get', 'Handbook', '--json']);
    expect(json.exitCode).toBe(2);
    const { error } = JSON.parse(json.stdout);
    expect(error).toMatchObject({ code: 'ambiguous_name', kind: 'space', name: 'Handbook' });
    expect(error.candidates).toEqual(
      expect.arrayContaining([
        { id: w.engHandbook, title: 'Handbook', path: 'Engineering/Handbook' },
        { id: w.salesHandbook, title: 'Handbook', path: 'Sales/Handbook' },
      ]),
    );
  });

  it('refuses an unknown name with exit 4 and the closest names', async () => {
    const result = await cli.run(['space', 'get', 'Roadmpa']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe(
      `error: Space "Roadmpa" not found: no space has this id, title or collection path (Collection/Space)\ndid you mean:\n  ${w.roadmap}  Roadmap`,
    );
    const team = await cli.run(['team', 'get', 'Writer', '--json']);
    expect(team.exitCode).toBe(4);
    expect(JSON.parse(team.stdout).error).toEqual({
      code: 'unknown_name',
      message: 'Team "Writer" not found: no team has this id or title',
      kind: 'team',
      name: 'Writer',
      candidates: [{ id: w.team, title: 'Writers' }],
    });
    const nothing = await cli.run(['site', 'get', 'Zzzzzz qqq']);
    expect(nothing.exitCode).toBe(4);
    expect(nothing.stderr).toBe('error: Site "Zzzzzz qqq" not found: no site has this id, title or hostname');
    const member = await cli.run(['member', 'get', 'nobody@example.com']);
    expect(member.exitCode).toBe(4);
    expect(member.stderr).toMatch(/^error: No member of organization \w+ has the e-mail nobody@example\.com/);
  });

  it('names nothing it was not asked to: an unknown id keeps the API answer', async () => {
    const result = await cli.run(['space', 'get', '0VcAAAAAAAAAAAAAAAAA']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe('error: Space 0VcAAAAAAAAAAAAAAAAA not found');
  });
}, { serveFlags: ['--allow-local', files] });

/** A loopback proxy in front of `serve` that counts the requests it forwards. */
async function countingProxy(target: string): Promise<{ url: string; hits: string[]; server: Server }> {
  const upstream = new URL(target);
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${(req.url ?? '').replace(/\?.*$/, '')}`);
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}

describe('what a name costs in remote mode (requests counted by a loopback proxy)', { timeout: 300_000 }, () => {
  let cli: BinaryMode;
  let w: World;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  beforeAll(async () => {
    cli = await binaryMode('remote');
    w = await build(cli);
    proxy = await countingProxy(cli.env.DOCSCTL_ENDPOINT as string);
  });
  afterAll(async () => {
    if (proxy) await new Promise((resolve) => proxy.server.close(resolve));
    await cli?.close();
  });

  /** The requests one command sends through the proxy (with the organization configured, the common case). */
  async function requests(args: string[], env: Record<string, string> = { DOCSCTL_ORG: cli.orgId }): Promise<string[]> {
    proxy.hits.length = 0;
    const result = await cli.run(args, { env: { DOCSCTL_ENDPOINT: proxy.url, ...env } });
    expect(result.exitCode, result.stderr).toBe(0);
    return [...proxy.hits];
  }

  it('an id costs no lookup; a title, a team, a site, a member one list request each', async () => {
    const org = `/v1/orgs/${cli.orgId}`;
    expect(await requests(['space', 'get', w.roadmap])).toEqual([`GET /v1/spaces/${w.roadmap}`]);
    expect(await requests(['space', 'get', 'Roadmap'])).toEqual([`GET ${org}/spaces`, `GET /v1/spaces/${w.roadmap}`]);
    expect(await requests(['team', 'get', 'Writers'])).toEqual([`GET ${org}/teams`, `GET ${org}/teams/${w.team}`]);
    expect(await requests(['site', 'get', 'Help Center'])).toEqual([`GET ${org}/sites`, `GET ${org}/sites/${w.site}`]);
    expect(await requests(['member', 'get', 'admin@example.com'])).toEqual([`GET ${org}/members`, `GET ${org}/members/${w.adminId}`]);
  });

  it('a collection path costs the collections too; without a configured organization, one more request finds it', async () => {
    const sent = await requests(['space', 'get', 'Engineering/Handbook']);
    expect(sent.sort()).toEqual([`GET /v1/orgs/${cli.orgId}/collections`, `GET /v1/orgs/${cli.orgId}/spaces`, `GET /v1/spaces/${w.engHandbook}`].sort());
    expect(await requests(['space', 'get', 'Roadmap'], {})).toEqual(['GET /v1/orgs', `GET /v1/orgs/${cli.orgId}/spaces`, `GET /v1/spaces/${w.roadmap}`]);
  });
});

describe('shell completion of names (bash and fish ask the binary: one list request, a short timeout)', { timeout: 300_000 }, () => {
  let cli: BinaryMode;
  let w: World;
  /** A directory holding a `docsctl` that runs the built binary in this mode's environment. */
  let path: string;
  beforeAll(async () => {
    cli = await binaryMode('local');
    w = await build(cli);
    const dir = tempDir('docsctl-names-completion-');
    const exports = Object.entries(cli.env).map(([key, value]) => `export ${key}='${value}'`).join('\n');
    writeFileSync(`${dir}/docsctl`, `#!/bin/sh\n${exports}\nexec node ${bin} "$@"\n`);
    chmodSync(`${dir}/docsctl`, 0o755);
    path = `${dir}:${process.env.PATH ?? ''}`;
  });
  afterAll(() => cli?.close());

  async function bash(words: string[]): Promise<string[]> {
    const script = await cli.ok(['completion', 'bash']);
    const array = words.map((word) => `'${word}'`).join(' ');
    const out = execFileSync('bash', ['-c', `${script}\nCOMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _docsctl; printf '%s\\n' "\${COMPREPLY[@]}"`], {
      encoding: 'utf8',
      env: { PATH: path, HOME: cli.home },
    });
    return out.split('\n').filter(Boolean);
  }

  it('completes spaces, sites, teams and members by name and id where an argument names one', async () => {
    expect(await bash(['docsctl', 'space', 'get', 'Ro'])).toEqual(['Roadmap']);
    expect(await bash(['docsctl', 'space', 'get', w.roadmap.slice(0, 12)])).toEqual([w.roadmap]);
    expect(await bash(['docsctl', 'site', 'get', 'Help'])).toEqual(['Help\\ Center']);
    expect(await bash(['docsctl', 'team', 'get', 'wri'])).toEqual(['Writers']);
    expect(await bash(['docsctl', 'member', 'get', 'adm'])).toEqual(['admin@example.com']);
    // A hand-written command: the space of git import, then file names for the repository.
    expect(await bash(['docsctl', 'git', 'import', 'Hand'])).toEqual(['Handbook']);
    expect(await cli.ok(['completion', 'bash', '--names', 'c', '--prefix', 'eng'])).toBe('Engineering');
  });

  it.skipIf(spawnSync('fish', ['-c', 'exit 0']).status !== 0)('fish completes them too', async () => {
    const dir = tempDir('docsctl-names-fish-');
    writeFileSync(`${dir}/docsctl.fish`, await cli.ok(['completion', 'fish']));
    const out = execFileSync('fish', ['--no-config', '-c', `source ${dir}/docsctl.fish; complete -C 'docsctl space get Ro'`], { encoding: 'utf8', env: { PATH: path, HOME: dir } });
    expect(out.split('\n').filter(Boolean)).toEqual(['Roadmap']);
  });

  it('offers nothing, quickly, when the endpoint does not answer or the store cannot be read', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const started = Date.now();
      const result = await execa('node', [bin, 'completion', 'bash', '--names', 's', '--prefix', 'R'], {
        env: { PATH: process.env.PATH ?? '', HOME: cli.home, DOCSCTL_ENDPOINT: endpoint, DOCSCTL_TOKEN: 'gb_api_x', DOCSCTL_ORG: 'o' },
        extendEnv: false,
        reject: false,
      });
      expect(result).toMatchObject({ exitCode: 0, stdout: '' });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
    const broken = await execa('node', [bin, 'completion', 'bash', '--names', 's', '--prefix', ''], {
      env: { PATH: process.env.PATH ?? '', HOME: cli.home, DOCSCTL_STORE: `${cli.home}/no-store-here` },
      extendEnv: false,
      reject: false,
    });
    expect(broken).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });
});
