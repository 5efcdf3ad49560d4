/**
 * The built binary (`bin/docsctl.js`) as a user runs it, in either mode: `local`
 * against a fresh store, or `remote` against a `docsctl serve` process of its own
 * fresh store (started with the binary too). Each mode has its own clean HOME,
 * store and organization, so a test can run the same steps in both and assert
 * what each printed.
 *
 *   const mode = await binaryMode('remote');
 *   const { stdout, stderr, exitCode } = await mode.run(['space', 'list']);
 *   await mode.close();
 */
import { join } from 'node:path';
import { type ResultPromise, execa } from 'execa';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { tempDir } from './stores.js';

export const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;

export type Mode = 'local' | 'remote';
export const MODES: readonly Mode[] = ['local', 'remote'];

export interface BinaryResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface RunOptions {
  /** Text on stdin (otherwise stdin is empty: not a terminal). */
  input?: string;
  env?: Record<string, string>;
}

export interface BinaryMode {
  mode: Mode;
  /** The environment commands run with (HOME, store or endpoint and token). */
  env: Record<string, string>;
  home: string;
  orgId: string;
  token: string;
  run(args: readonly string[], options?: RunOptions): Promise<BinaryResult>;
  /** Runs and expects exit 0, answering trimmed stdout (throws with stderr otherwise). */
  ok(args: readonly string[], options?: RunOptions): Promise<string>;
  close(): Promise<void>;
}

async function runBinary(env: Record<string, string>, args: readonly string[], options: RunOptions = {}): Promise<BinaryResult> {
  const result = await execa('node', [bin, ...args], {
    env: { ...env, ...options.env },
    extendEnv: false,
    reject: false,
    timeout: 120_000,
    input: options.input ?? '',
  });
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode ?? -1 };
}

/** Starts `docsctl serve --port 0` with `env` and resolves once it prints its URL. */
export async function startServe(env: Record<string, string>, flags: readonly string[] = []): Promise<{ url: string; process: ResultPromise }> {
  const server = execa('node', [bin, 'serve', '--port', '0', ...flags], { env, extendEnv: false, reject: false });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(seen);
      if (match) resolve(match[1] as string);
    });
    server.on('exit', () => reject(new Error(`serve exited early: ${seen}`)));
  });
  return { url, process: server };
}

export async function binaryMode(mode: Mode, options: { serveFlags?: readonly string[] } = {}): Promise<BinaryMode> {
  const home = tempDir(`docsctl-bin-${mode}-`);
  const base: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    DOCSCTL_STORE: join(home, 'store'),
    NO_COLOR: '1',
  };
  const init = await runBinary(base, ['init', '--org', 'Acme', '--json']);
  if (init.exitCode !== 0) throw new Error(`init failed: ${init.stderr}`);
  const { token, organization } = JSON.parse(init.stdout) as { token: string; organization: { id: string } };
  let env = base;
  let server: { process: ResultPromise } | undefined;
  if (mode === 'remote') {
    const served = await startServe(base, options.serveFlags);
    server = served;
    const { DOCSCTL_STORE: _store, ...rest } = base;
    env = { ...rest, DOCSCTL_ENDPOINT: served.url, DOCSCTL_TOKEN: token };
  }
  const run = (args: readonly string[], runOptions?: RunOptions) => runBinary(env, args, runOptions);
  return {
    mode,
    env,
    home,
    orgId: organization.id,
    token,
    run,
    async ok(args, runOptions) {
      const result = await run(args, runOptions);
      if (result.exitCode !== 0) throw new Error(`docsctl ${args.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
      return result.stdout.trim();
    },
    async close() {
      if (!server) return;
      server.process.kill('SIGTERM');
      await server.process;
    },
  };
}

/** Runs a command that must be refused: exit `exitCode`, one line on stderr matching `message`, no stack trace. */
export async function expectRefused(cli: BinaryMode, args: readonly string[], exitCode: number, message: RegExp, options: RunOptions = {}): Promise<void> {
  const result = await cli.run(args, options);
  expect(result.exitCode, result.stderr).toBe(exitCode);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/** The mode of one `describeInBothModes` block; `cli` is set before its tests run. */
export interface ModeContext {
  mode: Mode;
  cli: BinaryMode;
}

/**
 * `describe(title (local))` and `describe(title (remote))`, each with its own
 * `binaryMode` opened before its tests (and before `body`'s own beforeAll hooks)
 * and closed after them.
 */
export function describeInBothModes(title: string, body: (context: ModeContext) => void, options: { serveFlags?: readonly string[] } = {}): void {
  describe.each(MODES)(`${title} (%s)`, { timeout: 300_000 }, (mode) => {
    const context = { mode } as ModeContext;
    beforeAll(async () => {
      context.cli = await binaryMode(mode, options);
    });
    afterAll(() => context.cli?.close());
    body(context);
  });
}
