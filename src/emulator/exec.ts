/**
 * `serve --exec -- CMD ARGS…`: the command a CI job runs against the emulator, started with
 * execa (no shell: the arguments are passed as given), its stdio the job's own, and the
 * environment that points docsctl, GitBook's official client and GitBook's CLI at serve.
 * Its exit code becomes serve's; a command killed by a signal gives 128 + the signal's
 * number, as a shell reports it. A stop signal serve receives (Ctrl-C, SIGTERM from the CI
 * runner) is passed on to the command, and serve stops once the command has ended.
 */
import { constants } from 'node:os';
import { execa } from 'execa';
import { DocsctlError, type ExitCode } from '../util/errors.js';

export interface ExecOptions {
  env: NodeJS.ProcessEnv;
  /** Registers a stop-signal handler (CliContext.onStopSignal); returns an unsubscribe. */
  onStopSignal(handler: (signal: string) => void): () => void;
}

/** What a command killed by `signal` exits with in a shell (SIGTERM: 143). */
export const signalExitCode = (signal: string): number => 128 + ((constants.signals as Record<string, number>)[signal] ?? 0);

/** The environment of the command: the endpoint and token under both tools' names. */
export function execEnvironment(endpoint: string, token: string, organizationId: string | undefined): Record<string, string> {
  return {
    DOCSCTL_ENDPOINT: endpoint,
    DOCSCTL_TOKEN: token,
    GITBOOK_ENDPOINT: endpoint,
    GITBOOK_TOKEN: token,
    ...(organizationId !== undefined ? { DOCSCTL_ORG: organizationId } : {}),
  };
}

/** The command could not be started (not found, not executable): exit 127, as a shell. */
export class CommandNotRun extends DocsctlError {
  override get exitCode(): ExitCode {
    return 127 as ExitCode;
  }
}

/** Runs `command` to its end and answers its exit code (see the module comment). */
export async function runCommand(command: readonly string[], options: ExecOptions): Promise<number> {
  const [file, ...args] = command as [string, ...string[]];
  const child = execa(file, args, { env: options.env, extendEnv: false, stdio: 'inherit', reject: false, shell: false });
  const unsubscribe = options.onStopSignal((signal) => {
    child.kill(signal as NodeJS.Signals);
  });
  try {
    const result = await child;
    if (result.signal) return signalExitCode(result.signal);
    if (result.exitCode === undefined) {
      const cause = (result.cause as NodeJS.ErrnoException | undefined)?.code ?? result.shortMessage;
      throw new CommandNotRun(cause === 'ENOENT' ? `--exec: no command "${file}" on PATH` : `--exec: cannot run "${file}": ${cause}`, { hint: 'serve stopped; check the command after --' });
    }
    return result.exitCode;
  } finally {
    unsubscribe();
  }
}
