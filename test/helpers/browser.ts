/**
 * A real browser for tests: Debian's Chromium (`apt-get install chromium`, which
 * .ci/run installs) driven by playwright-core, headless, with a fresh profile
 * directory. Without Chromium the tests fail with a message saying how to install
 * it: a browser test that skips would hide a preview that no longer works.
 *
 * Every page opened through `watch` records console errors, uncaught exceptions,
 * dialogs (alert/confirm/prompt) and requests, so a test can assert that nothing
 * went wrong and that no hostile payload ran.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';

export const CHROMIUM = process.env.DOCSCTL_CHROMIUM ?? '/usr/bin/chromium';

/** Flags without which Chromium reaches for the network here (and has its connections refused). */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Where screenshots are kept (gitignored): test-output/preview-screenshots. */
export const SCREENSHOTS = new URL('../../test-output/preview-screenshots/', import.meta.url).pathname;

export interface Watched {
  page: Page;
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
  requests: string[];
}

export interface Browser {
  context: BrowserContext;
  watch(): Promise<Watched>;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: the preview's browser tests need it (apt-get install -y chromium; .ci/run installs it). Set DOCSCTL_CHROMIUM to use another executable.`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'docsctl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 860 },
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    async watch() {
      const page = await context.newPage();
      const watched: Watched = { page, consoleErrors: [], pageErrors: [], dialogs: [], requests: [] };
      page.on('console', (message) => {
        if (message.type() === 'error') watched.consoleErrors.push(`${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => watched.pageErrors.push(error.message));
      page.on('dialog', (dialog) => {
        watched.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss();
      });
      page.on('request', (request) => watched.requests.push(request.url()));
      return watched;
    },
    async screenshot(page, name) {
      const path = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
