/**
 * `docsctl site preview` in a real browser (Debian's Chromium through playwright-core):
 * the built binary serves a site of two sections from a local store; the browser
 * walks the sidebar, internal links and links between spaces, switches sections and
 * tabs, searches, checks that images load and that the console stays clean, visits the
 * hostile page (nothing may run), sees the page reload when the store changes, and
 * opens the static copy (`--out`) from file://. Screenshots are kept in
 * test-output/preview-screenshots/ (gitignored).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Watched, launchBrowser } from '../helpers/browser.js';
import { EVIL_SECTION_TITLE, EVIL_TITLE, type PreviewSite, buildPreviewSite, editInstallPage, startPreview } from '../helpers/preview-site.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

let site: PreviewSite;
let browser: Browser;
let preview: ResultPromise;
let base: string;

beforeAll(async () => {
  [site, browser] = await Promise.all([buildPreviewSite(), launchBrowser()]);
  const started = await startPreview(site.env, [site.siteId]);
  preview = started.process;
  base = started.url;
});

afterAll(async () => {
  preview?.kill('SIGTERM');
  await preview;
  await browser?.close();
  cleanupTempDirs();
});

/** Every image of the article has loaded (decoded, not broken). */
async function imagesLoaded(page: Page): Promise<Array<{ src: string; width: number }>> {
  return page.$$eval('article img', (images) => images.map((img) => ({ src: (img as HTMLImageElement).src, width: (img as HTMLImageElement).naturalWidth })));
}

const sidebarTitles = (page: Page) => page.$$eval('.pv-sidebar a, .pv-sidebar .pv-group-title', (items) => items.map((a) => a.textContent?.trim()));

function expectClean(watched: Watched): void {
  expect(watched.consoleErrors).toEqual([]);
  expect(watched.pageErrors).toEqual([]);
  expect(watched.dialogs).toEqual([]);
  expect(watched.requests.filter((url) => url.includes('_pwned'))).toEqual([]);
}

