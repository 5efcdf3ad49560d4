/**
 * Hostile input costs little (issue 19 §6), through the built binary.
 *
 * `serve` imports a page of every hostile shape (blank lines, one long line, deep
 * lists, many tiny blocks, …) within a bounded memory growth, read from the
 * child's own peak RSS (`VmHWM`, Linux); a page beyond what the platform takes
 * (400 MiB of newlines: a 408 KB zip) is refused with 413 naming the file,
 * before it is inflated. Before the fix, 4 MiB of newlines grew `serve` by
 * ~600 MB and 400 MiB killed it. Local `cr import` and `git import` take the
 * same limits.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ResultPromise, execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SHAPES, pageText, writePageZip } from '../helpers/page-zip.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
const maxRss = new URL('../helpers/maxrss.mjs', import.meta.url).pathname;
const MIB = 1024 * 1024;
const linux = process.platform === 'linux';

let home: string;
let files: string;
let env: Record<string, string>;
let token: string;

const docsctl = (args: string[], extraEnv: Record<string, string> = {}) =>
  execa('node', [bin, ...args], { env: { ...env, ...extraEnv }, extendEnv: false, reject: false, timeout: 120_000 });

/** Peak resident memory of a process so far, in MB (Linux). */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

async function serve(): Promise<{ url: string; process: ResultPromise }> {
  const server = execa('node', [bin, 'serve', '--port', '0', '--allow-local', files], { env, extendEnv: false, reject: false });
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout?.on('data', (chunk: Buffer) => {
      const match = /Listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve(match[1] as string);
    });
    server.on('exit', () => reject(new Error('serve exited early')));
  });
  return { url, process: server };
}

beforeAll(async () => {
  home = tempDir('docsctl-e2e-hostile-');
  files = join(home, 'files');
  mkdirSync(files);
  env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
  const init = await docsctl(['init', '--org', 'Acme', '--json']);
  expect(init.exitCode, init.stderr).toBe(0);
  token = (JSON.parse(init.stdout) as { token: string }).token;
});
afterAll(cleanupTempDirs);

describe.runIf(linux)('serve: a hostile page costs little', { timeout: 600_000 }, () => {
  let server: { url: string; process: ResultPromise };
  let orgId: string;
  const headers = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const newSpace = async (): Promise<string> => {
    const created = await fetch(`${server.url}/v1/orgs/${orgId}/spaces`, { method: 'POST', headers: headers(), body: JSON.stringify({ title: 'Docs' }) });
    return ((await created.json()) as { id: string }).id;
  };
  const importZip = async (space: string, zip: string) => {
    const res = await fetch(`${server.url}/v1/spaces/${space}/content/import`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ url: `file://${zip}`, source: 'zip' }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    server = await serve();
    const orgs = await fetch(`${server.url}/v1/orgs`, { headers: headers() });
    orgId = ((await orgs.json()) as { items: Array<{ id: string }> }).items[0]?.id as string;
  });
  afterAll(async () => {
    server.process.kill('SIGTERM');
    await server.process;
  });

  it('refuses a page of 400 MiB of newlines (a 408 KB zip) with 413 naming the file, before inflating it', async () => {
    const zip = join(files, 'newlines-400.zip');
    await writePageZip(zip, 'page.md', '\n', 400 * MIB);
    const space = await newSpace();
    const before = peakRssMb(server.process.pid as number);
    const answer = await importZip(space, zip);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: { code: 413, message: 'Cannot import: page.md: 400 MiB of Markdown, more than the 8 MiB a page may hold (split it into several pages)' } });
    expect(peakRssMb(server.process.pid as number) - before).toBeLessThan(50);
  });

  it.each(Object.entries(PAGE_SHAPES))('imports and answers a 4 MiB page of %s, growing by less than 150 MB', async (shape, unit) => {
    // A serve of its own, so the figure is this request's, not what earlier ones left for the collector.
    const own = await serve();
    try {
      const ownHeaders = headers();
      const orgs = (await (await fetch(`${own.url}/v1/orgs`, { headers: ownHeaders })).json()) as { items: Array<{ id: string }> };
      const created = await fetch(`${own.url}/v1/orgs/${orgs.items[0]?.id}/spaces`, { method: 'POST', headers: ownHeaders, body: JSON.stringify({ title: 'Docs' }) });
      const space = ((await created.json()) as { id: string }).id;
      const zip = join(files, `${shape.replace(/\W+/g, '-')}.zip`);
      const text = pageText(unit, 4 * MIB);
      await writePageZip(zip, 'page.md', unit, 4 * MIB);
      const before = peakRssMb(own.process.pid as number);
      const imported = await fetch(`${own.url}/v1/spaces/${space}/content/import`, {
        method: 'POST',
        headers: ownHeaders,
        body: JSON.stringify({ url: `file://${zip}`, source: 'zip' }),
      });
      expect(imported.status, await imported.clone().text()).toBe(201);
      const listed = (await (await fetch(`${own.url}/v1/spaces/${space}/content/pages?bodies=false`, { headers: ownHeaders })).json()) as { pages: Array<{ id: string }> };
      const page = await fetch(`${own.url}/v1/spaces/${space}/content/page/${listed.pages[0]?.id}?format=markdown`, { headers: ownHeaders });
      // The body comes back byte for byte (a leading `# Title` would have been taken as the title; none of these has one).
      expect(((await page.json()) as { markdown: string }).markdown).toBe(text);
      expect(peakRssMb(own.process.pid as number) - before).toBeLessThan(150);
    } finally {
      own.process.kill('SIGTERM');
      await own.process;
    }
  });

  it('answers a page of millions of blocks as Markdown, and refuses it as a document (413 naming the page)', async () => {
    const space = await newSpace();
    const zip = join(files, 'blocks.zip');
    await writePageZip(zip, 'blocks.md', 'a\n\n', 3 * MIB);
    expect((await importZip(space, zip)).status).toBe(201);
    const listed = (await (await fetch(`${server.url}/v1/spaces/${space}/content/pages`, { headers: headers() })).json()) as { pages: Array<{ id: string }> };
    const pageId = listed.pages[0]?.id as string;
    const before = peakRssMb(server.process.pid as number);
    const document = await fetch(`${server.url}/v1/spaces/${space}/content/page/${pageId}?format=document`, { headers: headers() });
    expect(document.status).toBe(413);
    expect(((await document.json()) as { error: { message: string } }).error.message).toBe(
      `Page "blocks" (${pageId}) is too large to answer as a document (more than 250000 blocks and code lines): read it with format=markdown`,
    );
    expect(peakRssMb(server.process.pid as number) - before).toBeLessThan(100);
  });
});

