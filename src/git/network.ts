/**
 * The network side of the git driver (fetch, push) through simple-git, the
 * driver this project names: its `timeout` plugin (no output for the timeout
 * kills git), its `abort` plugin (the overall deadline, or the caller's signal);
 * progress (stage, objects, bytes) is parsed from every line of git's stderr here
 * (`progressOfLine`): simple-git's progress plugin reads one match per stderr chunk,
 * and a fast fetch sends its whole progress in one or two chunks.
 *
 * Local plumbing stays on plain child processes (repo.ts `runGit`): `cat-file
 * --batch` answers binary blobs and `hash-object`/`update-index` take binary or
 * NUL-separated input, which simple-git (text results) cannot carry.
 *
 * Hardening kept from repo.ts: the `-c` options of access.ts (`protocol.allow=never`
 * plus one transport, no hooks, no fsmonitor, under serve no redirects and no
 * credential helper), the environment of `gitEnvironment` (GIT_PROTOCOL_FROM_USER=0,
 * no terminal prompt), `--end-of-options` before the URL (the callers'). simple-git's
 * own guards stay on; only the categories our fixed options trip are allowed, each
 * for a named reason (see UNSAFE_ALLOWED), and ambient `GIT_*` variables are dropped
 * by its environment guard unless listed here.
 */
import { GitPluginError, simpleGit } from 'simple-git';

/** What a git process answered (network and local plumbing alike). */
export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** What a long git operation reports (the CLI draws it on a terminal). */
export interface GitProgress {
  /** `fetch` or `push`. */
  method: string;
  /** `counting`, `compressing`, `receiving`, `resolving`, `writing`… */
  stage: string;
  processed: number;
  total: number;
  /** Bytes transferred so far, when git says (receiving/writing objects). */
  bytes?: number;
}

