/**
 * The built binary on a real pseudo-terminal: `script` (util-linux) gives the
 * command a pty for stdin, stdout and stderr, so it sees a terminal exactly as a
 * user's shell would give it (isTTY, size, colour). Keystrokes are typed when the
 * output shows what they answer.
 */
import { execa } from 'execa';
import { bin } from './binary.js';

export interface TerminalOptions {
  env: Record<string, string>;
  /** Typed in order, each once the output matches its `when`. */
  keys?: Array<{ when: RegExp; send: string }>;
  columns?: number;
  rows?: number;
  timeout?: number;
}

export interface TerminalResult {
  /** Everything the terminal received (stdout and stderr interleaved), escapes included. */
  output: string;
  exitCode: number;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

export async function onTerminal(args: readonly string[], options: TerminalOptions): Promise<TerminalResult> {
  const command = `stty cols ${options.columns ?? 120} rows ${options.rows ?? 40}; exec node ${quote(bin)} ${args.map(quote).join(' ')}`;
  const child = execa('script', ['-qfec', command, '/dev/null'], {
    env: options.env,
    extendEnv: false,
    reject: false,
    timeout: options.timeout ?? 120_000,
    stdin: 'pipe',
  });
  let output = '';
  const keys = [...(options.keys ?? [])];
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    while (keys.length > 0 && (keys[0] as { when: RegExp }).when.test(output)) child.stdin?.write((keys.shift() as { send: string }).send);
  });
  const result = await child;
  if (keys.length === 0) child.stdin?.end();
  return { output, exitCode: result.exitCode ?? -1 };
}