describe('local cr import and git import take the same limits', { timeout: 300_000 }, () => {
  it('cr import of a 9 MiB page exits 1 naming it, and imports nothing', async () => {
    const page = join(files, 'big.md');
    writeFileSync(page, 'x\n'.repeat((9 * MIB) / 2));
    const space = (await docsctl(['space', 'create', '--title', 'Docs', '--format', 'ids'])).stdout.trim();
    const cr = (await docsctl(['cr', 'create', space, '--format', 'ids'])).stdout.trim();
    const result = await docsctl(['cr', 'import', space, cr, page]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('error: Cannot import: big.md: 9 MiB of Markdown, more than the 8 MiB a page may hold (split it into several pages)');
    expect((await docsctl(['page', 'list', space, '--cr', cr, '--json'])).stdout).not.toContain('big');
  });

  it('git import of a directory whose SUMMARY.md nests pages 101 deep exits 1 naming its line', async () => {
    const dir = join(home, 'deep');
    mkdirSync(dir);
    let summary = '# Summary\n\n';
    for (let i = 0; i < 101; i++) {
      summary += `${'  '.repeat(i)}* [P${i}](p${i}.md)\n`;
      writeFileSync(join(dir, `p${i}.md`), `# P${i}\n`);
    }
    writeFileSync(join(dir, 'SUMMARY.md'), summary);
    const space = (await docsctl(['space', 'create', '--title', 'Deep', '--format', 'ids'])).stdout.trim();
    const result = await docsctl(['git', 'import', space, dir]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^error: Cannot import .*: SUMMARY\.md: line 103: pages nested more than 100 levels deep$/);
  });

  it.runIf(linux)('git import of a directory holding a 4 MiB page of blank lines peaks under 300 MB', async () => {
    const dir = join(home, 'blank');
    mkdirSync(dir);
    writeFileSync(join(dir, 'README.md'), '\n'.repeat(4 * MIB));
    const space = (await docsctl(['space', 'create', '--title', 'Blank', '--format', 'ids'])).stdout.trim();
    const rssFile = join(home, 'maxrss');
    const result = await execa('node', [maxRss, 'git', 'import', space, dir], { env: { ...env, MAXRSS_FILE: rssFile }, extendEnv: false, reject: false, timeout: 120_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(Number(readFileSync(rssFile, 'utf8')) / 1024).toBeLessThan(300);
  });
});
