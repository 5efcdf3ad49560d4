/**
 * `docsctl site preview` through the binary, without a browser: the server's
 * hardening (hostile paths, Host header, methods, slow clients, headers), remote mode
 * against `docsctl serve` (real-API reads only, images from their download URLs), a
 * change request's content, `--out` refusing to clobber a directory, and `--web` on
 * space/site/cr/page get.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, startServe } from '../helpers/binary.js';
import { type PreviewSite, buildPreviewSite, editInstallPage, png, startPreview } from '../helpers/preview-site.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

let site: PreviewSite;
let preview: { url: string; process: ResultPromise; log: () => string };
let port: number;

beforeAll(async () => {
  site = await buildPreviewSite();
  preview = await startPreview(site.env, [site.siteId]);
  port = Number(new URL(preview.url).port);
});

afterAll(async () => {
  preview?.process.kill('SIGTERM');
  await preview?.process;
  cleanupTempDirs();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with the path exactly as given (no normalisation by a client). */
function get(path: string, options: { method?: string; host?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: options.host ?? `127.0.0.1:${port}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the preview server', { timeout: 180_000 }, () => {
  it('serves pages with a strict Content-Security-Policy and the usual protective headers', async () => {
    const page = await get('/handbook/handbook/guide/install');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toMatch(/^default-src 'none'; script-src 'nonce-([A-Za-z0-9+/=]{24})'; style-src 'self'; img-src 'self' https: http:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; object-src 'none'$/);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] as string;
    expect(page.body).toContain(`<script src="/_docsctl/assets/app.js" nonce="${nonce}"></script>`);
    expect(page.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });
    // A new nonce for every answer.
    const again = await get('/handbook/handbook/guide/install');
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });

  it('never serves anything outside the content, whatever the path says', async () => {
    const hostile = [
      '/../../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/handbook/handbook/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/_docsctl/assets/..%2f..%2fpackage.json',
      '/_docsctl/assets/../../../package.json',
      `/_docsctl/files/${site.handbook}/..%2f..%2f..%2fpackage.json/x`,
      '/_docsctl/files/..%2f..%2f/etc/passwd',
      '/_docsctl/files/%2e%2e/%2e%2e/passwd',
      '/%00/etc/passwd',
      '/_docsctl/assets/%ff',
      `/${'a/'.repeat(2000)}`,
      '/handbook/handbook/%5c..%5c..%5cetc%5cpasswd',
    ];
    for (const path of hostile) {
      const answer = await get(path);
      expect([400, 404], path).toContain(answer.status);
      expect(answer.body).not.toMatch(/root:|"name": "docsctl"/);
    }
  });

  it('answers only its loopback Host (no DNS rebinding), GET and HEAD only', async () => {
    expect((await get('/', { host: 'evil.example' })).status).toBe(421);
    expect((await get('/', { host: `evil.example:${port}` })).status).toBe(421);
    expect((await get('/', { host: `localhost:${port}` })).status).toBe(302);
    const post = await get('/handbook/handbook', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const head = await get('/handbook/handbook', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(1000);
  });

  it('keeps answering while slow clients hold connections open', async () => {
    const slow = Array.from({ length: 20 }, () => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`GET /handbook/handbook HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `);
      return socket;
    });
    const started = Date.now();
    const answer = await get('/handbook/handbook/guide');
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(20_000);
    for (const socket of slow) socket.destroy();
  });

  it('serves files of the content as inert downloads or images, and 404 for others', async () => {
    const html = (await get('/handbook/handbook')).body;
    const image = /src="(\/_docsctl\/files\/[^"]+\/logo\.png)"/.exec(html)?.[1] as string;
    const answer = await get(image);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
    expect((await get(image.replace('logo.png', 'other.png'))).status).toBe(404);
    expect((await get(image.replace(site.handbook, 'someone-elses-space'))).status).toBe(404);
  });

  it('redirects / and a section to their default variant, and answers 404 pages with navigation', async () => {
    expect((await get('/')).headers.location).toBe('/handbook/handbook');
    expect((await get('/api-reference')).headers.location).toBe('/api-reference/api-reference');
    const missing = await get('/handbook/handbook/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('<h1 class="pv-title">Not found</h1>');
    expect(missing.body).toContain('class="pv-sidebar"');
    expect((await get('/favicon.ico')).status).toBe(204);
  });

  it('caps live-reload streams and ends one at once when the content is older', async () => {
    const stale = await get('/_docsctl/events?since=old');
    expect(stale.body).toMatch(/^event: reload\ndata: [0-9a-f]{32}\n\n$/);
  });
});

describe('site preview against docsctl serve (remote mode)', { timeout: 240_000 }, () => {
  it('reads real-API operations only, renders the site, and shows images from their download URLs', async () => {
    const server = await startServe(site.env);
    const { DOCSCTL_STORE: _store, ...rest } = site.env;
    const token = (JSON.parse((await site.docsctl(['token', 'create', '--json'])).stdout) as { token: string }).token;
    const env = { ...rest, DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token };
    const { url, process: child, log } = await startPreview(env, [site.siteId, '--debug']);
    try {
      port = Number(new URL(url).port);
      const page = await get('/handbook/handbook');
      expect(page.status).toBe(200);
      expect(page.body).toContain('<h1 class="pv-title">Welcome</h1>');
      const image = /src="(\/_docsctl\/files\/[^"]+\/logo\.png)"/.exec(page.body)?.[1] as string;
      const bytes = await fetch(new URL(image, url));
      expect(bytes.status).toBe(200);
      expect(Buffer.from(await bytes.arrayBuffer()).equals(png(120, 40, [9, 105, 218]))).toBe(true);
      const search = await get('/_docsctl/search?v=handbook%2Fhandbook&q=glossary');
      expect(search.body).toMatch(/<a href="\/handbook\/handbook\/reference\/glossary">Glossary<\/a>/);
      // Every request it sent is an operation of the real API (no docsctl extension route).
      const sent = [...log().matchAll(/\[debug\] → (GET|POST|PUT|PATCH|DELETE) (\S+)/g)].map((m) => m[2] as string);
      expect(sent.length).toBeGreaterThan(3);
      expect(sent.filter((path) => path.includes('x-docsctl'))).toEqual([]);
      // Live reload remotely: the preview polls while a page listens, and tells it when the content changed.
      const version = /data-pv-version="([0-9a-f]+)"/.exec(page.body)?.[1] as string;
      const reload = new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `/_docsctl/events?since=${version}`, headers: { host: `127.0.0.1:${port}` } }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            if (text.includes('event: reload')) resolve(text);
          });
        });
        req.on('error', reject);
        req.end();
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await editInstallPage(site, 'Installed remotely.');
      const event = await reload;
      expect(event).toMatch(/^retry: 2000\n\nevent: reload\ndata: [0-9a-f]{32}\n\n$/);
      expect(event).not.toContain(version);
      expect((await get('/handbook/handbook/guide/install')).body).toContain('Installed remotely.');
    } finally {
      port = Number(new URL(preview.url).port);
      child.kill('SIGTERM');
      await child;
      server.process.kill('SIGTERM');
      await server.process;
    }
  });
});

describe('site preview --change-request and --out', { timeout: 240_000 }, () => {
  it("shows a change request's content before it is merged", async () => {
    const cr = (await site.docsctl(['cr', 'create', site.handbook, '--subject', 'Rewrite install', '--format', 'ids'])).stdout.trim();
    const dir = tempDir('docsctl-preview-cr-');
    mkdirSync(join(dir, 'guide'), { recursive: true });
    writeFileSync(join(dir, 'guide', 'install.md'), '# Install\n\nInstall with the CHANGE REQUEST steps.\n');
    const imported = await site.docsctl(['cr', 'import', site.handbook, cr, dir]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    const out = join(tempDir('docsctl-preview-cr-out-'), 'copy');
    const written = await site.docsctl(['site', 'preview', site.siteId, '--change-request', cr, '--out', out, '--json']);
    expect(written.exitCode, written.stderr).toBe(0);
    expect(JSON.parse(written.stdout)).toMatchObject({ dir: out, pages: 7, missingFiles: [] });
    const install = readFileSync(join(out, 'handbook', 'handbook', 'guide', 'install', 'index.html'), 'utf8');
    expect(install).toContain('Install with the CHANGE REQUEST steps.');
    expect(install).toMatch(/<div class="pv-banner">Change request #\d+: Rewrite install/);
    // The space itself is unchanged.
    expect((await site.docsctl(['site', 'preview', site.siteId, '--out', out])).exitCode).toBe(0);
    expect(readFileSync(join(out, 'handbook', 'handbook', 'guide', 'install', 'index.html'), 'utf8')).not.toContain('CHANGE REQUEST');
    const unknown = await site.docsctl(['site', 'preview', site.siteId, '--change-request', '9999', '--out', out]);
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toMatch(/^error: No change request "9999" in the spaces of Acme Docs/);
  });

  it('refuses to write into a directory that is not an earlier preview, and replaces an earlier one whole', async () => {
    const root = tempDir('docsctl-preview-out-');
    const precious = join(root, 'precious');
    mkdirSync(precious);
    writeFileSync(join(precious, 'thesis.tex'), 'years of work');
    const refused = await site.docsctl(['site', 'preview', site.siteId, '--out', precious]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(`error: --out ${precious} is not empty and is not an earlier preview (name a new or empty directory (an earlier copy is replaced))`);
    expect(readFileSync(join(precious, 'thesis.tex'), 'utf8')).toBe('years of work');
    const copy = join(root, 'copy');
    expect((await site.docsctl(['site', 'preview', site.siteId, '--out', copy])).exitCode).toBe(0);
    writeFileSync(join(copy, 'stale.html'), 'old');
    expect((await site.docsctl(['site', 'preview', site.siteId, '--out', copy])).exitCode).toBe(0);
    expect(existsSync(join(copy, 'stale.html'))).toBe(false);
    expect(existsSync(join(copy, 'index.html'))).toBe(true);
    const missing = await site.docsctl(['site', 'preview', 'n0such5ite', '--out', join(root, 'none')]);
    expect(missing.exitCode).toBe(4);
    expect(existsSync(join(root, 'none'))).toBe(false);
  });
});

describe('--web', { timeout: 240_000 }, () => {
  /** A stand-in browser ($BROWSER) that writes the arguments it was given to a file. */
  function fakeBrowser(): { env: Record<string, string>; opened: () => string[] } {
    const dir = tempDir('docsctl-browser-');
    const script = join(dir, 'browser');
    const record = join(dir, 'opened');
    writeFileSync(script, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${record}'; done\n`);
    chmodSync(script, 0o755);
    return { env: { BROWSER: script }, opened: () => (existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n') : []) };
  }

  it("opens the object's app URL remotely, as one argument, and prints it when there is no display", async () => {
    const server = await startServe(site.env);
    const { DOCSCTL_STORE: _store, ...rest } = site.env;
    const token = (JSON.parse((await site.docsctl(['token', 'create', '--json'])).stdout) as { token: string }).token;
    const env = { ...rest, DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token };
    try {
      const run = (args: string[], extra: Record<string, string> = {}) =>
        execa('node', [bin, ...args], { env: { ...env, ...extra }, extendEnv: false, reject: false, timeout: 60_000 });
      const browser = fakeBrowser();
      const space = await run(['space', 'get', site.handbook, '--web'], browser.env);
      expect(space.exitCode, space.stderr).toBe(0);
      const app = JSON.parse((await run(['space', 'get', site.handbook, '--json', 'urls'])).stdout).urls.app as string;
      expect(browser.opened()).toEqual([app]);
      expect(space.stdout).toBe('');
      const cr = await run(['cr', 'get', site.handbook, '1', '--web'], browser.env);
      expect(cr.exitCode, cr.stderr).toBe(0);
      expect(browser.opened()[1]).toMatch(new RegExp(`^${server.url}/app/o/\\w+/s/${site.handbook}/~/changes/`));
      // No display, no $BROWSER: the URL on stdout.
      const printed = await run(['space', 'get', site.handbook, '--web']);
      expect(printed.exitCode).toBe(0);
      expect(printed.stdout).toBe(app);
    } finally {
      server.process.kill('SIGTERM');
      await server.process;
    }
  });

  it('opens the preview locally, at the page asked for', async () => {
    const browser = fakeBrowser();
    const pageId = (JSON.parse((await site.docsctl(['page', 'list', site.handbook, '--json'])).stdout) as Array<{ id: string; title: string; pages: Array<{ id: string; title: string }> }>)
      .find((p) => p.title === 'Guide')
      ?.pages.find((p) => p.title === 'Install')?.id as string;
    const child = execa('node', [bin, 'page', 'get', site.handbook, pageId, '--web'], { env: { ...site.env, ...browser.env }, extendEnv: false, reject: false });
    try {
      const deadline = Date.now() + 60_000;
      while (browser.opened().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      const [opened] = browser.opened();
      expect(opened).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/handbook\/guide\/install$/);
      const answer = await fetch(opened as string);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('<h1 class="pv-title">Install</h1>');
    } finally {
      child.kill('SIGTERM');
      const done = await child;
      expect(done.exitCode).toBe(0);
      expect(done.stdout).toMatch(/^Previewing "Handbook" at http:\/\/127\.0\.0\.1:\d+\/handbook\/guide\/install \(Ctrl-C to stop\)$/);
    }
  });
});
