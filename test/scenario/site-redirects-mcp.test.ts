/**
 * Site redirects and MCP servers through the CLI, in local mode and against
 * `docsctl serve`: redirects to a section, a variant and a page (imported content),
 * resolved to published URLs, a duplicate source, a moved source, deletes; MCP
 * servers whose header values a listing hides, refused URLs, header replacement.
 * Same stdout and exit codes in both modes, and the values asserted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVE_POLICY } from '../../src/domain/policy.js';
import type { RunResult } from '../helpers/cli.js';
import { type Step, inBothModes } from '../helpers/scenario.js';
import { tempDir } from '../helpers/stores.js';

// Written when the file loads: the steps name the directory, and `inBothModes` registers them then.
const fixtureRoot = tempDir('docsctl-redirect-fixtures-');
const guideDir = join(fixtureRoot, 'guide');
mkdirSync(guideDir, { recursive: true });
const files: Record<string, string> = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n',
  'install.md': '# Install\n\nRun the installer.\n',
};
for (const [name, text] of Object.entries(files)) writeFileSync(join(guideDir, name), text);

/** The id on the line of a `page list --format tsv` row whose title is `title`. */
const pageId = (title: string) => (stdout: string) => stdout.split('\n').find((line) => line.split('\t')[2] === title)?.split('\t')[0] ?? '';

const named = (): Array<[string, Step]> => [
  ['space guide', { argv: ['space', 'create', '--title', 'Guide', '--format', 'ids'], capture: 'guide' }],
  ['space api', { argv: ['space', 'create', '--title', 'API', '--format', 'ids'], capture: 'api' }],
  ['cr', { argv: ['cr', 'create', '{guide}', '--subject', 'Import', '--format', 'ids'], capture: 'cr' }],
  ['import', { argv: ['cr', 'import', '{guide}', '{cr}', guideDir, '--format', 'ids'] }],
  ['merge', { argv: ['cr', 'merge', '{guide}', '{cr}', '--format', 'ids'] }],
  ['pages', { argv: ['page', 'list', '{guide}', '--format', 'tsv'], capture: 'install', pick: pageId('Install') }],
  ['site', { argv: ['site', 'create', '--title', 'Help Center', '--type', 'premium', '--space', '{guide}', '--format', 'ids'], capture: 'site' }],
  ['section api', { argv: ['site', 'section', 'add', '{site}', '{api}', '--title', 'API reference', '--format', 'ids'], capture: 'secApi' }],
  ['guide variant', { argv: ['site', 'space', 'list', '{site}', '--format', 'ids', '--limit', '1'], capture: 'gv' }],
  // Redirects
  ['to section', { argv: ['site', 'redirect', 'create', '{site}', '/old-api', '--section', '{secApi}', '--format', 'ids'], capture: 'r1' }],
  ['to variant', { argv: ['site', 'redirect', 'create', '{site}', '/start', '--site-space', '{gv}', '--format', 'tsv'] }],
  ['to page', { argv: ['site', 'redirect', 'create', '{site}', '/setup/%7einstall', '--site-space', '{gv}', '--page', '{install}', '--format', 'tsv'] }],
  ['list', { argv: ['site', 'redirect', 'list', '{site}', '--format', 'tsv'] }],
  ['search', { argv: ['site', 'redirect', 'list', '{site}', '--search', 'SETUP', '--format', 'tsv'] }],
  ['resolve page', { argv: ['site', 'redirect', 'get', '{site}', '/setup/~install', '--format', 'tsv'] }],
  ['resolve section', { argv: ['site', 'redirect', 'get', '{site}', '/old-api', '--json'] }],
  ['duplicate', { argv: ['site', 'redirect', 'create', '{site}', '/old-api', '--site-space', '{gv}'] }],
  ['dot segments', { argv: ['site', 'redirect', 'create', '{site}', '/a/../b', '--site-space', '{gv}'] }],
  ['trailing slash', { argv: ['site', 'redirect', 'create', '{site}', '/old/', '--site-space', '{gv}'] }],
  ['no destination', { argv: ['site', 'redirect', 'create', '{site}', '/x'] }],
  ['missing page', { argv: ['site', 'redirect', 'create', '{site}', '/x', '--site-space', '{gv}', '--page', 'nope'] }],
  ['move source', { argv: ['site', 'redirect', 'edit', '{site}', '{r1}', '--source', '/older-api', '--format', 'tsv'] }],
  ['old source', { argv: ['site', 'redirect', 'get', '{site}', '/old-api'] }],
  ['delete', { argv: ['site', 'redirect', 'delete', '{site}', '{r1}', '--yes'] }],
  ['delete again', { argv: ['site', 'redirect', 'delete', '{site}', '{r1}', '--yes'] }],
  ['list after', { argv: ['site', 'redirect', 'list', '{site}', '--format', 'tsv'] }],
  // MCP servers
  [
    'mcp add',
    { argv: ['site', 'mcp-server', 'add', '{site}', '--name', 'Tickets', '--url', 'https://MCP.acme.example/sse', '--header', 'Authorization: Bearer t0k3n', 'X-Team: docs', '--format', 'ids'], capture: 'm1' },
  ],
  ['mcp list', { argv: ['site', 'mcp-server', 'list', '{site}', '--format', 'tsv'] }],
  ['mcp list json', { argv: ['site', 'mcp-server', 'list', '{site}', '--json'] }],
  ['mcp get json', { argv: ['site', 'mcp-server', 'get', '{site}', '{m1}', '--json'] }],
  ['mcp get table', { argv: ['site', 'mcp-server', 'get', '{site}', '{m1}', '--format', 'tsv'] }],
  ['mcp ftp', { argv: ['site', 'mcp-server', 'add', '{site}', '--name', 'Files', '--url', 'ftp://files.acme.example/'] }],
  ['mcp credentials', { argv: ['site', 'mcp-server', 'add', '{site}', '--name', 'X', '--url', 'https://ada:hunter2@mcp.acme.example/'] }],
  ['mcp bad header', { argv: ['site', 'mcp-server', 'add', '{site}', '--name', 'X', '--url', 'https://mcp.acme.example/', '--header', 'Host: internal'] }],
  ['mcp no headers', { argv: ['site', 'mcp-server', 'edit', '{site}', '{m1}', '--no-headers', '--name', 'Support', '--format', 'tsv'] }],
  ['mcp nothing', { argv: ['site', 'mcp-server', 'edit', '{site}', '{m1}'] }],
  ['mcp delete', { argv: ['site', 'mcp-server', 'delete', '{site}', '{m1}', '--yes'] }],
  ['mcp list after', { argv: ['site', 'mcp-server', 'list', '{site}', '--format', 'tsv'] }],
];

