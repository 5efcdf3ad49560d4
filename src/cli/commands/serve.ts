/**
 * `docsctl serve`: the local store as a /v1 API server on loopback. Prints one
 * line `Listening on http://HOST:PORT` once it accepts connections and stops
 * cleanly on SIGINT/SIGTERM.
 */
import type { Command } from 'commander';
import { UsageError } from '../../api/errors.js';
import type { Session } from '../session.js';

interface ServeOptions {
  host: string;
  port: string;
  publicUrl?: string;
  allowLocal: string[];
  allowPrivateNetwork?: boolean;
  allowHttp?: boolean;
  rateLimit?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerServeCommand(program: Command, getSession: (command: Command) => Session): void {
  program
    .command('serve')
    .description('Serve the local store as the /v1 API (a stateful emulator for CI and API clients)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 = any free port)', '4000')
    .option('--public-url <url>', 'origin of the URLs in answers (Location, urls.*, downloadURL, PDF links); default the bound address, or DOCSCTL_PUBLIC_URL')
    .option('--rate-limit <rate>', 'answer 429 with Retry-After beyond this many requests per client (N/s, N/min or N/h)')
    .option('--allow-local <dir>', 'let requests import file:// URLs and paths below DIR (repeatable; default: none)', collect, [])
    .option('--allow-private-network', 'let requests fetch URLs on loopback, private, link-local and metadata addresses')
    .option('--allow-http', 'let requests fetch plain http:// URLs from non-loopback hosts')
    .addHelpText(
      'after',
      `
Clients authenticate with "Authorization: Bearer <token>" (a token from "docsctl init").

A request cannot read this machine's files or reach its network unless you allow it:
file:// URLs and local paths (content import, git import) are refused (403) except below an
--allow-local DIR (symlinks resolved); http(s) URLs resolving to loopback, private, link-local,
CGNAT or metadata addresses are refused unless --allow-private-network (every redirect hop is
checked); plain http:// is refused except to loopback or with --allow-http.

Examples:
  $ docsctl serve --port 4000
  $ docsctl serve --port 0 &   # prints "Listening on http://127.0.0.1:PORT"
  $ docsctl serve --allow-local ./imports   # content import may read file:// URLs below ./imports
  $ docsctl serve --rate-limit 10/s   # test a client's retries (429, Retry-After, X-RateLimit-*)
  $ curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:4000/v1/orgs
`,
    )
    .action(async (options: ServeOptions, command: Command) => {
      await runServe(getSession(command), options);
    });
}

export async function runServe(session: Session, options: ServeOptions): Promise<void> {
  if (session.settings.mode === 'remote') throw new UsageError('serve runs on a local store; it cannot use --endpoint');
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port expects 0-65535, got "${options.port}"`);
  const origin = publicOrigin(options.publicUrl ?? session.ctx.env.DOCSCTL_PUBLIC_URL);
  const [{ openStore }, { startServer }, { parseRateLimit }, { servePolicy }, { ensureLayout }] = await Promise.all([
    import('../../store/open.js'),
    import('../../server/server.js'),
    import('../../server/rate-limit.js'),
    import('../../domain/policy.js'),
    import('../../domain/layout.js'),
  ]);
  const rateLimit = options.rateLimit === undefined ? undefined : parseRateLimit(options.rateLimit);
  const policy = await servePolicy(options);
  // Watch commits/ for other writers: a read costs no system call while nothing changed (json-file-store.ts).
  const store = openStore(session.settings.storeDir, { watch: true });
  await ensureLayout(store);
  const server = await startServer({
    store,
    host: options.host,
    port,
    ...(origin !== undefined ? { origin } : {}),
    clock: session.ctx.clock,
    ids: session.ctx.ids,
    rateLimit,
    // Server failures (every 5xx, with its request id and stack) go to stderr, always.
    log: (line: string) => void session.info(line),
    policy,
  });
  await session.printText(`Listening on ${server.url}`);
  await new Promise<void>((resolve) => {
    const unsubscribe = session.ctx.onStopSignal(() => {
      unsubscribe();
      resolve();
    });
  });
  await server.close();
  await store.close();
}

/** The `--public-url` origin (`scheme://host[:port][/prefix]`, no trailing slash), or a usage error. */
function publicOrigin(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--public-url expects an http(s) URL such as https://docs.example.com, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--public-url expects an http(s) URL, got a ${url.protocol} URL`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new UsageError('--public-url must not carry credentials, a query or a fragment');
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
