/**
 * Opens a URL in the user's browser (`--web`, `site preview --open`) with the system
 * opener: `$BROWSER` when set, else `open` (macOS), `rundll32 url.dll` (Windows) or
 * `xdg-open`, run through execa with the URL as one argument after validation (an
 * http(s) URL, normalised by the URL parser: it starts with "http", never with "-",
 * and no shell sees it). Without a display (no DISPLAY or WAYLAND_DISPLAY on Linux),
 * or when the opener is missing or fails, the URL is printed instead.
 */
import { platform } from 'node:os';
import { UsageError } from '../api/errors.js';
import type { Session } from './session.js';

/** The opener command and its arguments before the URL. */
function opener(env: NodeJS.ProcessEnv): { file: string; args: string[] } | undefined {
  const browser = env.BROWSER?.trim();
  if (browser) return { file: browser, args: [] };
  const system = platform();
  if (system === 'darwin') return { file: 'open', args: [] };
  if (system === 'win32') return { file: 'rundll32', args: ['url.dll,FileProtocolHandler'] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { file: 'xdg-open', args: [] };
}

/** True when the browser was asked to open `url`; false when the URL was printed instead. */
export async function openInBrowser(session: Session, url: string): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`Cannot open "${url}": not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`Cannot open "${url}": only http(s) URLs are opened`);
  const href = parsed.href;
  const command = opener(session.ctx.env);
  if (!command) {
    await session.printText(href);
    await session.hint('No display: open the URL above in a browser.');
    return false;
  }
  const { execa } = await import('execa');
  const child = execa(command.file, [...command.args, href], { stdio: 'ignore', reject: false, detached: true, timeout: 10_000, env: session.ctx.env, extendEnv: false });
  // The opener hands the URL to the browser and exits; a browser started directly may stay: stop waiting after a while.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const result = await Promise.race([child, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 3_000)))]);
  clearTimeout(timer);
  if (result === undefined) {
    child.unref();
    await session.info(`Opened ${href} in the browser`);
    return true;
  }
  if (result.failed || result.exitCode !== 0) {
    await session.printText(href);
    await session.info(`Could not open a browser (${command.file} ${result.exitCode === undefined ? 'failed to start' : `exited ${result.exitCode}`}): open the URL above`);
    return false;
  }
  await session.info(`Opened ${href} in the browser`);
  return true;
}