describe('site preview in Chromium', { timeout: 240_000 }, () => {
  it('shows the default section with its sidebar, blocks, highlighted code and loaded images', async () => {
    const watched = await browser.watch();
    const { page } = watched;
    await page.goto(base);
    expect(new URL(page.url()).pathname).toBe('/handbook/handbook');
    expect(await page.textContent('h1.pv-title')).toBe('Welcome');
    expect(await page.title()).toBe('Welcome · Acme Docs');
    // Sections as navigation, the current one marked; the page tree as the sidebar (hostile title shown as text).
    expect(await page.$$eval('.pv-sections a', (links) => links.map((a) => [a.textContent, a.getAttribute('aria-current')]))).toEqual([
      ['Handbook', 'true'],
      [`API Reference ${EVIL_SECTION_TITLE}`, null],
    ]);
    expect(await sidebarTitles(page)).toEqual(['Welcome', 'Guide', 'Install', EVIL_TITLE, 'Reference', 'Glossary']);
    expect(await page.getAttribute('.pv-sidebar a.pv-current', 'href')).toBe('/handbook/handbook');
    // Blocks: the hint, the tabs (one panel at a time), highlighted code, the file, the page link by title.
    expect(await page.textContent('.gb-hint-warning')).toContain('Back up your data first.');
    expect(await page.isVisible('text=const answer')).toBe(true);
    expect(await page.isVisible('text=def answer')).toBe(false);
    await page.click('.gb-tab-button:has-text("Python")');
    expect(await page.isVisible('text=def answer')).toBe(true);
    expect(await page.isVisible('text=const answer')).toBe(false);
    expect(await page.$$eval('.gb-tab-panel.gb-active .hljs-keyword', (spans) => spans.map((s) => s.textContent))).toContain('def');
    expect(await page.textContent('.gb-file-link')).toBe('report.pdf');
    expect(await page.textContent('.gb-content-ref-link')).toBe('Install');
    const images = await imagesLoaded(page);
    expect(images).toEqual([{ src: expect.stringMatching(/\/_docsctl\/files\/\w+\/\w+\/logo\.png$/), width: 120 }]);
    // The file block downloads the PDF.
    const pdf = await page.request.get(await page.getAttribute('.gb-file-link', 'href').then((href) => new URL(href as string, base).href));
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''report\.pdf$/);
    await page.click('.gb-tab-button:has-text("JavaScript")');
    await browser.screenshot(page, '1-welcome');
    expectClean(watched);
    await page.close();
  });

  it('navigates through the sidebar, internal links, page links, sections and links between spaces', async () => {
    const watched = await browser.watch();
    const { page } = watched;
    await page.goto(base);
    await page.click('.pv-sidebar a:has-text("Install")');
    await page.waitForURL(`${base}handbook/handbook/guide/install`);
    expect(await page.textContent('h1.pv-title')).toBe('Install');
    expect(await page.getAttribute('.pv-sidebar a.pv-current', 'href')).toBe('/handbook/handbook/guide/install');
    expect((await imagesLoaded(page))[0]?.width).toBe(120);
    // A relative link between pages (../reference/glossary.md).
    await page.click('article a:has-text("glossary")');
    await page.waitForURL(`${base}handbook/handbook/reference/glossary`);
    expect(await page.textContent('article table')).toContain('A set of pages');
    // Previous/next follow the sidebar order.
    await page.click('.pv-prev');
    await page.waitForURL(/\/handbook\/handbook\/evil$/);
    await page.goto(`${base}handbook/handbook/guide`);
    await page.click('article a:has-text("back home")');
    await page.waitForURL(`${base}handbook/handbook`);
    // GitBook's page link (content-ref) by its title, with the anchor of a link kept.
    await page.click('.gb-content-ref-link');
    await page.waitForURL(`${base}handbook/handbook/guide/install`);
    await page.goBack();
    await page.click('article a:has-text("install")');
    await page.waitForURL(`${base}handbook/handbook/guide/install#setup`);
    // The other section, then its link into the handbook (an app.gitbook.com URL of the space).
    await page.click('.pv-sections a:has-text("API Reference")');
    await page.waitForURL(`${base}api-reference/api-reference`);
    expect(await page.textContent('h1.pv-title')).toBe('API');
    expect(await sidebarTitles(page)).toEqual(['API', 'Errors']);
    expect(await page.$$eval('article .hljs-built_in, article .hljs-string', (spans) => spans.length)).toBeGreaterThan(0);
    await browser.screenshot(page, '2-api-section');
    await page.click('article a:has-text("Install")');
    await page.waitForURL(`${base}handbook/handbook/guide/install`);
    expectClean(watched);
    await page.close();
  });

  it("searches with docsctl's search and opens a result", async () => {
    const watched = await browser.watch();
    const { page } = watched;
    await page.goto(base);
    await page.fill('.pv-search-input', 'installer');
    await page.press('.pv-search-input', 'Enter');
    await page.waitForURL(/\/_docsctl\/search\?v=handbook%2Fhandbook&q=installer$/);
    expect(await page.textContent('h1.pv-title')).toBe('Search: installer');
    expect(await page.$$eval('.pv-results a', (links) => links.map((a) => a.textContent))).toEqual(['Install']);
    await browser.screenshot(page, '3-search');
    await page.click('.pv-results a:has-text("Install")');
    await page.waitForURL(`${base}handbook/handbook/guide/install`);
    expectClean(watched);
    await page.close();
  });

  it('keeps hostile content inert: no script runs, no handler, no dangerous URL, nothing reaches the console', async () => {
    const watched = await browser.watch();
    const { page } = watched;
    await page.goto(`${base}handbook/handbook/evil`);
    expect(await page.textContent('h1.pv-title')).toBe(EVIL_TITLE);
    // Interact with what is left: hover, click every link and button, toggle details.
    await page.hover('text=hover here');
    for (const text of ['markdown javascript link', 'html javascript link', 'entity javascript link', 'tab javascript link', 'data link', 'vbscript link', 'spaced javascript link']) {
      const link = page.locator('article').getByText(text, { exact: false }).first();
      if (await link.count()) await link.click({ timeout: 5_000 }).catch(() => undefined);
    }
    await page.locator('article summary').first().click();
    await page.locator('article button', { hasText: 'submit me' }).click({ timeout: 5_000 }).catch(() => undefined);
    // The SVG is shown as an image (its script cannot run there) and, opened on its own, runs nothing either.
    // The first image (its onerror dropped) is the logo, found by its name among the space's files.
    expect((await imagesLoaded(page)).map((img) => img.width)).toEqual([120, 40]);
    const svgUrl = await page.getAttribute('article a:has-text("the svg file")', 'href');
    await page.waitForTimeout(500);
    expect(page.url()).toBe(`${base}handbook/handbook/evil`);
    // The DOM the page got: our script only, no handler attributes, no dangerous URLs, no frames or plugins.
    const dom = await page.evaluate(() => {
      const all = Array.from(document.querySelectorAll('*'));
      return {
        scripts: Array.from(document.scripts).map((s) => s.getAttribute('src')),
        handlers: all.flatMap((el) => Array.from(el.attributes).filter((a) => a.name.startsWith('on')).map((a) => `${el.tagName}.${a.name}`)),
        urls: all.flatMap((el) => ['href', 'src', 'action', 'formaction', 'data'].map((name) => el.getAttribute(name) ?? '')).filter((url) => /^\s*(javascript|data|vbscript):/i.test(url)),
        embedded: document.querySelectorAll('article :is(iframe, object, embed, svg, math, form, style), base, meta[http-equiv="refresh"], body style').length,
        styled: document.querySelectorAll('article [style]').length,
        title: document.title,
        sidebar: document.querySelector('.pv-sidebar a[href$="/evil"]')?.textContent,
      };
    });
    expect(dom).toEqual({ scripts: ['/_docsctl/assets/app.js'], handlers: [], urls: [], embedded: 0, styled: 0, title: `${EVIL_TITLE} · Acme Docs`, sidebar: EVIL_TITLE });
    await browser.screenshot(page, '4-hostile-page');
    const svg = await watched.page.context().newPage();
    svg.on('dialog', (dialog) => {
      watched.dialogs.push(`svg: ${dialog.message()}`);
      void dialog.dismiss();
    });
    svg.on('request', (request) => watched.requests.push(request.url()));
    await svg.goto(new URL(svgUrl as string, base).href);
    await svg.waitForTimeout(500);
    await svg.close();
    expect(watched.dialogs).toEqual([]);
    expect(watched.requests.filter((url) => url.includes('_pwned'))).toEqual([]);
    // The sanitizer removed everything before the Content-Security-Policy had to refuse anything: the console is empty.
    expectClean(watched);
    const response = await page.request.get(`${base}handbook/handbook/evil`);
    expect(response.headers()['content-security-policy']).toMatch(/^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]+'; style-src 'self'; /);
    await page.close();
  });

  it('reloads the page by itself when the store changes', async () => {
    const watched = await browser.watch();
    const { page } = watched;
    await page.goto(`${base}handbook/handbook/guide/install`);
    expect(await page.textContent('article')).toContain('Run the installer.');
    await page.waitForTimeout(300); // the live-reload stream is open
    const reloaded = page.waitForEvent('load', { timeout: 60_000 });
    await editInstallPage(site, 'Run the NEW installer, version 2.');
    await reloaded;
    await page.waitForSelector('text=Run the NEW installer, version 2.');
    await browser.screenshot(page, '5-live-reload');
    expectClean(watched);
    await page.close();
  });

  it('writes a static copy (--out) that works from file:// with its own search', async () => {
    const out = join(tempDir('docsctl-preview-out-'), 'site');
    const written = await site.docsctl(['site', 'preview', site.siteId, '--out', out]);
    expect(written.exitCode, written.stderr).toBe(0);
    expect(written.stdout).toMatch(/^Wrote 7 pages and 3 files of "Acme Docs" to /);
    expect(existsSync(join(out, 'handbook', 'handbook', 'guide', 'install', 'index.html'))).toBe(true);
    const watched = await browser.watch();
    const { page } = watched;
    await page.goto(`file://${out}/index.html`);
    await page.waitForURL(`file://${out}/handbook/handbook/index.html`);
    expect(await page.textContent('h1.pv-title')).toBe('Welcome');
    expect((await imagesLoaded(page))[0]?.width).toBe(120);
    await page.click('.pv-sidebar a:has-text("Install")');
    await page.waitForURL(`file://${out}/handbook/handbook/guide/install/index.html`);
    expect(await page.textContent('article')).toContain('Run the NEW installer');
    await page.fill('.pv-search-input', 'glossary');
    await page.waitForSelector('.pv-search-results a');
    expect(await page.$$eval('.pv-search-results a', (links) => links.map((a) => a.textContent))).toEqual(['Glossary', 'Install']);
    await browser.screenshot(page, '6-static-copy-search');
    await page.click('.pv-search-results a:has-text("Glossary")');
    await page.waitForURL(`file://${out}/handbook/handbook/reference/glossary/index.html`);
    await page.goto(`file://${out}/handbook/handbook/evil/index.html`);
    await page.hover('text=hover here');
    expectClean(watched);
    await page.close();
  });

  it("shows a change request's content with a banner before it is merged", async () => {
    const cr = (await site.docsctl(['cr', 'create', site.handbook, '--subject', 'Faster install', '--format', 'ids'])).stdout.trim();
    const dir = tempDir('docsctl-preview-cr-');
    mkdirSync(join(dir, 'guide'), { recursive: true });
    writeFileSync(join(dir, 'guide', 'install.md'), '# Install\n\n{% hint style="success" %}\nOne command now: `acme install`.\n{% endhint %}\n');
    expect((await site.docsctl(['cr', 'import', site.handbook, cr, dir])).exitCode).toBe(0);
    const out = join(tempDir('docsctl-preview-cr-out-'), 'site');
    const written = await site.docsctl(['site', 'preview', site.siteId, '--change-request', cr, '--out', out]);
    expect(written.exitCode, written.stderr).toBe(0);
    const watched = await browser.watch();
    const { page } = watched;
    await page.goto(`file://${out}/handbook/handbook/guide/install/index.html`);
    expect(await page.textContent('.pv-banner')).toMatch(/^Change request #\d+: Faster install \(open, not merged: this is its content\)$/);
    expect(await page.textContent('.gb-hint-success')).toContain('One command now: acme install.');
    await browser.screenshot(page, '7-change-request');
    expectClean(watched);
    await page.close();
  });
});
