/**
 * `docsctl serve`: the local store as a /v1 API server on loopback. Prints one
 * line `Listening on http://HOST:PORT` once it accepts connections (or, with
 * `--print-env`, one line of JSON: the endpoint and every seeded user's token) and
 * stops cleanly on SIGINT/SIGTERM.
 *
 * As a CI emulator (src/emulator/): `--seed FILE` starts from a fresh store made into
 * the organization of an apply file, `--ephemeral` keeps the store in a temporary
 * directory removed when serve stops, `--exec -- CMD…` runs CMD against it and exits
 * with its code; `serve snapshot save|restore|list|delete` and `serve reset`
 * (serve-snapshots.ts) isolate test cases.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../api/errors.js';
import type { Seeded } from '../../emulator/seed.js';
import type { Located } from '../../orgcode/parse.js';
import type { Store } from '../../store/types.js';
import { SilentExit } from '../io.js';
import type { Session } from '../session.js';
import { readBounded, sourceReader } from './apply.js';
import { registerServeSnapshotCommands } from './serve-snapshots.js';

interface ServeOptions {
  host: string;
  port?: string;
  seed?: string;
  ephemeral?: boolean;
  exec?: boolean;
  printEnv?: boolean;
  publicUrl?: string;
  allowLocal: string[];
  allowPrivateNetwork?: boolean;
  allowHttp?: boolean;
  rateLimit?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerServeCommand(program: Command, getSession: (command: Command) => Session): void {
  const serve = program
    .command('serve')
    .description('Serve the local store as the /v1 API (a stateful emulator for CI and API clients)')
    .argument('[command...]', 'with --exec: the command to run against serve (after --)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 = any free port; default 4000, or 0 with --exec)')
    .option('--seed <file>', 'start from a fresh store with the organization of this apply file (YAML or JSON; see docsctl apply --help)')
    .option('--ephemeral', 'keep the store in a temporary directory, removed when serve stops')
    .option('--exec', 'run the command after -- against serve (DOCSCTL_/GITBOOK_ENDPOINT and _TOKEN set), then stop; exit with its code')
    .option('--print-env', "print one line of JSON on start instead of \"Listening on\": endpoint, owner token, each seeded user's token")
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

As a CI emulator:
  --seed FILE starts from a fresh store (a new --store DIR, or --ephemeral) with an
  organization titled "Emulator", its owner (the user of the printed token), and what the
  apply file describes; each member it names gets a token of their own (--print-env). The
  seeded state is kept as a snapshot: "docsctl serve reset" goes back to it.
  --exec -- CMD ARGS... runs CMD (no shell) with DOCSCTL_ENDPOINT, DOCSCTL_TOKEN,
  DOCSCTL_ORG, GITBOOK_ENDPOINT and GITBOOK_TOKEN set, stops serve when it ends and exits
  with its code (128+N when a signal N ended it; 127 when it cannot be started). Ctrl-C
  and SIGTERM are passed on to CMD.

Exit codes: 0 stopped by a signal; 2 bad flags or seed file (nothing created); with
--exec, CMD's.

Examples:
  $ docsctl serve --port 4000
  $ docsctl serve --port 0 &   # prints "Listening on http://127.0.0.1:PORT"
  $ docsctl serve --allow-local ./imports   # content import may read file:// URLs below ./imports
  $ docsctl serve --rate-limit 10/s   # test a client's retries (429, Retry-After, X-RateLimit-*)
  $ curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:4000/v1/orgs
  $ docsctl serve --seed org.yaml --ephemeral --exec -- npm test
  $ docsctl serve --seed org.yaml --ephemeral --print-env --port 0 > serve.json &
  $ docsctl serve snapshot save clean && docsctl serve snapshot restore clean
`,
    )
    .action(async (command: string[], options: ServeOptions, self: Command) => {
      await runServe(getSession(self), options, command);
    });
  registerServeSnapshotCommands(serve, getSession);
}

/** The port asked for: `--port`, else 4000, or any free one with --exec. */
function portOf(options: ServeOptions): number {
  if (options.port === undefined) return options.exec ? 0 : 4000;
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port expects 0-65535, got "${options.port}"`);
  return port;
}

function checkCommand(options: ServeOptions, command: readonly string[]): void {
  if (options.exec && command.length === 0) {
    throw new UsageError('--exec needs the command to run after --', { hint: 'docsctl serve --seed org.yaml --exec -- npm test' });
  }
  if (!options.exec && command.length > 0) {
    throw new UsageError(`serve takes no argument "${command[0]}"`, { hint: `to run a command against serve: docsctl serve --exec -- ${command.join(' ')}` });
  }
}

/** Where the store lives, and how to remove what serve created there if it cannot start. */
interface StoreDir {
  dir: string;
  /** Removes the directory (ephemeral) or what seeding wrote in it. */
  discard(): void;
}

function storeDir(session: Session, options: ServeOptions, storeExists: (dir: string) => boolean): StoreDir {
  if (options.ephemeral) {
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-serve-'));
    return { dir, discard: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const dir = session.settings.storeDir;
  if (options.seed === undefined) return { dir, discard: () => undefined };
  if (storeExists(dir)) {
    throw new UsageError(`--seed starts from a fresh store, and ${dir} already holds one (nothing was changed)`, {
      hint: 'add --ephemeral, or point --store at a new directory',
    });
  }
  let before: string[] | undefined;
  try {
    before = readdirSync(dir);
  } catch {
    before = undefined;
  }
  return {
    dir,
    // A directory serve created goes; in one that existed (empty), what seeding wrote goes.
    discard: () => {
      if (before === undefined) rmSync(dir, { recursive: true, force: true });
      else for (const name of readdirSync(dir)) if (!before.includes(name)) rmSync(join(dir, name), { recursive: true, force: true });
    },
  };
}

export async function runServe(session: Session, options: ServeOptions, command: readonly string[] = []): Promise<void> {
  if (session.settings.mode === 'remote') throw new UsageError('serve runs on a local store; it cannot use --endpoint');
  checkCommand(options, command);
  const port = portOf(options);
  const origin = publicOrigin(options.publicUrl ?? session.ctx.env.DOCSCTL_PUBLIC_URL);
  const [{ openStore, createStore, storeExists }, { startServer }, { parseRateLimit }, { servePolicy }, { ensureLayout }, { parseSeed, seedStore }] = await Promise.all([
    import('../../store/open.js'),
    import('../../server/server.js'),
    import('../../server/rate-limit.js'),
    import('../../domain/policy.js'),
    import('../../domain/layout.js'),
    import('../../emulator/seed.js'),
  ]);
  const rateLimit = options.rateLimit === undefined ? undefined : parseRateLimit(options.rateLimit);
  const policy = await servePolicy(options);
  // The seed is checked whole before any directory is made.
  const seed: Located | undefined =
    options.seed !== undefined ? await parseSeed(await readBounded(session, options.seed), options.seed === '-' ? 'stdin' : options.seed) : options.ephemeral ? await parseSeed('{}', 'empty seed') : undefined;
  const place = storeDir(session, options, storeExists);
  let store: Store | undefined;
  let seeded: Seeded | undefined;
  try {
    // Watch commits/ for other writers: a read costs no system call while nothing changed (json-file-store.ts).
    store = seed ? createStore(place.dir, { watch: true }) : openStore(place.dir, { watch: true });
    await ensureLayout(store);
    if (seed) {
      const readSource = options.seed === undefined ? undefined : sourceReader(session, options.seed);
      seeded = await seedStore(store, seed, { clock: session.ctx.clock, ids: session.ctx.ids, origin: origin ?? 'http://127.0.0.1', readSource });
    }
  } catch (error) {
    await store?.close();
    place.discard();
    throw error;
  }
  try {
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
    try {
      const access = await accessFor(store, seeded, session);
      if (options.printEnv) {
        await session.printText(JSON.stringify(printedEnv(server.url, place.dir, seeded, access.token)));
        await session.info(`Listening on ${server.url}`);
      } else await session.printText(`Listening on ${server.url}`);
      let code: number;
      try {
        code = options.exec ? await execute(session, command, server.url, access.token, seeded?.organizationId) : await stopSignal(session);
      } finally {
        await access.release();
      }
      if (code !== 0) throw new SilentExit(code as SilentExit['code']);
    } finally {
      await server.close();
    }
  } finally {
    await store.close();
    if (options.ephemeral) place.discard();
  }
}

/** Resolves once SIGINT or SIGTERM arrives (exit 0). */
function stopSignal(session: Session): Promise<number> {
  return new Promise<number>((resolve) => {
    const unsubscribe = session.ctx.onStopSignal(() => {
      unsubscribe();
      resolve(0);
    });
  });
}

async function execute(session: Session, command: readonly string[], endpoint: string, token: string | undefined, organizationId: string | undefined): Promise<number> {
  const { runCommand, execEnvironment } = await import('../../emulator/exec.js');
  const env = { ...session.ctx.env, ...(token !== undefined ? execEnvironment(endpoint, token, organizationId) : {}) };
  return runCommand(command, { env, onStopSignal: (handler) => session.ctx.onStopSignal(handler) });
}

/**
 * The token `--exec` and `--print-env` hand out: the seeded owner's; on a store serve did
 * not seed, one issued for its owner now and revoked when serve stops.
 */
async function accessFor(store: Store, seeded: Seeded | undefined, session: Session): Promise<{ token: string | undefined; release(): Promise<void> }> {
  if (seeded) return { token: seeded.owner.token, release: async () => undefined };
  const [{ issueToken }, { storeOwner }, { LocalTransport }] = await Promise.all([import('../../domain/accounts.js'), import('../../domain/auth.js'), import('../../transport/local.js')]);
  const owner = storeOwner(store.read());
  if (owner === undefined) return { token: undefined, release: async () => undefined };
  const issued = await store.transact((tx) => issueToken(tx, owner, 'serve (revoked when it stops)', session.ctx.clock), { command: 'serve' });
  return {
    token: issued.token,
    release: async () => {
      const local = new LocalTransport({ store, clock: session.ctx.clock, ids: session.ctx.ids, origin: 'http://127.0.0.1' });
      // Gone already when a snapshot from before it was restored.
      await local.request('revokeToken', { params: { tokenId: issued.row.id } }).catch(() => undefined);
    },
  };
}

/** What `--print-env` prints: enough for a test suite to act as each seeded role. */
function printedEnv(endpoint: string, dir: string, seeded: Seeded | undefined, token: string | undefined) {
  return {
    endpoint,
    token,
    organizationId: seeded?.organizationId,
    store: dir,
    users: (seeded?.users ?? []).map(({ email, id, role, token: userToken }) => ({ email, id, role, token: userToken })),
  };
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
