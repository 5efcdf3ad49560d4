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
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerServeCommand(program: Command, getSession: (command: Command) => Session): void {
  program
    .command('serve')
    .description('Serve the local store as the /v1 API (a stateful emulator for CI and API clients)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 = any free port)', '4000')
    .option('--public-url <url>', 'origin used in urls.location of answers (default http://127.0.0.1:4000, or DOCSCTL_PUBLIC_URL)')
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
  const [{ openStore }, { startServer }, { servePolicy }] = await Promise.all([
    import('../../store/index.js'),
    import('../../server/server.js'),
    import('../../domain/policy.js'),
  ]);
  const policy = await servePolicy(options);
  const store = openStore(session.settings.storeDir);
  const origin = (options.publicUrl ?? session.origin).replace(/\/+$/, '');
  const server = await startServer({
    store,
    host: options.host,
    port,
    origin,
    clock: session.ctx.clock,
    ids: session.ctx.ids,
    log: (line: string) => session.debug(line),
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