export interface NetworkRunOptions {
  /** The bare repository the command runs in (the mirror). */
  gitDir: string;
  /** `key=value` pairs given as `-c` (SAFE_CONFIG and the repository's). */
  config: readonly string[];
  /** The whole environment of the process (gitEnvironment() plus credentials). */
  env: Record<string, string>;
  /** Overall deadline; also the longest git may stay silent. */
  timeoutMs: number;
  onProgress?: ((event: GitProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Called once git's process has been started. simple-git starts it a few turns of the event
   * loop after the call: work begun right after the call (loading modules, reading the store)
   * ran before the process existed and delayed it, instead of running beside it.
   */
  onSpawn?: (() => void) | undefined;
}

export const TIMED_OUT = 'git timed out';

/**
 * simple-git refuses, by default, options that can run code or widen what git
 * reaches. Ours narrow it, so the matching checks are lifted one by one:
 * - `core.hooksPath=/dev/null` and `core.fsmonitor=false` turn hooks and fsmonitor off;
 * - `protocol.allow=never` + `protocol.<one>.allow=always` allow only the URL's transport;
 * - `credential.helper=` (serve) disables the stored credentials;
 * - `GIT_SSH_COMMAND=ssh -o BatchMode=yes` forbids password and host-key prompts;
 * - `GIT_CONFIG_COUNT` carries the URL's credentials as an `http.extraHeader`, never on argv.
 * Everything else (`--upload-pack`, `-c core.sshCommand=…`, `--git-dir`, custom binaries…)
 * stays refused.
 */
function unsafeAllowed(options: NetworkRunOptions) {
  const config = options.config.map((pair) => pair.toLowerCase());
  return {
    allowUnsafeHooksPath: config.some((pair) => pair === 'core.hookspath=/dev/null'),
    allowUnsafeFsMonitor: config.some((pair) => pair === 'core.fsmonitor=false'),
    allowUnsafeProtocolOverride: config.includes('protocol.allow=never'),
    allowUnsafeCredentialHelper: config.includes('credential.helper='),
    // Ours, or the one this process was started with (an operator's deploy key): never a request's.
    allowUnsafeSshCommand: options.env.GIT_SSH_COMMAND !== undefined || options.env.GIT_SSH !== undefined,
    allowUnsafeConfigEnvCount: options.env.GIT_CONFIG_COUNT !== undefined,
  };
}

/**
 * The environment git gets: `GIT_*` variables only when they are ours (prompts off,
 * protocol, credentials) or an operator's transport settings (CA bundle, proxy
 * auth, ssh, tracing); variables that name an editor, pager or askpass program are dropped.
 */
const PASSED_GIT_VARIABLES =
  /^GIT_(DIR|SSH|SSH_COMMAND|SSH_VARIANT|TERMINAL_PROMPT|PROTOCOL_FROM_USER|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+|SSL_CAINFO|SSL_CAPATH|SSL_CERT|SSL_KEY|SSL_NO_VERIFY|HTTP_PROXY_AUTHMETHOD|HTTP_LOW_SPEED_LIMIT|HTTP_LOW_SPEED_TIME|TRACE\w*|CURL_VERBOSE)$/;
const DROPPED = new Set(['EDITOR', 'VISUAL', 'PAGER', 'PREFIX', 'SSH_ASKPASS']);

export function networkEnvironment(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const upper = key.toUpperCase();
    if (DROPPED.has(upper)) continue;
    if (upper.startsWith('GIT_') && !PASSED_GIT_VARIABLES.test(upper)) continue;
    out[key] = value;
  }
  return out;
}

/** Bytes in a progress line: `Receiving objects:  45% (450/1000), 1.20 MiB | 2.00 MiB/s`. */
const BYTES = /,\s*([\d.]+)\s*(bytes|KiB|MiB|GiB)\b/;
const UNIT: Record<string, number> = { bytes: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

export function bytesInProgressLine(line: string): number | undefined {
  const match = BYTES.exec(line);
  return match ? Math.round(Number(match[1]) * (UNIT[match[2] as string] ?? 1)) : undefined;
}

/** A progress line: `remote: Counting objects:  45% (450/1000)`, `Receiving objects: 100% (44/44), 1.20 MiB | 2.00 MiB/s, done.` */
const PROGRESS = /^(?:remote:\s*)?([A-Za-z]+)[A-Za-z ]*:\s*\d+% \((\d+)\/(\d+)\)/;

/** The stage (`counting`, `receiving`…), objects and bytes of one line of git's stderr, or undefined when it reports no progress. */
export function progressOfLine(line: string): Omit<GitProgress, 'method'> | undefined {
  const match = PROGRESS.exec(line.trim());
  if (!match) return undefined;
  const bytes = bytesInProgressLine(line);
  return { stage: (match[1] as string).toLowerCase(), processed: Number(match[2]), total: Number(match[3]), ...(bytes !== undefined ? { bytes } : {}) };
}

/** Runs a network git command (fetch, push); resolves with its exit code and output, never rejects on a git failure. */
export async function runNetworkGit(args: readonly string[], options: NetworkRunOptions): Promise<GitResult> {
  let captured: { exitCode: number; stdOut: Buffer[]; stdErr: Buffer[] } | undefined;
  const env = networkEnvironment({ ...options.env, GIT_DIR: options.gitDir });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const onAbort = () => deadline.abort();
  options.signal?.addEventListener('abort', onAbort);
  const method = args[0] ?? 'git';
  // git redraws its progress with \r; a chunk may hold many lines, or end inside one.
  let partial = '';
  const git = simpleGit({
    baseDir: options.gitDir,
    config: [...options.config],
    unsafe: unsafeAllowed(options),
    allowEnvironment: Object.keys(env).filter((key) => key.toUpperCase().startsWith('GIT_')),
    timeout: { block: options.timeoutMs },
    abort: deadline.signal,
    errors: (error, result) => {
      captured = result;
      return error;
    },
  })
    .env(env)
    .outputHandler((_command, _stdout, stderr) => {
      options.onSpawn?.();
      const onProgress = options.onProgress;
      if (!onProgress) return;
      stderr.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString('utf8')).split(/[\r\n]/);
        partial = lines.pop() ?? '';
        for (const line of lines) {
          const progress = progressOfLine(line);
          if (progress) onProgress({ method, ...progress });
        }
      });
    });
  // --progress must come before --end-of-options: the caller's args carry it.
  const argv = options.onProgress ? withProgressFlag(args) : [...args];
  try {
    const stdout = await git.raw(argv);
    return { code: captured?.exitCode ?? 0, stdout: Buffer.from(stdout, 'utf8'), stderr: stderrOf(captured) };
  } catch (error) {
    if (error instanceof GitPluginError && (error.plugin === 'timeout' || error.plugin === 'abort')) {
      const why = options.signal?.aborted ? 'git was cancelled' : `${TIMED_OUT} after ${Math.round(options.timeoutMs / 1000)}s`;
      return { code: 128, stdout: Buffer.alloc(0), stderr: `${stderrOf(captured)}\nfatal: ${why}` };
    }
    if (captured && !(error instanceof GitPluginError)) {
      return { code: captured.exitCode || 1, stdout: Buffer.concat(captured.stdOut), stderr: stderrOf(captured) };
    }
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function stderrOf(result: { stdErr: Buffer[] } | undefined): string {
  return result ? Buffer.concat(result.stdErr).toString('utf8') : '';
}

/** `--progress` right after the subcommand (before `--end-of-options`). */
function withProgressFlag(args: readonly string[]): string[] {
  if (args.includes('--progress')) return [...args];
  const [command, ...rest] = args;
  return [command as string, '--progress', ...rest];
}