describe('site redirects and MCP servers in both modes', () => {
  // As `serve --allow-local <fixtures>` remotely: the server may read the imported directory, nothing else.
  const both = inBothModes(
    named().map(([, step]) => step),
    { policy: { ...SERVE_POLICY, localRoots: [fixtureRoot] } },
  );
  const at = (name: string): RunResult => both.at(named().findIndex(([n]) => n === name));
  const captured = () => Object.fromEntries(named().flatMap(([name, step]) => (step.capture ? [[step.capture, step.pick ? step.pick(at(name).stdout) : at(name).stdout.trim()]] : [])));

  it('creates redirects of each kind, lists, searches and resolves them to published URLs', () => {
    const { r1, secApi, gv, install } = captured();
    for (const name of ['site', 'section api', 'to section', 'to variant', 'to page', 'list']) expect(at(name).exitCode, `${name}: ${at(name).stderr}`).toBe(0);
    expect(install).toMatch(/\w/);
    const toPage = at('to page').stdout.trim().split('\t');
    expect(toPage.slice(1)).toEqual(['/setup/~install', `page ${install} in ${gv}`]);
    const list = at('list').stdout.split('\n').map((line) => line.split('\t').slice(1).join('\t'));
    // Newest first (0.202's default orderBy=createdAt).
    expect(list).toEqual([`/setup/~install\tpage ${install} in ${gv}`, `/start\tsite-space ${gv}`, '/old-api\tsection ' + secApi, '']);
    expect(at('search').stdout).toBe(`${toPage[0]}\t/setup/~install\tpage ${install} in ${gv}\n`);
    const base = /(https:\/\/\w+\.gitbook\.io\/help-center)\//.exec(at('resolve section').stdout)?.[1];
    expect(base).toBeDefined();
    expect(at('resolve page').stdout).toBe(`/setup/~install\tpage ${install} in ${gv}\t${base}/install\t${toPage[0]}\n`);
    expect(JSON.parse(at('resolve section').stdout)).toEqual({
      redirect: {
        object: 'site-redirect',
        id: r1,
        source: '/old-api',
        draft: false,
        captureWildcard: false,
        permanent: false,
        destination: { kind: 'site-section', siteSectionId: secApi },
        createdAt: expect.any(String),
      },
      target: `${base}/api-reference/`,
    });
  });

  it('refuses a duplicate source (409), sources no browser asks for (400) and a destination that is not there (404)', () => {
    expect(at('duplicate').exitCode).toBe(5);
    expect(at('duplicate').stderr).toMatch(/already has a redirect from \/old-api/);
    expect(at('dot segments').exitCode).toBe(2);
    expect(at('dot segments').stderr).toMatch(/"\." and "\.\." segments/);
    expect(at('trailing slash').exitCode).toBe(2);
    expect(at('trailing slash').stderr).toMatch(/source/);
    expect(at('no destination').exitCode).toBe(2);
    expect(at('no destination').stderr).toMatch(/--section ID, --site-space ID/);
    expect(at('missing page').exitCode).toBe(4);
    expect(at('missing page').stderr).toMatch(/Page nope not found/);
  });

  it('moves a source (the old one no longer resolves) and deletes once', () => {
    const { r1, secApi } = captured();
    expect(at('move source').stdout).toBe(`${r1}\t/older-api\tsection ${secApi}\n`);
    expect(at('old source').exitCode).toBe(4);
    expect(at('delete').exitCode).toBe(0);
    expect(at('delete').stderr).toMatch(new RegExp(`Deleted redirect ${r1}`));
    expect(at('delete again').exitCode).toBe(0);
    expect(at('delete again').stderr).toMatch(/Nothing to delete/);
    expect(at('list after').stdout.split('\n').map((line) => line.split('\t')[1])).toEqual(['/setup/~install', '/start', undefined]);
  });

  it('keeps MCP header values out of listings and tables, and refuses bad URLs and headers', () => {
    const { m1 } = captured();
    expect(at('mcp add').exitCode, at('mcp add').stderr).toBe(0);
    expect(at('mcp list').stdout).toBe(`${m1}\tTickets\thttps://mcp.acme.example/sse\tAuthorization,X-Team\n`);
    expect(JSON.parse(at('mcp list json').stdout)).toEqual([
      {
        object: 'site-mcp-server',
        id: m1,
        name: 'Tickets',
        url: 'https://mcp.acme.example/sse',
        transport: 'sse',
        headers: { Authorization: '********', 'X-Team': '********' },
        urls: { location: expect.stringMatching(new RegExp(`/v1/orgs/\\w+/sites/\\w+/mcp-servers/${m1}$`)) },
      },
    ]);
    expect(JSON.parse(at('mcp get json').stdout)).toMatchObject({ id: m1, headers: { Authorization: 'Bearer t0k3n', 'X-Team': 'docs' } });
    expect(at('mcp get table').stdout).toBe(`${m1}\tTickets\thttps://mcp.acme.example/sse\tAuthorization,X-Team\n`);
    expect(at('mcp ftp').exitCode).toBe(2);
    expect(at('mcp ftp').stderr).toMatch(/Unsupported URL scheme ftp:/);
    expect(at('mcp credentials').exitCode).toBe(2);
    expect(at('mcp credentials').stderr).toMatch(/credentials/);
    expect(at('mcp credentials').stderr).not.toContain('hunter2');
    expect(at('mcp bad header').exitCode).toBe(2);
    expect(at('mcp bad header').stderr).toMatch(/"Host".*sets it for each request/);
    expect(at('mcp no headers').stdout).toBe(`${m1}\tSupport\thttps://mcp.acme.example/sse\t\n`);
    expect(at('mcp nothing').exitCode).toBe(2);
    expect(at('mcp delete').exitCode).toBe(0);
    expect(at('mcp list after').stdout).toBe('');
  });
});
